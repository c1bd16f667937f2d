/* The control socket's server. Each connection is a small state machine:
 * READING (bytes go to the ctlreq parser) -> [DEFERRED (the handler answers
 * later)] -> WRITING (the answer) -> LINGERING (our side shut down, the
 * client's leftover bytes read and dropped until it closes) -> CLOSING (both
 * handles closing; freed when both are closed). Lingering is what HTTP servers do so that a client still
 * sending a refused body sees the answer instead of a reset. One timer per
 * connection bounds each phase, so a client that sends slowly, never reads
 * its answer or never closes holds one of the CTLSERVER_MAX_CONNS slots for
 * a bounded time. */
#include "net/ctlserver.h"
#include "lib/xmalloc.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Changed in ctlserver_set_state only; a new connection (zeroed) is
 * READING. */
enum ctlserver_state {
	CTLSERVER_READING,
	CTLSERVER_DEFERRED,
	CTLSERVER_WRITING,
	CTLSERVER_LINGERING,
	CTLSERVER_CLOSING
};

/* A unix socket's or a TCP connection's handle, used as a stream. */
union ctlserver_stream {
	uv_handle_t handle;
	uv_stream_t stream;
	uv_pipe_t pipe;
	uv_tcp_t tcp;
};

/* How long a client may keep sending after its answer. */
#define CTLSERVER_LINGER_MS 2000

struct ctlserver_conn {
	union ctlserver_stream h;
	uv_timer_t timer;
	uv_write_t wr;
	uv_shutdown_t sd;
	struct ctlserver *s;
	struct ctlreq_parser *parser;
	struct ctlserver_reply reply;
	void (*cancel)(void *arg); /* DEFERRED: told if the answer cannot be sent */
	void *cancel_arg;
	struct buf out;
	enum ctlserver_state state;
	int open_handles;
	struct ctlserver_conn *prev, *next;
	char rbuf[4096];
};

struct ctlserver {
	union ctlserver_stream listener;
	int tcp;
	uv_loop_t *loop;
	char *path;	  /* the unix socket's; NULL for TCP */
	char address[64]; /* the TCP listener's */
	int loopback;	  /* ... bound to a loopback address */
	unsigned port;
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
	case 200:
		return "OK";
	case 202:
		return "Accepted";
	case 303:
		return "See Other";
	case 304:
		return "Not Modified";
	case 400:
		return "Bad Request";
	case 401:
		return "Unauthorized";
	case 403:
		return "Forbidden";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 408:
		return "Request Timeout";
	case 409:
		return "Conflict";
	case 413:
		return "Payload Too Large";
	case 414:
		return "URI Too Long";
	case 431:
		return "Request Header Fields Too Large";
	case 500:
		return "Internal Server Error";
	case 501:
		return "Not Implemented";
	case 503:
		return "Service Unavailable";
	default:
		return "Status";
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
	buf_free(&c->reply.body);
	buf_free(&c->reply.headers);
	buf_free(&c->out);
	free(c);
	ctlserver_maybe_free(s);
}

/* A deferred answer that will not be sent: its owner lets go of it. */
static void ctlserver_cancel(struct ctlserver_conn *c)
{
	void (*cancel)(void *arg) = c->cancel;

	c->cancel = NULL;
	if (cancel != NULL)
		cancel(c->cancel_arg);
}

static const char *const ctlserver_state_names[] = {
    "reading", "deferred", "writing", "lingering", "closing"};

/* The one place a connection's state changes, along the order at the top
 * of this file; any state but CLOSING may close. */
static void ctlserver_set_state(struct ctlserver_conn *c, enum ctlserver_state to)
{
	static const unsigned char legal[5] = {
	    [CTLSERVER_READING] =
		1u << CTLSERVER_DEFERRED | 1u << CTLSERVER_WRITING | 1u << CTLSERVER_CLOSING,
	    [CTLSERVER_DEFERRED] = 1u << CTLSERVER_WRITING | 1u << CTLSERVER_CLOSING,
	    [CTLSERVER_WRITING] = 1u << CTLSERVER_LINGERING | 1u << CTLSERVER_CLOSING,
	    [CTLSERVER_LINGERING] = 1u << CTLSERVER_CLOSING,
	    [CTLSERVER_CLOSING] = 0,
	};

	if (!(legal[c->state] & (1u << to))) {
		fprintf(stderr, "ctlserver: illegal state change %s -> %s\n",
		    ctlserver_state_names[c->state], ctlserver_state_names[to]);
		assert(!"illegal ctlserver state change");
	}
	c->state = to;
}

