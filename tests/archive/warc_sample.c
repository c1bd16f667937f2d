/* Writes a sample job the way the crawl loop does (dedup index in LevelDB,
 * WARC writer, a Heritrix-style crawl.log) with every kind of record: dns,
 * plain, chunked-then-dechunked, gzip-encoded, truncated by length and by
 * time, 304, redirect, a revisit, a 304 revisit, metadata, a spilled body, and enough pages
 * to rotate files at a small maximum size. tests/archive/warc_validate.mjs then reads
 * it with an independent reader. The job's CDXJ index is written to
 * JOBDIR/index.cdxj with warcindex_run, as `tern warc-index` does.
 *
 *   warc_sample JOBDIR [--v10] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <leveldb/c.h>
#include "lib/buf.h"
#include "archive/dedup.h"
#include "archive/digest.h"
#include "archive/warc.h"
#include "archive/warcindex.h"
#include "lib/xmalloc.h"

#define SAMPLE_T0 1763740800000000ull

struct sample {
	struct warc_writer *w;
	struct dedup *dd;
	FILE *log;
	uint64_t now;
	int v10;
};

static void sample_die(const char *what, char *err)
{
	fprintf(stderr, "warc_sample: %s: %s\n", what, err != NULL ? err : strerror(errno));
	exit(1);
}

/* One crawl.log line in the contract's column layout. */
static void sample_log(struct sample *s, int status, size_t size, const char *uri, const char *mime,
    const char *digest, const char *annot)
{
	time_t t = (time_t)(s->now / 1000000u);
	struct tm tm;
	char stamp[32], fetch[24];

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(fetch, sizeof fetch, "%Y%m%d%H%M%S", &tm);
	fprintf(s->log, "%s.%03uZ %5d %10zu %s - - %s #000 %s%03u+5 %s - %s\n", stamp,
	    (unsigned)(s->now / 1000u % 1000u), status, size, uri, mime, fetch,
	    (unsigned)(s->now / 1000u % 1000u), digest, annot);
}

/* Archives one fetch: dedup lookup, then a response or a revisit. */
static void sample_fetch(struct sample *s, const char *uri, const char *head, const void *body,
    size_t len, const char *truncated, int status, const char *mime)
{
	struct warc_capture c = {0};
	struct warc_ids ids;
	struct buf ru = BUF_INIT, rd = BUF_INIT;
	char dg[DIGEST_STRLEN], date[32], *req, *err = NULL;
	const char outlinks[] =
	    "http://example.com/chunked L a/@href\nhttp://example.com/style.css E link/@href\n";
	const char *annot = truncated == NULL ? "-"
	    : strcmp(truncated, "time") == 0  ? "timeTrunc"
					      : "lenTrunc";
	int dup;

	s->now += 1000;
	digest_of(body, len, dg);
	req = xasprintf("GET %s HTTP/1.1\r\nHost: example.com\r\nUser-Agent: tern/0.1.0\r\n\r\n",
	    strchr(uri + 8, '/'));
	c.uri = uri;
	c.ip = "127.0.0.1";
	c.date_us = s->now;
	c.req = req;
	c.req_len = strlen(req);
	c.resp_head = head;
	c.resp_head_len = strlen(head);
	c.payload = body;
	c.payload_len = len;
	c.payload_fd = -1;
	c.payload_digest = dg;
	c.truncated = truncated;
	c.via = "http://example.com/";
	c.hops = "L";
	c.outlinks = outlinks;
	c.outlinks_len = sizeof outlinks - 1;
	/* Truncated payloads are not entered in the index: their digest is not
	 * the resource's. */
	dup = 0;
	if (truncated == NULL) {
		warc_date_format(s->w, s->now, date);
		dup = dedup_check(s->dd, dg, uri, date, &ru, &rd);
		if (dup < 0)
			sample_die("dedup", NULL);
	}
	if (dup) {
		c.refers_to_uri = ru.data;
		c.refers_to_date = rd.data;
		annot = "duplicate:digest";
	}
	if (warc_write_http(s->w, &c, &ids, &err) < 0)
		sample_die(uri, err);
	sample_log(s, status, len, uri, mime, dg, annot);
	buf_free(&ru);
	buf_free(&rd);
	free(req);
}

