/* The fetch engine (struct fetcher) and one fetch (struct fetch).
 *
 * A fetch is a small state machine, moved only by fetch_set_state:
 *   INIT -> RESOLVE -> CONNECT -> TLS -> WAIT -> BODY -> DONE
 * (a kept-alive connection skips CONNECT and TLS). Work that must not run
 * inside the caller's frame (starting, and every on_done) goes through the
 * fetcher's "soon" list, drained by one idle handle; every deadline
 * (connect, TLS, head, idle, whole fetch, idle keep-alive connections) is
 * checked by one periodic sweep timer rather than a timer per connection.
 *
 * Freeing: a fetch is freed from the tick once it is done and released, so
 * it is never freed under a callback that still uses it. */
#include <build-config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "net/conn.h"
#include "net/decode.h"
#include "net/dns.h"
#include "net/fetch.h"
#include "net/http.h"
#include "net/tls.h"
#include "lib/xmalloc.h"

/* Deadlines are checked this often. */
#define FETCH_SWEEP_MS 50
/* Kept-alive connections are closed after this long unused. */
#define FETCH_IDLE_KEEP_MS 30000
#define FETCH_IDLE_PER_SITE 4
#define FETCH_IDLE_MAX 4096
/* TLS sessions remembered (one per site). */
#define FETCH_MAX_SESSIONS 20000
/* Fetches started or completed per loop wakeup. */
#define FETCH_TICK_BUDGET 512

enum fetch_state {
	FETCH_S_INIT, FETCH_S_RESOLVE, FETCH_S_CONNECT, FETCH_S_TLS,
	FETCH_S_WAIT, FETCH_S_BODY, FETCH_S_DONE
};

static const char *fetch_state_names[] = {
	"INIT", "RESOLVE", "CONNECT", "TLS", "WAIT", "BODY", "DONE"
};

struct fetch_site;

/* A kept-alive connection waiting for its next request. */
struct fetch_idle {
	struct fetcher *fr;
	struct conn *conn;
	struct fetch_site *site;
	uint64_t expires;
	struct fetch_idle *next, *prev;		/* in the site */
	struct fetch_idle *gnext, *gprev;	/* in the fetcher */
};

/* What fetches to one scheme+host+port share. */
struct fetch_site {
	char *key;
	struct fetch_site *hnext;
	struct fetch_idle *idle;
	int nidle;
	void *session;		/* TLS session to resume */
};

struct fetcher {
	uv_loop_t *loop;
	const struct config *cfg;
	struct dns *dns;
	struct tls_ctx *tls;
	char *tls_err;
	uv_timer_t sweep;
	uv_idle_t tick;
	int handles;
	int closing;
	int trace;
	struct fetch *active;		/* fetches not yet done */
	struct fetch *soon, *soon_tail;
	struct fetch_idle *idle;	/* all idle connections */
	size_t nidle;
	struct fetch_site **sites;
	size_t nbuckets, nsites, nsessions;
	/* configuration, read once */
	uint64_t connect_ms, total_ms, idle_ms;
	int64_t max_length;
	size_t max_header;
	int gzip, allow_private;
	char *user_agent;
};

struct fetch {
	struct fetcher *fr;
	enum fetch_state state;
	struct fetch_cbs cbs;
	void *arg;
	char *url;
	struct http_url u;
	struct sockaddr_storage addr;
	int have_addr;
	int caller_addr;	/* the address came in the request */
	int operator_literal;
	int64_t max_length;
	struct dns_query *dq;
	struct dns_answer *dns;
	struct conn *conn;
	int reused, retried, tls_resumed;
	struct http *http;
	struct decode *dec;
	int decoding;
	struct buf req;
	int status;
	unsigned annotations;
	char *error;
	char ip[INET6_ADDRSTRLEN];
	/* clocks: hrtime ns for durations, loop ms for deadlines */
	uint64_t t_start, t_dns0, t_dns1, t_conn0, t_conn1, t_tls1, t_sent, t_first, t_end;
	uint64_t deadline_total, last_io;
	struct fetch_timings tm;
	uint64_t raw_bytes, dec_bytes;
	int in_cb;		/* inside on_head/on_body: defer cancel and release */
	int cancel_req;
	int released;
	int delivering;		/* inside on_done */
	int done_called;
	int in_soon;
	struct fetch *anext, *aprev;
	struct fetch *snext;
};

