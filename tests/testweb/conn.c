/* A connection is a small state machine:
 *   reading -> delaying -> sending|dripping -> reading (keep-alive)
 *                                           -> holding (hang) | closing
 * Requests pipelined behind a busy one wait, unparsed, in the inbox; llhttp
 * is paused at each message end so exactly one request is in flight. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <inttypes.h>
#include <llhttp.h>
#include <openssl/err.h>
#include "lib/xmalloc.h"
#include "lib/buf.h"
#include "respond.h"
#include "conn.h"

/* Caps that keep a hostile client from growing our memory. */
#define CONN_MAX_HEAD (64 * 1024)
#define CONN_MAX_INBOX (1024 * 1024)
/* Streamed bodies are produced only while less than this is queued. */
#define CONN_HIGH_WATER (256 * 1024)
#define CONN_PIECE (64 * 1024)

enum conn_state {
	CONN_READING,
	CONN_DELAYING,
	CONN_SENDING,
	CONN_DRIPPING,
	CONN_HOLDING,
	CONN_STALLED,
	CONN_CLOSING,
};

static const char *const conn_state_name[] = {
    "reading",
    "delaying",
    "sending",
    "dripping",
    "holding",
    "stalled",
    "closing",
};

struct conn {
	uv_tcp_t tcp;
	uv_timer_t timer;
	int open_handles;
	struct conn_ctx *ctx;
	enum conn_port port;
	enum conn_state state;
	uint64_t id;
	struct conn *prev, *next;

	SSL *ssl;
	BIO *rbio, *wbio;

	llhttp_t parser;
	struct buf inbox;
	int reading_paused;
	/* The request being parsed or answered. */
	int req_active, req_complete, requests;
	double start_ms;
	double queued_ms; /* when the response's last bytes went to the kernel */
	size_t head_bytes;
	int in_value;
	struct buf url, field, value, host, accept_encoding, expect, if_none_match,
	    if_modified_since;
	struct buf agent;
	int keep_alive;
	char method[24];

	struct response resp;
	size_t pending_bytes;
	unsigned pending_writes;
	uint64_t body_written;
	int stream_done;
	int close_when_flushed;
};

struct conn_write {
	uv_write_t req;
	struct conn *c;
	size_t len;
	size_t body_bytes;
	char data[];
};

static struct conn *conn_list;
/* Connections open now and the most open at once, for the exit summary. */
static unsigned long conn_open, conn_open_max;
static uint64_t conn_next_id;
static llhttp_settings_t conn_settings;
static int conn_settings_ready;

static void conn_close(struct conn *c, int reset);
static void conn_parse(struct conn *c);
static void conn_pump(struct conn *c);
static void conn_alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b);
static void conn_read_cb(uv_stream_t *s, ssize_t nread, const uv_buf_t *b);

static void conn_set_state(struct conn *c, enum conn_state s)
{
	if (c->ctx->verbose)
		fprintf(stderr, "testweb: conn %" PRIu64 ": %s -> %s\n", c->id,
		    conn_state_name[c->state], conn_state_name[s]);
	c->state = s;
}

static void conn_closed_cb(uv_handle_t *h)
{
	struct conn *c = h->data;

	if (--c->open_handles > 0)
		return;
	if (c->ssl)
		SSL_free(c->ssl);
	buf_free(&c->inbox);
	buf_free(&c->url);
	buf_free(&c->field);
	buf_free(&c->value);
	buf_free(&c->host);
	buf_free(&c->accept_encoding);
	buf_free(&c->expect);
	buf_free(&c->if_none_match);
	buf_free(&c->if_modified_since);
	buf_free(&c->agent);
	respond_free(&c->resp);
	free(c);
}

static void conn_write_cb(uv_write_t *req, int status)
{
	struct conn_write *w = (struct conn_write *)req;
	struct conn *c = w->c;

	c->pending_bytes -= w->len;
	c->pending_writes--;
	if (status == 0)
		c->body_written += w->body_bytes;
	free(w);
	if (c->state == CONN_CLOSING)
		return;
	if (status < 0 || (c->close_when_flushed && c->pending_writes == 0)) {
		conn_close(c, 0);
		return;
	}
	if (c->state == CONN_SENDING)
		conn_pump(c);
}

