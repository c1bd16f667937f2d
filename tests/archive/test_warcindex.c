/* The CDXJ indexer over WARC files written here by hand, one gzip member per
 * record as any per-record-gzip writer makes them: which records give a
 * line, the WARC/1.0 "<...>" form of WARC-Target-URI (as GNU wget writes
 * it), the record hook `tern wacz` reads its pages from, and what a file or
 * a job directory that yields no line says. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "lib/buf.h"
#include "archive/warcindex.h"
#include "archive/warcread.h"
#include "lib/xmalloc.h"

/* One record: version, type, target (NULL: none), HTTP block. */
struct t_rec {
	const char *version;
	const char *type;
	const char *target;
	const char *block;
};

static const char t_http[] = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
			     "<title>a</title>";

static void t_member(FILE *fp, const char *data, size_t len)
{
	z_stream z;
	unsigned char out[8192];
	int zr;

	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	do {
		z.next_out = out;
		z.avail_out = sizeof out;
		zr = deflate(&z, Z_FINISH);
		assert_true(zr == Z_OK || zr == Z_STREAM_END);
		assert_int_equal(
		    fwrite(out, 1, sizeof out - z.avail_out, fp), sizeof out - z.avail_out);
	} while (zr != Z_STREAM_END);
	deflateEnd(&z);
}

static void t_write(const char *path, const struct t_rec *recs, size_t n)
{
	FILE *fp = fopen(path, "wb");
	struct buf b = BUF_INIT;

	assert_non_null(fp);
	for (size_t i = 0; i < n; i++) {
		const char *block = recs[i].block ? recs[i].block : "";
		buf_reset(&b);
		buf_appendf(&b, "WARC/%s\r\nWARC-Type: %s\r\n", recs[i].version, recs[i].type);
		if (recs[i].target)
			buf_appendf(&b, "WARC-Target-URI: %s\r\n", recs[i].target);
		buf_appendf(&b,
		    "WARC-Date: 2026-11-21T16:00:00Z\r\nWARC-Record-ID: <urn:uuid:%zu>\r\n"
		    "Content-Length: %zu\r\n\r\n%s\r\n\r\n",
		    i, strlen(block), block);
		t_member(fp, b.data, b.len);
	}
	buf_free(&b);
	assert_int_equal(fclose(fp), 0);
}

static char t_dir[64];

static int t_setup(void **state)
{
	char path[128];

	(void)state;
	snprintf(t_dir, sizeof t_dir, "/tmp/test_warcindex.XXXXXX");
	assert_non_null(mkdtemp(t_dir));
	snprintf(path, sizeof path, "%s/warcs", t_dir);
	assert_int_equal(mkdir(path, 0755), 0);
	return 0;
}

static int t_teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", t_dir);

	(void)state;
	assert_int_equal(system(cmd), 0);
	free(cmd);
	return 0;
}

static void test_target_uri(void **state)
{
	static const struct {
		const char *field; /* NULL: no such header */
		int rc;
		const char *want;
	} cases[] = {
	    {"http://a.test/", 0, "http://a.test/"},
	    {"<http://a.test/x?y>", 0, "http://a.test/x?y"},
	    {"  <http://a.test/>  ", 0, "http://a.test/"},
	    {"<>", 0, ""},
	    {"<", 0, "<"},
	    {"<http://a.test/", 0, "<http://a.test/"},
	    {"http://a.test/>", 0, "http://a.test/>"},
	    {NULL, -1, NULL},
	};
	struct warcread_record rec;
	struct buf out = BUF_INIT;

	(void)state;
	warcread_record_init(&rec);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&rec.header);
		buf_appends(&rec.header, "WARC/1.0\r\nWARC-Type: response\r\n");
		if (cases[i].field)
			buf_appendf(&rec.header, "WARC-Target-URI: %s\r\n", cases[i].field);
		buf_appends(&rec.header, "\r\n");
		assert_int_equal(warcread_target_uri(&rec, &out), cases[i].rc);
		if (cases[i].rc == 0)
			assert_string_equal(out.data, cases[i].want);
	}
	warcread_record_free(&rec);
	buf_free(&out);
}

static void t_count_cb(void *arg, const struct warcread_record *rec, const char *filename)
{
	(void)rec;
	assert_string_equal(filename, "f.warc.gz");
	(*(int *)arg)++;
}

