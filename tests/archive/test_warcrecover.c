/* Recovery of ".open" WARC files: real files from the writer are cut at every
 * interesting point of every gzip member (at its start, inside its 10-byte
 * header, inside the deflate data, inside the 8-byte CRC/ISIZE trailer, one
 * byte short), recovered, and read back with warcread: exactly the members
 * that ended before the cut survive, byte for byte, and nothing else. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/buf.h"
#include "archive/digest.h"
#include "archive/warc.h"
#include "archive/warcread.h"
#include "archive/warcrecover.h"
#include "lib/xmalloc.h"

#define T_DATE_US 1763740800123456ull
#define T_BIG (300u << 10)

struct t_member {
	uint64_t offset;
	uint64_t length;
	char digest[DIGEST_STRLEN];
	int opens; /* an HTTP response or revisit: its request follows */
};

/* One closed WARC written by the writer, with its members. */
struct t_src {
	char *name;
	unsigned char *data;
	size_t size;
	struct t_member *m;
	size_t n;
};

static char *t_tmpdir(void)
{
	char *d = xstrdup("/tmp/test_warcrecover.XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void t_rmdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char *p;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		assert_int_equal(unlink(p), 0);
		free(p);
	}
	closedir(d);
	assert_int_equal(rmdir(dir), 0);
}

