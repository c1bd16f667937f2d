/* One URI's journey through the crawl loop, as an explicit state machine:
 *
 *   RESOLVE  the host's address (c-ares, cached); a fresh lookup is logged as
 *            a dns: line and archived; no politeness delay follows it; under
 *            IP queue assignment a URI queued under its host name moves to
 *            its address's queue here and the visit ends
 *   ROBOTS   robots.txt for scheme://authority, through the same queue, when
 *            the cached verdict is missing or stale; afterwards the URI goes
 *            back to its queue head (a deferral, not an attempt) and the
 *            queue snoozes politely, by the Crawl-delay the file just read
 *            asks for
 *   FETCH    the page itself: body recorded for the WARC (spilled to a file
 *            past a bound), digested, and fed to the link extractors
 *            (crawl/outlinks.c, when the head says its links count)
 *   DONE     crawl.log line and WARC records written, outlinks scheduled,
 *            and only then the frontier told: a URI is never marked done
 *            before its records are written
 *
 * A visit never frees itself inside a callback of the object that called it:
 * fetches are released with fetch_release (freed later by the engine), and
 * the visit itself is freed on the path that ends it, after it has let go of
 * every handle. */
#include <build-config.h>

#include "crawl/visit.h"
#include "crawl/cookies.h"
#include "crawl/failures.h"
#include "crawl/login.h"
#include "crawl/outlinks.h"
#include "crawl/recrawl.h"
#include "crawl/seedhosts.h"
#include "crawl/sitemaps.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "archive/capture.h"
#include "archive/crawllog.h"
#include "lib/curi.h"
#include "lib/reqheaders.h"
#include "archive/dedup.h"
#include "archive/digest.h"
#include "net/addrguard.h"
#include "net/dns.h"
#include "net/fetch.h"
#include "net/fetcher.h"
#include "frontier/frontier.h"
#include "frontier/hosts.h"
#include "frontier/verdicts.h"
#include "crawl/politeness.h"
#include "crawl/schedule.h"
#include "crawl/stats.h"
#include "lib/robots.h"
#include "crawl/scope.h"
#include "lib/status.h"
#include "lib/surt.h"
#include "lib/url.h"
#include "archive/warc.h"
#include "archive/warcpool.h"
#include "lib/xmalloc.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Bodies are recorded in memory up to this size, then in a spill file. */
#define VISIT_SPILL_BYTES (1024 * 1024)
/* RFC 9309: follow at least five redirects for robots.txt. */
#define VISIT_ROBOTS_REDIRECTS 5
/* Snoozes longer than this close the host's idle connections. */
#define VISIT_LONG_SNOOZE_MS 30000

/* Visits that ended are kept for the next ones, up to this many, with
 * their digest, their outlinks and the room of their buffers up to
 * VISIT_KEEP_ROOM each: a page's visit then allocates none of them. */
#define VISIT_SPARES 256
#define VISIT_KEEP_ROOM (16 * 1024)

/* A spare is poisoned for AddressSanitizer while it waits, so that a use of
 * an ended visit is still reported as the use after free it is. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define VISIT_POISON(v) ASAN_POISON_MEMORY_REGION((v), sizeof *(v))
#define VISIT_UNPOISON(v) ASAN_UNPOISON_MEMORY_REGION((v), sizeof *(v))
#else
#define VISIT_POISON(v) ((void)(v))
#define VISIT_UNPOISON(v) ((void)(v))
#endif

/* A fetch put off by a failure of ours (out of descriptors) waits this long,
 * while other fetches give theirs back. */
#define VISIT_LOCAL_RETRY_MS 1000

enum visit_state { VISIT_RESOLVE, VISIT_ROBOTS, VISIT_FETCH, VISIT_DONE };

static const char *const visit_state_names[] = {"RESOLVE", "ROBOTS", "FETCH", "DONE"};

/* Every visit in progress, and what they were given. */
struct visit_pool {
	struct visit_env env;
	struct visit *visits;
	int in_flight;
	unsigned char *slots;	     /* slot numbers in use, for crawl.log's #NNN */
	struct buf line;	     /* scratch for crawl.log lines */
	struct buf ann, extra, text; /* scratch for a page's annotations and outlinks */
	struct outlinks_env links;   /* what scheduling a page's outlinks needs */
	struct visit *spare;	     /* ended visits kept for reuse (visit_recycle) */
	int nspare;
	uint64_t local_failures; /* fetches put off by visit_local_failure */
	struct login *login;	 /* HTTP logins (fetch.credentials-file) */
};

struct visit {
	struct visit_pool *pool;
	struct curi *c;
	enum visit_state state;
	struct visit *prev, *next;
	int slot;
	int abandoned;
	int give_back; /* abandoned: the URI goes back to the frontier (deferred) */

	/* The URI's parts and the keys derived from it. */
	char *host; /* ASCII host, without IPv6 brackets */
	int port;
	int https;
	int host_ip;
	char *server_key;      /* "scheme://host:port" for robots */
	char *surt;	       /* for [override] lookups */
	struct url_parts page; /* c->uri split, for resolving its links */
	struct buf target;     /* "/path?query" */

	struct dns_query *dq;
	struct sockaddr_storage addr;
	int have_addr;
	char ip[INET6_ADDRSTRLEN];

	struct fetch *f;
	char *fetch_url; /* the URL being fetched (robots.txt or the page) */
	int robots_redirects;
	int robot_excluded;

	/* What the response body becomes. */
	struct digest *dg;
	struct capture *body; /* recorded for the WARC (kept across reuse) */
	int record_failed;    /* the body could not be recorded: ours, not the server's */
	int record_errno;     /* why */
	struct outlinks *ol;  /* the page's links (kept across reuse) */
	int links_on;	      /* ol has begun on this response */
	int dg_used;	      /* dg has taken bytes since its last reset */
	struct buf robots;    /* decoded robots.txt body, up to ROBOTS_MAX_BODY */

	/* Continuous crawls: whether the fetch sent validators; the capture
	 * a revisit record refers to (a 304's earlier capture, or the dedup
	 * index's original); when the URI is due again (0: not decided). */
	int sent_validators;
	struct buf refers_uri, refers_date;
	uint64_t due_ms;

	/* Set-Cookie headers of this response the jar refused (cookie_parse)
	 * and cookies they evicted for room: the crawl.log annotations
	 * cookiesRefused:N and cookiesEvicted:N. */
	unsigned cookies_refused, cookies_evicted;
	unsigned cookies_changed; /* by the page's own response */
	/* HTTP login: the Authorization the page's request carries (sent
	 * ahead, or answering a 401), and whether a 401 was answered. */
	char *authorization;
	int auth_retried;

	/* The end waiting for the records queued before it (warcpool_hold). */
	enum frontier_outcome held_outcome;
	uint64_t held_delay_ms;
};

