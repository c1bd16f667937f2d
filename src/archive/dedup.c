/* Digest index for URL-agnostic dedup. A WriteBatch cannot be read back, so
 * the entries recorded since the last flush are also kept in a small hash
 * table that dedup_check consults before LevelDB. With dedup_hold_new, an
 * entry waits in that table, answering checks, until dedup_commit puts it
 * in the batch: the WARC pool commits an entry once its capture's records
 * are queued, so that the index never names a record a kill could lose.
 *
 * In front of LevelDB, so that a check seldom reads it: the same table
 * keeps the most recently used entries once written (the style sheet every
 * page of a site shares is answered from memory), and a filter of every
 * digest in the index (dedup_set_filter) proves most new digests new, the
 * common case, without a read. Both only spare reads: a digest the filter
 * may hold is still read, so the answers are those of the index. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <leveldb/c.h>
#include "archive/dedup.h"
#include "lib/xmalloc.h"

#define DEDUP_PREFIX "dedup:"
#define DEDUP_EMPTY "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"
/* Written entries kept in memory, least recently used dropped first: about
 * 200 bytes each. */
#define DEDUP_RECENT 8192

/* Keys read into the filter when it is set, then at each flush until all
 * are (a resumed crawl's index may hold millions: its first fetch does not
 * wait for all of them). */
static size_t dedup_load_open = 256u << 10, dedup_load_step = 32u << 10;

void dedup_load_batches(size_t at_open, size_t per_flush)
{
	dedup_load_open = at_open > 0 ? at_open : 256u << 10;
	dedup_load_step = per_flush > 0 ? per_flush : 32u << 10;
}

enum dedup_state {
	DEDUP_HELD,    /* not in the batch yet (dedup_commit) */
	DEDUP_BATCHED, /* in the batch, not yet written */
	DEDUP_WRITTEN  /* in the store; on the recent list */
};

struct dedup_entry {
	struct dedup_entry *next;	   /* the hash chain */
	struct dedup_entry *older, *newer; /* DEDUP_WRITTEN: the recent list */
	struct dedup_entry *batch_next;	   /* DEDUP_BATCHED: the batch's entries */
	size_t hash;
	enum dedup_state state;
	char *digest;
	char *value; /* "DATE URI" */
};

struct dedup {
	leveldb_t *db;
	leveldb_readoptions_t *ropt;
	leveldb_writeoptions_t *wopt;
	leveldb_writebatch_t *batch;
	struct dedup_entry **slots;
	size_t nslots;
	size_t count;			 /* entries in the table */
	size_t batched;			 /* of which in the batch */
	struct dedup_entry *batch_first; /* those, newest first */
	struct dedup_entry *oldest, *newest;
	size_t written; /* on the recent list */
	int hold_new;	/* dedup_hold_new */
	struct buf key;
	struct dedup_filter filter;
	int filtered;		      /* a filter is set */
	leveldb_iterator_t *load_it;  /* reading the store's digests into it */
	leveldb_readoptions_t *lropt; /* the load's: it fills no cache */
	struct dedup_stats st;
};

