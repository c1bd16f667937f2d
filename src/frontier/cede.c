/* Giving URIs up to the cluster (cede.h). */
#include <stdlib.h>
#include <string.h>

#include "frontier/cede.h"
#include "frontier/ahead.h"
#include "frontier/due.h"
#include "frontier/enqueue.h"
#include "frontier/qstate.h"
#include "frontier/residency.h"
#include "frontier/store.h"
#include "lib/history.h"
#include "lib/xmalloc.h"

int cede_mark_seen(struct frontier *f, const char *canon)
{
	char *err = NULL;
	int r = seen_add(f->seen, canon, f->wb, &err);

	if (r < 0) {
		store_fail(f, "marking a URI seen", NULL);
		free(err);
		return -1;
	}
	if (r == 1) {
		f->wb_ops++;
		f->c.discovered++;
	}
	return 0;
}

/* Deletes every URI key of queue q (in the batch), in each of its time
 * segments; the count deleted, and the head bound set past the last one in
 * the queue's order (the tombstones LevelDB keeps until compaction are not
 * stepped over by the queue's next head seek). */
static uint64_t cede_delete_uris(struct frontier *f, struct wq *q, leveldb_iterator_t *it)
{
	struct buf prefix = BUF_INIT;
	uint64_t n = 0, bo = 0;
	int bd = 0, bp = 0;
	size_t s;

	/* Nothing read ahead of need may be handed out after this. */
	ahead_drop(f, q);
	for (s = 0; s < q->m.nsegs; s++) {
		buf_reset(&prefix);
		keys_uri_prefix(&prefix, q->m.segs[s], q->key);
		for (leveldb_iter_seek(it, prefix.data, prefix.len); leveldb_iter_valid(it);
		     leveldb_iter_next(it)) {
			size_t klen, ql;
			const char *k = leveldb_iter_key(it, &klen), *qk;
			struct buf key;
			int dir, prec;
			uint64_t ord;
			if (klen < prefix.len || memcmp(k, prefix.data, prefix.len) != 0)
				break;
			key.data = (char *)k;
			key.len = klen;
			store_del(f, &key);
			if (keys_uri_parse(k, klen, &qk, &ql, &dir, &prec, &ord) == 0 &&
			    (bo == 0 || dir > bd ||
				(dir == bd && (prec > bp || (prec == bp && ord > bo))))) {
				bd = dir;
				bp = prec;
				bo = ord;
			}
			n++;
		}
	}
	if (bo > 0) {
		q->m.head_dir = bd;
		q->m.head_prec = bp;
		q->m.head_ord = bo;
		q->m.head_live = 0;
	}
	q->m.nsegs = 0;
	buf_free(&prefix);
	return n;
}

/* Deletes every URI waiting for its revisit that match accepts (in the
 * batch); the count. The earliest due time may now be early: the next walk
 * of the schedule finds nothing due then and moves it on. */
static long cede_drop_waiting(
    struct frontier *f, leveldb_iterator_t *it, int (*match)(void *ctx, const char *uri), void *ctx)
{
	const char start = KEYS_REVISIT;
	long n = 0;

	for (leveldb_iter_seek(it, &start, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t klen, vlen;
		const char *k = leveldb_iter_key(it, &klen), *v;
		struct curi *c;
		struct buf key;
		if (klen < 1 || k[0] != KEYS_REVISIT)
			break;
		v = leveldb_iter_value(it, &vlen);
		if (keys_curi_decode(v, vlen, &c) < 0)
			continue;
		if (match(ctx, c->uri)) {
			key.data = (char *)k;
			key.len = klen;
			store_del(f, &key);
			f->c.revisits--;
			n++;
		}
		curi_free(c);
	}
	return n;
}

long cede_drop_where(
    struct frontier *f, int (*match)(void *ctx, const char *uri), void *ctx, char **err)
{
	leveldb_iterator_t *it;
	char **keys = NULL;
	size_t nkeys = 0, cap = 0, i;
	long dropped = 0;
	char qprefix = KEYS_QUEUE;

