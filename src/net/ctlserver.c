/* The control socket's server. Each connection is a small state machine:
 * READING (bytes go to the ctlreq parser) -> WRITING (the answer) ->
 * LINGERING (our side shut down, the client's leftover bytes read and
 * dropped until it closes) -> CLOSING (both handles closing; freed when both
 * are closed). Lingering is what HTTP servers do so that a client still
 * sending a refused body sees the answer instead of a reset. One timer per
 * connection bounds each phase, so a client that sends slowly, never reads
 * its answer or never closes holds one of the CTLSERVER_MAX_CONNS slots for
 * a bounded time. */
#include "net/ctlserver.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

enum ctlserver_state { CTLSERVER_READING, CTLSERVER_WRITING, CTLSERVER_LINGERING, CTLSERVER_CLOSING };

/* How long a client may keep sending after its answer. */
#define CTLSERVER_LINGER_MS 2000

struct ctlserver_conn {
	uv_pipe_t pipe;
	uv_timer_t timer;
	uv_write_t wr;
	uv_shutdown_t sd;
	struct ctlserver *s;
	struct ctlreq_parser *parser;
	struct buf out;
	enum ctlserver_state state;
	int open_handles;
	struct ctlserver_conn *prev, *next;
	char rbuf[4096];
};

struct ctlserver {
	uv_pipe_t listener;
	uv_loop_t *loop;
	char *path;
	ctlserver_handler handler;
	void *ctx;
	struct ctlserver_conn *conns;
	unsigned nconns;
	unsigned long requests;
	int closing;
	int listener_open;
};

static const char *ctlserver_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 202: return "Accepted";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 409: return "Conflict";
	case 413: return "Payload Too Large";
	case 414: return "URI Too Long";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	default: return "Status";
	}
}

void ctlserver_reply_error(struct ctlserver_reply *r, int status, const char *msg)
{
	buf_reset(&r->body);
	r->status = status;
	r->content_type = "application/json";
	buf_appends(&r->body, "{\"error\": \"");
	for (const char *p = msg; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '"' || c == '\\')
			buf_appendf(&r->body, "\\%c", c);
		else if (c < 0x20)
			buf_appendf(&r->body, "\\u%04x", c);
		else
			buf_appendc(&r->body, (char)c);
	}
	buf_appendf(&r->body, "\", \"status\": %d}\n", status);
}

static void ctlserver_maybe_free(struct ctlserver *s)
{
	if (s->closing && !s->listener_open && s->conns == NULL) {
		free(s->path);
		free(s);
	}
}

static void ctlserver_conn_closed_cb(uv_handle_t *h)
{
	struct ctlserver_conn *c = h->data;
	struct ctlserver *s = c->s;

	if (--c->open_handles > 0)
		return;
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		s->conns = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	s->nconns--;
	ctlreq_parser_free(c->parser);
	buf_free(&c->out);
	free(c);
	ctlserver_maybe_free(s);
}

static void ctlserver_conn_close(struct ctlserver_conn *c)
{
	if (c->state == CTLSERVER_CLOSING)
		return;
	c->state = CTLSERVER_CLOSING;
	uv_close((uv_handle_t *)&c->pipe, ctlserver_conn_closed_cb);
	uv_close((uv_handle_t *)&c->timer, ctlserver_conn_closed_cb);
}

static void ctlserver_timeout_cb(uv_timer_t *t);

static void ctlserver_shutdown_cb(uv_shutdown_t *r, int status)
{
	(void)r;
	(void)status;
}

static void ctlserver_written_cb(uv_write_t *w, int status)
{
	struct ctlserver_conn *c = w->data;

	if (c->state != CTLSERVER_WRITING)
		return;
	if (status != 0) {
		ctlserver_conn_close(c);
		return;
	}
	c->state = CTLSERVER_LINGERING;
	c->sd.data = c;
	uv_timer_start(&c->timer, ctlserver_timeout_cb, CTLSERVER_LINGER_MS, 0);
	if (uv_shutdown(&c->sd, (uv_stream_t *)&c->pipe, ctlserver_shutdown_cb) != 0)
		ctlserver_conn_close(c);
}

static void ctlserver_send(struct ctlserver_conn *c, struct ctlserver_reply *r)
{
	uv_buf_t b;

	buf_reset(&c->out);
	buf_appendf(&c->out, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
	    "Cache-Control: no-store\r\nConnection: close\r\n\r\n", r->status,
	    ctlserver_reason(r->status), r->content_type, r->body.len);
	buf_append(&c->out, r->body.data, r->body.len);
	c->state = CTLSERVER_WRITING;
	/* The answer gets its own time to be taken. */
	uv_timer_start(&c->timer, ctlserver_timeout_cb, CTLSERVER_TIMEOUT_MS, 0);
	b = uv_buf_init(c->out.data, (unsigned)c->out.len);
	c->wr.data = c;
	if (uv_write(&c->wr, (uv_stream_t *)&c->pipe, &b, 1, ctlserver_written_cb) != 0)
		ctlserver_conn_close(c);
}

static void ctlserver_send_error(struct ctlserver_conn *c, int status, const char *msg)
{
	struct ctlserver_reply r;

	buf_init(&r.body);
	ctlserver_reply_error(&r, status, msg);
	ctlserver_send(c, &r);
	buf_free(&r.body);
}

