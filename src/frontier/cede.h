/* Cluster mode's two uses of the frontier (doc/cluster.md): URIs another
 * node finished, marked seen without being queued; and the queued URIs of a
 * partition this node gives up (or takes over and rebuilds), dropped with
 * their queues' counts. frontier.c's frontier_mark_seen and
 * frontier_drop_where call in here. */
#ifndef TERN_CEDE_H
#define TERN_CEDE_H
#include "frontier/private.h"

int cede_mark_seen(struct frontier *f, const char *canon);
long cede_drop_where(struct frontier *f, int (*match)(void *ctx, const char *uri), void *ctx,
    char **err);

#endif