/* Queues bytes already on the wire format (ciphertext for TLS). */
static void conn_write_raw(struct conn *c, const void *data, size_t len, size_t body_bytes)
{
	struct conn_write *w;
	uv_buf_t b;

	if (len == 0)
		return;
	w = xmalloc(sizeof(*w) + len);
	w->c = c;
	w->len = len;
	w->body_bytes = body_bytes;
	memcpy(w->data, data, len);
	b = uv_buf_init(w->data, (unsigned)len);
	c->pending_bytes += len;
	c->pending_writes++;
	c->queued_ms = reqlog_now_ms();
	if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, conn_write_cb) < 0) {
		c->pending_bytes -= len;
		c->pending_writes--;
		free(w);
		conn_close(c, 0);
	}
}

/* Moves whatever OpenSSL produced into the socket. */
static void conn_tls_flush(struct conn *c, size_t body_bytes)
{
	char tmp[16384];
	int n;

	while ((n = BIO_read(c->wbio, tmp, sizeof(tmp))) > 0) {
		conn_write_raw(c, tmp, (size_t)n, body_bytes);
		body_bytes = 0;
	}
}

static void conn_write(struct conn *c, const void *data, size_t len, size_t body_bytes)
{
	if (!c->ssl) {
		conn_write_raw(c, data, len, body_bytes);
		return;
	}
	if (len > 0 && SSL_write(c->ssl, data, (int)len) <= 0) {
		conn_close(c, 0);
		return;
	}
	conn_tls_flush(c, body_bytes);
}

/* end_ms: when the response's last bytes were handed to the kernel (the
 * client can read them from then on; the write callback that confirms it
 * may run a loop turn later on a busy server), or, for a response cut short,
 * the moment the connection closed. */
static void conn_log(struct conn *c, double end_ms)
{
	const char *target = c->url.data ? c->url.data : "";
	const char *cond = c->if_none_match.len ? (c->if_modified_since.len ? "inm+ims" : "inm")
	    : c->if_modified_since.len		? "ims"
						: "-";

	if (!c->req_active)
		return;
	reqlog_write(c->ctx->log, c->start_ms, end_ms, c->host.data, target, c->resp.status,
	    c->body_written, c->id, cond, c->agent.data);
	c->req_active = 0;
}

static void conn_reset_request(struct conn *c)
{
	buf_reset(&c->url);
	buf_reset(&c->field);
	buf_reset(&c->value);
	buf_reset(&c->host);
	buf_reset(&c->accept_encoding);
	buf_reset(&c->expect);
	buf_reset(&c->if_none_match);
	buf_reset(&c->if_modified_since);
	buf_reset(&c->agent);
	c->head_bytes = 0;
	c->in_value = 0;
	c->req_complete = 0;
	c->body_written = 0;
	c->stream_done = 0;
	respond_free(&c->resp);
}

/* The response is fully written: log it and move on. */
static void conn_finish(struct conn *c)
{
	enum respond_after after = c->resp.after;

	/* A held response is logged when the client gives up, so the log
	 * shows how long the client waited. */
	if (after == RESPOND_HOLD) {
		conn_set_state(c, CONN_HOLDING);
		return;
	}
	conn_log(c, c->queued_ms > c->start_ms ? c->queued_ms : reqlog_now_ms());
	if (after == RESPOND_CLOSE) {
		/* TLS says goodbye with close_notify, so that a clean close
		 * is told apart from a truncation attack. */
		if (c->ssl && SSL_is_init_finished(c->ssl)) {
			SSL_shutdown(c->ssl);
			conn_tls_flush(c, 0);
		}
		if (c->pending_writes == 0) {
			conn_close(c, 0);
			return;
		}
		c->close_when_flushed = 1;
		conn_set_state(c, CONN_HOLDING);
		return;
	}
	conn_reset_request(c);
	conn_set_state(c, CONN_READING);
	conn_parse(c);
}

static void conn_pump(struct conn *c)
{
	char piece[CONN_PIECE];

	while (!c->stream_done && c->resp.stream && c->pending_bytes < CONN_HIGH_WATER &&
	    c->state == CONN_SENDING) {
		size_t n = body_next(c->resp.stream, piece, sizeof(piece));

		if (n == 0)
			c->stream_done = 1;
		else
			conn_write(c, piece, n, n);
	}
	if (c->state == CONN_SENDING && (c->stream_done || !c->resp.stream) &&
	    c->pending_writes == 0)
		conn_finish(c);
}

