/* GET /report/queues on a live crawl (doc/formats.md, "Control socket"):
 * the queue records are walked CTLQUEUES_STEP at a time between loop
 * iterations, never all at once inside one, and the answer is sent when
 * the walk ends, so that a report of many queues never stalls the crawl. */
#ifndef TERN_OPS_CTLQUEUES_H
#define TERN_OPS_CTLQUEUES_H
#include <uv.h>

#include "net/ctlserver.h"

/* Queue records walked per loop iteration (all walks together). */
#define CTLQUEUES_STEP 1000

struct frontier;
struct ctlqueues;

struct ctlqueues *ctlqueues_new(uv_loop_t *loop, struct frontier *f);
/* Walks still under way are answered 503 (through the server's cancel when
 * it closes first); frees once its handle is closed. */
void ctlqueues_free(struct ctlqueues *q);
/* Starts the report for reply (the handler's): state filters by queue
 * state (NULL or "" for all). 0 with the answer deferred, or -1 and *err
 * for an unknown state (nothing deferred). */
int ctlqueues_start(struct ctlqueues *q, struct ctlserver_reply *reply, const char *state,
    int json, char **err);

#endif
