/* One fetch (struct fetch); what fetches share is the fetcher's
 * (src/net/fetcher.c).
 *
 * A fetch is a small state machine, moved only by fetch_set_state:
 *   INIT -> RESOLVE -> CONNECT -> TLS -> WAIT -> BODY -> DONE
 * (a kept-alive connection skips CONNECT and TLS). Work that must not run
 * inside the caller's frame (every on_done) goes through the fetcher's
 * "soon" list (fetch_run on its idle handle); the fetch's deadlines
 * (connect, TLS, head, idle, whole fetch) are checked by fetch_sweep on the
 * fetcher's one periodic timer rather than a timer per connection.
 *
 * Freeing: a fetch is freed from the tick once it is done and released, so
 * it is never freed under a callback that still uses it. */
#include <build-config.h>

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "lib/proxy.h"
#include "lib/reqheaders.h"
#include "lib/url.h"
#include "net/addrguard.h"
#include "net/conn.h"
#include "net/decode.h"
#include "net/dns.h"
#include "net/fetch.h"
#include "net/fetcher.h"
#include "net/h2.h"
#include "net/http.h"
#include "net/tls.h"
#include "lib/xmalloc.h"

enum fetch_state {
	FETCH_S_INIT,
	FETCH_S_RESOLVE,
	FETCH_S_CONNECT,
	FETCH_S_TUNNEL,
	FETCH_S_TLS,
	FETCH_S_WAIT,
	FETCH_S_BODY,
	FETCH_S_DONE
};

static const char *fetch_state_names[] = {
    "INIT", "RESOLVE", "CONNECT", "TUNNEL", "TLS", "WAIT", "BODY", "DONE"};

struct fetch {
	/* First, so that the fetcher's member is the fetch (fetch_of). */
	struct fetcher_member m;
	struct fetcher *fr;
	const struct fetcher_settings *set;
	uv_loop_t *loop;
	enum fetch_state state;
	struct fetch_cbs cbs;
	void *arg;
	char *url;
	struct http_url u;
	struct sockaddr_storage addr;
	int have_addr;
	int caller_addr; /* the address came in the request */
	int operator_host;
	int64_t max_length;
	struct dns_query *dq;
	struct dns_answer *dns;
	struct conn *conn;
	int reused, retried, tls_resumed;
	struct http *http;
	/* The proxy this fetch goes through (NULL: straight to the origin),
	 * and for https the parser of its answer to CONNECT. */
	const struct fetcher_proxy *px;
	struct http *tunnel;
	struct sockaddr_storage px_addr;
	/* HTTP/2 (src/net/h2.c): the session of the connection, which owns
	 * it (conn_proto); the request as recorded; the head's parse failed. */
	struct h2 *h2;
	struct buf req_h2;
	int h2_used, h2_head_err;
	/* What the WARC's WARC-Protocol and WARC-Cipher-Suite say (static
	 * strings), set when the request is sent. */
	const char *protocol, *tls_version, *tls_cipher;
	struct decode *dec;
	int decoding;
	struct buf req;
	int status;
	enum status_cause cause; /* why a negative status, by name */
	unsigned annotations;
	char *error;
	char ip[INET6_ADDRSTRLEN];
	/* clocks: hrtime ns for durations, loop ms for deadlines */
	uint64_t t_start, t_dns0, t_dns1, t_conn0, t_conn1, t_tls1, t_sent, t_first, t_end;
	uint64_t deadline_total, last_io;
	struct fetch_timings tm;
	uint64_t raw_bytes, dec_bytes;
	int in_cb; /* inside on_head/on_body: defer cancel and release */
	int cancel_req;
	int released;
	int delivering; /* inside on_done */
	int done_called;
};

static void fetch_conn_cb(
    void *arg, struct conn *c, enum conn_event ev, const char *data, size_t len);
static int fetch_http_head_cb(void *arg);
static int fetch_http_body_cb(void *arg, const char *data, size_t len);
static void fetch_connect(struct fetch *f);
static void fetch_finish(struct fetch *f, int status, const char *why);
static void fetch_fail(struct fetch *f, enum status_cause cause, const char *why);
static void fetch_begin(struct fetch *f);
static void fetch_proxy_connect(struct fetch *f);
static void fetch_proxy_auth_line(struct fetch *f, struct buf *head);
static void fetch_h2_send(struct fetch *f);
static void fetch_h2_data(struct fetch *f, const char *data, size_t len);

static const struct http_cbs fetch_http_cbs = {
    .on_head = fetch_http_head_cb,
    .on_body = fetch_http_body_cb,
};

static void fetch_set_state(struct fetch *f, enum fetch_state s)
{
	if (f->set->trace)
		fprintf(stderr, "fetch %p: %s -> %s %s\n", (void *)f, fetch_state_names[f->state],
		    fetch_state_names[s], f->url);
	f->state = s;
}

static const struct fetcher_member_ops fetch_member_ops;

