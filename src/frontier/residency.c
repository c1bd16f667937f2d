/* Queue residency: which queues are in memory. The working set (READY,
 * IN-PROCESS, SNOOZED) always is; other queues stay resident on the cold
 * list, most recently touched last, and are evicted oldest first beyond
 * frontier_options.cold_queues.
 *
 * Invariant: the store holds the current metadata of every queue that is not
 * resident, because a queue is only evicted right after a write: every write
 * goes through residency_write. */
#include "frontier/residency.h"
#include "frontier/ahead.h"
#include "frontier/store.h"
#include "frontier/bloom.h"
#include "frontier/keyscan.h"
#include "frontier/urlset.h"
#include "lib/hash.h"
#include "lib/xmalloc.h"
#include <assert.h>

#define RESIDENCY_COLD offsetof(struct wq, cold)

void residency_cold_add(struct frontier *f, struct wq *q)
{
	if (!q->on_cold) {
		wq_list_append(&f->cold, q, RESIDENCY_COLD);
		q->on_cold = 1;
	}
}

void residency_cold_del(struct frontier *f, struct wq *q)
{
	if (q->on_cold) {
		wq_list_unlink(&f->cold, q, RESIDENCY_COLD);
		q->on_cold = 0;
	}
}

/* Evicts clean cold queues beyond the cap, oldest first. Only called right
 * after a write, when every queue is clean. */
static void residency_evict(struct frontier *f)
{
	struct wq *q;

	while (f->cold.n > f->o.cold_queues && (q = f->cold.head) != NULL) {
		if (q->dirty || q->out)
			break;
		residency_cold_del(f, q);
		wq_table_remove(f->queues, q);
		ahead_drop(f, q);
		wq_free(q);
	}
}

/* The resident queue for key, loading its metadata from the store, or
 * creating it when create is set; NULL if absent (or on a store error). */
struct wq *residency_get(struct frontier *f, const char *key, int create)
{
	struct wq *q = wq_table_get(f->queues, key);
	char *v;
	size_t vlen;
	uint64_t h;

	if (q != NULL) {
		if (q->on_cold) {
			residency_cold_del(f, q);
			residency_cold_add(f, q);
		}
		return q;
	}
	h = hash_bytes(key, strlen(key));
	if (f->qload_it == NULL && !bloom_test(f->queue_keys, h)) {
		/* A queue never created: nothing to read. With a crawl's
		 * hosts far more than the resident queues, a link to a new
		 * host would otherwise cost a store miss (and LevelDB
		 * compacts files that take many misses). */
		if (!create)
			return NULL;
		v = NULL;
	} else {
		buf_reset(&f->k);
		keys_queue(&f->k, key);
		if (store_get(f, &f->k, &v, &vlen, "reading queue metadata") < 0)
			return NULL;
		if (v == NULL && !create)
			return NULL;
	}
	q = wq_new(key);
	q->s_gen = f->settings_gen - 1;
	if (v != NULL) {
		int r = keys_qmeta_decode(v, vlen, &q->m);

		leveldb_free(v);
		if (r < 0) {
			store_fail(f, "decoding queue metadata", NULL);
			wq_free(q);
			return NULL;
		}
	} else {
		q->m.state = WQ_NONE;
		f->c.queues_total++;
		store_dirty(f, q);
		bloom_add(f->queue_keys, h);
	}
	wq_table_put(f->queues, q);
	residency_cold_add(f, q);
	return q;
}

/* Queue keys read at open and per flush (residency_load_batches): a store of
 * 5M queues took ~1.5 s to read whole, most of a resume's wait at 100M
 * URIs (doc/performance.md). */
static size_t residency_load_open = 256u << 10, residency_load_step = 32u << 10;

void residency_load_batches(size_t at_open, size_t per_flush)
{
	residency_load_open = at_open > 0 ? at_open : 256u << 10;
	residency_load_step = per_flush > 0 ? per_flush : 32u << 10;
}

/* A queue key read from the store into the filter. Queues created since
 * the load began are in the filter already. */
static void residency_load_key(void *arg, const char *key, size_t len)
{
	struct frontier *f = arg;

	bloom_add(f->queue_keys, hash_bytes(key, len));
}

int residency_load(struct frontier *f, char **err)
{
	assert(f->qload_it == NULL);
	f->qload_it = keyscan_start(f->db, f->ro, KEYS_QUEUE);
	return keyscan_step(&f->qload_it, KEYS_QUEUE, residency_load_open, residency_load_key, f,
	    "loading the queue keys", err);
}

int residency_load_more(struct frontier *f, char **err)
{
	if (f->qload_it == NULL)
		return 0;
	return keyscan_step(&f->qload_it, KEYS_QUEUE, residency_load_step, residency_load_key, f,
	    "loading the queue keys", err);
}

void residency_load_stop(struct frontier *f)
{
	if (f->qload_it != NULL) {
		leveldb_iter_destroy(f->qload_it);
		f->qload_it = NULL;
	}
}

int residency_write(struct frontier *f, char **err)
{
	if (store_write(f, err) < 0)
		return -1;
	residency_evict(f);
	return 0;
}
