/* Leases, the loop's side: carrying out the actions the lease table
 * (lease.c, pure) returns (claims, renewals and releases sent to the
 * client's thread, a replay started, fetches suspended or stopped), the
 * hold on a partition just claimed, and the end of a stop once the
 * partition's fetches are over. */
#include <stdlib.h>
#include <string.h>

#include "cluster/private.h"

/* How long a partition just claimed is not fetched from. A key with a
 * revision was written by a holder: one that gave the partition up a
 * moment ago may have fetched from its hosts just before, so the hold is
 * the delay politeness asks after a request as configured, or the longer
 * wait the partition's hosts asked of that node (a robots.txt
 * Crawl-delay, from its heartbeat). An expired or never written key had
 * nobody fetching for half a lease at least: only a wait longer than that
 * is left to hold. */
static uint64_t clusterlease_claim_hold(struct cluster *c, unsigned p, uint64_t rev)
{
	uint64_t hold = rev != 0 ? c->o.handover_ms : 0, peer = c->peer_delay_ms[p];

	if (rev == 0)
		peer = peer > c->o.lease_ms / 2 ? peer - c->o.lease_ms / 2 : 0;
	if (peer > hold)
		hold = peer;
	/* Passed on in this node's heartbeat too, should it leave before
	 * fetching there. */
	if (c->peer_delay_ms[p] > c->delay_ms[p])
		c->delay_ms[p] = c->peer_delay_ms[p];
	return hold;
}

static void clusterlease_send_kv(struct cluster *c, int op, unsigned p, uint64_t rev)
{
	struct natsio_kv *kv = xcalloc(1, sizeof *kv);

	kv->it.kind = op;
	kv->op = op;
	kv->partition = p;
	kv->rev = rev;
	kv->sent_ms = cluster_now();
	mailbox_to_thread_urgent(c->mb, &kv->it);
}

void clusterlease_do(struct cluster *c, const struct lease_action *a, size_t n)
{
	struct buf suspended = BUF_INIT, lost = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned p = a[i].partition;
		switch (a[i].kind) {
		case LEASE_DO_CLAIM:
			c->claims++;
			c->hold_until[p] = cluster_now() + clusterlease_claim_hold(c, p, a[i].rev);
			clusterlease_send_kv(c, NATSIO_CLAIM, p, a[i].rev);
			break;
		case LEASE_DO_RENEW:
			clusterlease_send_kv(c, NATSIO_RENEW, p, a[i].rev);
			break;
		case LEASE_DO_RELEASE:
			c->releases++;
			clusterlease_send_kv(c, NATSIO_RELEASE, p, a[i].rev);
			break;
		case LEASE_DO_START:
			/* Claimed while leaving (the claim was out): given up
			 * again at the next tick, never rebuilt. */
			if (!c->leaving)
				clusterreplay_start(c, p);
			break;
		case LEASE_DO_SUSPEND:
			buf_appendf(&suspended, "%s%u", suspended.len ? " " : "", p);
			c->h.suspend(c->h.ctx, p);
			break;
		case LEASE_DO_STOP:
			/* A lost partition's fetches in flight are abandoned:
			 * another node holds it. One given up is still held
			 * (and renewed) until its key is freed: its fetches
			 * in flight end as usual, and none starts. Abandoned,
			 * a request already written was sent again by the
			 * next owner (9 pages requested twice in a
			 * tests/cluster/cluster_basic.sh run with nodes started 1.5 s
			 * apart). */
			if (lease_state_of(c->lease, p) == LEASE_LOST) {
				c->losses++;
				buf_appendf(&lost, "%s%u", lost.len ? " " : "", p);
				c->h.suspend(c->h.ctx, p);
			}
			c->stopping[p] = 1;
			break;
		}
	}
	/* One line for what happened to many partitions at once. */
	if (suspended.len > 0)
		cluster_log(c,
		    "cluster: partitions %s: lease not renewed in time, their fetches stop",
		    suspended.data);
	if (lost.len > 0)
		cluster_log(c, "cluster: partitions %s: lost to another node", lost.data);
	buf_free(&suspended);
	buf_free(&lost);
}

/* A stopping partition whose fetches have ended: its consumer goes, its
 * queued URIs go (they are in the stream), and the lease is told. One
 * given up (not lost) waits, its key still held and renewed, until the
 * done records of its last pages are stored: freed earlier, the next
 * owner replayed a log without them and fetched those pages again (128
 * pages requested twice in a tests/cluster/cluster_basic.sh run whose first node
 * gave up ten partitions 50 ms after fetching from them). */
void clusterlease_finish_stops(struct cluster *c)
{
	struct lease_action *a = c->act;
	unsigned p;

	for (p = 0; p < c->np; p++) {
		if (!c->stopping[p] || c->h.in_flight(c->h.ctx, p) > 0)
			continue;
		if (lease_state_of(c->lease, p) == LEASE_RELEASING &&
		    !outbox_partition_settled(c->out, p))
			continue;
		c->stopping[p] = 0;
		if (c->subscribed[p] == 1) {
			cluster_send_part(c, NATSIO_UNSUBSCRIBE, p, 0);
			c->subscribed[p] = 2;
		}
		clusterreplay_reset(&c->rp[p]);
		clusterreplay_take_early(c, (int)p);
		/* Leaving keeps the store as it is (a resume drops and replays). */
		if (!c->leaving && c->h.drop(c->h.ctx, p) < 0)
			cluster_log(c, "cluster: partition %u: dropping its queues failed", p);
		clusterlease_do(c, a, lease_stopped(c->lease, p, a, c->nact));
	}
}