int fetch_start(struct fetcher *fr, const struct fetch_req *req, const struct fetch_cbs *cbs,
    void *arg, struct fetch **out)
{
	struct fetch *f = xcalloc(1, sizeof(*f));
	const char *why = NULL;
	struct url_parts split;

	f->m.ops = &fetch_member_ops;
	f->fr = fr;
	f->set = fetcher_settings(fr);
	f->loop = fetcher_loop(fr);
	f->cbs = *cbs;
	f->arg = arg;
	f->url = xstrdup(req->url);
	f->max_length = req->max_length > 0 ? req->max_length : f->set->max_length;
	f->operator_host = req->operator_host;
	f->t_start = uv_hrtime();
	f->tm.start_wall_ms = clock_wall_ms();
	f->status = 0;
	if (req->addr) {
		size_t n = req->addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
							    : sizeof(struct sockaddr_in);
		memcpy(&f->addr, req->addr, n);
		f->have_addr = 1;
		f->caller_addr = 1;
	}
	fetcher_activate(fr, &f->m);
	if (req->parts == NULL && url_split(f->url, &split) != 0)
		fetch_fail(f, CAUSE_BAD_URL, "not an http or https URL");
	else if (http_url_from(f->url, req->parts != NULL ? req->parts : &split, &f->u, &why) !=
	    0) {
		fetch_fail(f, CAUSE_BAD_URL, why);
	} else {
		char *target = f->u.target;

		f->px = fetcher_proxy_for(fr, f->u.tls, f->u.host);
		/* A proxy is asked for http URIs in absolute form (RFC 9112
		 * 3.2.2); https goes through a tunnel, in origin form. */
		if (f->px != NULL && !f->u.tls)
			f->u.target = xasprintf("http://%s%s", f->u.hostport, target);
		http_request_build(&f->req, &f->u, f->set->user_agent, f->set->accept_encoding,
		    req->if_none_match, req->if_modified_since, req->cookie);
		if (f->u.target != target) {
			free(f->u.target);
			f->u.target = target;
		}
		if (req->headers != NULL)
			reqheaders_insert(&f->req, req->headers, strlen(req->headers));
		/* The I/O starts now (a kept-alive connection gets the request
		 * in this very call); only callbacks are deferred, and
		 * fetch_begin never calls one: its failures go through
		 * fetch_finish, which delivers on_done on a later tick. Waiting
		 * for the idle tick instead cost a loop turn per fetch. */
		fetch_begin(f);
	}
	*out = f;
	return 0;
}

static void fetch_dns_cb(void *arg, const struct dns_answer *a)
{
	struct fetch *f = arg;

	f->dq = NULL;
	f->t_dns1 = uv_hrtime();
	f->dns = xmalloc(sizeof(*f->dns));
	*f->dns = *a;
	f->dns->server = xstrdup(a->server ? a->server : "");
	f->dns->rr_text = xstrdup(a->rr_text ? a->rr_text : "");
	f->dns->error = a->error ? xstrdup(a->error) : NULL;
	if (a->status != 1) {
		char *why = xasprintf(
		    "DNS lookup of %s failed: %s", f->u.host, a->error ? a->error : "no address");
		fetch_fail(f, a->cause != CAUSE_NONE ? a->cause : CAUSE_DNS_FAILED, why);
		free(why);
		return;
	}
	f->addr = a->addrs[0];
	f->have_addr = 1;
	fetch_connect(f);
}

/* Starts a fetch from the tick: resolve, or go straight to connecting. */
static void fetch_begin(struct fetch *f)
{
	struct sockaddr_storage sa;

	if (!f->have_addr && dns_numeric(f->u.host, &sa) == 0) {
		f->addr = sa;
		f->have_addr = 1;
	}
	if (f->have_addr) {
		fetch_connect(f);
		return;
	}
	if (fetcher_dns(f->fr) == NULL) {
		fetch_fail(f, CAUSE_DNS_FAILED, "no resolver");
		return;
	}
	fetch_set_state(f, FETCH_S_RESOLVE);
	f->t_dns0 = uv_hrtime();
	if (dns_resolve(fetcher_dns(f->fr), f->u.host, fetch_dns_cb, f, &f->dq) != 0)
		fetch_fail(f, CAUSE_DNS_FAILED, "host name cannot be looked up");
}

static void fetch_send(struct fetch *f)
{
	int r;

	/* The last moment the caller can take the request back: nothing of
	 * it has left, however long the connection took (or the process was
	 * stopped) since the fetch began. */
	if (f->cbs.may_send != NULL && !f->cbs.may_send(f->arg, f)) {
		fetch_finish(f, -3, "not sent: withdrawn by the caller");
		return;
	}
	f->http = http_new(f->set->max_header, &fetch_http_cbs, f);
	fetch_set_state(f, FETCH_S_WAIT);
	f->t_sent = uv_hrtime();
	f->last_io = uv_now(f->loop);
	f->tls_version = conn_tls_version(f->conn);
	f->tls_cipher = conn_tls_cipher(f->conn);
	if (conn_h2(f->conn)) {
		fetch_h2_send(f);
		return;
	}
	f->protocol = "http/1.1";
	if (f->px != NULL && f->px->auth != NULL && !f->u.tls) {
		/* The proxy's credentials are sent but not kept in f->req,
		 * which the WARC records (doc/warc.md, "Proxies"). */
		struct buf wire = BUF_INIT;
		buf_append(&wire, f->req.data, f->req.len);
		fetch_proxy_auth_line(f, &wire);
		r = conn_write(f->conn, wire.data, wire.len);
		OPENSSL_cleanse(wire.data, wire.len);
		buf_free(&wire);
	} else {
		r = conn_write(f->conn, f->req.data, f->req.len);
	}
	if (r < 0) {
		char *why = xasprintf("sending the request: %s", uv_strerror(r));
		fetch_fail(f, CAUSE_CONNECTION_LOST, why);
		free(why);
	}
}

