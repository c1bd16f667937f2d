/* The live reports that read something growing with the crawl (doc/formats.md,
 * "Control socket"): GET /report/queues and the text GET /report/frontier
 * (its longest queues) walk every queue record of the store, GET
 * /report/revisits every URI record, GET /report/hosts reads the whole
 * crawl.log. Each is done in
 * pieces between loop iterations, never at once inside one, and answered
 * when its walk ends, so that a report never stalls the crawl. */
#ifndef TERN_OPS_CTLWALK_H
#define TERN_OPS_CTLWALK_H
#include <stdint.h>
#include <uv.h>

#include "net/ctlserver.h"

/* Per loop iteration, all walks together: queue records, and bytes of
 * crawl.log. */
#define CTLWALK_STEP 1000
#define CTLWALK_LOG_STEP (256u << 10)

struct frontier;
struct ctlwalk;

/* jobdir: where logs/crawl.log is. */
struct ctlwalk *ctlwalk_new(uv_loop_t *loop, struct frontier *f, const char *jobdir);
/* Walks under way are answered 503 through the servers' cancel (the
 * servers are closed first); frees once its handle is closed. */
void ctlwalk_free(struct ctlwalk *w);
/* The queues report for reply (the handler's): state filters by queue
 * state (NULL or "" for all). 0 with the answer deferred, or -1 and *err
 * for an unknown state (nothing deferred). */
int ctlwalk_queues(
    struct ctlwalk *w, struct ctlserver_reply *reply, const char *state, int json, char **err);
/* The text frontier report (its longest queues walked in pieces), with the
 * crawl's state word as it is when asked: 0 deferred, -1 when closing. */
int ctlwalk_frontier(struct ctlwalk *w, struct ctlserver_reply *reply, const char *word);
/* The revisits report (a walk over every URI record): 0 deferred, -1 when
 * closing. */
int ctlwalk_revisits(struct ctlwalk *w, struct ctlserver_reply *reply, uint64_t now_ms, int json);
/* The hosts report (from crawl.log as it is now): 0 deferred, or -1 and
 * *err when crawl.log cannot be read. */
int ctlwalk_hosts(struct ctlwalk *w, struct ctlserver_reply *reply, int json, char **err);

#endif