static void fetch_tick_cb(uv_idle_t *h);
static void fetch_sweep_cb(uv_timer_t *t);
static void fetch_conn_cb(void *arg, struct conn *c, enum conn_event ev, const char *data, size_t len);
static void fetch_idle_conn_cb(void *arg, struct conn *c, enum conn_event ev, const char *data, size_t len);
static int fetch_http_head_cb(void *arg);
static int fetch_http_body_cb(void *arg, const char *data, size_t len);
static void fetch_connect(struct fetch *f);
static void fetch_finish(struct fetch *f, int status, const char *why);
static void fetch_begin(struct fetch *f);

static const struct http_cbs fetch_http_cbs = {
	.on_head = fetch_http_head_cb,
	.on_body = fetch_http_body_cb,
};

static void
fetch_set_state(struct fetch *f, enum fetch_state s)
{
	if (f->fr->trace)
		fprintf(stderr, "fetch %p: %s -> %s %s\n", (void *)f,
		    fetch_state_names[f->state], fetch_state_names[s], f->url);
	f->state = s;
}

static uint32_t
fetch_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The site of scheme+host+port, created if create. */
static struct fetch_site *
fetch_site_get(struct fetcher *fr, int tls, const char *host, int port, int create)
{
	char key[300];
	struct fetch_site *s, **bucket;
	size_t hl = strlen(host), klen;

	/* Every site's host came through http_url_parse (at most 253 bytes):
	 * a longer name has no site. */
	if (hl > sizeof(key) - 16)
		return NULL;
	/* Built by hand rather than with snprintf: this runs for every fetch. */
	key[0] = tls ? 's' : 'p';
	memcpy(key + 1, host, hl);
	key[hl + 1] = ':';
	klen = hl + 2 + buf_digits(key + hl + 2, port < 0 ? 0 : (uint64_t)port);
	key[klen] = '\0';
	bucket = &fr->sites[fetch_hash(key) & (fr->nbuckets - 1)];
	for (s = *bucket; s; s = s->hnext)
		if (strcmp(s->key, key) == 0)
			return s;
	if (!create)
		return NULL;
	if (fr->nsites >= fr->nbuckets * 2) {
		size_t nb = fr->nbuckets * 2;
		struct fetch_site **t = xcalloc(nb, sizeof(*t));
		for (size_t i = 0; i < fr->nbuckets; i++)
			for (struct fetch_site *x = fr->sites[i], *n; x; x = n) {
				n = x->hnext;
				x->hnext = t[fetch_hash(x->key) & (nb - 1)];
				t[fetch_hash(x->key) & (nb - 1)] = x;
			}
		free(fr->sites);
		fr->sites = t;
		fr->nbuckets = nb;
		bucket = &fr->sites[fetch_hash(key) & (fr->nbuckets - 1)];
	}
	s = xcalloc(1, sizeof(*s));
	s->key = xstrdup(key);
	s->hnext = *bucket;
	*bucket = s;
	fr->nsites++;
	return s;
}

/* Forgets a site that holds nothing any more. */
static void
fetch_site_gc(struct fetcher *fr, struct fetch_site *s)
{
	struct fetch_site **pp;

	if (s->idle || s->session)
		return;
	for (pp = &fr->sites[fetch_hash(s->key) & (fr->nbuckets - 1)]; *pp != s; pp = &(*pp)->hnext)
		;
	*pp = s->hnext;
	fr->nsites--;
	free(s->key);
	free(s);
}