/* Adds the proxy's Proxy-Authorization line to a request head. */
static void fetch_proxy_auth_line(struct fetch *f, struct buf *head)
{
	struct buf line = BUF_INIT;

	buf_appends(&line, "Proxy-Authorization: ");
	buf_appends(&line, f->px->auth);
	buf_appends(&line, "\r\n");
	reqheaders_insert(head, line.data, line.len);
	OPENSSL_cleanse(line.data, line.len);
	buf_free(&line);
}

/* Opens the connection: to the origin's address, or to the proxy's. */
static void fetch_open(struct fetch *f, const struct sockaddr *sa, void *session)
{
	int r;

	fetch_set_state(f, FETCH_S_CONNECT);
	f->t_conn0 = uv_hrtime();
	f->last_io = uv_now(f->loop);
	/* Through a proxy the connection is plain: TLS starts inside the
	 * tunnel, once the proxy has answered CONNECT. */
	r = conn_connect(f->loop, sa, f->u.tls && f->px == NULL ? fetcher_tls(f->fr) : NULL,
	    f->u.host, session, fetch_conn_cb, f, &f->conn);
	if (r < 0) {
		char *why = f->px != NULL
		    ? xasprintf("proxy %s: connect: %s", f->px->p->hostport, uv_strerror(r))
		    : xasprintf("connect to %s: %s", f->ip, uv_strerror(r));
		if (r == UV_EMFILE || r == UV_ENFILE || r == UV_ENOBUFS || r == UV_ENOMEM ||
		    r == UV_EADDRNOTAVAIL)
			f->annotations |= FETCH_LOCAL;
		fetch_fail(f,
		    f->px != NULL && !(f->annotations & FETCH_LOCAL) ? CAUSE_PROXY_CONNECT
								     : conn_connect_cause(r),
		    why);
		free(why);
	}
}

static void fetch_proxy_dns_cb(void *arg, const struct dns_answer *a)
{
	struct fetch *f = arg;

	f->dq = NULL;
	f->t_dns1 = uv_hrtime();
	if (a->status != 1) {
		char *why = xasprintf("proxy %s: DNS lookup failed: %s", f->px->p->hostport,
		    a->error ? a->error : "no address");
		fetch_fail(f, CAUSE_PROXY_CONNECT, why);
		free(why);
		return;
	}
	f->px_addr = a->addrs[0];
	fetch_proxy_connect(f);
}

/* The proxy's address: a literal at once, a name through the resolver
 * (its cache makes that one lookup for the crawl). Every proxy address is
 * allowed, private or not: the operator named it. */
static void fetch_proxy_connect(struct fetch *f)
{
	const struct proxy *p = f->px->p;

	if (f->px_addr.ss_family == 0 && dns_numeric(p->host, &f->px_addr) != 0) {
		if (fetcher_dns(f->fr) == NULL ||
		    dns_resolve(fetcher_dns(f->fr), p->host, fetch_proxy_dns_cb, f, &f->dq) != 0) {
			char *why = xasprintf("proxy %s: cannot be looked up", p->hostport);
			fetch_fail(f, CAUSE_PROXY_CONNECT, why);
			free(why);
			return;
		}
		fetch_set_state(f, FETCH_S_RESOLVE);
		f->t_dns0 = uv_hrtime();
		return;
	}
	if (f->px_addr.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&f->px_addr)->sin6_port = htons(p->port);
	else
		((struct sockaddr_in *)&f->px_addr)->sin_port = htons(p->port);
	fetch_open(f, (struct sockaddr *)&f->px_addr, NULL);
}

static int fetch_tunnel_head_cb(void *arg)
{
	(void)arg;
	return 1;
}

static const struct http_cbs fetch_tunnel_cbs = {.on_head = fetch_tunnel_head_cb};

/* Asks the proxy for a tunnel to the origin (RFC 9110 9.3.6). */
static void fetch_tunnel(struct fetch *f)
{
	struct buf req = BUF_INIT;
	char authority[300];
	int r;

	fetch_set_state(f, FETCH_S_TUNNEL);
	f->last_io = uv_now(f->loop);
	f->tunnel = http_new(f->set->max_header, &fetch_tunnel_cbs, f);
	/* The authority form always names the port; an IPv6 literal is
	 * bracketed (RFC 9112 3.2.3). */
	if (strchr(f->u.host, ':') != NULL)
		snprintf(authority, sizeof authority, "[%s]:%d", f->u.host, f->u.port);
	else
		snprintf(authority, sizeof authority, "%s:%d", f->u.host, f->u.port);
	buf_appendf(&req, "CONNECT %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: ", authority, authority);
	/* As http_request_build sends it: a control character is a space. */
	for (const char *a = f->set->user_agent; *a != '\0'; a++)
		buf_appendc(&req, (unsigned char)*a < 0x20 || *a == 0x7f ? ' ' : *a);
	buf_appends(&req, "\r\n\r\n");
	if (f->px->auth != NULL)
		fetch_proxy_auth_line(f, &req);
	r = conn_write(f->conn, req.data, req.len);
	OPENSSL_cleanse(req.data, req.len);
	buf_free(&req);
	if (r < 0) {
		char *why =
		    xasprintf("proxy %s: sending CONNECT: %s", f->px->p->hostport, uv_strerror(r));
		fetch_fail(f, CAUSE_PROXY_CONNECT, why);
		free(why);
	}
}

