/* The frontier: queue state machine and scheduling over the LevelDB store.
 *
 * Memory holds only the working set (READY, IN-PROCESS and SNOOZED queues),
 * a bounded number of recently touched other queues (the cold list, evicted
 * right after their metadata is written), the counters and the seen set's
 * filters. Inactive queues are found through the store's 'i' keys, read a
 * bounded batch at a time (the refill); retired ones through its 'r' keys.
 *
 * Invariant: the store holds the current metadata of every queue that is not
 * resident, because a queue is only evicted right after a write. Resident
 * queues may be newer than the store (dirty) until the next flush. Reading
 * URI or inactive keys first writes the pending batch when it could hold
 * changes to what is read, so reads never see stale data. */
#include "frontier/frontier.h"
#include "lib/keys.h"
#include "frontier/seen.h"
#include "lib/wheel.h"
#include "frontier/wq.h"
#include "lib/xmalloc.h"
#include <errno.h>
#include <leveldb/c.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Inactive keys read from the store per refill. */
#define FRONTIER_PREFETCH 64
/* Queue polls and activations per frontier_next call: bounds one wakeup. */
#define FRONTIER_POLLS 256
/* Discovered URIs whose seen test needs the store wait, at most this many,
 * for one sorted check at the next flush (seen.h). */
#define FRONTIER_HELD 4096

/* A held URI: what frontier_schedule was given, copied into one block. */
struct frontier_held {
	struct curi c;
	const char *canon, *queue_key, *surt;
	unsigned char fresh;    /* judged new by frontier_resolve_held */
};

struct frontier_pre {
	char *key;
	int prec;
	uint64_t seq;
};

struct frontier {
	char *dir;
	leveldb_t *db;
	leveldb_options_t *lopt;
	leveldb_cache_t *cache;
	leveldb_filterpolicy_t *filter;
	leveldb_readoptions_t *ro;
	leveldb_writeoptions_t *wo;
	leveldb_writebatch_t *wb;
	size_t wb_ops;
	leveldb_iterator_t *it;        /* reused until the next write */
	struct frontier_options o;
	const struct config *cfg;
	unsigned cfg_gen;
	unsigned settings_gen;
	struct keys_counters c;
	struct wq_table *queues;
	struct wq_list ready;          /* READY, FIFO */
	struct wq_heap heap;           /* READY, best-first */
	uint64_t ready_seq;
	struct wq_list cold;
	struct wheel *wheel;
	size_t nin_process;
	struct wq *dirty;
	struct seen *seen;
	struct frontier_held **held;
	size_t nheld;
	struct frontier_pre pre[FRONTIER_PREFETCH];
	size_t npre, ipre;
	int pre_prec;
	uint64_t in_flight;
	uint64_t now;
	char *error;
	struct buf k, v;
};

static void frontier_resolve_held(struct frontier *f);

#define FRONTIER_READY offsetof(struct wq, ready)
#define FRONTIER_COLD offsetof(struct wq, cold)

static void
frontier_fail(struct frontier *f, const char *what, char *lerr)
{
	if (f->error == NULL)
		f->error = xasprintf("%s: %s", what, lerr != NULL ? lerr : "corrupt record");
	if (lerr != NULL)
		leveldb_free(lerr);
}

const char *
frontier_error(const struct frontier *f)
{
	return f->error;
}

void *
frontier_db(struct frontier *f)
{
	return f->db;
}

const char *
frontier_dir(const struct frontier *f)
{
	return f->dir;
}

/* Options. */

void
frontier_options_defaults(struct frontier_options *o)
{
	memset(o, 0, sizeof(*o));
	policy_settings_defaults(&o->defaults);
	o->hold_queues = 1;
	o->precedence_floor = 255;
	o->snooze_deactivate_ms = 300000;
	o->cache_mb = 8;
	o->write_buffer_mb = 4;
	o->cold_queues = 4096;
	o->seen_cache = 1 << 14;
	o->best_first = 0;
	o->host_depth_divisor = 8.0;
}

static void
frontier_settings_read(const struct config *cfg, const char *surt, struct policy_settings *s)
{
	const int64_t *counts;
	size_t n, i;

	s->balance_replenish = config_int_for(cfg, surt, CK_FRONTIER_BALANCE_REPLENISH_AMOUNT);
	s->total_budget = config_int_for(cfg, surt, CK_FRONTIER_QUEUE_TOTAL_BUDGET);
	s->error_penalty = config_int_for(cfg, surt, CK_FRONTIER_ERROR_PENALTY_AMOUNT);
	s->cost_policy = config_enum_for(cfg, surt, CK_FRONTIER_COST_POLICY);
	s->uri_policy = config_enum_for(cfg, surt, CK_FRONTIER_URI_PRECEDENCE_POLICY);
	s->uri_base = (int)config_int_for(cfg, surt, CK_FRONTIER_URI_BASE_PRECEDENCE);
	s->queue_policy = config_enum_for(cfg, surt, CK_FRONTIER_QUEUE_PRECEDENCE_POLICY);
	s->queue_base = (int)config_int_for(cfg, surt, CK_FRONTIER_QUEUE_BASE_PRECEDENCE);
	counts = config_intlist_for(cfg, surt, CK_FRONTIER_SUCCESS_INCREMENT_COUNTS, &n);
	for (i = 0; i < n && i < POLICY_MAX_COUNTS; i++)
		s->success_counts[i] = counts[i];
	s->nsuccess_counts = i;
	s->max_retries = (int)config_int_for(cfg, surt, CK_FRONTIER_MAX_RETRIES);
	s->retry_delay_ms = config_int_for(cfg, surt, CK_FRONTIER_RETRY_DELAY_SECONDS) * 1000;
}

static void
frontier_settings_from_config_cb(void *ctx, const char *surt, struct policy_settings *out)
{
	frontier_settings_read(ctx, surt, out);
}

void
frontier_options_from_config(struct frontier_options *o, const struct config *cfg)
{
	frontier_options_defaults(o);
	frontier_settings_read(cfg, NULL, &o->defaults);
	o->hold_queues = config_bool(cfg, CK_FRONTIER_HOLD_QUEUES);
	o->precedence_floor = (int)config_int(cfg, CK_FRONTIER_PRECEDENCE_FLOOR);
	o->snooze_deactivate_ms = (uint64_t)config_int(cfg, CK_FRONTIER_SNOOZE_DEACTIVATE_MS);
	o->cache_mb = (size_t)config_int(cfg, CK_STORAGE_CACHE_MB);
	o->write_buffer_mb = (size_t)config_int(cfg, CK_STORAGE_WRITE_BUFFER_MB);
	o->best_first = config_enum(cfg, CK_FRONTIER_READY_ORDER) == 1;
	o->host_depth_divisor = config_double(cfg, CK_FRONTIER_HOST_DEPTH_DIVISOR);
	if (config_override_count(cfg) > 0) {
		o->settings_for = frontier_settings_from_config_cb;
		o->settings_ctx = (void *)cfg;
	}
}

static void
frontier_settings_for(struct frontier *f, const char *surt, struct policy_settings *s)
{
	if (f->o.settings_for != NULL && surt != NULL)
		f->o.settings_for(f->o.settings_ctx, surt, s);
	else
		*s = f->o.defaults;
}

/* The queue's settings, from the SURT of the last URI placed on it. */
static const struct policy_settings *
frontier_qsettings(struct frontier *f, struct wq *q)
{
	if (q->s_gen != f->settings_gen) {
		frontier_settings_for(f, q->m.surt, &q->s);
		q->s_gen = f->settings_gen;
	}
	return &q->s;
}

/* Batch operations. */

