/* Cluster partitions, pure: which of a crawl's fixed number of partitions a
 * URI belongs to. By default a URI goes to a partition by the registered
 * domain (the public suffix plus one label, libpsl) of its host, so every
 * queue a host can have under frontier.queue-assignment (its authority, its
 * host name, its registered domain, the sub-queues of parallel-queues) lives
 * in the partition of that domain, and the node owning the partition is the
 * only one that fetches from the host: one-in-flight per queue and
 * politeness need no coordination between nodes. By queue is finer: the
 * queue key the assignment gives (before parallel-queues splits it), so a
 * queue is never split either, but a site's hosts (or one host's ports) may
 * go to different nodes. The count is fixed for the life of a crawl
 * (changing it would move hosts between owners mid-crawl). */
#ifndef TERN_PARTITION_H
#define TERN_PARTITION_H
#include <stdint.h>
#include "lib/buf.h"

#define PARTITION_MAX 4096

enum partition_by { PARTITION_BY_DOMAIN, PARTITION_BY_QUEUE };

/* The partition (0 .. nparts-1) of href, or -1 for an href url_split
 * refuses. assign is the enum surt_assign of frontier.queue-assignment
 * (read by PARTITION_BY_QUEUE). scratch is reset and used for the key. */
int partition_of_url(
    const char *href, unsigned nparts, enum partition_by by, int assign, struct buf *scratch);
/* The partition of a key (a registered domain, an IP literal, a queue key). */
unsigned partition_of_key(const char *key, size_t len, unsigned nparts);

/* How many partitions each of live nodes aims to hold: the ceiling of
 * nparts / live, so that every partition can be held (0 live counts as 1). */
unsigned partition_target(unsigned nparts, unsigned live);

#endif
