/* The console's queue pages (consolequeues.h). A sorted view is a walk
 * over every queue record, CONSOLEQUEUES_STEP records per loop iteration
 * from an idle handle, keeping the best rows in a bounded heap; the
 * requests waiting for it are answered when it ends. */
#include "ops/consolequeues.h"
#include "frontier/frontier.h"
#include "lib/clock.h"
#include "ops/html.h"
#include "lib/surt.h"
#include "lib/topn.h"
#include "lib/xmalloc.h"
#include "ops/consolelog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How long a finished walk answers the next pages of the same view. */
#define CONSOLEQUEUES_KEEP_MS 5000
/* Next URIs and crawl.log lines on a queue's page. */
#define CONSOLEQUEUES_HEAD 20

struct consolequeues_row {
	int64_t sortv;
	struct frontier_queue_info info; /* its strings owned by the row */
};

struct consolequeues_walk {
	struct consolequeues *cq;
	char state[16], sort[8];
	size_t keep;			/* rows kept: the pages asked for */
	struct topn *top;		/* the best rows met so far */
	struct consolequeues_row *rows; /* top's, sorted once done */
	size_t n;
	struct buf cursor; /* the last key walked */
	uint64_t walked, matched, done_ms;
	int done;
	struct consoleview_wait *waiters;
	struct consolequeues_walk *next;
};

struct consolequeues {
	struct frontier *f;
	uv_idle_t idle;
	int idle_on;
	struct consolequeues_walk *walks; /* under way, and finished ones kept */
};

static void consolequeues_row_free(struct consolequeues_row *row)
{
	free((char *)row->info.key);
	free((char *)row->info.state);
	free((char *)row->info.last_peeked);
	free((char *)row->info.last_queued);
}

static void consolequeues_row_copy(
    struct consolequeues_row *row, const struct frontier_queue_info *qi, int64_t sortv)
{
	row->sortv = sortv;
	row->info = *qi;
	row->info.key = xstrdup(qi->key);
	row->info.state = xstrdup(qi->state);
	row->info.last_peeked = qi->last_peeked != NULL ? xstrdup(qi->last_peeked) : NULL;
	row->info.last_queued = qi->last_queued != NULL ? xstrdup(qi->last_queued) : NULL;
}

/* The sort value of a queue in view `sort`. */
static int64_t consolequeues_sortv(const char *sort, const struct frontier_queue_info *qi)
{
	if (strcmp(sort, "spend") == 0)
		return qi->spend;
	if (strcmp(sort, "errors") == 0)
		return (int64_t)qi->errors;
	return (int64_t)qi->size;
}

/* Row a before row b in the view (a topn order): the larger value, then
 * the smaller key. */
static int consolequeues_before(const void *va, const void *vb, void *ctx)
{
	const struct consolequeues_row *a = va, *b = vb;

	(void)ctx;
	if (a->sortv != b->sortv)
		return a->sortv > b->sortv;
	return strcmp(a->info.key, b->info.key) < 0;
}

static int consolequeues_state_ok(const char *want, const char *state)
{
	return *want == '\0' || strcasecmp(want, state) == 0;
}

static int consolequeues_offer_cb(void *arg, const struct frontier_queue_info *qi)
{
	struct consolequeues_walk *w = arg;
	struct consolequeues_row cand;

	buf_reset(&w->cursor);
	buf_appends(&w->cursor, qi->key);
	w->walked++;
	if (!consolequeues_state_ok(w->state, qi->state))
		return 0;
	w->matched++;
	cand.sortv = consolequeues_sortv(w->sort, qi);
	cand.info = *qi;
	if (topn_admits(w->top, &cand)) {
		struct consolequeues_row row, out;

		consolequeues_row_copy(&row, qi, cand.sortv);
		if (topn_push(w->top, &row, &out) == 1)
			consolequeues_row_free(&out);
	}
	return 0;
}

