/* The frontier: every queued URI in LevelDB, each queue a contiguous key range
 * ordered by (directive, URI precedence, ordinal); queue states as Heritrix's
 * (in-process, ready, snoozed, inactive by precedence, retired, exhausted)
 * with only the working set in memory; snoozes on a timer wheel; session
 * budgets, total budgets, precedence and the precedence floor. Writes go into
 * one batch written by frontier_flush. Single-threaded; no libuv: the caller
 * passes the clock. Layout and behaviour: doc/frontier.md. */
#ifndef TERN_FRONTIER_H
#define TERN_FRONTIER_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lib/buf.h"
#include "lib/config.h"
#include "lib/curi.h"
#include "frontier/policy.h"

struct frontier;

/* Everything the frontier reads from the configuration, as plain values
 * (so that tests and the benchmark need no configuration file). */
struct frontier_options {
	struct policy_settings defaults; /* the overridable [frontier] keys */
	int hold_queues;		 /* frontier.hold-queues */
	int precedence_floor;		 /* frontier.precedence-floor */
	uint64_t snooze_deactivate_ms;	 /* frontier.snooze-deactivate-ms */
	size_t cache_mb;		 /* storage.cache-mb */
	size_t write_buffer_mb;		 /* storage.write-buffer-mb */
	size_t cold_queues;		 /* queues kept in memory outside the working set */
	size_t seen_memory;	  /* bytes: storage.seen-memory-mb, the seen set's memory set */
	unsigned seen_bloom_bits; /* storage.seen-bloom-bits */
	/* Ready queues in FIFO order (Heritrix) or best-first (iudex): by the
	 * best URI precedence enqueued, lowered by (URIs given out since the
	 * queue's activation) / host_depth_divisor, favouring breadth. */
	int best_first;
	double host_depth_divisor;
	/* Settings for a URI under [override] sections; NULL: defaults for all. */
	void (*settings_for)(void *ctx, const char *surt, struct policy_settings *out);
	void *settings_ctx;
};

void frontier_options_defaults(struct frontier_options *o);
/* Global values from cfg, and settings_for reading its [override] sections. */
void frontier_options_from_config(struct frontier_options *o, const struct config *cfg);

/* Opens (create=1: must not exist) or reopens the store in dir. Reopening
 * (crash recovery) puts URIs that were in flight back at their queues' heads:
 * a URI is only deleted from the store when finished. */
struct frontier *frontier_open(
    const char *dir, const struct config *cfg, int create, uint64_t now_ms, char **err);
struct frontier *frontier_open_opts(
    const char *dir, const struct frontier_options *o, int create, uint64_t now_ms, char **err);
/* Writes what is pending (best effort) and closes. */
void frontier_close(struct frontier *f);

/* Records a preloaded URI precedence (tern precedence-load) for canon, used
 * by the preloaded URI precedence policy when the URI is scheduled. */
int frontier_preload(struct frontier *f, const char *canon, int precedence);

/* A discovered URI: canon is its already-seen key, queue_key its class key,
 * surt its SURT (for [override] lookups; may be NULL). c->directive,
 * c->hops, c->via and c->flags are kept; c->cost, when >= 0, is kept instead
 * of the cost policy's; under the preloaded URI precedence policy a
 * c->precedence > 0 is the preloaded value, else the store's (one read).
 * Returns 1 if scheduled, 0 if already seen, FRONTIER_HELD_URI if only the
 * store can tell (the URI is held and checked with the others at the next
 * frontier_flush, in one sorted pass: seen.h), negative on a store error or
 * an invalid queue key. force=1 schedules even if seen (operator seeds,
 * prerequisites), reading the store at once when memory cannot tell. */
#define FRONTIER_HELD_URI 2
/* 1 if memory alone proves canon (len bytes) already seen, so scheduling
 * it would do nothing: callers skip the scope, keys and URI record of a
 * plain duplicate. 0 if memory cannot tell, or after a store error. */
int frontier_seen(struct frontier *f, const char *canon, size_t len);
/* For a batch of frontier_seen tests: the hash they use, the same test
 * with it, and two hints that start loading what the tests will read (the
 * index slot, then the string it points to), so that the batch's memory
 * misses overlap. */
uint64_t frontier_seen_hash(const char *canon, size_t len);
int frontier_seen_hashed(struct frontier *f, const char *canon, size_t len, uint64_t h);
void frontier_seen_prefetch(struct frontier *f, uint64_t h, int stage);
int frontier_schedule(struct frontier *f, const struct curi *c, const char *canon,
    const char *queue_key, const char *surt, int force);