/* The proxy's answer to CONNECT: 2xx opens the tunnel and TLS starts in it,
 * checked against the origin's name; anything else ends the fetch, naming
 * the proxy. */
static void fetch_tunnel_data(struct fetch *f, const char *data, size_t len)
{
	enum http_result r;
	int status;
	char *why;

	f->last_io = uv_now(f->loop);
	r = http_feed(f->tunnel, data, len, NULL);
	if (r == HTTP_MORE)
		return;
	if (r == HTTP_ERROR) {
		why = xasprintf("proxy %s: malformed answer to CONNECT: %s", f->px->p->hostport,
		    http_error(f->tunnel));
		fetch_fail(f, CAUSE_PROXY_REFUSED, why);
		free(why);
		return;
	}
	status = http_status(f->tunnel);
	if (status >= 200 && status < 300) {
		http_free(f->tunnel);
		f->tunnel = NULL;
		fetch_set_state(f, FETCH_S_TLS);
		/* No session is resumed in a tunnel: the site's may be
		 * replaced while the proxy answers (the fetcher owns it). */
		if (conn_start_tls(f->conn, fetcher_tls(f->fr), f->u.host, NULL) < 0)
			fetch_fail(f, CAUSE_TLS_HANDSHAKE, "TLS could not start in the tunnel");
		return;
	}
	/* Only the proxy answers CONNECT: a 401 is its own (tinyproxy
	 * answers wrong credentials so, where RFC 9110 says 407). */
	if (status == 407 || status == 401)
		why = xasprintf("proxy %s answered CONNECT with %d: %s", f->px->p->hostport, status,
		    f->px->auth != NULL ? "its credentials were refused"
					: "it asks for credentials (fetch.credentials-file)");
	else
		why = xasprintf("proxy %s refused CONNECT to %s:%d with %d", f->px->p->hostport,
		    f->u.host, f->u.port, status);
	fetch_fail(f, status == 407 || status == 401 ? CAUSE_PROXY_AUTH : CAUSE_PROXY_REFUSED, why);
	free(why);
}

/* Connects to f->addr, or reuses a kept-alive connection to the site. */
static void fetch_connect(struct fetch *f)
{
	struct fetcher *fr = f->fr;
	struct conn *idle;
	const struct addrguard_range *guard;
	void *session = NULL;

	if (f->addr.ss_family == AF_INET6) {
		((struct sockaddr_in6 *)&f->addr)->sin6_port = htons(f->u.port);
		inet_ntop(
		    AF_INET6, &((struct sockaddr_in6 *)&f->addr)->sin6_addr, f->ip, sizeof(f->ip));
	} else {
		((struct sockaddr_in *)&f->addr)->sin_port = htons(f->u.port);
		inet_ntop(
		    AF_INET, &((struct sockaddr_in *)&f->addr)->sin_addr, f->ip, sizeof(f->ip));
	}
	/* An address given by the caller was vetted there; one we resolved
	 * ourselves is checked here, before connecting to that very address. */
	if (!f->caller_addr && !f->set->allow_private && !f->operator_host &&
	    (guard = addrguard_sockaddr((const struct sockaddr *)&f->addr)) != NULL) {
		char *why = xasprintf("%s resolves to %s, in %s (%s), which is refused "
				      "(fetch.allow-private-addresses is false)",
		    f->u.host, f->ip, guard->block, guard->name);
		fetch_fail(f, CAUSE_PRIVATE_ADDRESS, why);
		free(why);
		return;
	}
	f->deadline_total = uv_now(f->loop) + f->set->total_ms;
	idle = f->retried ? NULL : fetcher_reuse(fr, f->u.tls, f->u.host, f->u.port, &session);
	if (idle != NULL) {
		f->conn = idle;
		f->reused = 1;
		f->t_conn0 = f->t_conn1 = f->t_tls1 = uv_hrtime();
		conn_set_cb(f->conn, fetch_conn_cb, f);
		fetch_send(f);
		return;
	}
	if (f->px != NULL) {
		fetch_proxy_connect(f);
		return;
	}
	fetch_open(f, (struct sockaddr *)&f->addr, session);
}

/* A kept-alive connection failed before any byte of the response: the
 * server closed it as we reused it (RFC 9112 9.3.1). GET is safe to
 * repeat, once, on a new connection. */
static int fetch_retry_fresh(struct fetch *f)
{
	if (!f->reused || f->retried || (f->http && http_started(f->http)))
		return 0;
	conn_close(f->conn);
	f->conn = NULL;
	f->h2 = NULL;
	http_free(f->http);
	f->http = NULL;
	f->reused = 0;
	f->retried = 1;
	fetch_connect(f);
	return 1;
}

/* Called by the response parser when the final head is complete. */
static int fetch_http_head_cb(void *arg)
{
	struct fetch *f = arg;
	struct decode_codings cs;

	f->status = http_status(f->http);
	if (f->px != NULL && !f->u.tls && f->status == 407) {
		/* The proxy's answer, not the origin's: a failure to reach it. */
		char *why = xasprintf("proxy %s answered 407: %s", f->px->p->hostport,
		    f->px->auth != NULL ? "its credentials were refused"
					: "it asks for credentials (fetch.credentials-file)");
		fetch_fail(f, CAUSE_PROXY_AUTH, why);
		free(why);
		return 1;
	}
	fetch_set_state(f, FETCH_S_BODY);
	if (decode_codings_parse(http_header(f->http, "Content-Encoding"), &cs) != 0) {
		f->annotations |= FETCH_DECUNSUP;
	} else {
		f->dec = decode_new_stack(&cs, DECODE_MAX_OUT, DECODE_MAX_RATIO);
		f->decoding = 1;
	}
	if (f->cbs.on_head) {
		f->in_cb = 1;
		f->cbs.on_head(f->arg, f);
		f->in_cb = 0;
	}
	return f->cancel_req;
}