/* Takes an idle connection off the pool; returns its conn (not closed). */
static struct conn *
fetch_idle_take(struct fetcher *fr, struct fetch_idle *i)
{
	struct fetch_site *s = i->site;
	struct conn *c = i->conn;

	if (i->prev)
		i->prev->next = i->next;
	else
		s->idle = i->next;
	if (i->next)
		i->next->prev = i->prev;
	if (i->gprev)
		i->gprev->gnext = i->gnext;
	else
		fr->idle = i->gnext;
	if (i->gnext)
		i->gnext->gprev = i->gprev;
	s->nidle--;
	fr->nidle--;
	free(i);
	fetch_site_gc(fr, s);
	return c;
}

static void
fetch_idle_conn_cb(void *arg, struct conn *c, enum conn_event ev, const char *data, size_t len)
{
	struct fetch_idle *i = arg;

	/* Anything from an idle connection (close, error, bytes nobody
	 * asked for) ends it. */
	if (ev == CONN_DRAINED)
		return;
	conn_close(fetch_idle_take(i->fr, i));
}

/* Puts a connection whose response ended cleanly back for reuse. */
static void
fetch_idle_put(struct fetcher *fr, struct fetch *f, struct conn *c)
{
	struct fetch_site *s;
	struct fetch_idle *i;
	uint64_t keep = FETCH_IDLE_KEEP_MS < fr->idle_ms ? FETCH_IDLE_KEEP_MS : fr->idle_ms;

	s = fetch_site_get(fr, f->u.tls, f->u.host, f->u.port, 1);
	if (fr->closing || s->nidle >= FETCH_IDLE_PER_SITE || fr->nidle >= FETCH_IDLE_MAX) {
		conn_close(c);
		fetch_site_gc(fr, s);
		return;
	}
	i = xcalloc(1, sizeof(*i));
	i->fr = fr;
	i->conn = c;
	i->site = s;
	i->expires = uv_now(fr->loop) + keep;
	i->next = s->idle;
	if (s->idle)
		s->idle->prev = i;
	s->idle = i;
	i->gnext = fr->idle;
	if (fr->idle)
		fr->idle->gprev = i;
	fr->idle = i;
	s->nidle++;
	fr->nidle++;
	conn_set_cb(c, fetch_idle_conn_cb, i);
	if (!uv_is_active((uv_handle_t *)&fr->sweep))
		uv_timer_start(&fr->sweep, fetch_sweep_cb, FETCH_SWEEP_MS, FETCH_SWEEP_MS);
}

/* Remembers the TLS session of a finished connection for the next one. */
static void
fetch_session_put(struct fetcher *fr, struct fetch *f)
{
	struct fetch_site *s;
	void *sess = conn_tls_session(f->conn);

	if (sess == NULL)
		return;
	s = fetch_site_get(fr, 1, f->u.host, f->u.port, fr->nsessions < FETCH_MAX_SESSIONS);
	if (s == NULL) {
		tls_session_free(sess);
		return;
	}
	if (s->session)
		tls_session_free(s->session);
	else
		fr->nsessions++;
	s->session = sess;
}

struct fetcher *
fetcher_new(uv_loop_t *loop, const struct config *cfg, struct dns *dns, char **err)
{
	struct fetcher *fr = xcalloc(1, sizeof(*fr));

	fr->loop = loop;
	fr->cfg = cfg;
	fr->dns = dns;
	fr->connect_ms = config_int(cfg, CK_FETCH_CONNECT_TIMEOUT_MS);
	fr->total_ms = config_int(cfg, CK_FETCH_TIMEOUT_SECONDS) * 1000;
	fr->idle_ms = config_int(cfg, CK_FETCH_IDLE_TIMEOUT_SECONDS) * 1000;
	fr->max_length = config_int(cfg, CK_FETCH_MAX_LENGTH_BYTES);
	fr->max_header = config_int(cfg, CK_FETCH_MAX_HEADER_BYTES);
	fr->gzip = strcmp(config_str(cfg, CK_FETCH_ACCEPT_ENCODING), "gzip") == 0;
	fr->allow_private = config_bool(cfg, CK_FETCH_ALLOW_PRIVATE_ADDRESSES);
	fr->user_agent = xstrdup(config_str(cfg, CK_CRAWL_USER_AGENT));
	fr->trace = getenv("TERN_TRACE_FETCH") != NULL;
	fr->tls = tls_ctx_new(config_bool(cfg, CK_FETCH_TLS_VERIFY),
	    config_str(cfg, CK_FETCH_CA_FILE), err);
	if (fr->tls == NULL) {
		char *e = *err;
		*err = xasprintf("fetch.ca-file: %s", e);
		free(e);
		free(fr->user_agent);
		free(fr);
		return NULL;
	}
	fr->nbuckets = 256;
	fr->sites = xcalloc(fr->nbuckets, sizeof(*fr->sites));
	uv_timer_init(loop, &fr->sweep);
	fr->sweep.data = fr;
	uv_idle_init(loop, &fr->tick);
	fr->tick.data = fr;
	fr->handles = 2;
	return fr;
}