static void
frontier_put(struct frontier *f, const struct buf *k, const struct buf *v)
{
	leveldb_writebatch_put(f->wb, k->data, k->len, v != NULL ? v->data : "",
	    v != NULL ? v->len : 0);
	f->wb_ops++;
}

static void
frontier_del(struct frontier *f, const struct buf *k)
{
	leveldb_writebatch_delete(f->wb, k->data, k->len);
	f->wb_ops++;
}

static void
frontier_dirty(struct frontier *f, struct wq *q)
{
	if (!q->dirty) {
		q->dirty = 1;
		q->next_dirty = f->dirty;
		f->dirty = q;
	}
}

/* Queue residency. */

static void
frontier_cold_add(struct frontier *f, struct wq *q)
{
	if (!q->on_cold) {
		wq_list_append(&f->cold, q, FRONTIER_COLD);
		q->on_cold = 1;
	}
}

static void
frontier_cold_del(struct frontier *f, struct wq *q)
{
	if (q->on_cold) {
		wq_list_unlink(&f->cold, q, FRONTIER_COLD);
		q->on_cold = 0;
	}
}

/* Evicts clean cold queues beyond the cap, oldest first. Only called right
 * after a write, when every queue is clean. */
static void
frontier_evict(struct frontier *f)
{
	struct wq *q;

	while (f->cold.n > f->o.cold_queues && (q = f->cold.head) != NULL) {
		if (q->dirty || q->out)
			break;
		frontier_cold_del(f, q);
		wq_table_remove(f->queues, q);
		wq_free(q);
	}
}

/* The resident queue for key, loading its metadata from the store, or
 * creating it when create is set; NULL if absent (or on a store error). */
static struct wq *
frontier_queue(struct frontier *f, const char *key, int create)
{
	struct wq *q = wq_table_get(f->queues, key);
	char *lerr = NULL, *v;
	size_t vlen;

	if (q != NULL) {
		if (q->on_cold) {
			frontier_cold_del(f, q);
			frontier_cold_add(f, q);
		}
		return q;
	}
	buf_reset(&f->k);
	keys_queue(&f->k, key);
	v = leveldb_get(f->db, f->ro, f->k.data, f->k.len, &vlen, &lerr);
	if (lerr != NULL) {
		frontier_fail(f, "reading queue metadata", lerr);
		return NULL;
	}
	if (v == NULL && !create)
		return NULL;
	q = wq_new(key);
	q->s_gen = f->settings_gen - 1;
	if (v != NULL) {
		int r = keys_qmeta_decode(v, vlen, &q->m);

		leveldb_free(v);
		if (r < 0) {
			frontier_fail(f, "decoding queue metadata", NULL);
			wq_free(q);
			return NULL;
		}
	} else {
		q->m.state = WQ_NONE;
		f->c.queues_total++;
		frontier_dirty(f, q);
	}
	wq_table_put(f->queues, q);
	frontier_cold_add(f, q);
	return q;
}

/* The lowest inactive bucket holding a queue, or 256 if none. */
static int
frontier_best_inactive(const struct frontier *f)
{
	int p;

	for (p = 0; p <= KEYS_MAX_QPRECEDENCE; p++)
		if (f->c.inactive[p] > 0)
			return p;
	return KEYS_MAX_QPRECEDENCE + 1;
}

static uint64_t
frontier_eligible_inactive(const struct frontier *f)
{
	uint64_t n = 0;
	int p;

	for (p = 0; p < f->o.precedence_floor && p <= KEYS_MAX_QPRECEDENCE; p++)
		n += f->c.inactive[p];
	return n;
}

static struct wq *
frontier_ready_head(const struct frontier *f)
{
	if (f->o.best_first)
		return f->heap.n > 0 ? f->heap.a[0] : NULL;
	return f->ready.head;
}

static size_t
frontier_nready(const struct frontier *f)
{
	return f->o.best_first ? f->heap.n : f->ready.n;
}

/* The state machine: every change of a queue's state goes through here, so
 * the structures that represent states (ready list, wheel, store lists,
 * counters, working-set keys) always agree with q->m.state. */
static void
frontier_set_state(struct frontier *f, struct wq *q, int state)
{
	int old = q->m.state;

	switch (old) {
	case WQ_READY:
		if (f->o.best_first)
			wq_heap_remove(&f->heap, q);
		else
			wq_list_unlink(&f->ready, q, FRONTIER_READY);
		break;
	case WQ_SNOOZED:
		wheel_remove(f->wheel, &q->wheel);
		break;
	case WQ_IN_PROCESS:
		f->nin_process--;
		break;
	case WQ_INACTIVE:
		buf_reset(&f->k);
		keys_inactive(&f->k, q->m.filed_precedence, q->m.filed_seq);
		frontier_del(f, &f->k);
		f->c.inactive[q->m.filed_precedence]--;
		f->c.inactive_uris[q->m.filed_precedence] -= q->m.count;
		break;
	case WQ_RETIRED:
		buf_reset(&f->k);
		keys_retired(&f->k, q->m.filed_seq);
		frontier_del(f, &f->k);
		f->c.retired--;
		f->c.retired_uris -= q->m.count;
		f->c.queued += q->m.count;
		break;
	default:
		break;
	}
	q->m.state = state;
	switch (state) {
	case WQ_READY:
		if (f->o.best_first) {
			int best = keys_hist_min(&q->m);

			q->prio = (best > 0 ? best : 0) +
			    (double)q->session_taken / f->o.host_depth_divisor;
			q->rseq = ++f->ready_seq;
			wq_heap_push(&f->heap, q);
		} else {
			wq_list_append(&f->ready, q, FRONTIER_READY);
		}
		break;
	case WQ_SNOOZED:
		wheel_add(f->wheel, &q->wheel, q->m.wake_ms);
		break;
	case WQ_IN_PROCESS:
		f->nin_process++;
		break;
	case WQ_INACTIVE:
		q->m.active = 0;
		q->m.filed_precedence = q->m.precedence > KEYS_MAX_QPRECEDENCE ?
		    KEYS_MAX_QPRECEDENCE : q->m.precedence;
		q->m.filed_seq = ++f->c.next_seq;
		buf_reset(&f->k);
		keys_inactive(&f->k, q->m.filed_precedence, q->m.filed_seq);
		buf_reset(&f->v);
		buf_appends(&f->v, q->key);
		frontier_put(f, &f->k, &f->v);
		f->c.inactive[q->m.filed_precedence]++;
		f->c.inactive_uris[q->m.filed_precedence] += q->m.count;
		break;
	case WQ_RETIRED:
		q->m.active = 0;
		q->m.filed_seq = ++f->c.next_seq;
		buf_reset(&f->k);
		keys_retired(&f->k, q->m.filed_seq);
		buf_reset(&f->v);
		buf_appends(&f->v, q->key);
		frontier_put(f, &f->k, &f->v);
		f->c.retired++;
		f->c.retired_uris += q->m.count;
		f->c.queued -= q->m.count;
		break;
	case WQ_EXHAUSTED:
		q->m.active = 0;
		break;
	default:
		break;
	}
	if (wq_state_working(state) && !wq_state_working(old)) {
		frontier_cold_del(f, q);
		buf_reset(&f->k);
		keys_active(&f->k, q->key);
		frontier_put(f, &f->k, NULL);
	} else if (!wq_state_working(state) && wq_state_working(old)) {
		buf_reset(&f->k);
		keys_active(&f->k, q->key);
		frontier_del(f, &f->k);
		frontier_cold_add(f, q);
	}
	frontier_dirty(f, q);
}

/* Re-evaluates the queue's precedence, after every enqueue, completion and
 * wake (Heritrix only does so after zero-delay completions). */
