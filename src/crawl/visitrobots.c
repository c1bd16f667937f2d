/* robots.txt in a visit. The server's verdict (frontier/hosts.h, backed by
 * the store through frontier/verdicts.h) is fetched through the page's own
 * queue when it is missing or older than robots.validity-seconds; the page
 * then goes back to its queue's head, a deferral rather than an attempt,
 * and waits the Crawl-delay the file just read asks for. Redirects on the
 * same host are followed (RFC 9309), and a file that redirected to another
 * scheme or port of its host answers for that server too. */
#include <build-config.h>

#include "crawl/visitrobots.h"
#include "archive/digest.h"
#include "crawl/sitemaps.h"
#include "crawl/stats.h"
#include "crawl/visithttp.h"
#include "crawl/visitprivate.h"
#include "crawl/visitsay.h"
#include "frontier/verdicts.h"
#include "net/fetch.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

/* RFC 9309: follow at least five redirects for robots.txt. */
#define VISITROBOTS_REDIRECTS 5

void visitrobots_gate(struct visit *v, struct visit_verdict *d)
{
	struct visit_pool *pool = v->pool;
	struct host *h;
	uint64_t validity;

	d->next = VISIT_GO_PAGE;
	if (pool->env.robots_policy == 1)
		return;
	h = hosts_get(pool->env.hosts, v->server_key, 1);
	if (h->robots == NULL) {
		/* Not in memory: the store may have it from before a resume,
		 * a checkpoint restore, or the table's eviction of the server. */
		uint64_t at;
		struct robots *r = verdicts_get(pool->env.frontier, v->server_key, &at);

		if (r != NULL)
			hosts_set_robots(pool->env.hosts, h, r, at);
	}
	validity = (uint64_t)config_int(pool->env.cfg, CK_ROBOTS_VALIDITY_SECONDS) * 1000;
	if (h->robots != NULL &&
	    (validity == 0 || h->robots_unused ||
		clock_wall_ms() - h->robots_fetched_ms < validity))
		return;
	/* The URL as any other is written (lib/url.h): without its default
	 * port, in crawl.log, WARC and index alike. "scheme://", then the
	 * host and any port: no user information, which is the page's and
	 * not the server's. */
	d->next = VISIT_GO_ROBOTS;
	d->port = v->port;
	buf_reset(&d->url);
	buf_append(&d->url, v->c->uri, v->page.scheme_len + 3);
	buf_append(&d->url, v->c->uri + v->page.host_off, v->page.path_off - v->page.host_off);
	buf_appends(&d->url, "/robots.txt");
}

/* A robots.txt that redirected to the robots.txt of another scheme or
 * port of its host (http to https) answered for that server too: its
 * verdict is kept under that server's key as well, so that the server's
 * own pages do not fetch it again within robots.validity-seconds. */
static void visitrobots_also(
    struct visit *v, int status, const char *body, size_t blen, int on5xx_allow)
{
	struct visit_pool *pool = v->pool;
	struct url_parts up;
	struct buf key = BUF_INIT;
	struct host *h;

	if (v->robots_redirects == 0 || url_split(v->fetch_url, &up) < 0 || up.has_query ||
	    up.path_len != 11 || memcmp(v->fetch_url + up.path_off, "/robots.txt", 11) != 0)
		return;
	visit_server_key(v->fetch_url, &up, &key);
	if (strcmp(key.data, v->server_key) != 0) {
		h = hosts_get(pool->env.hosts, key.data, 1);
		hosts_set_robots(pool->env.hosts, h,
		    robots_from_fetch(status, body, blen, pool->env.agent, on5xx_allow),
		    clock_wall_ms());
		h->robots_unused = 1;
		verdicts_put(pool->env.frontier, key.data, h->robots_fetched_ms, h->robots);
	}
	buf_free(&key);
}

/* The verdict of an answer that came, kept for the server (and for the
 * server a redirect led to), and the sitemaps it names scheduled. */
static void visitrobots_keep(struct visit *v, int status)
{
	struct visit_pool *pool = v->pool;
	struct host *h = hosts_get(pool->env.hosts, v->server_key, 1);
	int on5xx_allow = config_enum_for(pool->env.cfg, v->surt, CK_ROBOTS_ON_SERVER_ERROR) == 1;
	const char *body = v->robots.data ? v->robots.data : "";
	size_t blen = v->robots.len;
	struct robots *r;

	/* A redirect that was not followed means no robots.txt: allow. */
	if (status >= 300 && status < 400)
		r = robots_allow_all();
	else
		r = robots_from_fetch(status, body, blen, pool->env.agent, on5xx_allow);
	frontier_note_connect(pool->env.frontier, v->c, 0);
	hosts_set_robots(pool->env.hosts, h, r, clock_wall_ms());
	h->robots_unused = 1;
	verdicts_put(pool->env.frontier, v->server_key, h->robots_fetched_ms, r);
	if (!(status >= 300 && status < 400))
		visitrobots_also(v, status, body, blen, on5xx_allow);
	if (config_bool_for(pool->env.cfg, v->surt, CK_CRAWL_SITEMAPS)) {
		char *phops = visit_prereq_hops(v);
		int ok = status >= 200 && status < 300;

		sitemaps_from_robots(pool->env.schedule, v->fetch_url, v->server_key, phops,
		    ok ? body : "", ok ? blen : 0, pool->env.continuous);
		free(phops);
	}
}

