/* WARC writer, reader and dedup index: every record type is written, read
 * back with warcread and checked field by field (digests recomputed over the
 * stored blocks); rotation, WARC/1.0 mode, disk-full recovery and the
 * LevelDB-backed digest index are exercised on real files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <leveldb/c.h>
#include "lib/buf.h"
#include "archive/dedup.h"
#include "archive/digest.h"
#include "archive/warc.h"
#include "archive/warcread.h"
#include "frontier/bloom.h"
#include "lib/xmalloc.h"

#define T_DATE_US 1763740800123456ull /* 2025-11-21T16:00:00.123456Z */

static const char t_req[] = "GET /a HTTP/1.1\r\nHost: example.com\r\nUser-Agent: tern\r\n\r\n";
static const char t_head[] =
    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 11\r\n\r\n";
static const char t_body[] = "hello world";

struct t_rec {
	char *header;
	char *block;
	size_t block_len;
	char block_digest[DIGEST_STRLEN];
	char *file;
};

struct t_job {
	char dir[64];
	struct t_rec *recs;
	size_t n;
	char **files;
	size_t nfiles;
};

static int t_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void t_job_init(struct t_job *j)
{
	memset(j, 0, sizeof *j);
	snprintf(j->dir, sizeof j->dir, "/tmp/test_warc.XXXXXX");
	assert_non_null(mkdtemp(j->dir));
}

static void t_job_free(struct t_job *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->recs[i].header);
		free(j->recs[i].block);
	}
	for (size_t i = 0; i < j->nfiles; i++) {
		char *p = xasprintf("%s/%s", j->dir, j->files[i]);
		unlink(p);
		free(p);
		free(j->files[i]);
	}
	free(j->files);
	free(j->recs);
	rmdir(j->dir);
}

static struct warc_opts t_opts(const struct t_job *j)
{
	struct warc_opts o = {0};

	o.dir = j->dir;
	o.prefix = "TEST";
	o.max_size = 1000000000;
	o.software = "tern/0.1.0";
	o.hostname = "box";
	o.port = 8443;
	o.first_serial = 7;
	o.warcinfo_extra = "operator: tests\r\njob: unit\r\n";
	return o;
}