static void conn_drip_cb(uv_timer_t *t)
{
	struct conn *c = t->data;
	char byte;

	if (body_next(c->resp.stream, &byte, 1) == 1) {
		conn_write(c, &byte, 1, 1);
		return;
	}
	uv_timer_stop(&c->timer);
	c->stream_done = 1;
	conn_set_state(c, CONN_SENDING);
	conn_pump(c);
}

static void conn_send(struct conn *c)
{
	struct response *r = &c->resp;

	conn_write(c, r->head.data, r->head.len, 0);
	if (c->state == CONN_CLOSING)
		return;
	conn_write(c, r->body.data, r->body.len, r->body.len);
	if (c->state == CONN_CLOSING)
		return;
	if (r->stream && r->drip_ms) {
		conn_set_state(c, CONN_DRIPPING);
		uv_timer_start(&c->timer, conn_drip_cb, r->drip_ms, r->drip_ms);
		return;
	}
	conn_set_state(c, CONN_SENDING);
	conn_pump(c);
}

static void conn_delay_cb(uv_timer_t *t)
{
	conn_send(t->data);
}

static void conn_dispatch(struct conn *c)
{
	struct respond_req q;
	const char *colon = strrchr(c->host.data ? c->host.data : "", ':');
	char *host = c->host.data ? xstrdup(c->host.data) : xstrdup("");
	unsigned port = c->port == CONN_HTTPS ? c->ctx->https_port : c->ctx->http_port;

	/* Host "name:port"; IPv6 literals keep their brackets. */
	if (colon && !strchr(colon, ']')) {
		port = (unsigned)strtoul(colon + 1, NULL, 10);
		host[colon - c->host.data] = '\0';
	}
	buf_reset(&c->host);
	buf_appends(&c->host, host);
	free(host);
	memset(&q, 0, sizeof(q));
	q.method = c->method;
	q.target = c->url.data ? c->url.data : "/";
	q.host = c->host.data ? c->host.data : "";
	q.port = port;
	q.tls = c->port == CONN_HTTPS;
	q.accept_gzip = c->accept_encoding.data && respond_accepts_gzip(c->accept_encoding.data);
	q.first_on_conn = c->requests == 1;
	q.keep_alive = c->keep_alive;
	q.if_none_match = c->if_none_match.len ? c->if_none_match.data : NULL;
	q.if_modified_since = c->if_modified_since.len ? c->if_modified_since.data : NULL;
	q.now_ms = reqlog_now_ms();
	respond_build(c->ctx->web, c->ctx->script, &q, &c->resp);
	switch (c->resp.action) {
	case RESPOND_RESET:
		conn_close(c, 1);
		return;
	case RESPOND_SILENT:
		conn_set_state(c, CONN_HOLDING);
		return;
	case RESPOND_SEND:
		break;
	}
	if (c->resp.delay_ms) {
		conn_set_state(c, CONN_DELAYING);
		uv_timer_start(&c->timer, conn_delay_cb, c->resp.delay_ms, 0);
		return;
	}
	conn_send(c);
}

/* A request the parser rejected gets a 400 and the connection closes. */
static void conn_bad_request(struct conn *c, const char *why)
{
	if (c->ctx->verbose)
		fprintf(stderr, "testweb: conn %" PRIu64 ": bad request: %s\n", c->id, why);
	if (!c->req_active) {
		c->req_active = 1;
		c->start_ms = reqlog_now_ms();
	}
	buf_reset(&c->inbox);
	respond_free(&c->resp);
	c->resp.after = RESPOND_CLOSE;
	buf_appends(&c->resp.body, "bad request\n");
	respond_head(&c->resp, 400, "text/plain", c->resp.body.len, NULL);
	conn_send(c);
}

