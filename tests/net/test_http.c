/* Tests of the HTTP glue (src/net/http.c) with canned server bytes: framing,
 * the llhttp 8.1 traps (bad status lines, bodies after 204/304, 1xx),
 * limits, and URL splitting and the request head. */
#include <build-config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/buf.h"
#include "net/http.h"
#include "lib/url.h"

struct sink {
	struct buf body;
	int heads;
	int stop_after; /* stop when the body reaches this size (0: never) */
};

static int sink_head(void *arg)
{
	struct sink *s = arg;

	s->heads++;
	return 0;
}

static int sink_body(void *arg, const char *d, size_t n)
{
	struct sink *s = arg;

	buf_append(&s->body, d, n);
	return s->stop_after && s->body.len >= (size_t)s->stop_after;
}

static const struct http_cbs sink_cbs = {sink_head, sink_body};

/* Feeds in pieces of step bytes (0: all at once), then EOF if eof. */
static enum http_result run(
    struct http *h, const char *in, size_t len, size_t step, int eof, size_t *used)
{
	size_t off = 0;
	enum http_result r = HTTP_MORE;

	*used = 0;
	while (off < len) {
		size_t n = step && len - off > step ? step : len - off, u;
		r = http_feed(h, in + off, n, &u);
		off += u;
		*used = off;
		if (r != HTTP_MORE)
			return r;
	}
	if (eof)
		r = http_eof(h);
	return r;
}

struct case_ {
	const char *name;
	const char *in;
	int eof;
	enum http_result want;
	int status;
	const char *body;
	int keep_alive;
};

static const struct case_ cases[] = {
    {"content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A:  v  \r\n\r\nhello", 0,
	HTTP_DONE, 200, "hello", 1},
    {"chunked",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
	0, HTTP_DONE, 200, "hello world", 1},
    {"100 then 200",
	"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early\r\nLink: x\r\n\r\n"
	"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
	0, HTTP_DONE, 200, "ok", 1},
    {"204 with content-length", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", 0,
	HTTP_DONE, 204, "", 1},
    {"304 with content-length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", 0,
	HTTP_DONE, 304, "", 1},
    {"read until close", "HTTP/1.0 200 OK\r\n\r\nall of it", 1, HTTP_DONE, 200, "all of it", 0},
    {"connection close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx", 0,
	HTTP_DONE, 200, "x", 0},
    {"1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx", 0,
	HTTP_DONE, 200, "x", 1},
    {"two-digit status", "HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n", 0, HTTP_ERROR, 0, "", 0},
    {"HTTP/2.0", "HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n", 0, HTTP_ERROR, 0, "", 0},
    {"status 999", "HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n", 0, HTTP_ERROR, 0, "", 0},
    {"unsolicited 101", "HTTP/1.1 101 Switching\r\nUpgrade: h2c\r\nConnection: upgrade\r\n\r\n", 0,
	HTTP_ERROR, 0, "", 0},
    {"garbage", "HTTX/1.1 200 OK\r\n\r\n", 0, HTTP_ERROR, 0, "", 0},
    {"http/0.9 body", "<html>hello</html>", 1, HTTP_ERROR, 0, "", 0},
    {"garbage status line", "HTTP/1.1 garbage status line\r\n\r\n", 1, HTTP_ERROR, 0, "", 0},
    {"CL and TE",
	"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
	"0\r\n\r\n",
	0, HTTP_ERROR, 0, "", 0},
    {"two content-lengths", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 0,
	HTTP_ERROR, 0, "", 0},
    {"negative content-length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 0, HTTP_ERROR, 0,
	"", 0},
    {"chunk size overflow",
	"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	"FFFFFFFFFFFFFFFFF\r\n",
	0, HTTP_ERROR, 200, "", 0},
    {"short body then close", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhello", 1, HTTP_ERROR,
	200, "hello", 0},
    {"truncated chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", 1,
	HTTP_ERROR, 200, "hel", 0},
    {"closed in head", "HTTP/1.1 200 OK\r\nContent-Le", 1, HTTP_ERROR, 0, "", 0},
    {"empty reply", "", 1, HTTP_ERROR, 0, "", 0},
    {"space before colon", "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n", 0, HTTP_ERROR, 0, "",
	0},
};

