/* Reports and walks: Heritrix's frontier summary and the per-queue lines
 * of doc/formats.md, "Reports", built by walking every queue record in the store
 * one at a time (resident queues from memory, which may be newer). */
#include "frontier/qreport.h"
#include "frontier/qstate.h"
#include "frontier/residency.h"
#include "frontier/store.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <string.h>

/* Heritrix's "20 longest queues" of the summary. */
#define QREPORT_LONGEST 20

struct qreport_longest {
	uint64_t count;
	char *line; /* the queue's report line */
};

/* Offers one queue to the top list (longest first; among equals the first
 * offered, i.e. key order, stays ahead). The report line is built only for
 * a queue that gets in, so the scan keeps QREPORT_LONGEST lines at most. */
static void qreport_longest_offer(struct frontier *f, struct qreport_longest *top, size_t *n,
    const char *key, const struct keys_qmeta *m, const struct policy_settings *s)
{
	struct buf line = BUF_INIT;
	size_t i;

	if (m->count == 0 || (*n == QREPORT_LONGEST && m->count <= top[*n - 1].count))
		return;
	if (*n == QREPORT_LONGEST)
		free(top[--*n].line);
	for (i = *n; i > 0 && top[i - 1].count < m->count; i--)
		top[i] = top[i - 1];
	wq_report_line(key, m, s, f->o.precedence_floor, f->now, &line, 0);
	top[i].count = m->count;
	top[i].line = buf_steal(&line);
	(*n)++;
}

typedef void qreport_queue_fn(struct frontier *f, void *arg, const char *key,
    const struct keys_qmeta *m, const struct policy_settings *s);

/* Calls fn for the queue records in the store, one at a time, in key order
 * (resident queues from memory, which may be newer): memory holds one
 * record at a time, whatever the number of queues. With a cursor, at most
 * max records after the queue it names (none: from the first), the cursor
 * left at the last one given and *more set when records remain; without,
 * every record. Returns the number given. */
static size_t qreport_each_queue_from(
    struct frontier *f, struct buf *cursor, size_t max, int *more, qreport_queue_fn *fn, void *arg)
{
	leveldb_iterator_t *it = leveldb_create_iterator(f->db, f->ro);
	struct buf start = BUF_INIT;
	size_t given = 0;
	int after = cursor != NULL && cursor->len > 0;

	if (more != NULL)
		*more = 0;
	keys_queue(&start, cursor != NULL && cursor->data != NULL ? cursor->data : "");
	for (leveldb_iter_seek(it, start.data, start.len); leveldb_iter_valid(it);
	     leveldb_iter_next(it)) {
		size_t kl, vl;
		const char *k = leveldb_iter_key(it, &kl), *v;
		char *key;
		struct wq *q;
		struct keys_qmeta m;
		struct policy_settings s;

		if (kl < 1 || k[0] != KEYS_QUEUE)
			break;
		/* The queue named by the cursor was given by the last step. */
		if (after && kl == start.len && memcmp(k, start.data, kl) == 0)
			continue;
		if (cursor != NULL && given == max) {
			*more = 1;
			break;
		}
		v = leveldb_iter_value(it, &vl);
		key = xstrndup(k + 1, kl - 1);
		q = wq_table_get(f->queues, key);
		if (q != NULL) {
			fn(f, arg, key, &q->m, qstate_settings(f, q));
		} else if (keys_qmeta_decode(v, vl, &m) == 0) {
			qstate_settings_for(f, m.surt, &s);
			fn(f, arg, key, &m, &s);
			keys_qmeta_clear(&m);
		}
		if (cursor != NULL) {
			buf_reset(cursor);
			buf_append(cursor, k + 1, kl - 1);
		}
		free(key);
		given++;
	}
	leveldb_iter_destroy(it);
	buf_free(&start);
	return given;
}

/* Every queue record, after the frontier's resident changes are written. */
static void qreport_each_queue(struct frontier *f, qreport_queue_fn *fn, void *arg)
{
	if (residency_write(f, NULL) < 0)
		return;
	qreport_each_queue_from(f, NULL, 0, NULL, fn, arg);
}

struct qreport_top {
	struct qreport_longest a[QREPORT_LONGEST];
	size_t n;
};

static void qreport_longest_cb(struct frontier *f, void *arg, const char *key,
    const struct keys_qmeta *m, const struct policy_settings *s)
{
	struct qreport_top *top = arg;

	qreport_longest_offer(f, top->a, &top->n, key, m, s);
}

