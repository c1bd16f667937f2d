/* The end of a cluster crawl, pure: when every node may stop.
 *
 * Each node reports, with its heartbeat, whether it is idle and the
 * stream's last sequence number when it judged so. Idle means: its frontier
 * is finished (no eligible queue holds a URI), nothing is in flight, every
 * message it received is scheduled and acknowledged, every record it sent
 * is stored, its partitions' consumers have nothing pending, and none of its
 * partitions is being claimed, replayed or given up.
 *
 * The crawl is over when every partition is held by a node that reports
 * itself idle (in a heartbeat that lists the partition as held: the caller
 * checks) and all of them report the same sequence. Proof sketch: new
 * work only appears as a message in the stream (a link or a seed), and only
 * a node that is not idle publishes (links come from pages being fetched);
 * a node cannot leave idleness without a message newer than its sequence.
 * If all report idle at the same sequence L, then at each one's report time
 * the stream ended at L, every message up to L was consumed by its owner,
 * and nobody could publish a message past L: none ever will. */
#ifndef TERN_CLUSTEREND_H
#define TERN_CLUSTEREND_H
#include <stddef.h>
#include <stdint.h>

struct clusterend_local {
	int frontier_finished;
	unsigned in_flight;
	size_t inbound;		   /* received, not yet scheduled and acknowledged */
	size_t outbound;	   /* sent, not yet stored by the stream */
	uint64_t consumer_pending; /* undelivered plus unacknowledged, over its partitions */
	int leases_settled;
};

/* Is this node idle (the definition above)? */
int clusterend_local_idle(const struct clusterend_local *l);

struct clusterend_node {
	int idle;
	uint64_t seq; /* the stream's last sequence when it judged itself idle */
};

/* owner[p] is the index in nodes of the node holding partition p, or -1
 * (nobody holds it, or its holder sent no heartbeat). 1 and *seq when the
 * crawl is over, else 0. The caller also checks that the stream still ends
 * at *seq when it acts on the answer. */
int clusterend_over(
    const struct clusterend_node *nodes, size_t n, const int *owner, unsigned parts, uint64_t *seq);

#endif