static void consolequeues_state_class(struct buf *out, const char *state)
{
	for (const char *p = state; *p; p++)
		buf_appendc(out,
		    *p >= 'A' && *p <= 'Z' ? (char)(*p + 32)
					   : ((*p >= 'a' && *p <= 'z') || *p == '-' ? *p : '-'));
}

static void consolequeues_cell_num(struct buf *out, int64_t v)
{
	buf_appends(out, "<td class=\"n\">");
	if (v < 0) {
		buf_appendc(out, '-');
		consoleview_num(out, (uint64_t)-v);
	} else {
		consoleview_num(out, (uint64_t)v);
	}
	buf_appends(out, "</td>");
}

static void consolequeues_cell_text(struct buf *out, const char *cls, const char *s)
{
	buf_appends(out, cls != NULL ? "<td class=\"" : "<td>");
	if (cls != NULL) {
		buf_appends(out, cls);
		buf_appends(out, "\">");
	}
	html_texts(out, s != NULL ? s : "-");
	buf_appends(out, "</td>");
}

static void consolequeues_row_html(
    struct buf *out, const struct consoleview_rq *q, const struct frontier_queue_info *qi)
{
	buf_appends(out, "<tr><td><span class=\"qs qs-");
	consolequeues_state_class(out, qi->state);
	buf_appends(out, "\">");
	html_texts(out, qi->state);
	buf_appends(out, "</span></td><td class=\"key\"><a href=\"");
	consoleview_href(out, q, "queue", "key", qi->key, (const char *)NULL);
	buf_appends(out, "\">");
	html_texts(out, qi->key);
	buf_appends(out, "</a></td>");
	consolequeues_cell_num(out, qi->precedence);
	consolequeues_cell_num(out, (int64_t)qi->size);
	consolequeues_cell_num(out, (int64_t)qi->enqueues);
	consolequeues_cell_num(out, qi->session_balance);
	buf_appendf(
	    out, "<td class=\"n\">%lld (%.2f)</td>", (long long)qi->last_cost, qi->average_cost);
	buf_appends(out, "<td>");
	consoleview_time(out, qi->last_dequeue_ms);
	buf_appends(out, "</td>");
	buf_appendf(out, "<td class=\"n\">%.1f s</td>", (double)qi->wake_in_ms / 1000.0);
	buf_appends(out, "<td class=\"n\">");
	consoleview_num(out, (uint64_t)(qi->spend > 0 ? qi->spend : 0));
	buf_appends(out, " / ");
	if (qi->budget < 0)
		buf_appends(out, "none");
	else
		consoleview_num(out, (uint64_t)qi->budget);
	buf_appends(out, "</td>");
	consolequeues_cell_num(out, (int64_t)qi->errors);
	consolequeues_cell_text(out, "uri", qi->last_peeked);
	consolequeues_cell_text(out, "uri", qi->last_queued);
	buf_appends(out, "</tr>\n");
}

static void consolequeues_options(struct buf *out, const char *const *values,
    const char *const *labels, size_t n, const char *selected)
{
	for (size_t i = 0; i < n; i++) {
		buf_appends(out,
		    strcmp(values[i], selected) == 0 ? "<option selected value=\""
						     : "<option value=\"");
		buf_appends(out, values[i]);
		buf_appends(out, "\">");
		buf_appends(out, labels[i]);
		buf_appends(out, "</option>");
	}
}

