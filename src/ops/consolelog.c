/* The console's crawl.log views (consolelog.h). */
#include "ops/consolelog.h"
#include "ops/html.h"
#include "lib/xmalloc.h"
#include "ops/logtail.h"

#include <stdlib.h>
#include <string.h>

struct consolelog_walk {
	const struct logline_filter *f;
	struct buf *rows;
	size_t max, n;
	int annotations;
};

static void consolelog_cell(struct buf *out, const char *cls, const char *s, size_t n)
{
	buf_appends(out, cls != NULL ? "<td class=\"" : "<td>");
	if (cls != NULL) {
		buf_appends(out, cls);
		buf_appends(out, "\">");
	}
	/* crawl.log writes '-' for an empty field. */
	html_text(out, s, n);
	buf_appends(out, "</td>");
}

static int consolelog_line_cb(void *arg, const char *line, size_t len, uint64_t off)
{
	struct consolelog_walk *w = arg;
	struct logline l;
	const char *cls;

	(void)off;
	if (logline_parse(line, len, &l) < 0 || !logline_match(&l, w->f))
		return 0;
	cls = l.status < 0 ? "n st-neg"
	    : l.status >= 200 && l.status < 600
	    ? (const char *[]){"n st-2", "n st-3", "n st-4", "n st-5"}[l.status / 100 - 2]
	    : "n";
	buf_appends(w->rows, "<tr>");
	consolelog_cell(w->rows, "mono", l.f[LOGLINE_TIME], l.n[LOGLINE_TIME]);
	consolelog_cell(w->rows, cls, l.f[LOGLINE_STATUS], l.n[LOGLINE_STATUS]);
	consolelog_cell(w->rows, "n", l.f[LOGLINE_SIZE], l.n[LOGLINE_SIZE]);
	consolelog_cell(w->rows, "uri", l.f[LOGLINE_URI], l.n[LOGLINE_URI]);
	consolelog_cell(w->rows, "mono", l.f[LOGLINE_HOPS], l.n[LOGLINE_HOPS]);
	consolelog_cell(w->rows, "uri", l.f[LOGLINE_VIA], l.n[LOGLINE_VIA]);
	consolelog_cell(w->rows, NULL, l.f[LOGLINE_MIME], l.n[LOGLINE_MIME]);
	if (w->annotations)
		consolelog_cell(
		    w->rows, "mono", l.f[LOGLINE_ANNOTATIONS], l.n[LOGLINE_ANNOTATIONS]);
	buf_appends(w->rows, "</tr>\n");
	return ++w->n == w->max;
}

int consolelog_rows(const char *jobdir, const struct logline_filter *f, uint64_t before,
    size_t max_rows, int annotations, struct buf *rows, struct consolelog_result *res, char **err)
{
	struct consolelog_walk w = {f, rows, max_rows, 0, annotations};
	struct logtail_result t;
	char *path = xasprintf("%s/logs/crawl.log", jobdir);
	int rc = logtail_read(path, before, CONSOLELOG_SCAN_BYTES, consolelog_line_cb, &w, &t, err);

	free(path);
	res->rows = w.n;
	res->next = t.next;
	res->size = t.size;
	res->scanned = t.scanned;
	return rc;
}

void consolelog_page(const struct consoleview_rq *q)
{
	const struct consolereq *r = q->r;
	struct logline_filter f = {r->code.data, r->host.data, r->mime.data};
	struct buf rows = BUF_INIT, note = BUF_INIT, pager = BUF_INIT, tok = BUF_INIT;
	struct consolelog_result res;
	char *err = NULL, before[24];

	buf_appends(&rows, "");
	buf_appends(&pager, "");
	consoleview_token_input(&tok, q);
	if (consolelog_rows(q->jobdir, &f, r->before, CONSOLEREQ_PAGE_ROWS, 1, &rows, &res, &err) <
	    0) {
		buf_appends(&note, err);
		free(err);
	} else {
		buf_appends(&note, "");
		consoleview_num(&note, res.rows);
		buf_appends(&note,
		    res.rows == 1 ? " line, newest first, from " : " lines, newest first, from ");
		consoleview_num(&note, res.scanned / 1024);
		buf_appends(&note, " KiB read of crawl.log's ");
		consoleview_num(&note, res.size / 1024);
		buf_appends(&note, " KiB");
		if (res.rows < CONSOLEREQ_PAGE_ROWS && res.next > 0)
			buf_appends(&note, " (the most read per page: follow Older for more)");
		buf_appendc(&note, '.');
		if (res.rows == 0)
			buf_appends(&rows,
			    "<tr><td class=\"empty\" colspan=\"8\">no line here passes the filter</td></tr>");
	}
	if (r->before > 0) {
		buf_appends(&pager, "<a href=\"");
		consoleview_href(&pager, q, "log", "status", r->code.data, "host", r->host.data,
		    "mime", r->mime.data, (const char *)NULL);
		buf_appends(&pager, "\">Newest</a>");
	}
	if (err == NULL && res.next > 0) {
		snprintf(before, sizeof before, "%llu", (unsigned long long)res.next);
		buf_appends(&pager, "<a href=\"");
		consoleview_href(&pager, q, "log", "status", r->code.data, "host", r->host.data,
		    "mime", r->mime.data, "before", before, (const char *)NULL);
		buf_appends(&pager, "\">Older</a>");
	}
	{
		const struct tmpl_var v[] = {
		    {"token-input", tok.data, 1},
		    {"status", r->code.data, 0},
		    {"host", r->host.data, 0},
		    {"mime", r->mime.data, 0},
		    {"note", note.data, 0},
		    {"rows", rows.data, 1},
		    {"pager", pager.data, 1},
		};
		consoleview_page(q, "log", "Crawl log", "log.html", v, sizeof v / sizeof v[0]);
	}
	buf_free(&rows);
	buf_free(&note);
	buf_free(&pager);
	buf_free(&tok);
}