static void
frontier_reevaluate(struct frontier *f, struct wq *q)
{
	const struct policy_settings *s = frontier_qsettings(f, q);
	int p = policy_queue_precedence(s->queue_policy, s->queue_base,
	    keys_hist_min(&q->m), q->m.successes, s->success_counts, s->nsuccess_counts);

	if (p != q->m.precedence) {
		q->m.precedence = p;
		frontier_dirty(f, q);
		/* An inactive queue is refiled at its new precedence; Heritrix
		 * files it a second time instead (reference section 22.13). */
		if (q->m.state == WQ_INACTIVE)
			frontier_set_state(f, q, WQ_INACTIVE);
	}
}

/* Where a queue goes when it has nothing in flight and no delay to serve:
 * EXHAUSTED when empty (detected at once, not at the next poll); INACTIVE
 * when at or past the floor or when a strictly better queue waits; else the
 * tail of READY. */
static void
frontier_reenqueue(struct frontier *f, struct wq *q)
{
	frontier_reevaluate(f, q);
	if (q->m.count == 0) {
		frontier_set_state(f, q, WQ_EXHAUSTED);
		return;
	}
	if (q->m.precedence >= f->o.precedence_floor ||
	    frontier_best_inactive(f) < q->m.precedence)
		frontier_set_state(f, q, WQ_INACTIVE);
	else
		frontier_set_state(f, q, WQ_READY);
}

/* Store access. */

static void
frontier_iter_drop(struct frontier *f)
{
	if (f->it != NULL) {
		leveldb_iter_destroy(f->it);
		f->it = NULL;
	}
}

static leveldb_iterator_t *
frontier_iter(struct frontier *f)
{
	if (f->it == NULL)
		f->it = leveldb_create_iterator(f->db, f->ro);
	return f->it;
}

static void
frontier_counters_put(struct frontier *f)
{
	buf_reset(&f->k);
	keys_meta(&f->k);
	buf_reset(&f->v);
	keys_counters_encode(&f->v, &f->c);
	frontier_put(f, &f->k, &f->v);
}

/* Writes the batch as it stands; held URIs stay held. */
static int
frontier_write(struct frontier *f, char **err)
{
	struct wq *q, *next;
	char *lerr = NULL;

	if (f->error != NULL) {
		if (err != NULL)
			*err = xstrdup(f->error);
		return -1;
	}
	if (f->wb_ops == 0 && f->dirty == NULL)
		return 0;
	for (q = f->dirty; q != NULL; q = q->next_dirty) {
		buf_reset(&f->k);
		keys_queue(&f->k, q->key);
		buf_reset(&f->v);
		keys_qmeta_encode(&f->v, &q->m);
		frontier_put(f, &f->k, &f->v);
	}
	frontier_counters_put(f);
	leveldb_write(f->db, f->wo, f->wb, &lerr);
	if (lerr != NULL) {
		frontier_fail(f, "writing the frontier store", lerr);
		if (err != NULL)
			*err = xstrdup(f->error);
		return -1;
	}
	leveldb_writebatch_clear(f->wb);
	f->wb_ops = 0;
	frontier_iter_drop(f);
	seen_flushed(f->seen);
	for (q = f->dirty; q != NULL; q = next) {
		next = q->next_dirty;
		q->next_dirty = NULL;
		q->dirty = 0;
		q->batch_puts = 0;
		q->seek_out = 0;
		q->skip_out = 0;
	}
	f->dirty = NULL;
	frontier_evict(f);
	return 0;
}

static int
frontier_flush_quiet(struct frontier *f)
{
	return frontier_write(f, NULL);
}

int
frontier_flush(struct frontier *f, char **err)
{
	if (f->error == NULL && f->nheld > 0)
		frontier_resolve_held(f);
	return frontier_write(f, err);
}

int
frontier_checkpoint_mark(struct frontier *f, const char *name, char **err)
{
	leveldb_writeoptions_t *sync;
	char *lerr = NULL;

	if (frontier_flush(f, err) < 0)
		return -1;
	/* One synchronous write also makes every earlier asynchronous one
	 * durable: they precede it in the same log. */
	sync = leveldb_writeoptions_create();
	leveldb_writeoptions_set_sync(sync, 1);
	leveldb_put(f->db, sync, FRONTIER_CHECKPOINT_KEY, sizeof(FRONTIER_CHECKPOINT_KEY) - 1,
	    name, strlen(name), &lerr);
	leveldb_writeoptions_destroy(sync);
	frontier_iter_drop(f);
	if (lerr != NULL) {
		frontier_fail(f, "writing the checkpoint marker", lerr);
		if (err != NULL)
			*err = xstrdup(f->error);
		return -1;
	}
	return 0;
}

/* The head URI of q and its store key, or NULL (store error or empty). */
static struct curi *
frontier_peek(struct frontier *f, struct wq *q)
{
	leveldb_iterator_t *it;
	struct curi *c = NULL;
	const char *k, *v;
	size_t kl, vl;

	/* A URI put since the last write may sort first: write it out. Heads
	 * finished and deleted since then are still in the iterator's view,
	 * and every URI of the queue sorts after them, so seeking past the
	 * last one is enough (the common case when the politeness delay is 0). */
	if (q->batch_puts && frontier_flush_quiet(f) < 0)
		return NULL;
	it = frontier_iter(f);
	buf_reset(&f->k);
	keys_uri_prefix(&f->k, q->key);
	if (q->seek_out) {
		leveldb_iter_seek(it, q->out_key.data, q->out_key.len);
		if (q->skip_out && leveldb_iter_valid(it)) {
			k = leveldb_iter_key(it, &kl);
			if (kl == q->out_key.len && memcmp(k, q->out_key.data, kl) == 0)
				leveldb_iter_next(it);
		}
	} else if (q->m.head_ord > 0) {
		/* f->v is free here: nothing is encoded while peeking. */
		buf_reset(&f->v);
		keys_uri(&f->v, q->key, q->m.head_dir, q->m.head_prec, q->m.head_ord);
		leveldb_iter_seek(it, f->v.data, f->v.len);
		if (!q->m.head_live && leveldb_iter_valid(it)) {
			k = leveldb_iter_key(it, &kl);
			if (kl == f->v.len && memcmp(k, f->v.data, kl) == 0)
				leveldb_iter_next(it);
		}
	} else {
		leveldb_iter_seek(it, f->k.data, f->k.len);
	}
	if (!leveldb_iter_valid(it))
		return NULL;
	k = leveldb_iter_key(it, &kl);
	if (kl < f->k.len || memcmp(k, f->k.data, f->k.len) != 0)
		return NULL;
	v = leveldb_iter_value(it, &vl);
	if (keys_curi_decode(v, vl, &c) < 0) {
		frontier_fail(f, "decoding a queued URI", NULL);
		return NULL;
	}
	buf_reset(&q->out_key);
	buf_append(&q->out_key, k, kl);
	free(c->queue_key);
	c->queue_key = xstrdup(q->key);
	return c;
}

/* Scheduling. */

int
frontier_preload(struct frontier *f, const char *canon, int precedence)
{
	if (canon == NULL || *canon == '\0' || precedence < 1)
		return -EINVAL;
	buf_reset(&f->k);
	keys_preload(&f->k, canon);
	buf_reset(&f->v);
	buf_appendf(&f->v, "%d", precedence);
	frontier_put(f, &f->k, &f->v);
	return 0;
}

/* The preloaded precedence of canon, or 0. The pending batch may hold it:
 * a load is followed by a flush before the crawl starts. */
static int
frontier_preloaded(struct frontier *f, const char *canon)
{
	char *lerr = NULL, *v, num[16];
	size_t vlen;
	long p = 0;

	buf_reset(&f->k);
	keys_preload(&f->k, canon);
	v = leveldb_get(f->db, f->ro, f->k.data, f->k.len, &vlen, &lerr);
	if (lerr != NULL) {
		frontier_fail(f, "reading a preloaded precedence", lerr);
		return 0;
	}
	if (v != NULL) {
		if (vlen < sizeof(num)) {
			memcpy(num, v, vlen);
			num[vlen] = '\0';
			p = strtol(num, NULL, 10);
		}
		leveldb_free(v);
	}
	return p > 0 && p < 1 << 30 ? (int)p : 0;
}

