/* libFuzzer target for the HTTP/2 response path: arbitrary server bytes,
 * in pieces whose sizes the input's first byte chooses, through a client
 * session with one GET stream open (src/net/h2.c), its output drained after
 * every piece as the fetch drains it, the head written as HTTP/1.1 fed to
 * the HTTP/1.1 parser (src/net/http.c) as the fetch feeds it; then a
 * second stream when the session allows one. */
#include <build-config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "net/h2.h"
#include "net/http.h"

static const char fuzz_req[] = "GET / HTTP/1.1\r\nHost: fuzz.test\r\nUser-Agent: fuzz\r\n"
			       "Accept-Encoding: gzip\r\nConnection: keep-alive\r\n\r\n";

struct fuzz_state {
	struct http *h;
	size_t body;
};

static int fuzz_http_head_cb(void *arg)
{
	(void)arg;
	return 0;
}

static int fuzz_http_body_cb(void *arg, const char *d, size_t n)
{
	(void)arg;
	(void)d;
	(void)n;
	return 0;
}

static const struct http_cbs fuzz_http_cbs = {fuzz_http_head_cb, fuzz_http_body_cb};

static int fuzz_head_cb(void *arg, const char *head, size_t len)
{
	struct fuzz_state *s = arg;
	const char *n, *v;

	if (http_feed(s->h, head, len, NULL) == HTTP_ERROR)
		return 1;
	for (size_t i = 0; http_header_at(s->h, i, &n, &v); i++)
		;
	return 0;
}

static int fuzz_body_cb(void *arg, const char *d, size_t n)
{
	struct fuzz_state *s = arg;

	(void)d;
	s->body += n;
	return s->body > (1 << 20);
}

static const struct h2_cbs fuzz_cbs = {fuzz_head_cb, fuzz_body_cb};

static void fuzz_drain(struct h2 *h)
{
	const char *p;

	while (h2_out(h, &p) > 0)
		;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_state s = {NULL, 0};
	struct h2 *h;
	struct buf rec = BUF_INIT;
	size_t off = 1, step;
	enum h2_result r = H2_MORE;

	if (size < 1)
		return 0;
	step = data[0] ? data[0] : size;
	h = h2_new(4096);
	s.h = http_new(4096, &fuzz_http_cbs, &s);
	if (h2_request(h, fuzz_req, sizeof fuzz_req - 1, &fuzz_cbs, &s, &rec) == 0) {
		fuzz_drain(h);
		while (off < size && r == H2_MORE && !h2_failed(h)) {
			size_t n = size - off < step ? size - off : step;
			r = h2_feed(h, (const char *)data + off, n);
			fuzz_drain(h);
			off += n;
		}
		if (r == H2_DONE && h2_reusable(h) &&
		    h2_request(h, fuzz_req, sizeof fuzz_req - 1, &fuzz_cbs, &s, &rec) == 0)
			fuzz_drain(h);
	}
	h2_bytes_in(h);
	http_free(s.h);
	h2_free(h);
	buf_free(&rec);
	return 0;
}
