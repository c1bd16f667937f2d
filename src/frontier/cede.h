/* Cluster mode's uses of the frontier (doc/cluster.md): URIs another
 * node finished, marked seen without being queued (or, in a continuous
 * crawl, put in the revisit schedule with the history another node sent);
 * the queued and waiting URIs of a partition this node gives up (or takes
 * over and rebuilds), dropped with their queues' counts; and the whole seen
 * set, forgotten when a node starts on a store an earlier run left.
 * frontier.c's frontier_mark_seen, frontier_drop_where,
 * frontier_forget_seen and the revisit functions call in here. */
#ifndef TERN_CEDE_H
#define TERN_CEDE_H
#include "frontier/private.h"

int cede_mark_seen(struct frontier *f, const char *canon);
long cede_drop_where(
    struct frontier *f, int (*match)(void *ctx, const char *uri), void *ctx, char **err);
long cede_forget_seen(struct frontier *f, char **err);
void cede_revisit_encode(const struct curi *c, struct buf *out);
int cede_revisit_decode(const unsigned char *v, size_t n, struct curi **out);
int cede_wait_revisit(struct frontier *f, struct curi *c, const char *canon, const char *queue_key);

#endif
