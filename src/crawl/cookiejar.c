/* The crawl's cookie jar: domains in a hash table, cookies in one
 * least-recently-used list, changes in a journal of keys. */
#include <stdlib.h>
#include <string.h>

#include "crawl/cookiejar.h"
#include "lib/buf.h"
#include "lib/cookie.h"
#include "lib/xmalloc.h"

struct cookiejar_entry {
	struct cookie c;
	struct cookiejar_domain *d;
	struct cookiejar_entry *dom_next;
	struct cookiejar_entry *lru_prev, *lru_next;
	uint64_t used; /* access order */
};

struct cookiejar_domain {
	char *name;
	uint32_t hash;
	size_t n;
	struct cookiejar_entry *list;
	struct cookiejar_domain *next;
};

/* A changed key: "domain\0path\0name". */
struct cookiejar_change {
	struct cookiejar_change *next;
	size_t dl, pl;
	char key[];
};

struct cookiejar {
	size_t per_domain, total;
	struct cookiejar_domain **tab;
	size_t cap, ndomains;
	size_t count, bytes;
	struct cookiejar_entry *lru_head, *lru_tail;
	uint64_t clock;
	uint64_t news; /* cookiejar_news */
	struct cookiejar_change *changes, **changes_tail;
	struct cookiejar_entry **scratch;
	size_t scratch_cap;
};

static uint32_t cookiejar_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct cookiejar *cookiejar_new(size_t per_domain, size_t total)
{
	struct cookiejar *j = xcalloc(1, sizeof(*j));

	j->per_domain = per_domain > 0 ? per_domain : 1;
	j->total = total > 0 ? total : 1;
	j->cap = 64;
	j->tab = xcalloc(j->cap, sizeof(*j->tab));
	j->changes_tail = &j->changes;
	return j;
}

static size_t cookiejar_size(const struct cookie *c)
{
	return strlen(c->name) + strlen(c->value) + strlen(c->domain) + strlen(c->path);
}

static void cookiejar_note(struct cookiejar *j, const struct cookie *c)
{
	size_t dl = strlen(c->domain), pl = strlen(c->path), nl = strlen(c->name);
	struct cookiejar_change *ch = xmalloc(sizeof(*ch) + dl + pl + nl + 3);

	ch->next = NULL;
	ch->dl = dl;
	ch->pl = pl;
	memcpy(ch->key, c->domain, dl + 1);
	memcpy(ch->key + dl + 1, c->path, pl + 1);
	memcpy(ch->key + dl + pl + 2, c->name, nl + 1);
	*j->changes_tail = ch;
	j->changes_tail = &ch->next;
}

static struct cookiejar_domain *cookiejar_domain(struct cookiejar *j, const char *name, int create)
{
	uint32_t h = cookiejar_hash(name);
	struct cookiejar_domain *d;
	size_t i;

	for (d = j->tab[h & (j->cap - 1)]; d != NULL; d = d->next)
		if (d->hash == h && strcmp(d->name, name) == 0)
			return d;
	if (!create)
		return NULL;
	if (j->ndomains >= j->cap) {
		struct cookiejar_domain **t = xcalloc(j->cap * 2, sizeof(*t));
		for (i = 0; i < j->cap; i++) {
			while (j->tab[i] != NULL) {
				d = j->tab[i];
				j->tab[i] = d->next;
				d->next = t[d->hash & (j->cap * 2 - 1)];
				t[d->hash & (j->cap * 2 - 1)] = d;
			}
		}
		free(j->tab);
		j->tab = t;
		j->cap *= 2;
	}
	d = xcalloc(1, sizeof(*d));
	d->name = xstrdup(name);
	d->hash = h;
	d->next = j->tab[h & (j->cap - 1)];
	j->tab[h & (j->cap - 1)] = d;
	j->ndomains++;
	return d;
}

static void cookiejar_lru_unlink(struct cookiejar *j, struct cookiejar_entry *e)
{
	if (e->lru_prev != NULL)
		e->lru_prev->lru_next = e->lru_next;
	else
		j->lru_head = e->lru_next;
	if (e->lru_next != NULL)
		e->lru_next->lru_prev = e->lru_prev;
	else
		j->lru_tail = e->lru_prev;
	e->lru_prev = e->lru_next = NULL;
}

