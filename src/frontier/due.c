/* The revisit schedule: 'v' DUE ORD keys (keys.h) holding finished URIs of a
 * continuous crawl with their fetch history, read in key order, so the
 * earliest due is the first key. A URI is in exactly one place at a time:
 * queued ('u', in flight included) or waiting ('v'), moved between them
 * inside one write batch, so a crash can neither lose it from the cycle nor
 * duplicate it. Memory holds the earliest due time and a count. */
#include "frontier/due.h"
#include "frontier/enqueue.h"
#include "frontier/residency.h"
#include "frontier/store.h"
#include "lib/surt.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <string.h>

/* URIs read from the store per walk of the due keys. */
#define DUE_READ 256

void due_park(struct frontier *f, const struct curi *c, uint64_t due_ms)
{
	struct buf k = BUF_INIT;

	buf_reset(&f->v);
	keys_curi_encode(&f->v, c);
	keys_revisit(&k, due_ms, c->ordinal);
	store_put(f, &k, &f->v);
	buf_free(&k);
	f->c.revisits++;
	if (due_ms < f->due_next)
		f->due_next = due_ms;
	/* The walk must not read the store before this put is written. */
	f->due_unwritten = 1;
}

/* The first due time at or after the iterator's position, or UINT64_MAX. */
static uint64_t due_first(leveldb_iterator_t *it)
{
	uint64_t due, ord;
	const char *k;
	size_t kl;

	if (!leveldb_iter_valid(it))
		return UINT64_MAX;
	k = leveldb_iter_key(it, &kl);
	if (keys_revisit_parse(k, kl, &due, &ord) < 0)
		return UINT64_MAX;
	return due;
}

void due_load(struct frontier *f)
{
	leveldb_iterator_t *it = store_iter(f);
	const char start = KEYS_REVISIT;

	leveldb_iter_seek(it, &start, 1);
	f->due_next = due_first(it);
}

void due_flushed(struct frontier *f)
{
	f->due_taken = 0;
	f->due_unwritten = 0;
}

void due_release(struct frontier *f, uint64_t now)
{
	struct buf keys[DUE_READ], from = BUF_INIT;
	struct curi *cs[DUE_READ];
	leveldb_iterator_t *it;
	size_t n = 0, i;

	if (now < f->due_next || f->due_taken >= DUE_PER_FLUSH || f->error != NULL)
		return;
	/* Parks and releases since the last write are in the batch, which the
	 * walk cannot see: write it first. */
	if (f->due_unwritten && residency_write(f, NULL) < 0)
		return;
	it = store_iter(f);
	/* Every key before the earliest due time was released and deleted;
	 * LevelDB keeps them as tombstones until a compaction, and seeking to
	 * the start of the range would step over all of them each time. */
	keys_revisit(&from, f->due_next, 0);
	for (leveldb_iter_seek(it, from.data, from.len);
	     leveldb_iter_valid(it) && n < DUE_READ && f->due_taken + n < DUE_PER_FLUSH;
	     leveldb_iter_next(it)) {
		size_t kl, vl;
		const char *k = leveldb_iter_key(it, &kl);
		const char *v = leveldb_iter_value(it, &vl);
		uint64_t due, ord;

		if (keys_revisit_parse(k, kl, &due, &ord) < 0 || due > now)
			break;
		if (keys_curi_decode(v, vl, &cs[n]) < 0 || cs[n]->queue_key == NULL ||
		    !keys_qkey_valid(cs[n]->queue_key)) {
			curi_free(cs[n]);
			store_fail(f, "decoding a URI waiting for its revisit", NULL);
			break;
		}
		buf_init(&keys[n]);
		buf_append(&keys[n], k, kl);
		n++;
	}
	f->due_next = f->error == NULL ? due_first(it) : UINT64_MAX;
	buf_free(&from);
	/* Enqueueing reads queue records and may write nothing, but the
	 * iterator's view is not needed past this point either way. */
	for (i = 0; i < n; i++) {
		struct buf surt = BUF_INIT;

		/* The queue takes its settings from the URIs placed on it, so
		 * the URI's [override] key goes with it, as when scheduled. */
		if (surt_override_key(cs[i]->uri, &surt) < 0)
			buf_reset(&surt);
		if (f->error == NULL &&
		    enqueue_requeue(f, cs[i], surt.len ? surt.data : NULL) >= 0) {
			store_del(f, &keys[i]);
			f->c.revisits--;
			f->due_taken++;
		}
		buf_free(&surt);
		buf_free(&keys[i]);
		curi_free(cs[i]);
	}
	/* A walk stopped by DUE_READ or the cap left due_next at the next
	 * due URI, which is still due now. */
	f->due_unwritten = n > 0;
}

