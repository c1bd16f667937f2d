/* libFuzzer target for the response path: arbitrary server bytes through
 * the HTTP glue (src/net/http.c) in pieces whose sizes the input chooses, the
 * body through the content decoder (src/net/decode.c: gzip, deflate, br,
 * zstd and stacks of them, as the Content-Encoding says), then EOF; and the same
 * bytes as a URL through the URL parser, http_url_from and the request
 * builder. */
#include <build-config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "net/decode.h"
#include "net/http.h"
#include "lib/url.h"

struct fuzz_state {
	struct http *h;
	struct decode *dec;
	size_t body;
};

static int fuzz_out_cb(void *arg, const char *d, size_t n)
{
	return 0;
}

static int fuzz_head_cb(void *arg)
{
	struct fuzz_state *s = arg;
	struct decode_codings cs;
	size_t hl;
	const char *n, *v;

	http_head(s->h, &hl);
	for (size_t i = 0; http_header_at(s->h, i, &n, &v); i++)
		;
	if (decode_codings_parse(http_header(s->h, "content-encoding"), &cs) == 0)
		s->dec = decode_new_stack(&cs, 1 << 20, 100);
	return 0;
}

static int fuzz_body_cb(void *arg, const char *d, size_t n)
{
	struct fuzz_state *s = arg;

	s->body += n;
	if (s->dec)
		decode_feed(s->dec, d, n, fuzz_out_cb, NULL);
	return s->body > (1 << 20);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct http_cbs cbs = {fuzz_head_cb, fuzz_body_cb};
	struct fuzz_state s = {NULL, NULL, 0};
	size_t off = 1, step;
	enum http_result r = HTTP_MORE;
	char *url;

	if (size < 1)
		return 0;
	step = data[0] ? data[0] : size;
	s.h = http_new(4096, &cbs, &s);
	while (off < size && r == HTTP_MORE) {
		size_t n = size - off < step ? size - off : step, used;
		r = http_feed(s.h, (const char *)data + off, n, &used);
		off += used;
	}
	if (r == HTTP_MORE)
		http_eof(s.h);
	http_status(s.h);
	http_keep_alive(s.h);
	if (s.dec)
		decode_finish(s.dec, fuzz_out_cb, NULL);
	decode_free(s.dec);
	http_free(s.h);

	url = malloc(size);
	memcpy(url, data + 1, size - 1);
	url[size - 1] = '\0';
	{
		struct http_url u;
		struct url_parts p;
		struct buf href = BUF_INIT;
		const char *err;
		if (url_resolve(NULL, url, strlen(url), &href) == 0 &&
		    url_split(href.data, &p) == 0 && http_url_from(href.data, &p, &u, &err) == 0) {
			struct buf b = BUF_INIT;
			http_request_build(&b, &u, "fuzz", "gzip", url, url, url);
			buf_free(&b);
			http_url_clear(&u);
		}
		buf_free(&href);
	}
	free(url);
	return 0;
}
