/* The revisit schedule of a continuous crawl (due.c): URIs that were visited
 * wait in the store under 'v' keys ordered by due time, never in memory,
 * and go back onto their queues when they come due, to be judged there by
 * precedence, politeness, budgets and retirement like any queued URI. */
#ifndef TERN_FRONTIER_DUE_H
#define TERN_FRONTIER_DUE_H
#include "frontier/private.h"

/* URIs moved back to their queues per frontier_flush at most: a backlog
 * of due URIs costs a bounded amount of work and batch per loop wakeup. */
#define DUE_PER_FLUSH 1024

/* Puts c (finished, still holding its queue key and fetch history) in
 * the schedule at due_ms, in the pending batch. */
void due_park(struct frontier *f, const struct curi *c, uint64_t due_ms);
/* Moves URIs due at now back onto their queues, up to what is left of
 * DUE_PER_FLUSH since the last flush. */
void due_release(struct frontier *f, uint64_t now);
/* The earliest due time (UINT64_MAX: nothing waits), read from the store
 * at open; kept current by due_park and due_release. */
void due_load(struct frontier *f);
/* A new flush period: DUE_PER_FLUSH more may be released. */
void due_flushed(struct frontier *f);
/* Every URI record in the store, queued ('u') then waiting ('v'), to cb
 * with waiting set for the latter; the pending batch is written first. A
 * walk of the whole store, for reports. */
void due_walk(
    struct frontier *f, void (*cb)(void *arg, const struct curi *c, int waiting), void *arg);
/* due_walk in pieces (frontier_uri_walk_*), the store read as it is, with
 * due_count_before's counts (up to 3 times) made on the way. */
struct frontier_uri_walk *due_uri_walk_new(const uint64_t *times, size_t n);
void due_uri_walk_free(struct frontier_uri_walk *w);
size_t due_uri_walk_step(struct frontier *f, struct frontier_uri_walk *w, size_t max,
    void (*cb)(void *arg, const struct curi *c, int waiting), void *arg, int *more);
void due_uri_walk_counts(const struct frontier_uri_walk *w, uint64_t *counts);
/* URIs due before each of the given times (ascending), counted by a walk
 * of the schedule's keys that stops at the last time. */
void due_count_before(struct frontier *f, const uint64_t *times, uint64_t *counts, size_t n);

#endif
