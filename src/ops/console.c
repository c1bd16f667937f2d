/* The operator console's pages (console.h): the overview and its live JSON,
 * the long view from progress.log, checkpoints, and the dispatch to the
 * queue, host, log and settings pages of their own files. */
#include "ops/console.h"
#include "crawl/checkpoint.h"
#include "frontier/counts.h"
#include "lib/config.h"
#include "ops/html.h"
#include "ops/series.h"
#include "lib/xmalloc.h"
#include "ops/consolehosts.h"
#include "ops/consolelog.h"
#include "ops/consolequeues.h"
#include "ops/consolesettings.h"
#include "ops/consoleview.h"

#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The ring: one sample a second for an hour. */
#define CONSOLE_RING 3600
/* Points of the long view read from progress.log. */
#define CONSOLE_HISTORY_POINTS 720
/* The current rates are taken over this many seconds of the ring. */
#define CONSOLE_RATE_WINDOW 10

struct console {
	char *jobdir;
	struct config *cfg;
	struct frontier *frontier;
	console_view_fn *view;
	void *ctx;
	int live;
	const char *token; /* the owner's */
	struct series *ring;
	struct consolehosts *hosts;
	struct consolequeues *queues;
};

struct console *console_new(const struct console_opts *o)
{
	struct console *c = xcalloc(1, sizeof *c);

	c->jobdir = xstrdup(o->jobdir);
	c->cfg = o->cfg;
	c->frontier = o->frontier;
	c->view = o->view;
	c->ctx = o->ctx;
	c->live = o->live;
	c->token = o->token;
	c->ring = series_new(CONSOLE_RING);
	c->hosts = consolehosts_new(o->loop, c->jobdir);
	c->queues = consolequeues_new(o->loop, o->frontier);
	return c;
}

void console_free(struct console *c)
{
	if (c == NULL)
		return;
	consolequeues_free(c->queues);
	consolehosts_free(c->hosts);
	series_free(c->ring);
	free(c->jobdir);
	free(c);
}

void console_sample(struct console *c, uint64_t now_ms)
{
	struct console_view v;
	struct series_point p;

	c->view(c->ctx, &v);
	p.t_ms = now_ms;
	p.pages = v.pages;
	p.bytes = (int64_t)v.bytes;
	p.in_flight = v.in_flight;
	p.queued = v.fc.queued;
	series_add(c->ring, &p);
}

/* Pages/s and MB/s over the last seconds of the ring; the averages over
 * the crawl until the ring has two samples. */
static void console_rates(
    const struct console *c, const struct console_view *v, double *pps, double *mbps)
{
	size_t n = series_count(c->ring);

	*pps = v->seconds > 0 ? (double)v->pages / v->seconds : 0;
	*mbps = v->seconds > 0 ? (double)v->bytes / v->seconds / 1e6 : 0;
	if (n >= 2) {
		const struct series_point *b = series_at(c->ring, n - 1);
		const struct series_point *a =
		    series_at(c->ring, n > CONSOLE_RATE_WINDOW ? n - 1 - CONSOLE_RATE_WINDOW : 0);
		double dt = (double)(b->t_ms - a->t_ms) / 1000.0;
		if (dt > 0) {
			*pps = (double)(b->pages - a->pages) / dt;
			*mbps = (double)(b->bytes - a->bytes) / dt / 1e6;
		}
	}
}

static void console_rq(struct console *c, const struct consolereq *r, int tcp,
    struct ctlserver_reply *reply, const struct console_view *v, struct consoleview_rq *q)
{
	q->r = r;
	q->tcp = tcp;
	q->token = c->token;
	q->jobdir = c->jobdir;
	q->state = v->state;
	q->reason = v->reason != NULL ? v->reason : "";
	q->live = c->live;
	q->reply = reply;
}

static void console_state_row(struct buf *out, const struct consoleview_rq *q, const char *word,
    const char *label, uint64_t n)
{
	buf_appends(out, "<tr><td><a href=\"");
	consoleview_href(out, q, "queues", "state", word, (const char *)NULL);
	buf_appends(out, "\"><span class=\"qs qs-");
	buf_appends(out, word);
	buf_appends(out, "\">");
	buf_appends(out, label);
	buf_appends(out, "</span></a></td><td class=\"n\" data-q=\"");
	buf_appends(out, word);
	buf_appends(out, "\">");
	consoleview_num(out, n);
	buf_appends(out, "</td></tr>\n");
}

/* One limit: its figure now (refreshed live as the card named k is) and
 * its setting. */