static void cookiejar_touch(struct cookiejar *j, struct cookiejar_entry *e)
{
	if (j->lru_tail != e) {
		if (e->lru_prev != NULL || e->lru_next != NULL || j->lru_head == e)
			cookiejar_lru_unlink(j, e);
		e->lru_prev = j->lru_tail;
		if (j->lru_tail != NULL)
			j->lru_tail->lru_next = e;
		else
			j->lru_head = e;
		j->lru_tail = e;
	}
	e->used = ++j->clock;
}

/* Takes e out of the jar, frees it and remembers its key when note is set. */
static void cookiejar_remove(struct cookiejar *j, struct cookiejar_entry *e, int note)
{
	struct cookiejar_domain *d = e->d, **dp;
	struct cookiejar_entry **p;

	for (p = &d->list; *p != e; p = &(*p)->dom_next)
		;
	*p = e->dom_next;
	d->n--;
	cookiejar_lru_unlink(j, e);
	j->count--;
	j->bytes -= cookiejar_size(&e->c);
	if (note)
		cookiejar_note(j, &e->c);
	cookie_clear(&e->c);
	free(e);
	if (d->n == 0) {
		for (dp = &j->tab[d->hash & (j->cap - 1)]; *dp != d; dp = &(*dp)->next)
			;
		*dp = d->next;
		free(d->name);
		free(d);
		j->ndomains--;
	}
}

static size_t cookiejar_put(struct cookiejar *j, struct cookie *c, int64_t now_ms, int note)
{
	struct cookiejar_domain *d = cookiejar_domain(j, c->domain, !cookie_expired(c, now_ms));
	struct cookiejar_entry *e = NULL, *old;
	size_t evicted = 0;

	if (d != NULL)
		for (e = d->list; e != NULL; e = e->dom_next)
			if (strcmp(e->c.name, c->name) == 0 && strcmp(e->c.path, c->path) == 0)
				break;
	if (cookie_expired(c, now_ms)) {
		if (e != NULL) {
			cookiejar_remove(j, e, 1);
			j->news++;
		} else if (!note)
			cookiejar_note(j, c); /* a stored record to forget */
		cookie_clear(c);
		return 0;
	}
	if (e != NULL) {
		/* The same cookie sent again (most sites resend theirs on every
		 * answer) changes nothing the store must learn. */
		if (strcmp(e->c.value, c->value) == 0 && e->c.expires_ms == c->expires_ms &&
		    e->c.persistent == c->persistent && e->c.host_only == c->host_only &&
		    e->c.secure == c->secure && e->c.http_only == c->http_only) {
			cookiejar_touch(j, e);
			cookie_clear(c);
			return 0;
		}
		if (strcmp(e->c.value, c->value) != 0)
			j->news++;
		c->created_ms = e->c.created_ms;
		j->bytes -= cookiejar_size(&e->c);
		cookie_clear(&e->c);
	} else {
		j->news++;
		e = xcalloc(1, sizeof(*e));
		e->d = d;
		e->dom_next = d->list;
		d->list = e;
		d->n++;
		j->count++;
	}
	e->c = *c;
	memset(c, 0, sizeof(*c));
	j->bytes += cookiejar_size(&e->c);
	cookiejar_touch(j, e);
	if (note)
		cookiejar_note(j, &e->c);
	while (d->n > j->per_domain) {
		struct cookiejar_entry *x;
		old = NULL;
		for (x = d->list; x != NULL; x = x->dom_next)
			if (x != e && (old == NULL || x->used < old->used))
				old = x;
		cookiejar_remove(j, old, 1);
		evicted++;
	}
	while (j->count > j->total) {
		cookiejar_remove(j, j->lru_head, 1);
		evicted++;
	}
	return evicted;
}

size_t cookiejar_set(struct cookiejar *j, struct cookie *c, int64_t now_ms)
{
	return cookiejar_put(j, c, now_ms, 1);
}

size_t cookiejar_load(struct cookiejar *j, struct cookie *c, int64_t now_ms)
{
	return cookiejar_put(j, c, now_ms, 0);
}

