/* The resident work queue object, its lists and its table (chained hashing
 * that doubles when the load passes 1). */
#include "frontier/wq.h"
#include "frontier/frontier.h"
#include "frontier/seen.h"
#include "lib/xmalloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct wq_table {
	struct wq **b;
	size_t mask, n;
};

/* Reports. */
static void wq_json_str(struct buf *out, const char *s)
{
	buf_appendc(out, '"');
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			buf_appendf(out, "\\%c", ch);
		else if (ch < 0x20)
			buf_appendf(out, "\\u%04x", ch);
		else
			buf_appendc(out, (char)ch);
	}
	buf_appendc(out, '"');
}

static const char *wq_state_word(const struct keys_qmeta *m, int floor)
{
	if (m->state == WQ_INACTIVE && m->filed_precedence >= floor)
		return "INELIGIBLE";
	return wq_state_name(m->state);
}

void wq_info(const char *key, const struct keys_qmeta *m, const struct policy_settings *s,
    int floor, uint64_t now, struct frontier_queue_info *out)
{
	int64_t spent = m->total_expenditure - m->expenditure_at_activation;

	out->key = key;
	out->state = wq_state_word(m, floor);
	out->precedence = m->precedence;
	out->size = m->count;
	out->enqueues = m->enqueues;
	out->errors = m->errors;
	out->last_dequeue_ms = m->last_dequeue_ms;
	out->session_balance = m->active ? s->balance_replenish - spent : s->balance_replenish;
	out->last_cost = m->last_cost;
	out->wake_in_ms = m->wake_ms > now ? (int64_t)(m->wake_ms - now) : 0;
	out->spend = m->total_expenditure;
	out->budget = s->total_budget;
	out->average_cost =
	    m->cost_count > 0 ? (double)m->total_expenditure / (double)m->cost_count : 0;
	out->last_peeked = m->last_peeked;
	out->last_queued = m->last_queued;
}

