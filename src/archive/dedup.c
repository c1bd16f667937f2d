/* Digest index for URL-agnostic dedup. A WriteBatch cannot be read back, so
 * the entries recorded since the last flush are also kept in a small hash
 * table that dedup_check consults before LevelDB. With dedup_hold_new, an
 * entry waits in that table, answering checks, until dedup_commit puts it
 * in the batch: the WARC pool commits an entry once its capture's records
 * are queued, so that the index never names a record a kill could lose. */
#include <stdlib.h>
#include <string.h>
#include <leveldb/c.h>
#include "archive/dedup.h"
#include "lib/xmalloc.h"

#define DEDUP_PREFIX "dedup:"
#define DEDUP_EMPTY "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"

struct dedup_entry {
	struct dedup_entry *next;
	char *digest;
	char *value; /* "DATE URI" */
	int held;    /* not in the batch yet (dedup_commit) */
};

struct dedup {
	leveldb_t *db;
	leveldb_readoptions_t *ropt;
	leveldb_writeoptions_t *wopt;
	leveldb_writebatch_t *batch;
	struct dedup_entry **slots;
	size_t nslots;
	size_t count;	/* entries in the table */
	size_t batched; /* of which in the batch */
	int hold_new;	/* dedup_hold_new */
};

static size_t dedup_hash(const char *s)
{
	size_t h = 1469598103934665603u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static void dedup_grow(struct dedup *d)
{
	size_t n = d->nslots * 2;
	struct dedup_entry **slots = xcalloc(n, sizeof *slots);

	for (size_t i = 0; i < d->nslots; i++) {
		struct dedup_entry *e = d->slots[i], *next;
		for (; e != NULL; e = next) {
			size_t k = dedup_hash(e->digest) & (n - 1);
			next = e->next;
			e->next = slots[k];
			slots[k] = e;
		}
	}
	free(d->slots);
	d->slots = slots;
	d->nslots = n;
}

/* Drops the entries written (all with every), keeping held ones. */
static void dedup_clear(struct dedup *d, int every)
{
	for (size_t i = 0; i < d->nslots; i++) {
		struct dedup_entry **pe = &d->slots[i], *e;
		while ((e = *pe) != NULL) {
			if (e->held && !every) {
				pe = &e->next;
				continue;
			}
			*pe = e->next;
			free(e->digest);
			free(e->value);
			free(e);
			d->count--;
		}
	}
	d->batched = 0;
}

static void dedup_batch_put(struct dedup *d, struct dedup_entry *e)
{
	char *key = xasprintf(DEDUP_PREFIX "%s", e->digest);

	leveldb_writebatch_put(d->batch, key, strlen(key), e->value, strlen(e->value));
	free(key);
	e->held = 0;
	d->batched++;
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
	return d;
}

int dedup_check(struct dedup *d, const char *digest, const char *uri, const char *date,
    struct buf *refers_uri, struct buf *refers_date)
{
	size_t k = dedup_hash(digest) & (d->nslots - 1);
	struct dedup_entry *e;
	char *key, *val, *lerr = NULL;
	size_t vlen = 0;

	if (strcmp(digest, DEDUP_EMPTY) == 0)
		return 0;
	for (e = d->slots[k]; e != NULL; e = e->next)
		if (strcmp(e->digest, digest) == 0) {
			dedup_split(e->value, strlen(e->value), refers_uri, refers_date);
			return 1;
		}
	key = xasprintf(DEDUP_PREFIX "%s", digest);
	val = leveldb_get(d->db, d->ropt, key, strlen(key), &vlen, &lerr);
	if (lerr != NULL) {
		leveldb_free(lerr);
		free(key);
		return -1;
	}
	if (val != NULL) {
		dedup_split(val, vlen, refers_uri, refers_date);
		leveldb_free(val);
		free(key);
		return 1;
	}
	free(key);
	e = xmalloc(sizeof *e);
	e->digest = xstrdup(digest);
	e->value = xasprintf("%s %s", date, uri);
	e->held = 1;
	e->next = d->slots[k];
	d->slots[k] = e;
	if (!d->hold_new)
		dedup_batch_put(d, e);
	if (++d->count > d->nslots)
		dedup_grow(d);
	return 0;
}

void dedup_hold_new(struct dedup *d)
{
	d->hold_new = 1;
}

void dedup_commit(struct dedup *d, const char *digest)
{
	struct dedup_entry *e = d->slots[dedup_hash(digest) & (d->nslots - 1)];

	for (; e != NULL; e = e->next)
		if (strcmp(e->digest, digest) == 0) {
			if (e->held)
				dedup_batch_put(d, e);
			return;
		}
}

void dedup_forget(struct dedup *d, const char *digest)
{
	struct dedup_entry **pe = &d->slots[dedup_hash(digest) & (d->nslots - 1)], *e;

	for (; (e = *pe) != NULL; pe = &e->next)
		if (strcmp(e->digest, digest) == 0) {
			if (!e->held)
				return;
			*pe = e->next;
			free(e->digest);
			free(e->value);
			free(e);
			d->count--;
			return;
		}
}

int dedup_flush(struct dedup *d, char **err)
{
	char *lerr = NULL;

	if (d->batched == 0)
		return 0;
	leveldb_write(d->db, d->wopt, d->batch, &lerr);
	if (lerr != NULL) {
		*err = xasprintf("dedup index write: %s", lerr);
		leveldb_free(lerr);
		return -1;
	}
	leveldb_writebatch_clear(d->batch);
	dedup_clear(d, 0);
	return 0;
}

size_t dedup_pending(const struct dedup *d)
{
	return d->batched;
}

void dedup_free(struct dedup *d)
{
	if (d == NULL)
		return;
	dedup_clear(d, 1);
	free(d->slots);
	leveldb_writebatch_destroy(d->batch);
	leveldb_readoptions_destroy(d->ropt);
	leveldb_writeoptions_destroy(d->wopt);
	free(d);
}