/* (d1, p1, o1) sorts before (d2, p2, o2): how their URI keys compare. */
static int
frontier_key_less(int d1, int p1, uint64_t o1, int d2, int p2, uint64_t o2)
{
	return d1 < d2 || (d1 == d2 && (p1 < p2 || (p1 == p2 && o1 < o2)));
}

/* The queue's head bound (keys.h): a URI enqueued below it lowers it. A
 * URI enqueued ahead of the one out must also survive that one's deletion
 * (frontier_head_deleted), so it lowers the bound too. */
static void
frontier_head_lower(struct wq *q, int dir, int prec, uint64_t ord)
{
	const char *qk;
	size_t ql;
	int od, op;
	uint64_t oo;

	if (prec > KEYS_MAX_PRECEDENCE)
		prec = KEYS_MAX_PRECEDENCE;
	if (q->m.head_ord > 0 && frontier_key_less(dir, prec, ord, q->m.head_dir,
	    q->m.head_prec, q->m.head_ord))
		goto lower;
	if (q->m.head_ord > 0 && q->m.head_live)
		return;
	if (q->out && keys_uri_parse(q->out_key.data, q->out_key.len, &qk, &ql, &od, &op,
	    &oo) == 0 && frontier_key_less(dir, prec, ord, od, op, oo))
		goto lower;
	return;
lower:
	q->m.head_dir = dir;
	q->m.head_prec = prec;
	q->m.head_ord = ord;
	q->m.head_live = 1;
}

/* The URI out (the queue's head when it was taken) is being deleted: every
 * URI left sorts after it, except one enqueued ahead of it since, which
 * already lowered the bound below it. */
static void
frontier_head_deleted(struct wq *q)
{
	const char *qk;
	size_t ql;
	int dir, prec;
	uint64_t ord;

	if (keys_uri_parse(q->out_key.data, q->out_key.len, &qk, &ql, &dir, &prec, &ord) < 0)
		return;
	if (q->m.head_ord > 0 && q->m.head_live && frontier_key_less(q->m.head_dir,
	    q->m.head_prec, q->m.head_ord, dir, prec, ord))
		return;
	q->m.head_dir = dir;
	q->m.head_prec = prec;
	q->m.head_ord = ord;
	q->m.head_live = 0;
}

/* Puts c on its queue: was_new says the seen set has just recorded it. */
static int
frontier_enqueue(struct frontier *f, const struct curi *c, const char *canon,
    const char *queue_key, const char *surt, int was_new)
{
	struct policy_settings s;
	struct curi st;
	struct wq *q;
	int pre = 0;

	if (was_new) {
		f->wb_ops++;
		f->c.discovered++;
	}
	q = frontier_queue(f, queue_key, 1);
	if (q == NULL)
		return -EIO;
	frontier_settings_for(f, surt, &s);
	st = *c;
	st.hops = c->hops != NULL ? c->hops : (char *)"";
	st.cost = c->cost >= 0 ? c->cost : policy_cost(s.cost_policy, c->uri, c->via);
	if (s.uri_policy == POLICY_URI_PRELOADED)
		pre = c->precedence > 0 ? c->precedence : frontier_preloaded(f, canon);
	st.precedence = policy_uri_precedence(s.uri_policy, s.uri_base, st.cost, st.hops, pre);
	/* Clamped to what the record decoder accepts back. */
	st.directive = c->directive < 0 ? 0 : c->directive > 255 ? 255 : c->directive;
	st.attempts = c->attempts < 0 ? 0 : c->attempts;
	st.ordinal = ++f->c.next_ordinal;
	st.queue_key = NULL;
	frontier_head_lower(q, st.directive, st.precedence, st.ordinal);
	buf_reset(&f->k);
	keys_uri(&f->k, queue_key, st.directive, st.precedence, st.ordinal);
	buf_reset(&f->v);
	keys_curi_encode(&f->v, &st);
	frontier_put(f, &f->k, &f->v);
	q->batch_puts = 1;

	/* Queues take their settings from the URIs placed on them. */
	if (surt != NULL && (q->m.surt == NULL || strcmp(q->m.surt, surt) != 0)) {
		free(q->m.surt);
		q->m.surt = xstrdup(surt);
	}
	q->s = s;
	q->s_gen = f->settings_gen;
	q->m.count++;
	q->m.enqueues++;
	free(q->m.last_queued);
	q->m.last_queued = xstrdup(c->uri);
	keys_hist_add(&q->m, st.precedence, 1);
	if (q->m.state == WQ_RETIRED) {
		f->c.retired_uris++;
	} else {
		f->c.queued++;
		if (q->m.state == WQ_INACTIVE)
			f->c.inactive_uris[q->m.filed_precedence]++;
	}
	frontier_dirty(f, q);
	if (q->m.state == WQ_NONE || q->m.state == WQ_EXHAUSTED) {
		q->m.precedence = policy_queue_precedence(s.queue_policy, s.queue_base,
		    keys_hist_min(&q->m), q->m.successes, s.success_counts,
		    s.nsuccess_counts);
		/* hold-queues: new queues wait inactive until needed to keep
		 * the fetchers busy (site-first); otherwise they start ready,
		 * or snoozed for what is left of the politeness delay of the
		 * queue's last fetch (inactive if that is a long snooze). */
		if (f->o.hold_queues || q->m.precedence >= f->o.precedence_floor ||
		    (q->m.wake_ms > f->now &&
		    q->m.wake_ms - f->now > f->o.snooze_deactivate_ms))
			frontier_set_state(f, q, WQ_INACTIVE);
		else if (q->m.wake_ms > f->now)
			frontier_set_state(f, q, WQ_SNOOZED);
		else
			frontier_set_state(f, q, WQ_READY);
	} else {
		frontier_reevaluate(f, q);
	}
	return 1;
}

static void
frontier_hold(struct frontier *f, const struct curi *c, const char *canon,
    const char *queue_key, const char *surt)
{
	size_t lu = strlen(c->uri) + 1, lv = c->via != NULL ? strlen(c->via) + 1 : 0;
	size_t lh = c->hops != NULL ? strlen(c->hops) + 1 : 1, lc = strlen(canon) + 1;
	size_t lq = strlen(queue_key) + 1, ls = surt != NULL ? strlen(surt) + 1 : 0;
	struct frontier_held *h = xmalloc(sizeof(*h) + lu + lv + lh + lc + lq + ls);
	char *p = (char *)(h + 1);

	h->c = *c;
	h->c.queue_key = NULL;
	h->c.uri = memcpy(p, c->uri, lu);
	p += lu;
	h->c.via = lv > 0 ? memcpy(p, c->via, lv) : NULL;
	p += lv;
	h->c.hops = memcpy(p, c->hops != NULL ? c->hops : "", lh);
	p += lh;
	h->canon = memcpy(p, canon, lc);
	p += lc;
	h->queue_key = memcpy(p, queue_key, lq);
	p += lq;
	h->surt = ls > 0 ? memcpy(p, surt, ls) : NULL;
	if (f->held == NULL)
		f->held = xmalloc(FRONTIER_HELD * sizeof(*f->held));
	f->held[f->nheld++] = h;
}

struct frontier_sorted {
	const char *canon;
	size_t i;
};