	/* The store holds every queue's current metadata after a write. */
	if (f->nheld > 0)
		enqueue_resolve_held(f);
	if (residency_write(f, err) < 0)
		return -1;
	it = leveldb_create_iterator(f->db, f->ro);
	for (leveldb_iter_seek(it, &qprefix, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t klen, vlen;
		const char *k = leveldb_iter_key(it, &klen), *v;
		struct keys_qmeta m;
		if (klen < 1 || k[0] != KEYS_QUEUE)
			break;
		v = leveldb_iter_value(it, &vlen);
		memset(&m, 0, sizeof m);
		if (keys_qmeta_decode(v, vlen, &m) < 0)
			continue;
		/* A queue's URIs share its host: the last one placed names
		 * its partition. */
		if (m.count > 0 && m.last_queued != NULL && match(ctx, m.last_queued)) {
			if (nkeys == cap) {
				cap = cap ? cap * 2 : 64;
				keys = xrealloc(keys, cap * sizeof *keys);
			}
			keys[nkeys++] = xstrndup(k + 1, klen - 1);
		}
		keys_qmeta_clear(&m);
	}
	for (i = 0; i < nkeys; i++) {
		struct wq *q = residency_get(f, keys[i], 0);
		uint64_t n;
		if (q == NULL || q->out)
			continue;
		qstate_set(f, q, WQ_EXHAUSTED);
		n = cede_delete_uris(f, q, it);
		f->c.queued -= q->m.count;
		q->m.count = 0;
		q->m.nhist = 0;
		memset(q->m.dir_count, 0, sizeof(q->m.dir_count));
		store_dirty(f, q);
		dropped += (long)n;
	}
	dropped += cede_drop_waiting(f, it, match, ctx);
	leveldb_iter_destroy(it);
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	if (f->error != NULL) {
		*err = xstrdup(f->error);
		return -1;
	}
	if (residency_write(f, err) < 0)
		return -1;
	return dropped;
}

long cede_forget_seen(struct frontier *f, char **err)
{
	leveldb_iterator_t *it;
	const char start = KEYS_SEEN;
	char *lerr = NULL;
	long n = 0;

	if (f->nheld > 0)
		enqueue_resolve_held(f);
	if (residency_write(f, err) < 0)
		return -1;
	it = leveldb_create_iterator(f->db, f->ro);
	for (leveldb_iter_seek(it, &start, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t klen;
		const char *k = leveldb_iter_key(it, &klen);
		struct buf key;
		if (klen < 1 || k[0] != KEYS_SEEN)
			break;
		key.data = (char *)k;
		key.len = klen;
		store_del(f, &key);
		n++;
		/* Bounded batches: a store may have seen millions. */
		if (f->wb_ops >= 65536 && residency_write(f, err) < 0)
			break;
	}
	leveldb_iter_get_error(it, &lerr);
	leveldb_iter_destroy(it);
	if (lerr != NULL) {
		free(*err);
		*err = xasprintf("forgetting the seen set: %s", lerr);
		leveldb_free(lerr);
		return -1;
	}
	if (f->error != NULL || residency_write(f, err) < 0) {
		if (*err == NULL)
			*err = xstrdup(f->error);
		return -1;
	}
	seen_free(f->seen);
	f->seen = seen_new(f->db, f->o.seen_memory, f->o.seen_bloom_bits);
	return n;
}

void cede_revisit_encode(const struct curi *c, struct buf *out)
{
	struct curi copy = *c;

	/* Queue keys are each node's own work (frontier.parallel-queues may
	 * differ by site, and a node sets its queue-assignment). */
	copy.queue_key = NULL;
	keys_curi_encode(out, &copy);
}

int cede_revisit_decode(const unsigned char *v, size_t n, struct curi **out)
{
	struct curi *c;

	*out = NULL;
	if (keys_curi_decode((const char *)v, n, &c) < 0)
		return -1;
	if (c->history == NULL || c->queue_key != NULL || c->history->due_ms < 0) {
		curi_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

int cede_wait_revisit(struct frontier *f, struct curi *c, const char *canon, const char *queue_key)
{
	if (f->error != NULL || cede_mark_seen(f, canon) < 0)
		return -1;
	free(c->queue_key);
	c->queue_key = xstrdup(queue_key);
	c->ordinal = ++f->c.next_ordinal;
	due_park(f, c, c->history->due_ms > 0 ? (uint64_t)c->history->due_ms : 1);
	return 0;
}