static void test_cases(void **state)
{
	static const size_t steps[] = {0, 1, 3, 7};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
			const struct case_ *c = &cases[i];
			struct sink s = {BUF_INIT, 0, 0};
			struct http *h = http_new(4096, &sink_cbs, &s);
			size_t used;
			enum http_result r = run(h, c->in, strlen(c->in), steps[k], c->eof, &used);

			print_message("case %s step %zu\n", c->name, steps[k]);
			assert_int_equal(r, c->want);
			if (c->status)
				assert_int_equal(http_status(h), c->status);
			assert_string_equal(s.body.data ? s.body.data : "", c->body);
			if (r == HTTP_DONE) {
				size_t hl;
				char code[8];
				const char *head = http_head(h, &hl);
				assert_int_equal(s.heads, 1);
				assert_int_equal(http_keep_alive(h), c->keep_alive);
				assert_true(hl >= 4);
				assert_memory_equal(head + hl - 4, "\r\n\r\n", 4);
				assert_memory_equal(head, "HTTP/1.", 7);
				/* the final head only, never an interim one */
				snprintf(code, sizeof(code), "%d", c->status);
				assert_memory_equal(head + 9, code, 3);
				assert_true(http_head_done(h));
			} else {
				assert_non_null(http_error(h));
			}
			http_free(h);
			buf_free(&s.body);
		}
}

static void test_headers(void **state)
{
	const char *in =
	    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8  \r\n"
	    "content-length: 0\r\nX-Empty:\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n";
	struct sink s = {BUF_INIT, 0, 0};
	struct http *h = http_new(4096, &sink_cbs, &s);
	size_t used, hl;
	const char *n, *v;

	assert_int_equal(run(h, in, strlen(in), 0, 0, &used), HTTP_DONE);
	assert_string_equal(http_header(h, "CONTENT-TYPE"), "text/html; charset=utf-8");
	assert_string_equal(http_header(h, "x-empty"), "");
	assert_string_equal(http_header(h, "set-cookie"), "a=1");
	assert_null(http_header(h, "Location"));
	assert_true(http_header_at(h, 4, &n, &v));
	assert_string_equal(n, "Set-Cookie");
	assert_string_equal(v, "b=2");
	assert_false(http_header_at(h, 5, &n, &v));
	http_head(h, &hl);
	assert_int_equal(hl, strlen(in));
	http_free(h);
}

/* The indexed headers: every known name in any case, the first of two
 * values, a name that only starts like a known one, and an interim 1xx
 * whose headers must not leak into the final response's, each fed in one
 * piece and byte by byte (a name split across llhttp's callbacks). */
static void test_headers_indexed(void **state)
{
	const char *in =
	    "HTTP/1.1 100 Continue\r\nLocation: /interim\r\nETag: \"i\"\r\n\r\n"
	    "HTTP/1.1 301 Moved\r\ncontent-TYPE: a/b\r\nContent-Type: c/d\r\n"
	    "LOCATION: /next\r\nContent-Location: /cl\r\nContent-Encoding: gzip\r\n"
	    "Refresh: 5; url=/r\r\nRetry-After: 120\r\nLast-Modified: Tue, 15 Nov 1994 12:45:26 GMT\r\n"
	    "Content-Typo: x\r\nLocationX: y\r\ncontent-length: 0\r\n\r\n";
	size_t steps[] = {0, 1};

	for (size_t i = 0; i < 2; i++) {
		struct sink s = {BUF_INIT, 0, 0};
		struct http *h = http_new(4096, &sink_cbs, &s);
		size_t used;

		assert_int_equal(run(h, in, strlen(in), steps[i], 0, &used), HTTP_DONE);
		assert_int_equal(http_status(h), 301);
		assert_string_equal(http_header(h, "Content-Type"), "a/b");
		assert_string_equal(http_header(h, "location"), "/next");
		assert_string_equal(http_header(h, "Content-Location"), "/cl");
		assert_string_equal(http_header(h, "content-encoding"), "gzip");
		assert_string_equal(http_header(h, "Refresh"), "5; url=/r");
		assert_string_equal(http_header(h, "Retry-After"), "120");
		assert_string_equal(
		    http_header(h, "Last-Modified"), "Tue, 15 Nov 1994 12:45:26 GMT");
		assert_null(http_header(h, "ETag"));
		assert_string_equal(http_header(h, "content-typo"), "x");
		assert_string_equal(http_header(h, "LocationX"), "y");
		http_free(h);
		buf_free(&s.body);
	}
}