static void console_limit_row(struct buf *out, const char *label, const char *k, const char *now,
    int64_t limit, const char *unit)
{
	buf_appends(out, "<tr><td>");
	buf_appends(out, label);
	buf_appends(out, "</td><td class=\"n\" data-k=\"");
	buf_appends(out, k);
	buf_appends(out, "\">");
	buf_appends(out, now);
	buf_appends(out, "</td><td class=\"n\">");
	if (limit > 0) {
		consoleview_num(out, (uint64_t)limit);
		buf_appends(out, unit);
	} else {
		buf_appends(out, "none");
	}
	buf_appends(out, "</td></tr>\n");
}

static void console_overview(
    struct console *c, const struct consoleview_rq *q, const struct console_view *v)
{
	struct buf s[13];
	struct buf states = BUF_INIT, limits = BUF_INIT;
	double pps, mbps;

	for (size_t i = 0; i < 13; i++)
		buf_init(&s[i]);
	console_rates(c, v, &pps, &mbps);
	consoleview_num(&s[0], v->pages);
	consoleview_num(&s[1], v->failures);
	buf_appendf(&s[2], "%.1f", pps);
	buf_appendf(&s[3], "%.1f", v->seconds > 0 ? (double)v->pages / v->seconds : 0.0);
	buf_appendf(&s[4], "%.2f", mbps);
	buf_appendf(&s[5], "%.1f", (double)v->bytes / 1e6);
	consoleview_num(&s[6], v->in_flight);
	consoleview_num(&s[7], v->fc.queued);
	consoleview_num(&s[8], v->fc.discovered);
	if (v->rss_kb > 0)
		consoleview_num(&s[9], (uint64_t)v->rss_kb / 1024);
	else
		buf_appends(&s[9], "-");
	consoleview_duration(&s[10], v->seconds);
	/* The job's time, over every run (src/crawl/jobtotals.c). */
	buf_appends(&s[11], "crawled by the job, every run");
	buf_appends(&s[12], v->dropped[0] != '\0' ? v->dropped : "none");
	console_state_row(&states, q, "in-process", "In process", v->fc.in_process);
	console_state_row(&states, q, "ready", "Ready", v->fc.ready);
	console_state_row(&states, q, "snoozed", "Snoozed", v->fc.snoozed);
	console_state_row(&states, q, "inactive", "Inactive", v->fc.inactive);
	console_state_row(&states, q, "ineligible", "Ineligible", v->fc.ineligible);
	console_state_row(&states, q, "retired", "Retired", v->fc.retired);
	console_state_row(&states, q, "exhausted", "Exhausted", v->fc.exhausted);
	buf_appends(&states, "<tr><th>All queues</th><th class=\"n\" data-q=\"total\">");
	consoleview_num(&states, v->fc.queues_total);
	buf_appends(&states, "</th></tr>\n");
	console_limit_row(&limits, "Pages (crawl.max-pages)", "pages", s[0].data,
	    config_int(c->cfg, CK_CRAWL_MAX_PAGES), "");
	console_limit_row(&limits, "MB (crawl.max-bytes)", "mb", s[5].data,
	    config_int(c->cfg, CK_CRAWL_MAX_BYTES) / 1000000, " MB");
	console_limit_row(&limits, "Time (crawl.max-time-seconds)", "elapsed", s[10].data,
	    config_int(c->cfg, CK_CRAWL_MAX_TIME_SECONDS), " s");
	{
		const struct tmpl_var vars[] = {
		    {"pages", s[0].data, 0},
		    {"failures", s[1].data, 0},
		    {"pages-per-s", s[2].data, 0},
		    {"pages-per-s-avg", s[3].data, 0},
		    {"mb-per-s", s[4].data, 0},
		    {"mb", s[5].data, 0},
		    {"in-flight", s[6].data, 0},
		    {"queued", s[7].data, 0},
		    {"discovered", s[8].data, 0},
		    {"rss-mb", s[9].data, 0},
		    {"elapsed", s[10].data, 0},
		    {"since", s[11].data, 0},
		    {"dropped", s[12].data, 0},
		    {"queue-states", states.data, 1},
		    {"limits", limits.data, 1},
		};
		consoleview_page(
		    q, "overview", "Overview", "overview.html", vars, sizeof vars / sizeof vars[0]);
	}
	for (size_t i = 0; i < 13; i++)
		buf_free(&s[i]);
	buf_free(&states);
	buf_free(&limits);
}