/* Calls cb for each record of the kind range starting with byte kind. */
static void due_walk_kind(struct frontier *f, char kind,
    void (*cb)(void *arg, const struct curi *c, int waiting), void *arg)
{
	leveldb_iterator_t *it = leveldb_create_iterator(f->db, f->ro);

	for (leveldb_iter_seek(it, &kind, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t kl, vl;
		const char *k = leveldb_iter_key(it, &kl);
		const char *v = leveldb_iter_value(it, &vl);
		struct curi *c;

		if (kl < 1 || k[0] != kind)
			break;
		if (keys_curi_decode(v, vl, &c) < 0)
			continue;
		cb(arg, c, kind == KEYS_REVISIT);
		curi_free(c);
	}
	leveldb_iter_destroy(it);
}

void due_walk(
    struct frontier *f, void (*cb)(void *arg, const struct curi *c, int waiting), void *arg)
{
	if (residency_write(f, NULL) < 0)
		return;
	due_walk_kind(f, KEYS_URI, cb, arg);
	due_walk_kind(f, KEYS_REVISIT, cb, arg);
}

struct frontier_uri_walk {
	struct buf cursor; /* the last key given, its kind byte first */
	uint64_t times[3], counts[3];
	size_t ntimes;
};

struct frontier_uri_walk *due_uri_walk_new(const uint64_t *times, size_t n)
{
	struct frontier_uri_walk *w = xcalloc(1, sizeof *w);

	buf_init(&w->cursor);
	w->ntimes = n < 3 ? n : 3;
	memcpy(w->times, times, w->ntimes * sizeof *times);
	return w;
}

void due_uri_walk_free(struct frontier_uri_walk *w)
{
	if (w == NULL)
		return;
	buf_free(&w->cursor);
	free(w);
}

void due_uri_walk_counts(const struct frontier_uri_walk *w, uint64_t *counts)
{
	for (size_t i = 0; i < w->ntimes; i++)
		counts[i] = w->counts[i] + (i > 0 ? counts[i - 1] : 0);
}

size_t due_uri_walk_step(struct frontier *f, struct frontier_uri_walk *w, size_t max,
    void (*cb)(void *arg, const struct curi *c, int waiting), void *arg, int *more)
{
	leveldb_iterator_t *it = leveldb_create_iterator(f->db, f->ro);
	char kind = w->cursor.len > 0 ? w->cursor.data[0] : KEYS_URI;
	size_t given = 0;

	*more = 0;
	if (w->cursor.len > 0)
		leveldb_iter_seek(it, w->cursor.data, w->cursor.len);
	else
		leveldb_iter_seek(it, &kind, 1);
	for (;;) {
		size_t kl, vl;
		const char *k, *v;
		struct curi *c;
		uint64_t due, ord;

		if (!leveldb_iter_valid(it) || (k = leveldb_iter_key(it, &kl), kl < 1) ||
		    k[0] != kind) {
			/* Queued URIs done: the waiting ones next. */
			if (kind == KEYS_URI) {
				kind = KEYS_REVISIT;
				leveldb_iter_seek(it, &kind, 1);
				continue;
			}
			break;
		}
		if (w->cursor.len == kl && memcmp(k, w->cursor.data, kl) == 0) {
			leveldb_iter_next(it);
			continue;
		}
		if (given == max) {
			*more = 1;
			break;
		}
		v = leveldb_iter_value(it, &vl);
		if (kind == KEYS_REVISIT && keys_revisit_parse(k, kl, &due, &ord) == 0) {
			size_t i = 0;
			while (i < w->ntimes && due >= w->times[i])
				i++;
			if (i < w->ntimes)
				w->counts[i]++;
		}
		if (keys_curi_decode(v, vl, &c) == 0) {
			cb(arg, c, kind == KEYS_REVISIT);
			curi_free(c);
		}
		buf_reset(&w->cursor);
		buf_append(&w->cursor, k, kl);
		given++;
		leveldb_iter_next(it);
	}
	leveldb_iter_destroy(it);
	return given;
}

void due_count_before(struct frontier *f, const uint64_t *times, uint64_t *counts, size_t n)
{
	leveldb_iterator_t *it;
	const char start = KEYS_REVISIT;
	size_t i = 0;

	memset(counts, 0, n * sizeof(*counts));
	if (n == 0 || (f->due_unwritten && residency_write(f, NULL) < 0))
		return;
	it = store_iter(f);
	for (leveldb_iter_seek(it, &start, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		uint64_t due, ord;
		size_t kl;
		const char *k = leveldb_iter_key(it, &kl);

		if (keys_revisit_parse(k, kl, &due, &ord) < 0)
			break;
		while (i < n && due >= times[i])
			i++;
		if (i == n)
			break;
		counts[i]++;
	}
	/* counts[i] holds those due in [times[i-1], times[i]): make them
	 * cumulative. */
	for (i = 1; i < n; i++)
		counts[i] += counts[i - 1];
}