struct fetch_deliver {
	struct fetch *f;
	const char *raw;
	size_t rawlen;
};

/* Decoded output: pairs the first piece with the raw bytes it came from. */
static int fetch_decoded_cb(void *arg, const char *data, size_t len)
{
	struct fetch_deliver *d = arg;
	struct fetch *f = d->f;

	f->dec_bytes += len;
	if (f->cbs.on_body) {
		f->in_cb = 1;
		f->cbs.on_body(f->arg, f, d->raw, d->rawlen, data, len);
		f->in_cb = 0;
	}
	d->raw = NULL;
	d->rawlen = 0;
	return f->cancel_req;
}

/* Entity bytes from the parser: length cap, decoding, delivery. */
static int fetch_http_body_cb(void *arg, const char *data, size_t len)
{
	struct fetch *f = arg;
	struct fetch_deliver d = {f, data, len};
	int stop = 0;

	if (f->max_length > 0 && f->raw_bytes + len >= (uint64_t)f->max_length) {
		/* Reaching the cap exactly is not a truncation unless more
		 * follows; the parser tells us by calling again. */
		if (f->raw_bytes >= (uint64_t)f->max_length) {
			f->annotations |= FETCH_LENTRUNC;
			return 1;
		}
		if (f->raw_bytes + len > (uint64_t)f->max_length) {
			len = f->max_length - f->raw_bytes;
			d.rawlen = len;
			f->annotations |= FETCH_LENTRUNC;
			stop = 1;
		}
	}
	f->raw_bytes += len;
	if (f->decoding) {
		enum decode_result r = decode_feed(f->dec, data, len, fetch_decoded_cb, &d);
		if (f->cancel_req)
			return 1;
		if (r == DECODE_CAPPED) {
			f->annotations |= FETCH_DECTRUNC;
			f->decoding = 0;
		} else if (r == DECODE_FAILED) {
			f->annotations |= FETCH_DECERR;
			f->decoding = 0;
		}
	}
	if (d.raw && f->cbs.on_body) {
		f->in_cb = 1;
		f->cbs.on_body(f->arg, f, d.raw, d.rawlen, NULL, 0);
		f->in_cb = 0;
	}
	return stop || f->cancel_req;
}

/* The body ended (whole or cut): the decoder delivers what it still holds
 * (a gzip body held whole comes out here) and says whether the stream was
 * complete. */
static void fetch_decode_end(struct fetch *f)
{
	struct fetch_deliver d = {f, NULL, 0};
	enum decode_result r;

	if (!f->decoding)
		return;
	f->decoding = 0;
	r = decode_finish(f->dec, fetch_decoded_cb, &d);
	if (r == DECODE_CAPPED)
		f->annotations |= FETCH_DECTRUNC;
	else if (r == DECODE_FAILED)
		f->annotations |= FETCH_DECERR;
}

/* The response is complete: keep the connection if it may be reused. */
static void fetch_complete(struct fetch *f, int reusable)
{
	struct conn *c = f->conn;

	fetch_decode_end(f);
	if (f->cancel_req) {
		fetch_fail(f, CAUSE_CANCELLED, "cancelled");
		return;
	}
	if (conn_is_tls(c)) {
		void *sess = conn_tls_session(c);
		if (sess != NULL)
			fetcher_session_put(f->fr, f->u.host, f->u.port, sess);
	}
	f->conn = NULL;
	f->h2 = NULL;
	if (reusable)
		fetcher_keep(f->fr, f->u.tls, f->u.host, f->u.port, c);
	else
		conn_close(c);
	fetch_finish(f, f->status, NULL);
}

static void fetch_data(struct fetch *f, const char *data, size_t len)
{
	size_t used;
	enum http_result r;

	if (f->state != FETCH_S_WAIT && f->state != FETCH_S_BODY)
		return;
	f->last_io = uv_now(f->loop);
	if (f->t_first == 0)
		f->t_first = uv_hrtime();
	if (f->h2 != NULL) {
		fetch_h2_data(f, data, len);
		return;
	}
	r = http_feed(f->http, data, len, &used);
	if (f->state == FETCH_S_DONE)
		return;
	if (f->cancel_req) {
		fetch_fail(f, CAUSE_CANCELLED, "cancelled");
		return;
	}
	switch (r) {
	case HTTP_MORE:
		break;
	case HTTP_DONE:
		/* Bytes past the response were not asked for: never parse
		 * them as the next response; drop the connection. */
		fetch_complete(f, http_keep_alive(f->http) && used == len);
		break;
	case HTTP_STOPPED:
		/* The length cap: keep the status, drop the connection. */
		fetch_complete(f, 0);
		break;
	case HTTP_ERROR: {
		char *why = xasprintf("%s: %s",
		    http_head_done(f->http) ? "broken response body" : "malformed response head",
		    http_error(f->http));
		fetch_fail(f,
		    http_too_large(f->http)	  ? CAUSE_HEADER_TOO_LARGE
			: http_head_done(f->http) ? CAUSE_CONNECTION_LOST
						  : CAUSE_BAD_RESPONSE,
		    why);
		free(why);
		break;
	}
	}
}