static void visit_fetch_page(struct visit *v);
static void visit_start_fetch(struct visit *v, const char *url);
static int visit_login_retry(struct visit *v, struct fetch *f, const char *digest);
static int visit_archive(struct visit *v, const char *digest, const char *truncated,
    int not_modified, int *revisit, struct buf *outlinks_text);
static void visit_fetch_robots(struct visit *v, const char *url);

static void visit_set_state(struct visit *v, enum visit_state s)
{
	(void)visit_state_names;
	v->state = s;
}

/* A runtime event for logs/tern.log, through the owner's hook. */
static void visit_event(struct visit_pool *pool, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void visit_event(struct visit_pool *pool, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	pool->env.event(pool->env.ctx, msg);
	free(msg);
}

static int visit_slot_take(struct visit_pool *pool)
{
	for (int i = 0; i < pool->env.max_conns; i++) {
		if (!pool->slots[i]) {
			pool->slots[i] = 1;
			return i;
		}
	}
	return pool->env.max_conns;
}

/* Frees a visit with everything it keeps. */
static void visit_destroy(struct visit *v)
{
	outlinks_free(v->ol);
	digest_free(v->dg);
	capture_free(v->body);
	buf_free(&v->robots);
	buf_free(&v->target);
	free(v);
}

/* An ended visit, which has let go of its URI and handles, becomes a spare:
 * cleared but for its digest (reset before its next use if it took bytes),
 * its outlinks (ended) and its buffers' room. */
static void visit_recycle(struct visit_pool *pool, struct visit *v)
{
	struct digest *dg = v->dg;
	struct outlinks *ol = v->ol;
	struct capture *body = v->body;
	struct buf robots = v->robots, target = v->target;
	int dg_used = v->dg_used;

	if (pool->nspare >= VISIT_SPARES) {
		visit_destroy(v);
		return;
	}
	memset(v, 0, sizeof *v);
	v->dg = dg;
	v->dg_used = dg_used;
	v->ol = ol;
	v->body = body;
	v->robots = robots;
	v->target = target;
	if (v->body != NULL)
		capture_reset(v->body, VISIT_KEEP_ROOM);
	buf_reset_keep(&v->robots, VISIT_KEEP_ROOM);
	buf_reset_keep(&v->target, VISIT_KEEP_ROOM);
	v->next = pool->spare;
	pool->spare = v;
	pool->nspare++;
	VISIT_POISON(v);
}

static void visit_free(struct visit *v)
{
	struct visit_pool *pool = v->pool;

	if (v->prev)
		v->prev->next = v->next;
	else
		pool->visits = v->next;
	if (v->next)
		v->next->prev = v->prev;
	if (v->slot < pool->env.max_conns)
		pool->slots[v->slot] = 0;
	if (v->links_on)
		outlinks_end(v->ol);
	buf_free(&v->refers_uri);
	buf_free(&v->refers_date);
	curi_free(v->c);
	free(v->host);
	free(v->server_key);
	free(v->surt);
	free(v->fetch_url);
	free(v->authorization);
	visit_recycle(pool, v);
	pool->in_flight--;
	pool->env.ended(pool->env.ctx);
}

/* The annotations column: Nt for several attempts, the cause of a failure
 * (err:WORD), then the rest. */
static void visit_annotations(const struct visit *v, int attempts, enum status_cause cause,
    const char *extra, struct buf *out)
{
	buf_reset(out);
	if (attempts > 1)
		buf_appendf(out, "%dt", attempts);
	if (cause != CAUSE_NONE && cause != CAUSE_HTTP_ERROR) {
		if (out->len)
			buf_appendc(out, ',');
		buf_appends(out, "err:");
		buf_appends(out, status_cause_word(cause));
	}
	if (extra != NULL && *extra) {
		if (out->len)
			buf_appendc(out, ',');
		buf_appends(out, extra);
	}
	if (v->robot_excluded) {
		if (out->len)
			buf_appendc(out, ',');
		buf_appends(out, "robotExcluded");
	}
	if (v->cookies_refused > 0)
		buf_appendf(out, "%scookiesRefused:%u", out->len ? "," : "", v->cookies_refused);
	if (v->cookies_evicted > 0)
		buf_appendf(out, "%scookiesEvicted:%u", out->len ? "," : "", v->cookies_evicted);
}

static void visit_log(struct visit *v, int status, int64_t size, const char *uri, const char *hops,
    const char *via, const char *mime, uint64_t begin_ms, uint64_t duration_ms, const char *digest,
    const char *annotations)
{
	struct visit_pool *pool = v->pool;
	struct crawllog_entry e = {
	    clock_wall_ms(),
	    status,
	    size,
	    uri,
	    hops,
	    via,
	    mime,
	    v->slot,
	    begin_ms,
	    duration_ms,
	    digest,
	    NULL,
	    annotations,
	};

	buf_reset(&pool->line);
	crawllog_format(&e, &pool->line);
	/* After the records queued before it (archive/warcpool.h). */
	if (pool->env.warcpool != NULL)
		warcpool_log(pool->env.warcpool, pool->line.data, pool->line.len);
	else
		fwrite(pool->line.data, 1, pool->line.len, pool->env.crawllog);
}

/* Hop path of a prerequisite: the parent's, plus P. */
static char *visit_prereq_hops(const struct visit *v)
{
	return xasprintf("%sP", v->c->hops ? v->c->hops : "");
}

static int visit_max_retries(const struct visit *v)
{
	return (int)config_int_for(v->pool->env.cfg, v->surt, CK_FRONTIER_MAX_RETRIES);
}

static void visit_politeness(const struct visit *v, struct politeness_params *p)
{
	const struct config *cfg = v->pool->env.cfg;

	p->delay_factor = config_double_for(cfg, v->surt, CK_POLITENESS_DELAY_FACTOR);
	p->min_delay_ms = config_int_for(cfg, v->surt, CK_POLITENESS_MIN_DELAY_MS);
	p->max_delay_ms = config_int_for(cfg, v->surt, CK_POLITENESS_MAX_DELAY_MS);
	p->respect_crawl_delay_s =
	    config_int_for(cfg, v->surt, CK_POLITENESS_RESPECT_CRAWL_DELAY_UP_TO_SECONDS);
	p->max_kb_sec = config_int_for(cfg, v->surt, CK_POLITENESS_MAX_PER_HOST_BANDWIDTH_KB_SEC);
}

/* The queue's snooze after a fetch that reached the host. */
static uint64_t visit_delay(struct visit *v, uint64_t duration_ms, uint64_t bytes)
{
	struct politeness_params p;
	struct host *h = hosts_get(v->pool->env.hosts, v->server_key, 1);
	int64_t crawl_delay = h->robots ? robots_crawl_delay_ms(h->robots) : -1;
	uint64_t d, bw;

	visit_politeness(v, &p);
	d = politeness_delay(&p, 1, duration_ms, crawl_delay);
	bw = politeness_bandwidth(p.max_kb_sec, &h->bandwidth_next_ms, clock_wall_ms(), bytes);
	return bw > d ? bw : d;
}

/* The robots key of an href split into p, "scheme://host:port" with the
 * port always written (frontier/hosts.h), into out (appended to). */
static void visit_server_key(const char *href, const struct url_parts *p, struct buf *out)
{
	buf_appends(out, p->https ? "https://" : "http://");
	buf_append(out, href + p->host_off, p->host_len);
	buf_appendc(out, ':');
	buf_appendu(out, (uint64_t)p->port);
}

/* Ends the visit: tells the frontier, then frees. */
static void visit_end_now(struct visit *v, enum frontier_outcome o, uint64_t delay_ms)
{
	struct visit_pool *pool = v->pool;

	/* A visit ends once: its URI goes back to the frontier here. */
	assert(v->c != NULL && v->state != VISIT_DONE);
	/* A kept-alive connection to a host that will sleep long only costs
	 * the server a socket. */
	if (delay_ms > VISIT_LONG_SNOOZE_MS && v->host != NULL)
		fetcher_close_idle(pool->env.fetcher, v->host, v->port);
	visit_set_state(v, VISIT_DONE);
	/* Ended before a fetch told anything (a failure, a robots refusal):
	 * the rule keeps the URI's interval. */
	if (pool->env.continuous && v->due_ms == 0 &&
	    (o == FRONTIER_SUCCESS || o == FRONTIER_FAILED || o == FRONTIER_DISREGARD)) {
		struct history_visit hv;

		memset(&hv, 0, sizeof hv);
		v->due_ms = recrawl_next_visit(pool->env.cfg, v->surt, v->c, &hv, clock_wall_ms());
	}
	if (pool->env.disposed != NULL &&
	    (o == FRONTIER_SUCCESS || o == FRONTIER_FAILED || o == FRONTIER_DISREGARD))
		pool->env.disposed(
		    pool->env.ctx, v->c, pool->env.continuous ? v->due_ms : 0, delay_ms);
	if (pool->env.continuous &&
	    (o == FRONTIER_SUCCESS || o == FRONTIER_FAILED || o == FRONTIER_DISREGARD)) {
		frontier_finish_revisit(
		    pool->env.frontier, v->c, o, clock_wall_ms_up(), delay_ms, v->due_ms);
	} else {
		frontier_finish(pool->env.frontier, v->c, o, clock_wall_ms_up(), delay_ms);
	}
	v->c = NULL;
	visit_free(v);
}

static void visit_held_cb(void *arg)
{
	struct visit *v = arg;

	visit_end_now(v, v->held_outcome, v->held_delay_ms);
}

/* Ends the visit once the WARC records and crawl.log lines handed in before
 * are queued (archive/warcpool.h): a URI is never marked done before them. */
static void visit_end(struct visit *v, enum frontier_outcome o, uint64_t delay_ms)
{
	v->held_outcome = o;
	v->held_delay_ms = delay_ms;
	if (v->pool->env.warcpool != NULL && warcpool_hold(v->pool->env.warcpool, visit_held_cb, v))
		return;
	visit_end_now(v, o, delay_ms);
}

/* Says a failed attempt of the visit's URI (the first of its kind for the
 * host, a seed's while nothing was fetched; failures.c decides). retry_ms
 * is the wait before the next attempt (0: the queue's retry-delay-seconds),
 * final that there is none. */
static void visit_note_failure(struct visit *v, int status, enum status_cause cause, int final,
    uint64_t retry_ms, const char *retry_setting)
{
	struct visit_pool *pool = v->pool;
	struct failures_event ev;

	if (pool->env.failures == NULL || cause == CAUSE_NONE)
		return;
	memset(&ev, 0, sizeof ev);
	ev.host = v->host != NULL ? v->host : v->c->uri;
	ev.port = v->port;
	ev.uri = v->c->uri;
	ev.status = status;
	ev.cause = cause;
	ev.seed = (v->c->flags & CURI_SEED) != 0;
	ev.final = final;
	ev.attempt = v->c->attempts + 1;
	ev.max_attempts = visit_max_retries(v);
	if (!final && retry_ms == 0) {
		retry_ms = (uint64_t)config_int_for(
			       pool->env.cfg, v->surt, CK_FRONTIER_RETRY_DELAY_SECONDS) *
		    1000;
		retry_setting = "frontier.retry-delay-seconds";
	}
	ev.retry_ms = retry_ms;
	ev.retry_setting = retry_setting;
	failures_note(pool->env.failures, &ev);
}

/* A final failure before or instead of a fetch: one crawl.log line, with
 * the cause's word. */
static void visit_fail(struct visit *v, int status, enum status_cause cause,
    enum frontier_outcome o, uint64_t delay_ms)
{
	struct buf ann = BUF_INIT;
	int attempts = v->c->attempts + (o == FRONTIER_DISREGARD ? 0 : 1);

	assert(status < 0);
	if (attempts < 1)
		attempts = 1;
	visit_note_failure(v, status, cause, 1, 0, NULL);
	visit_annotations(v, attempts, cause, NULL, &ann);
	visit_log(v, status, -1, v->c->uri, v->c->hops, v->c->via, NULL, 0, 0, NULL, ann.data);
	buf_free(&ann);
	v->pool->env.stats->failures++;
	v->pool->env.stats->status_class[0]++;
	if (v->pool->env.failures != NULL)
		failures_disposed(v->pool->env.failures, status, cause);
	visit_end(v, o, delay_ms);
}

/* A retryable failure: retried while attempts remain, else final. delay_ms
 * 0 is the queue's retry-delay-seconds; setting names what set another. */
static void visit_retry_or_fail(
    struct visit *v, int status, enum status_cause cause, uint64_t delay_ms, const char *setting)
{
	if (frontier_may_retry(v->pool->env.frontier, v->c)) {
		visit_note_failure(v, status, cause, 0, delay_ms, setting);
		v->pool->env.stats->retries++;
		visit_end(v, FRONTIER_RETRY, delay_ms);
	} else {
		visit_fail(v, status, cause, FRONTIER_FAILED, delay_ms);
	}
}

/* A connection failure: the queue waits as a whole, at least
 * retry-delay-seconds (Heritrix's wait between attempts) and up to a quarter
 * more, so that hosts that failed together come back spread out; once the
 * host has failed as many times in a row as a URI may be tried, further
 * URIs of the queue get one attempt each rather than a full cycle. */
static void visit_connect_failed(struct visit *v, int status, enum status_cause cause)
{
	struct visit_pool *pool = v->pool;
	unsigned n = frontier_note_connect(pool->env.frontier, v->c, 1);
	uint64_t floor =
	    (uint64_t)config_int_for(pool->env.cfg, v->surt, CK_FRONTIER_RETRY_DELAY_SECONDS) *
	    1000;
	uint64_t delay = politeness_backoff(floor, (uint32_t)random());

	if (n >= (unsigned)visit_max_retries(v))
		visit_fail(v, status, cause, FRONTIER_FAILED, delay);
	else
		visit_retry_or_fail(v, status, cause, delay, "frontier.retry-delay-seconds");
}

/* A fetch that failed for want of something of ours (descriptors for a
 * socket or a spill file, kernel buffers, disk for the body) rather than
 * because of the server: nothing is logged against the URI, no attempt is
 * counted, the host is not blamed, and the URI goes back to its queue's head
 * for a short wait. Said in tern.log at the 1st, 10th, 100th... time. */
static int visit_local_failure(struct visit *v, struct fetch *f)
{
	struct visit_pool *pool = v->pool;
	uint64_t n;

	if (!(fetch_annotations(f) & FETCH_LOCAL) && !v->record_failed)
		return 0;
	if (v->record_failed && (v->record_errno == ENOSPC || v->record_errno == EDQUOT) &&
	    pool->env.disk_full != NULL)
		pool->env.disk_full(pool->env.ctx, "a spill file in state/tmp");
	n = ++pool->local_failures;
	for (uint64_t p = 1; p <= n; p *= 10)
		if (p == n) {
			visit_event(pool,
			    "%llu fetches put off for want of a local resource, to be "
			    "tried again (the last: %s)",
			    (unsigned long long)n, v->fetch_url);
			break;
		}
	fetch_release(v->f);
	v->f = NULL;
	visit_end(v, FRONTIER_DEFER, VISIT_LOCAL_RETRY_MS);
	return 1;
}

/* The address guard (net/addrguard.h): a URI whose address is private,
 * loopback or otherwise special-purpose is refused (STATUS_UNFETCHABLE,
 * CAUSE_PRIVATE_ADDRESS) before anything is sent, so a page cannot point
 * the crawler at internal services, unless the operator allowed such
 * addresses or named its host in a seed. 1 if the visit was refused. */
static int visit_guard(struct visit *v)
{
	struct visit_pool *pool = v->pool;
	int local = addrguard_sockaddr((const struct sockaddr *)&v->addr) != NULL;

	if (local)
		pool->env.stats->local_visits++;
	else
		pool->env.stats->remote_visits++;
	if (!local || config_bool(pool->env.cfg, CK_FETCH_ALLOW_PRIVATE_ADDRESSES) ||
	    ((v->c->flags & CURI_SEED) && !(v->c->flags & CURI_GUARDED)) ||
	    (pool->env.seedhosts != NULL && seedhosts_has(pool->env.seedhosts, v->host)))
		return 0;
	visit_fail(v, STATUS_UNFETCHABLE, CAUSE_PRIVATE_ADDRESS, FRONTIER_FAILED, 0);
	return 1;
}

static void visit_set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	else if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
}

