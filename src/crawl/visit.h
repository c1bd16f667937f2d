/* A URI's visit: DNS, robots.txt and the fetch, then its crawl.log line, its
 * WARC records and its outlinks (outlinks.h), and last the frontier told
 * (visit.c has the state machine). The crawl loop hands a pool of visits what they use
 * (struct visit_env: services it owns and hooks back into it) when it makes
 * the pool; a visit never calls the loop but through those hooks. */
#ifndef TERN_VISIT_H
#define TERN_VISIT_H
#include <stdint.h>
#include <stdio.h>

struct config;
struct cookies;
struct crawl_stats;
struct curi;
struct failures;
struct dedup;
struct dns;
struct fetcher;
struct frontier;
struct hosts;
struct schedule;
struct scope;
struct seedhosts;
struct warc_writer;
struct warcpool;

struct visit_env {
	const struct config *cfg;
	struct frontier *frontier;
	struct schedule *schedule; /* outlinks, and relocation under ip assignment */
	struct dns *dns;
	struct fetcher *fetcher;
	struct hosts *hosts;	     /* robots verdicts and bandwidth per server */
	struct warc_writer *warc;    /* NULL: WARC writing is off */
	struct warcpool *warcpool;   /* with warc: builds its records, orders
					 * crawl.log lines and visits' ends after them */
	struct dedup *dedup;	     /* NULL: no dedup index */
	struct seedhosts *seedhosts; /* hosts exempt from the address guard
					 * (NULL: none) */
	FILE *crawllog;		     /* lines are written, flushed by the loop */
	const char *tmpdir;	     /* spill files of large bodies */
	const char *agent;	     /* robots.txt product token */
	int robots_policy;	     /* 0 obey, 1 ignore, 2 calculate-only */
	int max_conns;		     /* crawl.log's #NNN slots */
	int continuous;		     /* crawl.mode = continuous: a URI that
					 * leaves its queue waits for its next
					 * visit (src/crawl/recrawl.c) */
	struct crawl_stats *stats;   /* counted as visits end */
	struct failures *failures;   /* NULL: failures are not said nor
					 * counted by cause */
	struct cookies *cookies;     /* the crawl's jar (NULL: none) */
	/* Hooks into the owner, each given ctx: a runtime event for
	 * logs/tern.log; a visit has ended (the frontier told, the visit freed
	 * and no longer counted in flight). */
	void *ctx;
	void (*event)(void *ctx, const char *msg);
	void (*ended)(void *ctx);
	/* Optional: a write failed for want of space (ENOSPC, EDQUOT; what
	 * names it). The owner pauses until there is room; the URI goes back
	 * to its queue with no attempt counted, so it is fetched after the
	 * pause, not again and again while the disk is full. */
	void (*disk_full)(void *ctx, const char *what);
	/* Optional (cluster mode): c reached its final disposition (success,
	 * final failure, disregard), called as the frontier is told; in a
	 * continuous crawl c holds its fetch history, due again at due_ms (0
	 * in a one-time crawl); delay_ms is the wait politeness asks before
	 * the host's next request (a robots.txt Crawl-delay included). */
	void (*disposed)(void *ctx, const struct curi *c, uint64_t due_ms, uint64_t delay_ms);
	/* Optional (cluster mode): may a request for uri's visit be written
	 * now? Asked right before each request leaves; 0 gives the URI back
	 * to the frontier (deferred), unsent and with no crawl.log line. */
	int (*may_send)(void *ctx, const char *uri);
	/* Optional: a seed's redirect target outside scope made a seed
	 * (crawl/outlinks.h, struct outlinks_env); NULL: none made. */
	const struct scope *scope;
	int (*new_seed)(
	    void *ctx, const char *href, const char *via, const char *hops, unsigned flags);
};

struct visit_pool;

/* env is copied; what it points to must outlive the pool. */
struct visit_pool *visit_pool_new(const struct visit_env *env);
/* Every visit must have ended (or been abandoned and freed). */
void visit_pool_free(struct visit_pool *p);
/* Visits in progress. */
int visit_in_flight(const struct visit_pool *p);
/* Takes c (owned from now on) through DNS, robots.txt and its fetch. It may
 * end at once (a bad URI, a cached refusal): ended is then called before
 * this returns, unless WARC records handed in earlier are still being
 * built (the end waits for them). */
void visit_start(struct visit_pool *p, struct curi *c);
/* Abandons every visit in progress: their URIs stay in the frontier's store
 * and are fetched again after a resume. */
void visit_abandon_all(struct visit_pool *p);
/* Cluster mode, a partition given up or suspended: every visit whose URI
 * match accepts stops (its fetch cancelled; a DNS lookup in progress is
 * let finish) and gives its URI back to the frontier as a deferral, with no
 * crawl.log line. Each ends later, through ended, never inside this call. */
void visit_abandon_where(struct visit_pool *p, int (*match)(void *ctx, const char *uri), void *ctx);
/* Visits in progress whose URI match accepts. */
int visit_count_where(
    const struct visit_pool *p, int (*match)(void *ctx, const char *uri), void *ctx);

#endif