static int
frontier_sorted_cmp(const void *a, const void *b)
{
	const struct frontier_sorted *x = a, *y = b;
	int c = strcmp(x->canon, y->canon);

	return c != 0 ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* Checks the held URIs against the store in one sorted pass and enqueues
 * the new ones in the order they were discovered, so that ordinals (FIFO
 * within a precedence) are as if each had been scheduled at once. */
static void
frontier_resolve_held(struct frontier *f)
{
	size_t n = f->nheld, i;
	struct frontier_sorted *sorted = xmalloc(n * sizeof(*sorted));
	const char **canon = xmalloc(n * sizeof(*canon));
	unsigned char *fresh = xmalloc(n);
	char *err = NULL;

	for (i = 0; i < n; i++) {
		sorted[i].canon = f->held[i]->canon;
		sorted[i].i = i;
	}
	qsort(sorted, n, sizeof(*sorted), frontier_sorted_cmp);
	for (i = 0; i < n; i++)
		canon[i] = sorted[i].canon;
	if (seen_resolve(f->seen, canon, n, fresh, f->wb, &err) < 0) {
		if (f->error == NULL)
			f->error = err;
		else
			free(err);
	} else {
		for (i = 0; i < n; i++)
			f->held[sorted[i].i]->fresh = fresh[i];
		for (i = 0; i < n && f->error == NULL; i++) {
			struct frontier_held *h = f->held[i];

			if (h->fresh)
				frontier_enqueue(f, &h->c, h->canon, h->queue_key, h->surt, 1);
		}
	}
	for (i = 0; i < n; i++)
		free(f->held[i]);
	f->nheld = 0;
	free(sorted);
	free(canon);
	free(fresh);
}

int
frontier_schedule(struct frontier *f, const struct curi *c, const char *canon,
    const char *queue_key, const char *surt, int force)
{
	char *err = NULL;
	int r;

	if (c == NULL || c->uri == NULL || canon == NULL || !keys_qkey_valid(queue_key))
		return -EINVAL;
	if (f->error != NULL)
		return -EIO;
	if (!force) {
		r = seen_check(f->seen, canon, f->wb);
		if (r == SEEN_OLD)
			return 0;
		if (r == SEEN_NEW)
			return frontier_enqueue(f, c, canon, queue_key, surt, 1);
		if (f->nheld == FRONTIER_HELD)
			frontier_resolve_held(f);
		frontier_hold(f, c, canon, queue_key, surt);
		return f->error != NULL ? -EIO : FRONTIER_HELD_URI;
	}
	r = seen_add(f->seen, canon, f->wb, &err);
	if (r < 0) {
		if (f->error == NULL)
			f->error = err;
		else
			free(err);
		return -EIO;
	}
	return frontier_enqueue(f, c, canon, queue_key, surt, r);
}

/* Activation: the first queue of the best eligible inactive bucket, FIFO,
 * read from the store FRONTIER_PREFETCH keys at a time. 1 if a queue left
 * INACTIVE, 0 if none is eligible, negative on a store error. */
static int
frontier_activate(struct frontier *f)
{
	int best = frontier_best_inactive(f), tries;

	if (best >= f->o.precedence_floor || best > KEYS_MAX_QPRECEDENCE)
		return 0;
	for (tries = 0; tries < 2 * FRONTIER_PREFETCH; tries++) {
		struct frontier_pre *p;
		struct wq *q;

		if (f->ipre == f->npre || f->pre_prec != best) {
			leveldb_iterator_t *it;
			size_t i;

			for (i = f->ipre; i < f->npre; i++)
				free(f->pre[i].key);
			f->ipre = f->npre = 0;
			if (f->wb_ops > 0 && frontier_flush_quiet(f) < 0)
				return -EIO;
			it = frontier_iter(f);
			buf_reset(&f->k);
			keys_inactive(&f->k, best, 0);
			for (leveldb_iter_seek(it, f->k.data, f->k.len);
			    leveldb_iter_valid(it) && f->npre < FRONTIER_PREFETCH;
			    leveldb_iter_next(it)) {
				size_t kl, vl;
				const char *k = leveldb_iter_key(it, &kl);
				const char *v = leveldb_iter_value(it, &vl);
				int prec;
				uint64_t seq;

				if (keys_inactive_parse(k, kl, &prec, &seq) < 0 || prec != best)
					break;
				f->pre[f->npre].key = xstrndup(v, vl);
				f->pre[f->npre].prec = prec;
				f->pre[f->npre].seq = seq;
				f->npre++;
			}
			f->pre_prec = best;
			if (f->npre == 0) {
				/* The counters say the bucket is not empty but
				 * the store has no key: trust the store. */
				f->c.inactive[best] = 0;
				f->c.inactive_uris[best] = 0;
				return 0;
			}
		}
		p = &f->pre[f->ipre++];
		q = frontier_queue(f, p->key, 0);
		if (q != NULL && q->m.state == WQ_INACTIVE && q->m.filed_seq == p->seq &&
		    q->m.filed_precedence == p->prec) {
			free(p->key);
			p->key = NULL;
			/* A queue deactivated by a long snooze keeps its wake
			 * time and serves the rest of it. */
			if (q->m.wake_ms > f->now)
				frontier_set_state(f, q, WQ_SNOOZED);
			else
				frontier_set_state(f, q, WQ_READY);
			return 1;
		}
		free(p->key);
		p->key = NULL;
		if (f->error != NULL)
			return -EIO;
	}
	return 0;
}

static void
frontier_settings_check(struct frontier *f)
{
	unsigned gen;

	if (f->cfg == NULL)
		return;
	gen = config_generation(f->cfg);
	if (gen == f->cfg_gen)
		return;
	f->cfg_gen = gen;
	{
		int best_first = f->o.best_first;
		double divisor = f->o.host_depth_divisor;

		frontier_options_from_config(&f->o, f->cfg);
		/* The ready order cannot change under queues already ordered. */
		f->o.best_first = best_first;
		f->o.host_depth_divisor = divisor;
	}
	/* As in Heritrix, any settings change re-judges retired queues. */
	frontier_settings_changed(f);
}

void
frontier_settings_changed(struct frontier *f)
{
	f->settings_gen++;
	frontier_reconsider_retired(f);
}

static void
frontier_wake(struct frontier *f, uint64_t now)
{
	struct wheel_entry *e;

	while ((e = wheel_expire(f->wheel, now)) != NULL) {
		struct wq *q = (struct wq *)((char *)e - offsetof(struct wq, wheel));

		/* The wheel already took it off; WQ_NONE keeps set_state from
		 * removing it a second time. */
		q->m.state = WQ_NONE;
		frontier_cold_add(f, q);
		buf_reset(&f->k);
		keys_active(&f->k, q->key);
		frontier_del(f, &f->k);
		frontier_reenqueue(f, q);
	}
}

int
frontier_next(struct frontier *f, uint64_t now, struct curi **out, uint64_t *wake_ms)
{
	int polls;

	*out = NULL;
	if (now > f->now)
		f->now = now;
	frontier_settings_check(f);
	frontier_wake(f, now);
	for (polls = 0; polls < FRONTIER_POLLS && f->error == NULL; polls++) {
		const struct policy_settings *s;
		struct wq *q = frontier_ready_head(f);
		struct curi *c;

		if (q == NULL) {
			/* One activation per empty poll, lowest precedence
			 * first (checklist 3 and 4). */
			if (frontier_activate(f) > 0)
				continue;
			break;
		}
		if (q->m.count == 0) {
			frontier_set_state(f, q, WQ_EXHAUSTED);
			continue;
		}
		frontier_reevaluate(f, q);
		if (q->m.precedence >= f->o.precedence_floor) {
			frontier_set_state(f, q, WQ_INACTIVE);
			continue;
		}
		s = frontier_qsettings(f, q);
		if (!q->m.active) {
			q->m.active = 1;
			q->m.expenditure_at_activation = q->m.total_expenditure;
			q->session_taken = 0;
		}
		if (s->balance_replenish > 0 && q->m.total_expenditure -
		    q->m.expenditure_at_activation > s->balance_replenish) {
			frontier_set_state(f, q, WQ_INACTIVE);
			continue;
		}
		if (s->total_budget >= 0 && q->m.total_expenditure >= s->total_budget) {
			frontier_set_state(f, q, WQ_RETIRED);
			continue;
		}
		c = frontier_peek(f, q);
		if (c == NULL) {
			if (f->error != NULL)
				break;
			/* The count said there was a URI and the store has
			 * none: trust the store. */
			f->c.queued -= q->m.count;
			q->m.count = 0;
			q->m.nhist = 0;
			frontier_set_state(f, q, WQ_EXHAUSTED);
			continue;
		}
		free(q->m.last_peeked);
		q->m.last_peeked = xstrdup(c->uri);
		q->m.last_dequeue_ms = now;
		q->out = 1;
		q->session_taken++;
		f->in_flight++;
		frontier_set_state(f, q, WQ_IN_PROCESS);
		*out = c;
		return 1;
	}
	if (frontier_ready_head(f) != NULL ||
	    (frontier_eligible_inactive(f) > 0 && f->error == NULL))
		*wake_ms = now;
	else
		*wake_ms = wheel_next(f->wheel);
	return 0;
}

/* Charges amount to the queue (Heritrix's WorkQueue.expend). */
static void
frontier_expend(struct wq *q, int64_t amount)
{
	q->m.total_expenditure += amount;
	if (amount >= 0) {
		q->m.last_cost = amount;
		q->m.cost_count++;
	} else if (q->m.cost_count > 0) {
		q->m.cost_count--;
	}
}

int
frontier_may_retry(struct frontier *f, const struct curi *c)
{
	struct wq *q = c->queue_key != NULL ? wq_table_get(f->queues, c->queue_key) : NULL;
	const struct policy_settings *s = q != NULL ? frontier_qsettings(f, q) : &f->o.defaults;

	return c->attempts + 1 < s->max_retries;
}

unsigned
frontier_note_connect(struct frontier *f, const struct curi *c, int failed)
{
	struct wq *q = c->queue_key != NULL ? wq_table_get(f->queues, c->queue_key) : NULL;

	if (q == NULL)
		return 0;
	q->m.failures = failed ? q->m.failures + 1 : 0;
	frontier_dirty(f, q);
	return q->m.failures;
}

void
frontier_finish(struct frontier *f, struct curi *c, enum frontier_outcome o,
    uint64_t now, uint64_t delay_ms)
{
	struct wq *q = c->queue_key != NULL ? wq_table_get(f->queues, c->queue_key) : NULL;
	const struct policy_settings *s;
	int removed = 0;

	if (now > f->now)
		f->now = now;
	if (q == NULL || !q->out || q->m.state != WQ_IN_PROCESS) {
		frontier_fail(f, "finishing a URI the frontier did not hand out", NULL);
		curi_free(c);
		return;
	}
	s = frontier_qsettings(f, q);
	switch (o) {
	case FRONTIER_SUCCESS:
		f->c.succeeded++;
		q->m.successes++;
		frontier_expend(q, c->cost > 0 ? c->cost : 0);
		removed = 1;
		break;
	case FRONTIER_FAILED:
		f->c.failed++;
		q->m.errors++;
		q->m.total_expenditure += s->error_penalty;
		frontier_expend(q, c->cost > 0 ? c->cost : 0);
		removed = 1;
		break;
	case FRONTIER_DISREGARD:
		f->c.disregarded++;
		frontier_expend(q, 0);
		removed = 1;
		break;
	case FRONTIER_RETRY:
		/* Rewritten under the same key: it stays at the head. */
		c->attempts++;
		frontier_expend(q, c->cost > 0 ? c->cost : 0);
		/* The caller's delay (host back-off, Retry-After) when it
		 * gives one, else retry-delay-seconds. */
		if (delay_ms == 0)
			delay_ms = (uint64_t)s->retry_delay_ms;
		buf_reset(&f->v);
		{
			char *qk = c->queue_key;

			c->queue_key = NULL;
			keys_curi_encode(&f->v, c);
			c->queue_key = qk;
		}
		frontier_put(f, &q->out_key, &f->v);
		q->batch_puts = 1;
		break;
	case FRONTIER_DEFER:
		break;
	case FRONTIER_RELOCATED:
		/* Its copy on the new queue counts as queued instead. */
		removed = 1;
		break;
	}
	if (removed) {
		frontier_head_deleted(q);
		frontier_del(f, &q->out_key);
		q->m.count--;
		f->c.queued--;
		keys_hist_add(&q->m, c->precedence, -1);
		q->seek_out = 1;
	}
	q->skip_out = removed;
	q->out = 0;
	f->in_flight--;
	curi_free(c);
	if (q->m.count == 0) {
		/* The host still gets its politeness delay: a URI scheduled to
		 * the emptied queue during it waits for the wake time, as in
		 * Heritrix, where the empty queue stays snoozed. */
		if (delay_ms > 0)
			q->m.wake_ms = now + delay_ms;
		frontier_reevaluate(f, q);
		frontier_set_state(f, q, WQ_EXHAUSTED);
	} else if (delay_ms > 0) {
		q->m.wake_ms = now + delay_ms;
		if (delay_ms > f->o.snooze_deactivate_ms) {
			/* A long snooze leaves the working set (Heritrix 1's
			 * snooze-deactivate), keeping its wake time. */
			frontier_reevaluate(f, q);
			frontier_set_state(f, q, WQ_INACTIVE);
		} else {
			frontier_reevaluate(f, q);
			frontier_set_state(f, q, WQ_SNOOZED);
		}
	} else {
		frontier_reenqueue(f, q);
	}
}

/* Counts and reports. */

void
frontier_counts(const struct frontier *f, struct frontier_counts *out)
{
	int p;

	memset(out, 0, sizeof(*out));
	out->queued = f->c.queued;
	out->in_flight = f->in_flight;
	out->queues_total = f->c.queues_total;
	out->in_process = f->nin_process;
	out->ready = frontier_nready(f);
	out->snoozed = wheel_count(f->wheel);
	for (p = 0; p <= KEYS_MAX_QPRECEDENCE; p++) {
		if (p < f->o.precedence_floor) {
			out->inactive += f->c.inactive[p];
		} else {
			out->ineligible += f->c.inactive[p];
			out->ineligible_uris += f->c.inactive_uris[p];
		}
	}
	out->retired = f->c.retired;
	out->retired_uris = f->c.retired_uris;
	out->exhausted = out->queues_total - out->in_process - out->ready -
	    out->snoozed - out->inactive - out->ineligible - out->retired;
	out->succeeded = f->c.succeeded;
	out->failed = f->c.failed;
	out->disregarded = f->c.disregarded;
	out->discovered = f->c.discovered;
}

uint64_t
frontier_discovered(const struct frontier *f)
{
	return f->c.discovered;
}

int
frontier_is_finished(const struct frontier *f)
{
	return f->in_flight == 0 && f->nheld == 0 && frontier_nready(f) == 0 && wheel_count(f->wheel) == 0 &&
	    frontier_eligible_inactive(f) == 0;
}

int
frontier_reconsider_retired(struct frontier *f)
{
	leveldb_iterator_t *it;
	char **keys = NULL;
	size_t n = 0, cap = 0, i;
	int moved = 0;

	if (f->c.retired == 0)
		return 0;
	if (frontier_flush_quiet(f) < 0)
		return -EIO;
	it = frontier_iter(f);
	buf_reset(&f->k);
	buf_appendc(&f->k, KEYS_RETIRED);
	for (leveldb_iter_seek(it, f->k.data, f->k.len); leveldb_iter_valid(it);
	    leveldb_iter_next(it)) {
		size_t kl, vl;
		const char *k = leveldb_iter_key(it, &kl);
		const char *v = leveldb_iter_value(it, &vl);

		if (kl < 1 || k[0] != KEYS_RETIRED)
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			keys = xrealloc(keys, cap * sizeof(*keys));
		}
		keys[n++] = xstrndup(v, vl);
	}
	for (i = 0; i < n; i++) {
		struct wq *q = frontier_queue(f, keys[i], 0);

		if (q != NULL && q->m.state == WQ_RETIRED) {
			frontier_set_state(f, q, WQ_INACTIVE);
			moved++;
		}
		free(keys[i]);
	}
	free(keys);
	return f->error != NULL ? -EIO : moved;
}

