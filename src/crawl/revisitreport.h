/* The revisits report of a continuous crawl (`tern report JOBDIR
 * revisits`): when URIs are due, how often each host's pages change, and
 * what conditional requests and digests saved. Pure: URIs with their fetch
 * histories in, report out; the caller walks the store.
 *
 * Text: the totals, then one line per host, fastest changing first:
 *   host #uris #visits #changes changes/day #304 #unchanged mean-interval-s
 * where #visits counts visits that told changed or not, changes/day is Cho
 * and Garcia-Molina's estimate from them (lib/revisit.h) at the host's
 * mean interval, #304 the answers Not Modified and #unchanged the full
 * answers with the same payload digest (both written as revisit records).
 * JSON: one object with the totals and a "hosts" array. */
#ifndef TERN_REVISITREPORT_H
#define TERN_REVISITREPORT_H
#include <stdint.h>
#include "lib/buf.h"

struct curi;
struct revisitreport;

/* When URIs are due: queued now (due or new), and waiting URIs due by now,
 * within an hour and within a day (cumulative), and in all. */
struct revisitreport_due {
	uint64_t queued, now, hour, day, waiting;
	uint64_t next_due_ms; /* UINT64_MAX: none waits */
};

struct revisitreport *revisitreport_new(void);
void revisitreport_free(struct revisitreport *r);
/* One URI of the store (waiting: in the revisit schedule). */
void revisitreport_add(struct revisitreport *r, const struct curi *c, int waiting);
void revisitreport_write(const struct revisitreport *r, const struct revisitreport_due *due,
    uint64_t now_ms, int json, struct buf *out);

#endif