/* The robots gate, once the address is known. */
static void visit_after_resolve(struct visit *v)
{
	struct visit_pool *pool = v->pool;
	struct host *h;
	uint64_t validity;

	if (pool->env.robots_policy == 1) {
		visit_fetch_page(v);
		return;
	}
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
		clock_wall_ms() - h->robots_fetched_ms < validity)) {
		visit_fetch_page(v);
		return;
	}
	{
		/* The URL as any other is written (lib/url.h): without its
		 * default port, in crawl.log, WARC and index alike. */
		struct buf url = BUF_INIT;

		/* "scheme://", then the host and any port: no user
		 * information, which is the page's and not the server's. */
		buf_append(&url, v->c->uri, v->page.scheme_len + 3);
		buf_append(&url, v->c->uri + v->page.host_off, v->page.path_off - v->page.host_off);
		buf_appends(&url, "/robots.txt");
		visit_fetch_robots(v, url.data);
		buf_free(&url);
	}
}

/* IP queue assignment: a URI queued under its host name before the address
 * was known moves to the address's queue as soon as it comes up, before
 * anything is fetched for it (schedule_relocate); the old queue gives it up
 * without a politeness delay, a crawl.log line or a count. 1 if it moved
 * (the visit is over), 0 to go on here. */
static int visit_relocate(struct visit *v)
{
	if (v->host_ip || !schedule_relocate(v->pool->env.schedule, v->c, v->surt, v->ip))
		return 0;
	visit_end(v, FRONTIER_RELOCATED, 0);
	return 1;
}

