/* struct visit and struct visit_pool, shared by the files of a visit and by
 * nothing else: visit.c, the state machine (the pool, a visit's start, the
 * callbacks of its lookup and fetches, its states and its end), and the
 * rooms it calls, each of which calls only rooms below it in this list:
 *
 *   visitrobots.c  robots.txt: the gate after the lookup, the verdict from
 *                  its answer, the page's permission
 *   visitpage.c    the page's answer: its crawl.log line, records and
 *                  outcome; a 401 answered; a cookie wall's redirect
 *   visithttp.c    one exchange: its request (headers, login, validators,
 *                  cookies), what its answer's head and body feed (the
 *                  jar, the extractors, the digest, the recorded body),
 *                  and its WARC records
 *   visitsay.c     crawl.log lines and their annotations, a DNS lookup's
 *                  line and record, failures said and counted, and
 *                  whether a failed attempt is retried
 *
 * A room never starts a fetch nor ends a visit: it returns what it decided
 * in a struct visit_verdict, which visit.c carries out (visit_go), so that
 * no room calls back up into visit.c (tests/layers.sh). One struct for the
 * visit rather than one per room, as src/frontier/private.h says of the
 * frontier: the rooms are views of one visit. The helpers at the end are
 * inline so that every room may use them without calling a file above it. */
#ifndef TERN_CRAWL_VISITPRIVATE_H
#define TERN_CRAWL_VISITPRIVATE_H
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "crawl/outlinks.h"
#include "crawl/politeness.h"
#include "crawl/visit.h"
#include "frontier/frontier.h"
#include "frontier/hosts.h"
#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "lib/curi.h"
#include "lib/robots.h"
#include "lib/status.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

struct capture;
struct digest;
struct dns_query;
struct fetch;
struct login;

/* Buffers of a visit, and the pool's scratch, keep this much room from one
 * use to the next (buf_reset_keep). */
#define VISIT_KEEP_ROOM (16 * 1024)

/* The visit's states, changed only by visit_set_state (visit.c), which
 * holds the table of legal changes. NEW is a visit not started yet (a
 * spare is cleared to it). */
enum visit_state { VISIT_NEW, VISIT_RESOLVE, VISIT_ROBOTS, VISIT_FETCH, VISIT_DONE };

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
	int trace;		 /* TERN_TRACE_VISIT: state changes on stderr */
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

/* What a room decided, for visit_go (visit.c) to carry out. */
enum visit_next {
	VISIT_GO_ON,	  /* nothing decided: the visit goes on as it is */
	VISIT_GO_PAGE,	  /* fetch the page, if robots.txt permits */
	VISIT_GO_ROBOTS,  /* fetch robots.txt at url, its address at port */
	VISIT_GO_AGAIN,	  /* ask for the page again (a 401 answered) */
	VISIT_GO_CONNECT, /* a connection failure: the host backs off, then RETRY */
	VISIT_GO_RETRY,	  /* a failed attempt: retried while attempts remain, else FAIL */
	VISIT_GO_FAIL,	  /* a final failure: its crawl.log line, then END */
	VISIT_GO_END,	  /* the frontier told outcome, the queue waiting delay_ms */
};

struct visit_verdict {
	enum visit_next next;
	int status; /* CONNECT, RETRY, FAIL: the (negative) status */
	enum status_cause cause;
	enum frontier_outcome outcome; /* FAIL, END */
	uint64_t delay_ms;	       /* RETRY: 0 is the queue's retry-delay-seconds */
	const char *setting;	       /* RETRY: what set delay_ms */
	struct buf url;		       /* ROBOTS; freed by visit_go */
	int port;		       /* ROBOTS */
};

static inline void visit_verdict_end(
    struct visit_verdict *d, enum frontier_outcome o, uint64_t delay_ms)
{
	d->next = VISIT_GO_END;
	d->outcome = o;
	d->delay_ms = delay_ms;
}

static inline void visit_verdict_fail(struct visit_verdict *d, int status, enum status_cause cause,
    enum frontier_outcome o, uint64_t delay_ms)
{
	d->next = VISIT_GO_FAIL;
	d->status = status;
	d->cause = cause;
	d->outcome = o;
	d->delay_ms = delay_ms;
}

static inline void visit_verdict_retry(struct visit_verdict *d, int status, enum status_cause cause,
    uint64_t delay_ms, const char *setting)
{
	d->next = VISIT_GO_RETRY;
	d->status = status;
	d->cause = cause;
	d->delay_ms = delay_ms;
	d->setting = setting;
}

/* A runtime event for logs/tern.log, through the owner's hook. */
static inline void visit_event(struct visit_pool *pool, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void visit_event(struct visit_pool *pool, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	pool->env.event(pool->env.ctx, msg);
	free(msg);
}

/* Hop path of a prerequisite: the parent's, plus P. */
static inline char *visit_prereq_hops(const struct visit *v)
{
	return xasprintf("%sP", v->c->hops ? v->c->hops : "");
}

static inline int visit_max_retries(const struct visit *v)
{
	return (int)config_int_for(v->pool->env.cfg, v->surt, CK_FRONTIER_MAX_RETRIES);
}

/* The queue's snooze after a fetch that reached the host. */
static inline uint64_t visit_delay(struct visit *v, uint64_t duration_ms, uint64_t bytes)
{
	const struct config *cfg = v->pool->env.cfg;
	struct politeness_params p;
	struct host *h = hosts_get(v->pool->env.hosts, v->server_key, 1);
	int64_t crawl_delay = h->robots ? robots_crawl_delay_ms(h->robots) : -1;
	uint64_t d, bw;

	p.delay_factor = config_double_for(cfg, v->surt, CK_POLITENESS_DELAY_FACTOR);
	p.min_delay_ms = config_int_for(cfg, v->surt, CK_POLITENESS_MIN_DELAY_MS);
	p.max_delay_ms = config_int_for(cfg, v->surt, CK_POLITENESS_MAX_DELAY_MS);
	p.respect_crawl_delay_s =
	    config_int_for(cfg, v->surt, CK_POLITENESS_RESPECT_CRAWL_DELAY_UP_TO_SECONDS);
	p.max_kb_sec = config_int_for(cfg, v->surt, CK_POLITENESS_MAX_PER_HOST_BANDWIDTH_KB_SEC);
	d = politeness_delay(&p, 1, duration_ms, crawl_delay);
	bw = politeness_bandwidth(p.max_kb_sec, &h->bandwidth_next_ms, clock_wall_ms(), bytes);
	return bw > d ? bw : d;
}

/* The robots key of an href split into p, "scheme://host:port" with the
 * port always written (frontier/hosts.h), into out (appended to). */
static inline void visit_server_key(const char *href, const struct url_parts *p, struct buf *out)
{
	buf_appends(out, p->https ? "https://" : "http://");
	buf_append(out, href + p->host_off, p->host_len);
	buf_appendc(out, ':');
	buf_appendu(out, (uint64_t)p->port);
}

#endif
