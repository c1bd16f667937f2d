/* The queue state machine. qstate_set is the one place where a queue's
 * state changes: it moves the queue between the structures that represent
 * the states (the ready list or heap, the snooze wheel, the store's
 * inactive and retired keys, the working-set keys, the cold list) and keeps
 * the counters, so that all of them always agree with q->m.state. Around it:
 * where a queue goes next (reevaluate, reenqueue, wake, restore), the
 * per-queue settings that decide its precedence, and the counts by state. */
#include "frontier/qstate.h"
#include "frontier/ahead.h"
#include "frontier/residency.h"
#include "frontier/store.h"
#include "lib/xmalloc.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define QSTATE_READY offsetof(struct wq, ready)

void qstate_settings_for(struct frontier *f, const char *surt, struct policy_settings *s)
{
	if (f->o.settings_for != NULL && surt != NULL)
		f->o.settings_for(f->o.settings_ctx, surt, s);
	else
		*s = f->o.defaults;
}

/* The queue's settings, from the SURT of the last URI placed on it. */
const struct policy_settings *qstate_settings(struct frontier *f, struct wq *q)
{
	if (q->s_gen != f->settings_gen) {
		qstate_settings_for(f, q->m.surt, &q->s);
		q->s_gen = f->settings_gen;
	}
	return &q->s;
}

/* The lowest inactive bucket holding a queue, or 256 if none. */
int qstate_best_inactive(const struct frontier *f)
{
	int p;

	for (p = 0; p <= KEYS_MAX_QPRECEDENCE; p++)
		if (f->c.inactive[p] > 0)
			return p;
	return KEYS_MAX_QPRECEDENCE + 1;
}

uint64_t qstate_eligible_inactive(const struct frontier *f)
{
	uint64_t n = 0;
	int p;

	for (p = 0; p < f->o.precedence_floor && p <= KEYS_MAX_QPRECEDENCE; p++)
		n += f->c.inactive[p];
	return n;
}

struct wq *qstate_ready_head(const struct frontier *f)
{
	if (f->o.best_first)
		return f->heap.n > 0 ? f->heap.a[0] : NULL;
	return f->ready.head;
}

size_t qstate_nready(const struct frontier *f)
{
	return f->o.best_first ? f->heap.n : f->ready.n;
}

/* The state machine: every change of a queue's state goes through here, so
 * the structures that represent states (ready list, wheel, store lists,
 * counters, working-set keys) always agree with q->m.state. */
void qstate_set(struct frontier *f, struct wq *q, int state)
{
	int old = q->m.state;

	switch (old) {
	case WQ_READY:
		if (f->o.best_first)
			wq_heap_remove(&f->heap, q);
		else
			wq_list_unlink(&f->ready, q, QSTATE_READY);
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
		store_del(f, &f->k);
		f->c.inactive[q->m.filed_precedence]--;
		f->c.inactive_uris[q->m.filed_precedence] -= q->m.count;
		break;
	case WQ_RETIRED:
		buf_reset(&f->k);
		keys_retired(&f->k, q->m.filed_seq);
		store_del(f, &f->k);
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
			wq_list_append(&f->ready, q, QSTATE_READY);
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
		q->m.filed_precedence =
		    q->m.precedence > KEYS_MAX_QPRECEDENCE ? KEYS_MAX_QPRECEDENCE : q->m.precedence;
		q->m.filed_seq = ++f->c.next_seq;
		buf_reset(&f->k);
		keys_inactive(&f->k, q->m.filed_precedence, q->m.filed_seq);
		buf_reset(&f->v);
		buf_appends(&f->v, q->key);
		store_put(f, &f->k, &f->v);
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
		store_put(f, &f->k, &f->v);
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
		residency_cold_del(f, q);
		buf_reset(&f->k);
		keys_active(&f->k, q->key);
		store_put(f, &f->k, NULL);
	} else if (!wq_state_working(state) && wq_state_working(old)) {
		buf_reset(&f->k);
		keys_active(&f->k, q->key);
		store_del(f, &f->k);
		residency_cold_add(f, q);
		/* The read-ahead budget is for the queues being crawled. */
		ahead_drop(f, q);
	}
	store_dirty(f, q);
}