static void ctlserver_conn_close(struct ctlserver_conn *c)
{
	if (c->state == CTLSERVER_CLOSING)
		return;
	if (c->state == CTLSERVER_DEFERRED)
		ctlserver_cancel(c);
	ctlserver_set_state(c, CTLSERVER_CLOSING);
	uv_close(&c->h.handle, ctlserver_conn_closed_cb);
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
	ctlserver_set_state(c, CTLSERVER_LINGERING);
	c->sd.data = c;
	uv_timer_start(&c->timer, ctlserver_timeout_cb, CTLSERVER_LINGER_MS, 0);
	if (uv_shutdown(&c->sd, &c->h.stream, ctlserver_shutdown_cb) != 0)
		ctlserver_conn_close(c);
}

static int ctlserver_has_cache_control(const struct buf *h)
{
	for (size_t i = 0; h->data != NULL && i < h->len; i++)
		if ((i == 0 || h->data[i - 1] == '\n') &&
		    strncasecmp(h->data + i, "Cache-Control:", 14) == 0)
			return 1;
	return 0;
}

static void ctlserver_send(struct ctlserver_conn *c, struct ctlserver_reply *r)
{
	uv_buf_t b;

	buf_reset(&c->out);
	buf_appendf(&c->out,
	    "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
	    "%sConnection: close\r\n",
	    r->status, ctlserver_reason(r->status), r->content_type, r->body.len,
	    ctlserver_has_cache_control(&r->headers) ? "" : "Cache-Control: no-store\r\n");
	buf_append(&c->out, r->headers.data, r->headers.len);
	buf_appends(&c->out, "\r\n");
	buf_append(&c->out, r->body.data, r->body.len);
	ctlserver_set_state(c, CTLSERVER_WRITING);
	/* The answer gets its own time to be taken. */
	uv_timer_start(&c->timer, ctlserver_timeout_cb, CTLSERVER_TIMEOUT_MS, 0);
	b = uv_buf_init(c->out.data, (unsigned)c->out.len);
	c->wr.data = c;
	if (uv_write(&c->wr, &c->h.stream, &b, 1, ctlserver_written_cb) != 0)
		ctlserver_conn_close(c);
}

static void ctlserver_send_error(struct ctlserver_conn *c, int status, const char *msg)
{
	buf_reset(&c->reply.headers);
	ctlserver_reply_error(&c->reply, status, msg);
	ctlserver_send(c, &c->reply);
}

struct ctlserver_defer *ctlserver_defer(
    struct ctlserver_reply *reply, void (*cancel)(void *arg), void *arg)
{
	struct ctlserver_conn *c =
	    (struct ctlserver_conn *)((char *)reply - offsetof(struct ctlserver_conn, reply));

	ctlserver_set_state(c, CTLSERVER_DEFERRED);
	c->cancel = cancel;
	c->cancel_arg = arg;
	return (struct ctlserver_defer *)c;
}

struct ctlserver_reply *ctlserver_defer_reply(struct ctlserver_defer *d)
{
	return &((struct ctlserver_conn *)d)->reply;
}

void ctlserver_defer_progress(struct ctlserver_defer *d)
{
	struct ctlserver_conn *c = (struct ctlserver_conn *)d;

	if (c->state == CTLSERVER_DEFERRED)
		uv_timer_start(&c->timer, ctlserver_timeout_cb, CTLSERVER_TIMEOUT_MS, 0);
}