/* A 204/304 with Content-Length must not eat the next response on the
 * connection (llhttp 8.1 would). */
static void test_no_body_then_next(void **state)
{
	static const char *firsts[] = {
	    "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n",
	    "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
	};
	const char *second = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc";

	for (int i = 0; i < 2; i++) {
		struct buf in = BUF_INIT;
		struct sink s = {BUF_INIT, 0, 0};
		struct http *h = http_new(4096, &sink_cbs, &s);
		size_t used;

		buf_appends(&in, firsts[i]);
		buf_appends(&in, second);
		assert_int_equal(http_feed(h, in.data, in.len, &used), HTTP_DONE);
		assert_int_equal(used, strlen(firsts[i]));
		assert_true(http_keep_alive(h));
		http_free(h);
		h = http_new(4096, &sink_cbs, &s);
		assert_int_equal(http_feed(h, in.data + used, in.len - used, &used), HTTP_DONE);
		assert_int_equal(http_status(h), 200);
		assert_string_equal(s.body.data, "abc");
		http_free(h);
		buf_free(&s.body);
		buf_free(&in);
	}
}

static void test_extra_bytes(void **state)
{
	const char *in = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA";
	struct sink s = {BUF_INIT, 0, 0};
	struct http *h = http_new(4096, &sink_cbs, &s);
	size_t used;

	assert_int_equal(http_feed(h, in, strlen(in), &used), HTTP_DONE);
	assert_int_equal(used, strlen(in) - 5);
	assert_string_equal(s.body.data, "ok");
	http_free(h);
	buf_free(&s.body);
}

static void test_head_cap(void **state)
{
	struct buf in = BUF_INIT;
	struct sink s = {BUF_INIT, 0, 0};
	struct http *h = http_new(1024, &sink_cbs, &s);
	size_t used, hl;

	buf_appends(&in, "HTTP/1.1 200 OK\r\n");
	for (int i = 0; i < 100; i++)
		buf_appendf(&in, "X-Filler-%d: %040d\r\n", i, i);
	buf_appends(&in, "Content-Length: 0\r\n\r\n");
	assert_int_equal(http_feed(h, in.data, in.len, &used), HTTP_ERROR);
	http_head(h, &hl);
	assert_true(hl <= 1025);
	assert_non_null(strstr(http_error(h), "max-header-bytes"));
	/* A failed parser stays failed. */
	assert_int_equal(http_feed(h, "x", 1, &used), HTTP_ERROR);
	http_free(h);
	buf_free(&in);
}

static void test_endless_interim(void **state)
{
	struct sink s = {BUF_INIT, 0, 0};
	struct http *h = http_new(4096, &sink_cbs, &s);
	enum http_result r = HTTP_MORE;
	size_t used;

	for (int i = 0; i < 100 && r == HTTP_MORE; i++)
		r = http_feed(h, "HTTP/1.1 100 Continue\r\n\r\n", 25, &used);
	assert_int_equal(r, HTTP_ERROR);
	http_free(h);
}

/* Trailers are read and dropped: they never join the head's headers, and
 * a small section of them ends the message as usual. */
static void test_trailers_dropped(void **state)
{
	const char *in = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: a\r\n\r\n"
			 "5\r\nhello\r\n0\r\nX-Trailer: t\r\nX-A: trailer\r\n\r\n";
	struct sink s = {BUF_INIT, 0, 0};
	struct http *h = http_new(4096, &sink_cbs, &s);
	const char *n, *v;
	size_t used;

	for (size_t step = 0; step <= 7; step += 7) {
		assert_int_equal(run(h, in, strlen(in), step, 0, &used), HTTP_DONE);
		assert_int_equal(used, strlen(in));
		assert_string_equal(http_header(h, "X-A"), "a");
		assert_null(http_header(h, "X-Trailer"));
		assert_int_equal(http_header_at(h, 2, &n, &v), 0);
		assert_int_equal(http_keep_alive(h), 1);
		http_free(h);
		h = http_new(4096, &sink_cbs, &s);
	}
	http_free(h);
	buf_free(&s.body);
}