static void test_lines(void **state)
{
	static const struct {
		struct t_rec rec;
		size_t lines;	     /* 0 or 1 */
		const char *in_line; /* a substring of that line */
	} cases[] = {
	    {{"1.1", "response", "http://a.test/", t_http}, 1,
		"test,a)/ 20261121160000 {\"url\":\"http://a.test/\",\"mime\":\"text/html\",\"status\":\"200\""},
	    {{"1.0", "response", "<http://a.test/w>", t_http}, 1,
		"test,a)/w 20261121160000 {\"url\":\"http://a.test/w\""},
	    {{"1.0", "revisit", "<https://a.test/r>", t_http}, 1, "\"mime\":\"warc/revisit\""},
	    {{"1.1", "request", "http://a.test/", "GET / HTTP/1.1\r\n\r\n"}, 0, NULL},
	    {{"1.1", "metadata", "<http://a.test/>", "via: x\r\n"}, 0, NULL},
	    {{"1.1", "response", "dns:a.test", "20261121160000\r\n"}, 0, NULL},
	    {{"1.1", "response", "<>", t_http}, 0, NULL},
	    {{"1.1", "response", "ftp://a.test/", t_http}, 0, NULL},
	    {{"1.1", "response", NULL, t_http}, 0, NULL},
	    {{"1.1", "warcinfo", NULL, "software: x\r\n"}, 0, NULL},
	};
	char path[128];

	(void)state;
	snprintf(path, sizeof path, "%s/f.warc.gz", t_dir);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct warcindex *x = warcindex_new();
		char *err = NULL, *text = NULL, *notes = NULL;
		size_t tlen = 0, nlen = 0;
		FILE *out = open_memstream(&text, &tlen), *nfp = open_memstream(&notes, &nlen);
		int seen = 0;

		t_write(path, &cases[i].rec, 1);
		warcindex_notes(x, nfp, "test");
		warcindex_on_record(x, t_count_cb, &seen);
		assert_int_equal(warcindex_add_file(x, path, "f.warc.gz", &err), 0);
		assert_int_equal(seen, 1);
		if (warcindex_count(x) != cases[i].lines)
			print_error("case %zu\n", i);
		assert_int_equal(warcindex_count(x), cases[i].lines);
		assert_int_equal(warcindex_write(x, out, &err), 0);
		fclose(out);
		fclose(nfp);
		if (cases[i].lines) {
			assert_non_null(strstr(text, cases[i].in_line));
			assert_string_equal(notes, "");
		} else {
			assert_string_equal(text, "");
			/* The file is named, with what it held. */
			assert_non_null(strstr(notes, "test: "));
			assert_non_null(strstr(notes, path));
			assert_non_null(
			    strstr(notes, "no HTTP response or revisit record in 1 record\n"));
		}
		free(text);
		free(notes);
		warcindex_free(x);
		unlink(path);
	}
}

static void test_run(void **state)
{
	static const struct t_rec dns_only[] = {
	    {"1.1", "warcinfo", NULL, "software: x\r\n"},
	    {"1.1", "response", "dns:a.test", "20261121160000\r\n"},
	};
	static const struct t_rec wget[] = {
	    {"1.0", "warcinfo", NULL, "software: Wget/1.21\r\n"},
	    {"1.0", "request", "<http://a.test/>", "GET / HTTP/1.1\r\n\r\n"},
	    {"1.0", "response", "<http://a.test/>", t_http},
	};
	char path[128], *err = NULL, *text = NULL, *notes = NULL;
	size_t tlen = 0, nlen = 0;
	FILE *out, *nfp;

	(void)state;
	/* No WARC at all. */
	out = fopen("/dev/null", "w");
	assert_int_equal(warcindex_run(t_dir, out, NULL, &err), -1);
	assert_non_null(strstr(err, "no WARC file"));
	free(err);
	err = NULL;

	/* Only DNS: the file is named and the run fails. */
	snprintf(path, sizeof path, "%s/warcs/a.warc.gz", t_dir);
	t_write(path, dns_only, 2);
	nfp = open_memstream(&notes, &nlen);
	assert_int_equal(warcindex_run(t_dir, out, nfp, &err), -1);
	fclose(nfp);
	assert_non_null(strstr(err, "nothing to index"));
	assert_non_null(
	    strstr(notes, "a.warc.gz: no HTTP response or revisit record in 2 records"));
	free(err);
	free(notes);
	err = NULL;
	fclose(out);

	/* A wget-style WARC beside it: indexed; the DNS file is still named. */
	snprintf(path, sizeof path, "%s/warcs/b.warc.gz", t_dir);
	t_write(path, wget, 3);
	out = open_memstream(&text, &tlen);
	nfp = open_memstream(&notes, &nlen);
	assert_int_equal(warcindex_run(t_dir, out, nfp, &err), 0);
	fclose(out);
	fclose(nfp);
	assert_non_null(strstr(text, "test,a)/ 20261121160000 {\"url\":\"http://a.test/\""));
	assert_non_null(strstr(text, "\"filename\":\"b.warc.gz\"}\n"));
	assert_non_null(strstr(notes, "a.warc.gz"));
	assert_null(strstr(notes, "b.warc.gz"));
	free(text);
	free(notes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_target_uri),
	    cmocka_unit_test_setup_teardown(test_lines, t_setup, t_teardown),
	    cmocka_unit_test_setup_teardown(test_run, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