static void conn_parse(struct conn *c)
{
	while (c->state == CONN_READING && c->inbox.len > 0) {
		llhttp_errno_t e = llhttp_execute(&c->parser, c->inbox.data, c->inbox.len);

		if (e == HPE_OK) {
			buf_reset(&c->inbox);
		} else if (e == HPE_PAUSED) {
			buf_consume(
			    &c->inbox, (size_t)(llhttp_get_error_pos(&c->parser) - c->inbox.data));
			llhttp_resume(&c->parser);
		} else {
			conn_bad_request(c, llhttp_errno_name(e));
			return;
		}
		if (c->state == CONN_CLOSING)
			return;
		if (c->req_complete)
			conn_dispatch(c);
	}
	if (c->reading_paused && c->state == CONN_READING) {
		c->reading_paused = 0;
		uv_read_start((uv_stream_t *)&c->tcp, conn_alloc_cb, conn_read_cb);
	}
}

static struct conn *conn_of(llhttp_t *p)
{
	return p->data;
}

static int conn_on_message_begin(llhttp_t *p)
{
	struct conn *c = conn_of(p);

	c->req_active = 1;
	c->requests++;
	c->start_ms = reqlog_now_ms();
	return 0;
}

static int conn_count(struct conn *c, size_t len)
{
	c->head_bytes += len;
	return c->head_bytes > CONN_MAX_HEAD ? -1 : 0;
}

static int conn_on_url(llhttp_t *p, const char *at, size_t len)
{
	struct conn *c = conn_of(p);

	buf_append(&c->url, at, len);
	return conn_count(c, len);
}

static int conn_on_header_field(llhttp_t *p, const char *at, size_t len)
{
	struct conn *c = conn_of(p);

	buf_append(&c->field, at, len);
	return conn_count(c, len);
}

static int conn_on_header_value(llhttp_t *p, const char *at, size_t len)
{
	struct conn *c = conn_of(p);

	buf_append(&c->value, at, len);
	return conn_count(c, len);
}

static int conn_on_header_value_complete(llhttp_t *p)
{
	struct conn *c = conn_of(p);
	const char *f = c->field.data ? c->field.data : "";
	const char *v = c->value.data ? c->value.data : "";

	if (strcasecmp(f, "host") == 0) {
		buf_reset(&c->host);
		buf_appends(&c->host, v);
	} else if (strcasecmp(f, "accept-encoding") == 0) {
		if (c->accept_encoding.len)
			buf_appendc(&c->accept_encoding, ',');
		buf_appends(&c->accept_encoding, v);
	} else if (strcasecmp(f, "expect") == 0) {
		buf_reset(&c->expect);
		buf_appends(&c->expect, v);
	} else if (strcasecmp(f, "if-none-match") == 0) {
		if (c->if_none_match.len)
			buf_appendc(&c->if_none_match, ',');
		buf_appends(&c->if_none_match, v);
	} else if (strcasecmp(f, "if-modified-since") == 0) {
		buf_reset(&c->if_modified_since);
		buf_appends(&c->if_modified_since, v);
	} else if (strcasecmp(f, "user-agent") == 0) {
		buf_reset(&c->agent);
		buf_appends(&c->agent, v);
	}
	buf_reset(&c->field);
	buf_reset(&c->value);
	return 0;
}

static int conn_on_headers_complete(llhttp_t *p)
{
	struct conn *c = conn_of(p);
	static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";

	snprintf(
	    c->method, sizeof(c->method), "%s", llhttp_method_name((llhttp_method_t)p->method));
	if (respond_wants_continue(c->url.data ? c->url.data : "", c->expect.data))
		conn_write(c, cont, sizeof(cont) - 1, 0);
	return 0;
}

static int conn_on_message_complete(llhttp_t *p)
{
	struct conn *c = conn_of(p);

	c->keep_alive = llhttp_should_keep_alive(p);
	c->req_complete = 1;
	return HPE_PAUSED;
}

static void conn_settings_init(void)
{
	if (conn_settings_ready)
		return;
	llhttp_settings_init(&conn_settings);
	conn_settings.on_message_begin = conn_on_message_begin;
	conn_settings.on_url = conn_on_url;
	conn_settings.on_header_field = conn_on_header_field;
	conn_settings.on_header_value = conn_on_header_value;
	conn_settings.on_header_value_complete = conn_on_header_value_complete;
	conn_settings.on_headers_complete = conn_on_headers_complete;
	conn_settings.on_message_complete = conn_on_message_complete;
	conn_settings_ready = 1;
}

