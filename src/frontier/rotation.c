/* Rotation: which queue gives the next URI. The poll takes the head of
 * READY, judges it (exhausted, at the precedence floor, past its session
 * balance: inactive; past its total budget: retired) and hands out its head
 * URI; an empty READY activates the first queue of the best eligible
 * inactive bucket. A finished URI charges its queue (cost, error penalty)
 * and sends the queue on: snoozed for the politeness delay, inactive for a
 * long one, or back to READY. */
#include "frontier/rotation.h"
#include "frontier/ahead.h"
#include "frontier/due.h"
#include "frontier/enqueue.h"
#include "frontier/qstate.h"
#include "frontier/residency.h"
#include "frontier/store.h"
#include "lib/xmalloc.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Queue polls and activations per frontier_next call: bounds one wakeup. */
#define ROTATION_POLLS 256

/* (d1, p1, o1) sorts before (d2, p2, o2) among a queue's URIs. */
static int rotation_less(int d1, int p1, uint64_t o1, int d2, int p2, uint64_t o2)
{
	return d1 < d2 || (d1 == d2 && (p1 < p2 || (p1 == p2 && o1 < o2)));
}

/* The head of q from the store: the least of its first URI in each time
 * segment it has URIs in, each sought at the head bound, so that the
 * deleted heads LevelDB still keeps are not stepped over. A segment with
 * none of the queue's URIs left leaves its list. The records after the head
 * in its segment that sort before every other segment's first are kept
 * ahead. When all of the queue's URIs share a directive and a precedence
 * (the usual queue) only its lowest segment with URIs is sought: a
 * segment's seek reads a block of the store, several a refill would cost
 * more than the compactions the segments save. */
static struct curi *rotation_seek_head(struct frontier *f, struct wq *q)
{
	leveldb_iterator_t *it = store_iter(f);
	struct curi *c = NULL;
	/* k and kl are read only while the iterator is valid; GCC at -O2
	 * cannot tell. */
	const char *k = NULL, *v, *qk;
	size_t kl = 0, vl, ql, i, at = SIZE_MAX, last = SIZE_MAX;
	int sd = 0, sp = 0, skip = 0, bd = 0, bp = 0, nd = 0, np = 0, d, p, from = 0, next = 0;
	uint64_t so = 0, bo = 0, no = 0, o;
	char *lerr = NULL;
	int uniform = keys_qmeta_uniform(&q->m);

	/* The head bound: past the URI just finished (then the same place as
	 * its key), or at a URI enqueued ahead of it (rotation_peek). */
	if (q->m.head_ord > 0) {
		sd = q->m.head_dir;
		sp = q->m.head_prec;
		so = q->m.head_ord;
		from = 1;
		skip = !q->m.head_live;
	} else if (q->seek_out &&
	    keys_uri_parse(q->out_key.data, q->out_key.len, &qk, &ql, &sd, &sp, &so) == 0) {
		from = 1;
		skip = q->skip_out;
	}
	for (i = 0; i < q->m.nsegs;) {
		uint32_t seg = q->m.segs[i];

		buf_reset(&f->k);
		keys_uri_prefix(&f->k, seg, q->key);
		/* f->v is free here: nothing is encoded while peeking. */
		buf_reset(&f->v);
		if (from)
			keys_uri_at(&f->v, seg, q->key, sd, sp, so);
		else
			buf_append(&f->v, f->k.data, f->k.len);
		leveldb_iter_seek(it, f->v.data, f->v.len);
		if (skip && leveldb_iter_valid(it)) {
			k = leveldb_iter_key(it, &kl);
			if (kl == f->v.len && memcmp(k, f->v.data, kl) == 0)
				leveldb_iter_next(it);
		}
		last = i;
		if (leveldb_iter_valid(it))
			k = leveldb_iter_key(it, &kl);
		if (!leveldb_iter_valid(it) || kl < f->k.len ||
		    memcmp(k, f->k.data, f->k.len) != 0) {
			leveldb_iter_get_error(it, &lerr);
			if (lerr != NULL) {
				store_fail(f, "reading a queue's head", lerr);
				return NULL;
			}
			keys_qmeta_seg_remove(&q->m, i);
			store_dirty(f, q);
			last = SIZE_MAX;
			continue;
		}
		if (keys_uri_parse(k, kl, &qk, &ql, &d, &p, &o) < 0) {
			store_fail(f, "reading a queue's head", NULL);
			return NULL;
		}
		if (at == SIZE_MAX || rotation_less(d, p, o, bd, bp, bo)) {
			if (at != SIZE_MAX) {
				nd = bd, np = bp, no = bo;
				next = 1;
			}
			bd = d, bp = p, bo = o;
			at = i;
		} else if (!next || rotation_less(d, p, o, nd, np, no)) {
			nd = d, np = p, no = o;
			next = 1;
		}
		/* One directive and one precedence: ordinals decide, and the
		 * lowest segment holds the least. */
		if (uniform)
			break;
		i++;
	}
	if (at == SIZE_MAX)
		return NULL;
	buf_reset(&f->k);
	keys_uri_prefix(&f->k, q->m.segs[at], q->key);
	if (at != last) {
		buf_reset(&f->v);
		keys_uri(&f->v, q->key, bd, bp, bo);
		leveldb_iter_seek(it, f->v.data, f->v.len);
		if (!leveldb_iter_valid(it)) {
			store_fail(f, "reading a queue's head", NULL);
			return NULL;
		}
		k = leveldb_iter_key(it, &kl);
	} else {
		k = leveldb_iter_key(it, &kl);
	}
	v = leveldb_iter_value(it, &vl);
	if (keys_curi_decode(v, vl, &c) < 0) {
		store_fail(f, "decoding a queued URI", NULL);
		return NULL;
	}
	buf_reset(&q->out_key);
	buf_append(&q->out_key, k, kl);
	free(c->queue_key);
	c->queue_key = xstrdup(q->key);
	buf_reset(&f->v);
	if (next)
		keys_uri_at(&f->v, q->m.segs[at], q->key, nd, np, no);
	ahead_fill(f, q, it, f->k.data, f->k.len, next ? f->v.data : NULL, f->v.len);
	return c;
}

