/* The end of a cluster crawl (clusterend.h has the argument). */
#include "cluster/clusterend.h"

int clusterend_local_idle(const struct clusterend_local *l)
{
	return l->frontier_finished && l->in_flight == 0 && l->inbound == 0 && l->outbound == 0 &&
	    l->consumer_pending == 0 && l->leases_settled;
}

int clusterend_over(
    const struct clusterend_node *nodes, size_t n, const int *owner, unsigned parts, uint64_t *seq)
{
	size_t i;
	unsigned p;

	if (n == 0 || parts == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!nodes[i].idle || nodes[i].seq != nodes[0].seq)
			return 0;
	for (p = 0; p < parts; p++)
		if (owner[p] < 0 || (size_t)owner[p] >= n)
			return 0;
	*seq = nodes[0].seq;
	return 1;
}