/* Heritrix's "20 longest queues" of the summary. */
#define FRONTIER_LONGEST 20

struct frontier_longest {
	uint64_t count;
	char *line;     /* the queue's report line */
};

/* Offers one queue to the top list (longest first; among equals the first
 * offered, i.e. key order, stays ahead). The report line is built only for
 * a queue that gets in, so the scan keeps FRONTIER_LONGEST lines at most. */
static void
frontier_longest_offer(struct frontier *f, struct frontier_longest *top, size_t *n,
    const char *key, const struct keys_qmeta *m, const struct policy_settings *s)
{
	struct buf line = BUF_INIT;
	size_t i;

	if (m->count == 0 || (*n == FRONTIER_LONGEST && m->count <= top[*n - 1].count))
		return;
	if (*n == FRONTIER_LONGEST)
		free(top[--*n].line);
	for (i = *n; i > 0 && top[i - 1].count < m->count; i--)
		top[i] = top[i - 1];
	wq_report_line(key, m, s, f->o.precedence_floor, f->now, &line, 0);
	top[i].count = m->count;
	top[i].line = buf_steal(&line);
	(*n)++;
}

typedef void frontier_queue_fn(struct frontier *f, void *arg, const char *key,
    const struct keys_qmeta *m, const struct policy_settings *s);