/* The head URI of q and its store key, or NULL (store error or empty). */
static struct curi *rotation_peek(struct frontier *f, struct wq *q)
{
	struct curi *c = NULL;
	const char *k, *v;
	size_t kl, vl;

	/* The next URI read with an earlier head, still the head (ahead.h). */
	if (ahead_front(q, &k, &kl, &v, &vl)) {
		if (keys_curi_decode(v, vl, &c) < 0) {
			store_fail(f, "decoding a queued URI", NULL);
			return NULL;
		}
		buf_reset(&q->out_key);
		buf_append(&q->out_key, k, kl);
		ahead_pop(f, q);
		free(c->queue_key);
		c->queue_key = xstrdup(q->key);
		return c;
	}
	/* A URI put since the last write may sort first: write it out. Heads
	 * finished and deleted since then are still in the iterator's view,
	 * and every URI of the queue sorts after them, so seeking past the
	 * last one is enough (the common case when the politeness delay is 0). */
	if (q->batch_puts && residency_write(f, NULL) < 0)
		return NULL;
	/* So is a finished head when a URI enqueued ahead of it and written
	 * since holds the head bound: the seek starts there, before the
	 * finished one, which the store must no longer show. */
	if (q->seek_out && q->m.head_ord > 0 && q->m.head_live && residency_write(f, NULL) < 0)
		return NULL;
	return rotation_seek_head(f, q);
}

/* Activation: the first queue of the best eligible inactive bucket, FIFO,
 * read from the store FRONTIER_PREFETCH keys at a time. 1 if a queue left
 * INACTIVE, 0 if none is eligible, negative on a store error. */
static int rotation_activate(struct frontier *f)
{
	int best = qstate_best_inactive(f), tries;

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
			if (f->wb_ops > 0 && residency_write(f, NULL) < 0)
				return -EIO;
			it = store_iter(f);
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
		q = residency_get(f, p->key, 0);
		if (q != NULL && q->m.state == WQ_INACTIVE && q->m.filed_seq == p->seq &&
		    q->m.filed_precedence == p->prec) {
			free(p->key);
			p->key = NULL;
			/* A queue deactivated by a long snooze keeps its wake
			 * time and serves the rest of it. */
			if (q->m.wake_ms > f->now)
				qstate_set(f, q, WQ_SNOOZED);
			else
				qstate_set(f, q, WQ_READY);
			return 1;
		}
		free(p->key);
		p->key = NULL;
		if (f->error != NULL)
			return -EIO;
	}
	return 0;
}

int rotation_next(struct frontier *f, uint64_t now, struct curi **out, uint64_t *wake_ms)
{
	int polls;

	*out = NULL;
	qstate_wake(f, now);
	due_release(f, now);
	for (polls = 0; polls < ROTATION_POLLS && f->error == NULL; polls++) {
		const struct policy_settings *s;
		struct wq *q = qstate_ready_head(f);
		struct curi *c;

		if (q == NULL) {
			/* One activation per empty poll, lowest precedence
			 * first (checklist 3 and 4). */
			if (rotation_activate(f) > 0)
				continue;
			break;
		}
		if (q->m.count == 0) {
			qstate_set(f, q, WQ_EXHAUSTED);
			continue;
		}
		qstate_reevaluate(f, q);
		if (q->m.precedence >= f->o.precedence_floor) {
			qstate_set(f, q, WQ_INACTIVE);
			continue;
		}
		s = qstate_settings(f, q);
		if (!q->m.active) {
			q->m.active = 1;
			q->m.expenditure_at_activation = q->m.total_expenditure;
			q->session_taken = 0;
		}
		if (s->balance_replenish > 0 &&
		    q->m.total_expenditure - q->m.expenditure_at_activation >
			s->balance_replenish) {
			qstate_set(f, q, WQ_INACTIVE);
			continue;
		}
		if (s->total_budget >= 0 && q->m.total_expenditure >= s->total_budget) {
			qstate_set(f, q, WQ_RETIRED);
			continue;
		}
		c = rotation_peek(f, q);
		if (c == NULL) {
			if (f->error != NULL)
				break;
			/* The count said there was a URI and the store has
			 * none: trust the store. */
			f->c.queued -= q->m.count;
			q->m.count = 0;
			q->m.nhist = 0;
			qstate_set(f, q, WQ_EXHAUSTED);
			continue;
		}
		free(q->m.last_peeked);
		q->m.last_peeked = xstrdup(c->uri);
		q->m.last_dequeue_ms = now;
		q->out = 1;
		q->session_taken++;
		f->in_flight++;
		qstate_set(f, q, WQ_IN_PROCESS);
		*out = c;
		return 1;
	}
	if (qstate_ready_head(f) != NULL || (qstate_eligible_inactive(f) > 0 && f->error == NULL))
		*wake_ms = now;
	else
		*wake_ms = wheel_next(f->wheel);
	/* A revisit coming due wakes the loop as a snooze ending does. */
	if (f->due_next < *wake_ms)
		*wake_ms = f->due_next > now ? f->due_next : now;
	return 0;
}

