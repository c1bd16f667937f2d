/* The console's shared page parts (consoleview.h). */
#include <build-config.h>

#include "ops/consoleview.h"
#include "ops/html.h"
#include "lib/xmalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct consoleview_wait {
	struct ctlserver_defer *d;
	struct consolereq r; /* a copy: the request's own is gone */
	struct consoleview_rq q;
	struct consoleview_wait **list;
	struct consoleview_wait *next;
};

static void consoleview_wait_unlink(struct consoleview_wait *w)
{
	for (struct consoleview_wait **pp = w->list; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	consolereq_free(&w->r);
	free(w);
}

static void consoleview_wait_cancel_cb(void *arg)
{
	consoleview_wait_unlink(arg);
}

void consoleview_wait(const struct consoleview_rq *q, struct consoleview_wait **list)
{
	struct consoleview_wait *w = xcalloc(1, sizeof *w);

	consolereq_init(&w->r);
	consolereq_copy(&w->r, q->r);
	w->q = *q;
	w->q.r = &w->r;
	w->list = list;
	w->d = ctlserver_defer(q->reply, consoleview_wait_cancel_cb, w);
	w->next = *list;
	*list = w;
}

const struct consoleview_rq *consoleview_wait_rq(struct consoleview_wait *w)
{
	w->q.reply = ctlserver_defer_reply(w->d);
	return &w->q;
}

void consoleview_wait_send(struct consoleview_wait *w)
{
	struct ctlserver_defer *d = w->d;

	consoleview_wait_unlink(w);
	ctlserver_defer_send(d);
}

static const char *consoleview_tmpl(const char *name, size_t *len)
{
	const struct consoleasset *a = consoleview_asset(name);

	/* The templates are part of the binary: a missing one is a build
	 * error, found by the first test that opens the page. */
	if (a == NULL)
		abort();
	*len = a->len;
	return (const char *)a->data;
}

const struct consoleasset *consoleview_asset(const char *name)
{
	for (size_t i = 0; i < consoleassets_count; i++)
		if (strcmp(consoleassets[i].name, name) == 0)
			return &consoleassets[i];
	return NULL;
}

void consoleview_headers(struct buf *h)
{
	buf_appends(h,
	    "Content-Security-Policy: default-src 'none'; script-src 'self'; "
	    "style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; "
	    "frame-ancestors 'none'; base-uri 'none'\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "X-Frame-Options: DENY\r\n"
	    "Referrer-Policy: no-referrer\r\n"
	    "Cross-Origin-Opener-Policy: same-origin\r\n"
	    "Cross-Origin-Resource-Policy: same-origin\r\n");
}

void consoleview_href(struct buf *out, const struct consoleview_rq *q, const char *page, ...)
{
	va_list ap;
	const char *name, *sep = "?";

	buf_appends(out, "/console/");
	buf_appends(out, page);
	va_start(ap, page);
	while ((name = va_arg(ap, const char *)) != NULL) {
		const char *value = va_arg(ap, const char *);
		if (value == NULL || *value == '\0')
			continue;
		buf_appends(out, sep);
		buf_appends(out, name);
		buf_appendc(out, '=');
		html_querys(out, value);
		sep = "&amp;";
	}
	va_end(ap);
	if (q->r->token_in_query) {
		buf_appends(out, sep);
		buf_appends(out, "token=");
		html_querys(out, q->token);
	}
}

void consoleview_token_input(struct buf *out, const struct consoleview_rq *q)
{
	if (!q->r->token_in_query)
		return;
	buf_appends(out, "<input type=\"hidden\" name=\"token\" value=\"");
	html_texts(out, q->token);
	buf_appends(out, "\">");
}

void consoleview_num(struct buf *out, uint64_t v)
{
	char d[24];
	size_t n = buf_digits(d, v);

	for (size_t i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf_appendc(out, ',');
		buf_appendc(out, d[i]);
	}
}

void consoleview_duration(struct buf *out, double seconds)
{
	uint64_t s = seconds > 0 ? (uint64_t)seconds : 0;

	if (s >= 86400)
		buf_appendf(out, "%llud ", (unsigned long long)(s / 86400));
	buf_appendf(out, "%02u:%02u:%02u", (unsigned)(s % 86400 / 3600), (unsigned)(s % 3600 / 60),
	    (unsigned)(s % 60));
}

void consoleview_time(struct buf *out, uint64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char s[32];

	if (ms == 0 || gmtime_r(&t, &tm) == NULL) {
		buf_appendc(out, '-');
		return;
	}
	strftime(s, sizeof s, "%Y-%m-%d %H:%M:%S", &tm);
	buf_appends(out, s);
}

/* Answers with a standalone page (no layout: nothing of the job). */
static void consoleview_standalone(struct ctlserver_reply *reply, int status, const char *tmpl,
    const struct tmpl_var *vars, size_t n)
{
	const char *t;
	size_t len;
	char *err = NULL;

	t = consoleview_tmpl(tmpl, &len);
	buf_reset(&reply->body);
	if (tmpl_render(t, len, vars, n, &reply->body, &err) < 0) {
		ctlserver_reply_error(reply, 500, err);
		free(err);
		return;
	}
	reply->status = status;
	reply->content_type = "text/html; charset=utf-8";
	consoleview_headers(&reply->headers);
}

void consoleview_login(struct ctlserver_reply *reply, int status, const char *why, const char *path)
{
	const struct tmpl_var v[] = {
	    {"why", why, 0},
	    {"action", path, 0},
	};

	consoleview_standalone(reply, status, "login.html", v, sizeof v / sizeof v[0]);
	if (status == 401)
		buf_appends(&reply->headers, "WWW-Authenticate: Bearer realm=\"tern console\"\r\n");
}

void consoleview_error(struct ctlserver_reply *reply, int status, const char *why, int json)
{
	char code[16];
	const struct tmpl_var v[] = {
	    {"status", code, 0},
	    {"why", why, 0},
	    {"tq", "", 1},
	};

	if (json) {
		ctlserver_reply_error(reply, status, why);
		consoleview_headers(&reply->headers);
		return;
	}
	snprintf(code, sizeof code, "%d", status);
	consoleview_standalone(reply, status, "error.html", v, sizeof v / sizeof v[0]);
}

void consoleview_page(const struct consoleview_rq *q, const char *page, const char *title,
    const char *tmpl, const struct tmpl_var *vars, size_t nvars)
{
	struct buf body = BUF_INIT, tq = BUF_INIT, now = BUF_INIT;
	const char *t;
	size_t len;
	char *err = NULL;
	struct timespec ts;

	t = consoleview_tmpl(tmpl, &len);
	buf_appends(&body, "");
	if (tmpl_render(t, len, vars, nvars, &body, &err) == 0) {
		/* The overview's link, without a page: "?token=..." or "". */
		buf_appends(&tq, "");
		if (q->r->token_in_query) {
			buf_appends(&tq, "?token=");
			html_querys(&tq, q->token);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		consoleview_time(&now, (uint64_t)ts.tv_sec * 1000);
		{
			const struct tmpl_var lv[] = {
			    /* The page's script sends the token in a header; on
				 * control.sock there is none to send. */
			    {"token", q->tcp ? q->token : "", 0},
			    {"title", title, 0},
			    {"job", q->jobdir, 0},
			    {"page", page, 0},
			    {"live", q->live ? "1" : "0", 0},
			    {"tq", tq.data, 1},
			    {"state", q->state, 0},
			    {"reason", q->reason, 0},
			    {"body", body.data, 1},
			    {"version", PACKAGE_VERSION, 0},
			    {"where", q->tcp ? "TCP listener" : "control.sock", 0},
			    {"now", now.data, 0},
			};
			buf_reset(&q->reply->body);
			t = consoleview_tmpl("layout.html", &len);
			tmpl_render(t, len, lv, sizeof lv / sizeof lv[0], &q->reply->body, &err);
		}
	}
	if (err != NULL) {
		ctlserver_reply_error(q->reply, 500, err);
		free(err);
	} else {
		q->reply->status = 200;
		q->reply->content_type = "text/html; charset=utf-8";
	}
	consoleview_headers(&q->reply->headers);
	buf_free(&body);
	buf_free(&tq);
	buf_free(&now);
}
