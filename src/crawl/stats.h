/* A crawl's counters: kept by the crawl loop, counted by its visits, saved
 * in checkpoints (crawl.json) and shown by the reports and /metrics.
 * Header-only: a plain struct that several files fill and read. */
#ifndef TERN_STATS_H
#define TERN_STATS_H
#include <stdint.h>

#include "crawl/scope.h"
#include "lib/status.h"

struct crawl_stats {
	uint64_t pages;	   /* final dispositions with an HTTP status */
	uint64_t bytes;	   /* raw entity bytes of those */
	uint64_t failures; /* final failures: negative statuses, 4xx and 5xx */
	uint64_t dns_lookups;
	uint64_t robots_fetches;
	uint64_t retries;
	uint64_t revisits;     /* captures written as identical-payload-digest revisits */
	uint64_t not_modified; /* 304s to conditional requests (server-not-modified revisits) */
	uint64_t links_scheduled;
	uint64_t status_class[6]; /* 1xx..5xx by index 1-5; 0 for negatives */
	/* Visits of this run whose address was private or loopback, and the
	 * others: whether the crawl is of the operator's own site. */
	uint64_t local_visits, remote_visits;
	/* Final failures (negative statuses, and 4xx/5xx as STATUS_GROUP_HTTP)
	 * by the group of their cause (lib/status.h): the summary's breakdown
	 * (crawl/failures.c). */
	uint64_t failures_by_cause[STATUS_GROUP_COUNT];
	/* Candidate URIs not scheduled, by why (crawl/scope.h): each time a
	 * link, redirect or sitemap entry not seen before is refused, so a
	 * link found on many pages counts on each. By rule: lib/rules.h. */
	uint64_t dropped[SCOPE_WHY_COUNT];
};

#endif
