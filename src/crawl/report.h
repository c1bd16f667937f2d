/* Reports (doc/formats.md, "Reports"): the frontier summary with Heritrix's
 * one-line status, the per-queue lines, the hosts and the statistics, built
 * the same way live (the control socket) and offline (`tern report` on a job
 * whose crawl is not running, from its store and logs). */
#ifndef TERN_REPORT_H
#define TERN_REPORT_H

#include <stdint.h>
#include "lib/buf.h"

struct frontier;

/* The frontier summary; word is the one-line status's first word (RUN,
 * PAUSE, EMPTY, FINISH; HOLD offline). JSON: an object of counts. */
void report_frontier(struct frontier *f, const char *word, int json, struct buf *out);
/* The text summary (frontier_report_summary's) into out with the crawl's
 * state word (NULL: the frontier's own). */
void report_frontier_word(const struct buf *summary, const char *word, struct buf *out);
/* One line (or, with json, an array of objects) per queue; state, when not
 * NULL, keeps only queues in that state (a state word of doc/formats.md, "Reports",
 * any case). -1 and *err for an unknown state. */
int report_queues(struct frontier *f, const char *state, int json, struct buf *out, char **err);
/* The same in pieces (a live crawl walks its queues between loop
 * iterations, src/ops/ctlqueues.c): report_queues_want checks state and
 * sets what a kept line starts with ("" for all); each piece of queue
 * lines goes through report_queues_pick (n counts the lines kept), between
 * report_queues_begin and report_queues_end. */
int report_queues_want(const char *state, int json, struct buf *want, char **err);
void report_queues_begin(int json, struct buf *out);
void report_queues_pick(
    const struct buf *want, int json, const struct buf *lines, struct buf *out, size_t *n);
void report_queues_end(int json, struct buf *out);
/* The revisits report in pieces: the due times it counts before (now,
 * an hour, a day), each URI of a frontier_uri_walk to report_revisits_add
 * (arg: a revisitreport), then report_revisits_write with the walk's
 * counts. */
struct revisitreport;
struct curi;
void report_revisits_times(uint64_t now_ms, uint64_t times[3]);
void report_revisits_add(void *arg, const struct curi *c, int waiting);
void report_revisits_write(struct frontier *f, struct revisitreport *r, const uint64_t counts[3],
    uint64_t now_ms, int json, struct buf *out);
/* The revisits report of a continuous crawl (src/crawl/revisitreport.h):
 * one walk of the store's URI records. */
void report_revisits(struct frontier *f, uint64_t now_ms, int json, struct buf *out);
/* The hosts report from JOBDIR/logs/crawl.log (src/crawl/hostsreport.h); err may
 * be NULL. */
int report_hosts(const char *jobdir, int json, struct buf *out, char **err);
struct json_t;
/* The statistics (stats.json's object) as text, one "name: value" line a
 * figure, nested objects' names joined by dots (statuses.2xx: 120,
 * failures_by_cause.dns: 3), in the object's order. */
void report_stats_text(const struct json_t *stats, struct buf *out);
/* JOBDIR/reports/: frontier-summary.txt (word as in report_frontier),
 * queues.txt, hosts.txt and, unless stats is NULL, stats.json, each
 * written whole through a temporary name. */
void report_write_job(
    const char *jobdir, struct frontier *f, const char *word, struct json_t *stats);

#endif