void ctlserver_defer_send(struct ctlserver_defer *d)
{
	struct ctlserver_conn *c = (struct ctlserver_conn *)d;

	c->cancel = NULL;
	if (c->state == CTLSERVER_DEFERRED)
		ctlserver_send(c, &c->reply);
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

	if (n < 0) {
		/* The client went away (or half-closed) before a whole
		 * request (nobody to answer), or after its answer. A client
		 * that half-closes after its request still gets a deferred
		 * answer. */
		if (c->state != CTLSERVER_WRITING && c->state != CTLSERVER_DEFERRED)
			ctlserver_conn_close(c);
		return;
	}
	if (c->state != CTLSERVER_READING)
		return; /* after the request: dropped */
	switch (ctlreq_feed(c->parser, b->base, (size_t)n)) {
	case CTLREQ_MORE:
		return;
	case CTLREQ_ERROR:
		ctlserver_send_error(
		    c, ctlreq_error_status(c->parser), ctlreq_error_message(c->parser));
		return;
	case CTLREQ_DONE:
		break;
	}
	s->requests++;
	c->reply.status = 200;
	c->reply.content_type = "application/json";
	buf_reset(&c->reply.body);
	buf_reset(&c->reply.headers);
	s->handler(s->ctx, ctlreq_request(c->parser), &c->reply);
	if (c->state == CTLSERVER_READING)
		ctlserver_send(c, &c->reply);
	else /* deferred: the answer has its own time to be made */
		uv_timer_start(&c->timer, ctlserver_timeout_cb, CTLSERVER_TIMEOUT_MS, 0);
}

static void ctlserver_timeout_cb(uv_timer_t *t)
{
	struct ctlserver_conn *c = t->data;

	if (c->state == CTLSERVER_READING) {
		ctlserver_send_error(c, 408, "request not received in time");
	} else if (c->state == CTLSERVER_DEFERRED) {
		ctlserver_cancel(c);
		ctlserver_send_error(c, 503, "the answer took too long");
	} else {
		ctlserver_conn_close(c);
	}
}

/* Whether the peer of a unix-socket connection runs as the crawl's user
 * (or root). The socket's mode 0600 already keeps other users out; this
 * holds if the mode was changed, or the socket was reached through a
 * descriptor passed on. */
static int ctlserver_peer_ok(struct ctlserver_conn *c)
{
	struct ucred cred;
	socklen_t len = sizeof cred;
	uv_os_fd_t fd;

	if (uv_fileno(&c->h.handle, &fd) != 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
		return 0;
	return cred.uid == geteuid() || cred.uid == 0;
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
	buf_init(&c->reply.body);
	buf_init(&c->reply.headers);
	if (s->tcp)
		uv_tcp_init(s->loop, &c->h.tcp);
	else
		uv_pipe_init(s->loop, &c->h.pipe, 0);
	uv_timer_init(s->loop, &c->timer);
	c->h.handle.data = c->timer.data = c;
	c->open_handles = 2;
	c->next = s->conns;
	if (s->conns != NULL)
		s->conns->prev = c;
	s->conns = c;
	s->nconns++;
	if (uv_accept(l, &c->h.stream) != 0) {
		ctlserver_conn_close(c);
		return;
	}
	uv_timer_start(&c->timer, ctlserver_timeout_cb, CTLSERVER_TIMEOUT_MS, 0);
	if (uv_read_start(&c->h.stream, ctlserver_alloc_cb, ctlserver_read_cb) != 0) {
		ctlserver_conn_close(c);
		return;
	}
	if (!s->tcp && !ctlserver_peer_ok(c))
		ctlserver_send_error(c, 403, "the control socket answers its owner's user only");
	else if (s->nconns > CTLSERVER_MAX_CONNS)
		ctlserver_send_error(c, 503, "too many control connections");
}

static void ctlserver_listener_closed_cb(uv_handle_t *h)
{
	struct ctlserver *s = h->data;

	s->listener_open = 0;
	ctlserver_maybe_free(s);
}

struct ctlserver *ctlserver_start(
    uv_loop_t *loop, const char *path, ctlserver_handler h, void *ctx, char **err)
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
	uv_pipe_init(loop, &s->listener.pipe, 0);
	s->listener.handle.data = s;
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
	rc = uv_pipe_bind(&s->listener.pipe, path);
	umask(old);
	if (rc == 0)
		rc = chmod(path, 0600) == 0 ? 0 : uv_translate_sys_error(errno);
	if (rc == 0)
		rc = uv_listen(&s->listener.stream, 128, ctlserver_connection_cb);
	if (rc != 0) {
		*err = xasprintf("%s: %s", path, uv_strerror(rc));
		unlink(path);
		goto fail;
	}
	return s;
fail:
	s->closing = 1;
	uv_close(&s->listener.handle, ctlserver_listener_closed_cb);
	return NULL;
}

