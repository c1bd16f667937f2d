/* What every console page shares: the layout around a page's template, the
 * links between pages (carrying the token when it came in the query
 * string), numbers for people, the security headers of every answer, the
 * embedded assets, and the standalone login and error pages (which show
 * nothing of the crawl). Crawl data reaches HTML only through ops/html.h
 * and ops/tmpl.h's text slots. */
#ifndef TERN_CONSOLEVIEW_H
#define TERN_CONSOLEVIEW_H
#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "ops/consolereq.h"
#include "ops/tmpl.h"
#include "net/ctlserver.h"
#include "ops/consoleassets.h"

/* One request being answered with a page. */
struct consoleview_rq {
	const struct consolereq *r;
	int tcp;	   /* on the TCP listener */
	const char *token; /* the job's token ("" if none) */
	const char *jobdir;
	const char *state, *reason; /* the crawl's, for the header */
	int live;		    /* the crawl runs: pages refresh, actions work */
	struct ctlserver_reply *reply;
};

/* Appends an href value (escaped for a double-quoted attribute) for the
 * console page `page` ("" for the overview) with the name/value pairs that
 * follow (NULL-terminated; a NULL or "" value is left out), plus the token
 * when the request carried it in its query. */
void consoleview_href(struct buf *out, const struct consoleview_rq *q, const char *page, ...)
    __attribute__((sentinel));
/* A hidden form field carrying the token when links must carry it. */
void consoleview_token_input(struct buf *out, const struct consoleview_rq *q);
/* 1234567 as "1,234,567". */
void consoleview_num(struct buf *out, uint64_t v);
/* Seconds as "HH:MM:SS", with "Nd " in front past a day. */
void consoleview_duration(struct buf *out, double seconds);
/* A time (ms since the epoch) as "YYYY-MM-DD HH:MM:SS" UTC; 0 as "-". */
void consoleview_time(struct buf *out, uint64_t ms);

/* Renders template `tmpl` (an asset's name) with vars as the page's body,
 * inside the layout, into q->reply (status 200, HTML, security headers).
 * page is the name of the page for the navigation ("overview", ...). */
void consoleview_page(const struct consoleview_rq *q, const char *page, const char *title,
    const char *tmpl, const struct tmpl_var *vars, size_t nvars);
/* The login page (401 or 403 and why), naming the path to come back to. */
void consoleview_login(
    struct ctlserver_reply *reply, int status, const char *why, const char *path);
/* A refusal: JSON {"error", "status"} when json, else a standalone page. */
void consoleview_error(struct ctlserver_reply *reply, int status, const char *why, int json);
/* The headers every answer of the console carries (the TCP listener's
 * control routes too): no framing, no sniffing, no referrer, a CSP that
 * allows the console's own script and style and nothing inline. */
void consoleview_headers(struct buf *headers);
/* A request whose answer waits for work spread over loop iterations (a
 * sorted walk of the queues, crawl.log read for the hosts page). It joins
 * *list; when the work is done, its page is rendered through
 * consoleview_wait_rq and sent by consoleview_wait_send. A request that
 * goes away first (its deadline, the server closing) leaves the list by
 * itself. */
struct consoleview_wait;
void consoleview_wait(const struct consoleview_rq *q, struct consoleview_wait **list);
/* The waiting request, its reply ready to be written. */
const struct consoleview_rq *consoleview_wait_rq(struct consoleview_wait *w);
/* Sends w's answer, takes it off its list and frees it. */
void consoleview_wait_send(struct consoleview_wait *w);

/* The embedded asset named name, or NULL. */
const struct consoleasset *consoleview_asset(const char *name);

#endif
