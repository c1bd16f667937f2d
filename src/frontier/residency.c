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
#include "lib/xmalloc.h"

#define RESIDENCY_COLD offsetof(struct wq, cold)

void
residency_cold_add(struct frontier *f, struct wq *q)
{
	if (!q->on_cold) {
		wq_list_append(&f->cold, q, RESIDENCY_COLD);
		q->on_cold = 1;
	}
}

void
residency_cold_del(struct frontier *f, struct wq *q)
{
	if (q->on_cold) {
		wq_list_unlink(&f->cold, q, RESIDENCY_COLD);
		q->on_cold = 0;
	}
}

/* Evicts clean cold queues beyond the cap, oldest first. Only called right
 * after a write, when every queue is clean. */
static void
residency_evict(struct frontier *f)
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
struct wq *
residency_get(struct frontier *f, const char *key, int create)
{
	struct wq *q = wq_table_get(f->queues, key);
	char *v;
	size_t vlen;

	if (q != NULL) {
		if (q->on_cold) {
			residency_cold_del(f, q);
			residency_cold_add(f, q);
		}
		return q;
	}
	buf_reset(&f->k);
	keys_queue(&f->k, key);
	if (store_get(f, &f->k, &v, &vlen, "reading queue metadata") < 0)
		return NULL;
	if (v == NULL && !create)
		return NULL;
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
	}
	wq_table_put(f->queues, q);
	residency_cold_add(f, q);
	return q;
}

int
residency_write(struct frontier *f, char **err)
{
	if (store_write(f, err) < 0)
		return -1;
	residency_evict(f);
	return 0;
}
