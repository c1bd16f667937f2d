/* Cluster mode's uses of the frontier (doc/cluster.md): URIs another
 * node finished, marked seen without being queued; the queued URIs of a
 * partition this node gives up (or takes over and rebuilds), dropped with
 * their queues' counts; and the whole seen set, forgotten when a node starts
 * on a store an earlier run left. frontier.c's frontier_mark_seen,
 * frontier_drop_where and frontier_forget_seen call in here. */
#ifndef TERN_CEDE_H
#define TERN_CEDE_H
#include "frontier/private.h"

int cede_mark_seen(struct frontier *f, const char *canon);
long cede_drop_where(
    struct frontier *f, int (*match)(void *ctx, const char *uri), void *ctx, char **err);
long cede_forget_seen(struct frontier *f, char **err);

#endif