static void conn_alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	static char slab[65536];

	(void)h;
	(void)suggested;
	*b = uv_buf_init(slab, sizeof(slab));
}

/* Decrypts what arrived; returns -1 if the connection must close. */
static int conn_tls_input(struct conn *c, const char *data, size_t len)
{
	char plain[16384];
	int n;

	if (BIO_write(c->rbio, data, (int)len) != (int)len)
		return -1;
	for (;;) {
		n = SSL_read(c->ssl, plain, sizeof(plain));
		if (n > 0) {
			buf_append(&c->inbox, plain, (size_t)n);
			continue;
		}
		switch (SSL_get_error(c->ssl, n)) {
		case SSL_ERROR_WANT_READ:
		case SSL_ERROR_WANT_WRITE:
			conn_tls_flush(c, 0);
			return 0;
		default:
			conn_tls_flush(c, 0);
			ERR_clear_error();
			return -1;
		}
	}
}

static void conn_read_cb(uv_stream_t *s, ssize_t nread, const uv_buf_t *b)
{
	struct conn *c = s->data;

	if (nread == 0 || c->state == CONN_CLOSING)
		return;
	if (nread < 0) {
		conn_close(c, 0);
		return;
	}
	if (c->state == CONN_STALLED)
		return;
	if (c->ssl) {
		if (conn_tls_input(c, b->base, (size_t)nread) < 0) {
			conn_close(c, 0);
			return;
		}
	} else {
		buf_append(&c->inbox, b->base, (size_t)nread);
	}
	if (c->state == CONN_CLOSING)
		return;
	if (c->state != CONN_READING && c->inbox.len > CONN_MAX_INBOX) {
		c->reading_paused = 1;
		uv_read_stop(s);
	}
	conn_parse(c);
}

static void conn_close(struct conn *c, int reset)
{
	if (c->state == CONN_CLOSING)
		return;
	conn_set_state(c, CONN_CLOSING);
	conn_log(c, reqlog_now_ms());
	if (c->prev)
		c->prev->next = c->next;
	else
		conn_list = c->next;
	if (c->next)
		c->next->prev = c->prev;
	conn_open--;
	uv_timer_stop(&c->timer);
	uv_close((uv_handle_t *)&c->timer, conn_closed_cb);
	if (!reset || uv_tcp_close_reset(&c->tcp, conn_closed_cb) != 0)
		uv_close((uv_handle_t *)&c->tcp, conn_closed_cb);
}

unsigned long conn_max_open(void)
{
	return conn_open_max;
}

void conn_close_all(void)
{
	while (conn_list)
		conn_close(conn_list, 0);
}

int conn_accept(uv_stream_t *server, struct conn_ctx *ctx, enum conn_port port)
{
	struct conn *c = xcalloc(1, sizeof(*c));
	int e;

	conn_settings_init();
	c->ctx = ctx;
	c->port = port;
	c->id = ++conn_next_id;
	uv_tcp_init(server->loop, &c->tcp);
	uv_timer_init(server->loop, &c->timer);
	c->tcp.data = c;
	c->timer.data = c;
	c->open_handles = 2;
	c->next = conn_list;
	if (conn_list)
		conn_list->prev = c;
	conn_list = c;
	if (++conn_open > conn_open_max)
		conn_open_max = conn_open;
	e = uv_accept(server, (uv_stream_t *)&c->tcp);
	if (e == 0 && port == CONN_HTTPS) {
		c->ssl = SSL_new(ctx->ssl);
		c->rbio = BIO_new(BIO_s_mem());
		c->wbio = BIO_new(BIO_s_mem());
		SSL_set_bio(c->ssl, c->rbio, c->wbio);
		SSL_set_accept_state(c->ssl);
	}
	llhttp_init(&c->parser, HTTP_REQUEST, &conn_settings);
	c->parser.data = c;
	uv_tcp_nodelay(&c->tcp, 1);
	c->state = port == CONN_STALL ? CONN_STALLED : CONN_READING;
	if (e == 0)
		e = uv_read_start((uv_stream_t *)&c->tcp, conn_alloc_cb, conn_read_cb);
	if (e != 0)
		conn_close(c, 0);
	return e;
}