/* The figures of the overview with the ring's samples since `since`. */
static void console_live(struct console *c, const struct consolereq *r,
    const struct console_view *v, struct ctlserver_reply *reply)
{
	double pps, mbps;
	json_t *j;
	char *text;

	console_rates(c, v, &pps, &mbps);
	j = json_pack("{s:s, s:s?, s:I, s:I, s:I, s:I, s:f, s:I, s:f, s:f, s:f, s:o, s:s}", "state",
	    v->state, "reason", v->reason, "pages", (json_int_t)v->pages, "bytes",
	    (json_int_t)v->bytes, "failures", (json_int_t)v->failures, "in_flight",
	    (json_int_t)v->in_flight, "seconds", v->seconds, "rss_kb", (json_int_t)v->rss_kb,
	    "pages_per_s", pps, "pages_per_s_avg",
	    v->seconds > 0 ? (double)v->pages / v->seconds : 0.0, "mb_per_s", mbps, "frontier",
	    counts_json(&v->fc), "dropped", v->dropped[0] != '\0' ? v->dropped : "none");
	text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (text == NULL || text[0] != '{') {
		free(text);
		consoleview_error(reply, 500, "could not build the answer", 1);
		return;
	}
	/* The samples are appended as they are: they are numbers only. */
	buf_reset(&reply->body);
	buf_append(&reply->body, text, strlen(text) - 1);
	buf_appends(&reply->body, ",\"samples\":");
	series_json_since(c->ring, r->since, &reply->body);
	buf_appends(&reply->body, "}\n");
	free(text);
	reply->content_type = "application/json";
	consoleview_headers(&reply->headers);
}

/* The long view: CONSOLE_HISTORY_POINTS lines of progress.log read at
 * evenly spaced offsets (one small read each), then its last line, so the
 * cost is the same for a log of a day or of a year. */
static void console_history(struct console *c, struct ctlserver_reply *reply)
{
	char *path = xasprintf("%s/logs/progress.log", c->jobdir);
	struct series_point *pts = xcalloc(CONSOLE_HISTORY_POINTS + 1, sizeof *pts);
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t size = fd >= 0 ? lseek(fd, 0, SEEK_END) : 0;
	char win[1024];

	for (size_t i = 0; fd >= 0 && size > 0 && i <= CONSOLE_HISTORY_POINTS; i++) {
		/* The last pass reads the file's end for its last line. */
		off_t off = i < CONSOLE_HISTORY_POINTS
		    ? (off_t)((uint64_t)size * i / CONSOLE_HISTORY_POINTS)
		    : (size > (off_t)sizeof win ? size - (off_t)sizeof win : 0);
		ssize_t got = pread(fd, win, sizeof win - 1, off);
		char *p = win, *nl;
		struct series_point sp;

		if (got <= 0)
			continue;
		win[got] = '\0';
		if (i == CONSOLE_HISTORY_POINTS) {
			char *last;
			if (got < 2 || win[got - 1] != '\n')
				continue;
			win[got - 1] = '\0';
			last = strrchr(win, '\n');
			p = last != NULL ? last + 1 : (off == 0 ? win : NULL);
			if (p == NULL)
				continue;
		} else if (off > 0) {
			p = strchr(win, '\n');
			if (p == NULL)
				continue;
			p++;
		}
		nl = strchr(p, '\n');
		if (i < CONSOLE_HISTORY_POINTS && nl == NULL)
			continue;
		if (series_parse_progress(p, nl != NULL ? (size_t)(nl - p) : strlen(p), &sp) < 0)
			continue;
		if (n > 0 && sp.t_ms <= pts[n - 1].t_ms)
			continue;
		pts[n++] = sp;
	}
	if (fd >= 0)
		close(fd);
	buf_reset(&reply->body);
	buf_appends(&reply->body, "{\"samples\":");
	series_json_points(pts, n, CONSOLE_HISTORY_POINTS + 1, &reply->body);
	buf_appends(&reply->body, "}\n");
	reply->content_type = "application/json";
	consoleview_headers(&reply->headers);
	free(pts);
	free(path);
}

/* "cp00003-20260102030405" taken at "2026-01-02 03:04:05". */
static void console_checkpoint_time(struct buf *out, const char *name)
{
	const char *d = strchr(name, '-');

	if (d == NULL || strlen(d + 1) != 14) {
		buf_appendc(out, '-');
		return;
	}
	d++;
	buf_appendf(out, "%.4s-%.2s-%.2s %.2s:%.2s:%.2s", d, d + 4, d + 6, d + 8, d + 10, d + 12);
}

static void console_checkpoints(struct console *c, const struct consoleview_rq *q)
{
	struct buf rows = BUF_INIT, note = BUF_INIT;
	char **names = NULL, *err = NULL;
	size_t n = 0;

	buf_appends(&rows, "");
	if (checkpoint_list(c->jobdir, &names, &n, &err) < 0) {
		buf_appends(&note, err);
		free(err);
	} else {
		consoleview_num(&note, n);
		buf_appends(&note, n == 1 ? " valid checkpoint" : " valid checkpoints");
		buf_appends(&note, ", newest first (JOBDIR/checkpoints/).");
		for (size_t i = n; i-- > 0;) {
			buf_appends(&rows, "<tr><td class=\"mono\">");
			html_texts(&rows, names[i]);
			buf_appends(&rows, "</td><td>");
			console_checkpoint_time(&rows, names[i]);
			buf_appends(&rows, "</td><td><code>tern resume ");
			html_texts(&rows, c->jobdir);
			buf_appends(&rows, " --checkpoint ");
			html_texts(&rows, names[i]);
			buf_appends(&rows, "</code></td></tr>\n");
		}
		if (n == 0)
			buf_appends(
			    &rows, "<tr><td class=\"empty\" colspan=\"3\">none yet</td></tr>\n");
	}
	checkpoint_list_free(names);
	{
		const struct tmpl_var vars[] = {
		    {"note", note.data, 0},
		    {"rows", rows.data, 1},
		};
		consoleview_page(q, "checkpoints", "Checkpoints", "checkpoints.html", vars, 2);
	}
	buf_free(&rows);
	buf_free(&note);
}