static size_t t_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static unsigned char *t_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *p;
	long n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	p = xmalloc((size_t)n + 1);
	assert_int_equal(fread(p, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return p;
}

static void t_spit(const char *path, const void *p, size_t n)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	if (n > 0)
		assert_int_equal(fwrite(p, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

/* Every record of path, which must read cleanly to its end. */
static struct t_member *t_read_all(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	struct warcread *r;
	struct warcread_record rec;
	struct t_member *m = NULL;
	struct buf type = BUF_INIT, uri = BUF_INIT;
	char *err = NULL;
	int rc;

	assert_non_null(fp);
	*n = 0;
	r = warcread_new(fp, 0);
	warcread_record_init(&rec);
	while ((rc = warcread_next(r, &rec, &err)) > 0) {
		m = xrealloc(m, (*n + 1) * sizeof *m);
		m[*n].offset = rec.offset;
		m[*n].length = rec.length;
		memcpy(m[*n].digest, rec.block_digest, DIGEST_STRLEN);
		assert_int_equal(warcread_header(&rec, "WARC-Type", &type), 0);
		m[*n].opens =
		    (strcmp(type.data, "response") == 0 || strcmp(type.data, "revisit") == 0) &&
		    (warcread_header(&rec, "WARC-Target-URI", &uri) < 0 ||
			strncmp(uri.data, "dns:", 4) != 0);
		(*n)++;
	}
	if (rc < 0)
		fail_msg("%s: %s", path, err);
	buf_free(&type);
	buf_free(&uri);
	warcread_record_free(&rec);
	warcread_free(r);
	fclose(fp);
	return m;
}

static void t_capture(
    struct warc_writer *w, const char *uri, const char *body, size_t len, const char *refers_to)
{
	static const char req[] = "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n";
	static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n";
	static const char links[] =
	    "http://example.com/a L a/@href\nhttp://example.com/b L a/@href\n";
	struct warc_capture c;
	struct warc_ids ids;
	char *err = NULL;

	memset(&c, 0, sizeof c);
	c.uri = uri;
	c.ip = "127.0.0.1";
	c.date_us = T_DATE_US;
	c.req = req;
	c.req_len = sizeof req - 1;
	c.resp_head = head;
	c.resp_head_len = sizeof head - 1;
	c.payload = body;
	c.payload_len = len;
	c.payload_fd = -1;
	c.refers_to_uri = refers_to;
	c.refers_to_date = refers_to != NULL ? "2025-11-21T16:00:00.123456Z" : NULL;
	c.via = "http://example.com/";
	c.hops = "L";
	c.outlinks = links;
	c.outlinks_len = sizeof links - 1;
	if (warc_write_http(w, &c, &ids, &err) < 0)
		fail_msg("%s", err);
}

/* A file with every record type, and one record larger than the reader's
 * 64 KiB buffers, so that cuts fall inside a member spanning several reads. */
static void t_src_make(struct t_src *s)
{
	char *dir = t_tmpdir(), *err = NULL, *path;
	struct warc_opts o;
	struct warc_writer *w;
	char *big = xmalloc(T_BIG);
	uint32_t x = 12345;
	DIR *d;
	struct dirent *e;
	static const char dns[] = "20251121160000\nexample.com.\t300\tIN\tA\t127.0.0.1\n";

	/* Pseudo-random bytes compress poorly: the member stays large. */
	for (size_t i = 0; i < T_BIG; i++) {
		x = x * 1103515245u + 12345u;
		big[i] = (char)(x >> 16);
	}
	memset(&o, 0, sizeof o);
	o.dir = dir;
	o.prefix = "REC";
	o.software = "tern/test";
	o.hostname = "box";
	o.port = 1;
	o.first_serial = 3;
	w = warc_open(&o, &err);
	if (w == NULL)
		fail_msg("%s", err);
	if (warc_write_dns(w, "example.com", "127.0.0.53", T_DATE_US, dns, sizeof dns - 1, &err) <
	    0)
		fail_msg("%s", err);
	t_capture(w, "http://example.com/", "<a href=/a>a</a>", 16, NULL);
	t_capture(w, "http://example.com/big", big, T_BIG, NULL);
	t_capture(w, "http://example.com/again", "<a href=/a>a</a>", 16, "http://example.com/");
	t_capture(w, "http://example.com/empty", "", 0, NULL);
	if (warc_flush(w, &err) < 0)
		fail_msg("%s", err);
	warc_close(w);
	free(big);

	d = opendir(dir);
	assert_non_null(d);
	s->name = NULL;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			assert_null(s->name);
			s->name = xstrdup(e->d_name);
		}
	closedir(d);
	assert_non_null(s->name);
	path = xasprintf("%s/%s", dir, s->name);
	s->data = t_slurp(path, &s->size);
	s->m = t_read_all(path, &s->n);
	/* warcinfo, dns, 4 x (response or revisit, request, metadata). */
	assert_int_equal(s->n, 14);
	assert_false(s->m[1].opens);
	assert_true(s->m[2].opens && s->m[5].opens && s->m[8].opens && s->m[11].opens);
	assert_int_equal(s->m[s->n - 1].offset + s->m[s->n - 1].length, s->size);
	free(path);
	t_rmdir(dir);
	free(dir);
}

static void t_src_free(struct t_src *s)
{
	free(s->name);
	free(s->data);
	free(s->m);
}

/* Recoveries whose scan started in the file's tail (their report says so). */
static size_t t_tail_scans;

/* Writes the first cut bytes of the source as a ".open" file, recovers, and
 * checks that exactly the members ending at or before cut survive. */
static void t_cut_check(const struct t_src *s, size_t cut)
{
	char *dir = t_tmpdir(), *err = NULL;
	char *open_path = xasprintf("%s/%s.open", dir, s->name);
	char *final = xasprintf("%s/%s", dir, s->name);
	struct buf report = BUF_INIT;
	size_t keep = 0, end = 0;
	int dropped = 0;
	struct stat st;

	while (keep < s->n && s->m[keep].offset + s->m[keep].length <= cut)
		keep++;
	/* A response whose request did not make it is dropped with it. */
	if (keep > 0 && s->m[keep - 1].opens) {
		keep--;
		dropped = 1;
	}
	if (keep > 0)
		end = s->m[keep - 1].offset + s->m[keep - 1].length;
	t_spit(open_path, s->data, cut);
	if (warcrecover_dir(dir, &report, &err) < 0)
		fail_msg("cut at %zu: %s", cut, err);
	assert_non_null(report.data);
	assert_non_null(strstr(report.data, s->name));
	if (strstr(report.data, " read, the tail;") != NULL)
		t_tail_scans++;
	assert_int_equal(lstat(open_path, &st), -1);
	if (keep == 0) {
		assert_non_null(strstr(report.data, "removed"));
		assert_int_equal(t_count_entries(dir), 0);
	} else {
		size_t len, n;
		unsigned char *got = t_slurp(final, &len);
		struct t_member *m = t_read_all(final, &n);

		if (len != end)
			fail_msg("cut at %zu: %zu bytes left, expected %zu", cut, len, end);
		assert_memory_equal(got, s->data, len);
		assert_int_equal(n, keep);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(m[i].offset, s->m[i].offset);
			assert_int_equal(m[i].length, s->m[i].length);
			assert_string_equal(m[i].digest, s->m[i].digest);
		}
		if (dropped)
			assert_non_null(strstr(report.data, "whose request was lost"));
		if (end < cut)
			assert_non_null(strstr(report.data, "cut"));
		else
			assert_non_null(strstr(report.data, "nothing torn"));
		free(got);
		free(m);
		assert_int_equal(t_count_entries(dir), 1);
	}
	buf_free(&report);
	free(open_path);
	free(final);
	t_rmdir(dir);
	free(dir);
}

static void test_every_cut(void **state)
{
	struct t_src s;
	size_t cuts = 0;

	(void)state;
	t_src_make(&s);
	t_cut_check(&s, 0);
	for (size_t i = 0; i < s.n; i++) {
		uint64_t off = s.m[i].offset, len = s.m[i].length;
		/* Member start; inside the gzip header (10 bytes with no
		 * optional fields); just past it; inside the deflate data;
		 * at the trailer (CRC-32 then ISIZE); inside it; one short. */
		const uint64_t at[] = {0, 1, 5, 9, 10, 11, len / 3, len / 2, len - 9, len - 8,
		    len - 6, len - 4, len - 2, len - 1};

		for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
			if (at[k] >= len)
				continue;
			t_cut_check(&s, (size_t)(off + at[k]));
			cuts++;
		}
		/* The large member spans several of the reader's buffers. */
		for (uint64_t k = 4096; len > 65536 && k < len; k += 16411) {
			t_cut_check(&s, (size_t)(off + k));
			cuts++;
		}
	}
	t_cut_check(&s, s.size);
	assert_true(cuts > 150);
	t_src_free(&s);
}

