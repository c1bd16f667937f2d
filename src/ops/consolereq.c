/* The console's request decisions (consolereq.h). Order matters and is the
 * same for every request: the Host first (a rebound name learns nothing,
 * not even whether a path exists), then static assets, then the token,
 * then the origin of a POST, then the route and its parameters. */
#include "ops/consolereq.h"
#include "lib/form.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CONSOLEREQ_PREFIX "/console/"

static const char *const consolereq_paths[CONSOLEREQ__NPAGES] = {
    "",
    "queues",
    "queue",
    "hosts",
    "log",
    "settings",
    "checkpoints",
    "api/live",
    "api/history",
};

static const char *const consolereq_states[] = {
    "in-process",
    "ready",
    "snoozed",
    "inactive",
    "ineligible",
    "retired",
    "exhausted",
};

const char *consolereq_page_path(enum consolereq_page p)
{
	return p < CONSOLEREQ__NPAGES ? consolereq_paths[p] : "";
}

void consolereq_init(struct consolereq *r)
{
	memset(r, 0, sizeof *r);
	buf_init(&r->location);
	buf_init(&r->key);
	buf_init(&r->code);
	buf_init(&r->host);
	buf_init(&r->mime);
}

void consolereq_free(struct consolereq *r)
{
	buf_free(&r->location);
	buf_free(&r->key);
	buf_free(&r->code);
	buf_free(&r->host);
	buf_free(&r->mime);
}

void consolereq_copy(struct consolereq *dst, const struct consolereq *src)
{
	struct buf keep[5] = {dst->location, dst->key, dst->code, dst->host, dst->mime};
	const struct buf *from[5] = {&src->location, &src->key, &src->code, &src->host, &src->mime};

	*dst = *src;
	dst->asset = NULL;
	dst->location = keep[0];
	dst->key = keep[1];
	dst->code = keep[2];
	dst->host = keep[3];
	dst->mime = keep[4];
	{
		struct buf *to[5] = {&dst->location, &dst->key, &dst->code, &dst->host, &dst->mime};
		for (size_t i = 0; i < 5; i++) {
			buf_reset(to[i]);
			buf_append(to[i], from[i]->data != NULL ? from[i]->data : "", from[i]->len);
		}
	}
}

static void consolereq_reset(struct consolereq *r)
{
	struct buf *bufs[] = {&r->location, &r->key, &r->code, &r->host, &r->mime};

	for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
		buf_reset(bufs[i]);
		buf_append(bufs[i], "", 0);
	}
	r->kind = CONSOLEREQ_REFUSE;
	r->status = 0;
	r->why = NULL;
	r->json = 0;
	r->page = CONSOLEREQ_OVERVIEW;
	r->asset = NULL;
	r->token_in_query = 0;
	r->state[0] = '\0';
	r->sort[0] = '\0';
	r->pageno = 1;
	r->before = 0;
	r->since = 0;
}

static void consolereq_refuse(struct consolereq *r, int status, const char *why)
{
	r->kind = CONSOLEREQ_REFUSE;
	r->status = status;
	r->why = why;
}

/* A decimal port of 1 to 5 digits, or -1. */
static long consolereq_port(const char *s, size_t n)
{
	long v = 0;

	if (n == 0 || n > 5)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= 65535 ? v : -1;
}

int consolereq_host_ok(const struct consolereq_listener *l, const char *host)
{
	char name[256];
	const char *colon;
	size_t n;
	long port = 80;
	unsigned char addr[16];

	if (host[0] == '[') {
		const char *close = strchr(host, ']');
		if (close == NULL || (size_t)(close - host - 1) >= sizeof name)
			return 0;
		n = (size_t)(close - host - 1);
		memcpy(name, host + 1, n);
		name[n] = '\0';
		if (inet_pton(AF_INET6, name, addr) != 1)
			return 0;
		colon = close[1] == ':' ? close + 1 : NULL;
		if (close[1] != '\0' && colon == NULL)
			return 0;
	} else {
		colon = strchr(host, ':');
		n = colon != NULL ? (size_t)(colon - host) : strlen(host);
		if (n == 0 || n >= sizeof name || (colon != NULL && strchr(colon + 1, ':') != NULL))
			return 0;
		memcpy(name, host, n);
		name[n] = '\0';
		if (inet_pton(AF_INET, name, addr) != 1 && strcasecmp(name, "localhost") != 0) {
			size_t i;
			for (i = 0; i < l->nnames; i++)
				if (strcasecmp(name, l->names[i]) == 0)
					break;
			if (i == l->nnames)
				return 0;
		}
	}
	if (colon != NULL && (port = consolereq_port(colon + 1, strlen(colon + 1))) < 0)
		return 0;
	/* Through control.sock the port is the tunnel's, which only the
	 * client knows. */
	return !l->tcp || (unsigned long)port == l->port;
}

