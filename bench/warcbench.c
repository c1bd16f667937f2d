/* WARC writing speed: captures/s and MB/s of input through the real writer
 * (digests, one gzip member per record, buffered writes to a temp directory)
 * at zlib levels 1 and 6, and, built with -DHAVE_LIBDEFLATE -ldeflate, the
 * same per-record gzip members made by libdeflate for comparison.
 *
 *   bench/warcbench [CAPTURES] [BODY_BYTES] */
#include <build-config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#include "archive/digest.h"
#include "archive/warc.h"
#include "lib/xmalloc.h"

#ifdef HAVE_LIBDEFLATE
#define WARCBENCH_BACKEND "libdeflate"
#else
#define WARCBENCH_BACKEND "zlib"
#endif

static double warcbench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* HTML-like text: words from a small vocabulary and markup, compressing
 * about as real pages do (3-5x). */
static void warcbench_body(char *p, size_t n, unsigned seed)
{
	static const char *words[] = {"<div class=\"item\">", "the", "crawler", "archive",
	    "<a href=\"/page/", "\">", "</a>", "web", "record", "of", "and", "</div>\n", "<p>",
	    "</p>", "2026", "news", "index"};
	size_t o = 0;

	while (o < n) {
		const char *w;
		size_t l;

		seed = seed * 1103515245u + 12345u;
		w = words[(seed >> 16) % (sizeof words / sizeof words[0])];
		l = strlen(w);
		if (o + l + 1 > n)
			l = n - o - 1;
		memcpy(p + o, w, l);
		o += l;
		p[o++] = ' ';
	}
}

static void warcbench_clean(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d != NULL && (e = readdir(d)) != NULL) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		unlink(p);
		free(p);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
}

static void warcbench_writer(int level, int n, char **bodies, size_t body_len)
{
	static const char req[] =
	    "GET /page HTTP/1.1\r\nHost: example.com\r\nUser-Agent: tern/0.1.0\r\n"
	    "Accept: */*\r\n\r\n";
	static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
				   "Server: bench\r\nDate: Sat, 21 Nov 2026 16:00:00 GMT\r\n\r\n";
	char dir[] = "/tmp/warcbench.XXXXXX", *err = NULL;
	struct warc_opts o = {0};
	struct warc_writer *w;
	double t0, t1;
	uint64_t in_bytes = 0;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	o.dir = dir;
	o.prefix = "BENCH";
	o.max_size = 1000000000;
	o.software = "warcbench";
	o.hostname = "bench";
	o.level = level;
	w = warc_open(&o, &err);
	t0 = warcbench_now();
	for (int i = 0; i < n; i++) {
		struct warc_capture c = {0};
		struct warc_ids ids;
		char uri[64];

		snprintf(uri, sizeof uri, "http://example.com/page/%d", i);
		c.uri = uri;
		c.ip = "127.0.0.1";
		c.date_us = 1763740800000000ull + (uint64_t)i;
		c.req = req;
		c.req_len = sizeof req - 1;
		c.resp_head = head;
		c.resp_head_len = sizeof head - 1;
		c.payload = bodies[i % 16];
		c.payload_len = body_len;
		c.payload_fd = -1;
		c.via = "http://example.com/";
		c.hops = "L";
		if (warc_write_http(w, &c, &ids, &err) < 0) {
			fprintf(stderr, "warcbench: %s\n", err);
			exit(1);
		}
		in_bytes += sizeof req + sizeof head + body_len;
	}
	if (warc_flush(w, &err) < 0) {
		fprintf(stderr, "warcbench: %s\n", err);
		exit(1);
	}
	t1 = warcbench_now();
	warc_close(w);
	{
		char *cmd = xasprintf("du -sb %s", dir);
		FILE *p = popen(cmd, "r");
		unsigned long long out = 0;

		if (p != NULL && fscanf(p, "%llu", &out) == 1)
			printf("writer %s-%d: %8.0f captures/s %7.1f MB/s in, ratio %.2f\n",
			    WARCBENCH_BACKEND, level, n / (t1 - t0), in_bytes / (t1 - t0) / 1e6,
			    (double)in_bytes / (double)out);
		if (p != NULL)
			pclose(p);
		free(cmd);
	}
	warcbench_clean(dir);
}

/* The compression step alone, per record: zlib streaming vs libdeflate. */
static void warcbench_compress(int n, char **bodies, size_t body_len)
{
	size_t cap = compressBound((uLong)body_len) + 64;
	unsigned char *out = xmalloc(cap);
	double t0, t1;
	uint64_t total;

	for (int level = 1; level <= 6; level += 5) {
		z_stream z = {0};

		deflateInit2(&z, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
		total = 0;
		t0 = warcbench_now();
		for (int i = 0; i < n; i++) {
			deflateReset(&z);
			z.next_in = (Bytef *)bodies[i % 16];
			z.avail_in = (uInt)body_len;
			z.next_out = out;
			z.avail_out = (uInt)cap;
			deflate(&z, Z_FINISH);
			total += z.total_out;
		}
		t1 = warcbench_now();
		deflateEnd(&z);
		printf("gzip member zlib-%d:       %7.1f MB/s, ratio %.2f\n", level,
		    (double)n * body_len / (t1 - t0) / 1e6, (double)n * body_len / (double)total);
	}
#ifdef HAVE_LIBDEFLATE
	for (int level = 1; level <= 6; level += 5) {
		struct libdeflate_compressor *c = libdeflate_alloc_compressor(level);

		total = 0;
		t0 = warcbench_now();
		for (int i = 0; i < n; i++)
			total += libdeflate_gzip_compress(c, bodies[i % 16], body_len, out, cap);
		t1 = warcbench_now();
		libdeflate_free_compressor(c);
		printf("gzip member libdeflate-%d: %7.1f MB/s, ratio %.2f\n", level,
		    (double)n * body_len / (t1 - t0) / 1e6, (double)n * body_len / (double)total);
	}
#else
	printf("libdeflate: not built in (cc -DHAVE_LIBDEFLATE ... -ldeflate)\n");
#endif
	{
		struct digest *d = digest_new();
		char dg[DIGEST_STRLEN];

		t0 = warcbench_now();
		for (int i = 0; i < n; i++) {
			digest_update(d, bodies[i % 16], body_len);
			digest_final(d, dg);
		}
		t1 = warcbench_now();
		digest_free(d);
		printf("sha1 digest:               %7.1f MB/s\n",
		    (double)n * body_len / (t1 - t0) / 1e6);
	}
	free(out);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	size_t body_len = argc > 2 ? (size_t)atol(argv[2]) : 30000;
	char *bodies[16];

	if (n <= 0 || body_len < 2) {
		fprintf(stderr, "usage: warcbench [CAPTURES] [BODY_BYTES]\n");
		return 2;
	}
	for (int i = 0; i < 16; i++) {
		bodies[i] = xmalloc(body_len);
		warcbench_body(bodies[i], body_len, (unsigned)i + 1);
	}
	printf("%d captures, %zu-byte bodies\n", n, body_len);
	warcbench_writer(1, n, bodies, body_len);
	warcbench_writer(6, n, bodies, body_len);
	warcbench_compress(n, bodies, body_len);
	for (int i = 0; i < 16; i++)
		free(bodies[i]);
	return 0;
}