/* The same cuts with the scan starting in the file's tail: windows of 16
 * and 64 KiB put the start after the large member, inside it (no member
 * starts in the window: the whole file is read) and on small members. */
static void test_every_cut_tail(void **state)
{
	static const uint64_t tails[] = {16u << 10, 64u << 10};

	for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
		t_tail_scans = 0;
		warcrecover_set_tail(tails[i]);
		test_every_cut(state);
		/* Cuts past the large member, at least, were read from the tail. */
		if (t_tail_scans < 20)
			fail_msg("window %llu: %zu scans from the tail",
			    (unsigned long long)tails[i], t_tail_scans);
	}
	warcrecover_set_tail(0);
}

/* A power cut can leave the file's tail as zeros (size grown, data not
 * written): that is no gzip member and is cut like a torn one. */
static void test_zero_tail(void **state)
{
	struct t_src s;
	char *dir = t_tmpdir(), *err = NULL;
	char *open_path, *final;
	unsigned char *data;
	struct buf report = BUF_INIT;
	size_t len, n;
	struct t_member *m;

	(void)state;
	t_src_make(&s);
	data = xcalloc(1, s.size + 4096);
	memcpy(data, s.data, s.size);
	open_path = xasprintf("%s/%s.open", dir, s.name);
	final = xasprintf("%s/%s", dir, s.name);
	t_spit(open_path, data, s.size + 4096);
	assert_int_equal(warcrecover_dir(dir, &report, &err), 0);
	assert_non_null(strstr(report.data, "cut 4096 bytes"));
	free(t_slurp(final, &len));
	assert_int_equal(len, s.size);
	m = t_read_all(final, &n);
	assert_int_equal(n, s.n);
	free(m);
	free(data);
	buf_free(&report);
	free(open_path);
	free(final);
	t_rmdir(dir);
	free(dir);
	t_src_free(&s);
}

/* Several files at once: only "*.warc.gz.open" are touched, a closed WARC
 * and other files stay byte for byte, a warcinfo-only file is kept. */
