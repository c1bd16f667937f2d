/* The page's answer in a visit: a connection failure handed on as such, a
 * 401 answered with a login, a Retry-After obeyed, a cookie wall's
 * redirect scheduled again; otherwise the page's outlinks scheduled
 * (crawl/outlinks.c), its records archived (a 304 to a revisit's
 * validators as a server-not-modified revisit), its history kept for the
 * next visit of a continuous crawl, its crawl.log line with every
 * annotation the fetch gathered, and its counts. The order is the
 * records', which are written before the line and before the frontier is
 * told (archive/warcpool.h). */
#include <build-config.h>

#include "crawl/visitpage.h"
#include "archive/digest.h"
#include "crawl/cookies.h"
#include "crawl/failures.h"
#include "crawl/login.h"
#include "crawl/recrawl.h"
#include "crawl/schedule.h"
#include "crawl/stats.h"
#include "crawl/visithttp.h"
#include "crawl/visitprivate.h"
#include "crawl/visitsay.h"
#include "lib/history.h"
#include "lib/surt.h"
#include "net/addrguard.h"
#include "net/fetch.h"

#include <assert.h>
#include <string.h>

/* Redirects in a row that may lead back to a URI already fetched. */
#define VISITPAGE_COOKIE_RETURNS 3

/* A cookie wall: a redirect that set a cookie (a new one or a new value:
 * one resent as it was changes nothing) and leads back to the URI
 * that was redirected here, or to this URI itself, asks for it again now
 * that the cookie will be sent. Its target was fetched already, so the seen
 * set would drop it: it is scheduled again (it was in scope then). The
 * target must take cookies (fetch.cookies for its prefix). The
 * chain is bounded, VISITPAGE_COOKIE_RETURNS redirects in a row at most: a
 * server that sets a new cookie at every turn ends there, and one that
 * ignores the cookie sends the crawl to its wall, already seen, once.
 * Not in a continuous crawl: the page waits for its revisit there (a second
 * entry in the schedule would visit it twice each time), and its next visit
 * carries the cookie. */
static void visitpage_cookie_return(struct visit *v, struct fetch *f, int status)
{
	const char *loc = fetch_header(f, "Location"), *h = v->c->hops ? v->c->hops : "";
	struct buf href = BUF_INIT, key = BUF_INIT;
	size_t n = strlen(h), run = 0;
	char *hops;

	if (v->pool->env.continuous || v->cookies_changed == 0 || status < 300 || status >= 400 ||
	    loc == NULL)
		return;
	while (run < n && h[n - 1 - run] == 'R')
		run++;
	if (run >= VISITPAGE_COOKIE_RETURNS)
		return;
	if (url_resolve(v->c->uri, loc, strlen(loc), &href) == 0 &&
	    (strcmp(href.data, v->c->uri) == 0 ||
		(v->c->via != NULL && strcmp(href.data, v->c->via) == 0)) &&
	    surt_override_key(href.data, &key) == 0 && cookies_on(v->pool->env.cookies, key.data)) {
		hops = xasprintf("%sR", h);
		schedule_uri(v->pool->env.schedule, href.data, v->c->uri, hops, 0, 1);
		free(hops);
	}
	buf_free(&href);
	buf_free(&key);
}

/* A 401 with a challenge tern answers and a credential for the URI and
 * realm: the 401 is archived (as Heritrix does, without a crawl.log line
 * of its own) and the page is to be asked again at once, once. 1 if so. */
static int visitpage_login(struct visit *v, struct fetch *f, const char *digest)
{
	char *answer;
	int revisit = 0;
	struct buf none = BUF_INIT;

	if (v->auth_retried)
		return 0;
	if (v->authorization != NULL)
		login_refused(v->pool->login, v->server_key, v->authorization);
	answer = login_answer(v->pool->login, f, v->server_key, v->surt, v->target.data);
	if (answer == NULL)
		return 0;
	if (visithttp_archive(v, digest, NULL, 0, &revisit, &none) < 0) {
		buf_free(&none);
		free(answer);
		return 0;
	}
	buf_free(&none);
	free(v->authorization);
	v->authorization = answer;
	v->auth_retried = 1;
	return 1;
}