static void fetch_eof(struct fetch *f)
{
	if (f->state != FETCH_S_WAIT && f->state != FETCH_S_BODY) {
		fetch_fail(f, CAUSE_TLS_HANDSHAKE, "connection closed during the TLS handshake");
		return;
	}
	if (fetch_retry_fresh(f))
		return;
	if (f->h2 != NULL) {
		fetch_fail(f, CAUSE_CONNECTION_LOST,
		    "connection lost: closed before the end of the HTTP/2 stream");
		return;
	}
	if (http_eof(f->http) == HTTP_DONE) {
		fetch_complete(f, 0);
		return;
	}
	{
		char *why = xasprintf("connection lost: %s", http_error(f->http));
		fetch_fail(f, CAUSE_CONNECTION_LOST, why);
		free(why);
	}
}

/* HTTP/2: the response head, written as HTTP/1.1 by h2.c, goes through
 * the HTTP/1.1 parser (its caps, its index of headers, the head the WARC
 * keeps), which calls fetch_http_head_cb; DATA goes to the body as the
 * parser's body would. */
static int fetch_h2_head_cb(void *arg, const char *head, size_t len)
{
	struct fetch *f = arg;
	enum http_result r = http_feed(f->http, head, len, NULL);

	if (r == HTTP_ERROR) {
		f->h2_head_err = 1;
		return 1;
	}
	return r == HTTP_STOPPED || f->cancel_req;
}

static int fetch_h2_body_cb(void *arg, const char *data, size_t len)
{
	return fetch_http_body_cb(arg, data, len);
}

static const struct h2_cbs fetch_h2_cbs = {
    .on_head = fetch_h2_head_cb,
    .on_body = fetch_h2_body_cb,
};

static void fetch_h2_free(void *h)
{
	h2_free(h);
}

/* Sends what the session has queued (the preface, the request, window
 * updates, acknowledgments) in one write, so one TLS record and one
 * syscall: nghttp2 hands it out a frame at a time, five frames when a
 * connection opens. 0 or a failed fetch. */
static int fetch_h2_flush(struct fetch *f)
{
	/* Shared by every fetch: filled and sent within one call. */
	static struct buf out;
	const char *p;
	size_t n;
	int r;

	if (f->h2 == NULL || (n = h2_out(f->h2, &p)) == 0)
		return 0;
	buf_reset(&out);
	do
		buf_append(&out, p, n);
	while ((n = h2_out(f->h2, &p)) > 0);
	r = conn_write(f->conn, out.data, out.len);
	buf_reset_keep(&out, 65536);
	if (r < 0) {
		char *why = xasprintf("sending on the HTTP/2 connection: %s", uv_strerror(r));
		fetch_fail(f, CAUSE_CONNECTION_LOST, why);
		free(why);
		return -1;
	}
	return 0;
}

/* The request on a connection where ALPN chose h2: the connection's
 * session (made on its first request, kept with it), one stream. */
static void fetch_h2_send(struct fetch *f)
{
	struct h2 *h = conn_proto(f->conn);

	if (h == NULL) {
		h = h2_new(f->set->max_header);
		conn_set_proto(f->conn, h, fetch_h2_free);
	}
	f->h2 = h;
	f->h2_used = 1;
	f->protocol = "h2";
	if (h2_request(h, f->req.data, f->req.len, &fetch_h2_cbs, f, &f->req_h2) != 0) {
		if (!fetch_retry_fresh(f))
			fetch_fail(f, CAUSE_H2_PROTOCOL, "no new HTTP/2 stream can be opened");
		return;
	}
	fetch_h2_flush(f);
}

static void fetch_h2_data(struct fetch *f, const char *data, size_t len)
{
	enum h2_result r = h2_feed(f->h2, data, len);

	if (r != H2_ERROR && fetch_h2_flush(f) < 0)
		return;
	if (r == H2_MORE && h2_failed(f->h2))
		r = H2_ERROR;
	if (f->cancel_req) {
		fetch_fail(f, CAUSE_CANCELLED, "cancelled");
		return;
	}
	switch (r) {
	case H2_MORE:
		break;
	case H2_DONE:
		if (!http_head_done(f->http)) {
			fetch_fail(f, CAUSE_BAD_RESPONSE, "HTTP/2 stream ended without a response");
			break;
		}
		fetch_complete(f, h2_reusable(f->h2));
		break;
	case H2_STOPPED:
		if (f->h2_head_err) {
			char *why = xasprintf("malformed response head: %s", http_error(f->http));
			fetch_fail(f,
			    http_too_large(f->http) ? CAUSE_HEADER_TOO_LARGE : CAUSE_BAD_RESPONSE,
			    why);
			free(why);
			break;
		}
		/* The length cap: keep the status, drop the connection. */
		fetch_complete(f, 0);
		break;
	case H2_ERROR:
		/* A stream the server refused (GOAWAY) on a kept-alive
		 * connection was never processed: tried once on a new one. */
		if (h2_cause(f->h2) == CAUSE_H2_GOAWAY && fetch_retry_fresh(f))
			break;
		fetch_fail(f, h2_cause(f->h2), h2_error(f->h2));
		break;
	}
}