/* Calls fn for every queue record in the store, one at a time, in key
 * order (resident queues from memory, which may be newer): memory holds one
 * record at a time, whatever the number of queues. */
static void
frontier_each_queue(struct frontier *f, frontier_queue_fn *fn, void *arg)
{
	leveldb_iterator_t *it;
	const char start = KEYS_QUEUE;

	if (frontier_flush_quiet(f) < 0)
		return;
	it = leveldb_create_iterator(f->db, f->ro);
	for (leveldb_iter_seek(it, &start, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t kl, vl;
		const char *k = leveldb_iter_key(it, &kl);
		const char *v = leveldb_iter_value(it, &vl);
		char *key;
		struct wq *q;
		struct keys_qmeta m;
		struct policy_settings s;

		if (kl < 1 || k[0] != KEYS_QUEUE)
			break;
		key = xstrndup(k + 1, kl - 1);
		q = wq_table_get(f->queues, key);
		if (q != NULL) {
			fn(f, arg, key, &q->m, frontier_qsettings(f, q));
		} else if (keys_qmeta_decode(v, vl, &m) == 0) {
			frontier_settings_for(f, m.surt, &s);
			fn(f, arg, key, &m, &s);
			keys_qmeta_clear(&m);
		}
		free(key);
	}
	leveldb_iter_destroy(it);
}

struct frontier_top {
	struct frontier_longest a[FRONTIER_LONGEST];
	size_t n;
};

static void
frontier_longest_cb(struct frontier *f, void *arg, const char *key,
    const struct keys_qmeta *m, const struct policy_settings *s)
{
	struct frontier_top *top = arg;

	frontier_longest_offer(f, top->a, &top->n, key, m, s);
}

static void
frontier_report_longest(struct frontier *f, struct buf *out)
{
	struct frontier_top top;
	size_t i;

	top.n = 0;
	frontier_each_queue(f, frontier_longest_cb, &top);
	buf_appendf(out, "\n\n %d longest queues:\n", FRONTIER_LONGEST);
	for (i = 0; i < top.n; i++) {
		buf_appendf(out, "  %s", top.a[i].line);
		free(top.a[i].line);
	}
}

void
frontier_report_summary(struct frontier *f, struct buf *out)
{
	struct frontier_counts n;
	struct seen_stats ss;
	struct wq *q;
	int i;

	frontier_counts(f, &n);
	seen_get_stats(f->seen, &ss);
	buf_appendf(out, "%s - %llu URI queues: %llu active (%llu in-process; %llu ready; "
	    "%llu snoozed); %llu inactive; %llu ineligible; %llu retired; %llu exhausted\n",
	    frontier_is_finished(f) ? "EMPTY" : "RUN",
	    (unsigned long long)n.queues_total,
	    (unsigned long long)(n.in_process + n.ready + n.snoozed),
	    (unsigned long long)n.in_process, (unsigned long long)n.ready,
	    (unsigned long long)n.snoozed, (unsigned long long)n.inactive,
	    (unsigned long long)n.ineligible, (unsigned long long)n.retired,
	    (unsigned long long)n.exhausted);
	buf_appendf(out, "\nFrontier report\n queued URIs: %llu (in flight %llu)\n"
	    " discovered: %llu\n succeeded: %llu\n failed: %llu\n disregarded: %llu\n"
	    " URIs in retired queues: %llu\n URIs in ineligible queues: %llu\n",
	    (unsigned long long)n.queued, (unsigned long long)n.in_flight,
	    (unsigned long long)n.discovered, (unsigned long long)n.succeeded,
	    (unsigned long long)n.failed, (unsigned long long)n.disregarded,
	    (unsigned long long)n.retired_uris, (unsigned long long)n.ineligible_uris);
	buf_appendf(out, " seen set: %llu URIs, Bloom %zu bytes in %u layers; %llu tests: "
	    "%llu Bloom misses, %llu unwritten, %llu cached, %llu held for %llu sorted "
	    "checks (%llu store seeks, %llu merge steps, %llu false positives)\n",
	    (unsigned long long)ss.added, ss.bloom_bytes, ss.bloom_layers,
	    (unsigned long long)ss.lookups, (unsigned long long)ss.bloom_negative,
	    (unsigned long long)ss.pending_hits, (unsigned long long)ss.cache_hits,
	    (unsigned long long)ss.held, (unsigned long long)ss.batches,
	    (unsigned long long)ss.store_reads, (unsigned long long)ss.merge_steps,
	    (unsigned long long)ss.store_misses);
	buf_appends(out, "\n inactive queues by precedence:");
	for (i = 0; i <= KEYS_MAX_QPRECEDENCE; i++)
		if (f->c.inactive[i] > 0)
			buf_appendf(out, " %d:%llu", i, (unsigned long long)f->c.inactive[i]);
	frontier_report_longest(f, out);
	buf_appends(out, "\n ready queues (first 2000):\n");
	if (f->o.best_first) {
		for (i = 0; (size_t)i < f->heap.n && i < 2000; i++)
			buf_appendf(out, "  %s %llu %.3f\n", f->heap.a[i]->key,
			    (unsigned long long)f->heap.a[i]->m.count, f->heap.a[i]->prio);
	}
	for (q = f->ready.head, i = 0; q != NULL && i < 2000; q = q->ready.next, i++)
		buf_appendf(out, "  %s %llu\n", q->key, (unsigned long long)q->m.count);
}

struct frontier_sink {
	struct buf *out;
	FILE *fp;
	int json;
};

static void
frontier_report_queue_cb(struct frontier *f, void *arg, const char *key,
    const struct keys_qmeta *m, const struct policy_settings *s)
{
	struct frontier_sink *k = arg;

	wq_report_line(key, m, s, f->o.precedence_floor, f->now, k->out, k->json);
	if (k->fp != NULL && k->out->len >= 65536) {
		fwrite(k->out->data, 1, k->out->len, k->fp);
		buf_reset(k->out);
	}
}

static void
frontier_report_queues_sink(struct frontier *f, struct buf *out, int json, FILE *fp)
{
	struct frontier_sink k = { out, fp, json };

	frontier_each_queue(f, frontier_report_queue_cb, &k);
	if (fp != NULL && out->len > 0) {
		fwrite(out->data, 1, out->len, fp);
		buf_reset(out);
	}
}

void
frontier_report_queues(struct frontier *f, struct buf *out, int json)
{
	frontier_report_queues_sink(f, out, json, NULL);
}

void
frontier_report_queues_fp(struct frontier *f, FILE *fp, int json)
{
	struct buf b = BUF_INIT;

	frontier_report_queues_sink(f, &b, json, fp);
	buf_free(&b);
}

/* Opening and closing. */

static int
frontier_recover(struct frontier *f, char **err)
{
	leveldb_iterator_t *it;
	char **keys = NULL, *lerr = NULL, *v;
	size_t n = 0, cap = 0, i, vlen;
	const char start = KEYS_ACTIVE;

	buf_reset(&f->k);
	keys_meta(&f->k);
	v = leveldb_get(f->db, f->ro, f->k.data, f->k.len, &vlen, &lerr);
	if (lerr != NULL) {
		*err = xasprintf("reading frontier counters: %s", lerr);
		leveldb_free(lerr);
		return -1;
	}
	if (v != NULL) {
		int r = keys_counters_decode(v, vlen, &f->c);

		leveldb_free(v);
		if (r < 0) {
			*err = xstrdup("frontier counters are corrupt");
			return -1;
		}
	}
	if (seen_load(f->seen, err) < 0)
		return -1;
	/* Queues that were in the working set: their in-flight URIs are still
	 * at their heads, so making them READY re-fetches them. A snooze is
	 * kept (Heritrix drops it on resume). */
	it = leveldb_create_iterator(f->db, f->ro);
	for (leveldb_iter_seek(it, &start, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t kl;
		const char *k = leveldb_iter_key(it, &kl);

		if (kl < 1 || k[0] != KEYS_ACTIVE)
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			keys = xrealloc(keys, cap * sizeof(*keys));
		}
		keys[n++] = xstrndup(k + 1, kl - 1);
	}
	leveldb_iter_destroy(it);
	for (i = 0; i < n; i++) {
		struct wq *q = frontier_queue(f, keys[i], 0);

		free(keys[i]);
		if (q == NULL || !wq_state_working(q->m.state))
			continue;
		q->m.state = WQ_NONE;
		if (q->m.count == 0) {
			buf_reset(&f->k);
			keys_active(&f->k, q->key);
			frontier_del(f, &f->k);
			frontier_set_state(f, q, WQ_EXHAUSTED);
		} else if (q->m.wake_ms > f->now)
			frontier_set_state(f, q, WQ_SNOOZED);
		else
			frontier_set_state(f, q, WQ_READY);
	}
	free(keys);
	if (f->error != NULL) {
		*err = xstrdup(f->error);
		return -1;
	}
	return frontier_flush(f, err);
}

struct frontier *
frontier_open_opts(const char *dir, const struct frontier_options *o, int create,
    uint64_t now_ms, char **err)
{
	struct frontier *f;
	char *lerr = NULL;

	if (create) {
		struct stat st;

		if (stat(dir, &st) == 0) {
			*err = xasprintf("%s: already exists", dir);
			return NULL;
		}
	}
	f = xcalloc(1, sizeof(*f));
	f->dir = xstrdup(dir);
	f->o = *o;
	if (f->o.precedence_floor < 1 || f->o.precedence_floor > KEYS_MAX_QPRECEDENCE + 1)
		f->o.precedence_floor = KEYS_MAX_QPRECEDENCE;
	if (!(f->o.host_depth_divisor > 0))
		f->o.host_depth_divisor = 8.0;
	f->now = now_ms;
	buf_init(&f->k);
	buf_init(&f->v);
	f->lopt = leveldb_options_create();
	leveldb_options_set_create_if_missing(f->lopt, create);
	leveldb_options_set_error_if_exists(f->lopt, create);
	f->cache = leveldb_cache_create_lru((o->cache_mb > 0 ? o->cache_mb : 8) << 20);
	leveldb_options_set_cache(f->lopt, f->cache);
	leveldb_options_set_write_buffer_size(f->lopt,
	    (o->write_buffer_mb > 0 ? o->write_buffer_mb : 4) << 20);
	/* Per-table Bloom filters make reads of absent seen keys cheap. */
	f->filter = leveldb_filterpolicy_create_bloom(10);
	leveldb_options_set_filter_policy(f->lopt, f->filter);
	leveldb_options_set_compression(f->lopt, leveldb_snappy_compression);
	/* Every open table keeps its index and filter blocks in memory
	 * (~40 KiB for a 2 MiB table): bound them with the cache, not by
	 * LevelDB's default of 1000 tables. */
	leveldb_options_set_max_open_files(f->lopt,
	    o->cache_mb * 8 > 64 ? (int)(o->cache_mb * 8 > 4096 ? 4096 : o->cache_mb * 8) : 64);
	f->ro = leveldb_readoptions_create();
	f->wo = leveldb_writeoptions_create();
	leveldb_writeoptions_set_sync(f->wo, 0);
	f->wb = leveldb_writebatch_create();
	f->queues = wq_table_new();
	f->wheel = wheel_new(now_ms);
	f->settings_gen = 1;
	f->pre_prec = -1;
	if (create)
		mkdir(dir, 0755);
	f->db = leveldb_open(f->lopt, dir, &lerr);
	if (lerr != NULL) {
		*err = xasprintf("%s: %s", dir, lerr);
		leveldb_free(lerr);
		frontier_close(f);
		return NULL;
	}
	f->seen = seen_new(f->db, o->seen_cache);
	if (create) {
		frontier_counters_put(f);
		if (frontier_flush(f, err) < 0) {
			frontier_close(f);
			return NULL;
		}
	} else if (frontier_recover(f, err) < 0) {
		frontier_close(f);
		return NULL;
	}
	return f;
}

struct frontier *
frontier_open(const char *dir, const struct config *cfg, int create, uint64_t now_ms,
    char **err)
{
	struct frontier_options o;
	struct frontier *f;

	frontier_options_from_config(&o, cfg);
	f = frontier_open_opts(dir, &o, create, now_ms, err);
	if (f != NULL) {
		f->cfg = cfg;
		f->cfg_gen = config_generation(cfg);
	}
	return f;
}

void
frontier_close(struct frontier *f)
{
	size_t i;

	if (f == NULL)
		return;
	if (f->db != NULL)
		frontier_flush(f, NULL);
	frontier_iter_drop(f);
	for (i = 0; i < f->nheld; i++)
		free(f->held[i]);
	free(f->held);
	for (i = f->ipre; i < f->npre; i++)
		free(f->pre[i].key);
	seen_free(f->seen);
	if (f->db != NULL)
		leveldb_close(f->db);
	leveldb_writebatch_destroy(f->wb);
	leveldb_readoptions_destroy(f->ro);
	leveldb_writeoptions_destroy(f->wo);
	leveldb_options_destroy(f->lopt);
	leveldb_cache_destroy(f->cache);
	leveldb_filterpolicy_destroy(f->filter);
	wheel_free(f->wheel);
	wq_heap_free(&f->heap);
	wq_table_free(f->queues);
	buf_free(&f->k);
	buf_free(&f->v);
	free(f->error);
	free(f->dir);
	free(f);
}