void visitrobots_done(struct visit *v, struct fetch *f, struct visit_verdict *d)
{
	struct visit_pool *pool = v->pool;
	int status = fetch_status(f);
	const struct fetch_timings *t = fetch_timings(f);
	char digest[DIGEST_STRLEN];
	struct buf ann = BUF_INIT, none = BUF_INIT;
	char *hops = visit_prereq_hops(v);
	const char *loc = fetch_header(f, "Location");
	int revisit = 0;
	uint64_t delay;

	assert(v->state == VISIT_ROBOTS && f == v->f);
	pool->env.stats->robots_fetches++;
	digest_final(v->dg, digest);
	v->dg_used = 0;
	if (status > 0 && visithttp_archive(v, digest, NULL, 0, &revisit, &none) < 0) {
		/* Not archived: robots.txt is asked again later. */
		uint64_t wait = visit_delay(v, fetch_duration_ms(f), fetch_raw_bytes(f));
		buf_free(&none);
		free(hops);
		visit_verdict_end(d, FRONTIER_DEFER, wait);
		return;
	}
	buf_free(&none);
	/* Each attempt at robots.txt has its line, a failed one its cause. */
	if (status < 0) {
		buf_appends(&ann, "err:");
		buf_appends(&ann, status_cause_word(fetch_cause(f)));
	}
	if (fetch_annotations(f) & FETCH_LENTRUNC)
		buf_appends(&ann, ann.len ? ",lenTrunc" : "lenTrunc");
	/* Every capture written as a revisit says so in crawl.log, robots.txt
	 * as much as a page (doc/formats.md, "crawl.log"). */
	if (revisit) {
		buf_appends(&ann, ann.len ? ",duplicate:digest" : "duplicate:digest");
		pool->env.stats->revisits++;
	}
	visitsay_line(v, status, status > 0 ? (int64_t)fetch_raw_bytes(f) : -1, v->fetch_url, hops,
	    v->c->uri, fetch_header(f, "Content-Type"), status > 0 ? t->start_wall_ms : 0,
	    fetch_duration_ms(f), status > 0 ? digest : NULL, ann.data);
	buf_free(&ann);
	free(hops);

	/* Redirects on the same host are followed (RFC 9309 asks for five);
	 * a redirect elsewhere counts as "no robots.txt here" (allow), a
	 * departure documented in doc/crawl.md. */
	if (status >= 300 && status < 400 && loc != NULL &&
	    v->robots_redirects < VISITROBOTS_REDIRECTS) {
		struct buf next = BUF_INIT;
		struct url_parts up;
		if (url_resolve(v->fetch_url, loc, strlen(loc), &next) == 0 &&
		    url_split(next.data, &up) == 0 && up.host_len == strlen(v->host) &&
		    strncasecmp(next.data + up.host_off, v->host, up.host_len) == 0) {
			v->robots_redirects++;
			d->next = VISIT_GO_ROBOTS;
			d->port = up.port;
			buf_free(&d->url);
			d->url = next;
			return;
		}
		buf_free(&next);
	}
	if ((status == 429 || status == 503) && fetch_header(f, "Retry-After") != NULL) {
		/* The server asked for time: no verdict is cached, the page waits
		 * as long as asked and robots.txt is asked again. */
		uint64_t wait;
		if (politeness_retry_after(fetch_header(f, "Retry-After"),
			(int64_t)(clock_wall_ms() / 1000), 24ULL * 3600 * 1000, &wait) == 0) {
			delay = visit_delay(v, fetch_duration_ms(f), fetch_raw_bytes(f));
			visit_verdict_retry(d, STATUS_ROBOTS_PREREQ, fetch_cause(f),
			    wait > delay ? wait : delay, "the server's Retry-After");
			return;
		}
	}
	if (status < 0) {
		/* The server could not be asked: the page waits and retries; its
		 * final status, if attempts run out, is STATUS_ROBOTS_PREREQ, with
		 * the cause of robots.txt's failure. */
		enum status_cause cause = fetch_cause(f);

		delay = visit_delay(v, fetch_duration_ms(f), fetch_raw_bytes(f));
		visit_verdict_retry(
		    d, STATUS_ROBOTS_PREREQ, cause, delay, "politeness.min-delay-ms");
		if (status == STATUS_CONNECT_FAILED || status == STATUS_CONNECT_LOST)
			d->next = VISIT_GO_CONNECT;
		return;
	}
	visitrobots_keep(v, status);
	/* Only now, with the verdict in place: the Crawl-delay the file
	 * asks for governs the very next request on the queue. */
	delay = visit_delay(v, fetch_duration_ms(f), fetch_raw_bytes(f));
	visit_verdict_end(d, FRONTIER_DEFER, delay);
}

void visitrobots_permit(struct visit *v, struct visit_verdict *d)
{
	struct visit_pool *pool = v->pool;
	struct host *h;

	if (pool->env.robots_policy == 1)
		return;
	h = hosts_get(pool->env.hosts, v->server_key, 1);
	h->robots_unused = 0;
	if (h->robots == NULL || robots_allowed(h->robots, v->target.data, v->target.len))
		return;
	if (pool->env.robots_policy == 0) {
		visit_verdict_fail(d, STATUS_ROBOTS_PRECLUDED,
		    robots_is_unavailable(h->robots) ? CAUSE_ROBOTS_UNAVAILABLE
						     : CAUSE_ROBOTS_DISALLOWED,
		    FRONTIER_DISREGARD, 0);
		return;
	}
	v->robot_excluded = 1;
}