/* Compares the whole length whatever the first difference, so that the
 * answer's timing says nothing about how much of a guess was right. */
static int consolereq_token_equal(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	unsigned char d = alen != blen;

	for (size_t i = 0; i < blen; i++)
		d |= (unsigned char)(b[i] ^ (i < alen ? a[i] : 0));
	return d == 0 && blen > 0;
}

/* 0: no token sent; 1: the right one; -1: a wrong one. */
static int consolereq_token(const struct consolereq_listener *l, const struct consolereq_in *in,
    int get, struct consolereq *r)
{
	const char *a = in->authorization;
	struct buf q = BUF_INIT;
	int rc = 0;

	if (a != NULL) {
		if (strncasecmp(a, "Bearer ", 7) != 0)
			return -1;
		a += 7;
		while (*a == ' ')
			a++;
		return consolereq_token_equal(a, strlen(a), l->token) ? 1 : -1;
	}
	if (get && form_get(in->query, "token", &q) == 0) {
		rc = q.data != NULL && consolereq_token_equal(q.data, q.len, l->token) ? 1 : -1;
		r->token_in_query = rc > 0;
	}
	buf_free(&q);
	return rc;
}

/* A POST from a page of another origin, or a cross-site fetch. */
static int consolereq_cross_origin(const struct consolereq_in *in)
{
	if (in->fetch_site != NULL && strcmp(in->fetch_site, "same-origin") != 0 &&
	    strcmp(in->fetch_site, "none") != 0)
		return 1;
	if (in->origin != NULL) {
		if (in->host == NULL || strncasecmp(in->origin, "http://", 7) != 0 ||
		    strcasecmp(in->origin + 7, in->host) != 0)
			return 1;
	}
	return 0;
}

static int consolereq_is_state(const char *v, char *out, size_t cap)
{
	for (size_t i = 0; i < sizeof consolereq_states / sizeof consolereq_states[0]; i++) {
		if (strcasecmp(v, consolereq_states[i]) == 0) {
			snprintf(out, cap, "%s", consolereq_states[i]);
			return 1;
		}
	}
	return 0;
}

static int consolereq_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (*s == '\0' || strlen(s) > 19)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* Every character of s in the set, and 1 to max of them. */
static int consolereq_chars(const char *s, size_t len, size_t max, const char *set)
{
	return len > 0 && len <= max && strspn(s, set) == len;
}

static const char consolereq_hostchars[] = "abcdefghijklmnopqrstuvwxyz0123456789.-:[]_";

/* One parameter of a page; -1 (with r refused) when its value is bad. */
static int consolereq_param(struct consolereq *r, const struct buf *n, const struct buf *v)
{
	const char *name = n->data, *val = v->data;
	int q = r->page == CONSOLEREQ_QUEUES, h = r->page == CONSOLEREQ_HOSTS;

	if (strcmp(name, "state") == 0 && q) {
		if (v->len > 0 && !consolereq_is_state(val, r->state, sizeof r->state))
			goto bad;
	} else if (strcmp(name, "sort") == 0 && (q || h)) {
		static const char *const qs[] = {"key", "size", "spend", "errors"};
		static const char *const hs[] = {"urls", "bytes", "failed", "name"};
		const char *const *set = q ? qs : hs;
		size_t i;
		for (i = 0; i < 4; i++)
			if (strcmp(val, set[i]) == 0)
				break;
		if (i == 4)
			goto bad;
		snprintf(r->sort, sizeof r->sort, "%s", val);
	} else if (strcmp(name, "page") == 0 && (q || h)) {
		uint64_t p;
		if (consolereq_u64(val, &p) < 0 || p < 1 || p > CONSOLEREQ_MAX_PAGE)
			goto bad;
		r->pageno = (unsigned)p;
	} else if ((strcmp(name, "key") == 0 && r->page == CONSOLEREQ_QUEUE) ||
	    (strcmp(name, "after") == 0 && q)) {
		if (v->len == 0 || memchr(val, '\0', v->len) != NULL)
			goto bad;
		buf_append(&r->key, val, v->len);
	} else if (strcmp(name, "status") == 0 && r->page == CONSOLEREQ_LOG) {
		if (v->len > 0 && !consolereq_chars(val, v->len, 6, "-0123456789x"))
			goto bad;
		buf_append(&r->code, val, v->len);
	} else if (strcmp(name, "host") == 0 && r->page == CONSOLEREQ_LOG) {
		for (size_t i = 0; i < v->len; i++)
			v->data[i] = (char)(v->data[i] >= 'A' && v->data[i] <= 'Z' ? v->data[i] + 32
										   : v->data[i]);
		if (v->len > 0 && !consolereq_chars(val, v->len, 255, consolereq_hostchars))
			goto bad;
		buf_append(&r->host, val, v->len);
	} else if (strcmp(name, "mime") == 0 && r->page == CONSOLEREQ_LOG) {
		if (v->len > 0 &&
		    !consolereq_chars(val, v->len, 127,
			"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/.+-_;=* "))
			goto bad;
		buf_append(&r->mime, val, v->len);
	} else if (strcmp(name, "before") == 0 && r->page == CONSOLEREQ_LOG) {
		if (v->len > 0 && consolereq_u64(val, &r->before) < 0)
			goto bad;
	} else if (strcmp(name, "since") == 0 && r->page == CONSOLEREQ_LIVE) {
		if (consolereq_u64(val, &r->since) < 0)
			goto bad;
	}
	/* Anything else (the token, a form's button) is not the page's. */
	return 0;
bad:
	consolereq_refuse(r, 400, "a parameter of this page has a value it does not take");
	return -1;
}

