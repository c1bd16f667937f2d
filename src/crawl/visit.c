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
 * This file owns the pool of visits, a visit's start, the callbacks of its
 * lookup and fetches, its states and its end. What each step means is
 * decided in the rooms behind it (src/crawl/visitprivate.h lists them),
 * which return a struct visit_verdict that visit_go carries out: the only
 * place a visit goes on to a fetch or ends.
 *
 * A visit never frees itself inside a callback of the object that called it:
 * fetches are released with fetch_release (freed later by the engine), and
 * the visit itself is freed on the path that ends it, after it has let go of
 * every handle. */
#include <build-config.h>

#include "crawl/visit.h"
#include "archive/capture.h"
#include "archive/digest.h"
#include "archive/warcpool.h"
#include "crawl/login.h"
#include "crawl/recrawl.h"
#include "crawl/schedule.h"
#include "crawl/seedhosts.h"
#include "crawl/stats.h"
#include "crawl/visithttp.h"
#include "crawl/visitpage.h"
#include "crawl/visitprivate.h"
#include "crawl/visitrobots.h"
#include "crawl/visitsay.h"
#include "lib/history.h"
#include "lib/surt.h"
#include "net/addrguard.h"
#include "net/dns.h"
#include "net/fetch.h"
#include "net/fetcher.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Snoozes longer than this close the host's idle connections. */
#define VISIT_LONG_SNOOZE_MS 30000

/* Visits that ended are kept for the next ones, up to this many, with
 * their digest, their outlinks and the room of their buffers up to
 * VISIT_KEEP_ROOM each: a page's visit then allocates none of them. */
#define VISIT_SPARES 256

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

static const char *const visit_state_names[] = {"NEW", "RESOLVE", "ROBOTS", "FETCH", "DONE"};

static void visit_fetch_page(struct visit *v);
static void visit_start_fetch(struct visit *v, const char *url);
static void visit_fetch_robots(struct visit *v, const char *url);

/* The one place a visit's state changes. A visit resolves once it has a
 * host (a URI that cannot be split ends from NEW), fetches robots.txt
 * (again at each redirect of it) or the page, and ends once; DONE is left
 * only by recycling, which clears the visit to NEW. With TERN_TRACE_VISIT
 * set, every change is said on stderr, as TERN_TRACE_FETCH says a
 * fetch's (tern(1), ENVIRONMENT). */
static void visit_set_state(struct visit *v, enum visit_state to)
{
	static const unsigned char legal[] = {
	    [VISIT_NEW] = 1u << VISIT_RESOLVE | 1u << VISIT_DONE,
	    [VISIT_RESOLVE] = 1u << VISIT_ROBOTS | 1u << VISIT_FETCH | 1u << VISIT_DONE,
	    [VISIT_ROBOTS] = 1u << VISIT_ROBOTS | 1u << VISIT_DONE,
	    [VISIT_FETCH] = 1u << VISIT_DONE,
	    [VISIT_DONE] = 0,
	};

	if (!(legal[v->state] & (1u << to))) {
		fprintf(stderr, "visit: illegal state change %s -> %s\n",
		    visit_state_names[v->state], visit_state_names[to]);
		assert(!"illegal visit state change");
	}
	if (v->pool->trace)
		fprintf(stderr, "visit #%03d: %s -> %s %s\n", v->slot, visit_state_names[v->state],
		    visit_state_names[to], v->c != NULL ? v->c->uri : "");
	v->state = to;
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

	/* Held by visit_end, which no state but NEW and DONE reaches twice. */
	assert(v->state != VISIT_NEW && v->state != VISIT_DONE);
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

static void visit_set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
	else if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
}

/* Carries out what a room decided: a failure is settled first (said,
 * counted, retried or final: visitsay_settle), then the visit goes on to
 * its next fetch or ends. d's URL is freed. */
static void visit_go(struct visit *v, struct visit_verdict *d)
{
	visitsay_settle(v, d);
	switch (d->next) {
	case VISIT_GO_ON:
		break;
	case VISIT_GO_PAGE:
		visit_fetch_page(v);
		break;
	case VISIT_GO_ROBOTS:
		/* A redirect of robots.txt may name another port of the host. */
		visit_set_port(&v->addr, d->port);
		visit_fetch_robots(v, d->url.data);
		visit_set_port(&v->addr, v->port);
		break;
	case VISIT_GO_AGAIN:
		visit_start_fetch(v, v->c->uri);
		break;
	case VISIT_GO_END:
		visit_end(v, d->outcome, d->delay_ms);
		break;
	default:
		assert(!"a failure's verdict left unsettled");
		break;
	}
	buf_free(&d->url);
}

/* A final failure found by the visit itself: no fetch, no delay. */
static void visit_fail(struct visit *v, int status, enum status_cause cause)
{
	struct visit_verdict d = {0};

	visit_verdict_fail(&d, status, cause, FRONTIER_FAILED, 0);
	visit_go(v, &d);
}

/* A fetch that failed for want of something of ours (descriptors for a
 * socket or a spill file, kernel buffers, disk for the body) rather than
 * because of the server: nothing is logged against the URI, no attempt is
 * counted, the host is not blamed, and the URI goes back to its queue's head
 * for a short wait. Said in tern.log at the 1st, 10th, 100th... time. 1 if
 * so, with the end in d. */
static int visit_local_failure(struct visit *v, struct fetch *f, struct visit_verdict *d)
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
	visit_verdict_end(d, FRONTIER_DEFER, VISIT_LOCAL_RETRY_MS);
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
	visit_fail(v, STATUS_UNFETCHABLE, CAUSE_PRIVATE_ADDRESS);
	return 1;
}