static void
fetch_soon(struct fetch *f)
{
	struct fetcher *fr = f->fr;

	if (f->in_soon)
		return;
	f->in_soon = 1;
	f->snext = NULL;
	if (fr->soon_tail)
		fr->soon_tail->snext = f;
	else
		fr->soon = f;
	fr->soon_tail = f;
	if (!fr->closing)
		uv_idle_start(&fr->tick, fetch_tick_cb);
}

static void
fetch_active_unlink(struct fetch *f)
{
	struct fetcher *fr = f->fr;

	if (f->aprev)
		f->aprev->anext = f->anext;
	else if (fr->active == f)
		fr->active = f->anext;
	if (f->anext)
		f->anext->aprev = f->aprev;
	f->anext = f->aprev = NULL;
}

int
fetcher_start(struct fetcher *fr, const struct fetch_req *req,
    const struct fetch_cbs *cbs, void *arg, struct fetch **out)
{
	struct fetch *f = xcalloc(1, sizeof(*f));
	const char *why = NULL;

	f->fr = fr;
	f->cbs = *cbs;
	f->arg = arg;
	f->url = xstrdup(req->url);
	f->max_length = req->max_length > 0 ? req->max_length : fr->max_length;
	f->operator_literal = req->operator_literal;
	f->t_start = uv_hrtime();
	f->tm.start_wall_ms = clock_wall_ms();
	f->status = 0;
	if (req->addr) {
		size_t n = req->addr->sa_family == AF_INET6 ?
		    sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
		memcpy(&f->addr, req->addr, n);
		f->have_addr = 1;
		f->caller_addr = 1;
	}
	f->anext = fr->active;
	if (fr->active)
		fr->active->aprev = f;
	fr->active = f;
	if (http_url_parse(req->url, &f->u, &why) != 0) {
		fetch_finish(f, -7, why);
	} else {
		http_request_build(&f->req, &f->u, fr->user_agent, fr->gzip);
		/* The I/O starts now (a kept-alive connection gets the request
		 * in this very call); only callbacks are deferred, and
		 * fetch_begin never calls one: its failures go through
		 * fetch_finish, which delivers on_done on a later tick. Waiting
		 * for the idle tick instead cost a loop turn per fetch. */
		fetch_begin(f);
	}
	if (!uv_is_active((uv_handle_t *)&fr->sweep))
		uv_timer_start(&fr->sweep, fetch_sweep_cb, FETCH_SWEEP_MS, FETCH_SWEEP_MS);
	*out = f;
	return 0;
}

/* Private, loopback, link-local (with cloud metadata at 169.254.169.254),
 * shared, multicast and reserved addresses: what a crawler must not be
 * steered into (SSRF). */