/* Re-evaluates the queue's precedence, after every enqueue, completion and
 * wake (Heritrix only does so after zero-delay completions). */
void qstate_reevaluate(struct frontier *f, struct wq *q)
{
	const struct policy_settings *s = qstate_settings(f, q);
	int p = policy_queue_precedence(s->queue_policy, s->queue_base, keys_hist_min(&q->m),
	    q->m.successes, s->success_counts, s->nsuccess_counts);

	if (p != q->m.precedence) {
		q->m.precedence = p;
		store_dirty(f, q);
		/* An inactive queue is refiled at its new precedence; Heritrix
		 * files it a second time instead (reference section 22.13). */
		if (q->m.state == WQ_INACTIVE)
			qstate_set(f, q, WQ_INACTIVE);
	}
}

/* Where a queue goes when it has nothing in flight and no delay to serve:
 * EXHAUSTED when empty (detected at once, not at the next poll); INACTIVE
 * when at or past the floor or when a strictly better queue waits; else the
 * tail of READY. */
void qstate_reenqueue(struct frontier *f, struct wq *q)
{
	qstate_reevaluate(f, q);
	if (q->m.count == 0) {
		qstate_set(f, q, WQ_EXHAUSTED);
		return;
	}
	if (q->m.precedence >= f->o.precedence_floor || qstate_best_inactive(f) < q->m.precedence)
		qstate_set(f, q, WQ_INACTIVE);
	else
		qstate_set(f, q, WQ_READY);
}

void qstate_wake(struct frontier *f, uint64_t now)
{
	struct wheel_entry *e;

	while ((e = wheel_expire(f->wheel, now)) != NULL) {
		struct wq *q = (struct wq *)((char *)e - offsetof(struct wq, wheel));

		/* The wheel already took it off; WQ_NONE keeps set_state from
		 * removing it a second time. */
		q->m.state = WQ_NONE;
		residency_cold_add(f, q);
		buf_reset(&f->k);
		keys_active(&f->k, q->key);
		store_del(f, &f->k);
		qstate_reenqueue(f, q);
	}
}

void qstate_restore(struct frontier *f, struct wq *q)
{
	q->m.state = WQ_NONE;
	if (q->m.count == 0) {
		buf_reset(&f->k);
		keys_active(&f->k, q->key);
		store_del(f, &f->k);
		qstate_set(f, q, WQ_EXHAUSTED);
	} else if (q->m.wake_ms > f->now)
		qstate_set(f, q, WQ_SNOOZED);
	else
		qstate_set(f, q, WQ_READY);
}

int qstate_reconsider_retired(struct frontier *f)
{
	leveldb_iterator_t *it;
	char **keys = NULL;
	size_t n = 0, cap = 0, i;
	int moved = 0;

	if (f->c.retired == 0)
		return 0;
	if (residency_write(f, NULL) < 0)
		return -EIO;
	it = store_iter(f);
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
		struct wq *q = residency_get(f, keys[i], 0);

		if (q != NULL && q->m.state == WQ_RETIRED) {
			qstate_set(f, q, WQ_INACTIVE);
			moved++;
		}
		free(keys[i]);
	}
	free(keys);
	return f->error != NULL ? -EIO : moved;
}

void qstate_counts(const struct frontier *f, struct frontier_counts *out)
{
	int p;

	memset(out, 0, sizeof(*out));
	out->queued = f->c.queued;
	out->in_flight = f->in_flight;
	out->queues_total = f->c.queues_total;
	out->in_process = f->nin_process;
	out->ready = qstate_nready(f);
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
	out->exhausted = out->queues_total - out->in_process - out->ready - out->snoozed -
	    out->inactive - out->ineligible - out->retired;
	out->succeeded = f->c.succeeded;
	out->failed = f->c.failed;
	out->disregarded = f->c.disregarded;
	out->discovered = f->c.discovered;
	out->revisits = f->c.revisits;
}

int qstate_is_finished(const struct frontier *f)
{
	return f->in_flight == 0 && f->nheld == 0 && qstate_nready(f) == 0 &&
	    wheel_count(f->wheel) == 0 && qstate_eligible_inactive(f) == 0;
}