static void fetch_conn_cb(
    void *arg, struct conn *c, enum conn_event ev, const char *data, size_t len)
{
	struct fetch *f = arg;

	switch (ev) {
	case CONN_CONNECTED:
		f->t_conn1 = uv_hrtime();
		if (f->px != NULL && f->u.tls) {
			fetch_tunnel(f);
		} else if (conn_is_tls(c)) {
			fetch_set_state(f, FETCH_S_TLS);
			f->last_io = uv_now(f->loop);
		} else {
			f->t_tls1 = f->t_conn1;
			fetch_send(f);
		}
		break;
	case CONN_TLS_READY:
		f->t_tls1 = uv_hrtime();
		f->tls_resumed = conn_tls_resumed(c);
		fetch_send(f);
		break;
	case CONN_DATA:
		if (f->state == FETCH_S_TUNNEL)
			fetch_tunnel_data(f, data, len);
		else
			fetch_data(f, data, len);
		break;
	case CONN_CLOSED:
		if (f->state == FETCH_S_TUNNEL) {
			char *why = xasprintf(
			    "proxy %s closed the connection during CONNECT", f->px->p->hostport);
			fetch_fail(f, CAUSE_PROXY_REFUSED, why);
			free(why);
			break;
		}
		fetch_eof(f);
		break;
	case CONN_ERROR:
		if (f->px != NULL && (f->state == FETCH_S_CONNECT || f->state == FETCH_S_TUNNEL)) {
			char *why = xasprintf("proxy %s: %s", f->px->p->hostport, conn_error(c));
			fetch_fail(f, CAUSE_PROXY_CONNECT, why);
			free(why);
		} else if (f->state == FETCH_S_CONNECT || f->state == FETCH_S_TLS) {
			fetch_fail(f, conn_cause(c), conn_error(c));
		} else if (!fetch_retry_fresh(f)) {
			char *why = xasprintf("connection lost: %s", conn_error(c));
			fetch_fail(f, CAUSE_CONNECTION_LOST, why);
			free(why);
		}
		break;
	}
}

/* Ends the fetch with the code of cause (every failure goes through here,
 * so that its status and its cause never disagree). */
static void fetch_fail(struct fetch *f, enum status_cause cause, const char *why)
{
	int status = status_cause_code(cause);

	/* Only causes with a Heritrix code end a fetch that failed. */
	assert(status < 0);
	if (f->state == FETCH_S_DONE)
		return;
	f->cause = cause;
	fetch_finish(f, status, why);
}

/* Ends the fetch with status (an HTTP code keeps its value) and queues
 * on_done for the tick. A fetch may be ended twice (a cancel racing its
 * end): the first end stands. */
static void fetch_finish(struct fetch *f, int status, const char *why)
{
	uint64_t now = uv_hrtime();

	if (f->state == FETCH_S_DONE)
		return;
	assert(status != 0);
	fetch_set_state(f, FETCH_S_DONE);
	f->status = status;
	if (why && f->error == NULL)
		f->error = xstrdup(why);
	if (f->dq) {
		dns_cancel(f->dq);
		f->dq = NULL;
	}
	if (f->conn) {
		conn_close(f->conn);
		f->conn = NULL;
	}
	f->h2 = NULL;
	decode_free(f->dec);
	f->dec = NULL;
	f->decoding = 0;
	f->t_end = now;
	if (f->t_dns1)
		f->tm.dns_us = (f->t_dns1 - f->t_dns0) / 1000;
	if (f->t_conn1 && !f->reused)
		f->tm.connect_us = (f->t_conn1 - f->t_conn0) / 1000;
	if (f->t_tls1 && f->u.tls && !f->reused)
		f->tm.tls_us = (f->t_tls1 - f->t_conn1) / 1000;
	if (f->t_first)
		f->tm.first_byte_us = (f->t_first - f->t_sent) / 1000;
	f->tm.total_us = (now - f->t_start) / 1000;
	fetcher_deactivate(f->fr, &f->m);
	fetcher_soon(f->fr, &f->m);
}

static void fetch_free(struct fetch *f)
{
	http_free(f->http);
	http_free(f->tunnel);
	http_url_clear(&f->u);
	buf_free(&f->req);
	buf_free(&f->req_h2);
	if (f->dns) {
		free((char *)f->dns->server);
		free((char *)f->dns->rr_text);
		free((char *)f->dns->error);
		free(f->dns);
	}
	free(f->error);
	free(f->url);
	free(f);
}

static struct fetch *fetch_of(struct fetcher_member *m)
{
	return (struct fetch *)m;
}

/* Its turn on the fetcher's idle handle: on_done, once, then freeing once
 * released. */
static void fetch_run(struct fetcher_member *m)
{
	struct fetch *f = fetch_of(m);

	if (f->state == FETCH_S_INIT && !f->released) {
		fetch_begin(f);
		return;
	}
	if (f->state != FETCH_S_DONE)
		return;
	if (!f->done_called && !f->released) {
		f->done_called = 1;
		f->delivering = 1;
		if (f->cbs.on_done)
			f->cbs.on_done(f->arg, f);
		f->delivering = 0;
	}
	if (f->released)
		fetch_free(f);
}

/* The deadlines: connect and TLS (STATUS_CONNECT_FAILED), the response
 * head (STATUS_TIMEOUT), the body (the status is kept, annotated
 * timeTrunc). */
