/* The fetcher: what fetches share (fetcher.h). Sites are kept in a hash
 * table by "s" or "p" (TLS or plain), host, ":" and port; a site lives while
 * it holds an idle connection or a TLS session. */
#include <build-config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/config.h"
#include "lib/proxy.h"
#include "net/conn.h"
#include "net/credentials.h"
#include "net/fetcher.h"
#include "net/http.h"
#include "net/tls.h"
#include "lib/xmalloc.h"

/* Deadlines are checked this often. */
#define FETCHER_SWEEP_MS 50
/* Kept-alive connections are closed after this long unused. */
#define FETCHER_IDLE_KEEP_MS 30000
#define FETCHER_IDLE_PER_SITE 4
#define FETCHER_IDLE_MAX 4096
/* TLS sessions remembered (one per site). */
#define FETCHER_MAX_SESSIONS 20000
/* Members run per loop wakeup. */
#define FETCHER_TICK_BUDGET 512

struct fetcher_site;

/* A kept-alive connection waiting for its next request. */
struct fetcher_idle {
	struct fetcher *fr;
	struct conn *conn;
	struct fetcher_site *site;
	uint64_t expires;
	struct fetcher_idle *next, *prev;   /* in the site */
	struct fetcher_idle *gnext, *gprev; /* in the fetcher */
};

/* What fetches to one scheme+host+port share. */
struct fetcher_site {
	char *key;
	struct fetcher_site *hnext;
	struct fetcher_idle *idle;
	int nidle;
	void *session; /* TLS session to resume */
};

/* One scheme's proxy, as settings or the environment name it. */
struct fetcher_route {
	struct proxy p;
	struct fetcher_proxy fp;
	int on;
};

struct fetcher {
	uv_loop_t *loop;
	struct fetcher_route route[2]; /* [0] http, [1] https */
	char *no_proxy;
	struct credentials *creds; /* fetch.credentials-file (NULL: none) */
	struct dns *dns;
	struct tls_ctx *tls;
	struct fetcher_settings set;
	char *user_agent;
	uv_timer_t sweep;
	uv_idle_t tick;
	int handles;
	int closing;
	struct fetcher_member *active; /* fetches not yet done */
	struct fetcher_member *soon, *soon_tail;
	struct fetcher_idle *idle; /* all idle connections */
	size_t nidle;
	size_t idle_max; /* fetcher_limit_idle; FETCHER_IDLE_MAX by default */
	struct fetcher_site **sites;
	size_t nbuckets, nsites, nsessions;
};

static void fetcher_sweep_cb(uv_timer_t *t);

static uint32_t fetcher_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The site of scheme+host+port, created if create. */
static struct fetcher_site *fetcher_site_get(
    struct fetcher *fr, int tls, const char *host, int port, int create)
{
	char key[300];
	struct fetcher_site *s, **bucket;
	size_t hl = strlen(host), klen;

	/* Every site's host came through http_url_from (at most 253 bytes):
	 * a longer name has no site. */
	if (hl > sizeof(key) - 16)
		return NULL;
	/* Built by hand rather than with snprintf: this runs for every fetch. */
	key[0] = tls ? 's' : 'p';
	memcpy(key + 1, host, hl);
	key[hl + 1] = ':';
	klen = hl + 2 + buf_digits(key + hl + 2, port < 0 ? 0 : (uint64_t)port);
	key[klen] = '\0';
	bucket = &fr->sites[fetcher_hash(key) & (fr->nbuckets - 1)];
	for (s = *bucket; s; s = s->hnext)
		if (strcmp(s->key, key) == 0)
			return s;
	if (!create)
		return NULL;
	if (fr->nsites >= fr->nbuckets * 2) {
		size_t nb = fr->nbuckets * 2;
		struct fetcher_site **t = xcalloc(nb, sizeof(*t));
		for (size_t i = 0; i < fr->nbuckets; i++)
			for (struct fetcher_site *x = fr->sites[i], *n; x; x = n) {
				n = x->hnext;
				x->hnext = t[fetcher_hash(x->key) & (nb - 1)];
				t[fetcher_hash(x->key) & (nb - 1)] = x;
			}
		free(fr->sites);
		fr->sites = t;
		fr->nbuckets = nb;
		bucket = &fr->sites[fetcher_hash(key) & (fr->nbuckets - 1)];
	}
	s = xcalloc(1, sizeof(*s));
	s->key = xstrdup(key);
	s->hnext = *bucket;
	*bucket = s;
	fr->nsites++;
	return s;
}

