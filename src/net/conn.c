/* Client connections (struct conn): a uv_tcp_t, and for TLS a struct tls
 * whose memory BIOs this file shuttles bytes through.
 *
 * All connections read into one static buffer: libuv calls the alloc
 * callback right before each read and the read callback right after, and
 * every byte is consumed (parsed, decrypted) before the callback returns,
 * so on one loop in one thread a single buffer serves every connection. */
#include <build-config.h>

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/conn.h"
#include "net/tls.h"
#include "lib/xmalloc.h"

#define CONN_RBUF 65536
#define CONN_PBUF 16384

/* CONNECTING -> [HANDSHAKE <-> OPEN] -> CLOSING, changed in conn_set_state
 * only. A new conn (zeroed) is CONNECTING. */
enum conn_state { CONN_S_CONNECTING, CONN_S_HANDSHAKE, CONN_S_OPEN, CONN_S_CLOSING };

struct conn {
	uv_tcp_t tcp;
	conn_cb cb;
	void *arg;
	struct tls *tls;
	enum conn_state state;
	unsigned writes; /* uv_write requests in flight */
	char *err;
	enum status_cause cause; /* why, by name (set with err) */
	void *proto;		 /* conn_set_proto */
	void (*proto_free)(void *);
};

struct conn_wreq {
	uv_write_t req;
	struct conn *c;
	char data[];
};

/* The shared read buffer (ciphertext or plaintext) and the buffer TLS
 * decrypts into. */
static char conn_rbuf[CONN_RBUF];
static char conn_pbuf[CONN_PBUF];
static int conn_rbuf_busy;

static void conn_connect_cb(uv_connect_t *req, int status);
static void conn_alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b);
static void conn_read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b);
static void conn_write_cb(uv_write_t *req, int status);
static void conn_close_cb(uv_handle_t *h);
static void conn_handshake(struct conn *c);

static const char *const conn_state_names[] = {"connecting", "handshake", "open", "closing"};

/* The one place a conn's state changes. A TLS handshake starts on connect
 * or later on an open connection (conn_start_tls); everything ends in
 * CLOSING, which nothing leaves. */
static void conn_set_state(struct conn *c, enum conn_state to)
{
	static const unsigned char legal[4] = {
	    [CONN_S_CONNECTING] = 1u << CONN_S_HANDSHAKE | 1u << CONN_S_OPEN | 1u << CONN_S_CLOSING,
	    [CONN_S_HANDSHAKE] = 1u << CONN_S_OPEN | 1u << CONN_S_CLOSING,
	    [CONN_S_OPEN] = 1u << CONN_S_HANDSHAKE | 1u << CONN_S_CLOSING,
	    [CONN_S_CLOSING] = 0,
	};

	if (!(legal[c->state] & (1u << to))) {
		fprintf(stderr, "conn: illegal state change %s -> %s\n", conn_state_names[c->state],
		    conn_state_names[to]);
		assert(!"illegal conn state change");
	}
	c->state = to;
}

size_t conn_sizeof(void)
{
	return sizeof(struct conn);
}

static void conn_emit(struct conn *c, enum conn_event ev, const char *data, size_t len)
{
	if (c->state != CONN_S_CLOSING && c->cb)
		c->cb(c->arg, c, ev, data, len);
}

enum status_cause conn_connect_cause(int uverr)
{
	switch (uverr) {
	case UV_ECONNREFUSED:
		return CAUSE_CONNECT_REFUSED;
	case UV_ETIMEDOUT:
		return CAUSE_CONNECT_TIMEOUT;
	case UV_EHOSTUNREACH:
	case UV_ENETUNREACH:
		return CAUSE_CONNECT_UNREACHABLE;
	default:
		return CAUSE_CONNECT_FAILED;
	}
}

static void conn_fail(struct conn *c, enum status_cause cause, const char *why)
{
	if (c->state == CONN_S_CLOSING)
		return;
	if (c->err == NULL) {
		c->err = xstrdup(why);
		c->cause = cause;
	}
	uv_read_stop((uv_stream_t *)&c->tcp);
	conn_emit(c, CONN_ERROR, NULL, 0);
}

int conn_connect(uv_loop_t *loop, const struct sockaddr *sa, struct tls_ctx *tls, const char *host,
    void *session, conn_cb cb, void *arg, struct conn **out)
{
	struct conn *c = xcalloc(1, sizeof(*c));
	uv_connect_t *req;
	int r;

	*out = NULL;
	r = uv_tcp_init(loop, &c->tcp);
	if (r < 0) {
		free(c);
		return r;
	}
	c->tcp.data = c;
	c->cb = cb;
	c->arg = arg;
	if (tls)
		c->tls = tls_new(tls, host, session);
	req = xmalloc(sizeof(*req));
	req->data = c;
	r = uv_tcp_connect(req, &c->tcp, sa, conn_connect_cb);
	if (r < 0) {
		free(req);
		conn_set_state(c, CONN_S_CLOSING);
		uv_close((uv_handle_t *)&c->tcp, conn_close_cb);
		return r;
	}
	*out = c;
	return 0;
}

