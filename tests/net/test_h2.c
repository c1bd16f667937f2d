/* Tests of the HTTP/2 client session (src/net/h2.c) against an nghttp2
 * server session in memory: the request mapped from an HTTP/1.1 head
 * (pseudo-headers, connection fields left out) and recorded in HTTP/1.1
 * syntax, the response head written as HTTP/1.1 with its reason phrase,
 * interim heads skipped, the body, two streams on one session, and the
 * ends with a named cause: RST_STREAM, GOAWAY, a head past the cap, bytes
 * that are not HTTP/2, frames without payload past their allowance (both
 * caps err:header-too-large, as over HTTP/1.1), and a
 * callback that stops the stream. */
#include <build-config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <nghttp2/nghttp2.h>

#include "lib/buf.h"
#include "net/h2.h"

static const char REQ[] = "GET /a?b=1 HTTP/1.1\r\nHost: x.test:8443\r\nUser-Agent: t/1\r\n"
			  "Accept-Encoding: gzip\r\nConnection: keep-alive\r\n\r\n";
static const char REQ_RECORDED[] = "GET /a?b=1 HTTP/1.1\r\nhost: x.test:8443\r\nuser-agent: t/1\r\n"
				   "accept-encoding: gzip\r\n\r\n";

/* The server side: the request's fields as "name: value\n" lines, the
 * stream it came on, and the body it answers with. */
struct srv {
	nghttp2_session *s;
	struct buf fields;
	int32_t stream;
	const char *body;
	size_t body_off, body_len;
};

/* What the client delivered. */
struct got {
	struct buf head, body;
	int stop_on_body;
};

static int srv_header_cb(nghttp2_session *s, const nghttp2_frame *fr, const uint8_t *name,
    size_t namelen, const uint8_t *value, size_t valuelen, uint8_t flags, void *arg)
{
	struct srv *v = arg;

	(void)s;
	(void)fr;
	(void)flags;
	buf_append(&v->fields, (const char *)name, namelen);
	buf_appends(&v->fields, ": ");
	buf_append(&v->fields, (const char *)value, valuelen);
	buf_appends(&v->fields, "\n");
	return 0;
}

static int srv_frame_cb(nghttp2_session *s, const nghttp2_frame *fr, void *arg)
{
	struct srv *v = arg;

	(void)s;
	if (fr->hd.type == NGHTTP2_HEADERS && (fr->hd.flags & NGHTTP2_FLAG_END_STREAM))
		v->stream = fr->hd.stream_id;
	return 0;
}

static ssize_t srv_read_cb(nghttp2_session *s, int32_t id, uint8_t *out, size_t len,
    uint32_t *flags, nghttp2_data_source *src, void *arg)
{
	struct srv *v = arg;
	size_t n = v->body_len - v->body_off;

	(void)s;
	(void)id;
	(void)src;
	if (n > len)
		n = len;
	memcpy(out, v->body + v->body_off, n);
	v->body_off += n;
	if (v->body_off == v->body_len)
		*flags |= NGHTTP2_DATA_FLAG_EOF;
	return (ssize_t)n;
}

static void srv_init(struct srv *v)
{
	nghttp2_session_callbacks *cb;

	memset(v, 0, sizeof(*v));
	assert_int_equal(nghttp2_session_callbacks_new(&cb), 0);
	nghttp2_session_callbacks_set_on_header_callback(cb, srv_header_cb);
	nghttp2_session_callbacks_set_on_frame_recv_callback(cb, srv_frame_cb);
	assert_int_equal(nghttp2_session_server_new(&v->s, cb, v), 0);
	nghttp2_session_callbacks_del(cb);
	assert_int_equal(nghttp2_submit_settings(v->s, NGHTTP2_FLAG_NONE, NULL, 0), 0);
}

static void srv_free(struct srv *v)
{
	nghttp2_session_del(v->s);
	buf_free(&v->fields);
}

static int got_head_cb(void *arg, const char *head, size_t len)
{
	struct got *g = arg;

	buf_append(&g->head, head, len);
	return 0;
}

static int got_body_cb(void *arg, const char *data, size_t len)
{
	struct got *g = arg;

	buf_append(&g->body, data, len);
	return g->stop_on_body;
}

static const struct h2_cbs got_cbs = {got_head_cb, got_body_cb};

/* Moves bytes both ways until neither side has anything to say or the
 * client's stream ended; returns the client's last result. */
static enum h2_result pump(struct h2 *c, struct srv *v)
{
	enum h2_result r = H2_MORE;