static void visit_dns_cb(void *arg, const struct dns_answer *a)
{
	struct visit *v = arg;
	struct visit_pool *pool = v->pool;

	v->dq = NULL;
	if (v->abandoned) {
		if (v->give_back)
			visit_end(v, FRONTIER_DEFER, 0);
		else
			visit_free(v);
		return;
	}
	if (!a->from_cache) {
		char digest[DIGEST_STRLEN], stamp[32], server_ip[64];
		char *uri = xasprintf("dns:%s", v->host), *hops = visit_prereq_hops(v);
		struct buf block = BUF_INIT;
		pool->env.stats->dns_lookups++;
		/* Heritrix's text/dns block: the 14-digit lookup time, then the
		 * answer's records, one a line. */
		crawllog_compact_time(a->fetch_time_ms, stamp);
		stamp[14] = '\0';
		buf_appendf(&block, "%s\n%s", stamp, a->rr_text ? a->rr_text : "");
		digest_of(block.data, block.len, digest);
		/* WARC-IP-Address names the DNS server, without its port. */
		snprintf(server_ip, sizeof server_ip, "%s", a->server ? a->server : "");
		if (strchr(server_ip, ':') == strrchr(server_ip, ':') && strchr(server_ip, ':'))
			*strchr(server_ip, ':') = '\0';
		if (a->status == STATUS_DNS_SUCCESS && pool->env.warc != NULL) {
			char *err = NULL;
			unsigned char raw[16];
			/* An answer from the hosts file names no server. */
			int from_server = inet_pton(AF_INET, server_ip, raw) == 1 ||
			    inet_pton(AF_INET6, server_ip, raw) == 1;
			if (warcpool_dns(pool->env.warcpool, v->host,
				from_server ? server_ip : NULL, a->fetch_time_ms * 1000, block.data,
				block.len, &err) < 0) {
				visit_event(pool, "WARC: %s", err);
				free(err);
			}
		}
		{
			/* A failed lookup's line names its cause too. */
			char *ann = a->status != STATUS_DNS_SUCCESS && a->cause != CAUSE_NONE
			    ? xasprintf("err:%s", status_cause_word(a->cause))
			    : NULL;
			int ok = a->status == STATUS_DNS_SUCCESS;

			visit_log(v, a->status, ok ? (int64_t)block.len : -1, uri, hops, v->c->uri,
			    "text/dns", a->fetch_time_ms, 0, ok ? digest : NULL, ann);
			free(ann);
		}
		buf_free(&block);
		free(uri);
		free(hops);
	}
	if (a->status != STATUS_DNS_SUCCESS || a->naddrs < 1) {
		enum status_cause cause = a->cause != CAUSE_NONE ? a->cause : CAUSE_DNS_FAILED;

		/* A name that does not exist, or has no address, is the DNS's
		 * answer, not a failure to get one: retrying it for hours
		 * (Heritrix does) would only make a mistyped seed look hung. */
		if (cause == CAUSE_DNS_NXDOMAIN || cause == CAUSE_DNS_NO_ADDRESS) {
			visit_fail(v, STATUS_DNS_PREREQ, cause, FRONTIER_FAILED, 0);
			return;
		}
		/* The DNS server is not the host: no politeness delay, only the
		 * retry delay the frontier applies to the URI. */
		visit_retry_or_fail(v, STATUS_DNS_PREREQ, cause, 0, NULL);
		return;
	}
	memcpy(&v->addr, &a->addrs[0], sizeof v->addr);
	visit_set_port(&v->addr, v->port);
	snprintf(v->ip, sizeof v->ip, "%s", a->ip);
	v->have_addr = 1;
	if (visit_guard(v))
		return;
	if (visit_relocate(v))
		return;
	visit_after_resolve(v);
}