/* The next URI to fetch at now_ms: 1 and *out (the caller's until
 * frontier_finish), or 0 with *wake_ms the earliest time something may become
 * ready (UINT64_MAX if nothing may). At most one URI per queue is out. */
int frontier_next(struct frontier *f, uint64_t now_ms, struct curi **out, uint64_t *wake_ms);

enum frontier_outcome {
	FRONTIER_SUCCESS, /* fetched (any HTTP status): success and budget; queue snoozes delay_ms */
	FRONTIER_FAILED,  /* final failure: cost + error penalty */
	FRONTIER_DISREGARD, /* dropped without fetching: no budget; delay_ms still applies (pass 0) */
	FRONTIER_RETRY,	    /* retryable failure: stays at the head, attempts+1, charged its
	                      * cost; the queue waits delay_ms (back-off, Retry-After), or
	                      * retry-delay-seconds when delay_ms is 0 */
	FRONTIER_DEFER,	    /* back to the queue head, attempts unchanged, no charge */
	FRONTIER_RELOCATED /* already scheduled again on another queue (IP queue
	                      * assignment): removed from this one, counted nowhere,
	                      * no charge; pass delay_ms 0 */
};
/* Takes c back (and frees it). */
void frontier_finish(struct frontier *f, struct curi *c, enum frontier_outcome o, uint64_t now_ms,
    uint64_t delay_ms);
/* The same in a continuous crawl: a URI that leaves its queue (success,
 * failure, disregard) waits in the store's revisit schedule, with its fetch
 * history (c->history), until due_ms, and then goes back onto its queue
 * like a newly scheduled URI (keeping hops, via, directive, cost and
 * precedence; a new ordinal). Retries and deferrals stay queued as with
 * frontier_finish. Nothing of a waiting URI is held in memory. */
void frontier_finish_revisit(struct frontier *f, struct curi *c, enum frontier_outcome o,
    uint64_t now_ms, uint64_t delay_ms, uint64_t due_ms);
/* The earliest due time of a waiting URI, UINT64_MAX if none waits. */
uint64_t frontier_next_due(const struct frontier *f);
/* How many waiting URIs are due before each of times[0..n) (ascending):
 * a walk of the schedule's keys up to the last time, for reports. */
void frontier_due_counts(struct frontier *f, const uint64_t *times, uint64_t *counts, size_t n);
/* Every URI in the store, queued (waiting 0) then waiting for its revisit
 * (waiting 1), with its fetch history, to cb: one pass over the store, for
 * the revisits report. */
void frontier_each_uri(
    struct frontier *f, void (*cb)(void *arg, const struct curi *c, int waiting), void *arg);
/* The same in pieces, for a live report: each step gives at most max more
 * URIs after the last one given (the store read as it is), *more 1 while
 * some remain; the walk also counts the waiting URIs due before each of
 * times (up to 3, ascending), read with frontier_uri_walk_counts
 * (cumulative, as frontier_due_counts gives them) once it is over. */
struct frontier_uri_walk;
struct frontier_uri_walk *frontier_uri_walk_new(const uint64_t *times, size_t n);
void frontier_uri_walk_free(struct frontier_uri_walk *w);
size_t frontier_uri_walk_step(struct frontier *f, struct frontier_uri_walk *w, size_t max,
    void (*cb)(void *arg, const struct curi *c, int waiting), void *arg, int *more);
void frontier_uri_walk_counts(const struct frontier_uri_walk *w, uint64_t *counts);
/* 1 if a retryable failure of c may be retried: attempts+1 < max-retries. */
int frontier_may_retry(struct frontier *f, const struct curi *c);
/* Records whether c's host failed to connect (failed=1) or answered (0)
 * and returns the queue's consecutive connection failures, so the crawl
 * loop can stop cycling the URIs of a host that keeps failing. Call before
 * frontier_finish. */
unsigned frontier_note_connect(struct frontier *f, const struct curi *c, int failed);

/* Checks the held URIs, then writes the pending batch (discovered URIs,
 * finished deletions, queue metadata, counters) in one LevelDB write. */
int frontier_flush(struct frontier *f, char **err);

/* Called before every write of the frontier's batch, wherever the write
 * comes from (the loop's flush, a report walking the store from a control
 * request, a queue head sought past URIs put since the last write): the
 * crawl flushes its WARC records and crawl.log lines there, so that no
 * write can mark a URI done before its records exist. A negative return
 * holds the batch back (nothing is written; the write fails with *err). */
