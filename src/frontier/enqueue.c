/* Scheduling: a discovered URI checked against the already-seen set
 * (seen.h) and put on its queue. A URI only the store can judge is held,
 * and the held URIs are checked at the next flush in one sorted pass over
 * the store (the sorted merge), then enqueued in discovery order. Each
 * enqueue keeps the queue's head bound (keys.h) that lets the poll seek
 * straight to the head URI. */
#include "frontier/enqueue.h"
#include "frontier/ahead.h"
#include "frontier/qstate.h"
#include "frontier/residency.h"
#include "frontier/store.h"
#include "lib/history.h"
#include "lib/xmalloc.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Discovered URIs whose seen test needs the store wait, at most this many,
 * for one sorted check at the next flush (seen.h). */
#define ENQUEUE_HELD 4096

int enqueue_preload(struct frontier *f, const char *canon, int precedence)
{
	if (canon == NULL || *canon == '\0' || precedence < 1)
		return -EINVAL;
	buf_reset(&f->k);
	keys_preload(&f->k, canon);
	buf_reset(&f->v);
	buf_appendf(&f->v, "%d", precedence);
	store_put(f, &f->k, &f->v);
	return 0;
}

/* The preloaded precedence of canon, or 0. The pending batch may hold it:
 * a load is followed by a flush before the crawl starts. */