int conn_start_tls(struct conn *c, struct tls_ctx *tls, const char *host, void *session)
{
	if (c->state != CONN_S_OPEN || c->tls != NULL)
		return UV_EINVAL;
	c->tls = tls_new(tls, host, session);
	conn_set_state(c, CONN_S_HANDSHAKE);
	conn_handshake(c);
	return 0;
}

void conn_set_cb(struct conn *c, conn_cb cb, void *arg)
{
	c->cb = cb;
	c->arg = arg;
}

/* Queues w's first n bytes behind the writes in progress; w is freed by
 * conn_write_cb, or here if libuv refuses it. */
static int conn_queue(struct conn *c, struct conn_wreq *w, size_t n)
{
	uv_buf_t b = uv_buf_init(w->data, n);
	int r;

	w->c = c;
	r = uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, conn_write_cb);
	if (r < 0) {
		free(w);
		return r;
	}
	c->writes++;
	return 0;
}

/* Sends whatever ciphertext TLS has queued. */
static int conn_tls_flush(struct conn *c)
{
	size_t n;

	while ((n = tls_pending(c->tls)) > 0) {
		struct conn_wreq *w = xmalloc(sizeof(*w) + n);
		int r;

		n = tls_pull(c->tls, w->data, n);
		r = conn_queue(c, w, n);
		if (r < 0)
			return r;
	}
	return 0;
}

static void conn_handshake(struct conn *c)
{
	enum tls_result r = tls_handshake(c->tls);

	if (conn_tls_flush(c) < 0) {
		conn_fail(c, CAUSE_TLS_HANDSHAKE, "write failed during the TLS handshake");
		return;
	}
	if (r == TLS_ERROR) {
		conn_fail(c, tls_cause(c->tls), tls_error(c->tls));
	} else if (r == TLS_OK) {
		conn_set_state(c, CONN_S_OPEN);
		conn_emit(c, CONN_TLS_READY, NULL, 0);
	}
}

static void conn_connect_cb(uv_connect_t *req, int status)
{
	struct conn *c = req->data;

	free(req);
	if (c->state == CONN_S_CLOSING)
		return;
	if (status < 0) {
		c->err = xasprintf("connect: %s", uv_strerror(status));
		c->cause = conn_connect_cause(status);
		conn_emit(c, CONN_ERROR, NULL, 0);
		return;
	}
	uv_tcp_nodelay(&c->tcp, 1);
	status = uv_read_start((uv_stream_t *)&c->tcp, conn_alloc_cb, conn_read_cb);
	if (status < 0) {
		c->err = xasprintf("read: %s", uv_strerror(status));
		c->cause = CAUSE_CONNECT_FAILED;
		conn_emit(c, CONN_ERROR, NULL, 0);
		return;
	}
	conn_set_state(c, c->tls ? CONN_S_HANDSHAKE : CONN_S_OPEN);
	conn_emit(c, CONN_CONNECTED, NULL, 0);
	if (c->tls && c->state == CONN_S_HANDSHAKE)
		conn_handshake(c);
}

static void conn_alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	/* A nested read before the last one was consumed cannot happen on
	 * one loop: every read is consumed before its callback returns. */
	(void)h;
	(void)suggested;
	assert(!conn_rbuf_busy);
	*b = uv_buf_init(conn_rbuf, sizeof(conn_rbuf));
}

/* Pushes received ciphertext through TLS and delivers the plaintext. */
static void conn_tls_input(struct conn *c, const char *p, size_t n)
{
	while (n > 0 && c->state != CONN_S_CLOSING) {
		size_t took = tls_push(c->tls, p, n);
		p += took;
		n -= took;
		if (c->state == CONN_S_HANDSHAKE) {
			conn_handshake(c);
			if (c->state == CONN_S_HANDSHAKE && took == 0 && n > 0) {
				conn_fail(c, CAUSE_TLS_HANDSHAKE, "TLS input stalled");
				return;
			}
			if (c->state != CONN_S_OPEN)
				continue;
		}
		for (;;) {
			int r = tls_read(c->tls, conn_pbuf, sizeof(conn_pbuf));
			if (r > 0) {
				conn_emit(c, CONN_DATA, conn_pbuf, r);
				if (c->state == CONN_S_CLOSING)
					return;
				continue;
			}
			/* Post-handshake messages (TLS 1.3 tickets, alerts) may
			 * want to send something. */
			if (conn_tls_flush(c) < 0) {
				conn_fail(c, CAUSE_CONNECTION_LOST, "write failed");
				return;
			}
			if (r == TLS_CLOSED) {
				uv_read_stop((uv_stream_t *)&c->tcp);
				conn_emit(c, CONN_CLOSED, NULL, 0);
				return;
			}
			if (r == TLS_ERROR) {
				conn_fail(c, tls_cause(c->tls), tls_error(c->tls));
				return;
			}
			break;
		}
		if (took == 0 && n > 0) {
			conn_fail(c, CAUSE_CONNECTION_LOST, "TLS input stalled");
			return;
		}
	}
}