typedef int frontier_prewrite_fn(void *arg, char **err);
void frontier_set_prewrite(struct frontier *f, frontier_prewrite_fn *fn, void *arg);

/* Another user of the store (the WARC dedup index) whose writes ride in
 * the frontier's, so that a flush makes one LevelDB write: batch returns
 * its leveldb_writebatch_t, or NULL when it holds nothing, and is appended
 * to the frontier's batch at each write, wherever the write comes from;
 * written says that the write succeeded (the companion clears its batch
 * then). */
struct frontier_companion {
	void *arg;
	void *(*batch)(void *arg);
	void (*written)(void *arg);
};
void frontier_set_companion(struct frontier *f, const struct frontier_companion *c);

struct frontier_counts {
	uint64_t queued, in_flight, queues_total, in_process, ready, snoozed, inactive, ineligible,
	    retired, exhausted, succeeded, failed, disregarded, discovered, retired_uris,
	    ineligible_uris;
	uint64_t revisits; /* URIs waiting for their revisit (continuous crawl) */
};
void frontier_counts(const struct frontier *f, struct frontier_counts *out);
/* URIs recorded as discovered so far (held ones count once judged new). */
uint64_t frontier_discovered(const struct frontier *f);
/* No eligible queue holds a URI, nothing is out and no URI is held
 * (doc/formats.md, "When a crawl ends"). */
int frontier_is_finished(const struct frontier *f);
/* Moves every retired queue back to inactive to be judged again (the
 * operator's reconsider-retired; also done on any settings change).
 * Returns the number moved, or negative on a store error. */
int frontier_reconsider_retired(struct frontier *f);
/* Settings changed (the crawl loop calls it after a mid-crawl change made
 * without a config, e.g. through settings_for): per-queue settings are
 * resolved again and retired queues re-judged, as in Heritrix. With a
 * config, frontier_next notices config_generation changes by itself. */
void frontier_settings_changed(struct frontier *f);
/* Heritrix's one-line status and the frontier summary. */
void frontier_report_summary(struct frontier *f, struct buf *out);
/* The same in pieces, for a live report: the summary's list of the longest
 * queues is the one part that walks every queue record. frontier_longest_step
 * offers at most max more queues (in key order, the store read as it is)
 * to lg, *more 1 while queues remain; then frontier_report_summary_longest
 * writes the summary with what lg found (and empties it). */
struct frontier_longest;
struct frontier_longest *frontier_longest_new(void);
void frontier_longest_free(struct frontier_longest *lg);
size_t frontier_longest_step(
    struct frontier *f, struct frontier_longest *lg, size_t max, int *more);
void frontier_report_summary_longest(
    struct frontier *f, struct frontier_longest *lg, struct buf *out);
/* The column header of the text queues report: Heritrix's fields, times
 * in UTC, the wake as the wait left (12s, 3m05s, 2h07m). */
#define FRONTIER_QUEUES_LEGEND                                    \
	"# state queue precedence size enqueues session-balance " \
	"last-cost(average) last-dequeue wake-in spend/budget errors last-peeked last-queued\n"
/* One line (or JSON object) per queue, doc/formats.md, "Reports". */
void frontier_report_queues(struct frontier *f, struct buf *out, int json);
/* The same, written to fp in 64 KiB pieces: the end-of-crawl report of
 * 100,000 queues never sits whole in memory. */
void frontier_report_queues_fp(struct frontier *f, FILE *fp, int json);
/* The same in pieces, for a report walked between loop iterations: the
 * lines of at most max queues whose keys sort after cursor ("" from the
 * first) appended to out, cursor set to the last one's key, *more 1 when
 * queues remain. The store is read as it is (as frontier_walk_queues
 * reads it); resident queues come from memory. Returns the queues given. */
size_t frontier_report_queues_step(
    struct frontier *f, struct buf *cursor, size_t max, int json, struct buf *out, int *more);
/* A queue as the queues report shows it (doc/formats.md, "Reports"; Heritrix's
 * fields). Its strings are the frontier's, valid during the callback. */
struct frontier_queue_info {
	const char *key;
	const char *state; /* IN-PROCESS, READY, SNOOZED, INACTIVE, INELIGIBLE,
					 * RETIRED, EXHAUSTED */
	int precedence;
	uint64_t size, enqueues, errors, last_dequeue_ms;
	int64_t session_balance, last_cost, wake_in_ms, spend, budget;
	double average_cost;
	const char *last_peeked, *last_queued; /* NULL when none */
};
/* Returns 1 to end the walk after this queue. */
typedef int frontier_queue_fn(void *arg, const struct frontier_queue_info *q);
/* A bounded piece of a walk over the queue records in key order (resident
 * queues from memory): fn for at most max queues whose keys sort after
 * `after` ("" from the first). *more is 1 when queues remain after the last
 * one given, whose key is where the next piece starts. The store is read as
 * it is, without writing the pending batch (a queue made in this loop
 * iteration shows from the next), so a piece never changes the order in
 * which the crawl's records reach the disk. Returns the queues given. */