static int cookiejar_order(const void *a, const void *b)
{
	const struct cookiejar_entry *x = *(const struct cookiejar_entry *const *)a;
	const struct cookiejar_entry *y = *(const struct cookiejar_entry *const *)b;
	size_t xl = strlen(x->c.path), yl = strlen(y->c.path);

	if (xl != yl)
		return xl > yl ? -1 : 1;
	if (x->c.created_ms != y->c.created_ms)
		return x->c.created_ms < y->c.created_ms ? -1 : 1;
	return x->used < y->used ? -1 : x->used > y->used;
}

size_t cookiejar_header(
    struct cookiejar *j, const struct cookie_origin *o, int64_t now_ms, struct buf *out)
{
	const char *dom = o->host;
	size_t n = 0, i, sent = 0;

	buf_reset(out);
	/* The host and each domain above it: every domain a cookie sent
	 * with this request may have been set for. */
	for (;;) {
		struct cookiejar_domain *d = cookiejar_domain(j, dom, 0);
		struct cookiejar_entry *e, *next;

		for (e = d != NULL ? d->list : NULL; e != NULL; e = next) {
			next = e->dom_next;
			if (cookie_expired(&e->c, now_ms)) {
				int last = d->n == 1;
				cookiejar_remove(j, e, 1);
				if (last)
					break;
				continue;
			}
			if (!cookie_matches(&e->c, o, now_ms))
				continue;
			if (n == j->scratch_cap) {
				j->scratch_cap = j->scratch_cap ? j->scratch_cap * 2 : 16;
				j->scratch =
				    xrealloc(j->scratch, j->scratch_cap * sizeof(*j->scratch));
			}
			j->scratch[n++] = e;
		}
		if (o->host_ip || (dom = strchr(dom, '.')) == NULL)
			break;
		dom++;
	}
	if (n > 1)
		qsort(j->scratch, n, sizeof(*j->scratch), cookiejar_order);
	for (i = 0; i < n; i++) {
		struct cookiejar_entry *e = j->scratch[i];
		size_t nl = strlen(e->c.name), vl = strlen(e->c.value);
		size_t add = nl + 1 + vl + (out->len > 0 ? 2 : 0);

		if (out->len + add > COOKIEJAR_MAX_HEADER)
			continue;
		if (out->len > 0)
			buf_append(out, "; ", 2);
		buf_append(out, e->c.name, nl);
		buf_appendc(out, '=');
		buf_append(out, e->c.value, vl);
		cookiejar_touch(j, e);
		sent++;
	}
	return sent;
}

uint64_t cookiejar_news(const struct cookiejar *j)
{
	return j->news;
}

size_t cookiejar_count(const struct cookiejar *j)
{
	return j->count;
}

size_t cookiejar_bytes(const struct cookiejar *j)
{
	return j->bytes;
}

void cookiejar_drain(struct cookiejar *j, cookiejar_change_fn *fn, void *arg)
{
	struct cookiejar_change *ch = j->changes, *next;

	j->changes = NULL;
	j->changes_tail = &j->changes;
	for (; ch != NULL; ch = next) {
		const char *dom = ch->key, *path = ch->key + ch->dl + 1;
		const char *name = path + ch->pl + 1;
		struct cookiejar_domain *d = cookiejar_domain(j, dom, 0);
		struct cookiejar_entry *e = d != NULL ? d->list : NULL;

		next = ch->next;
		for (; e != NULL; e = e->dom_next)
			if (strcmp(e->c.name, name) == 0 && strcmp(e->c.path, path) == 0)
				break;
		if (fn != NULL)
			fn(arg, dom, path, name, e != NULL ? &e->c : NULL);
		free(ch);
	}
}

void cookiejar_free(struct cookiejar *j)
{
	size_t i;

	if (j == NULL)
		return;
	cookiejar_drain(j, NULL, NULL);
	for (i = 0; i < j->cap; i++) {
		struct cookiejar_domain *d = j->tab[i], *dn;
		for (; d != NULL; d = dn) {
			struct cookiejar_entry *e = d->list, *en;
			dn = d->next;
			for (; e != NULL; e = en) {
				en = e->dom_next;
				cookie_clear(&e->c);
				free(e);
			}
			free(d->name);
			free(d);
		}
	}
	free(j->tab);
	free(j->scratch);
	free(j);
}
