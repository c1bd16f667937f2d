/* The frontier's LevelDB key and value encodings: pure functions, no I/O.
 * The layout is documented in doc/frontier.md. Every key starts with one
 * prefix byte naming its record kind, so that kinds are contiguous ranges and
 * other users of the same store (the WARC dedup index) can take other bytes.
 *
 *   'u' SEG32 QKEY 0x00 DIR PREC ORD64
 *                                  queued URI; value: keys_curi_encode. SEG
 *                                  is the time segment of ORD (keys_segment)
 *   'q' QKEY                       queue metadata; value: keys_qmeta_encode
 *   'a' QKEY                       queue is in the working set (recovery)
 *   'i' PREC SEQ64                 inactive FIFO for precedence PREC; value QKEY
 *   'r' SEQ64                      retired list; value QKEY
 *   's' CANON                      already-seen set; empty value
 *   'm' "counters"                 frontier counters; value: keys_counters_encode
 *   'm' NAME                       other records of the job (keys_meta_named):
 *                                  "layout" (this layout's number, KEYS_LAYOUT),
 *                                  "checkpoint" (the last checkpoint's name),
 *                                  "job" (the crawl's totals: keys_u64s_encode),
 *                                  "rules" (each [rules] rule's count: lines
 *                                  "NAME COUNT", crawl/drops.c)
 *   'p' CANON                      preloaded URI precedence; value: decimal text
 *   'v' DUE64 ORD64                a URI waiting for its revisit (continuous
 *                                  crawl), by due time (ms); value: keys_curi_encode
 *   'o' SERVER                     robots.txt verdict of "scheme://host:port";
 *                                  value: keys_robots_encode
 *   'c' DOMAIN 0x00 PATH 0x00 NAME  a cookie of the crawl's jar; value:
 *                                  cookie_encode (lib/cookie.h)
 *
 * Integers in keys are big-endian so that byte order is numeric order. */
#ifndef TERN_KEYS_H
#define TERN_KEYS_H
#include <stddef.h>
#include <stdint.h>
#include "lib/buf.h"
#include "lib/curi.h"

enum {
	KEYS_URI = 'u',
	KEYS_QUEUE = 'q',
	KEYS_ACTIVE = 'a',
	KEYS_INACTIVE = 'i',
	KEYS_RETIRED = 'r',
	KEYS_SEEN = 's',
	KEYS_META = 'm',
	KEYS_PRELOAD = 'p',
	KEYS_REVISIT = 'v',
	KEYS_ROBOTS = 'o',
	KEYS_COOKIE = 'c'
};

/* Largest URI precedence that sorts correctly inside a queue; larger values
 * are clipped (Heritrix clips at 127 for the same reason). */
#define KEYS_MAX_PRECEDENCE 255
/* Largest queue precedence (one byte in the inactive keys). */
#define KEYS_MAX_QPRECEDENCE 255
#define KEYS_HIST_MAX 16
/* The store layout this code reads and writes, recorded under 'm' "layout"
 * (keys_u64s_encode). A store without it has layout 1, where a queue's URI
 * keys were one range ('u' QKEY 0x00 DIR PREC ORD64). */
#define KEYS_LAYOUT 2
/* A URI key's time segment is its ordinal shifted right this much: the
 * segment advances every 2^KEYS_SEGMENT_SHIFT URIs scheduled, so that the
 * URI keys of the whole store are written in increasing order of segment
 * and LevelDB merges new keys only with those of the current segment
 * (doc/frontier.md, "Store layout"). */
#define KEYS_SEGMENT_SHIFT 20

/* The parts of a queue that outlive its time in memory. */
struct keys_qmeta {
	int state;	      /* enum wq_state */
	int precedence;	      /* current queue precedence */
	int filed_precedence; /* bucket of its inactive key, when inactive */
	uint64_t filed_seq;   /* sequence of its inactive or retired key */
	uint64_t count;	      /* URIs stored in the queue */
	uint64_t enqueues, successes, errors, cost_count;
	int64_t total_expenditure, expenditure_at_activation, last_cost;
	int active; /* session balance is live (Heritrix's active) */
	uint64_t wake_ms, last_dequeue_ms;
	unsigned failures; /* consecutive connection failures (back-off) */
	size_t nhist;	   /* URI precedences enqueued, for highest-uri */
	int hist_prec[KEYS_HIST_MAX];
	uint64_t hist_count[KEYS_HIST_MAX];
	char *surt; /* SURT of the last URI placed on it: its settings */
	char *last_peeked, *last_queued;
	/* A lower bound of the queue's URI keys (head_ord 0: none): the
	 * last head deleted, or a URI enqueued ahead of it (head_live). The
	 * head is found by seeking there instead of to the queue's first key,
	 * which would step over every deleted head LevelDB still keeps. */
	int head_dir, head_prec, head_live;
	uint64_t head_ord;
	/* The time segments that may hold URIs of the queue, increasing: one
	 * is added when a URI goes into it, and it leaves when a seek finds
	 * none of the queue's URIs left in it. */
	uint32_t *segs;
	size_t nsegs, segcap;
	/* URIs stored per scheduling directive (0 to 3; 4: any larger one).
	 * With the precedence histogram it tells when every URI of the queue
	 * has one directive and one precedence: the head is then the first
	 * URI of its lowest segment, with no seek in the others. */
	uint64_t dir_count[5];
};