/* Charges amount to the queue (Heritrix's WorkQueue.expend). */
static void rotation_expend(struct wq *q, int64_t amount)
{
	q->m.total_expenditure += amount;
	if (amount >= 0) {
		q->m.last_cost = amount;
		q->m.cost_count++;
	} else if (q->m.cost_count > 0) {
		q->m.cost_count--;
	}
}

int rotation_may_retry(struct frontier *f, const struct curi *c)
{
	struct wq *q = c->queue_key != NULL ? wq_table_get(f->queues, c->queue_key) : NULL;
	const struct policy_settings *s = q != NULL ? qstate_settings(f, q) : &f->o.defaults;

	return c->attempts + 1 < s->max_retries;
}

unsigned rotation_note_connect(struct frontier *f, const struct curi *c, int failed)
{
	struct wq *q = c->queue_key != NULL ? wq_table_get(f->queues, c->queue_key) : NULL;

	if (q == NULL)
		return 0;
	q->m.failures = failed ? q->m.failures + 1 : 0;
	store_dirty(f, q);
	return q->m.failures;
}

void rotation_finish(struct frontier *f, struct curi *c, enum frontier_outcome o, uint64_t now,
    uint64_t delay_ms, uint64_t due_ms)
{
	struct wq *q = c->queue_key != NULL ? wq_table_get(f->queues, c->queue_key) : NULL;
	const struct policy_settings *s;
	int removed = 0;

	if (now > f->now)
		f->now = now;
	if (q == NULL || !q->out || q->m.state != WQ_IN_PROCESS) {
		store_fail(f, "finishing a URI the frontier did not hand out", NULL);
		curi_free(c);
		return;
	}
	s = qstate_settings(f, q);
	switch (o) {
	case FRONTIER_SUCCESS:
		f->c.succeeded++;
		q->m.successes++;
		rotation_expend(q, c->cost > 0 ? c->cost : 0);
		removed = 1;
		break;
	case FRONTIER_FAILED:
		f->c.failed++;
		q->m.errors++;
		q->m.total_expenditure += s->error_penalty;
		rotation_expend(q, c->cost > 0 ? c->cost : 0);
		removed = 1;
		break;
	case FRONTIER_DISREGARD:
		f->c.disregarded++;
		rotation_expend(q, 0);
		removed = 1;
		break;
	case FRONTIER_RETRY:
		/* Rewritten under the same key: it stays at the head. */
		c->attempts++;
		rotation_expend(q, c->cost > 0 ? c->cost : 0);
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
		store_put(f, &q->out_key, &f->v);
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
		enqueue_head_deleted(q);
		store_del(f, &q->out_key);
		q->m.count--;
		f->c.queued--;
		keys_hist_add(&q->m, c->precedence, -1);
		keys_dir_add(&q->m, c->directive, -1);
		q->seek_out = 1;
		/* A continuous crawl's URI waits for its next visit, in the
		 * same batch as its removal. */
		if (due_ms > 0 && o != FRONTIER_RELOCATED)
			due_park(f, c, due_ms);
	}
	/* A retried or deferred URI stays the head, ahead of what was read
	 * after it. */
	if (!removed)
		ahead_drop(f, q);
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
		qstate_reevaluate(f, q);
		qstate_set(f, q, WQ_EXHAUSTED);
	} else if (delay_ms > 0) {
		q->m.wake_ms = now + delay_ms;
		if (delay_ms > f->o.snooze_deactivate_ms) {
			/* A long snooze leaves the working set (Heritrix 1's
			 * snooze-deactivate), keeping its wake time. */
			qstate_reevaluate(f, q);
			qstate_set(f, q, WQ_INACTIVE);
		} else {
			qstate_reevaluate(f, q);
			qstate_set(f, q, WQ_SNOOZED);
		}
	} else {
		qstate_reenqueue(f, q);
	}
}
