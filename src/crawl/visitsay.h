/* What a visit says (src/crawl/visitprivate.h has the rooms of a visit):
 * its crawl.log lines and their annotations, a DNS lookup's line and
 * record, its failures said once and
 * counted by cause (crawl/failures.h), and the verdict on a failed attempt,
 * retried or final, which decides which of them is said. */
#ifndef TERN_CRAWL_VISITSAY_H
#define TERN_CRAWL_VISITSAY_H
#include <stdint.h>

#include "lib/status.h"

struct buf;
struct dns_answer;
struct visit;
struct visit_verdict;

/* The annotations column into out: Nt for several attempts, the cause of
 * a failure (err:WORD), then extra, then what the visit itself noted. */
void visitsay_annotations(const struct visit *v, int attempts, enum status_cause cause,
    const char *extra, struct buf *out);
/* One crawl.log line in the visit's slot, after the WARC records queued
 * before it (archive/warcpool.h). */
void visitsay_line(struct visit *v, int status, int64_t size, const char *uri, const char *hops,
    const char *via, const char *mime, uint64_t begin_ms, uint64_t duration_ms, const char *digest,
    const char *annotations);
/* A fresh lookup of the visit's host: its dns: crawl.log line and, when it
 * succeeded and WARCs are written, its record. */
void visitsay_dns(struct visit *v, const struct dns_answer *a);
/* Says a failed attempt of the visit's URI (the first of its kind for the
 * host, a seed's while nothing was fetched; failures.c decides). retry_ms
 * is the wait before the next attempt (0: the queue's retry-delay-seconds),
 * final that there is none. */
void visitsay_failure(struct visit *v, int status, enum status_cause cause, int final,
    uint64_t retry_ms, const char *retry_setting);
/* Settles a verdict on a failure: CONNECT becomes RETRY or FAIL, RETRY
 * becomes END (FRONTIER_RETRY, said as a retry) or FAIL, and FAIL writes
 * its crawl.log line, is counted and becomes END. Any other verdict is
 * left as it is. */
void visitsay_settle(struct visit *v, struct visit_verdict *d);

#endif
