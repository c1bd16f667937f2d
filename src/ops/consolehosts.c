/* The console's hosts page (consolehosts.h). */
#include "ops/consolehosts.h"
#include "crawl/hostsreport.h"
#include "ops/html.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What is left below this is read at once, without making the request wait. */
#define CONSOLEHOSTS_AT_ONCE (256u << 10)

struct consolehosts {
	char *path; /* JOBDIR/logs/crawl.log */
	struct hostsreport *h;
	uint64_t off;	 /* bytes of crawl.log fed, up to a newline */
	uint64_t target; /* the size to reach for the requests waiting */
	uint64_t batch;	 /* bytes fed for them so far */
	char *chunk;
	uv_idle_t idle;
	int idle_on;
	struct consoleview_wait *waiters;
};

struct consolehosts *consolehosts_new(uv_loop_t *loop, const char *jobdir)
{
	struct consolehosts *ch = xcalloc(1, sizeof *ch);

	ch->path = xasprintf("%s/logs/crawl.log", jobdir);
	ch->h = hostsreport_new();
	uv_idle_init(loop, &ch->idle);
	ch->idle.data = ch;
	return ch;
}

/* Feeds the next piece of crawl.log: 1 while there is more to read, 0 at
 * its end, -1 on a read error. */
static int consolehosts_feed(struct consolehosts *ch)
{
	int fd = open(ch->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t got;
	size_t used = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size < ch->off) {
		/* Cut back (a resume repairs a torn last line): read it anew. */
		hostsreport_free(ch->h);
		ch->h = hostsreport_new();
		ch->off = 0;
	}
	if (ch->chunk == NULL)
		ch->chunk = xmalloc(CONSOLEHOSTS_STEP);
	got = pread(fd, ch->chunk, CONSOLEHOSTS_STEP, (off_t)ch->off);
	close(fd);
	if (got < 0)
		return -1;
	while (used < (size_t)got) {
		char *nl = memchr(ch->chunk + used, '\n', (size_t)got - used);
		if (nl == NULL)
			break;
		hostsreport_add_line(ch->h, ch->chunk + used, (size_t)(nl - (ch->chunk + used)));
		used = (size_t)(nl - ch->chunk) + 1;
	}
	/* A whole piece without a newline is not a crawl.log line: skipped. */
	if (used == 0 && got == CONSOLEHOSTS_STEP)
		used = (size_t)got;
	ch->off += used;
	ch->batch += used;
	return used > 0 && ch->off < (uint64_t)st.st_size;
}

static void consolehosts_cell(struct buf *out, uint64_t v)
{
	buf_appends(out, "<td class=\"n\">");
	consoleview_num(out, v);
	buf_appends(out, "</td>");
}