static void console_asset(const struct consolereq *r, struct ctlserver_reply *reply)
{
	const struct consoleasset *a = consoleview_asset(r->asset);
	size_t n = strlen(r->asset);

	/* Templates are rendered, never served as they are. */
	if (a == NULL || (n > 5 && strcmp(r->asset + n - 5, ".html") == 0)) {
		consoleview_error(reply, 404, "no such asset", 0);
		return;
	}
	buf_reset(&reply->body);
	buf_append(&reply->body, a->data, a->len);
	reply->content_type = a->type;
	buf_appendf(&reply->headers, "ETag: %s\r\nCache-Control: no-cache\r\n", a->etag);
	consoleview_headers(&reply->headers);
}

void console_answer(
    struct console *c, const struct consolereq *r, int tcp, struct ctlserver_reply *reply)
{
	struct console_view v;
	struct consoleview_rq q;

	switch (r->kind) {
	case CONSOLEREQ_REFUSE:
		consoleview_error(reply, r->status, r->why, r->json);
		return;
	case CONSOLEREQ_LOGIN:
		consoleview_login(reply, r->status, r->why, "/console/");
		return;
	case CONSOLEREQ_REDIRECT:
		reply->status = 303;
		reply->content_type = "text/plain; charset=utf-8";
		buf_appendf(&reply->headers, "Location: %s\r\n", r->location.data);
		consoleview_headers(&reply->headers);
		return;
	case CONSOLEREQ_ASSET:
		console_asset(r, reply);
		return;
	case CONSOLEREQ_CONTROL:
		consoleview_error(reply, 500, "a control route reached the console", 1);
		return;
	case CONSOLEREQ_PAGE:
		break;
	}
	c->view(c->ctx, &v);
	console_rq(c, r, tcp, reply, &v, &q);
	switch (r->page) {
	case CONSOLEREQ_OVERVIEW:
		console_overview(c, &q, &v);
		break;
	case CONSOLEREQ_QUEUES:
		consolequeues_list(c->queues, &q);
		break;
	case CONSOLEREQ_QUEUE:
		consolequeues_detail(c->queues, &q);
		break;
	case CONSOLEREQ_HOSTS:
		consolehosts_page(c->hosts, &q);
		break;
	case CONSOLEREQ_LOG:
		consolelog_page(&q);
		break;
	case CONSOLEREQ_SETTINGS:
		consolesettings_page(c->cfg, &q);
		break;
	case CONSOLEREQ_CHECKPOINTS:
		console_checkpoints(c, &q);
		break;
	case CONSOLEREQ_LIVE:
		console_live(c, r, &v, reply);
		break;
	case CONSOLEREQ_HISTORY:
		console_history(c, reply);
		break;
	case CONSOLEREQ__NPAGES:
		consoleview_error(reply, 404, "no such page", 0);
		break;
	}
}

void console_handle(struct console *c, const struct consolereq_listener *l,
    const struct ctlreq *req, ctlserver_handler control, void *ctx, struct ctlserver_reply *reply)
{
	struct consolereq r;
	struct consolereq_in in;

	in.method = req->method;
	in.path = req->path.data;
	in.query = req->query.data;
	in.host = ctlreq_header(req, CTLREQ_H_HOST);
	in.origin = ctlreq_header(req, CTLREQ_H_ORIGIN);
	in.fetch_site = ctlreq_header(req, CTLREQ_H_FETCH_SITE);
	in.authorization = ctlreq_header(req, CTLREQ_H_AUTHORIZATION);
	consolereq_init(&r);
	consolereq_route(l, &in, &r);
	if (r.kind != CONSOLEREQ_CONTROL) {
		console_answer(c, &r, l->tcp, reply);
	} else if (control == NULL) {
		consoleview_error(reply, 503,
		    "the crawl is not running: this console shows the job "
		    "as it was left",
		    1);
	} else {
		control(ctx, req, reply);
		if (l->tcp)
			consoleview_headers(&reply->headers);
	}
	consolereq_free(&r);
}