/* The annotations the fetch itself gathered, into extra; the truncation a
 * WARC record names (NULL: none). */
static const char *visitpage_fetch_notes(const struct visit *v, unsigned fa, struct buf *extra)
{
	const char *truncated = NULL;
	size_t dropped;

	if (fa & FETCH_LENTRUNC) {
		buf_appends(extra, "lenTrunc");
		truncated = "length";
	}
	if (fa & FETCH_TIMETRUNC) {
		buf_appends(extra, extra->len ? ",timeTrunc" : "timeTrunc");
		truncated = "time";
	}
	/* The archived bytes are whole; only what extraction saw was cut. */
	if (fa & FETCH_DECTRUNC)
		buf_appends(extra, extra->len ? ",decodeTrunc" : "decodeTrunc");
	if (fa & FETCH_DECERR)
		buf_appends(extra, extra->len ? ",decodeError" : "decodeError");
	if (fa & FETCH_DECUNSUP)
		buf_appends(extra, extra->len ? ",decodeUnsupported" : "decodeUnsupported");
	if (v->links_on && (dropped = outlinks_dropped(v->ol)) > 0)
		buf_appendf(extra, "%sdol:%zu", extra->len ? "," : "", dropped);
	return truncated;
}

/* A continuous crawl: the history keeps what the next visit compares
 * with, and the URI's next visit is decided. The strings are read before
 * the fetch is released. */
static void visitpage_history(struct visit *v, struct fetch *f, int status, const char *digest,
    const char *truncated, int revisit)
{
	struct visit_pool *pool = v->pool;
	const struct fetch_timings *t = fetch_timings(f);
	struct history_visit hv;

	memset(&hv, 0, sizeof hv);
	hv.start_ms = status > 0 ? (int64_t)t->start_wall_ms : 0;
	hv.status = status;
	hv.digest = status >= 200 && status < 300 ? digest : NULL;
	hv.truncated = truncated != NULL;
	hv.etag = status > 0 ? fetch_header(f, "ETag") : NULL;
	hv.last_modified = status > 0 ? fetch_header(f, "Last-Modified") : NULL;
	hv.record_us = pool->env.warc != NULL ? (int64_t)t->start_wall_ms * 1000 : 0;
	if (revisit) {
		hv.refers_uri = v->refers_uri.data;
		hv.refers_us = recrawl_date_us(v->refers_date.data);
	}
	v->due_ms = recrawl_next_visit(pool->env.cfg, v->surt, v->c, &hv, clock_wall_ms());
}

