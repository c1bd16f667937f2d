/* Cluster partitions: registered domain -> 64-bit hash -> partition. */
#include <stdlib.h>
#include <string.h>
#include "lib/hash.h"
#include "lib/partition.h"
#include "lib/surt.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

/* FNV-1a (lib/hash.h), then the first half of its fmix64 finalizer:
 * FNV-1a alone puts the last bytes of a key (a domain's suffix, shared by
 * most domains) into the low bits poorly, and the partition is taken from
 * those bits. Not the whole of hash_bytes: every node of a cluster, and a
 * checkpoint's frontier, must agree on a key's partition with the nodes and
 * the checkpoints of earlier versions, so these values never change. */
unsigned partition_of_key(const char *key, size_t len, unsigned nparts)
{
	uint64_t h = hash_fnv1a(key, len);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return nparts > 1 ? (unsigned)(h % nparts) : 0;
}

int partition_of_url(
    const char *href, unsigned nparts, enum partition_by by, int assign, struct buf *scratch)
{
	struct url_parts p;
	char *host;
	int rc;

	if (url_split(href, &p) < 0 || p.host_len == 0)
		return -1;
	if (by == PARTITION_BY_QUEUE) {
		/* surt_queue_key, without the parallel-queues suffix: the
		 * sub-queues of a host stay together. */
		if (surt_queue_key(href, (enum surt_assign)assign, scratch) < 0)
			return -1;
		return (int)partition_of_key(scratch->data, scratch->len, nparts);
	}
	host = xstrndup(href + p.host_off, p.host_len);
	rc = surt_registered_domain(host, scratch);
	free(host);
	if (rc < 0)
		return -1;
	return (int)partition_of_key(scratch->data, scratch->len, nparts);
}

unsigned partition_target(unsigned nparts, unsigned live)
{
	if (live == 0)
		live = 1;
	return (nparts + live - 1) / live;
}