/* "IPv4:PORT" or "[IPv6]:PORT" into a socket address. */
static int ctlserver_parse_addr(const char *addr, struct sockaddr_storage *ss)
{
	char host[64];
	const char *colon, *h = addr;
	size_t n;
	char *end;
	long port;

	if (*addr == '[') {
		const char *close = strchr(addr, ']');
		if (close == NULL || close[1] != ':')
			return -1;
		h = addr + 1;
		n = (size_t)(close - h);
		colon = close + 1;
	} else {
		colon = strrchr(addr, ':');
		if (colon == NULL)
			return -1;
		n = (size_t)(colon - addr);
	}
	if (n == 0 || n >= sizeof host || colon[1] == '\0')
		return -1;
	memcpy(host, h, n);
	host[n] = '\0';
	port = strtol(colon + 1, &end, 10);
	if (*end != '\0' || port < 0 || port > 65535)
		return -1;
	if (*addr == '[')
		return uv_ip6_addr(host, (int)port, (struct sockaddr_in6 *)ss) == 0 ? 0 : -1;
	return uv_ip4_addr(host, (int)port, (struct sockaddr_in *)ss) == 0 ? 0 : -1;
}

struct ctlserver *ctlserver_start_tcp(
    uv_loop_t *loop, const char *addr, ctlserver_handler h, void *ctx, char **err)
{
	struct sockaddr_storage ss, bound;
	int len = (int)sizeof bound, rc;
	struct ctlserver *s;
	char ip[INET6_ADDRSTRLEN];

	memset(&ss, 0, sizeof ss);
	if (ctlserver_parse_addr(addr, &ss) < 0) {
		*err = xasprintf("%s: expected IPv4:PORT or [IPv6]:PORT", addr);
		return NULL;
	}
	s = xcalloc(1, sizeof *s);
	s->loop = loop;
	s->tcp = 1;
	s->handler = h;
	s->ctx = ctx;
	uv_tcp_init(loop, &s->listener.tcp);
	s->listener.handle.data = s;
	s->listener_open = 1;
	rc = uv_tcp_bind(&s->listener.tcp, (const struct sockaddr *)&ss, 0);
	if (rc == 0)
		rc = uv_listen(&s->listener.stream, 128, ctlserver_connection_cb);
	if (rc == 0)
		rc = uv_tcp_getsockname(&s->listener.tcp, (struct sockaddr *)&bound, &len);
	if (rc != 0) {
		*err = xasprintf("%s: %s", addr, uv_strerror(rc));
		s->closing = 1;
		uv_close(&s->listener.handle, ctlserver_listener_closed_cb);
		return NULL;
	}
	if (bound.ss_family == AF_INET6) {
		const struct in6_addr *a6 = &((const struct sockaddr_in6 *)&bound)->sin6_addr;
		s->loopback = IN6_IS_ADDR_LOOPBACK(a6) ||
		    (IN6_IS_ADDR_V4MAPPED(a6) && a6->s6_addr[12] == 127);
		uv_ip6_name((const struct sockaddr_in6 *)&bound, ip, sizeof ip);
		s->port = ntohs(((const struct sockaddr_in6 *)&bound)->sin6_port);
		snprintf(s->address, sizeof s->address, "[%s]:%u", ip, s->port);
	} else {
		s->loopback =
		    (ntohl(((const struct sockaddr_in *)&bound)->sin_addr.s_addr) >> 24) == 127;
		uv_ip4_name((const struct sockaddr_in *)&bound, ip, sizeof ip);
		s->port = ntohs(((const struct sockaddr_in *)&bound)->sin_port);
		snprintf(s->address, sizeof s->address, "%s:%u", ip, s->port);
	}
	return s;
}

void ctlserver_address(const struct ctlserver *s, char *out, size_t cap)
{
	snprintf(out, cap, "%s", s->address);
}

unsigned ctlserver_port(const struct ctlserver *s)
{
	return s->port;
}

int ctlserver_loopback(const struct ctlserver *s)
{
	return s->loopback;
}

void ctlserver_close(struct ctlserver *s)
{
	struct ctlserver_conn *c, *next;

	if (s == NULL || s->closing)
		return;
	s->closing = 1;
	if (s->path != NULL)
		unlink(s->path);
	uv_close(&s->listener.handle, ctlserver_listener_closed_cb);
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
