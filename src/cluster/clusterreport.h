/* The cluster report (`tern report JOB cluster`, doc/cluster.md): what one
 * view of the buckets and the stream shows, every node (from its
 * heartbeat: state, partitions, pages, rate, queue counts, what keeps it
 * busy) and which node holds each partition, as a table or as JSON. */
#ifndef TERN_CLUSTERREPORT_H
#define TERN_CLUSTERREPORT_H
#include <jansson.h>
#include "cluster/natsio.h"
#include "lib/buf.h"

/* Appends the report to out. s: the view (NULL: nothing read yet); self:
 * this node's own figures, taken over (or NULL). */
void clusterreport_render(const struct natsio_snapshot *s, const char *crawl, const char *url,
    unsigned np, json_t *self, struct buf *out, int json);

#endif
