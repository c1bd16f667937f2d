/* Politeness arithmetic, pure: the delay a queue waits after a fetch
 * (Heritrix's DispositionProcessor.politenessDelayFor), a per-host bandwidth
 * cap, the jittered wait before retrying a host that failed to connect,
 * and Retry-After. All times in milliseconds. */
#ifndef TERN_POLITENESS_H
#define TERN_POLITENESS_H
#include <stdint.h>

struct politeness_params {
	double delay_factor;	       /* politeness.delay-factor */
	int64_t min_delay_ms;	       /* politeness.min-delay-ms */
	int64_t max_delay_ms;	       /* politeness.max-delay-ms */
	int64_t respect_crawl_delay_s; /* politeness.respect-crawl-delay-up-to-seconds */
	int64_t max_kb_sec;	       /* politeness.max-per-host-bandwidth-kb-sec, 0 off */
};

/* Heritrix's defaults: 5.0 / 3000 / 30000 / 300 s / off. */
void politeness_defaults(struct politeness_params *p);

/* The delay after a fetch that took duration_ms (connect to last byte):
 * max(min, factor x duration) capped by max, then raised by the robots
 * Crawl-delay (crawl_delay_ms, negative if none) up to the respect limit;
 * a Crawl-delay may exceed max-delay-ms. fetched = 0 (nothing went to the
 * host: robots-precluded, out of scope) gives 0. */
uint64_t politeness_delay(
    const struct politeness_params *p, int fetched, uint64_t duration_ms, int64_t crawl_delay_ms);

/* Per-host bandwidth cap as a debit: each fetch of bytes pushes the host's
 * earliest next start (*next_emit_ms) by bytes / (1.024 x kb_sec) ms from
 * max(now, the previous value), and the returned wait is how long from now
 * until then. Unlike Heritrix, the current fetch is charged at once, so the
 * host's average over the crawl stays at or under the cap. 0 when off. */
uint64_t politeness_bandwidth(
    int64_t kb_sec, uint64_t *next_emit_ms, uint64_t now_ms, uint64_t bytes);

/* The wait before the next attempt after a connection failure of a host:
 * floor_ms (frontier.retry-delay-seconds, Heritrix's retryDelaySeconds, the
 * least wait between two attempts) lengthened by a jitter of up to a quarter
 * of it, scaled by rnd (any 32-bit random value), so that hosts that failed
 * together do not all come back at the same moment. Never under floor_ms. */
uint64_t politeness_backoff(uint64_t floor_ms, uint32_t rnd);

/* A Retry-After header value (delta-seconds, or an IMF-fixdate such as
 * "Sun, 06 Nov 1994 08:49:37 GMT") as a delay from now_unix_s, capped at
 * cap_ms; 0 and *out set, or -1 if the value is not understood. */
int politeness_retry_after(const char *value, int64_t now_unix_s, uint64_t cap_ms, uint64_t *out);

#endif