/* The list page around rows, note and pager. */
static void consolequeues_render(
    const struct consoleview_rq *q, const char *rows, const char *note, const char *pager)
{
	static const char *const sv[] = {
	    "", "in-process", "ready", "snoozed", "inactive", "ineligible", "retired", "exhausted"};
	static const char *const sl[] = {"all", "in process", "ready", "snoozed", "inactive",
	    "ineligible", "retired", "exhausted"};
	static const char *const ov[] = {"key", "size", "spend", "errors"};
	static const char *const ol[] = {
	    "key", "size (most first)", "spend (most first)", "errors (most first)"};
	struct buf so = BUF_INIT, oo = BUF_INIT, tok = BUF_INIT;

	consolequeues_options(&so, sv, sl, 8, q->r->state);
	consolequeues_options(&oo, ov, ol, 4, q->r->sort[0] ? q->r->sort : "key");
	consoleview_token_input(&tok, q);
	{
		const struct tmpl_var v[] = {
		    {"token-input", tok.data, 1},
		    {"state-options", so.data, 1},
		    {"sort-options", oo.data, 1},
		    {"note", note, 0},
		    {"rows", rows, 1},
		    {"pager", pager, 1},
		};
		consoleview_page(q, "queues", "Queues", "queues.html", v, sizeof v / sizeof v[0]);
	}
	buf_free(&so);
	buf_free(&oo);
	buf_free(&tok);
}

struct consolequeues_keyed {
	const struct consoleview_rq *q;
	struct buf *rows;
	struct buf last;
	size_t shown, walked;
};

static int consolequeues_keyed_cb(void *arg, const struct frontier_queue_info *qi)
{
	struct consolequeues_keyed *k = arg;

	buf_reset(&k->last);
	buf_appends(&k->last, qi->key);
	k->walked++;
	if (!consolequeues_state_ok(k->q->r->state, qi->state))
		return 0;
	consolequeues_row_html(k->rows, k->q, qi);
	return ++k->shown == CONSOLEREQ_PAGE_ROWS;
}

/* Key order: one bounded piece of the walk, from the key after the last
 * one the previous page walked. */
static void consolequeues_keyed(struct consolequeues *cq, const struct consoleview_rq *q)
{
	struct consolequeues_keyed k = {q, NULL, BUF_INIT, 0, 0};
	struct buf rows = BUF_INIT, note = BUF_INIT, pager = BUF_INIT;
	int more = 0;

	k.rows = &rows;
	buf_appends(&rows, "");
	buf_appends(&pager, "");
	frontier_walk_queues(
	    cq->f, q->r->key.data, CONSOLEQUEUES_SCAN, consolequeues_keyed_cb, &k, &more);
	if (k.shown == 0)
		buf_appends(
		    &rows, "<tr><td class=\"empty\" colspan=\"13\">no queue here</td></tr>\n");
	buf_appendf(&note, "%zu queues%s%s, in key order%s; %zu queue records read for this page",
	    k.shown, q->r->state[0] ? " " : "", q->r->state,
	    q->r->key.len > 0 ? " after the last "
				"page's"
			      : "",
	    k.walked);
	if (more && k.shown < CONSOLEREQ_PAGE_ROWS)
		buf_appendf(&note, " (at most %d a page: Next goes on)", CONSOLEQUEUES_SCAN);
	buf_appendc(&note, '.');
	if (q->r->key.len > 0) {
		buf_appends(&pager, "<a href=\"");
		consoleview_href(&pager, q, "queues", "state", q->r->state, (const char *)NULL);
		buf_appends(&pager, "\">First</a>");
	}
	if (more) {
		buf_appends(&pager, "<a href=\"");
		consoleview_href(&pager, q, "queues", "state", q->r->state, "after", k.last.data,
		    (const char *)NULL);
		buf_appends(&pager, "\">Next</a>");
	}
	consolequeues_render(q, rows.data, note.data, pager.data);
	buf_free(&rows);
	buf_free(&note);
	buf_free(&pager);
	buf_free(&k.last);
}