/* Forgets a site that holds nothing any more. */
static void fetcher_site_gc(struct fetcher *fr, struct fetcher_site *s)
{
	struct fetcher_site **pp;

	if (s->idle || s->session)
		return;
	for (pp = &fr->sites[fetcher_hash(s->key) & (fr->nbuckets - 1)]; *pp != s;
	     pp = &(*pp)->hnext)
		;
	*pp = s->hnext;
	fr->nsites--;
	free(s->key);
	free(s);
}

/* Takes an idle connection off the pool; returns its conn (not closed). */
static struct conn *fetcher_idle_take(struct fetcher *fr, struct fetcher_idle *i)
{
	struct fetcher_site *s = i->site;
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
	fetcher_site_gc(fr, s);
	return c;
}

static void fetcher_idle_conn_cb(
    void *arg, struct conn *c, enum conn_event ev, const char *data, size_t len)
{
	struct fetcher_idle *i = arg;

	/* Anything from an idle connection (close, error, bytes nobody
	 * asked for) ends it. */
	conn_close(fetcher_idle_take(i->fr, i));
}

static void fetcher_sweep_start(struct fetcher *fr)
{
	if (!uv_is_active((uv_handle_t *)&fr->sweep))
		uv_timer_start(&fr->sweep, fetcher_sweep_cb, FETCHER_SWEEP_MS, FETCHER_SWEEP_MS);
}

struct conn *fetcher_reuse(struct fetcher *fr, int tls, const char *host, int port, void **session)
{
	struct fetcher_site *s = fetcher_site_get(fr, tls, host, port, 0);

	*session = s ? s->session : NULL;
	if (s == NULL || s->idle == NULL)
		return NULL;
	return fetcher_idle_take(fr, s->idle);
}