/* The longest queues into out, top's lines freed. */
static void qreport_write_longest(struct qreport_top *top, struct buf *out)
{
	size_t i;

	buf_appendf(out, "\n\n %d longest queues:\n", QREPORT_LONGEST);
	for (i = 0; i < top->n; i++) {
		buf_appendf(out, "  %s", top->a[i].line);
		free(top->a[i].line);
	}
	top->n = 0;
}

struct frontier_longest {
	struct qreport_top top;
	struct buf cursor; /* the last queue key offered */
};

struct frontier_longest *qreport_longest_new(void)
{
	struct frontier_longest *lg = xcalloc(1, sizeof *lg);

	buf_init(&lg->cursor);
	return lg;
}

void qreport_longest_free(struct frontier_longest *lg)
{
	if (lg == NULL)
		return;
	for (size_t i = 0; i < lg->top.n; i++)
		free(lg->top.a[i].line);
	buf_free(&lg->cursor);
	free(lg);
}

size_t qreport_longest_step(struct frontier *f, struct frontier_longest *lg, size_t max, int *more)
{
	return qreport_each_queue_from(f, &lg->cursor, max, more, qreport_longest_cb, &lg->top);
}

static void qreport_summary_with(struct frontier *f, struct qreport_top *top, struct buf *out);

void qreport_summary(struct frontier *f, struct buf *out)
{
	struct qreport_top top;

	top.n = 0;
	qreport_each_queue(f, qreport_longest_cb, &top);
	qreport_summary_with(f, &top, out);
}

void qreport_summary_longest(struct frontier *f, struct frontier_longest *lg, struct buf *out)
{
	qreport_summary_with(f, &lg->top, out);
}

/* The summary with the longest queues already found (top's lines freed). */
static void qreport_summary_with(struct frontier *f, struct qreport_top *top, struct buf *out)
{
	struct frontier_counts n;
	struct seen_stats ss;
	struct wq *q;
	int i;

	qstate_counts(f, &n);
	seen_get_stats(f->seen, &ss);
	buf_appendf(out,
	    "%s - %llu URI queues: %llu active (%llu in-process; %llu ready; "
	    "%llu snoozed); %llu inactive; %llu ineligible; %llu retired; %llu exhausted\n",
	    qstate_is_finished(f) ? "EMPTY" : "RUN", (unsigned long long)n.queues_total,
	    (unsigned long long)(n.in_process + n.ready + n.snoozed),
	    (unsigned long long)n.in_process, (unsigned long long)n.ready,
	    (unsigned long long)n.snoozed, (unsigned long long)n.inactive,
	    (unsigned long long)n.ineligible, (unsigned long long)n.retired,
	    (unsigned long long)n.exhausted);
	buf_appendf(out,
	    "\nFrontier report\n queued URIs: %llu (in flight %llu)\n"
	    " discovered: %llu\n succeeded: %llu\n failed: %llu\n disregarded: %llu\n"
	    " URIs in retired queues: %llu\n URIs in ineligible queues: %llu\n",
	    (unsigned long long)n.queued, (unsigned long long)n.in_flight,
	    (unsigned long long)n.discovered, (unsigned long long)n.succeeded,
	    (unsigned long long)n.failed, (unsigned long long)n.disregarded,
	    (unsigned long long)n.retired_uris, (unsigned long long)n.ineligible_uris);
	if (n.revisits > 0)
		buf_appendf(out, " waiting for a revisit: %llu (next due at %llu ms)\n",
		    (unsigned long long)n.revisits, (unsigned long long)f->due_next);
	buf_appendf(out,
	    " seen set: %llu URIs, memory set %llu URIs in %zu of %zu bytes (%s; "
	    "%llu dropped, %llu moved), Bloom %zu bytes in %u layers; %llu tests: %llu answered "
	    "seen by memory, %llu new by the complete memory set, %llu new by Bloom misses, "
	    "%llu held for %llu sorted checks (%llu store seeks, %llu merge steps, "
	    "%llu false positives)\n",
	    (unsigned long long)ss.added, (unsigned long long)ss.memory_entries, ss.memory_bytes,
	    ss.memory_budget, ss.memory_complete ? "complete" : "partial",
	    (unsigned long long)ss.memory_evicted, (unsigned long long)ss.memory_moved,
	    ss.bloom_bytes, ss.bloom_layers, (unsigned long long)ss.lookups,
	    (unsigned long long)ss.memory_hits, (unsigned long long)ss.memory_new,
	    (unsigned long long)ss.bloom_negative, (unsigned long long)ss.held,
	    (unsigned long long)ss.batches, (unsigned long long)ss.store_reads,
	    (unsigned long long)ss.merge_steps, (unsigned long long)ss.store_misses);
	buf_appends(out, "\n inactive queues by precedence:");
	for (i = 0; i <= KEYS_MAX_QPRECEDENCE; i++)
		if (f->c.inactive[i] > 0)
			buf_appendf(out, " %d:%llu", i, (unsigned long long)f->c.inactive[i]);
	qreport_write_longest(top, out);
	buf_appends(out, "\n ready queues (first 2000):\n");
	if (f->o.best_first) {
		for (i = 0; (size_t)i < f->heap.n && i < 2000; i++)
			buf_appendf(out, "  %s %llu %.3f\n", f->heap.a[i]->key,
			    (unsigned long long)f->heap.a[i]->m.count, f->heap.a[i]->prio);
	}
	for (q = f->ready.head, i = 0; q != NULL && i < 2000; q = q->ready.next, i++)
		buf_appendf(out, "  %s %llu\n", q->key, (unsigned long long)q->m.count);
}