/* A time of the text report: UTC to the second, or "-" for none. */
static void wq_report_time(char *out, size_t cap, uint64_t ms)
{
	time_t sec = (time_t)(ms / 1000);
	struct tm tm;

	if (ms == 0 || gmtime_r(&sec, &tm) == NULL ||
	    strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(out, cap, "-");
}

/* A wait of the text report: 850ms, 12s, 3m05s, 2h07m, 4d03h; "-" for none. */
static void wq_report_wait(char *out, size_t cap, int64_t ms)
{
	long long s = ms / 1000;

	if (ms <= 0)
		snprintf(out, cap, "-");
	else if (ms < 1000)
		snprintf(out, cap, "%lldms", (long long)ms);
	else if (s < 60)
		snprintf(out, cap, "%llds", s);
	else if (s < 3600)
		snprintf(out, cap, "%lldm%02llds", s / 60, s % 60);
	else if (s < 86400)
		snprintf(out, cap, "%lldh%02lldm", s / 3600, s / 60 % 60);
	else
		snprintf(out, cap, "%lldd%02lldh", s / 86400, s / 3600 % 24);
}

void wq_report_line(const char *key, const struct keys_qmeta *m, const struct policy_settings *s,
    int floor, uint64_t now, struct buf *out, int json)
{
	struct frontier_queue_info q;
	char when[32], wake[32];

	wq_info(key, m, s, floor, now, &q);
	if (json) {
		buf_appends(out, "{\"state\":");
		wq_json_str(out, q.state);
		buf_appends(out, ",\"key\":");
		wq_json_str(out, key);
		buf_appendf(out,
		    ",\"precedence\":%d,\"size\":%llu,\"enqueues\":%llu,"
		    "\"session_balance\":%lld,\"last_cost\":%lld,\"average_cost\":%.2f,"
		    "\"last_dequeue_ms\":%llu,\"wake_in_ms\":%lld,\"spend\":%lld,"
		    "\"budget\":%lld,\"errors\":%llu,\"last_peeked\":",
		    q.precedence, (unsigned long long)q.size, (unsigned long long)q.enqueues,
		    (long long)q.session_balance, (long long)q.last_cost, q.average_cost,
		    (unsigned long long)q.last_dequeue_ms, (long long)q.wake_in_ms,
		    (long long)q.spend, (long long)q.budget, (unsigned long long)q.errors);
		wq_json_str(out, q.last_peeked);
		buf_appends(out, ",\"last_queued\":");
		wq_json_str(out, q.last_queued);
		buf_appends(out, "}\n");
		return;
	}
	wq_report_time(when, sizeof when, q.last_dequeue_ms);
	wq_report_wait(wake, sizeof wake, q.wake_in_ms);
	buf_appendf(out, "%s %s %d %llu %llu %lld %lld(%.2f) %s %s %lld/%lld %llu %s %s\n", q.state,
	    key, q.precedence, (unsigned long long)q.size, (unsigned long long)q.enqueues,
	    (long long)q.session_balance, (long long)q.last_cost, q.average_cost, when, wake,
	    (long long)q.spend, (long long)q.budget, (unsigned long long)q.errors,
	    q.last_peeked ? q.last_peeked : "-", q.last_queued ? q.last_queued : "-");
}

static const char *const wq_names[WQ__COUNT] = {
    "NONE",
    "EXHAUSTED",
    "INACTIVE",
    "READY",
    "IN-PROCESS",
    "SNOOZED",
    "RETIRED",
};

const char *wq_state_name(int state)
{
	return state >= 0 && state < WQ__COUNT ? wq_names[state] : "?";
}

int wq_state_working(int state)
{
	return state == WQ_READY || state == WQ_IN_PROCESS || state == WQ_SNOOZED;
}

struct wq *wq_new(const char *key)
{
	struct wq *q = xcalloc(1, sizeof(*q));

	q->key = xstrdup(key);
	policy_settings_defaults(&q->s);
	wheel_entry_init(&q->wheel);
	buf_init(&q->out_key);
	return q;
}

void wq_free(struct wq *q)
{
	if (q == NULL)
		return;
	keys_qmeta_clear(&q->m);
	buf_free(&q->out_key);
	buf_free(&q->ahead);
	free(q->key);
	free(q);
}

struct wq_table *wq_table_new(void)
{
	struct wq_table *t = xcalloc(1, sizeof(*t));

	t->mask = 1023;
	t->b = xcalloc(t->mask + 1, sizeof(*t->b));
	return t;
}

void wq_table_free(struct wq_table *t)
{
	size_t i;
	struct wq *q, *next;

	if (t == NULL)
		return;
	for (i = 0; i <= t->mask; i++) {
		for (q = t->b[i]; q != NULL; q = next) {
			next = q->hnext;
			wq_free(q);
		}
	}
	free(t->b);
	free(t);
}

static size_t wq_table_slot(const struct wq_table *t, const char *key)
{
	return (size_t)seen_hash(key, strlen(key)) & t->mask;
}

struct wq *wq_table_get(const struct wq_table *t, const char *key)
{
	struct wq *q;

	for (q = t->b[wq_table_slot(t, key)]; q != NULL; q = q->hnext)
		if (strcmp(q->key, key) == 0)
			return q;
	return NULL;
}

static void wq_table_grow(struct wq_table *t)
{
	struct wq **old = t->b;
	size_t oldn = t->mask + 1, i;
	struct wq *q, *next;

	t->mask = oldn * 2 - 1;
	t->b = xcalloc(t->mask + 1, sizeof(*t->b));
	for (i = 0; i < oldn; i++) {
		for (q = old[i]; q != NULL; q = next) {
			size_t s = wq_table_slot(t, q->key);

			next = q->hnext;
			q->hnext = t->b[s];
			t->b[s] = q;
		}
	}
	free(old);
}

void wq_table_put(struct wq_table *t, struct wq *q)
{
	size_t s;

	if (t->n + 1 > t->mask + 1)
		wq_table_grow(t);
	s = wq_table_slot(t, q->key);
	q->hnext = t->b[s];
	t->b[s] = q;
	t->n++;
}

void wq_table_remove(struct wq_table *t, struct wq *q)
{
	struct wq **p;

	for (p = &t->b[wq_table_slot(t, q->key)]; *p != NULL; p = &(*p)->hnext) {
		if (*p == q) {
			*p = q->hnext;
			q->hnext = NULL;
			t->n--;
			return;
		}
	}
}

static struct wq_link *wq_link_of(struct wq *q, size_t off)
{
	return (struct wq_link *)((char *)q + off);
}

void wq_list_append(struct wq_list *l, struct wq *q, size_t off)
{
	struct wq_link *k = wq_link_of(q, off);

	k->next = NULL;
	k->prev = l->tail;
	if (l->tail != NULL)
		wq_link_of(l->tail, off)->next = q;
	else
		l->head = q;
	l->tail = q;
	l->n++;
}

void wq_list_unlink(struct wq_list *l, struct wq *q, size_t off)
{
	struct wq_link *k = wq_link_of(q, off);

	if (k->prev != NULL)
		wq_link_of(k->prev, off)->next = k->next;
	else
		l->head = k->next;
	if (k->next != NULL)
		wq_link_of(k->next, off)->prev = k->prev;
	else
		l->tail = k->prev;
	k->next = k->prev = NULL;
	l->n--;
}

static int wq_heap_less(const struct wq *a, const struct wq *b)
{
	return a->prio < b->prio || (a->prio == b->prio && a->rseq < b->rseq);
}

static void wq_heap_set(struct wq_heap *h, size_t i, struct wq *q)
{
	h->a[i] = q;
	q->heap_idx = i;
}

static void wq_heap_up(struct wq_heap *h, size_t i)
{
	struct wq *q = h->a[i];

	while (i > 0 && wq_heap_less(q, h->a[(i - 1) / 2])) {
		wq_heap_set(h, i, h->a[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	wq_heap_set(h, i, q);
}

static void wq_heap_down(struct wq_heap *h, size_t i)
{
	struct wq *q = h->a[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && wq_heap_less(h->a[c + 1], h->a[c]))
			c++;
		if (!wq_heap_less(h->a[c], q))
			break;
		wq_heap_set(h, i, h->a[c]);
		i = c;
	}
	wq_heap_set(h, i, q);
}

void wq_heap_push(struct wq_heap *h, struct wq *q)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->a = xrealloc(h->a, h->cap * sizeof(*h->a));
	}
	h->a[h->n] = q;
	wq_heap_up(h, h->n++);
}

void wq_heap_remove(struct wq_heap *h, struct wq *q)
{
	size_t i = q->heap_idx;
	struct wq *last = h->a[--h->n];

	if (i == h->n)
		return;
	wq_heap_set(h, i, last);
	if (i > 0 && wq_heap_less(last, h->a[(i - 1) / 2]))
		wq_heap_up(h, i);
	else
		wq_heap_down(h, i);
}

void wq_heap_free(struct wq_heap *h)
{
	free(h->a);
	h->a = NULL;
	h->n = h->cap = 0;
}