static void consolehosts_render(struct consolehosts *ch, const struct consoleview_rq *q)
{
	static const char *const ov[] = {"urls", "bytes", "failed", "name"};
	static const char *const ol[] = {
	    "URIs (most first)", "bytes (most first)", "failed (most first)", "name"};
	const char *by = q->r->sort[0] ? q->r->sort : "urls";
	size_t from = (size_t)(q->r->pageno - 1) * CONSOLEREQ_PAGE_ROWS, n, total;
	struct hostsreport_row *rows = xcalloc(CONSOLEREQ_PAGE_ROWS, sizeof *rows);
	struct buf body = BUF_INIT, note = BUF_INIT, pager = BUF_INIT, so = BUF_INIT,
		   tok = BUF_INIT;
	struct stat st;
	char page[16];

	buf_appends(&body, "");
	buf_appends(&pager, "");
	n = hostsreport_rows(ch->h, by, from, CONSOLEREQ_PAGE_ROWS, rows);
	total = hostsreport_hosts(ch->h);
	for (size_t i = 0; i < n; i++) {
		const struct hostsreport_row *r = &rows[i];
		buf_appends(&body, "<tr><td class=\"key\">");
		html_texts(&body, r->name);
		buf_appends(&body, "</td>");
		consolehosts_cell(&body, r->urls);
		consolehosts_cell(&body, r->bytes);
		consolehosts_cell(&body, r->precluded);
		for (int c = 2; c <= 5; c++)
			consolehosts_cell(&body, r->cls[c]);
		consolehosts_cell(&body, r->failed);
		consolehosts_cell(&body, r->dns);
		buf_appends(&body, "<td><a href=\"");
		consoleview_href(&body, q, "log", "host", r->name, (const char *)NULL);
		buf_appends(&body, "\">lines</a></td></tr>\n");
	}
	if (n == 0)
		buf_appends(
		    &body, "<tr><td class=\"empty\" colspan=\"11\">no host here</td></tr>\n");
	consoleview_num(&note, total);
	buf_appends(&note, total == 1 ? " host in " : " hosts in ");
	consoleview_num(&note, ch->off / 1024);
	buf_appends(&note, " KiB of crawl.log");
	if (stat(ch->path, &st) == 0 && (uint64_t)st.st_size > ch->off + CONSOLEHOSTS_AT_ONCE) {
		buf_appends(&note, " (");
		consoleview_num(&note, ((uint64_t)st.st_size - ch->off) / 1024);
		buf_appends(&note, " KiB not read yet: reload to go on)");
	}
	buf_appendf(&note, "; rows %zu to %zu.", n > 0 ? from + 1 : 0, from + n);
	if (q->r->pageno > 1) {
		snprintf(page, sizeof page, "%u", q->r->pageno - 1);
		buf_appends(&pager, "<a href=\"");
		consoleview_href(
		    &pager, q, "hosts", "sort", q->r->sort, "page", page, (const char *)NULL);
		buf_appends(&pager, "\">Previous</a>");
	}
	if (from + n < total && q->r->pageno < CONSOLEREQ_MAX_PAGE) {
		snprintf(page, sizeof page, "%u", q->r->pageno + 1);
		buf_appends(&pager, "<a href=\"");
		consoleview_href(
		    &pager, q, "hosts", "sort", q->r->sort, "page", page, (const char *)NULL);
		buf_appends(&pager, "\">Next</a>");
	}
	for (size_t i = 0; i < 4; i++) {
		buf_appends(
		    &so, strcmp(ov[i], by) == 0 ? "<option selected value=\"" : "<option value=\"");
		buf_appends(&so, ov[i]);
		buf_appends(&so, "\">");
		buf_appends(&so, ol[i]);
		buf_appends(&so, "</option>");
	}
	consoleview_token_input(&tok, q);
	{
		const struct tmpl_var v[] = {
		    {"token-input", tok.data, 1},
		    {"sort-options", so.data, 1},
		    {"note", note.data, 0},
		    {"rows", body.data, 1},
		    {"pager", pager.data, 1},
		};
		consoleview_page(q, "hosts", "Hosts", "hosts.html", v, sizeof v / sizeof v[0]);
	}
	free(rows);
	buf_free(&body);
	buf_free(&note);
	buf_free(&pager);
	buf_free(&so);
	buf_free(&tok);
}

static void consolehosts_idle_cb(uv_idle_t *h)
{
	struct consolehosts *ch = h->data;
	int more = consolehosts_feed(ch);

	if (more > 0 && ch->off < ch->target && ch->batch < CONSOLEHOSTS_BATCH)
		return;
	uv_idle_stop(&ch->idle);
	ch->idle_on = 0;
	while (ch->waiters != NULL) {
		consolehosts_render(ch, consoleview_wait_rq(ch->waiters));
		consoleview_wait_send(ch->waiters);
	}
}

void consolehosts_page(struct consolehosts *ch, const struct consoleview_rq *q)
{
	struct stat st;
	uint64_t size = stat(ch->path, &st) == 0 ? (uint64_t)st.st_size : 0;

	if (ch->idle_on) {
		consoleview_wait(q, &ch->waiters);
		return;
	}
	if (size <= ch->off + CONSOLEHOSTS_AT_ONCE) {
		if (size > ch->off || size < ch->off)
			consolehosts_feed(ch);
		consolehosts_render(ch, q);
		return;
	}
	ch->target = size;
	ch->batch = 0;
	consoleview_wait(q, &ch->waiters);
	uv_idle_start(&ch->idle, consolehosts_idle_cb);
	ch->idle_on = 1;
}

static void consolehosts_closed_cb(uv_handle_t *h)
{
	free(h->data);
}

void consolehosts_free(struct consolehosts *ch)
{
	if (ch == NULL)
		return;
	while (ch->waiters != NULL) {
		consoleview_error(
		    consoleview_wait_rq(ch->waiters)->reply, 503, "the console is closing", 0);
		consoleview_wait_send(ch->waiters);
	}
	hostsreport_free(ch->h);
	free(ch->chunk);
	free(ch->path);
	uv_close((uv_handle_t *)&ch->idle, consolehosts_closed_cb);
}