static void fetch_sweep(struct fetcher_member *m, uint64_t now)
{
	struct fetch *f = fetch_of(m);

	switch (f->state) {
	case FETCH_S_CONNECT:
		if (now - f->last_io >= f->set->connect_ms)
			fetch_fail(f, CAUSE_CONNECT_TIMEOUT,
			    "connect timed out (fetch.connect-timeout-ms)");
		break;
	case FETCH_S_TUNNEL:
		if (now - f->last_io >= f->set->connect_ms) {
			char *why = xasprintf("proxy %s did not answer CONNECT in time "
					      "(fetch.connect-timeout-ms)",
			    f->px->p->hostport);
			fetch_fail(f, CAUSE_PROXY_CONNECT, why);
			free(why);
		}
		break;
	case FETCH_S_TLS:
		if (now - f->last_io >= f->set->connect_ms)
			fetch_fail(f, CAUSE_TLS_TIMEOUT,
			    "TLS handshake timed out (fetch.connect-timeout-ms)");
		break;
	case FETCH_S_WAIT:
		if (now - f->last_io >= f->set->idle_ms)
			fetch_fail(f, CAUSE_HEAD_TIMEOUT,
			    "no response head within fetch.idle-timeout-seconds");
		else if (now >= f->deadline_total)
			fetch_fail(
			    f, CAUSE_HEAD_TIMEOUT, "no response head within fetch.timeout-seconds");
		break;
	case FETCH_S_BODY:
		if (now - f->last_io >= f->set->idle_ms || now >= f->deadline_total) {
			f->annotations |= FETCH_TIMETRUNC;
			fetch_decode_end(f);
			fetch_finish(f, f->status,
			    now >= f->deadline_total
				? "body cut at fetch.timeout-seconds"
				: "body cut: no data within fetch.idle-timeout-seconds");
		}
		break;
	default:
		break;
	}
}

/* The fetcher is closing: the fetch ends, and nobody is called. */
static void fetch_shutdown(struct fetcher_member *m)
{
	struct fetch *f = fetch_of(m);

	f->released = 1;
	fetch_fail(f, CAUSE_CANCELLED, "engine shut down");
}

static void fetch_destroy(struct fetcher_member *m)
{
	fetch_free(fetch_of(m));
}

static const struct fetcher_member_ops fetch_member_ops = {
    fetch_run,
    fetch_sweep,
    fetch_shutdown,
    fetch_destroy,
};

void fetch_cancel(struct fetch *f)
{
	if (f == NULL || f->state == FETCH_S_DONE)
		return;
	if (f->in_cb) {
		f->cancel_req = 1;
		return;
	}
	fetch_fail(f, CAUSE_CANCELLED, "cancelled");
}

void fetch_release(struct fetch *f)
{
	if (f == NULL)
		return;
	f->released = 1;
	/* Inside on_done the tick frees f when the callback returns. */
	if (f->delivering)
		return;
	if (f->state != FETCH_S_DONE)
		fetch_cancel(f);
	fetcher_soon(f->fr, &f->m);
}

int fetch_status(const struct fetch *f)
{
	return f->status;
}

enum status_cause fetch_cause(const struct fetch *f)
{
	return f->status < 0 ? f->cause : status_cause_of(f->status);
}

unsigned fetch_annotations(const struct fetch *f)
{
	return f->annotations;
}

const char *fetch_header(const struct fetch *f, const char *name)
{
	return f->http && http_head_done(f->http) ? http_header(f->http, name) : NULL;
}

int fetch_header_at(const struct fetch *f, size_t i, const char **name, const char **value)
{
	return f->http && http_head_done(f->http) ? http_header_at(f->http, i, name, value) : 0;
}

const char *fetch_request_head(const struct fetch *f, size_t *len)
{
	if (f->h2_used) {
		*len = f->req_h2.len;
		return f->req_h2.data;
	}
	*len = f->req.len;
	return f->req.data ? f->req.data : "";
}

const char *fetch_response_head(const struct fetch *f, size_t *len)
{
	if (f->http == NULL || !http_head_done(f->http)) {
		*len = 0;
		return "";
	}
	return http_head(f->http, len);
}

const char *fetch_ip(const struct fetch *f)
{
	return f->ip;
}

const char *fetch_url(const struct fetch *f)
{
	return f->url;
}

const struct fetch_timings *fetch_timings(const struct fetch *f)
{
	return &f->tm;
}

uint64_t fetch_duration_ms(const struct fetch *f)
{
	uint64_t from = f->reused ? f->t_sent : f->t_conn0;

	if (from == 0 || f->t_end < from)
		return 0;
	return (f->t_end - from) / 1000000;
}

uint64_t fetch_raw_bytes(const struct fetch *f)
{
	return f->raw_bytes;
}

uint64_t fetch_decoded_bytes(const struct fetch *f)
{
	return f->dec_bytes;
}

const char *fetch_error(const struct fetch *f)
{
	return f->error;
}

const struct dns_answer *fetch_dns_answer(const struct fetch *f)
{
	return f->dns;
}

int fetch_reused(const struct fetch *f)
{
	return f->reused;
}

const char *fetch_proxy(const struct fetch *f)
{
	return f->px != NULL ? f->px->p->hostport : NULL;
}

int fetch_tls_resumed(const struct fetch *f)
{
	return f->tls_resumed;
}

const char *fetch_protocol(const struct fetch *f)
{
	return f->protocol;
}

const char *fetch_tls_version(const struct fetch *f)
{
	return f->tls_version;
}

const char *fetch_tls_cipher(const struct fetch *f)
{
	return f->tls_cipher;
}

size_t fetch_sizeof(void)
{
	return sizeof(struct fetch);
}