/* Reads every record of every file in the job directory, files in name order. */
static void t_job_read(struct t_job *j)
{
	DIR *d = opendir(j->dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		j->files = xrealloc(j->files, (j->nfiles + 1) * sizeof *j->files);
		j->files[j->nfiles++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (j->nfiles > 0)
		qsort(j->files, j->nfiles, sizeof *j->files, t_cmp);
	for (size_t f = 0; f < j->nfiles; f++) {
		char *path = xasprintf("%s/%s", j->dir, j->files[f]);
		FILE *fp = fopen(path, "rb");
		struct warcread *r;
		struct warcread_record rec;
		char *err = NULL;
		uint64_t expect_offset = 0;
		int rc;

		assert_non_null(fp);
		r = warcread_new(fp, SIZE_MAX);
		warcread_record_init(&rec);
		while ((rc = warcread_next(r, &rec, &err)) > 0) {
			struct t_rec *t;

			assert_int_equal(rec.offset, expect_offset);
			expect_offset += rec.length;
			j->recs = xrealloc(j->recs, (j->n + 1) * sizeof *j->recs);
			t = &j->recs[j->n++];
			t->header = xstrdup(rec.header.data);
			t->block = xmalloc(rec.block.len + 1);
			memcpy(t->block, rec.block.data, rec.block.len + 1);
			t->block_len = rec.block.len;
			assert_int_equal(rec.block_len, rec.block.len);
			memcpy(t->block_digest, rec.block_digest, DIGEST_STRLEN);
			t->file = j->files[f];
		}
		if (rc < 0)
			fail_msg("%s: %s", path, err);
		warcread_record_free(&rec);
		warcread_free(r);
		fclose(fp);
		free(path);
	}
}

/* The value of a header of record i, or NULL; the result is freed by the
 * next call. */
static const char *t_hdr(const struct t_job *j, size_t i, const char *name)
{
	static struct buf v = BUF_INIT;
	struct warcread_record rec;

	warcread_record_init(&rec);
	buf_appends(&rec.header, j->recs[i].header);
	if (warcread_header(&rec, name, &v) < 0) {
		buf_free(&rec.header);
		return NULL;
	}
	buf_free(&rec.header);
	return v.data;
}

static void t_expect_hdr(const struct t_job *j, size_t i, const char *name, const char *value)
{
	const char *v = t_hdr(j, i, name);

	if (v == NULL)
		fail_msg("record %zu has no %s", i, name);
	assert_string_equal(v, value);
}

/* Fields every record must carry, and a block digest that matches. */
static void t_check_common(const struct t_job *j, size_t i, const char *version)
{
	const char *v;
	char *len;

	assert_true(strncmp(j->recs[i].header, version, strlen(version)) == 0);
	v = t_hdr(j, i, "WARC-Record-ID");
	assert_non_null(v);
	assert_int_equal(strlen(v), 47);
	assert_true(strncmp(v, "<urn:uuid:", 10) == 0 && v[24] == '4');
	assert_non_null(t_hdr(j, i, "WARC-Date"));
	assert_non_null(t_hdr(j, i, "WARC-Type"));
	len = xasprintf("%zu", j->recs[i].block_len);
	t_expect_hdr(j, i, "Content-Length", len);
	free(len);
	t_expect_hdr(j, i, "WARC-Block-Digest", j->recs[i].block_digest);
	v = t_hdr(j, i, "WARC-Target-URI");
	assert_true(v == NULL || v[0] != '<');
}

static struct warc_capture t_capture(const char *uri)
{
	struct warc_capture c = {0};

	c.uri = uri;
	c.ip = "192.0.2.1";
	c.date_us = T_DATE_US;
	c.req = t_req;
	c.req_len = strlen(t_req);
	c.resp_head = t_head;
	c.resp_head_len = strlen(t_head);
	c.payload = t_body;
	c.payload_len = strlen(t_body);
	c.payload_fd = -1;
	return c;
}

static void t_write(struct warc_writer *w, const struct warc_capture *c, struct warc_ids *ids)
{
	char *err = NULL;

	if (warc_write_http(w, c, ids, &err) < 0)
		fail_msg("warc_write_http: %s", err);
}

static void test_warc_response(void **state)
{
	struct t_job j;
	struct warc_opts o;
	struct warc_writer *w;
	struct warc_capture c = t_capture("http://example.com/a");
	/* An empty line and one with a control character are left out; the
	 * last line needs no newline. */
	const char outlinks[] = "http://example.com/b L a/@href\n\nhttp://example.com/\x01 L a\n"
				"http://example.com/c.css E link/@href";
	struct warc_ids ids;
	char *err = NULL, body_digest[DIGEST_STRLEN], *block;
	char wid[48];

	t_job_init(&j);
	o = t_opts(&j);
	w = warc_open(&o, &err);
	assert_non_null(w);
	assert_null(warc_current_file(w));
	c.via = "http://example.com/";
	c.hops = "L";
	c.title = "A page";
	c.outlinks = outlinks;
	c.outlinks_len = sizeof outlinks - 1;
	t_write(w, &c, &ids);
	assert_int_equal(warc_serial(w), 8);
	assert_int_equal(warc_flush(w, &err), 0);
	warc_close(w);
	t_job_read(&j);

	assert_int_equal(j.nfiles, 1);
	assert_true(strncmp(j.files[0], "TEST-", 5) == 0);
	assert_non_null(strstr(j.files[0], "-00007-"));
	assert_non_null(strstr(j.files[0], "~box~8443.warc.gz"));
	assert_int_equal(
	    strstr(j.files[0], "-00007-") - j.files[0], strlen("TEST-YYYYMMDDHHMMSSmmm"));
	assert_int_equal(j.n, 4);
	for (size_t i = 0; i < j.n; i++)
		t_check_common(&j, i, "WARC/1.1\r\n");

	t_expect_hdr(&j, 0, "WARC-Type", "warcinfo");
	t_expect_hdr(&j, 0, "WARC-Filename", j.files[0]);
	t_expect_hdr(&j, 0, "Content-Type", "application/warc-fields");
	assert_non_null(strstr(j.recs[0].block, "software: tern/0.1.0\r\n"));
	assert_non_null(strstr(j.recs[0].block, "format: WARC File Format 1.1\r\n"));
	assert_non_null(strstr(j.recs[0].block, "operator: tests\r\njob: unit\r\n"));
	snprintf(wid, sizeof wid, "%s", t_hdr(&j, 0, "WARC-Record-ID"));

	t_expect_hdr(&j, 1, "WARC-Type", "response");
	t_expect_hdr(&j, 1, "WARC-Record-ID", ids.response_id);
	t_expect_hdr(&j, 1, "WARC-Warcinfo-ID", wid);
	t_expect_hdr(&j, 1, "WARC-Date", "2025-11-21T16:00:00.123456Z");
	assert_string_equal(ids.date, "2025-11-21T16:00:00.123456Z");
	t_expect_hdr(&j, 1, "WARC-Target-URI", "http://example.com/a");
	t_expect_hdr(&j, 1, "WARC-IP-Address", "192.0.2.1");
	t_expect_hdr(&j, 1, "Content-Type", "application/http;msgtype=response");
	digest_of(t_body, strlen(t_body), body_digest);
	t_expect_hdr(&j, 1, "WARC-Payload-Digest", body_digest);
	assert_string_equal(ids.payload_digest, body_digest);
	assert_null(t_hdr(&j, 1, "WARC-Truncated"));
	block = xasprintf("%s%s", t_head, t_body);
	assert_string_equal(j.recs[1].block, block);
	free(block);

	t_expect_hdr(&j, 2, "WARC-Type", "request");
	t_expect_hdr(&j, 2, "WARC-Concurrent-To", ids.response_id);
	t_expect_hdr(&j, 2, "Content-Type", "application/http;msgtype=request");
	t_expect_hdr(&j, 2, "WARC-Date", ids.date);
	t_expect_hdr(&j, 2, "WARC-Warcinfo-ID", wid);
	assert_string_equal(j.recs[2].block, t_req);

	t_expect_hdr(&j, 3, "WARC-Type", "metadata");
	t_expect_hdr(&j, 3, "WARC-Concurrent-To", ids.response_id);
	t_expect_hdr(&j, 3, "WARC-Target-URI", "http://example.com/a");
	t_expect_hdr(&j, 3, "Content-Type", "application/warc-fields");
	assert_string_equal(j.recs[3].block,
	    "via: http://example.com/\r\nhopsFromSeed: L\r\n"
	    "title: A page\r\noutlink: http://example.com/b L a/@href\r\n"
	    "outlink: http://example.com/c.css E link/@href\r\n");
	t_job_free(&j);
}

/* Table of response variants: what the caller hands in, what is stored. */
static const struct {
	const char *name;
	const char *head;
	const char *body;
	const char *truncated;
	const char *stored_head;
} t_variants[] = {
    {"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n",
	"de-chunked body", NULL,
	"HTTP/1.1 200 OK\r\nX-Orig-Transfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"},
    {"lower-case te", "HTTP/1.1 200 OK\r\ntransfer-encoding:  gzip, chunked\r\n\r\n",
	"\x1f\x8b\x08", NULL,
	"HTTP/1.1 200 OK\r\nX-Orig-transfer-encoding:  gzip, chunked\r\n\r\n"},
    {"gzip content coding kept",
	"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\n",
	"\x1f\x8b\x08\x00", NULL,
	"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\n"},
    {"truncated length", "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", "part", "length",
	"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"},
    {"truncated time", "HTTP/1.1 200 OK\r\n\r\n", "slow", "time", "HTTP/1.1 200 OK\r\n\r\n"},
    {"304", "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n", "", NULL,
	"HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"},
    {"redirect", "HTTP/1.1 301 Moved Permanently\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n", "",
	NULL, "HTTP/1.1 301 Moved Permanently\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n"},
};

static void test_warc_variants(void **state)
{
	for (size_t v = 0; v < sizeof t_variants / sizeof t_variants[0]; v++) {
		struct t_job j;
		struct warc_opts o;
		struct warc_writer *w;
		struct warc_capture c = t_capture("https://example.com/v");
		struct warc_ids ids;
		char *err = NULL, dg[DIGEST_STRLEN], *block;

		t_job_init(&j);
		o = t_opts(&j);
		w = warc_open(&o, &err);
		c.resp_head = t_variants[v].head;
		c.resp_head_len = strlen(t_variants[v].head);
		c.payload = t_variants[v].body;
		c.payload_len = strlen(t_variants[v].body);
		c.truncated = t_variants[v].truncated;
		t_write(w, &c, &ids);
		warc_close(w);
		t_job_read(&j);
		assert_int_equal(j.n, 3); /* no metadata without via/hops/outlinks */
		t_check_common(&j, 1, "WARC/1.1\r\n");
		t_expect_hdr(&j, 1, "WARC-Type", "response");
		block = xasprintf("%s%s", t_variants[v].stored_head, t_variants[v].body);
		if (strcmp(j.recs[1].block, block) != 0)
			fail_msg("%s: stored block differs", t_variants[v].name);
		free(block);
		digest_of(t_variants[v].body, strlen(t_variants[v].body), dg);
		t_expect_hdr(&j, 1, "WARC-Payload-Digest", dg);
		if (t_variants[v].truncated != NULL)
			t_expect_hdr(&j, 1, "WARC-Truncated", t_variants[v].truncated);
		else
			assert_null(t_hdr(&j, 1, "WARC-Truncated"));
		t_job_free(&j);
	}
}

/* A body spilled to a file is read back in pieces; its digest is computed
 * by the writer when the caller gives none. */
static void test_warc_spill(void **state)
{
	struct t_job j;
	struct warc_opts o;
	struct warc_writer *w;
	struct warc_capture c = t_capture("http://example.com/big");
	struct warc_ids ids;
	size_t n = 700000;
	char *body = xmalloc(n), *err = NULL, dg[DIGEST_STRLEN];
	FILE *fp = tmpfile();

	for (size_t i = 0; i < n; i++)
		body[i] = (char)(i * 7 + i / 251);
	assert_int_equal(fwrite(body, 1, n, fp), n);
	fflush(fp);
	t_job_init(&j);
	o = t_opts(&j);
	w = warc_open(&o, &err);
	c.payload = NULL;
	c.payload_len = 0;
	c.payload_fd = fileno(fp);
	c.payload_fd_len = n;
	t_write(w, &c, &ids);
	/* A spill file shorter than announced is an error, and nothing is queued. */
	c.payload_fd_len = n + 1;
	assert_true(warc_write_http(w, &c, &ids, &err) < 0);
	assert_non_null(strstr(err, "spilled body"));
	free(err);
	warc_close(w);
	fclose(fp);
	t_job_read(&j);
	assert_int_equal(j.n, 3);
	assert_int_equal(j.recs[1].block_len, strlen(t_head) + n);
	assert_memory_equal(j.recs[1].block + strlen(t_head), body, n);
	digest_of(body, n, dg);
	t_expect_hdr(&j, 1, "WARC-Payload-Digest", dg);
	t_check_common(&j, 1, "WARC/1.1\r\n");
	free(body);
	t_job_free(&j);
}

static void test_warc_revisit_dns_v10(void **state)
{
	static const char rr[] = "20251121160000\nexample.com.\t300\tIN\tA\t192.0.2.1\n";
	for (int v10 = 0; v10 <= 1; v10++) {
		struct t_job j;
		struct warc_opts o;
		struct warc_writer *w;
		struct warc_capture c = t_capture("http://example.com/copy");
		struct warc_ids ids;
		char *err = NULL, *profile;
		const char *version = v10 ? "WARC/1.0\r\n" : "WARC/1.1\r\n";

		t_job_init(&j);
		o = t_opts(&j);
		o.version10 = v10;
		w = warc_open(&o, &err);
		assert_int_equal(
		    warc_write_dns(w, "example.com", "127.0.0.53", T_DATE_US, rr, strlen(rr), &err),
		    0);
		c.payload_digest = "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5";
		c.refers_to_uri = "http://example.com/orig";
		c.refers_to_date = "2025-11-21T15:00:00.000001Z";
		t_write(w, &c, &ids);
		warc_close(w);
		t_job_read(&j);
		assert_int_equal(j.n, 4);
		for (size_t i = 0; i < j.n; i++)
			t_check_common(&j, i, version);
		assert_non_null(strstr(j.recs[0].block,
		    v10 ? "format: WARC File Format 1.0" : "format: WARC File Format 1.1"));
		t_expect_hdr(&j, 1, "WARC-Type", "response");
		t_expect_hdr(&j, 1, "WARC-Target-URI", "dns:example.com");
		t_expect_hdr(&j, 1, "Content-Type", "text/dns");
		t_expect_hdr(&j, 1, "WARC-IP-Address", "127.0.0.53");
		assert_string_equal(j.recs[1].block, rr);
		t_expect_hdr(&j, 1, "WARC-Date",
		    v10 ? "2025-11-21T16:00:00Z" : "2025-11-21T16:00:00.123456Z");

		t_expect_hdr(&j, 2, "WARC-Type", "revisit");
		profile =
		    xasprintf("http://netpreserve.org/warc/%s/revisit/identical-payload-digest",
			v10 ? "1.0" : "1.1");
		t_expect_hdr(&j, 2, "WARC-Profile", profile);
		free(profile);
		t_expect_hdr(&j, 2, "WARC-Refers-To-Target-URI", "http://example.com/orig");
		t_expect_hdr(&j, 2, "WARC-Refers-To-Date", "2025-11-21T15:00:00.000001Z");
		t_expect_hdr(&j, 2, "WARC-Payload-Digest", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
		t_expect_hdr(&j, 2, "WARC-Truncated", "length");
		t_expect_hdr(&j, 2, "Content-Type", "application/http;msgtype=response");
		assert_string_equal(j.recs[2].block, t_head);
		t_expect_hdr(&j, 3, "WARC-Concurrent-To", ids.response_id);
		t_job_free(&j);
	}
}

/* A 304 to a conditional request: a revisit with the server-not-modified
 * profile (WARC 1.1 section 6.7.2), naming the earlier capture; its block
 * is the whole 304 response, nothing is truncated, and the payload digest
 * is the earlier content's. */
static void test_warc_not_modified(void **state)
{
	static const char head304[] = "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n";

	for (int v10 = 0; v10 <= 1; v10++) {
		struct t_job j;
		struct warc_opts o;
		struct warc_writer *w;
		struct warc_capture c = t_capture("http://example.com/page");
		struct warc_ids ids;
		char *err = NULL, *profile;

		t_job_init(&j);
		o = t_opts(&j);
		o.version10 = v10;
		w = warc_open(&o, &err);
		c.resp_head = head304;
		c.resp_head_len = strlen(head304);
		c.payload = "";
		c.payload_len = 0;
		c.payload_digest = "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5";
		c.refers_to_uri = "http://example.com/page";
		c.refers_to_date = "2025-11-21T15:00:00.000001Z";
		c.not_modified = 1;
		t_write(w, &c, &ids);
		warc_close(w);
		t_job_read(&j);
		assert_int_equal(j.n, 3);
		for (size_t i = 0; i < j.n; i++)
			t_check_common(&j, i, v10 ? "WARC/1.0\r\n" : "WARC/1.1\r\n");
		t_expect_hdr(&j, 1, "WARC-Type", "revisit");
		profile = xasprintf("http://netpreserve.org/warc/%s/revisit/server-not-modified",
		    v10 ? "1.0" : "1.1");
		t_expect_hdr(&j, 1, "WARC-Profile", profile);
		free(profile);
		t_expect_hdr(&j, 1, "WARC-Refers-To-Target-URI", "http://example.com/page");
		t_expect_hdr(&j, 1, "WARC-Refers-To-Date", "2025-11-21T15:00:00.000001Z");
		t_expect_hdr(&j, 1, "WARC-Payload-Digest", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
		assert_null(t_hdr(&j, 1, "WARC-Truncated"));
		assert_string_equal(j.recs[1].block, head304);
		assert_string_equal(ids.payload_digest, "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
		t_expect_hdr(&j, 2, "WARC-Concurrent-To", ids.response_id);
		t_job_free(&j);
	}
}

/* Small files: several rotations, each file opened by its own warcinfo,
 * each capture whole in one file, serials consecutive, no ".open" left. */
static void test_warc_rotation(void **state)
{
	struct t_job j;
	struct warc_opts o;
	struct warc_writer *w;
	char *err = NULL, body[1500], uri[64];
	struct warc_ids ids;
	size_t files_seen = 0;
	char wid[48] = "";

	for (size_t i = 0; i < sizeof body; i++)
		body[i] = (char)((i * 2654435761u) >> 13);
	t_job_init(&j);
	o = t_opts(&j);
	o.max_size = 6000;
	w = warc_open(&o, &err);
	for (int i = 0; i < 20; i++) {
		struct warc_capture c = t_capture(uri);
		snprintf(uri, sizeof uri, "http://example.com/%d", i);
		body[0] = (char)i;
		c.payload = body;
		c.payload_len = sizeof body;
		t_write(w, &c, &ids);
	}
	assert_int_equal(warc_flush(w, &err), 0);
	warc_close(w);
	t_job_read(&j);
	assert_true(j.nfiles >= 4);
	assert_int_equal(j.n, j.nfiles + 40);
	for (size_t f = 0; f < j.nfiles; f++) {
		char *path = xasprintf("%s/%s", j.dir, j.files[f]);
		struct stat st;
		char serial[16];

		assert_int_equal(stat(path, &st), 0);
		assert_true((uint64_t)st.st_size <= o.max_size);
		snprintf(serial, sizeof serial, "-%05zu-", 7 + f);
		assert_non_null(strstr(j.files[f], serial));
		assert_null(strstr(j.files[f], ".open"));
		free(path);
	}
	for (size_t i = 0; i < j.n; i++) {
		const char *type = t_hdr(&j, i, "WARC-Type");
		if (strcmp(type, "warcinfo") == 0) {
			files_seen++;
			snprintf(wid, sizeof wid, "%s", t_hdr(&j, i, "WARC-Record-ID"));
			t_expect_hdr(&j, i, "WARC-Filename", j.recs[i].file);
			continue;
		}
		t_expect_hdr(&j, i, "WARC-Warcinfo-ID", wid);
		if (strcmp(type, "request") == 0) {
			char id[48];
			snprintf(id, sizeof id, "%s", t_hdr(&j, i - 1, "WARC-Record-ID"));
			t_expect_hdr(&j, i, "WARC-Concurrent-To", id);
			assert_ptr_equal(j.recs[i].file, j.recs[i - 1].file);
		}
	}
	assert_int_equal(files_seen, j.nfiles);
	t_job_free(&j);
}

static void test_warc_rejects(void **state)
{
	struct t_job j;
	struct warc_opts o;
	struct warc_writer *w;
	struct warc_capture c = t_capture("http://example.com/a\r\nWARC-Type: x");
	struct warc_ids ids;
	char *err = NULL;

	t_job_init(&j);
	o = t_opts(&j);
	o.prefix = "a/b";
	assert_null(warc_open(&o, &err));
	free(err);
	o = t_opts(&j);
	w = warc_open(&o, &err);
	assert_true(warc_write_http(w, &c, &ids, &err) < 0);
	assert_non_null(strstr(err, "control character"));
	free(err);
	assert_true(warc_write_dns(w, "bad host", NULL, T_DATE_US, "", 0, &err) < 0);
	free(err);
	warc_close(w);
	t_job_read(&j);
	assert_int_equal(j.n, 0); /* no file was even opened */
	t_job_free(&j);
}

/* A write that fails (here EFBIG from RLIMIT_FSIZE, as ENOSPC would) keeps
 * everything queued; new captures are refused until a flush succeeds, and
 * then every accepted capture is on disk. */
static void test_warc_disk_full(void **state)
{
	struct t_job j;
	struct warc_opts o;
	struct warc_writer *w;
	struct rlimit old, lim;
	char *err = NULL, body[8192], uri[64];
	struct warc_ids ids;
	int accepted = 0;
	uint32_t x = 2463534242u;

	/* Incompressible, so that the queue passes the write threshold. */
	for (size_t i = 0; i < sizeof body; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		body[i] = (char)x;
	}
	signal(SIGXFSZ, SIG_IGN);
	t_job_init(&j);
	o = t_opts(&j);
	w = warc_open(&o, &err);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 100000;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (int i = 0; i < 400; i++) {
		struct warc_capture c = t_capture(uri);
		snprintf(uri, sizeof uri, "http://example.com/%d", i);
		body[0] = (char)i;
		c.payload = body;
		c.payload_len = sizeof body;
		if (warc_write_http(w, &c, &ids, &err) < 0) {
			free(err);
			err = NULL;
			continue;
		}
		accepted++;
	}
	if (accepted == 0 || accepted == 400)
		fail_msg("%d of 400 captures accepted", accepted);
	assert_true(warc_flush(w, &err) < 0);
	assert_non_null(strstr(err, "stay queued"));
	free(err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(warc_flush(w, &err), 0);
	warc_close(w);
	signal(SIGXFSZ, SIG_DFL);
	t_job_read(&j);
	assert_int_equal(j.n, 1 + 2 * (size_t)accepted);
	t_job_free(&j);
}

static void test_dedup(void **state)
{
	char dir[] = "/tmp/test_dedup.XXXXXX", *lerr = NULL, *err = NULL;
	leveldb_options_t *opt = leveldb_options_create();
	leveldb_t *db;
	struct dedup *d;
	struct buf u = BUF_INIT, dt = BUF_INIT;
	const char *a = "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5";

	assert_non_null(mkdtemp(dir));
	leveldb_options_set_create_if_missing(opt, 1);
	db = leveldb_open(opt, dir, &lerr);
	assert_null(lerr);
	d = dedup_open(db, &err);
	assert_int_equal(
	    dedup_check(d, a, "http://a/1", "2025-01-01T00:00:00.000001Z", &u, &dt), 0);
	/* Seen again before the batch is written: answered from memory. */
	assert_int_equal(dedup_check(d, a, "http://a/2", "2025-01-02T00:00:00Z", &u, &dt), 1);
	assert_string_equal(u.data, "http://a/1");
	assert_string_equal(dt.data, "2025-01-01T00:00:00.000001Z");
	assert_int_equal(
	    dedup_check(d, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "http://a/3", "x", &u, &dt), 0);
	assert_int_equal(
	    dedup_check(d, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", "http://a/4", "x", &u, &dt), 0);
	for (int i = 0; i < 300; i++) {
		char dg[DIGEST_STRLEN];
		digest_of(&i, sizeof i, dg);
		assert_int_equal(
		    dedup_check(d, dg, "http://b/", "2025-01-03T00:00:00Z", &u, &dt), 0);
	}
	assert_int_equal(dedup_pending(d), 301);
	/* Written by another's write, as the crawl's frontier does
	 * (frontier_set_companion). */
	{
		leveldb_writeoptions_t *wo = leveldb_writeoptions_create();
		leveldb_writebatch_t *wb = leveldb_writebatch_create();

		assert_non_null(dedup_batch(d));
		leveldb_writebatch_append(wb, dedup_batch(d));
		leveldb_write(db, wo, wb, &lerr);
		assert_null(lerr);
		dedup_written(d);
		leveldb_writebatch_destroy(wb);
		leveldb_writeoptions_destroy(wo);
	}
	assert_int_equal(dedup_pending(d), 0);
	assert_null(dedup_batch(d));
	assert_int_equal(dedup_flush(d, &err), 0);
	dedup_free(d);
	/* After a restart: answered from LevelDB. */
	leveldb_close(db);
	db = leveldb_open(opt, dir, &lerr);
	assert_null(lerr);
	d = dedup_open(db, &err);
	assert_int_equal(dedup_check(d, a, "http://a/5", "2025-01-05T00:00:00Z", &u, &dt), 1);
	assert_string_equal(u.data, "http://a/1");
	assert_string_equal(dt.data, "2025-01-01T00:00:00.000001Z");
	for (int i = 0; i < 300; i++) {
		char dg[DIGEST_STRLEN];
		digest_of(&i, sizeof i, dg);
		assert_int_equal(dedup_check(d, dg, "http://c/", "z", &u, &dt), 1);
		assert_string_equal(u.data, "http://b/");
	}
	assert_int_equal(dedup_pending(d), 0);
	dedup_free(d);
	leveldb_close(db);
	leveldb_destroy_db(opt, dir, &lerr);
	leveldb_options_destroy(opt);
	buf_free(&u);
	buf_free(&dt);
	rmdir(dir);
}

/* With dedup_hold_new (the WARC pool's mode), an entry answers checks at
 * once but is written only once committed, and survives flushes until then;
 * a forgotten one is gone. */
static void test_dedup_hold(void **state)
{
	char dir[] = "/tmp/test_dedup.XXXXXX", *lerr = NULL, *err = NULL;
	leveldb_options_t *opt = leveldb_options_create();
	leveldb_t *db;
	struct dedup *d;
	struct buf u = BUF_INIT, dt = BUF_INIT;
	const char *a = "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5",
		   *b = "sha1:AAMT4NSHA2AWVOR6EVYXQUGCNSONBWE5";
	const char *c = "sha1:BBMT4NSHA2AWVOR6EVYXQUGCNSONBWE5";

	(void)state;
	assert_non_null(mkdtemp(dir));
	leveldb_options_set_create_if_missing(opt, 1);
	db = leveldb_open(opt, dir, &lerr);
	assert_null(lerr);
	d = dedup_open(db, &err);
	dedup_hold_new(d);
	assert_int_equal(dedup_check(d, a, "http://a/1", "d1", &u, &dt), 0);
	assert_int_equal(dedup_check(d, b, "http://b/1", "d2", &u, &dt), 0);
	assert_int_equal(dedup_check(d, c, "http://c/1", "d3", &u, &dt), 0);
	assert_int_equal(dedup_pending(d), 0);
	assert_int_equal(dedup_check(d, a, "http://a/2", "d4", &u, &dt), 1);
	assert_string_equal(u.data, "http://a/1");
	dedup_commit(d, b);
	dedup_commit(d, b);
	assert_int_equal(dedup_pending(d), 1);
	dedup_forget(d, c);
	assert_int_equal(dedup_check(d, c, "http://c/2", "d5", &u, &dt), 0);
	assert_int_equal(dedup_flush(d, &err), 0);
	/* Held entries outlive the flush, in memory. */
	assert_int_equal(dedup_check(d, a, "http://a/3", "d6", &u, &dt), 1);
	assert_int_equal(dedup_check(d, c, "http://c/3", "d7", &u, &dt), 1);
	assert_string_equal(u.data, "http://c/2");
	dedup_free(d);
	leveldb_close(db);
	db = leveldb_open(opt, dir, &lerr);
	assert_null(lerr);
	d = dedup_open(db, &err);
	assert_int_equal(dedup_check(d, b, "http://b/2", "d8", &u, &dt), 1);
	assert_string_equal(u.data, "http://b/1");
	/* Never committed: never written. */
	assert_int_equal(dedup_check(d, a, "http://a/4", "d9", &u, &dt), 0);
	dedup_free(d);
	leveldb_close(db);
	leveldb_destroy_db(opt, dir, &lerr);
	leveldb_options_destroy(opt);
	buf_free(&u);
	buf_free(&dt);
	rmdir(dir);
}

/* The filter (dedup_set_filter; the crawl's, a Bloom filter from the
 * frontier): digests already in the store are read into it in steps, and
 * once all are, a new digest is proven new without a LevelDB read while an
 * old one is still found; answers are the index's either way. The recent
 * entries answer from memory, the least recently used dropped first. */
static void t_bloom_add(void *arg, uint64_t h)
{
	bloom_add(arg, h);
}

static int t_bloom_test(void *arg, uint64_t h)
{
	return bloom_test(arg, h);
}

static void test_dedup_filter(void **state)
{
	char dir[] = "/tmp/test_dedup.XXXXXX", *lerr = NULL, *err = NULL;
	leveldb_options_t *opt = leveldb_options_create();
	leveldb_t *db;
	struct dedup *d;
	struct dedup_stats st;
	struct dedup_filter f;
	struct bloom *bl;
	struct buf u = BUF_INIT, dt = BUF_INIT;
	const int old = 1000, fresh = 2000;

	(void)state;
	assert_non_null(mkdtemp(dir));
	leveldb_options_set_create_if_missing(opt, 1);
	db = leveldb_open(opt, dir, &lerr);
	assert_null(lerr);
	d = dedup_open(db, &err);
	for (int i = 0; i < old; i++) {
		char dg[DIGEST_STRLEN];
		digest_of(&i, sizeof i, dg);
		assert_int_equal(dedup_check(d, dg, "http://old/", "d0", &u, &dt), 0);
	}
	assert_int_equal(dedup_flush(d, &err), 0);
	dedup_free(d);
	leveldb_close(db);

	db = leveldb_open(opt, dir, &lerr);
	assert_null(lerr);
	d = dedup_open(db, &err);
	bl = bloom_new(64, 16);
	f.arg = bl;
	f.add = t_bloom_add;
	f.test = t_bloom_test;
	/* 300 at the start, 300 a flush: loaded at the fourth flush. */
	dedup_load_batches(300, 300);
	assert_int_equal(dedup_set_filter(d, &f, &err), 0);
	dedup_get_stats(d, &st);
	assert_int_equal(st.loaded, 300);
	/* While it loads, a new digest is read. */
	{
		int i = old;
		char dg[DIGEST_STRLEN];
		digest_of(&i, sizeof i, dg);
		assert_int_equal(dedup_check(d, dg, "http://new/", "d1", &u, &dt), 0);
		dedup_get_stats(d, &st);
		assert_int_equal(st.reads, 1);
		assert_int_equal(st.filtered, 0);
	}
	for (int k = 0; k < 3; k++)
		assert_int_equal(dedup_flush(d, &err), 0);
	dedup_get_stats(d, &st);
	assert_int_equal(st.loaded, old);
	for (int i = old + 1; i < old + fresh; i++) {
		char dg[DIGEST_STRLEN];
		digest_of(&i, sizeof i, dg);
		assert_int_equal(dedup_check(d, dg, "http://new/", "d1", &u, &dt), 0);
	}
	dedup_get_stats(d, &st);
	/* About 1 % false positives: each is a read, which finds nothing. */
	assert_true(st.filtered >= (uint64_t)fresh * 95 / 100);
	assert_int_equal(st.filtered + st.reads, fresh);
	/* Old digests pass the filter and are found in the store. */
	for (int i = 0; i < old; i++) {
		char dg[DIGEST_STRLEN];
		digest_of(&i, sizeof i, dg);
		assert_int_equal(dedup_check(d, dg, "http://x/", "d2", &u, &dt), 1);
		assert_string_equal(u.data, "http://old/");
		assert_string_equal(dt.data, "d0");
	}
	dedup_get_stats(d, &st);
	assert_int_equal(st.reads, fresh - st.filtered + old);
	/* Once read, they answer from memory; so do the new ones. */
	for (int i = 0; i < old + fresh; i++) {
		char dg[DIGEST_STRLEN];
		digest_of(&i, sizeof i, dg);
		assert_int_equal(dedup_check(d, dg, "http://y/", "d3", &u, &dt), 1);
		assert_string_equal(u.data, i < old ? "http://old/" : "http://new/");
	}
	dedup_get_stats(d, &st);
	assert_int_equal(st.reads, fresh - st.filtered + old);
	assert_int_equal(st.memory_hits, old + fresh);
	/* Written new entries, then more than the memory keeps. */
	assert_int_equal(dedup_flush(d, &err), 0);
	for (int i = old + fresh; i < old + fresh + 9000; i++) {
		char dg[DIGEST_STRLEN];
		digest_of(&i, sizeof i, dg);
		assert_int_equal(dedup_check(d, dg, "http://more/", "d4", &u, &dt), 0);
	}
	assert_int_equal(dedup_flush(d, &err), 0);
	dedup_get_stats(d, &st);
	assert_true(st.memory_entries <= 8192);
	/* The oldest went from memory, not from the index. */
	{
		int i = 0;
		char dg[DIGEST_STRLEN];
		uint64_t reads = st.reads;
		digest_of(&i, sizeof i, dg);
		assert_int_equal(dedup_check(d, dg, "http://z/", "d5", &u, &dt), 1);
		assert_string_equal(u.data, "http://old/");
		dedup_get_stats(d, &st);
		assert_int_equal(st.reads, reads + 1);
	}
	dedup_load_batches(0, 0);
	dedup_free(d);
	bloom_free(bl);
	leveldb_close(db);
	leveldb_destroy_db(opt, dir, &lerr);
	leveldb_options_destroy(opt);
	buf_free(&u);
	buf_free(&dt);
	rmdir(dir);
}

/* Bad input gets an error naming the offset, never a crash. */
static void test_warcread_bad(void **state)
{
	static const struct {
		const char *data;
		size_t len;
		int rc;
	} cases[] = {
	    {"", 0, 0},
	    {"not gzip at all", 15, -1},
	    {"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10, -1},
	};
	struct warcread_record rec;

	warcread_record_init(&rec);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		FILE *fp = fmemopen(
		    (void *)(uintptr_t)cases[i].data, cases[i].len ? cases[i].len : 1, "rb");
		struct warcread *r;
		char *err = NULL;

		if (cases[i].len == 0) {
			fclose(fp);
			fp = fopen("/dev/null", "rb");
		}
		r = warcread_new(fp, 1024);
		assert_int_equal(warcread_next(r, &rec, &err), cases[i].rc);
		if (cases[i].rc < 0) {
			assert_non_null(err);
			free(err);
		}
		warcread_free(r);
		fclose(fp);
	}
	warcread_record_free(&rec);
}

/* Cut-short and corrupted copies of a real file are reported, not crashed on. */
static void test_warcread_damaged(void **state)
{
	struct t_job j;
	struct warc_opts o;
	struct warc_writer *w;
	struct warc_capture c = t_capture("http://example.com/a");
	struct warc_ids ids;
	char *err = NULL, *path, *data;
	FILE *fp;
	long size;

	t_job_init(&j);
	o = t_opts(&j);
	w = warc_open(&o, &err);
	t_write(w, &c, &ids);
	warc_close(w);
	t_job_read(&j);
	path = xasprintf("%s/%s", j.dir, j.files[0]);
	fp = fopen(path, "rb");
	fseek(fp, 0, SEEK_END);
	size = ftell(fp);
	rewind(fp);
	data = xmalloc((size_t)size);
	assert_int_equal(fread(data, 1, (size_t)size, fp), (size_t)size);
	fclose(fp);
	for (long cut = 1; cut < size; cut += 7) {
		for (int flip = 0; flip <= 1; flip++) {
			struct warcread_record rec;
			struct warcread *r;
			int rc, nrec = 0;

			if (flip)
				data[cut] ^= 0x55;
			fp = fmemopen(data, (size_t)(flip ? size : cut), "rb");
			r = warcread_new(fp, 64);
			warcread_record_init(&rec);
			while ((rc = warcread_next(r, &rec, &err)) > 0)
				nrec++;
			/* A cut on a member boundary is a clean, shorter file. */
			if (!flip)
				assert_true(rc == -1 || nrec < 3);
			if (rc < 0)
				free(err);
			warcread_record_free(&rec);
			warcread_free(r);
			fclose(fp);
			if (flip)
				data[cut] ^= 0x55;
		}
	}
	free(data);
	free(path);
	t_job_free(&j);
}

/* WARC-Date is formatted by hand: it must say what strftime says, in both
 * versions, across the dates a crawl can meet. */
static void test_warc_date(void **state)
{
	static const uint64_t t[] = {0, 1000000, 951782400999999ull, 1763740800123456ull,
	    1767225599999999ull, 4102444800000001ull, 253402300799000000ull};
	for (int v10 = 0; v10 <= 1; v10++) {
		struct t_job j;
		struct warc_opts o;
		struct warc_writer *w;
		char *err = NULL;

		t_job_init(&j);
		o = t_opts(&j);
		o.version10 = v10;
		w = warc_open(&o, &err);
		assert_non_null(w);
		for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
			char got[32], want[40], base[24];
			time_t s = (time_t)(t[i] / 1000000u);
			struct tm tm;

			gmtime_r(&s, &tm);
			strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
			if (v10)
				snprintf(want, sizeof want, "%sZ", base);
			else
				snprintf(want, sizeof want, "%s.%06uZ", base,
				    (unsigned)(t[i] % 1000000u));
			warc_date_format(w, t[i], got);
			assert_string_equal(got, want);
		}
		warc_close(w);
		t_job_read(&j);
		t_job_free(&j);
	}
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_warc_response),
	    cmocka_unit_test(test_warc_variants),
	    cmocka_unit_test(test_warc_spill),
	    cmocka_unit_test(test_warc_revisit_dns_v10),
	    cmocka_unit_test(test_warc_not_modified),
	    cmocka_unit_test(test_warc_rotation),
	    cmocka_unit_test(test_warc_rejects),
	    cmocka_unit_test(test_warc_disk_full),
	    cmocka_unit_test(test_dedup),
	    cmocka_unit_test(test_dedup_hold),
	    cmocka_unit_test(test_dedup_filter),
	    cmocka_unit_test(test_warcread_bad),
	    cmocka_unit_test(test_warcread_damaged),
	    cmocka_unit_test(test_warc_date),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