struct qreport_sink {
	struct buf *out;
	FILE *fp;
	int json;
};

static void qreport_queue_cb(struct frontier *f, void *arg, const char *key,
    const struct keys_qmeta *m, const struct policy_settings *s)
{
	struct qreport_sink *k = arg;

	wq_report_line(key, m, s, f->o.precedence_floor, f->now, k->out, k->json);
	if (k->fp != NULL && k->out->len >= 65536) {
		fwrite(k->out->data, 1, k->out->len, k->fp);
		buf_reset(k->out);
	}
}

static void qreport_queues_sink(struct frontier *f, struct buf *out, int json, FILE *fp)
{
	struct qreport_sink k = {out, fp, json};

	qreport_each_queue(f, qreport_queue_cb, &k);
	if (fp != NULL && out->len > 0) {
		fwrite(out->data, 1, out->len, fp);
		buf_reset(out);
	}
}

void qreport_queues(struct frontier *f, struct buf *out, int json)
{
	qreport_queues_sink(f, out, json, NULL);
}

void qreport_queues_fp(struct frontier *f, FILE *fp, int json)
{
	struct buf b = BUF_INIT;

	qreport_queues_sink(f, &b, json, fp);
	buf_free(&b);
}

size_t qreport_queues_step(
    struct frontier *f, struct buf *cursor, size_t max, int json, struct buf *out, int *more)
{
	struct qreport_sink k = {out, NULL, json};

	return qreport_each_queue_from(f, cursor, max, more, qreport_queue_cb, &k);
}

/* One queue record as the walks give it: from memory when resident (it may
 * be newer than the store), else decoded from v. 1 when fn asks to stop, 0
 * otherwise, -1 when v does not decode. */
static int qreport_give(
    struct frontier *f, const char *key, const char *v, size_t vl, frontier_queue_fn *fn, void *arg)
{
	struct frontier_queue_info qi;
	struct wq *q = wq_table_get(f->queues, key);
	struct keys_qmeta m;
	struct policy_settings s;
	int rc;

	if (q != NULL) {
		wq_info(key, &q->m, qstate_settings(f, q), f->o.precedence_floor, f->now, &qi);
		return fn(arg, &qi) == 1;
	}
	if (v == NULL || keys_qmeta_decode(v, vl, &m) < 0)
		return -1;
	qstate_settings_for(f, m.surt, &s);
	wq_info(key, &m, &s, f->o.precedence_floor, f->now, &qi);
	rc = fn(arg, &qi) == 1;
	keys_qmeta_clear(&m);
	return rc;
}

size_t qreport_walk(
    struct frontier *f, const char *after, size_t max, frontier_queue_fn *fn, void *arg, int *more)
{
	leveldb_iterator_t *it = leveldb_create_iterator(f->db, f->ro);
	struct buf start = BUF_INIT;
	size_t given = 0;

	*more = 0;
	keys_queue(&start, after != NULL ? after : "");
	for (leveldb_iter_seek(it, start.data, start.len); leveldb_iter_valid(it);
	     leveldb_iter_next(it)) {
		size_t kl, vl;
		const char *k = leveldb_iter_key(it, &kl);
		const char *v;
		char *key;
		int rc;

		if (kl < 1 || k[0] != KEYS_QUEUE)
			break;
		/* Keys after `after`: the record named by it is not given again. */
		if (kl == start.len && memcmp(k, start.data, kl) == 0 && after != NULL && *after)
			continue;
		if (given == max) {
			*more = 1;
			break;
		}
		v = leveldb_iter_value(it, &vl);
		key = xstrndup(k + 1, kl - 1);
		rc = qreport_give(f, key, v, vl, fn, arg);
		free(key);
		if (rc < 0)
			continue;
		given++;
		if (rc == 1) {
			/* Stopped by fn: is there more after this one? */
			leveldb_iter_next(it);
			if (leveldb_iter_valid(it)) {
				k = leveldb_iter_key(it, &kl);
				*more = kl > 0 && k[0] == KEYS_QUEUE;
			}
			break;
		}
	}
	leveldb_iter_destroy(it);
	buf_free(&start);
	return given;
}