	for (int round = 0; round < 100; round++) {
		const char *p;
		const uint8_t *q;
		size_t n;
		ssize_t m;
		int moved = 0;

		while ((n = h2_out(c, &p)) > 0) {
			assert_int_equal(
			    nghttp2_session_mem_recv(v->s, (const uint8_t *)p, n), (ssize_t)n);
			moved = 1;
		}
		while ((m = nghttp2_session_mem_send(v->s, &q)) > 0) {
			r = h2_feed(c, (const char *)q, (size_t)m);
			moved = 1;
			if (r != H2_MORE)
				return r;
		}
		if (h2_failed(c))
			return H2_ERROR;
		if (!moved)
			break;
	}
	return r;
}

/* Answers the request on v->stream with status, extra fields and body. */
static void srv_respond(struct srv *v, const char *status, const char *body)
{
	nghttp2_nv nv[] = {
	    {(uint8_t *)":status", (uint8_t *)status, 7, strlen(status), 0},
	    {(uint8_t *)"content-type", (uint8_t *)"text/html", 12, 9, 0},
	};
	nghttp2_data_provider dp = {.read_callback = srv_read_cb};

	v->body = body;
	v->body_off = 0;
	v->body_len = body != NULL ? strlen(body) : 0;
	assert_true(v->stream > 0);
	assert_int_equal(
	    nghttp2_submit_response(v->s, v->stream, nv, 2, body != NULL ? &dp : NULL), 0);
}

static void test_h2_get(void **state)
{
	struct h2 *c = h2_new(65536);
	struct srv v;
	struct got g = {BUF_INIT, BUF_INIT, 0};
	struct buf rec = BUF_INIT;

	(void)state;
	srv_init(&v);
	assert_int_equal(h2_request(c, REQ, strlen(REQ), &got_cbs, &g, &rec), 0);
	assert_string_equal(rec.data, REQ_RECORDED);
	assert_int_equal(pump(c, &v), H2_MORE);
	assert_string_equal(v.fields.data,
	    ":method: GET\n:scheme: https\n:authority: x.test:8443\n"
	    ":path: /a?b=1\nuser-agent: t/1\naccept-encoding: gzip\n");
	srv_respond(&v, "200", "hello");
	assert_int_equal(pump(c, &v), H2_DONE);
	assert_string_equal(g.head.data, "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n\r\n");
	assert_string_equal(g.body.data, "hello");
	assert_true(h2_reusable(c));

	/* A second stream on the same session. */
	buf_reset(&g.head);
	buf_reset(&g.body);
	buf_reset(&v.fields);
	v.stream = 0;
	assert_int_equal(h2_request(c, REQ, strlen(REQ), &got_cbs, &g, &rec), 0);
	assert_int_equal(pump(c, &v), H2_MORE);
	assert_int_equal(v.stream, 3);
	srv_respond(&v, "404", NULL);
	assert_int_equal(pump(c, &v), H2_DONE);
	assert_string_equal(
	    g.head.data, "HTTP/1.1 404 Not Found\r\ncontent-type: text/html\r\n\r\n");
	assert_int_equal(g.body.len, 0);
	srv_free(&v);
	h2_free(c);
	buf_free(&g.head);
	buf_free(&g.body);
	buf_free(&rec);
}

/* However many fields the head carries, every one is sent. */
static void test_h2_many_fields(void **state)
{
	struct h2 *c = h2_new(65536);
	struct srv v;
	struct got g = {BUF_INIT, BUF_INIT, 0};
	struct buf req = BUF_INIT, rec = BUF_INIT;
	size_t n = 0;

	(void)state;
	srv_init(&v);
	buf_appends(&req, "GET / HTTP/1.1\r\nHost: x.test\r\n");
	for (int i = 0; i < 200; i++)
		buf_appendf(&req, "X-Field-%d: %d\r\n", i, i);
	buf_appends(&req, "\r\n");
	assert_int_equal(h2_request(c, req.data, req.len, &got_cbs, &g, &rec), 0);
	pump(c, &v);
	for (const char *p = v.fields.data; (p = strstr(p, "x-field-")) != NULL; p++)
		n++;
	assert_int_equal(n, 200);
	assert_non_null(strstr(v.fields.data, "x-field-199: 199\n"));
	assert_non_null(strstr(rec.data, "\r\nx-field-199: 199\r\n\r\n"));
	srv_free(&v);
	h2_free(c);
	buf_free(&req);
	buf_free(&rec);
}