/* A finished walk's page for q. */
static void consolequeues_sorted_page(
    const struct consolequeues_walk *w, const struct consoleview_rq *q)
{
	struct buf rows = BUF_INIT, note = BUF_INIT, pager = BUF_INIT;
	size_t from = (size_t)(q->r->pageno - 1) * CONSOLEREQ_PAGE_ROWS,
	       to = from + CONSOLEREQ_PAGE_ROWS;
	char page[16];

	buf_appends(&rows, "");
	buf_appends(&pager, "");
	if (to > w->n)
		to = w->n;
	for (size_t i = from; i < to; i++)
		consolequeues_row_html(&rows, q, &w->rows[i].info);
	if (from >= to)
		buf_appends(
		    &rows, "<tr><td class=\"empty\" colspan=\"13\">no queue here</td></tr>\n");
	buf_appendf(&note, "%llu of %llu queues%s%s, by %s, most first; rows %zu to %zu.",
	    (unsigned long long)w->matched, (unsigned long long)w->walked,
	    w->state[0] ? " are " : "", w->state, w->sort, from < to ? from + 1 : 0, to);
	if (q->r->pageno > 1) {
		snprintf(page, sizeof page, "%u", q->r->pageno - 1);
		buf_appends(&pager, "<a href=\"");
		consoleview_href(&pager, q, "queues", "state", w->state, "sort", w->sort, "page",
		    page, (const char *)NULL);
		buf_appends(&pager, "\">Previous</a>");
	}
	if ((uint64_t)q->r->pageno * CONSOLEREQ_PAGE_ROWS < w->matched &&
	    q->r->pageno < CONSOLEREQ_MAX_PAGE) {
		snprintf(page, sizeof page, "%u", q->r->pageno + 1);
		buf_appends(&pager, "<a href=\"");
		consoleview_href(&pager, q, "queues", "state", w->state, "sort", w->sort, "page",
		    page, (const char *)NULL);
		buf_appends(&pager, "\">Next</a>");
	}
	consolequeues_render(q, rows.data, note.data, pager.data);
	buf_free(&rows);
	buf_free(&note);
	buf_free(&pager);
}

static void consolequeues_walk_free(struct consolequeues_walk *w)
{
	w->rows = topn_sorted(w->top, &w->n);
	for (size_t i = 0; i < w->n; i++)
		consolequeues_row_free(&w->rows[i]);
	topn_free(w->top);
	buf_free(&w->cursor);
	free(w);
}

static void consolequeues_finish(struct consolequeues_walk *w)
{
	w->rows = topn_sorted(w->top, &w->n);
	w->done = 1;
	w->done_ms = clock_wall_ms();
	while (w->waiters != NULL) {
		consolequeues_sorted_page(w, consoleview_wait_rq(w->waiters));
		consoleview_wait_send(w->waiters);
	}
}

static void consolequeues_idle_cb(uv_idle_t *h)
{
	struct consolequeues *cq = h->data;
	int running = 0;

	for (struct consolequeues_walk *w = cq->walks; w != NULL; w = w->next) {
		int more = 0;
		if (w->done)
			continue;
		frontier_walk_queues(
		    cq->f, w->cursor.data, CONSOLEQUEUES_STEP, consolequeues_offer_cb, w, &more);
		if (more)
			running = 1;
		else
			consolequeues_finish(w);
	}
	if (!running) {
		uv_idle_stop(&cq->idle);
		cq->idle_on = 0;
	}
}

/* Drops finished walks past their time (and any nobody waits for). */
static void consolequeues_prune(struct consolequeues *cq)
{
	uint64_t now = clock_wall_ms();

	for (struct consolequeues_walk **pp = &cq->walks; *pp != NULL;) {
		struct consolequeues_walk *w = *pp;
		if (w->done && now - w->done_ms > CONSOLEQUEUES_KEEP_MS) {
			*pp = w->next;
			consolequeues_walk_free(w);
		} else {
			pp = &w->next;
		}
	}
}