void visitpage_done(struct visit *v, struct fetch *f, struct visit_verdict *d)
{
	struct visit_pool *pool = v->pool;
	int status = fetch_status(f);
	const struct fetch_timings *t = fetch_timings(f);
	char digest[DIGEST_STRLEN];
	/* Pool scratch: nothing here waits for another visit. */
	struct buf *ann = &pool->ann, *extra = &pool->extra, *outlinks = &pool->text;
	const char *truncated, *logged_digest = digest;
	int revisit = 0, not_modified = 0, attempts = v->c->attempts + 1;
	uint64_t bytes = fetch_raw_bytes(f), delay;
	enum status_cause cause;

	assert(v->state == VISIT_FETCH && f == v->f);
	buf_reset_keep(ann, VISIT_KEEP_ROOM);
	buf_reset_keep(extra, VISIT_KEEP_ROOM);
	buf_reset_keep(outlinks, VISIT_KEEP_ROOM);
	if (v->links_on)
		outlinks_finish(v->ol);
	digest_final(v->dg, digest);
	v->dg_used = 0;
	cause = fetch_cause(f);
	if (status == STATUS_CONNECT_FAILED || status == STATUS_CONNECT_LOST) {
		d->next = VISIT_GO_CONNECT;
		d->status = status;
		d->cause = cause;
		return;
	}
	if (status == 401 && visitpage_login(v, f, digest)) {
		d->next = VISIT_GO_AGAIN;
		return;
	}
	if (status > 0)
		frontier_note_connect(pool->env.frontier, v->c, 0);
	delay = status > 0 ? visit_delay(v, fetch_duration_ms(f), bytes) : 0;
	if (status == 429 || status == 503) {
		const char *ra = fetch_header(f, "Retry-After");
		uint64_t wait;
		if (ra != NULL &&
		    politeness_retry_after(
			ra, (int64_t)(clock_wall_ms() / 1000), 24ULL * 3600 * 1000, &wait) == 0 &&
		    frontier_may_retry(pool->env.frontier, v->c)) {
			/* The server named its time: the queue sleeps until then and
			 * the URI is asked again. */
			visitsay_failure(v, status, CAUSE_HTTP_ERROR, 0,
			    wait > delay ? wait : delay, "the server's Retry-After");
			pool->env.stats->retries++;
			visit_verdict_end(d, FRONTIER_RETRY, wait > delay ? wait : delay);
			return;
		}
	}
	truncated = visitpage_fetch_notes(v, fetch_annotations(f), extra);
	if (status > 0) {
		/* A revisit answered 304: archived as a server-not-modified
		 * revisit of the capture it confirms, whose digest it logs. */
		not_modified = pool->env.continuous &&
		    recrawl_not_modified(v->c, status, v->sent_validators, pool->env.warc,
			&v->refers_uri, &v->refers_date);
		if (not_modified)
			logged_digest = v->c->history->digest;
		/* The head began v->ol when the links of a response with
		 * this status count; a status is final once the head is read. */
		visitpage_cookie_return(v, f, status);
		if (v->links_on)
			outlinks_schedule(v->ol, &pool->links, &v->page, v->f, status,
			    v->have_addr &&
				addrguard_sockaddr((const struct sockaddr *)&v->addr) != NULL,
			    outlinks, extra);
		if (visithttp_archive(
			v, logged_digest, truncated, not_modified, &revisit, outlinks) < 0) {
			/* Not archived, so not done: back to its queue's head, to
			 * be fetched again once the writer works. */
			visit_verdict_end(d, FRONTIER_DEFER, delay);
			return;
		}
		/* doc/formats.md, "crawl.log": every capture written as a WARC revisit
		 * carries duplicate:digest, whichever profile; a 304's status
		 * column already tells the server-not-modified ones apart. */
		if (not_modified || revisit)
			buf_appends(extra, extra->len ? ",duplicate:digest" : "duplicate:digest");
		if (not_modified)
			pool->env.stats->not_modified++;
		else if (revisit)
			pool->env.stats->revisits++;
	}
	if (pool->env.continuous)
		visitpage_history(v, f, status, digest, truncated, revisit);
	if (cause != CAUSE_NONE)
		visitsay_failure(v, status, cause, 1, 0, NULL);
	visitsay_annotations(v, attempts, cause, extra->data, ann);
	visitsay_line(v, status, status > 0 ? (int64_t)bytes : -1, v->c->uri, v->c->hops, v->c->via,
	    status > 0 ? fetch_header(f, "Content-Type") : NULL, status > 0 ? t->start_wall_ms : 0,
	    fetch_duration_ms(f), status > 0 ? logged_digest : NULL, ann->data);
	if (pool->env.failures != NULL)
		failures_disposed(pool->env.failures, status, cause);
	if (status > 0) {
		pool->env.stats->pages++;
		pool->env.stats->bytes += bytes;
		pool->env.stats->status_class[status / 100 <= 5 ? status / 100 : 0]++;
		/* An error answer is a page captured and a URI failed, as the
		 * failures by cause count it (tern(1), FAILURES). */
		if (status >= 400)
			pool->env.stats->failures++;
	} else {
		pool->env.stats->failures++;
		pool->env.stats->status_class[0]++;
	}
	visit_verdict_end(d, status > 0 ? FRONTIER_SUCCESS : FRONTIER_FAILED, delay);
}