size_t frontier_walk_queues(
    struct frontier *f, const char *after, size_t max, frontier_queue_fn *fn, void *arg, int *more);
/* The queue named key: 1 after fn, 0 if there is none. */
int frontier_queue_get(struct frontier *f, const char *key, frontier_queue_fn *fn, void *arg);
/* Its first n stored URIs in the order they are handed out (one handed out
 * and not yet finished first), each given to fn with the frontier's curi.
 * Returns how many, or -1 on a store error. */
typedef void frontier_uri_fn(void *arg, const struct curi *c);
int frontier_queue_head(
    struct frontier *f, const char *key, size_t n, frontier_uri_fn *fn, void *arg);

/* The leveldb_t*, for the WARC dedup index sharing the store (it must use
 * key prefixes other than those of src/frontier/keys.h). */
void *frontier_db(struct frontier *f);
/* Cluster mode (doc/cluster.md). A URI another node finished: its
 * canonical key recorded seen, nothing queued (0, or -1 on a store error).
 * And a partition given up or rebuilt: every queue whose URIs match
 * accepts (judged by the last URI placed on it: a queue's URIs share a
 * host) loses its queued URIs and becomes exhausted, and every URI waiting
 * for its revisit that match accepts leaves the schedule; nothing of them
 * may be in flight. Writes the pending batch before and after; the number
 * of URIs dropped, or -1 and *err. */
int frontier_mark_seen(struct frontier *f, const char *canon);
/* Cluster mode, at a node's start: every URI of the seen set forgotten (a
 * store left by a node killed may hold URIs seen whose records never reached
 * the stream, and their links, found again, must not be dropped); the
 * stream's replay marks again what is done. The number forgotten, or -1 and
 * *err. */
long frontier_forget_seen(struct frontier *f, char **err);
long frontier_drop_where(
    struct frontier *f, int (*match)(void *ctx, const char *uri), void *ctx, char **err);
/* Cluster mode, continuous crawls: a finished URI as the stream carries it
 * to the partition's next owner (doc/cluster.md): its URI record with its
 * fetch history (doc/frontier.md: version 2), without the queue key, which
 * each node works out. frontier_revisit_decode refuses anything else (a
 * record without a history included) and gives a new curi (0), or -1. */
void frontier_revisit_encode(const struct curi *c, struct buf *out);
int frontier_revisit_decode(const unsigned char *v, size_t n, struct curi **out);
/* Makes c (from frontier_revisit_decode, its canonical key canon, its
 * queue key queue_key) wait for its revisit here, due at its history's due
 * time (now when that is 0): its key marked seen and the URI put in the
 * revisit schedule under a new ordinal, in the pending batch. 0, or -1 on
 * a store error. */
int frontier_wait_revisit(
    struct frontier *f, struct curi *c, const char *canon, const char *queue_key);
/* The first store error met outside frontier_flush, or NULL. */
const char *frontier_error(const struct frontier *f);

/* The store key of the checkpoint marker: its value names the last
 * checkpoint taken (src/crawl/checkpoint.c freezes the store right after it). */
#define FRONTIER_CHECKPOINT_KEY "mcheckpoint"
/* Writes the pending batch, then FRONTIER_CHECKPOINT_KEY = name in a
 * synchronous write: the store's files on disk then hold every change up to
 * this call, in a process crash and a power loss alike. */
int frontier_checkpoint_mark(struct frontier *f, const char *name, char **err);
/* A record of the job kept in the store beside the frontier's counters
 * (key 'm' NAME, src/lib/keys.h): the crawl's totals, so that they move in
 * the same writes as the URIs they count. get appends the value to out: 1,
 * 0 when there is none, -1 on a store error (frontier_error). put adds it
 * to the pending batch, written by the next frontier_flush. */
int frontier_meta_get(struct frontier *f, const char *name, struct buf *out);
void frontier_meta_put(struct frontier *f, const char *name, const void *v, size_t n);
/* The store's directory, as given to frontier_open. */
const char *frontier_dir(const struct frontier *f);

#endif