static void sample_gzip(const char *text, struct buf *out)
{
	z_stream z = {0};

	buf_reset(out);
	buf_reserve(out, compressBound((uLong)strlen(text)) + 64);
	deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = (Bytef *)out->data;
	z.avail_out = (uInt)(out->cap - 1);
	deflate(&z, Z_FINISH);
	out->len = z.total_out;
	deflateEnd(&z);
}

int main(int argc, char **argv)
{
	static const char html[] =
	    "<html><a href=chunked>c</a><link rel=stylesheet href=style.css></html>\n";
	static const char rr[] = "20251121160000\nexample.com.\t300\tIN\tA\t127.0.0.1\n";
	struct sample s = {0};
	struct warc_opts o = {0};
	struct buf gz = BUF_INIT;
	leveldb_options_t *lopt;
	leveldb_t *db;
	char *err = NULL, *dir, *state, *logpath, *head, *idxpath, body[3000];
	FILE *spill, *idx;
	uint32_t x = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: warc_sample JOBDIR [--v10]\n");
		return 2;
	}
	s.v10 = argc > 2 && strcmp(argv[2], "--v10") == 0;
	s.now = SAMPLE_T0;
	if (mkdir(argv[1], 0755) < 0 && errno != EEXIST)
		sample_die(argv[1], NULL);
	dir = xasprintf("%s/warcs", argv[1]);
	state = xasprintf("%s/state", argv[1]);
	logpath = xasprintf("%s/crawl.log", argv[1]);
	lopt = leveldb_options_create();
	leveldb_options_set_create_if_missing(lopt, 1);
	db = leveldb_open(lopt, state, &err);
	if (db == NULL)
		sample_die(state, err);
	s.dd = dedup_open(db, &err);
	s.log = fopen(logpath, "w");
	if (s.log == NULL)
		sample_die(logpath, NULL);
	o.dir = dir;
	o.prefix = "SAMPLE";
	o.max_size = 20000;
	o.version10 = s.v10;
	o.software = "tern/0.1.0";
	o.hostname = "sample";
	o.port = 0;
	o.warcinfo_extra = "operator: warc_sample\r\njob: sample\r\n";
	s.w = warc_open(&o, &err);
	if (s.w == NULL)
		sample_die("warc_open", err);

	if (warc_write_dns(s.w, "example.com", "127.0.0.53", s.now, rr, strlen(rr), &err) < 0)
		sample_die("dns", err);
	sample_log(&s, 1, strlen(rr), "dns:example.com", "text/dns", "-", "-");
	sample_fetch(&s, "http://example.com/",
	    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
	    "Content-Length: 71\r\n\r\n",
	    html, strlen(html), NULL, 200, "text/html");
	sample_fetch(&s, "http://example.com/chunked",
	    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n",
	    "5\r\nhello\r\n0\r\n\r\n is text, not framing",
	    strlen("5\r\nhello\r\n0\r\n\r\n is text, not framing"), NULL, 200, "text/plain");
	sample_gzip("a gzip-encoded body, stored with its content coding\n", &gz);
	sample_fetch(&s, "http://example.com/gzip",
	    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
	    "Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n",
	    gz.data, gz.len, NULL, 200, "text/plain");
	sample_fetch(&s, "http://example.com/trunc-length",
	    "HTTP/1.1 200 OK\r\nContent-Type: "
	    "application/octet-stream\r\nContent-Length: 100000\r\n\r\n",
	    "first bytes only", 16, "length", 200, "application/octet-stream");
	sample_fetch(&s, "http://example.com/trunc-time",
	    "HTTP/1.1 200 OK\r\nContent-Type: "
	    "text/plain\r\n\r\n",
	    "slow drip", 9, "time", 200, "text/plain");
	sample_fetch(&s, "http://example.com/notmod",
	    "HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n", "", 0, NULL, 304, "-");
	sample_fetch(&s, "http://example.com/redirect",
	    "HTTP/1.1 301 Moved Permanently\r\n"
	    "Location: http://example.com/\r\nContent-Length: 0\r\n\r\n",
	    "", 0, NULL, 301, "-");
	/* Same payload as the home page at another URI: a revisit. */
	sample_fetch(&s, "http://example.com/copy",
	    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
	    "Content-Length: 71\r\n\r\n",
	    html, strlen(html), NULL, 200, "text/html");
	/* The home page again, answered 304 to a conditional request: a
	 * server-not-modified revisit of its first capture. */
	{
		struct warc_capture c = {0};
		struct warc_ids ids;
		static const char req[] = "GET / HTTP/1.1\r\nHost: example.com\r\n"
					  "If-None-Match: \"1\"\r\n\r\n";
		static const char head304[] = "HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n";
		char dg[DIGEST_STRLEN], date[32];

		/* The home page was the first fetch, 1 ms after the start. */
		digest_of(html, strlen(html), dg);
		warc_date_format(s.w, SAMPLE_T0 + 1000, date);
		s.now += 1000;
		c.uri = "http://example.com/";
		c.ip = "127.0.0.1";
		c.date_us = s.now;
		c.req = req;
		c.req_len = strlen(req);
		c.resp_head = head304;
		c.resp_head_len = strlen(head304);
		c.payload = "";
		c.payload_fd = -1;
		c.payload_digest = dg;
		c.refers_to_uri = "http://example.com/";
		c.refers_to_date = date;
		c.not_modified = 1;
		if (warc_write_http(s.w, &c, &ids, &err) < 0)
			sample_die("304 revisit", err);
		sample_log(&s, 304, 0, c.uri, "-", dg, "duplicate:digest");
	}
	if (dedup_flush(s.dd, &err) < 0 || warc_flush(s.w, &err) < 0)
		sample_die("flush", err);
	/* Incompressible pages, so that files rotate at 20 kB. */
	for (int i = 0; i < 24; i++) {
		char uri[64];

		for (size_t k = 0; k < sizeof body; k++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			body[k] = (char)('a' + x % 26);
		}
		snprintf(uri, sizeof uri, "http://example.com/page/%d?x=%d", i, i);
		sample_fetch(&s, uri,
		    "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
		    "Content-Length: 3000\r\n\r\n",
		    body, sizeof body, NULL, 200, "text/plain");
	}
	/* A body spilled to a file, as the fetch engine does for large ones. */
	spill = tmpfile();
	for (int i = 0; i < 100; i++)
		fwrite(body, 1, sizeof body, spill);
	fflush(spill);
	{
		struct warc_capture c = {0};
		struct warc_ids ids;
		static const char req[] = "GET /big HTTP/1.1\r\nHost: example.com\r\n\r\n";

		head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n";
		s.now += 1000;
		c.uri = "http://example.com/big";
		c.ip = "127.0.0.1";
		c.date_us = s.now;
		c.req = req;
		c.req_len = strlen(req);
		c.resp_head = head;
		c.resp_head_len = strlen(head);
		c.payload_fd = fileno(spill);
		c.payload_fd_len = 100 * sizeof body;
		if (warc_write_http(s.w, &c, &ids, &err) < 0)
			sample_die("spill", err);
		sample_log(&s, 200, 100 * sizeof body, c.uri, "application/octet-stream",
		    ids.payload_digest, "-");
	}
	fclose(spill);
	if (dedup_flush(s.dd, &err) < 0 || warc_flush(s.w, &err) < 0)
		sample_die("flush", err);
	printf("wrote %u WARC files into %s\n", warc_serial(s.w), dir);
	warc_close(s.w);
	dedup_free(s.dd);
	leveldb_close(db);
	leveldb_options_destroy(lopt);
	fclose(s.log);
	idxpath = xasprintf("%s/index.cdxj", argv[1]);
	idx = fopen(idxpath, "w");
	if (idx == NULL)
		sample_die(idxpath, NULL);
	if (warcindex_run(argv[1], idx, stderr, &err) < 0)
		sample_die("warcindex_run", err);
	fclose(idx);
	free(idxpath);
	buf_free(&gz);
	free(dir);
	free(state);
	free(logpath);
	return 0;
}