static int
fetch_addr_private(const struct sockaddr_storage *sa)
{
	const unsigned char *b;

	if (sa->ss_family == AF_INET6) {
		static const unsigned char zero[16];
		b = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		if (memcmp(b, zero, 15) == 0 && (b[15] == 0 || b[15] == 1))
			return 1;	/* :: and ::1 */
		if ((b[0] & 0xfe) == 0xfc || (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) || b[0] == 0xff)
			return 1;	/* fc00::/7, fe80::/10, ff00::/8 */
		if (memcmp(b, zero, 10) == 0 && b[10] == 0xff && b[11] == 0xff)
			b += 12;	/* IPv4-mapped: judge the IPv4 address */
		else
			return 0;
	} else {
		b = (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr;
	}
	return b[0] == 0 || b[0] == 10 || b[0] == 127 || b[0] >= 224 ||
	    (b[0] == 100 && (b[1] & 0xc0) == 64) ||
	    (b[0] == 169 && b[1] == 254) ||
	    (b[0] == 172 && (b[1] & 0xf0) == 16) ||
	    (b[0] == 192 && b[1] == 168) ||
	    (b[0] == 192 && b[1] == 0 && b[2] == 0) ||
	    (b[0] == 198 && (b[1] & 0xfe) == 18);
}

static void
fetch_dns_cb(void *arg, const struct dns_answer *a)
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
		char *why = xasprintf("DNS lookup of %s failed: %s", f->u.host,
		    a->error ? a->error : "no address");
		fetch_finish(f, -6, why);
		free(why);
		return;
	}
	f->addr = a->addrs[0];
	f->have_addr = 1;
	fetch_connect(f);
}

/* Starts a fetch from the tick: resolve, or go straight to connecting. */
static void
fetch_begin(struct fetch *f)
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
	if (f->fr->dns == NULL) {
		fetch_finish(f, -6, "no resolver");
		return;
	}
	fetch_set_state(f, FETCH_S_RESOLVE);
	f->t_dns0 = uv_hrtime();
	if (dns_resolve(f->fr->dns, f->u.host, fetch_dns_cb, f, &f->dq) != 0)
		fetch_finish(f, -6, "host name cannot be looked up");
}

static void
fetch_send(struct fetch *f)
{
	int r;

	f->http = http_new(f->fr->max_header, &fetch_http_cbs, f);
	fetch_set_state(f, FETCH_S_WAIT);
	f->t_sent = uv_hrtime();
	f->last_io = uv_now(f->fr->loop);
	r = conn_write(f->conn, f->req.data, f->req.len);
	if (r < 0) {
		char *why = xasprintf("sending the request: %s", uv_strerror(r));
		fetch_finish(f, -3, why);
		free(why);
	}
}

/* Connects to f->addr, or reuses a kept-alive connection to the site. */
static void
fetch_connect(struct fetch *f)
{
	struct fetcher *fr = f->fr;
	struct fetch_site *s;
	int r;

	if (f->addr.ss_family == AF_INET6) {
		((struct sockaddr_in6 *)&f->addr)->sin6_port = htons(f->u.port);
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&f->addr)->sin6_addr, f->ip, sizeof(f->ip));
	} else {
		((struct sockaddr_in *)&f->addr)->sin_port = htons(f->u.port);
		inet_ntop(AF_INET, &((struct sockaddr_in *)&f->addr)->sin_addr, f->ip, sizeof(f->ip));
	}
	/* An address given by the caller was vetted there; one we resolved
	 * ourselves is checked here, before connecting to that very address. */
	if (!f->caller_addr && !fr->allow_private &&
	    !(f->operator_literal && f->u.host_is_literal) && fetch_addr_private(&f->addr)) {
		char *why = xasprintf("%s resolves to %s, a private, loopback, link-local "
		    "or reserved address (fetch.allow-private-addresses is false)", f->u.host, f->ip);
		fetch_finish(f, -7, why);
		free(why);
		return;
	}
	f->deadline_total = uv_now(fr->loop) + fr->total_ms;
	s = f->retried ? NULL : fetch_site_get(fr, f->u.tls, f->u.host, f->u.port, 0);
	if (s && s->idle) {
		f->conn = fetch_idle_take(fr, s->idle);
		f->reused = 1;
		f->t_conn0 = f->t_conn1 = f->t_tls1 = uv_hrtime();
		conn_set_cb(f->conn, fetch_conn_cb, f);
		fetch_send(f);
		return;
	}
	fetch_set_state(f, FETCH_S_CONNECT);
	f->t_conn0 = uv_hrtime();
	f->last_io = uv_now(fr->loop);
	r = conn_connect(fr->loop, (struct sockaddr *)&f->addr, f->u.tls ? fr->tls : NULL,
	    f->u.host, s ? s->session : NULL, fetch_conn_cb, f, &f->conn);
	if (r < 0) {
		char *why = xasprintf("connect to %s: %s", f->ip, uv_strerror(r));
		fetch_finish(f, -2, why);
		free(why);
	}
}

