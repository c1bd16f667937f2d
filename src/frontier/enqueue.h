/* Scheduling (enqueue.c): discovered URIs through the seen check onto their
 * queues, held URIs and their sorted check, preloaded precedences, and the
 * queues' head bounds. */
#ifndef TERN_FRONTIER_ENQUEUE_H
#define TERN_FRONTIER_ENQUEUE_H
#include "frontier/private.h"

/* frontier_schedule and frontier_preload. */
int enqueue_schedule(struct frontier *f, const struct curi *c, const char *canon,
    const char *queue_key, const char *surt, int force);
int enqueue_preload(struct frontier *f, const char *canon, int precedence);
/* Puts c, a URI already seen (a revisit come due), back on its queue
 * c->queue_key with a new ordinal; surt gives the queue its settings. */
int enqueue_requeue(struct frontier *f, const struct curi *c, const char *surt);
/* Checks the held URIs in one sorted pass and enqueues the new ones. */
void enqueue_resolve_held(struct frontier *f);
/* The URI out (the queue's head when it was taken) is being deleted: the
 * head bound moves past it. */
void enqueue_head_deleted(struct wq *q);

#endif