/* Whatever a chunked body sends between two entity bytes is charged to the
 * head's limit: endless trailers, an endless chunk extension, a chunk size
 * of endless zeros. Small chunks of a long body are not. */
static void test_framing_cap(void **state)
{
	static const char *const starts[] = {
	    "5\r\nhello\r\n0\r\n",  /* then trailer lines */
	    "5\r\nhello\r\n5;ext=", /* then the extension */
	    "",			    /* then zeros */
	};
	static const char *const fill[] = {"X-T: tttttttttttttttttttttttttttttttt\r\n",
	    "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "000000000000000000000000000000000000"};
	const char *head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";

	for (size_t k = 0; k < 3; k++) {
		struct sink s = {BUF_INIT, 0, 0};
		struct http *h = http_new(1024, &sink_cbs, &s);
		enum http_result r;
		size_t used, fed = 0;

		assert_int_equal(http_feed(h, head, strlen(head), &used), HTTP_MORE);
		r = http_feed(h, starts[k], strlen(starts[k]), &used);
		for (int i = 0; i < 10000 && r == HTTP_MORE; i++) {
			r = http_feed(h, fill[k], strlen(fill[k]), &used);
			fed += strlen(fill[k]);
		}
		assert_int_equal(r, HTTP_ERROR);
		assert_true(fed <= 1024 + 64);
		assert_int_equal(http_too_large(h), 1);
		assert_non_null(strstr(http_error(h), "max-header-bytes"));
		http_free(h);
		buf_free(&s.body);
	}
	{
		/* 4000 one-byte chunks: 5 bytes of framing each, 20000 in all,
		 * far past the 1024 of the limit, and no byte too many. */
		struct sink s = {BUF_INIT, 0, 0};
		struct http *h = http_new(1024, &sink_cbs, &s);
		size_t used;
		enum http_result r = http_feed(h, head, strlen(head), &used);

		for (int i = 0; i < 4000 && r == HTTP_MORE; i++)
			r = http_feed(h, "1\r\nx\r\n", 6, &used);
		assert_int_equal(r, HTTP_MORE);
		assert_int_equal(http_feed(h, "0\r\n\r\n", 5, &used), HTTP_DONE);
		assert_int_equal(s.body.len, 4000);
		http_free(h);
		buf_free(&s.body);
	}
}

/* A limit is told apart from bytes that are not HTTP. */
static void test_too_large(void **state)
{
	struct sink s = {BUF_INIT, 0, 0};
	struct http *h = http_new(4096, &sink_cbs, &s);
	struct buf in = BUF_INIT;
	size_t used;

	assert_int_equal(http_feed(h, "HTTX/1.1 200 OK\r\n\r\n", 19, &used), HTTP_ERROR);
	assert_int_equal(http_too_large(h), 0);
	http_free(h);

	h = http_new(1 << 20, &sink_cbs, &s);
	buf_appends(&in, "HTTP/1.1 200 OK\r\n");
	for (int i = 0; i < 1001; i++)
		buf_appends(&in, "X-A: 1\r\n");
	assert_int_equal(http_feed(h, in.data, in.len, &used), HTTP_ERROR);
	assert_int_equal(http_too_large(h), 1);
	http_free(h);

	h = http_new(4096, &sink_cbs, &s);
	for (int i = 0;
	     i < 100 && http_feed(h, "HTTP/1.1 100 Continue\r\n\r\n", 25, &used) == HTTP_MORE; i++)
		;
	assert_int_equal(http_too_large(h), 1);
	http_free(h);
	buf_free(&in);
	buf_free(&s.body);
}

static void test_stop(void **state)
{
	const char *in = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789";
	struct sink s = {BUF_INIT, 0, 4};
	struct http *h = http_new(4096, &sink_cbs, &s);
	size_t used;

	assert_int_equal(run(h, in, strlen(in), 2, 0, &used), HTTP_STOPPED);
	assert_true(s.body.len >= 4 && s.body.len < 10);
	assert_memory_equal(s.body.data, "0123", 4);
	http_free(h);
	buf_free(&s.body);
}

static void test_empty_reply(void **state)
{
	struct sink s = {BUF_INIT, 0, 0};
	struct http *h = http_new(4096, &sink_cbs, &s);

	assert_false(http_started(h));
	assert_int_equal(http_eof(h), HTTP_ERROR);
	assert_false(http_started(h));
	http_free(h);
}

struct url_case {
	const char *url;
	int ok, tls, port, literal;
	const char *host, *hostport, *target;
};

static const struct url_case url_cases[] = {
    {"http://Example.COM/a?b#frag", 1, 0, 80, 0, "example.com", "example.com", "/a?b"},
    {"https://h.web.test:8443", 1, 1, 8443, 0, "h.web.test", "h.web.test:8443", "/"},
    {"HTTP://user:pw@h:81?q", 1, 0, 81, 0, "h", "h:81", "/?q"},
    {"http://[::1]:8080/x", 1, 0, 8080, 1, "::1", "[::1]:8080", "/x"},
    {"http://127.1/", 1, 0, 80, 1, "127.0.0.1", "127.0.0.1", "/"},
    {"https://h:443/", 1, 1, 443, 0, "h", "h", "/"},
    {"http://h/caf\xc3\xa9", 1, 0, 80, 0, "h", "h", "/caf%C3%A9"},
    {"http://[::1]/", 1, 0, 80, 1, "::1", "[::1]", "/"},
    {"https://h:80/", 1, 1, 80, 0, "h", "h:80", "/"},
    {"http://h:1/", 1, 0, 1, 0, "h", "h:1", "/"},
    {"http://h:65535/", 1, 0, 65535, 0, "h", "h:65535", "/"},
    {"http://h:00080/", 1, 0, 80, 0, "h", "h", "/"},
    /* What could split a request line never reaches it: the serializer
	 * encodes spaces and drops CR and LF. */
    {"http://h/a b", 1, 0, 80, 0, "h", "h", "/a%20b"},
    {"http://h/a\r\nX: y", 1, 0, 80, 0, "h", "h", "/aX:%20y"},
    {"http://h%41/", 1, 0, 80, 0, "ha", "ha", "/"},
    {"ftp://h/", 0, 0, 0, 0, NULL, NULL, NULL},
    {"http://h:0/", 0, 0, 0, 0, NULL, NULL, NULL},
    {"http://h:65536/", 0, 0, 0, 0, NULL, NULL, NULL},
    {"http://h:8x/", 0, 0, 0, 0, NULL, NULL, NULL},
    {"http://[::1/", 0, 0, 0, 0, NULL, NULL, NULL},
    {"http://[zz]/", 0, 0, 0, 0, NULL, NULL, NULL},
};

/* A URL as a fetch gets it: resolved and split by lib/url.c, then what a
 * request needs of it. */
static int test_http_url(const char *url, struct http_url *u, struct buf *href, const char **err)
{
	struct url_parts p;

	if (url_resolve(NULL, url, strlen(url), href) != 0 || url_split(href->data, &p) != 0) {
		*err = "not an http or https URL";
		return -1;
	}
	return http_url_from(href->data, &p, u, err);
}

static void test_url(void **state)
{
	struct buf href = BUF_INIT;

	for (size_t i = 0; i < sizeof(url_cases) / sizeof(url_cases[0]); i++) {
		const struct url_case *c = &url_cases[i];
		struct http_url u;
		const char *err = NULL;
		int r = test_http_url(c->url, &u, &href, &err);

		print_message("url %s\n", c->url);
		if (!c->ok) {
			assert_int_equal(r, -1);
			assert_non_null(err);
			continue;
		}
		assert_int_equal(r, 0);
		assert_int_equal(u.tls, c->tls);
		assert_int_equal(u.port, c->port);
		assert_int_equal(u.host_is_literal, c->literal);
		assert_string_equal(u.host, c->host);
		assert_string_equal(u.hostport, c->hostport);
		assert_string_equal(u.target, c->target);
		http_url_clear(&u);
	}
	buf_free(&href);
}

/* fetch.accept-encoding's words and what each sends (tern.conf(5)). */
static void test_accept_encoding(void **state)
{
	static const struct {
		const char *setting, *header;
	} t[] = {
	    {"gzip", "gzip"},
	    {"br", "br, gzip"},
	    {"zstd", "zstd, gzip"},
	    {"browser", "gzip, deflate, br, zstd"},
	    {"identity", "identity"},
	    {"deflate", NULL},
	    {"", NULL},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *h = http_accept_encoding(t[i].setting);
		if (t[i].header == NULL)
			assert_null(h);
		else
			assert_string_equal(h, t[i].header);
	}
}

static void test_request(void **state)
{
	struct http_url u;
	const char *err;
	struct buf out = BUF_INIT, href = BUF_INIT;

	assert_int_equal(test_http_url("http://h.web.test:8080/p/1.html?x=1", &u, &href, &err), 0);
	http_request_build(&out, &u, "tern/1 (+http://x)\r\nEvil: 1", "gzip", NULL, NULL, NULL);
	assert_string_equal(out.data,
	    "GET /p/1.html?x=1 HTTP/1.1\r\n"
	    "Host: h.web.test:8080\r\n"
	    "User-Agent: tern/1 (+http://x)  Evil: 1\r\n"
	    "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
	    "Accept-Encoding: gzip\r\n"
	    "Connection: keep-alive\r\n\r\n");
	buf_reset(&out);
	http_request_build(&out, &u, "ua", "identity", NULL, NULL, NULL);
	assert_non_null(strstr(out.data, "Accept-Encoding: identity\r\n"));
	/* A revisit's validators, cleaned of control characters. */
	buf_reset(&out);
	http_request_build(
	    &out, &u, "ua", "gzip", "W/\"x\r\nEvil: 1\"", "Tue, 15 Nov 1994 12:45:26 GMT", NULL);
	assert_string_equal(out.data,
	    "GET /p/1.html?x=1 HTTP/1.1\r\n"
	    "Host: h.web.test:8080\r\n"
	    "User-Agent: ua\r\n"
	    "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
	    "Accept-Encoding: gzip\r\n"
	    "If-None-Match: W/\"x  Evil: 1\"\r\n"
	    "If-Modified-Since: Tue, 15 Nov 1994 12:45:26 GMT\r\n"
	    "Connection: keep-alive\r\n\r\n");
	buf_reset(&out);
	http_request_build(&out, &u, "ua", "gzip", NULL, "Tue, 15 Nov 1994 12:45:26 GMT", NULL);
	assert_null(strstr(out.data, "If-None-Match"));
	assert_non_null(
	    strstr(out.data, "\r\nIf-Modified-Since: Tue, 15 Nov 1994 12:45:26 GMT\r\n"));
	/* The jar's Cookie header, cleaned the same way. */
	buf_reset(&out);
	http_request_build(&out, &u, "ua", "gzip", NULL, NULL, "a=1; b=2\r\nEvil: 1");
	assert_non_null(
	    strstr(out.data, "\r\nCookie: a=1; b=2  Evil: 1\r\nConnection: keep-alive\r\n\r\n"));
	buf_free(&out);
	buf_free(&href);
	http_url_clear(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cases),
	    cmocka_unit_test(test_headers),
	    cmocka_unit_test(test_headers_indexed),
	    cmocka_unit_test(test_no_body_then_next),
	    cmocka_unit_test(test_extra_bytes),
	    cmocka_unit_test(test_head_cap),
	    cmocka_unit_test(test_endless_interim),
	    cmocka_unit_test(test_trailers_dropped),
	    cmocka_unit_test(test_framing_cap),
	    cmocka_unit_test(test_too_large),
	    cmocka_unit_test(test_stop),
	    cmocka_unit_test(test_empty_reply),
	    cmocka_unit_test(test_url),
	    cmocka_unit_test(test_request),
	    cmocka_unit_test(test_accept_encoding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