static void consolereq_params(struct consolereq *r, const char *query)
{
	struct buf n = BUF_INIT, v = BUF_INIT;
	const char *p = query;
	int rc;

	while ((rc = form_next(&p, &n, &v)) != 0) {
		if (rc < 0) {
			consolereq_refuse(r, 400, "malformed %-escape in the query string");
			break;
		}
		if (consolereq_param(r, &n, &v) < 0)
			break;
	}
	buf_free(&n);
	buf_free(&v);
	if (r->kind == CONSOLEREQ_PAGE && r->page == CONSOLEREQ_QUEUE && r->key.len == 0)
		consolereq_refuse(r, 400, "which queue? (key=...)");
}

/* The page named by rest (the path after /console/), or -1. */
static int consolereq_page_of(const char *rest)
{
	for (int p = 0; p < CONSOLEREQ__NPAGES; p++)
		if (strcmp(rest, consolereq_paths[p]) == 0)
			return p;
	return -1;
}

void consolereq_route(
    const struct consolereq_listener *l, const struct consolereq_in *in, struct consolereq *r)
{
	const char *path = in->path, *query = in->query != NULL ? in->query : "";
	int get = strcmp(in->method, "GET") == 0, post = strcmp(in->method, "POST") == 0;
	int console = strncmp(path, CONSOLEREQ_PREFIX, strlen(CONSOLEREQ_PREFIX)) == 0;
	int tok, page;

	consolereq_reset(r);
	r->json = !console && strcmp(path, "/") != 0 && strcmp(path, "/console") != 0;
	if (console && strncmp(path, "/console/api/", 13) == 0)
		r->json = 1;
	if ((l->tcp && in->host == NULL) ||
	    (in->host != NULL && !consolereq_host_ok(l, in->host))) {
		consolereq_refuse(r, 403,
		    "this Host is not served here (a name other than "
		    "localhost or an IP address must be listed in console.host-names)");
		return;
	}
	if (console && strncmp(path, "/console/static/", 16) == 0) {
		const char *name = path + 16;
		if (!consolereq_chars(
			name, strlen(name), 64, "abcdefghijklmnopqrstuvwxyz0123456789.-")) {
			consolereq_refuse(r, 404, "no such asset");
		} else if (!get) {
			consolereq_refuse(r, 405, "use GET");
		} else {
			r->kind = CONSOLEREQ_ASSET;
			r->asset = name;
		}
		return;
	}
	if (l->tcp && (tok = consolereq_token(l, in, get, r)) <= 0) {
		r->kind = r->json ? CONSOLEREQ_REFUSE : CONSOLEREQ_LOGIN;
		r->status = tok == 0 ? 401 : 403;
		r->why = tok == 0 ? "this console needs its token (printed by tern console; "
				    "also in JOBDIR/console.token)"
				  : "wrong token";
		return;
	}
	if (post && consolereq_cross_origin(in)) {
		consolereq_refuse(r, 403, "a POST from another origin is refused");
		return;
	}
	if (strcmp(path, "/") == 0 || strcmp(path, "/console") == 0) {
		r->kind = CONSOLEREQ_REDIRECT;
		buf_appends(&r->location, CONSOLEREQ_PREFIX);
		if (*query != '\0') {
			/* Carried over as sent, but never a byte that could end
			 * the Location header. */
			buf_appendc(&r->location, '?');
			for (const char *c = query; *c; c++) {
				if ((unsigned char)*c > 0x20 && (unsigned char)*c < 0x7f)
					buf_appendc(&r->location, *c);
				else
					buf_appendf(&r->location, "%%%02X", (unsigned char)*c);
			}
		}
		return;
	}
	if (!console) {
		r->kind = CONSOLEREQ_CONTROL;
		return;
	}
	page = consolereq_page_of(path + strlen(CONSOLEREQ_PREFIX));
	if (page < 0) {
		consolereq_refuse(r, 404, "no such page");
		return;
	}
	if (!get) {
		consolereq_refuse(r, 405, "use GET (actions are POSTs to the control routes)");
		return;
	}
	r->kind = CONSOLEREQ_PAGE;
	r->page = (enum consolereq_page)page;
	consolereq_params(r, query);
}