/* A 103 before the final head is dropped. */
static void test_h2_interim(void **state)
{
	struct h2 *c = h2_new(65536);
	struct srv v;
	struct got g = {BUF_INIT, BUF_INIT, 0};
	struct buf rec = BUF_INIT;
	nghttp2_nv hint[] = {{(uint8_t *)":status", (uint8_t *)"103", 7, 3, 0},
	    {(uint8_t *)"link", (uint8_t *)"</s.css>; rel=preload", 4, 21, 0}};

	(void)state;
	srv_init(&v);
	assert_int_equal(h2_request(c, REQ, strlen(REQ), &got_cbs, &g, &rec), 0);
	pump(c, &v);
	assert_true(
	    nghttp2_submit_headers(v.s, NGHTTP2_FLAG_NONE, v.stream, NULL, hint, 2, NULL) >= 0);
	srv_respond(&v, "299", "x");
	assert_int_equal(pump(c, &v), H2_DONE);
	/* No registered phrase: none written. */
	assert_string_equal(g.head.data, "HTTP/1.1 299\r\ncontent-type: text/html\r\n\r\n");
	srv_free(&v);
	h2_free(c);
	buf_free(&g.head);
	buf_free(&g.body);
	buf_free(&rec);
}

/* end: 0 RST_STREAM, 1 GOAWAY refusing the stream, 2 a head past the cap,
 * 3 bytes that are not HTTP/2, 4 frames without payload, 5 stop. */
static void h2_end_case(int end, enum h2_result want, enum status_cause cause)
{
	struct h2 *c = h2_new(256);
	struct srv v;
	struct got g = {BUF_INIT, BUF_INIT, end == 5};
	struct buf rec = BUF_INIT;
	enum h2_result r = H2_MORE;
	char big[400];
	nghttp2_nv nv[] = {{(uint8_t *)":status", (uint8_t *)"200", 7, 3, 0},
	    {(uint8_t *)"x-big", (uint8_t *)big, 5, sizeof big, 0}};

	srv_init(&v);
	memset(big, 'a', sizeof big);
	assert_int_equal(h2_request(c, REQ, strlen(REQ), &got_cbs, &g, &rec), 0);
	pump(c, &v);
	switch (end) {
	case 0:
		nghttp2_submit_rst_stream(v.s, NGHTTP2_FLAG_NONE, v.stream, NGHTTP2_INTERNAL_ERROR);
		r = pump(c, &v);
		break;
	case 1:
		nghttp2_submit_goaway(v.s, NGHTTP2_FLAG_NONE, 0, NGHTTP2_NO_ERROR, NULL, 0);
		r = pump(c, &v);
		break;
	case 2:
		assert_int_equal(nghttp2_submit_response(v.s, v.stream, nv, 2, NULL), 0);
		r = pump(c, &v);
		break;
	case 3:
		r = h2_feed(c, "HTTP/1.1 200 OK\r\n\r\n", 19);
		if (r == H2_MORE)
			r = pump(c, &v);
		break;
	case 4: {
		/* Frames of an unknown type, which a receiver ignores:
		 * 1,000 of 109 bytes, past 256 + 64 KiB. */
		static char frames[1000 * 109];
		for (int i = 0; i < 1000; i++) {
			char *f = frames + i * 109;
			memset(f, 0, 109);
			f[2] = 100;
			f[3] = (char)0xfa;
		}
		r = h2_feed(c, frames, sizeof frames);
		break;
	}
	case 5:
		srv_respond(&v, "200", "some body");
		r = pump(c, &v);
		break;
	}
	assert_int_equal(r, want);
	if (want == H2_ERROR) {
		assert_int_equal(h2_cause(c), cause);
		assert_non_null(strstr(h2_error(c), end == 2 ? "max-header-bytes" : "HTTP/2"));
	}
	assert_false(h2_reusable(c));
	srv_free(&v);
	h2_free(c);
	buf_free(&g.head);
	buf_free(&g.body);
	buf_free(&rec);
}

static void test_h2_ends(void **state)
{
	(void)state;
	h2_end_case(0, H2_ERROR, CAUSE_H2_RESET);
	h2_end_case(1, H2_ERROR, CAUSE_H2_GOAWAY);
	h2_end_case(2, H2_ERROR, CAUSE_HEADER_TOO_LARGE);
	h2_end_case(3, H2_ERROR, CAUSE_H2_PROTOCOL);
	h2_end_case(4, H2_ERROR, CAUSE_HEADER_TOO_LARGE);
	h2_end_case(5, H2_STOPPED, CAUSE_NONE);
}

static void test_h2_reason(void **state)
{
	(void)state;
	assert_string_equal(h2_reason(200), "OK");
	assert_string_equal(h2_reason(301), "Moved Permanently");
	assert_string_equal(h2_reason(404), "Not Found");
	assert_string_equal(h2_reason(503), "Service Unavailable");
	assert_string_equal(h2_reason(299), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_h2_get),
	    cmocka_unit_test(test_h2_many_fields),
	    cmocka_unit_test(test_h2_interim),
	    cmocka_unit_test(test_h2_ends),
	    cmocka_unit_test(test_h2_reason),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
