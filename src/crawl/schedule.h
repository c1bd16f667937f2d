/* The way into the frontier for a discovered URI (a seed, an outlink, a
 * redirect target), as Heritrix's candidate chain: the fragment dropped,
 * the scope judged, the URI canonicalized for the already-seen filter, its
 * queue key chosen by frontier.queue-assignment and split by
 * frontier.parallel-queues, its scheduling directive set from its hops, and
 * then frontier_schedule. The crawl loop schedules seeds through it, visits
 * their outlinks; both own nothing of it but the handle. */
#ifndef TERN_SCHEDULE_H
#define TERN_SCHEDULE_H

#include <stdint.h>
#include "lib/buf.h"

struct config;
struct curi;
struct dns;
struct frontier;
struct scope;
struct schedule;
struct rules;
struct crawl_stats;

/* What a sitemap says of a URL it lists, for a URI scheduled new. */
struct schedule_hint {
	int64_t interval_s; /* its first revisit interval (continuous crawls); 0: none */
	int precedence;	    /* a preloaded URI precedence (CURI_HINTED); 0: none */
};

struct schedule_opts {
	const struct config *cfg;
	struct frontier *frontier;
	struct scope *scope;
	struct dns *dns; /* for ip assignment's cached answers; may be NULL */
	/* Reject and accept rules, decided before the scope; may be NULL.
	 * Their counts are kept in them. */
	struct rules *rules;
	/* stats->dropped counts what the rules and the scope refuse; may be
	 * NULL. */
	struct crawl_stats *stats;
	unsigned canon_flags; /* canon_flags(cfg) */
	int assign;	      /* enum surt_assign, frontier.queue-assignment */
	/* Cluster mode: a URI that passed the scope goes here instead of the
	 * frontier (to the stream, for whichever node owns its partition),
	 * with schedule_uri's force; answers as schedule_uri does. */
	int (*handoff)(void *ctx, const char *href, const char *via, const char *hops,
	    unsigned flags, int force, const struct schedule_hint *hint);
	void *handoff_ctx;
};

struct schedule *schedule_new(const struct schedule_opts *o);
void schedule_free(struct schedule *s);
/* The DNS cache, once the loop has one (ip assignment reads it). */
void schedule_set_dns(struct schedule *s, struct dns *dns);
/* Cluster mode: where URIs past the scope go (schedule_opts.handoff). */
void schedule_set_handoff(struct schedule *s,
    int (*handoff)(void *ctx, const char *href, const char *via, const char *hops, unsigned flags,
	int force, const struct schedule_hint *hint),
    void *ctx);

/* Schedules a discovered absolute URI: frontier_schedule's answer (1 new,
 * 0 seen or out of scope, FRONTIER_HELD_URI held for the next flush). force
 * skips the scope and the seen check (a seed of a new crawl). */
int schedule_uri(struct schedule *s, const char *href, const char *via, const char *hops,
    unsigned flags, int force);

/* schedule_uri (not forced) with a sitemap's hint (NULL: none). */
int schedule_uri_hinted(struct schedule *s, const char *href, const char *via, const char *hops,
    unsigned flags, const struct schedule_hint *hint);
/* A page's links, scheduled together: schedule_batch_add each one in
 * order (href: len bytes, copied; hop: its last hop), then
 * schedule_batch_run, which schedules them exactly as schedule_uri would
 * one by one, in the same order (via: the page; hops: the page's hops, each
 * link's hop appended). The already-seen lookups of the whole page are
 * started as links are added, so that their memory misses overlap instead
 * of coming one after another. */
void schedule_batch_add(struct schedule *s, const char *href, size_t len, char hop);
/* The same for a link whose rel is known: rel has RULES_NOFOLLOW
 * (lib/rules.h) for a rel=nofollow link, which a rule can test. */
void schedule_batch_add_rel(
    struct schedule *s, const char *href, size_t len, char hop, unsigned rel);
void schedule_batch_run(struct schedule *s, const char *via, const char *hops);
/* Cluster mode: a URI handed to a partition this node holds, from the
 * stream, with its sitemap's hint (NULL: none). Its discoverer judged the
 * scope; it goes to the frontier here (never handed off again). */
int schedule_received(struct schedule *s, const char *href, const char *via, const char *hops,
    unsigned flags, int force, const struct schedule_hint *hint);
/* Cluster mode, continuous crawls: c (frontier_revisit_decode), which
 * another owner of its partition visited, waits here for its revisit
 * under its canonical and queue keys. 1, or 0 when its URI cannot be
 * keyed or the store failed. */
int schedule_waiting(struct schedule *s, struct curi *c);
/* The queue key of href into out (replacing its contents), by
 * frontier.queue-assignment, split by frontier.parallel-queues (read for
 * surt). Under ip assignment, ip is the host's address, or NULL to key by the
 * DNS cache's answer when it has one and by the host name until then. */
int schedule_queue_key(
    struct schedule *s, const char *href, const char *surt, const char *ip, struct buf *out);
/* IP queue assignment: a URI queued under its host name before its address
 * was known moves to the address's queue (Heritrix's
 * IPQueueAssignmentPolicy ignores deferToPrevious, so its URIs relocate at
 * emit time). The copy keeps its hops, directive, cost and attempts. 1 if c
 * was scheduled again under ip's key (its visit ends as relocated), 0 to go
 * on with it where it is (other assignments, the same key, a store error). */
int schedule_relocate(struct schedule *s, const struct curi *c, const char *surt, const char *ip);

#endif