static size_t dedup_hash(const char *s)
{
	size_t h = 1469598103934665603u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The filter's hash: the table's, its bits mixed (splitmix64's finalizer),
 * since the filter takes its block and its probes from different halves. */
static uint64_t dedup_filter_hash(size_t h)
{
	uint64_t x = h;

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static void dedup_grow(struct dedup *d)
{
	size_t n = d->nslots * 2;
	struct dedup_entry **slots = xcalloc(n, sizeof *slots);

	for (size_t i = 0; i < d->nslots; i++) {
		struct dedup_entry *e = d->slots[i], *next;
		for (; e != NULL; e = next) {
			size_t k = e->hash & (n - 1);
			next = e->next;
			e->next = slots[k];
			slots[k] = e;
		}
	}
	free(d->slots);
	d->slots = slots;
	d->nslots = n;
}

static struct dedup_entry *dedup_find(const struct dedup *d, const char *digest, size_t h)
{
	struct dedup_entry *e = d->slots[h & (d->nslots - 1)];

	for (; e != NULL; e = e->next)
		if (e->hash == h && strcmp(e->digest, digest) == 0)
			return e;
	return NULL;
}

static struct dedup_entry *dedup_insert(
    struct dedup *d, const char *digest, size_t h, char *value, enum dedup_state state)
{
	struct dedup_entry *e = xcalloc(1, sizeof *e);
	size_t k = h & (d->nslots - 1);

	e->hash = h;
	e->state = state;
	e->digest = xstrdup(digest);
	e->value = value;
	e->next = d->slots[k];
	d->slots[k] = e;
	if (++d->count > d->nslots)
		dedup_grow(d);
	return e;
}

/* Takes e out of the table and frees it (not an entry of the batch). */
static void dedup_remove(struct dedup *d, struct dedup_entry *e)
{
	struct dedup_entry **pe = &d->slots[e->hash & (d->nslots - 1)];

	while (*pe != e)
		pe = &(*pe)->next;
	*pe = e->next;
	if (e->state == DEDUP_WRITTEN) {
		if (e->older != NULL)
			e->older->newer = e->newer;
		else
			d->oldest = e->newer;
		if (e->newer != NULL)
			e->newer->older = e->older;
		else
			d->newest = e->older;
		d->written--;
	}
	free(e->digest);
	free(e->value);
	free(e);
	d->count--;
}

/* e joins the recent list as its newest; the least recently used go past
 * DEDUP_RECENT. */
static void dedup_recent_add(struct dedup *d, struct dedup_entry *e)
{
	e->state = DEDUP_WRITTEN;
	e->newer = NULL;
	e->older = d->newest;
	if (d->newest != NULL)
		d->newest->newer = e;
	else
		d->oldest = e;
	d->newest = e;
	d->written++;
	while (d->written > DEDUP_RECENT)
		dedup_remove(d, d->oldest);
}

static void dedup_recent_touch(struct dedup *d, struct dedup_entry *e)
{
	if (e == d->newest)
		return;
	if (e->older != NULL)
		e->older->newer = e->newer;
	else
		d->oldest = e->newer;
	e->newer->older = e->older;
	e->older = d->newest;
	e->newer = NULL;
	d->newest->newer = e;
	d->newest = e;
}

static void dedup_key(struct dedup *d, const char *digest)
{
	buf_reset(&d->key);
	buf_append(&d->key, DEDUP_PREFIX, sizeof DEDUP_PREFIX - 1);
	buf_appends(&d->key, digest);
}

static void dedup_batch_put(struct dedup *d, struct dedup_entry *e)
{
	dedup_key(d, e->digest);
	leveldb_writebatch_put(d->batch, d->key.data, d->key.len, e->value, strlen(e->value));
	e->state = DEDUP_BATCHED;
	e->batch_next = d->batch_first;
	d->batch_first = e;
	d->batched++;
}

/* "DATE URI", joined without printf's cost (a new entry per new page). */
static char *dedup_value(const char *date, const char *uri)
{
	size_t dl = strlen(date), ul = strlen(uri);
	char *v = xmalloc(dl + ul + 2);

	memcpy(v, date, dl);
	v[dl] = ' ';
	memcpy(v + dl + 1, uri, ul + 1);
	return v;
}

/* Splits "DATE URI" into the two buffers. */
static void dedup_split(const char *v, size_t len, struct buf *uri, struct buf *date)
{
	const char *sp = memchr(v, ' ', len);
	size_t dl = sp != NULL ? (size_t)(sp - v) : len;

	buf_reset(date);
	buf_append(date, v, dl);
	buf_reset(uri);
	if (sp != NULL)
		buf_append(uri, sp + 1, len - dl - 1);
}

struct dedup *dedup_open(void *leveldb_db, char **err)
{
	struct dedup *d;

	if (leveldb_db == NULL) {
		*err = xstrdup("dedup: no LevelDB handle");
		return NULL;
	}
	d = xcalloc(1, sizeof *d);
	d->db = leveldb_db;
	d->ropt = leveldb_readoptions_create();
	d->wopt = leveldb_writeoptions_create();
	d->batch = leveldb_writebatch_create();
	d->nslots = 64;
	d->slots = xcalloc(d->nslots, sizeof *d->slots);
	buf_init(&d->key);
	return d;
}

/* Reads up to n more of the store's digests into the filter; ends the load
 * at the last. Entries recorded since the load began are not in the
 * iterator's view, but dedup_check put them in the filter already. */
static int dedup_load(struct dedup *d, size_t n, char **err)
{
	leveldb_iterator_t *it = d->load_it;
	const size_t pl = sizeof DEDUP_PREFIX - 1;
	char *lerr = NULL;
	size_t i;

	for (i = 0; i < n && leveldb_iter_valid(it); i++, leveldb_iter_next(it)) {
		size_t kl;
		const char *k = leveldb_iter_key(it, &kl);

		if (kl < pl || memcmp(k, DEDUP_PREFIX, pl) != 0)
			break;
		buf_reset(&d->key);
		buf_append(&d->key, k + pl, kl - pl);
		d->filter.add(d->filter.arg, dedup_filter_hash(dedup_hash(d->key.data)));
		d->st.loaded++;
	}
	if (i == n && leveldb_iter_valid(it))
		return 0;
	leveldb_iter_get_error(it, &lerr);
	leveldb_iter_destroy(it);
	d->load_it = NULL;
	if (lerr != NULL) {
		/* The filter cannot prove anything new: every check reads. */
		d->filtered = 0;
		*err = xasprintf("dedup index: reading its digests: %s", lerr);
		leveldb_free(lerr);
		return -1;
	}
	return 0;
}

int dedup_set_filter(struct dedup *d, const struct dedup_filter *f, char **err)
{
	assert(!d->filtered);
	d->filter = *f;
	d->filtered = 1;
	d->lropt = leveldb_readoptions_create();
	/* A scan of the whole index would push out the frontier's blocks. */
	leveldb_readoptions_set_fill_cache(d->lropt, 0);
	d->load_it = leveldb_create_iterator(d->db, d->lropt);
	leveldb_iter_seek(d->load_it, DEDUP_PREFIX, sizeof DEDUP_PREFIX - 1);
	return dedup_load(d, dedup_load_open, err);
}

int dedup_check(struct dedup *d, const char *digest, const char *uri, const char *date,
    struct buf *refers_uri, struct buf *refers_date)
{
	size_t h, vlen = 0;
	uint64_t fh;
	struct dedup_entry *e;
	char *val, *lerr = NULL;

	if (strcmp(digest, DEDUP_EMPTY) == 0)
		return 0;
	h = dedup_hash(digest);
	if ((e = dedup_find(d, digest, h)) != NULL) {
		if (e->state == DEDUP_WRITTEN)
			dedup_recent_touch(d, e);
		dedup_split(e->value, strlen(e->value), refers_uri, refers_date);
		d->st.memory_hits++;
		return 1;
	}
	fh = dedup_filter_hash(h);
	if (d->filtered && d->load_it == NULL && !d->filter.test(d->filter.arg, fh)) {
		d->st.filtered++;
	} else {
		dedup_key(d, digest);
		d->st.reads++;
		val = leveldb_get(d->db, d->ropt, d->key.data, d->key.len, &vlen, &lerr);
		if (lerr != NULL) {
			leveldb_free(lerr);
			return -1;
		}
		if (val != NULL) {
			char *v = xmalloc(vlen + 1);

			memcpy(v, val, vlen);
			v[vlen] = '\0';
			leveldb_free(val);
			dedup_recent_add(d, dedup_insert(d, digest, h, v, DEDUP_WRITTEN));
			dedup_split(v, vlen, refers_uri, refers_date);
			return 1;
		}
	}
	e = dedup_insert(d, digest, h, dedup_value(date, uri), DEDUP_HELD);
	if (d->filtered)
		d->filter.add(d->filter.arg, fh);
	if (!d->hold_new)
		dedup_batch_put(d, e);
	return 0;
}

void dedup_hold_new(struct dedup *d)
{
	d->hold_new = 1;
}

void dedup_commit(struct dedup *d, const char *digest)
{
	struct dedup_entry *e = dedup_find(d, digest, dedup_hash(digest));

	if (e != NULL && e->state == DEDUP_HELD)
		dedup_batch_put(d, e);
}

void dedup_forget(struct dedup *d, const char *digest)
{
	struct dedup_entry *e = dedup_find(d, digest, dedup_hash(digest));

	/* The filter keeps it: a false positive costs a read, no more. */
	if (e != NULL && e->state == DEDUP_HELD)
		dedup_remove(d, e);
}

void *dedup_batch(struct dedup *d)
{
	return d->batched > 0 ? d->batch : NULL;
}

void dedup_written(struct dedup *d)
{
	struct dedup_entry *e, *next;

	leveldb_writebatch_clear(d->batch);
	/* Oldest first, so that the recent list keeps their order. */
	for (e = d->batch_first, d->batch_first = NULL; e != NULL; e = next) {
		next = e->batch_next;
		e->batch_next = d->batch_first;
		d->batch_first = e;
	}
	for (e = d->batch_first; e != NULL; e = next) {
		next = e->batch_next;
		e->batch_next = NULL;
		dedup_recent_add(d, e);
	}
	d->batch_first = NULL;
	d->batched = 0;
}

int dedup_flush(struct dedup *d, char **err)
{
	char *lerr = NULL;

	if (d->load_it != NULL && dedup_load(d, dedup_load_step, err) < 0)
		return -1;
	if (d->batched == 0)
		return 0;
	leveldb_write(d->db, d->wopt, d->batch, &lerr);
	if (lerr != NULL) {
		*err = xasprintf("dedup index write: %s", lerr);
		leveldb_free(lerr);
		return -1;
	}
	dedup_written(d);
	return 0;
}

size_t dedup_pending(const struct dedup *d)
{
	return d->batched;
}

void dedup_get_stats(const struct dedup *d, struct dedup_stats *out)
{
	*out = d->st;
	out->memory_entries = d->count;
}

void dedup_free(struct dedup *d)
{
	if (d == NULL)
		return;
	for (size_t i = 0; i < d->nslots; i++) {
		struct dedup_entry *e, *next;
		for (e = d->slots[i]; e != NULL; e = next) {
			next = e->next;
			free(e->digest);
			free(e->value);
			free(e);
		}
	}
	free(d->slots);
	if (d->load_it != NULL)
		leveldb_iter_destroy(d->load_it);
	if (d->lropt != NULL)
		leveldb_readoptions_destroy(d->lropt);
	buf_free(&d->key);
	leveldb_writebatch_destroy(d->batch);
	leveldb_readoptions_destroy(d->ropt);
	leveldb_writeoptions_destroy(d->wopt);
	free(d);
}