static void conn_read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct conn *c = s->data;

	if (n == 0 || c->state == CONN_S_CLOSING)
		return;
	if (n == UV_ENOBUFS)
		return;
	if (n < 0) {
		uv_read_stop(s);
		if (n == UV_EOF) {
			conn_emit(c, CONN_CLOSED, NULL, 0);
		} else {
			char *e = xasprintf("read: %s", uv_strerror(n));
			conn_fail(c, CAUSE_CONNECTION_LOST, e);
			free(e);
		}
		return;
	}
	conn_rbuf_busy = 1;
	if (c->tls)
		conn_tls_input(c, b->base, n);
	else
		conn_emit(c, CONN_DATA, b->base, n);
	conn_rbuf_busy = 0;
}

int conn_write(struct conn *c, const char *data, size_t len)
{
	struct conn_wreq *w;
	uv_buf_t b;
	int r;

	if (c->state != CONN_S_OPEN)
		return UV_ENOTCONN;
	if (c->tls) {
		if (tls_write(c->tls, data, len) < 0)
			return UV_EPROTO;
		return conn_tls_flush(c);
	}
	/* Straight to the socket when nothing is queued ahead: no request,
	 * no callback, and libuv does not re-arm the descriptor in epoll (one
	 * epoll_ctl a request) as it does after every queued write. What the
	 * socket does not take is queued; so is everything after an error,
	 * which then comes back through the write's callback as CONN_ERROR,
	 * like any write's (a kept-alive connection the server closed is how a
	 * fetch knows to try a fresh one). */
	if (c->writes == 0) {
		b = uv_buf_init((char *)data, len);
		r = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
		if (r > 0) {
			data += r;
			len -= (size_t)r;
			if (len == 0)
				return 0;
		}
	}
	w = xmalloc(sizeof(*w) + len);
	memcpy(w->data, data, len);
	return conn_queue(c, w, len);
}

static void conn_write_cb(uv_write_t *req, int status)
{
	struct conn_wreq *w = (struct conn_wreq *)req;
	struct conn *c = w->c;

	free(w);
	assert(c->writes > 0);
	c->writes--;
	if (c->state == CONN_S_CLOSING)
		return;
	if (status < 0) {
		char *e = xasprintf("write: %s", uv_strerror(status));
		conn_fail(c, CAUSE_CONNECTION_LOST, e);
		free(e);
	}
}

void conn_close(struct conn *c)
{
	if (c == NULL || c->state == CONN_S_CLOSING)
		return;
	conn_set_state(c, CONN_S_CLOSING);
	c->cb = NULL;
	uv_close((uv_handle_t *)&c->tcp, conn_close_cb);
}

static void conn_close_cb(uv_handle_t *h)
{
	struct conn *c = h->data;

	if (c->proto_free != NULL)
		c->proto_free(c->proto);
	tls_free(c->tls);
	free(c->err);
	free(c);
}

int conn_h2(const struct conn *c)
{
	return c->tls != NULL && tls_h2(c->tls);
}

const char *conn_tls_version(const struct conn *c)
{
	return c->tls != NULL ? tls_version(c->tls) : NULL;
}

const char *conn_tls_cipher(const struct conn *c)
{
	return c->tls != NULL ? tls_cipher(c->tls) : NULL;
}

void conn_set_proto(struct conn *c, void *proto, void (*free_fn)(void *))
{
	c->proto = proto;
	c->proto_free = free_fn;
}

void *conn_proto(const struct conn *c)
{
	return c->proto;
}

int conn_is_tls(const struct conn *c)
{
	return c->tls != NULL;
}

int conn_tls_resumed(const struct conn *c)
{
	return c->tls && tls_resumed(c->tls);
}

void *conn_tls_session(struct conn *c)
{
	return c->tls ? tls_session(c->tls) : NULL;
}

const char *conn_error(const struct conn *c)
{
	return c->err ? c->err : "connection error";
}

enum status_cause conn_cause(const struct conn *c)
{
	return c->err ? c->cause : CAUSE_CONNECT_FAILED;
}