/* A kept-alive connection failed before any byte of the response: the
 * server closed it as we reused it (RFC 9112 9.3.1). GET is safe to
 * repeat, once, on a new connection. */
static int
fetch_retry_fresh(struct fetch *f)
{
	if (!f->reused || f->retried || (f->http && http_started(f->http)))
		return 0;
	conn_close(f->conn);
	f->conn = NULL;
	http_free(f->http);
	f->http = NULL;
	f->reused = 0;
	f->retried = 1;
	fetch_connect(f);
	return 1;
}

/* Called by the response parser when the final head is complete. */
static int
fetch_http_head_cb(void *arg)
{
	struct fetch *f = arg;
	enum decode_coding c;

	f->status = http_status(f->http);
	fetch_set_state(f, FETCH_S_BODY);
	if (decode_coding_parse(http_header(f->http, "Content-Encoding"), &c) != 0) {
		f->annotations |= FETCH_DECERR;
	} else {
		f->dec = decode_new(c, DECODE_MAX_OUT, DECODE_MAX_RATIO);
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
static int
fetch_decoded_cb(void *arg, const char *data, size_t len)
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
static int
fetch_http_body_cb(void *arg, const char *data, size_t len)
{
	struct fetch *f = arg;
	struct fetch_deliver d = { f, data, len };
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
static void
fetch_decode_end(struct fetch *f)
{
	struct fetch_deliver d = { f, NULL, 0 };
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
static void
fetch_complete(struct fetch *f, int reusable)
{
	struct conn *c = f->conn;

	fetch_decode_end(f);
	if (f->cancel_req) {
		fetch_finish(f, -3, "cancelled");
		return;
	}
	if (conn_is_tls(c))
		fetch_session_put(f->fr, f);
	f->conn = NULL;
	if (reusable)
		fetch_idle_put(f->fr, f, c);
	else
		conn_close(c);
	fetch_finish(f, f->status, NULL);
}

static void
fetch_data(struct fetch *f, const char *data, size_t len)
{
	size_t used;
	enum http_result r;

	if (f->state != FETCH_S_WAIT && f->state != FETCH_S_BODY)
		return;
	f->last_io = uv_now(f->fr->loop);
	if (f->t_first == 0)
		f->t_first = uv_hrtime();
	r = http_feed(f->http, data, len, &used);
	if (f->cancel_req) {
		fetch_finish(f, -3, "cancelled");
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
		char *why = xasprintf("%s: %s", http_head_done(f->http) ?
		    "broken response body" : "malformed response head", http_error(f->http));
		fetch_finish(f, -3, why);
		free(why);
		break;
	}
	}
}

static void
fetch_eof(struct fetch *f)
{
	if (f->state != FETCH_S_WAIT && f->state != FETCH_S_BODY) {
		fetch_finish(f, -2, "connection closed during the TLS handshake");
		return;
	}
	if (fetch_retry_fresh(f))
		return;
	if (http_eof(f->http) == HTTP_DONE) {
		fetch_complete(f, 0);
		return;
	}
	{
		char *why = xasprintf("connection lost: %s", http_error(f->http));
		fetch_finish(f, -3, why);
		free(why);
	}
}

static void
fetch_conn_cb(void *arg, struct conn *c, enum conn_event ev, const char *data, size_t len)
{
	struct fetch *f = arg;

	switch (ev) {
	case CONN_CONNECTED:
		f->t_conn1 = uv_hrtime();
		if (conn_is_tls(c)) {
			fetch_set_state(f, FETCH_S_TLS);
			f->last_io = uv_now(f->fr->loop);
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
		fetch_data(f, data, len);
		break;
	case CONN_DRAINED:
		break;
	case CONN_CLOSED:
		fetch_eof(f);
		break;
	case CONN_ERROR:
		if (f->state == FETCH_S_CONNECT || f->state == FETCH_S_TLS) {
			fetch_finish(f, -2, conn_error(c));
		} else if (!fetch_retry_fresh(f)) {
			char *why = xasprintf("connection lost: %s", conn_error(c));
			fetch_finish(f, -3, why);
			free(why);
		}
		break;
	}
}

/* Ends the fetch with status (an HTTP code keeps its value) and queues
 * on_done for the tick. */
static void
fetch_finish(struct fetch *f, int status, const char *why)
{
	uint64_t now = uv_hrtime();

	if (f->state == FETCH_S_DONE)
		return;
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
	fetch_active_unlink(f);
	fetch_soon(f);
}

static void
fetch_free(struct fetch *f)
{
	http_free(f->http);
	http_url_clear(&f->u);
	buf_free(&f->req);
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

static void
fetch_tick_cb(uv_idle_t *h)
{
	struct fetcher *fr = h->data;
	int budget = FETCH_TICK_BUDGET;

	while (fr->soon && budget-- > 0) {
		struct fetch *f = fr->soon;

		fr->soon = f->snext;
		if (fr->soon == NULL)
			fr->soon_tail = NULL;
		f->in_soon = 0;
		if (f->state == FETCH_S_INIT && !f->released) {
			fetch_begin(f);
			continue;
		}
		if (f->state != FETCH_S_DONE)
			continue;
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
	if (fr->soon == NULL)
		uv_idle_stop(&fr->tick);
}

/* Checks every deadline: connect and TLS (-2), the response head (-4),
 * the body (the status is kept, annotated timeTrunc), idle connections. */
static void
fetch_sweep_cb(uv_timer_t *t)
{
	struct fetcher *fr = t->data;
	uint64_t now = uv_now(fr->loop);
	struct fetch *f, *next;
	struct fetch_idle *i, *inext;

	for (f = fr->active; f; f = next) {
		next = f->anext;
		switch (f->state) {
		case FETCH_S_CONNECT:
			if (now - f->last_io >= fr->connect_ms)
				fetch_finish(f, -2, "connect timed out (fetch.connect-timeout-ms)");
			break;
		case FETCH_S_TLS:
			if (now - f->last_io >= fr->connect_ms)
				fetch_finish(f, -2, "TLS handshake timed out (fetch.connect-timeout-ms)");
			break;
		case FETCH_S_WAIT:
			if (now - f->last_io >= fr->idle_ms)
				fetch_finish(f, -4, "no response head within fetch.idle-timeout-seconds");
			else if (now >= f->deadline_total)
				fetch_finish(f, -4, "no response head within fetch.timeout-seconds");
			break;
		case FETCH_S_BODY:
			if (now - f->last_io >= fr->idle_ms || now >= f->deadline_total) {
				f->annotations |= FETCH_TIMETRUNC;
				fetch_decode_end(f);
				fetch_finish(f, f->status, now >= f->deadline_total ?
				    "body cut at fetch.timeout-seconds" :
				    "body cut: no data within fetch.idle-timeout-seconds");
			}
			break;
		default:
			break;
		}
	}
	for (i = fr->idle; i; i = inext) {
		inext = i->gnext;
		if (now >= i->expires)
			conn_close(fetch_idle_take(fr, i));
	}
	if (fr->active == NULL && fr->idle == NULL)
		uv_timer_stop(&fr->sweep);
}

void
fetch_cancel(struct fetch *f)
{
	if (f == NULL || f->state == FETCH_S_DONE)
		return;
	if (f->in_cb) {
		f->cancel_req = 1;
		return;
	}
	fetch_finish(f, -3, "cancelled");
}

void
fetch_release(struct fetch *f)
{
	if (f == NULL)
		return;
	f->released = 1;
	/* Inside on_done the tick frees f when the callback returns. */
	if (f->delivering)
		return;
	if (f->state != FETCH_S_DONE)
		fetch_cancel(f);
	fetch_soon(f);
}

void
fetcher_close_idle(struct fetcher *fr, const char *host, int port)
{
	for (int tls = 0; tls < 2; tls++) {
		struct fetch_site *s;
		if (port == 0) {
			/* Any port: walk the idle list. */
			char pre[300];
			size_t n = (size_t)snprintf(pre, sizeof(pre), "%c%s:", tls ? 's' : 'p', host);
			for (struct fetch_idle *i = fr->idle, *in; i; i = in) {
				in = i->gnext;
				if (strncmp(i->site->key, pre, n) == 0)
					conn_close(fetch_idle_take(fr, i));
			}
			continue;
		}
		s = fetch_site_get(fr, tls, host, port, 0);
		while (s && s->idle) {
			struct fetch_idle *i = s->idle;
			int last = s->nidle == 1 && s->session == NULL;
			conn_close(fetch_idle_take(fr, i));
			if (last)
				break;
		}
	}
}

static void
fetcher_close_cb(uv_handle_t *h)
{
	struct fetcher *fr = h->data;

	if (--fr->handles == 0)
		free(fr);
}

void
fetcher_free(struct fetcher *fr)
{
	if (fr == NULL)
		return;
	fr->closing = 1;
	while (fr->active) {
		struct fetch *f = fr->active;
		f->released = 1;
		fetch_finish(f, -3, "engine shut down");
	}
	while (fr->soon) {
		struct fetch *f = fr->soon;
		fr->soon = f->snext;
		fetch_free(f);
	}
	while (fr->idle)
		conn_close(fetch_idle_take(fr, fr->idle));
	for (size_t b = 0; b < fr->nbuckets; b++)
		for (struct fetch_site *s = fr->sites[b], *n; s; s = n) {
			n = s->hnext;
			if (s->session)
				tls_session_free(s->session);
			free(s->key);
			free(s);
		}
	free(fr->sites);
	tls_ctx_free(fr->tls);
	free(fr->user_agent);
	uv_close((uv_handle_t *)&fr->sweep, fetcher_close_cb);
	uv_close((uv_handle_t *)&fr->tick, fetcher_close_cb);
}

int
fetch_status(const struct fetch *f)
{
	return f->status;
}

unsigned
fetch_annotations(const struct fetch *f)
{
	return f->annotations;
}

const char *
fetch_header(const struct fetch *f, const char *name)
{
	return f->http && http_head_done(f->http) ? http_header(f->http, name) : NULL;
}

int
fetch_header_at(const struct fetch *f, size_t i, const char **name, const char **value)
{
	return f->http && http_head_done(f->http) ? http_header_at(f->http, i, name, value) : 0;
}

const char *
fetch_request_head(const struct fetch *f, size_t *len)
{
	*len = f->req.len;
	return f->req.data ? f->req.data : "";
}

const char *
fetch_response_head(const struct fetch *f, size_t *len)
{
	if (f->http == NULL || !http_head_done(f->http)) {
		*len = 0;
		return "";
	}
	return http_head(f->http, len);
}

const char *
fetch_ip(const struct fetch *f)
{
	return f->ip;
}

const char *
fetch_url(const struct fetch *f)
{
	return f->url;
}

const struct fetch_timings *
fetch_timings(const struct fetch *f)
{
	return &f->tm;
}

uint64_t
fetch_duration_ms(const struct fetch *f)
{
	uint64_t from = f->reused ? f->t_sent : f->t_conn0;

	if (from == 0 || f->t_end < from)
		return 0;
	return (f->t_end - from) / 1000000;
}

uint64_t
fetch_raw_bytes(const struct fetch *f)
{
	return f->raw_bytes;
}

uint64_t
fetch_decoded_bytes(const struct fetch *f)
{
	return f->dec_bytes;
}

const char *
fetch_error(const struct fetch *f)
{
	return f->error;
}

const struct dns_answer *
fetch_dns_answer(const struct fetch *f)
{
	return f->dns;
}

int
fetch_reused(const struct fetch *f)
{
	return f->reused;
}

int
fetch_tls_resumed(const struct fetch *f)
{
	return f->tls_resumed;
}

size_t
fetch_sizeof(void)
{
	return sizeof(struct fetch);
}

size_t
fetcher_idle_count(const struct fetcher *fr)
{
	return fr->nidle;
}