static void test_directory(void **state)
{
	struct t_src s;
	char *dir = t_tmpdir(), *err = NULL, *p;
	struct buf report = BUF_INIT;
	size_t len, n, lines = 0;
	unsigned char *got;
	struct t_member *m;
	static const char *const others[] = {"notes.open", "x.warc.open", "closed.warc.gz"};

	(void)state;
	t_src_make(&s);
	/* A: cut inside the big member; B: warcinfo and a torn dns record;
	 * C: a torn warcinfo only. */
	p = xasprintf("%s/A-%s.open", dir, s.name);
	t_spit(p, s.data, (size_t)(s.m[5].offset + s.m[5].length / 2));
	free(p);
	p = xasprintf("%s/B-%s.open", dir, s.name);
	t_spit(p, s.data, (size_t)(s.m[1].offset + 3));
	free(p);
	p = xasprintf("%s/C-%s.open", dir, s.name);
	t_spit(p, s.data, (size_t)(s.m[0].length - 1));
	free(p);
	for (size_t i = 0; i < 3; i++) {
		p = xasprintf("%s/%s", dir, others[i]);
		t_spit(p, s.data, 100);
		free(p);
	}
	assert_int_equal(warcrecover_dir(dir, &report, &err), 0);
	for (const char *q = report.data; (q = strchr(q, '\n')) != NULL; q++)
		lines++;
	assert_int_equal(lines, 3);

	p = xasprintf("%s/A-%s", dir, s.name);
	m = t_read_all(p, &n);
	assert_int_equal(n, 5);
	free(m);
	free(p);
	p = xasprintf("%s/B-%s", dir, s.name);
	m = t_read_all(p, &n);
	assert_int_equal(n, 1);
	assert_int_equal(m[0].length, s.m[0].length);
	free(m);
	free(p);
	for (size_t i = 0; i < 3; i++) {
		p = xasprintf("%s/%s", dir, others[i]);
		got = t_slurp(p, &len);
		assert_int_equal(len, 100);
		assert_memory_equal(got, s.data, 100);
		free(got);
		free(p);
	}
	/* A, B and the three others; C removed. */
	assert_int_equal(t_count_entries(dir), 5);
	/* Running again finds nothing to do. */
	buf_reset(&report);
	assert_int_equal(warcrecover_dir(dir, &report, &err), 0);
	assert_int_equal(report.len, 0);
	buf_free(&report);
	t_rmdir(dir);
	free(dir);
	t_src_free(&s);
}

/* Refusals leave every byte in place: a symlink (which could lead outside
 * the directory), a final name that already exists. The other files are
 * still recovered. */
static void test_refusals(void **state)
{
	struct t_src s;
	char *dir = t_tmpdir(), *outside = t_tmpdir(), *err = NULL, *p, *q;
	struct buf report = BUF_INIT;
	unsigned char *got;
	size_t len, n;
	struct t_member *m;

	(void)state;
	t_src_make(&s);
	p = xasprintf("%s/target", outside);
	t_spit(p, s.data, 50);
	q = xasprintf("%s/L-%s.open", dir, s.name);
	assert_int_equal(symlink(p, q), 0);
	free(q);
	free(p);
	p = xasprintf("%s/E-%s.open", dir, s.name);
	t_spit(p, s.data, 60);
	free(p);
	p = xasprintf("%s/E-%s", dir, s.name);
	t_spit(p, s.data, 70);
	free(p);
	p = xasprintf("%s/G-%s.open", dir, s.name);
	t_spit(p, s.data, (size_t)(s.m[2].offset + 1));
	free(p);

	assert_int_equal(warcrecover_dir(dir, &report, &err), -1);
	assert_non_null(err);
	assert_non_null(strstr(err, "already exists"));
	/* O_NOFOLLOW refuses the symlink with ELOOP. */
	assert_non_null(strstr(report.data, "Too many levels of symbolic links"));
	free(err);

	p = xasprintf("%s/target", outside);
	got = t_slurp(p, &len);
	assert_int_equal(len, 50);
	free(got);
	free(p);
	p = xasprintf("%s/E-%s.open", dir, s.name);
	got = t_slurp(p, &len);
	assert_int_equal(len, 60);
	free(got);
	free(p);
	p = xasprintf("%s/E-%s", dir, s.name);
	got = t_slurp(p, &len);
	assert_int_equal(len, 70);
	free(got);
	free(p);
	p = xasprintf("%s/G-%s", dir, s.name);
	m = t_read_all(p, &n);
	assert_int_equal(n, 2);
	free(m);
	free(p);
	buf_free(&report);
	t_rmdir(dir);
	t_rmdir(outside);
	free(dir);
	free(outside);
	t_src_free(&s);
}

static void test_missing_dir(void **state)
{
	struct buf report = BUF_INIT;
	char *err = NULL;

	(void)state;
	assert_int_equal(warcrecover_dir("/nonexistent/tern/warcs", &report, &err), 0);
	assert_int_equal(report.len, 0);
	assert_null(err);
	assert_int_equal(warcrecover_dir("/etc/passwd", &report, &err), -1);
	assert_non_null(err);
	free(err);
	buf_free(&report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_cut),
	    cmocka_unit_test(test_every_cut_tail),
	    cmocka_unit_test(test_zero_tail),
	    cmocka_unit_test(test_directory),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_missing_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