static void consolequeues_sorted(struct consolequeues *cq, const struct consoleview_rq *q)
{
	/* Four pages more than asked for, so that Next is served by this walk. */
	size_t keep = (size_t)(q->r->pageno + 4 < CONSOLEREQ_MAX_PAGE ? q->r->pageno + 4
								      : CONSOLEREQ_MAX_PAGE) *
	    CONSOLEREQ_PAGE_ROWS;
	struct consolequeues_walk *w;

	consolequeues_prune(cq);
	for (w = cq->walks; w != NULL; w = w->next)
		if (strcmp(w->state, q->r->state) == 0 && strcmp(w->sort, q->r->sort) == 0 &&
		    w->keep >= (size_t)q->r->pageno * CONSOLEREQ_PAGE_ROWS)
			break;
	if (w != NULL && w->done) {
		consolequeues_sorted_page(w, q);
		return;
	}
	if (w == NULL) {
		w = xcalloc(1, sizeof *w);
		w->cq = cq;
		snprintf(w->state, sizeof w->state, "%s", q->r->state);
		snprintf(w->sort, sizeof w->sort, "%s", q->r->sort);
		w->keep = keep;
		w->top =
		    topn_new(keep, sizeof(struct consolequeues_row), consolequeues_before, NULL);
		buf_appends(&w->cursor, "");
		w->next = cq->walks;
		cq->walks = w;
		if (!cq->idle_on) {
			uv_idle_start(&cq->idle, consolequeues_idle_cb);
			cq->idle_on = 1;
		}
	}
	consoleview_wait(q, &w->waiters);
}

void consolequeues_list(struct consolequeues *cq, const struct consoleview_rq *q)
{
	if (q->r->sort[0] == '\0' || strcmp(q->r->sort, "key") == 0)
		consolequeues_keyed(cq, q);
	else
		consolequeues_sorted(cq, q);
}

static void consolequeues_field(struct buf *out, const char *label, const char *value, int num)
{
	buf_appends(out, "<tr><th>");
	buf_appends(out, label);
	buf_appends(out, num ? "</th><td class=\"n\">" : "</th><td class=\"uri\">");
	html_texts(out, value != NULL ? value : "-");
	buf_appends(out, "</td></tr>\n");
}

static int consolequeues_fields_cb(void *arg, const struct frontier_queue_info *qi)
{
	struct buf *out = arg, v = BUF_INIT;

	consolequeues_field(out, "Queue", qi->key, 0);
	consolequeues_field(out, "State", qi->state, 0);
	buf_appendf(&v, "%d", qi->precedence);
	consolequeues_field(out, "Precedence", v.data, 1);
	buf_reset(&v);
	consoleview_num(&v, qi->size);
	consolequeues_field(out, "Size (URIs queued)", v.data, 1);
	buf_reset(&v);
	consoleview_num(&v, qi->enqueues);
	consolequeues_field(out, "Total enqueues", v.data, 1);
	buf_reset(&v);
	buf_appendf(&v, "%lld", (long long)qi->session_balance);
	consolequeues_field(out, "Session balance", v.data, 1);
	buf_reset(&v);
	buf_appendf(&v, "%lld (%.2f)", (long long)qi->last_cost, qi->average_cost);
	consolequeues_field(out, "Last (average) cost", v.data, 1);
	buf_reset(&v);
	consoleview_time(&v, qi->last_dequeue_ms);
	consolequeues_field(out, "Last dequeue (UTC)", v.data, 1);
	buf_reset(&v);
	buf_appendf(&v, "%.1f s", (double)qi->wake_in_ms / 1000.0);
	consolequeues_field(out, "Wakes in", v.data, 1);
	buf_reset(&v);
	buf_appendf(&v, "%lld / ", (long long)qi->spend);
	if (qi->budget < 0)
		buf_appends(&v, "none");
	else
		buf_appendf(&v, "%lld", (long long)qi->budget);
	consolequeues_field(out, "Total spend / budget", v.data, 1);
	buf_reset(&v);
	consoleview_num(&v, qi->errors);
	consolequeues_field(out, "Errors", v.data, 1);
	consolequeues_field(out, "Last peeked", qi->last_peeked, 0);
	consolequeues_field(out, "Last queued", qi->last_queued, 0);
	buf_free(&v);
	return 1;
}