static int enqueue_preloaded(struct frontier *f, const char *canon)
{
	char *v, num[16];
	size_t vlen;
	long p = 0;

	buf_reset(&f->k);
	keys_preload(&f->k, canon);
	if (store_get(f, &f->k, &v, &vlen, "reading a preloaded precedence") < 0)
		return 0;
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
static int enqueue_key_less(int d1, int p1, uint64_t o1, int d2, int p2, uint64_t o2)
{
	return d1 < d2 || (d1 == d2 && (p1 < p2 || (p1 == p2 && o1 < o2)));
}

/* The queue's head bound (keys.h): a URI enqueued below it lowers it. A
 * URI enqueued ahead of the one out must also survive that one's deletion
 * (enqueue_head_deleted), so it lowers the bound too. */
static void enqueue_head_lower(struct wq *q, int dir, int prec, uint64_t ord)
{
	const char *qk;
	size_t ql;
	int od, op;
	uint64_t oo;

	if (prec > KEYS_MAX_PRECEDENCE)
		prec = KEYS_MAX_PRECEDENCE;
	if (q->m.head_ord > 0 &&
	    enqueue_key_less(dir, prec, ord, q->m.head_dir, q->m.head_prec, q->m.head_ord))
		goto lower;
	if (q->m.head_ord > 0 && q->m.head_live)
		return;
	if (q->out &&
	    keys_uri_parse(q->out_key.data, q->out_key.len, &qk, &ql, &od, &op, &oo) == 0 &&
	    enqueue_key_less(dir, prec, ord, od, op, oo))
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
void enqueue_head_deleted(struct wq *q)
{
	const char *qk;
	size_t ql;
	int dir, prec;
	uint64_t ord;

	if (keys_uri_parse(q->out_key.data, q->out_key.len, &qk, &ql, &dir, &prec, &ord) < 0)
		return;
	if (q->m.head_ord > 0 && q->m.head_live &&
	    enqueue_key_less(q->m.head_dir, q->m.head_prec, q->m.head_ord, dir, prec, ord))
		return;
	q->m.head_dir = dir;
	q->m.head_prec = prec;
	q->m.head_ord = ord;
	q->m.head_live = 0;
}

/* Puts c on its queue: was_new says the seen set has just recorded it. */
static int enqueue_uri(struct frontier *f, const struct curi *c, const char *canon,
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
	q = residency_get(f, queue_key, 1);
	if (q == NULL)
		return -EIO;
	qstate_settings_for(f, surt, &s);
	st = *c;
	st.hops = c->hops != NULL ? c->hops : (char *)"";
	st.cost = c->cost >= 0 ? c->cost : policy_cost(s.cost_policy, c->uri, c->via);
	/* A sitemap's hint stands in only where tern precedence-load gave
	 * no value. */
	if (s.uri_policy == POLICY_URI_PRELOADED) {
		pre = c->precedence > 0 && !(c->flags & CURI_HINTED) ? c->precedence
								     : enqueue_preloaded(f, canon);
		if (pre == 0 && (c->flags & CURI_HINTED))
			pre = c->precedence;
	}
	st.precedence = policy_uri_precedence(s.uri_policy, s.uri_base, st.cost, st.hops, pre);
	/* Clamped to what the record decoder accepts back. */
	st.directive = c->directive < 0 ? 0 : c->directive > 255 ? 255 : c->directive;
	st.attempts = c->attempts < 0 ? 0 : c->attempts;
	st.ordinal = ++f->c.next_ordinal;
	st.queue_key = NULL;
	enqueue_head_lower(q, st.directive, st.precedence, st.ordinal);
	buf_reset(&f->k);
	keys_uri(&f->k, queue_key, st.directive, st.precedence, st.ordinal);
	ahead_put(f, q, st.directive, st.precedence, st.ordinal);
	keys_qmeta_seg_add(&q->m, keys_segment(st.ordinal));
	buf_reset(&f->v);
	keys_curi_encode(&f->v, &st);
	store_put(f, &f->k, &f->v);
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
	keys_dir_add(&q->m, st.directive, 1);
	if (q->m.state == WQ_RETIRED) {
		f->c.retired_uris++;
	} else {
		f->c.queued++;
		if (q->m.state == WQ_INACTIVE)
			f->c.inactive_uris[q->m.filed_precedence]++;
	}
	store_dirty(f, q);
	if (q->m.state == WQ_NONE || q->m.state == WQ_EXHAUSTED) {
		q->m.precedence = policy_queue_precedence(s.queue_policy, s.queue_base,
		    keys_hist_min(&q->m), q->m.successes, s.success_counts, s.nsuccess_counts);
		/* hold-queues: new queues wait inactive until needed to keep
		 * the fetchers busy (site-first); otherwise they start ready,
		 * or snoozed for what is left of the politeness delay of the
		 * queue's last fetch (inactive if that is a long snooze). */
		if (f->o.hold_queues || q->m.precedence >= f->o.precedence_floor ||
		    (q->m.wake_ms > f->now && q->m.wake_ms - f->now > f->o.snooze_deactivate_ms))
			qstate_set(f, q, WQ_INACTIVE);
		else if (q->m.wake_ms > f->now)
			qstate_set(f, q, WQ_SNOOZED);
		else
			qstate_set(f, q, WQ_READY);
	} else {
		qstate_reevaluate(f, q);
	}
	return 1;
}

int enqueue_requeue(struct frontier *f, const struct curi *c, const char *surt)
{
	/* Its stored precedence stands for a preloaded one, so the empty
	 * canonical key is never read. */
	return enqueue_uri(f, c, "", c->queue_key, surt, 0);
}

static void enqueue_hold(struct frontier *f, const struct curi *c, const char *canon,
    const char *queue_key, const char *surt)
{
	size_t lu = strlen(c->uri) + 1, lv = c->via != NULL ? strlen(c->via) + 1 : 0;
	size_t lh = c->hops != NULL ? strlen(c->hops) + 1 : 1, lc = strlen(canon) + 1;
	size_t lq = strlen(queue_key) + 1, ls = surt != NULL ? strlen(surt) + 1 : 0;
	struct frontier_held *h = xmalloc(sizeof(*h) + lu + lv + lh + lc + lq + ls);
	char *p = (char *)(h + 1);

	h->c = *c;
	h->c.queue_key = NULL;
	h->c.history = history_dup(c->history);
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
		f->held = xmalloc(ENQUEUE_HELD * sizeof(*f->held));
	f->held[f->nheld++] = h;
}

struct enqueue_sorted {
	const char *canon;
	size_t i;
};

static int enqueue_sorted_cmp(const void *a, const void *b)
{
	const struct enqueue_sorted *x = a, *y = b;
	int c = strcmp(x->canon, y->canon);

	return c != 0 ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* Checks the held URIs against the store in one sorted pass and enqueues
 * the new ones in the order they were discovered, so that ordinals (FIFO
 * within a precedence) are as if each had been scheduled at once. */
void enqueue_resolve_held(struct frontier *f)
{
	size_t n = f->nheld, i;
	struct enqueue_sorted *sorted = xmalloc(n * sizeof(*sorted));
	const char **canon = xmalloc(n * sizeof(*canon));
	unsigned char *fresh = xmalloc(n);
	char *err = NULL;

	for (i = 0; i < n; i++) {
		sorted[i].canon = f->held[i]->canon;
		sorted[i].i = i;
	}
	qsort(sorted, n, sizeof(*sorted), enqueue_sorted_cmp);
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
				enqueue_uri(f, &h->c, h->canon, h->queue_key, h->surt, 1);
		}
	}
	for (i = 0; i < n; i++) {
		history_free(f->held[i]->c.history);
		free(f->held[i]);
	}
	f->nheld = 0;
	free(sorted);
	free(canon);
	free(fresh);
}

int enqueue_schedule(struct frontier *f, const struct curi *c, const char *canon,
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
			return enqueue_uri(f, c, canon, queue_key, surt, 1);
		if (f->nheld == ENQUEUE_HELD)
			enqueue_resolve_held(f);
		enqueue_hold(f, c, canon, queue_key, surt);
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
	return enqueue_uri(f, c, canon, queue_key, surt, r);
}