static void ctlserver_alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	struct ctlserver_conn *c = h->data;

	(void)suggested;
	*b = uv_buf_init(c->rbuf, sizeof c->rbuf);
}

static void ctlserver_read_cb(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
	struct ctlserver_conn *c = st->data;
	struct ctlserver *s = c->s;
	struct ctlserver_reply r;

	if (n < 0) {
		/* The client went away (or half-closed) before a whole
		 * request (nobody to answer), or after its answer. */
		if (c->state != CTLSERVER_WRITING)
			ctlserver_conn_close(c);
		return;
	}
	if (c->state != CTLSERVER_READING)
		return;	/* after the request: dropped */
	switch (ctlreq_feed(c->parser, b->base, (size_t)n)) {
	case CTLREQ_MORE:
		return;
	case CTLREQ_ERROR:
		ctlserver_send_error(c, ctlreq_error_status(c->parser),
		    ctlreq_error_message(c->parser));
		return;
	case CTLREQ_DONE:
		break;
	}
	s->requests++;
	buf_init(&r.body);
	r.status = 200;
	r.content_type = "application/json";
	s->handler(s->ctx, ctlreq_request(c->parser), &r);
	ctlserver_send(c, &r);
	buf_free(&r.body);
}

static void ctlserver_timeout_cb(uv_timer_t *t)
{
	struct ctlserver_conn *c = t->data;

	if (c->state == CTLSERVER_READING)
		ctlserver_send_error(c, 408, "request not received in time");
	else
		ctlserver_conn_close(c);
}

static void ctlserver_connection_cb(uv_stream_t *l, int status)
{
	struct ctlserver *s = l->data;
	struct ctlserver_conn *c;

	if (status < 0 || s->closing)
		return;
	c = xcalloc(1, sizeof *c);
	c->s = s;
	c->parser = ctlreq_parser_new();
	buf_init(&c->out);
	uv_pipe_init(s->loop, &c->pipe, 0);
	uv_timer_init(s->loop, &c->timer);
	c->pipe.data = c->timer.data = c;
	c->open_handles = 2;
	c->next = s->conns;
	if (s->conns != NULL)
		s->conns->prev = c;
	s->conns = c;
	s->nconns++;
	if (uv_accept(l, (uv_stream_t *)&c->pipe) != 0) {
		ctlserver_conn_close(c);
		return;
	}
	uv_timer_start(&c->timer, ctlserver_timeout_cb, CTLSERVER_TIMEOUT_MS, 0);
	if (uv_read_start((uv_stream_t *)&c->pipe, ctlserver_alloc_cb, ctlserver_read_cb) != 0) {
		ctlserver_conn_close(c);
		return;
	}
	if (s->nconns > CTLSERVER_MAX_CONNS)
		ctlserver_send_error(c, 503, "too many control connections");
}

static void ctlserver_listener_closed_cb(uv_handle_t *h)
{
	struct ctlserver *s = h->data;

	s->listener_open = 0;
	ctlserver_maybe_free(s);
}

struct ctlserver *ctlserver_start(uv_loop_t *loop, const char *path, ctlserver_handler h,
    void *ctx, char **err)
{
	struct sockaddr_un sun;
	struct ctlserver *s;
	mode_t old;
	int rc;

	if (strlen(path) >= sizeof sun.sun_path) {
		*err = xasprintf("%s: path too long for a unix socket (%zu bytes at most)", path,
		    sizeof sun.sun_path - 1);
		return NULL;
	}
	s = xcalloc(1, sizeof *s);
	s->loop = loop;
	s->path = xstrdup(path);
	s->handler = h;
	s->ctx = ctx;
	uv_pipe_init(loop, &s->listener, 0);
	s->listener.data = s;
	s->listener_open = 1;
	/* Left over by a crawl that did not end cleanly: the job's store lock,
	 * taken before this, says no other crawl is using it. */
	if (unlink(path) != 0 && errno != ENOENT) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	/* The socket is created with the owner's permissions only, so that no
	 * other user can connect between bind and chmod. */
	old = umask(0077);
	rc = uv_pipe_bind(&s->listener, path);
	umask(old);
	if (rc == 0)
		rc = chmod(path, 0600) == 0 ? 0 : uv_translate_sys_error(errno);
	if (rc == 0)
		rc = uv_listen((uv_stream_t *)&s->listener, 128, ctlserver_connection_cb);
	if (rc != 0) {
		*err = xasprintf("%s: %s", path, uv_strerror(rc));
		unlink(path);
		goto fail;
	}
	return s;
fail:
	s->closing = 1;
	uv_close((uv_handle_t *)&s->listener, ctlserver_listener_closed_cb);
	return NULL;
}

void ctlserver_close(struct ctlserver *s)
{
	struct ctlserver_conn *c, *next;

	if (s == NULL || s->closing)
		return;
	s->closing = 1;
	unlink(s->path);
	uv_close((uv_handle_t *)&s->listener, ctlserver_listener_closed_cb);
	for (c = s->conns; c != NULL; c = next) {
		next = c->next;
		ctlserver_conn_close(c);
	}
}

unsigned ctlserver_connections(const struct ctlserver *s)
{
	return s->nconns;
}

unsigned long ctlserver_requests(const struct ctlserver *s)
{
	return s->requests;
}