struct keys_counters {
	uint64_t next_ordinal, next_seq;
	uint64_t queued, succeeded, failed, disregarded, discovered;
	uint64_t queues_total, retired, retired_uris;
	uint64_t inactive[KEYS_MAX_QPRECEDENCE + 1];	  /* queues per bucket */
	uint64_t inactive_uris[KEYS_MAX_QPRECEDENCE + 1]; /* their URIs */
	uint64_t revisits; /* URIs waiting for their revisit ('v' keys) */
};

/* The time segment of a URI of that ordinal (KEYS_SEGMENT_SHIFT); the last
 * one (UINT32_MAX) takes every ordinal past it, so keys stay in order. */
uint32_t keys_segment(uint64_t ordinal);
/* A URI's key, in the segment of its ordinal. */
void keys_uri(struct buf *b, const char *qkey, int directive, int precedence, uint64_t ordinal);
/* Where (directive, precedence, ordinal) sorts among the URIs of a queue in
 * segment seg: a place to seek to, not a key of a URI unless seg is the
 * ordinal's own. */
void keys_uri_at(
    struct buf *b, uint32_t seg, const char *qkey, int directive, int precedence, uint64_t ordinal);
/* The prefix every URI key of a queue in segment seg starts with. */
void keys_uri_prefix(struct buf *b, uint32_t seg, const char *qkey);
/* Splits a URI key; 0 or -1 if it is not one (its segment must be its
 * ordinal's). *qkey is not NUL-terminated. */
int keys_uri_parse(const char *k, size_t n, const char **qkey, size_t *qlen, int *directive,
    int *precedence, uint64_t *ordinal);
void keys_queue(struct buf *b, const char *qkey);
void keys_active(struct buf *b, const char *qkey);
void keys_inactive(struct buf *b, int precedence, uint64_t seq);
int keys_inactive_parse(const char *k, size_t n, int *precedence, uint64_t *seq);
void keys_retired(struct buf *b, uint64_t seq);
void keys_seen(struct buf *b, const char *canon);
void keys_meta(struct buf *b);
/* 'm' NAME: a record of the job kept next to the frontier's counters. */
void keys_meta_named(struct buf *b, const char *name);
void keys_preload(struct buf *b, const char *canon);
void keys_revisit(struct buf *b, uint64_t due_ms, uint64_t ordinal);
int keys_revisit_parse(const char *k, size_t n, uint64_t *due_ms, uint64_t *ordinal);
void keys_robots(struct buf *b, const char *server);
void keys_cookie(struct buf *b, const char *domain, const char *path, const char *name);

/* A queue key may not be empty, hold a NUL byte or exceed 1024 bytes. */
int keys_qkey_valid(const char *qkey);

/* A URI record; its fetch history (c->history), when it has one, follows
 * the fields every record has. */
void keys_curi_encode(struct buf *b, const struct curi *c);
/* 0 and a new *out, or -1 on a malformed value (never reads past n). */
int keys_curi_decode(const char *v, size_t n, struct curi **out);
void keys_qmeta_encode(struct buf *b, const struct keys_qmeta *m);
/* 0, or -1 on a malformed value; strings in *m are allocated. */
int keys_qmeta_decode(const char *v, size_t n, struct keys_qmeta *m);
void keys_qmeta_clear(struct keys_qmeta *m);
/* Records that the queue has a URI in segment seg (kept increasing). */
void keys_qmeta_seg_add(struct keys_qmeta *m, uint32_t seg);
/* Forgets the i-th segment of the queue's list. */
void keys_qmeta_seg_remove(struct keys_qmeta *m, size_t i);
void keys_counters_encode(struct buf *b, const struct keys_counters *c);
int keys_counters_decode(const char *v, size_t n, struct keys_counters *c);
/* A list of unsigned counters. A reader asking for max values gets zeros
 * for those an older, shorter record lacks and ignores those a newer one
 * adds, so that a record can grow without a new version. 0, or -1 on a
 * malformed value (out then all zeros). */
void keys_u64s_encode(struct buf *b, const uint64_t *v, size_t n);
int keys_u64s_decode(const char *v, size_t n, uint64_t *out, size_t max);
struct robots;
/* A server's robots verdict and when it was fetched (wall-clock ms), so
 * that a resumed or restored crawl reuses it until robots.validity-seconds
 * runs out. Decoding gives the verdict (robots_free it) or NULL when the
 * value is corrupt. */
void keys_robots_encode(struct buf *b, uint64_t fetched_ms, const struct robots *r);
struct robots *keys_robots_decode(const char *v, size_t n, uint64_t *fetched_ms);

/* Adds delta to the histogram count of precedence p; -1 if it is full. */
int keys_hist_add(struct keys_qmeta *m, int p, int64_t delta);
/* Lowest precedence with a non-zero count, or -1 if empty. */
int keys_hist_min(const struct keys_qmeta *m);
/* Adds delta to the count of URIs of that directive. */
void keys_dir_add(struct keys_qmeta *m, int directive, int64_t delta);
/* 1 if every URI stored in the queue has the same directive and the same
 * precedence (both counts account for all of them). */
int keys_qmeta_uniform(const struct keys_qmeta *m);

#endif