int qreport_get(struct frontier *f, const char *key, frontier_queue_fn *fn, void *arg)
{
	struct buf k = BUF_INIT;
	char *v = NULL;
	size_t vl = 0;
	int rc;

	if (wq_table_get(f->queues, key) != NULL)
		return qreport_give(f, key, NULL, 0, fn, arg) >= 0;
	keys_queue(&k, key);
	rc = store_get(f, &k, &v, &vl, "reading a queue record");
	buf_free(&k);
	if (rc < 0 || v == NULL)
		return 0;
	rc = qreport_give(f, key, v, vl, fn, arg) >= 0;
	leveldb_free(v);
	return rc;
}

struct qreport_found {
	int d, p;
	uint64_t o;
	struct curi *c;
};

static int qreport_found_cmp(const void *a, const void *b)
{
	const struct qreport_found *x = a, *y = b;

	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->o < y->o ? -1 : x->o > y->o;
}

int qreport_head(struct frontier *f, const char *key, size_t n, frontier_uri_fn *fn, void *arg)
{
	struct wq *q = wq_table_get(f->queues, key);
	struct keys_qmeta m;
	const struct keys_qmeta *mp = NULL;
	struct buf prefix = BUF_INIT, start = BUF_INIT, k = BUF_INIT;
	struct qreport_found *found = NULL;
	leveldb_iterator_t *it;
	char *v = NULL;
	size_t vl = 0, nfound = 0, cap = 0, s, i;
	int decoded = 0;

	memset(&m, 0, sizeof m);
	if (q != NULL) {
		mp = &q->m;
	} else {
		keys_queue(&k, key);
		if (store_get(f, &k, &v, &vl, "reading a queue record") == 0 && v != NULL &&
		    keys_qmeta_decode(v, vl, &m) == 0) {
			mp = &m;
			decoded = 1;
		}
		leveldb_free(v);
	}
	it = leveldb_create_iterator(f->db, f->ro);
	/* The first n of each time segment, from the head bound (rotation.c),
	 * past the deleted heads; the first n of them all are the queue's. */
	for (s = 0; mp != NULL && s < mp->nsegs; s++) {
		size_t got = 0;

		buf_reset(&prefix);
		keys_uri_prefix(&prefix, mp->segs[s], key);
		buf_reset(&start);
		if (mp->head_ord > 0)
			keys_uri_at(
			    &start, mp->segs[s], key, mp->head_dir, mp->head_prec, mp->head_ord);
		else
			buf_append(&start, prefix.data, prefix.len);
		for (leveldb_iter_seek(it, start.data, start.len);
		     leveldb_iter_valid(it) && got < n; leveldb_iter_next(it)) {
			size_t kl, ql;
			const char *kk = leveldb_iter_key(it, &kl), *qk;
			const char *vv;
			struct curi *c;
			int d, p;
			uint64_t o;

			if (kl < prefix.len || memcmp(kk, prefix.data, prefix.len) != 0)
				break;
			vv = leveldb_iter_value(it, &vl);
			if (keys_uri_parse(kk, kl, &qk, &ql, &d, &p, &o) < 0 ||
			    keys_curi_decode(vv, vl, &c) < 0)
				continue;
			if (nfound == cap) {
				cap = cap ? cap * 2 : 16;
				found = xrealloc(found, cap * sizeof(*found));
			}
			found[nfound].d = d;
			found[nfound].p = p;
			found[nfound].o = o;
			found[nfound].c = c;
			nfound++;
			got++;
		}
	}
	leveldb_iter_destroy(it);
	if (nfound > 1)
		qsort(found, nfound, sizeof(*found), qreport_found_cmp);
	for (i = 0; i < nfound; i++) {
		if (i < n)
			fn(arg, found[i].c);
		curi_free(found[i].c);
	}
	free(found);
	if (decoded)
		keys_qmeta_clear(&m);
	buf_free(&prefix);
	buf_free(&start);
	buf_free(&k);
	return (int)(nfound < n ? nfound : n);
}