static void consolequeues_uri_cb(void *arg, const struct curi *c)
{
	struct buf *out = arg;

	buf_appends(out, "<li>");
	html_texts(out, c->uri);
	buf_appendf(out, " <small>precedence %d, hops ", c->precedence);
	html_texts(out, c->hops != NULL && c->hops[0] ? c->hops : "-");
	if (c->attempts > 0)
		buf_appendf(out, ", %d attempts", c->attempts);
	buf_appends(out, ", via ");
	html_texts(out, c->via != NULL ? c->via : "-");
	buf_appends(out, "</small></li>\n");
}

void consolequeues_detail(struct consolequeues *cq, const struct consoleview_rq *q)
{
	struct buf fields = BUF_INIT, next = BUF_INIT, log = BUF_INIT, host = BUF_INIT;
	struct buf next_note = BUF_INIT, log_note = BUF_INIT;
	struct consolelog_result res;
	struct logline_filter lf = {NULL, NULL, NULL};
	char *err = NULL;
	int n;

	if (frontier_queue_get(cq->f, q->r->key.data, consolequeues_fields_cb, &fields) != 1) {
		consoleview_error(q->reply, 404, "no such queue", 0);
		buf_free(&fields);
		return;
	}
	buf_appends(&next, "");
	n = frontier_queue_head(
	    cq->f, q->r->key.data, CONSOLEQUEUES_HEAD, consolequeues_uri_cb, &next);
	buf_appendf(&next_note,
	    n < 0	 ? "could not read the queue's URIs"
		: n == 0 ? "the queue holds no URI"
			 : "the first %d, in the order they will be fetched",
	    n);
	surt_queue_host(q->r->key.data, &host);
	lf.host = host.data;
	buf_appends(&log, "");
	if (consolelog_rows(q->jobdir, &lf, 0, CONSOLEQUEUES_HEAD, 0, &log, &res, &err) < 0) {
		buf_appends(&log_note, err);
		free(err);
	} else {
		buf_appendf(&log_note, "%zu newest lines of the host ", res.rows);
		buf_appends(&log_note, host.data);
		buf_appendf(&log_note, " in the last %llu KiB of crawl.log.",
		    (unsigned long long)(res.scanned / 1024));
		if (res.rows == 0)
			buf_appends(&log, "<tr><td class=\"empty\" colspan=\"7\">none</td></tr>\n");
	}
	{
		const struct tmpl_var v[] = {
		    {"fields", fields.data, 1},
		    {"next-note", next_note.data, 0},
		    {"next", next.data, 1},
		    {"log-note", log_note.data, 0},
		    {"log", log.data, 1},
		};
		consoleview_page(
		    q, "queue", q->r->key.data, "queue.html", v, sizeof v / sizeof v[0]);
	}
	buf_free(&fields);
	buf_free(&next);
	buf_free(&log);
	buf_free(&host);
	buf_free(&next_note);
	buf_free(&log_note);
}

struct consolequeues *consolequeues_new(uv_loop_t *loop, struct frontier *f)
{
	struct consolequeues *cq = xcalloc(1, sizeof *cq);

	cq->f = f;
	uv_idle_init(loop, &cq->idle);
	cq->idle.data = cq;
	return cq;
}

static void consolequeues_closed_cb(uv_handle_t *h)
{
	free(h->data);
}

void consolequeues_free(struct consolequeues *cq)
{
	struct consolequeues_walk *w;

	if (cq == NULL)
		return;
	while ((w = cq->walks) != NULL) {
		cq->walks = w->next;
		while (w->waiters != NULL) {
			consoleview_error(consoleview_wait_rq(w->waiters)->reply, 503,
			    "the console is closing", 0);
			consoleview_wait_send(w->waiters);
		}
		consolequeues_walk_free(w);
	}
	uv_close((uv_handle_t *)&cq->idle, consolequeues_closed_cb);
}