void fetcher_keep(struct fetcher *fr, int tls, const char *host, int port, struct conn *c)
{
	struct fetcher_site *s;
	struct fetcher_idle *i;
	uint64_t keep =
	    FETCHER_IDLE_KEEP_MS < fr->set.idle_ms ? FETCHER_IDLE_KEEP_MS : fr->set.idle_ms;

	s = fetcher_site_get(fr, tls, host, port, 1);
	if (fr->closing || s->nidle >= FETCHER_IDLE_PER_SITE || fr->nidle >= fr->idle_max) {
		conn_close(c);
		fetcher_site_gc(fr, s);
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
	conn_set_cb(c, fetcher_idle_conn_cb, i);
	fetcher_sweep_start(fr);
}

void fetcher_session_put(struct fetcher *fr, const char *host, int port, void *sess)
{
	struct fetcher_site *s;

	s = fetcher_site_get(fr, 1, host, port, fr->nsessions < FETCHER_MAX_SESSIONS);
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

/* "Basic " and base64 of user:password (RFC 7617). */
static char *fetcher_basic(const char *user, const char *password)
{
	char *plain = xasprintf("%s:%s", user, password);
	size_t n = strlen(plain);
	char *out = xmalloc(6 + 4 * ((n + 2) / 3) + 1);

	memcpy(out, "Basic ", 6);
	EVP_EncodeBlock((unsigned char *)out + 6, (const unsigned char *)plain, (int)n);
	OPENSSL_cleanse(plain, n);
	free(plain);
	return out;
}

static void fetcher_route_clear(struct fetcher_route *r)
{
	if (r->fp.auth != NULL) {
		OPENSSL_cleanse((char *)r->fp.auth, strlen(r->fp.auth));
		free((char *)r->fp.auth);
	}
	proxy_clear(&r->p);
	memset(r, 0, sizeof *r);
}

/* Reads fetch.credentials-file: it must be the running user's and not
 * readable by group or others, as ssh keys must (doc/warc.md,
 * "Credentials"). */
static int fetcher_credentials_load(struct fetcher *fr, const char *path, char **err)
{
	struct stat st;
	struct buf text = BUF_INIT;
	char chunk[4096];
	ssize_t n;
	int fd, rc;

	if (*path == '\0')
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = xasprintf("fetch.credentials-file: %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*err = xasprintf("fetch.credentials-file: %s: not a regular file", path);
		close(fd);
		return -1;
	}
	if ((st.st_mode & 077) != 0 || st.st_uid != geteuid()) {
		*err =
		    xasprintf("fetch.credentials-file: %s holds passwords but is %s (mode %04o): "
			      "chmod 600 it",
			path, st.st_uid != geteuid() ? "another user's" : "open to others",
			(unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		buf_append(&text, chunk, (size_t)n);
	OPENSSL_cleanse(chunk, sizeof chunk);
	close(fd);
	if (n < 0) {
		*err = xasprintf("fetch.credentials-file: %s: %s", path, strerror(errno));
		buf_free(&text);
		return -1;
	}
	rc = credentials_parse(text.data ? text.data : "", text.len, path, &fr->creds, err);
	if (text.data != NULL)
		OPENSSL_cleanse(text.data, text.len);
	buf_free(&text);
	return rc;
}

/* A scheme's route: the setting, else the environment (curl reads
 * http_proxy in lower case only, https_proxy in either); "none" is no
 * proxy whatever the environment says. Userinfo is taken from the
 * environment only: tern.conf holds no secret. */
static int fetcher_route_init(struct fetcher_route *r, const struct config *cfg, enum config_key k,
    const char *const *envs, const struct credentials *creds, char **err)
{
	const char *v = config_str(cfg, k), *why = NULL, *origin = config_name(k);
	int from_env = 0;

	if (*v == '\0') {
		for (; *envs != NULL; envs++)
			if (getenv(*envs) != NULL && *getenv(*envs) != '\0') {
				v = getenv(*envs);
				origin = *envs;
				from_env = 1;
				break;
			}
	}
	if (*v == '\0' || strcmp(v, "none") == 0)
		return 0;
	if (proxy_parse(v, from_env, &r->p, &why) < 0) {
		*err = xasprintf("%s: %s", origin, why);
		return -1;
	}
	r->on = 1;
	r->fp.p = &r->p;
	r->fp.origin = origin;
	if (r->p.user != NULL) {
		r->fp.auth = fetcher_basic(r->p.user, r->p.password);
	} else {
		const struct credential *cr = credentials_proxy(creds, r->p.hostport);
		if (cr != NULL)
			r->fp.auth = fetcher_basic(cr->user, cr->password);
	}
	return 0;
}

const struct credentials *fetcher_credentials(const struct fetcher *fr)
{
	return fr->creds;
}

const struct fetcher_proxy *fetcher_proxy_for(const struct fetcher *fr, int tls, const char *host)
{
	const struct fetcher_route *r = &fr->route[tls ? 1 : 0];

	if (!r->on || (fr->no_proxy != NULL && proxy_bypass(fr->no_proxy, host)))
		return NULL;
	return &r->fp;
}

struct fetcher *fetcher_new(uv_loop_t *loop, const struct config *cfg, struct dns *dns, char **err)
{
	static const char *const http_env[] = {"http_proxy", NULL};
	static const char *const https_env[] = {"https_proxy", "HTTPS_PROXY", NULL};
	static const char *const no_env[] = {"no_proxy", "NO_PROXY", NULL};
	struct fetcher *fr = xcalloc(1, sizeof(*fr));
	const char *np = config_str(cfg, CK_FETCH_NO_PROXY);

	if (fetcher_credentials_load(fr, config_str(cfg, CK_FETCH_CREDENTIALS_FILE), err) < 0 ||
	    fetcher_route_init(&fr->route[0], cfg, CK_FETCH_HTTP_PROXY, http_env, fr->creds, err) <
		0 ||
	    fetcher_route_init(
		&fr->route[1], cfg, CK_FETCH_HTTPS_PROXY, https_env, fr->creds, err) < 0) {
		fetcher_route_clear(&fr->route[0]);
		fetcher_route_clear(&fr->route[1]);
		credentials_free(fr->creds);
		free(fr);
		return NULL;
	}
	for (const char *const *e = no_env; *np == '\0' && *e != NULL; e++)
		if (getenv(*e) != NULL)
			np = getenv(*e);
	if (*np != '\0')
		fr->no_proxy = xstrdup(np);

	fr->loop = loop;
	fr->dns = dns;
	fr->idle_max = FETCHER_IDLE_MAX;
	fr->set.connect_ms = config_int(cfg, CK_FETCH_CONNECT_TIMEOUT_MS);
	fr->set.total_ms = config_int(cfg, CK_FETCH_TIMEOUT_SECONDS) * 1000;
	fr->set.idle_ms = config_int(cfg, CK_FETCH_IDLE_TIMEOUT_SECONDS) * 1000;
	fr->set.max_length = config_int(cfg, CK_FETCH_MAX_LENGTH_BYTES);
	fr->set.max_header = config_int(cfg, CK_FETCH_MAX_HEADER_BYTES);
	/* The key's enum admits only the words http_accept_encoding maps. */
	fr->set.accept_encoding = http_accept_encoding(config_str(cfg, CK_FETCH_ACCEPT_ENCODING));
	fr->set.allow_private = config_bool(cfg, CK_FETCH_ALLOW_PRIVATE_ADDRESSES);
	fr->user_agent = xstrdup(config_str(cfg, CK_CRAWL_USER_AGENT));
	fr->set.user_agent = fr->user_agent;
	fr->set.trace = getenv("TERN_TRACE_FETCH") != NULL;
	fr->tls = tls_ctx_new(
	    config_bool(cfg, CK_FETCH_TLS_VERIFY), config_str(cfg, CK_FETCH_CA_FILE), err);
	if (fr->tls == NULL) {
		char *e = *err;
		*err = xasprintf("fetch.ca-file: %s", e);
		free(e);
		free(fr->user_agent);
		fetcher_route_clear(&fr->route[0]);
		fetcher_route_clear(&fr->route[1]);
		free(fr->no_proxy);
		credentials_free(fr->creds);
		free(fr);
		return NULL;
	}
	fr->set.http2 = config_bool(cfg, CK_FETCH_HTTP2);
	if (fr->set.http2)
		tls_ctx_offer_h2(fr->tls);
	fr->nbuckets = 256;
	fr->sites = xcalloc(fr->nbuckets, sizeof(*fr->sites));
	uv_timer_init(loop, &fr->sweep);
	fr->sweep.data = fr;
	uv_idle_init(loop, &fr->tick);
	fr->tick.data = fr;
	fr->handles = 2;
	return fr;
}

uv_loop_t *fetcher_loop(struct fetcher *fr)
{
	return fr->loop;
}

struct dns *fetcher_dns(struct fetcher *fr)
{
	return fr->dns;
}

struct tls_ctx *fetcher_tls(struct fetcher *fr)
{
	return fr->tls;
}

const struct fetcher_settings *fetcher_settings(const struct fetcher *fr)
{
	return &fr->set;
}

static void fetcher_tick_cb(uv_idle_t *h)
{
	struct fetcher *fr = h->data;
	int budget = FETCHER_TICK_BUDGET;

	while (fr->soon && budget-- > 0) {
		struct fetcher_member *m = fr->soon;

		fr->soon = m->snext;
		if (fr->soon == NULL)
			fr->soon_tail = NULL;
		m->in_soon = 0;
		m->ops->run(m);
	}
	if (fr->soon == NULL)
		uv_idle_stop(&fr->tick);
}

void fetcher_soon(struct fetcher *fr, struct fetcher_member *m)
{
	if (m->in_soon)
		return;
	m->in_soon = 1;
	m->snext = NULL;
	if (fr->soon_tail)
		fr->soon_tail->snext = m;
	else
		fr->soon = m;
	fr->soon_tail = m;
	if (!fr->closing)
		uv_idle_start(&fr->tick, fetcher_tick_cb);
}

void fetcher_activate(struct fetcher *fr, struct fetcher_member *m)
{
	m->aprev = NULL;
	m->anext = fr->active;
	if (fr->active)
		fr->active->aprev = m;
	fr->active = m;
	fetcher_sweep_start(fr);
}

void fetcher_deactivate(struct fetcher *fr, struct fetcher_member *m)
{
	if (m->aprev)
		m->aprev->anext = m->anext;
	else if (fr->active == m)
		fr->active = m->anext;
	if (m->anext)
		m->anext->aprev = m->aprev;
	m->anext = m->aprev = NULL;
}

/* Every member's deadlines, then the idle connections' expiry. */
static void fetcher_sweep_cb(uv_timer_t *t)
{
	struct fetcher *fr = t->data;
	uint64_t now = uv_now(fr->loop);
	struct fetcher_member *m, *next;
	struct fetcher_idle *i, *inext;

	for (m = fr->active; m; m = next) {
		next = m->anext;
		m->ops->sweep(m, now);
	}
	for (i = fr->idle; i; i = inext) {
		inext = i->gnext;
		if (now >= i->expires)
			conn_close(fetcher_idle_take(fr, i));
	}
	if (fr->active == NULL && fr->idle == NULL)
		uv_timer_stop(&fr->sweep);
}

void fetcher_close_idle(struct fetcher *fr, const char *host, int port)
{
	for (int tls = 0; tls < 2; tls++) {
		struct fetcher_site *s;
		if (port == 0) {
			/* Any port: walk the idle list. */
			char pre[300];
			size_t n =
			    (size_t)snprintf(pre, sizeof(pre), "%c%s:", tls ? 's' : 'p', host);
			for (struct fetcher_idle *i = fr->idle, *in; i; i = in) {
				in = i->gnext;
				if (strncmp(i->site->key, pre, n) == 0)
					conn_close(fetcher_idle_take(fr, i));
			}
			continue;
		}
		s = fetcher_site_get(fr, tls, host, port, 0);
		while (s && s->idle) {
			struct fetcher_idle *i = s->idle;
			int last = s->nidle == 1 && s->session == NULL;
			conn_close(fetcher_idle_take(fr, i));
			if (last)
				break;
		}
	}
}

static void fetcher_close_cb(uv_handle_t *h)
{
	struct fetcher *fr = h->data;

	if (--fr->handles == 0)
		free(fr);
}

void fetcher_free(struct fetcher *fr)
{
	if (fr == NULL)
		return;
	fr->closing = 1;
	while (fr->active)
		fr->active->ops->shutdown(fr->active);
	while (fr->soon) {
		struct fetcher_member *m = fr->soon;
		fr->soon = m->snext;
		m->ops->destroy(m);
	}
	while (fr->idle)
		conn_close(fetcher_idle_take(fr, fr->idle));
	for (size_t b = 0; b < fr->nbuckets; b++)
		for (struct fetcher_site *s = fr->sites[b], *n; s; s = n) {
			n = s->hnext;
			if (s->session)
				tls_session_free(s->session);
			free(s->key);
			free(s);
		}
	free(fr->sites);
	tls_ctx_free(fr->tls);
	free(fr->user_agent);
	fetcher_route_clear(&fr->route[0]);
	fetcher_route_clear(&fr->route[1]);
	free(fr->no_proxy);
	credentials_free(fr->creds);
	uv_close((uv_handle_t *)&fr->sweep, fetcher_close_cb);
	uv_close((uv_handle_t *)&fr->tick, fetcher_close_cb);
}

void fetcher_limit_idle(struct fetcher *fr, size_t max)
{
	if (max > FETCHER_IDLE_MAX)
		max = FETCHER_IDLE_MAX;
	fr->idle_max = max;
	while (fr->nidle > max)
		conn_close(fetcher_idle_take(fr, fr->idle));
}

size_t fetcher_idle_count(const struct fetcher *fr)
{
	return fr->nidle;
}
