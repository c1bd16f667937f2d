/* A job's totals across its runs: the crawl's counters, the time it has
 * crawled and whether it has finished, kept in the frontier's store (the
 * record 'm' "job", src/lib/keys.h) and written in the same batches as the
 * URIs they count. A kill -9, a signal, a checkpoint and a resume therefore
 * all see counts that agree with the frontier's, and crawl.max-pages,
 * crawl.max-bytes and crawl.max-time-seconds are limits of the job, not of
 * one process (tern(1), RESUMING). */
#ifndef TERN_JOBTOTALS_H
#define TERN_JOBTOTALS_H
#include <stdint.h>

#include "crawl/stats.h"

struct frontier;

struct jobtotals {
	struct crawl_stats stats;
	uint64_t elapsed_ms;  /* time crawled, over every run */
	uint64_t finished_ms; /* wall-clock time it finished (no URI left), 0 if not */
};

/* 1 and *t from the store, 0 (and *t zero) when the store has no record
 * (a new job, or one written before the record existed), -1 and *err on a
 * store error or a corrupt record. */
int jobtotals_load(struct frontier *f, struct jobtotals *t, char **err);
/* Puts *t into the frontier's pending batch. */
void jobtotals_save(struct frontier *f, const struct jobtotals *t);
struct config;
/* The limit of the job that counts s and elapsed_ms have reached
 * ("max-pages reached", "max-bytes reached", "max-time-seconds reached"),
 * or NULL. Read from cfg each time: the operator may raise a limit. */
const char *jobtotals_limit(
    const struct config *cfg, const struct crawl_stats *s, uint64_t elapsed_ms);

#endif