/* The robots gate, once the address is known. */
static void visit_after_resolve(struct visit *v)
{
	struct visit_verdict d = {0};

	visitrobots_gate(v, &d);
	visit_go(v, &d);
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

	/* Only the lookup this visit started answers, never inside
	 * dns_resolve, and only while the visit waits for it. */
	assert(v->dq != NULL && v->state == VISIT_RESOLVE);
	v->dq = NULL;
	if (v->abandoned) {
		if (v->give_back)
			visit_end(v, FRONTIER_DEFER, 0);
		else
			visit_free(v);
		return;
	}
	if (!a->from_cache)
		visitsay_dns(v, a);
	if (a->status != STATUS_DNS_SUCCESS || a->naddrs < 1) {
		enum status_cause cause = a->cause != CAUSE_NONE ? a->cause : CAUSE_DNS_FAILED;
		struct visit_verdict d = {0};

		/* A name that does not exist, or has no address, is the DNS's
		 * answer, not a failure to get one: retrying it for hours
		 * (Heritrix does) would only make a mistyped seed look hung.
		 * Otherwise the DNS server is not the host: no politeness
		 * delay, only the retry delay the frontier applies to the URI. */
		if (cause == CAUSE_DNS_NXDOMAIN || cause == CAUSE_DNS_NO_ADDRESS)
			visit_verdict_fail(&d, STATUS_DNS_PREREQ, cause, FRONTIER_FAILED, 0);
		else
			visit_verdict_retry(&d, STATUS_DNS_PREREQ, cause, 0, NULL);
		visit_go(v, &d);
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

/* The fetch's callbacks come for the visit's own fetch, in the state that
 * started it (robots.txt's or the page's), until its on_done. */
#define VISIT_ASSERT_FETCHING(v, f) \
	assert((f) == (v)->f && ((v)->state == VISIT_ROBOTS || (v)->state == VISIT_FETCH))

static void visit_head_cb(void *arg, struct fetch *f)
{
	struct visit *v = arg;

	VISIT_ASSERT_FETCHING(v, f);
	if (v->abandoned)
		return;
	visithttp_head(v, f);
}

static void visit_body_cb(
    void *arg, struct fetch *f, const char *raw, size_t rawlen, const char *dec, size_t declen)
{
	struct visit *v = arg;

	VISIT_ASSERT_FETCHING(v, f);
	if (v->abandoned)
		return;
	visithttp_body(v, raw, rawlen, dec, declen);
}

static void visit_done_cb(void *arg, struct fetch *f)
{
	struct visit *v = arg;
	struct visit_verdict d = {0};

	VISIT_ASSERT_FETCHING(v, f);
	if (v->abandoned) {
		fetch_release(f);
		v->f = NULL;
		if (v->give_back)
			visit_end(v, FRONTIER_DEFER, 0);
		else
			visit_free(v);
		return;
	}
	if (!visit_local_failure(v, f, &d)) {
		if (v->state == VISIT_ROBOTS)
			visitrobots_done(v, f, &d);
		else
			visitpage_done(v, f, &d);
	}
	/* What the rooms read of the fetch they read before this. */
	fetch_release(v->f);
	v->f = NULL;
	visit_go(v, &d);
}

/* Cluster mode: a request is written only while its partition may be
 * fetched here. A visit admitted in time whose request is written later (a
 * connection, a robots.txt first, a process stopped) and finds the window
 * closed goes back to the frontier unsent, as when its partition is
 * suspended. */
static int visit_may_send(void *arg, struct fetch *f)
{
	struct visit *v = arg;

	/* Asked as the request is about to be written, which may be inside
	 * fetch_start (a kept-alive connection), before v->f is set. */
	(void)f;
	assert(v->state == VISIT_ROBOTS || v->state == VISIT_FETCH);
	if (v->pool->env.may_send == NULL || v->c == NULL ||
	    v->pool->env.may_send(v->pool->env.ctx, v->c->uri))
		return 1;
	v->abandoned = 1;
	v->give_back = 1;
	return 0;
}

static const struct fetch_cbs visit_fetch_cbs = {
    visit_head_cb, visit_body_cb, visit_done_cb, visit_may_send};

static void visit_start_fetch(struct visit *v, const char *url)
{
	struct fetch_req req;
	struct buf hdrs = BUF_INIT;

	visithttp_request(v, url, &req, &hdrs);
	if (fetch_start(v->pool->env.fetcher, &req, &visit_fetch_cbs, v, &v->f) < 0) {
		/* fetch_start reports through on_done; a refusal to start at
		 * all is an unfetchable URI. */
		v->f = NULL;
		visit_fail(v, STATUS_UNFETCHABLE, CAUSE_BAD_URL);
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
	struct visit_verdict d = {0};

	visitrobots_permit(v, &d);
	if (d.next != VISIT_GO_ON) {
		visit_go(v, &d);
		return;
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
	pool->trace = getenv("TERN_TRACE_VISIT") != NULL;
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
		visit_fail(v, STATUS_UNFETCHABLE, CAUSE_BAD_URL);
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
			visit_fail(v, STATUS_UNFETCHABLE, CAUSE_BAD_URL);
			return;
		}
		if (visit_guard(v))
			return;
		visit_after_resolve(v);
		return;
	}
	if (dns_resolve(pool->env.dns, v->host, visit_dns_cb, v, &v->dq) < 0) {
		v->dq = NULL;
		visit_fail(v, STATUS_DNS_PREREQ, CAUSE_DNS_FAILED);
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