/* Literal IP hosts need no lookup; the guard judges them as it judges
 * resolved names. */
static int visit_literal_addr(struct visit *v)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)&v->addr;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&v->addr;
	size_t n;

	memset(&v->addr, 0, sizeof v->addr);
	if (inet_pton(AF_INET, v->host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
	} else if (inet_pton(AF_INET6, v->host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
	} else {
		return -1;
	}
	visit_set_port(&v->addr, v->port);
	/* inet_pton took it: it fits (no printf on the path of every page). */
	n = strlen(v->host);
	if (n >= sizeof v->ip)
		n = sizeof v->ip - 1;
	memcpy(v->ip, v->host, n);
	v->ip[n] = '\0';
	v->have_addr = 1;
	return 0;
}

/* The URL being fetched, split: the page's own parts, or robots.txt's
 * (or a redirect of it) split into sp. NULL if it cannot be. */
static const struct url_parts *visit_fetch_parts(const struct visit *v, struct url_parts *sp)
{
	if (strcmp(v->fetch_url, v->c->uri) == 0)
		return &v->page;
	return url_split(v->fetch_url, sp) == 0 ? sp : NULL;
}

/* The response's Set-Cookie headers go into the crawl's jar, unless
 * cookies are off for the URI (fetch.cookies, src/crawl/cookies.h). */
static void visit_take_cookies(struct visit *v, struct fetch *f)
{
	struct url_parts sp;
	const struct url_parts *p;
	size_t kept = 0, refused = 0, evicted = 0;

	if (!cookies_on(v->pool->env.cookies, v->surt) || (p = visit_fetch_parts(v, &sp)) == NULL)
		return;
	cookies_receive(v->pool->env.cookies, v->fetch_url, p, f, &kept, &refused, &evicted);
	v->cookies_refused += (unsigned)refused;
	v->cookies_evicted += (unsigned)evicted;
	if (v->state == VISIT_FETCH)
		v->cookies_changed = (unsigned)kept;
}

/* Redirects in a row that may lead back to a URI already fetched. */
#define VISIT_COOKIE_RETURNS 3

/* A cookie wall: a redirect that set a cookie (a new one or a new value:
 * one resent as it was changes nothing) and leads back to the URI
 * that was redirected here, or to this URI itself, asks for it again now
 * that the cookie will be sent. Its target was fetched already, so the seen
 * set would drop it: it is scheduled again (it was in scope then). The
 * target must take cookies (fetch.cookies for its prefix). The
 * chain is bounded, VISIT_COOKIE_RETURNS redirects in a row at most: a
 * server that sets a new cookie at every turn ends there, and one that
 * ignores the cookie sends the crawl to its wall, already seen, once.
 * Not in a continuous crawl: the page waits for its revisit there (a second
 * entry in the schedule would visit it twice each time), and its next visit
 * carries the cookie. */
static void visit_cookie_return(struct visit *v, struct fetch *f, int status)
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
	if (run >= VISIT_COOKIE_RETURNS)
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

/* Recording the body (src/archive/capture.h); tern.log says why a spill
 * file could not be made. -1 with errno when the body cannot be kept. */
static int visit_record(struct visit *v, const char *p, size_t n)
{
	int rc = capture_append(v->body, p, n);

	if (rc == CAPTURE_ESPILL) {
		int saved = errno;
		visit_event(v->pool, "cannot create a spill file in %s: %s", v->pool->env.tmpdir,
		    strerror(saved));
		errno = saved;
	}
	return rc < 0 ? -1 : 0;
}

/* The head says which extractors, if any, the page's body goes through. */
static void visit_head_cb(void *arg, struct fetch *f)
{
	struct visit *v = arg;

	if (v->abandoned)
		return;
	visit_take_cookies(v, f);
	if (v->state != VISIT_FETCH)
		return;
	if (v->ol == NULL)
		v->ol = outlinks_new();
	else if (v->links_on)
		outlinks_end(v->ol);
	v->links_on = outlinks_begin(v->ol, v->pool->env.cfg, v->c, v->surt, fetch_status(f),
	    fetch_header(f, "Content-Type"), v->target.data, v->target.len);
}

static void visit_body_cb(
    void *arg, struct fetch *f, const char *raw, size_t rawlen, const char *dec, size_t declen)
{
	struct visit *v = arg;

	(void)f;
	if (v->abandoned)
		return;
	if (rawlen > 0) {
		digest_update(v->dg, raw, rawlen);
		/* The recorded body is the WARC's payload, and nothing else's:
		 * without WARC it is digested and parsed, never copied. */
		if (v->pool->env.warc != NULL && visit_record(v, raw, rawlen) < 0 && v->f != NULL) {
			v->record_errno = errno;
			visit_event(
			    v->pool, "recording %s failed: %s", v->fetch_url, strerror(errno));
			v->record_failed = 1;
			fetch_cancel(v->f);
		}
	}
	if (v->links_on)
		outlinks_feed(v->ol, dec, declen);
	/* robots.txt is parsed from the decoded body: servers gzip it too. */
	if (v->state == VISIT_ROBOTS && declen > 0 && v->robots.len < ROBOTS_MAX_BODY)
		buf_append(&v->robots, dec,
		    declen < ROBOTS_MAX_BODY - v->robots.len ? declen
							     : ROBOTS_MAX_BODY - v->robots.len);
}

/* Archives the exchange; fills digest and the dedup verdict (*revisit, with
 * the original in v->refers_uri and v->refers_date). not_modified: a 304 to
 * a conditional request, written as a server-not-modified revisit of the
 * capture already in v->refers_*, digest being that capture's. Returns -1
 * when the records could not be queued (a full disk holds the writer): the
 * URI must then not be marked done. */
static int visit_archive(struct visit *v, const char *digest, const char *truncated,
    int not_modified, int *revisit, struct buf *outlinks_text)
{
	struct visit_pool *pool = v->pool;
	struct warc_capture cap;
	struct buf *mem = capture_mem(v->body);
	char *err = NULL;
	size_t hlen = 0, qlen = 0;
	int rc = 0, dedup_new = 0;

	*revisit = 0;
	if (pool->env.warc == NULL)
		return 0;
	/* Before the dedup index records a capture that would not exist. */
	if (!warc_writable(pool->env.warc))
		return -1;
	memset(&cap, 0, sizeof cap);
	cap.uri = v->fetch_url;
	/* Through a proxy the address contacted was the proxy's, and the one
	 * the proxy reached is unknown: none is recorded (doc/warc.md). */
	cap.ip = fetch_proxy(v->f) == NULL ? v->ip : NULL;
	cap.date_us = fetch_timings(v->f)->start_wall_ms * 1000;
	cap.req = fetch_request_head(v->f, &qlen);
	cap.req_len = qlen;
	cap.resp_head = fetch_response_head(v->f, &hlen);
	cap.resp_head_len = hlen;
	if (capture_fd(v->body) >= 0) {
		cap.payload_fd = capture_fd(v->body);
		cap.payload_fd_len = capture_len(v->body);
	} else {
		cap.payload = mem->data ? mem->data : "";
		cap.payload_len = mem->len;
		cap.payload_fd = -1;
	}
	cap.payload_digest = digest;
	cap.truncated = truncated;
	if (not_modified) {
		cap.refers_to_uri = v->refers_uri.data;
		cap.refers_to_date = v->refers_date.data;
		cap.not_modified = 1;
	} else if (pool->env.dedup != NULL && truncated == NULL && capture_len(v->body) > 0) {
		/* A truncated capture is not the resource: it neither revisits
		 * nor is revisited. */
		char date[32];
		warc_date_format(pool->env.warc, cap.date_us, date);
		rc = dedup_check(
		    pool->env.dedup, digest, v->fetch_url, date, &v->refers_uri, &v->refers_date);
		if (rc == 1) {
			cap.refers_to_uri = v->refers_uri.data;
			cap.refers_to_date = v->refers_date.data;
			*revisit = 1;
		}
		dedup_new = rc == 0;
		rc = 0;
	}
	cap.via = v->c->via ? v->c->via : "";
	cap.hops = v->c->hops;
	cap.outlinks = outlinks_text->data;
	cap.outlinks_len = outlinks_text->len;
	/* The page's title, for the list of pages of `tern wacz`. */
	cap.title = v->links_on ? outlinks_title(v->ol) : NULL;
	cap.protocol = fetch_protocol(v->f);
	cap.tls_version = fetch_tls_version(v->f);
	cap.cipher = fetch_tls_cipher(v->f);
	/* The entry dedup_check made joins the index with the records. The
	 * body and the outlinks' text are taken, not copied. */
	if (warcpool_http(pool->env.warcpool, &cap, dedup_new ? digest : NULL, mem, outlinks_text,
		&err) < 0) {
		if (dedup_new)
			dedup_forget(pool->env.dedup, digest);
		visit_event(pool, "WARC: %s", err);
		free(err);
		rc = -1;
	}
	return rc;
}

/* A robots.txt that redirected to the robots.txt of another scheme or
 * port of its host (http to https) answered for that server too: its
 * verdict is kept under that server's key as well, so that the server's
 * own pages do not fetch it again within robots.validity-seconds. */
static void visit_robots_also(
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

static void visit_robots_done(struct visit *v, struct fetch *f)
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
	if (visit_local_failure(v, f)) {
		free(hops);
		return;
	}
	pool->env.stats->robots_fetches++;
	digest_final(v->dg, digest);
	v->dg_used = 0;
	if (status > 0 && visit_archive(v, digest, NULL, 0, &revisit, &none) < 0) {
		/* Not archived: robots.txt is asked again later. */
		uint64_t wait = visit_delay(v, fetch_duration_ms(f), fetch_raw_bytes(f));
		buf_free(&none);
		free(hops);
		fetch_release(v->f);
		v->f = NULL;
		visit_end(v, FRONTIER_DEFER, wait);
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
	visit_log(v, status, status > 0 ? (int64_t)fetch_raw_bytes(f) : -1, v->fetch_url, hops,
	    v->c->uri, fetch_header(f, "Content-Type"), status > 0 ? t->start_wall_ms : 0,
	    fetch_duration_ms(f), status > 0 ? digest : NULL, ann.data);
	buf_free(&ann);
	free(hops);

	/* Redirects on the same host are followed (RFC 9309 asks for five);
	 * a redirect elsewhere counts as "no robots.txt here" (allow), a
	 * departure documented in doc/crawl.md. */
	if (status >= 300 && status < 400 && loc != NULL &&
	    v->robots_redirects < VISIT_ROBOTS_REDIRECTS) {
		struct buf next = BUF_INIT;
		struct url_parts up;
		if (url_resolve(v->fetch_url, loc, strlen(loc), &next) == 0 &&
		    url_split(next.data, &up) == 0 && up.host_len == strlen(v->host) &&
		    strncasecmp(next.data + up.host_off, v->host, up.host_len) == 0) {
			v->robots_redirects++;
			fetch_release(v->f);
			v->f = NULL;
			visit_set_port(&v->addr, up.port);
			visit_fetch_robots(v, next.data);
			visit_set_port(&v->addr, v->port);
			buf_free(&next);
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
			fetch_release(v->f);
			v->f = NULL;
			visit_retry_or_fail(v, STATUS_ROBOTS_PREREQ, fetch_cause(f),
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
		fetch_release(v->f);
		v->f = NULL;
		if (status == STATUS_CONNECT_FAILED || status == STATUS_CONNECT_LOST)
			visit_connect_failed(v, STATUS_ROBOTS_PREREQ, cause);
		else
			visit_retry_or_fail(
			    v, STATUS_ROBOTS_PREREQ, cause, delay, "politeness.min-delay-ms");
		return;
	}
	{
		struct host *h = hosts_get(pool->env.hosts, v->server_key, 1);
		int on5xx_allow =
		    config_enum_for(pool->env.cfg, v->surt, CK_ROBOTS_ON_SERVER_ERROR) == 1;
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
			visit_robots_also(v, status, body, blen, on5xx_allow);
		if (config_bool_for(pool->env.cfg, v->surt, CK_CRAWL_SITEMAPS)) {
			char *phops = visit_prereq_hops(v);
			int ok = status >= 200 && status < 300;

			sitemaps_from_robots(pool->env.schedule, v->fetch_url, v->server_key, phops,
			    ok ? body : "", ok ? blen : 0, pool->env.continuous);
			free(phops);
		}
	}
	/* Only now, with the verdict in place: the Crawl-delay the file
	 * asks for governs the very next request on the queue. */
	delay = visit_delay(v, fetch_duration_ms(f), fetch_raw_bytes(f));
	fetch_release(v->f);
	v->f = NULL;
	visit_end(v, FRONTIER_DEFER, delay);
}

static void visit_page_done(struct visit *v, struct fetch *f)
{
	struct visit_pool *pool = v->pool;
	int status = fetch_status(f);
	unsigned fa = fetch_annotations(f);
	const struct fetch_timings *t = fetch_timings(f);
	char digest[DIGEST_STRLEN];
	/* Pool scratch: nothing here waits for another visit. */
	struct buf *ann = &pool->ann, *extra = &pool->extra, *outlinks = &pool->text;
	const char *truncated = NULL, *logged_digest = digest;
	int revisit = 0, not_modified = 0, attempts = v->c->attempts + 1;
	uint64_t bytes = fetch_raw_bytes(f), delay;
	enum status_cause cause;
	size_t dropped;

	assert(v->state == VISIT_FETCH && f == v->f);
	if (visit_local_failure(v, f))
		return;
	buf_reset_keep(ann, VISIT_KEEP_ROOM);
	buf_reset_keep(extra, VISIT_KEEP_ROOM);
	buf_reset_keep(outlinks, VISIT_KEEP_ROOM);
	if (v->links_on)
		outlinks_finish(v->ol);
	digest_final(v->dg, digest);
	v->dg_used = 0;
	cause = fetch_cause(f);
	if (status == STATUS_CONNECT_FAILED || status == STATUS_CONNECT_LOST) {
		fetch_release(v->f);
		v->f = NULL;
		visit_connect_failed(v, status, cause);
		return;
	}
	if (status == 401 && visit_login_retry(v, f, digest))
		return;
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
			visit_note_failure(v, status, CAUSE_HTTP_ERROR, 0,
			    wait > delay ? wait : delay, "the server's Retry-After");
			fetch_release(v->f);
			v->f = NULL;
			pool->env.stats->retries++;
			visit_end(v, FRONTIER_RETRY, wait > delay ? wait : delay);
			return;
		}
	}
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
		visit_cookie_return(v, f, status);
		if (v->links_on)
			outlinks_schedule(v->ol, &pool->links, &v->page, v->f, status,
			    v->have_addr &&
				addrguard_sockaddr((const struct sockaddr *)&v->addr) != NULL,
			    outlinks, extra);
		if (visit_archive(v, logged_digest, truncated, not_modified, &revisit, outlinks) <
		    0) {
			/* Not archived, so not done: back to its queue's head, to
			 * be fetched again once the writer works. */
			fetch_release(v->f);
			v->f = NULL;
			visit_end(v, FRONTIER_DEFER, delay);
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
	if (pool->env.continuous) {
		/* The history keeps what the next visit compares with; the
		 * strings are read here, before the fetch is released. */
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
	if (cause != CAUSE_NONE)
		visit_note_failure(v, status, cause, 1, 0, NULL);
	visit_annotations(v, attempts, cause, extra->data, ann);
	visit_log(v, status, status > 0 ? (int64_t)bytes : -1, v->c->uri, v->c->hops, v->c->via,
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
	fetch_release(v->f);
	v->f = NULL;
	visit_end(v, status > 0 ? FRONTIER_SUCCESS : FRONTIER_FAILED, delay);
}

static void visit_done_cb(void *arg, struct fetch *f)
{
	struct visit *v = arg;

	if (v->abandoned) {
		fetch_release(f);
		v->f = NULL;
		if (v->give_back)
			visit_end(v, FRONTIER_DEFER, 0);
		else
			visit_free(v);
		return;
	}
	if (v->state == VISIT_ROBOTS)
		visit_robots_done(v, f);
	else
		visit_page_done(v, f);
}

/* Cluster mode: a request is written only while its partition may be
 * fetched here. A visit admitted in time whose request is written later (a
 * connection, a robots.txt first, a process stopped) and finds the window
 * closed goes back to the frontier unsent, as when its partition is
 * suspended. */
static int visit_may_send(void *arg, struct fetch *f)
{
	struct visit *v = arg;

	(void)f;
	if (v->pool->env.may_send == NULL || v->c == NULL ||
	    v->pool->env.may_send(v->pool->env.ctx, v->c->uri))
		return 1;
	v->abandoned = 1;
	v->give_back = 1;
	return 0;
}

static const struct fetch_cbs visit_fetch_cbs = {
    visit_head_cb, visit_body_cb, visit_done_cb, visit_may_send};

/* The page's Authorization line: the answer to its 401, or Basic
 * credentials its server accepted for another URI (tern(1), LOGINS). */
static void visit_login_header(struct visit *v, struct buf *hdrs)
{
	const char *ahead;

	if (v->state != VISIT_FETCH)
		return;
	if (v->authorization == NULL &&
	    (ahead = login_ahead(v->pool->login, v->server_key, v->surt)) != NULL)
		v->authorization = xstrdup(ahead);
	if (v->authorization != NULL)
		buf_appendf(hdrs, "Authorization: %s\r\n", v->authorization);
}

/* A 401 with a challenge tern answers and a credential for the URI and
 * realm: the 401 is archived (as Heritrix does, without a crawl.log line
 * of its own) and the page asked again at once, once. 1 if so. */
static int visit_login_retry(struct visit *v, struct fetch *f, const char *digest)
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
	if (visit_archive(v, digest, NULL, 0, &revisit, &none) < 0) {
		buf_free(&none);
		free(answer);
		return 0;
	}
	buf_free(&none);
	free(v->authorization);
	v->authorization = answer;
	v->auth_retried = 1;
	fetch_release(v->f);
	v->f = NULL;
	visit_start_fetch(v, v->c->uri);
	return 1;
}

static void visit_start_fetch(struct visit *v, const char *url)
{
	struct fetch_req req;
	struct buf hdrs = BUF_INIT;

	free(v->fetch_url);
	v->fetch_url = xstrdup(url);
	if (v->body == NULL)
		v->body = capture_new(v->pool->env.tmpdir, VISIT_SPILL_BYTES);
	else
		capture_reset(v->body, 0);
	buf_reset(&v->robots);
	/* digest_final leaves the digest reset already. */
	if (v->dg == NULL)
		v->dg = digest_new();
	else if (v->dg_used)
		digest_reset(v->dg);
	v->dg_used = 1;
	memset(&req, 0, sizeof req);
	req.url = v->fetch_url;
	/* The page itself was split when its visit began; robots.txt is
	 * split by fetch_start. */
	req.parts = strcmp(url, v->c->uri) == 0 ? &v->page : NULL;
	req.addr = (const struct sockaddr *)&v->addr;
	req.max_length = config_int_for(v->pool->env.cfg, v->surt, CK_FETCH_MAX_LENGTH_BYTES);
	/* The operator's headers for this URI (fetch.extra-headers...). */
	reqheaders_build(config_str_for(v->pool->env.cfg, v->surt, CK_FETCH_ACCEPT_LANGUAGE),
	    config_str(v->pool->env.cfg, CK_FETCH_FROM),
	    config_str_for(v->pool->env.cfg, v->surt, CK_FETCH_EXTRA_HEADERS), &hdrs);
	visit_login_header(v, &hdrs);
	req.headers = hdrs.data;
	/* A revisit asks whether the page changed since its last capture. */
	if (v->pool->env.continuous && v->state == VISIT_FETCH)
		recrawl_validators(
		    v->pool->env.cfg, v->surt, v->c, &req.if_none_match, &req.if_modified_since);
	v->sent_validators = req.if_none_match != NULL || req.if_modified_since != NULL;
	if (cookies_on(v->pool->env.cookies, v->surt)) {
		struct url_parts sp;
		const struct url_parts *p = visit_fetch_parts(v, &sp);
		if (p != NULL)
			req.cookie = cookies_for(v->pool->env.cookies, v->fetch_url, p);
	}
	if (fetch_start(v->pool->env.fetcher, &req, &visit_fetch_cbs, v, &v->f) < 0) {
		/* fetch_start reports through on_done; a refusal to start at
		 * all is an unfetchable URI. */
		v->f = NULL;
		visit_fail(v, STATUS_UNFETCHABLE, CAUSE_BAD_URL, FRONTIER_FAILED, 0);
	}
	buf_free(&hdrs);
}

static void visit_fetch_robots(struct visit *v, const char *url)
{
	visit_set_state(v, VISIT_ROBOTS);
	visit_start_fetch(v, url);
}

static void visit_fetch_page(struct visit *v)
{
	struct visit_pool *pool = v->pool;

	if (pool->env.robots_policy != 1) {
		struct host *h = hosts_get(pool->env.hosts, v->server_key, 1);
		h->robots_unused = 0;
		if (h->robots != NULL &&
		    !robots_allowed(h->robots, v->target.data, v->target.len)) {
			if (pool->env.robots_policy == 0) {
				visit_fail(v, STATUS_ROBOTS_PRECLUDED,
				    robots_is_unavailable(h->robots) ? CAUSE_ROBOTS_UNAVAILABLE
								     : CAUSE_ROBOTS_DISALLOWED,
				    FRONTIER_DISREGARD, 0);
				return;
			}
			v->robot_excluded = 1;
		}
	}
	visit_set_state(v, VISIT_FETCH);
	visit_start_fetch(v, v->c->uri);
}

struct visit_pool *visit_pool_new(const struct visit_env *env)
{
	struct visit_pool *pool = xcalloc(1, sizeof *pool);

	pool->env = *env;
	pool->links.cfg = env->cfg;
	pool->links.frontier = env->frontier;
	pool->links.schedule = env->schedule;
	pool->links.stats = env->stats;
	pool->links.robots_policy = env->robots_policy;
	pool->links.continuous = env->continuous;
	pool->links.scope = env->scope;
	pool->links.new_seed = env->new_seed;
	pool->links.ctx = env->ctx;
	pool->slots = xcalloc((size_t)env->max_conns + 1, 1);
	pool->login = login_new(env->fetcher != NULL ? fetcher_credentials(env->fetcher) : NULL);
	return pool;
}

void visit_pool_free(struct visit_pool *pool)
{
	if (pool == NULL)
		return;
	while (pool->spare != NULL) {
		struct visit *v = pool->spare;

		VISIT_UNPOISON(v);
		pool->spare = v->next;
		visit_destroy(v);
	}
	buf_free(&pool->line);
	buf_free(&pool->ann);
	buf_free(&pool->extra);
	buf_free(&pool->text);
	free(pool->slots);
	login_free(pool->login);
	free(pool);
}

int visit_in_flight(const struct visit_pool *pool)
{
	return pool->in_flight;
}

void visit_start(struct visit_pool *pool, struct curi *c)
{
	struct visit *v = pool->spare;
	struct url_parts up;
	struct buf b = BUF_INIT;

	if (v != NULL) {
		VISIT_UNPOISON(v);
		pool->spare = v->next;
		pool->nspare--;
	} else {
		v = xcalloc(1, sizeof *v);
	}

	v->pool = pool;
	v->c = c;
	v->slot = visit_slot_take(pool);
	v->next = pool->visits;
	if (pool->visits)
		pool->visits->prev = v;
	pool->visits = v;
	pool->in_flight++;
	if (url_split(c->uri, &up) < 0) {
		visit_fail(v, STATUS_UNFETCHABLE, CAUSE_BAD_URL, FRONTIER_FAILED, 0);
		return;
	}
	v->page = up;
	if (up.host_ip == 6)
		v->host = xstrndup(c->uri + up.host_off + 1, up.host_len - 2);
	else
		v->host = xstrndup(c->uri + up.host_off, up.host_len);
	v->port = up.port;
	v->https = up.https;
	v->host_ip = up.host_ip;
	/* Without printf: this runs for every page. */
	visit_server_key(c->uri, &up, &b);
	v->server_key = buf_steal(&b);
	url_request_target(c->uri, &up, &v->target);
	if (surt_override_key_parts(c->uri, &up, &b) == 0)
		v->surt = buf_steal(&b);
	buf_free(&b);
	visit_set_state(v, VISIT_RESOLVE);
	if (v->host_ip) {
		if (visit_literal_addr(v) < 0) {
			visit_fail(v, STATUS_UNFETCHABLE, CAUSE_BAD_URL, FRONTIER_FAILED, 0);
			return;
		}
		if (visit_guard(v))
			return;
		visit_after_resolve(v);
		return;
	}
	if (dns_resolve(pool->env.dns, v->host, visit_dns_cb, v, &v->dq) < 0) {
		v->dq = NULL;
		visit_fail(v, STATUS_DNS_PREREQ, CAUSE_DNS_FAILED, FRONTIER_FAILED, 0);
	}
}

void visit_abandon_all(struct visit_pool *pool)
{
	struct visit *v, *next;

	for (v = pool->visits; v != NULL; v = next) {
		next = v->next;
		if (v->abandoned)
			continue;
		v->abandoned = 1;
		if (v->dq != NULL) {
			dns_cancel(v->dq);
			v->dq = NULL;
			visit_free(v);
		} else if (v->f != NULL) {
			/* on_done follows asynchronously and frees the visit. */
			fetch_cancel(v->f);
		}
	}
}

void visit_abandon_where(
    struct visit_pool *pool, int (*match)(void *ctx, const char *uri), void *ctx)
{
	struct visit *v;

	for (v = pool->visits; v != NULL; v = v->next) {
		if (v->abandoned || v->c == NULL || !match(ctx, v->c->uri))
			continue;
		v->abandoned = 1;
		v->give_back = 1;
		/* A lookup touches no server of the partition: it ends by
		 * itself, and the visit with it. */
		if (v->f != NULL)
			fetch_cancel(v->f);
	}
}

int visit_count_where(
    const struct visit_pool *pool, int (*match)(void *ctx, const char *uri), void *ctx)
{
	const struct visit *v;
	int n = 0;

	for (v = pool->visits; v != NULL; v = v->next)
		if (v->c != NULL && match(ctx, v->c->uri))
			n++;
	return n;
}
