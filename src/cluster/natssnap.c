/* Views of the cluster, the NATS side (private.h): what the owners and
 * nodes buckets, the stream and (when asked) this node's consumers hold
 * now, read one key at a time, for the loop's views and for the offline
 * report (natsio_read). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/private.h"
#include "lib/xmalloc.h"

struct natssnap_ctx {
	struct natsio *n;
	struct natsio_snapshot *s;
};

static void natssnap_owner(void *ctx, kvEntry *e)
{
	struct natssnap_ctx *c = ctx;
	const char *key = kvEntry_Key(e), *v = kvEntry_ValueString(e);
	char *end;
	unsigned long p;
	size_t nl;

	if (key[0] != 'p')
		return;
	p = strtoul(key + 1, &end, 10);
	if (*end != '\0' || p >= c->n->o.partitions)
		return;
	c->s->owners[p].rev = kvEntry_Revision(e);
	free(c->s->owner_id[p]);
	c->s->owner_id[p] = NULL;
	free(c->s->owner_nonce[p]);
	c->s->owner_nonce[p] = NULL;
	if (v == NULL || *v == '\0') {
		c->s->owners[p].owner = LEASE_FREED;
		return;
	}
	/* "NODE-ID NONCE": ours if the node id is. */
	nl = strlen(c->n->o.node);
	c->s->owners[p].owner =
	    strncmp(v, c->n->o.node, nl) == 0 && v[nl] == ' ' ? LEASE_MINE : LEASE_OTHERS;
	end = strrchr(v, ' ');
	c->s->owner_id[p] = end != NULL ? xstrndup(v, (size_t)(end - v)) : xstrdup(v);
	c->s->owner_nonce[p] = end != NULL ? xstrdup(end + 1) : NULL;
}

static void natssnap_node(void *ctx, kvEntry *e)
{
	struct natssnap_ctx *c = ctx;
	const char *v = kvEntry_ValueString(e), *nl;
	struct natsio_node *nd;

	if (v == NULL || (nl = strchr(v, '\n')) == NULL)
		return;
	c->s->nodes = xrealloc(c->s->nodes, (c->s->nnodes + 1) * sizeof *c->s->nodes);
	nd = &c->s->nodes[c->s->nnodes++];
	/* "NODE-ID\nJSON" */
	nd->id = xstrndup(v, (size_t)(nl - v));
	nd->json = xstrdup(nl + 1);
}

/* The buckets are read one key at a time, never through a watcher: a
 * watcher is a consumer, and in a NATS cluster every consumer, even an
 * ephemeral one, is placed by the metadata leader (a replicated proposal),
 * so a watcher per bucket per view (every 150 ms to 2 s per node) kept the
 * leader busy and, once a server was lost, made every view wait for the
 * election of a new one. A get needs no consumer: a replica of the bucket
 * answers it (direct get) or its leader does. An entry the bucket's TTL
 * expired, or one deleted, is absent. */
static natsStatus natssnap_read_key(
    kvStore *kv, const char *key, void (*fn)(void *ctx, kvEntry *e), void *ctx)
{
	kvEntry *e = NULL;
	natsStatus s = kvStore_Get(&e, kv, key);

	if (s == NATS_NOT_FOUND)
		return NATS_OK;
	if (s == NATS_OK) {
		fn(ctx, e);
		kvEntry_Destroy(e);
	}
	return s;
}

/* The owners bucket: one key per partition, known. */
static natsStatus natssnap_read_owners(struct natsio *n, struct natssnap_ctx *c)
{
	char key[32];
	natsStatus s = NATS_OK;
	unsigned p;

	for (p = 0; s == NATS_OK && p < n->o.partitions; p++) {
		natscall_part_key(p, key, sizeof key);
		s = natssnap_read_key(n->owners, key, natssnap_owner, c);
	}
	return s;
}

/* The nodes bucket: its keys from its stream's subjects, then each. */
static natsStatus natssnap_read_nodes(struct natsio *n, struct natssnap_ctx *c)
{
	char stream[200], filter[200];
	jsStreamInfo *si = NULL;
	jsOptions jo;
	natsStatus s;
	size_t plen;
	int i;

	snprintf(stream, sizeof stream, "KV_tern-%s-nodes", n->o.crawl);
	snprintf(filter, sizeof filter, "$KV.tern-%s-nodes.>", n->o.crawl);
	plen = strlen(filter) - 1;
	jsOptions_Init(&jo);
	jo.Stream.Info.SubjectsFilter = filter;
	s = js_GetStreamInfo(&si, n->js, stream, &jo, NULL);
	if (s != NATS_OK)
		return s;
	for (i = 0; s == NATS_OK && si->State.Subjects != NULL && i < si->State.Subjects->Count;
	     i++) {
		const char *subj = si->State.Subjects->List[i].Subject;
		if (strlen(subj) > plen)
			s = natssnap_read_key(n->nodes, subj + plen, natssnap_node, c);
	}
	jsStreamInfo_Destroy(si);
	return s;
}

/* What the buckets and the stream hold now; with consumers, also what our
 * consumers have pending, unless the stream still ends at 1 + clear_seq. */
struct natsio_snapshot *natssnap_take(struct natsio *n, int consumers, uint64_t clear_seq)
{
	struct natsio_snapshot *s = xcalloc(1, sizeof *s);
	struct natssnap_ctx c = {n, s};
	jsStreamInfo *si = NULL;
	kvEntry *e = NULL;
	natsStatus st;
	unsigned p;
	/* What failed, for the loop's message. */
	char what[64] = "cluster state: owners";

	s->it.kind = NATSIO_EV_SNAPSHOT;
	s->partitions = n->o.partitions;
	s->owners = xcalloc(n->o.partitions, sizeof *s->owners);
	s->owner_id = xcalloc(n->o.partitions, sizeof *s->owner_id);
	s->owner_nonce = xcalloc(n->o.partitions, sizeof *s->owner_nonce);
	st = natssnap_read_owners(n, &c);
	if (st == NATS_OK) {
		snprintf(what, sizeof what, "cluster state: nodes");
		st = natssnap_read_nodes(n, &c);
	}
	if (st == NATS_OK) {
		natsStatus g;
		snprintf(what, sizeof what, "cluster state: end marker");
		g = kvStore_Get(&e, n->meta, "end");
		if (g == NATS_OK) {
			s->end_seq = strtoull(kvEntry_ValueString(e), NULL, 10);
			kvEntry_Destroy(e);
		} else if (g != NATS_NOT_FOUND) {
			st = g;
		}
	}
	if (st == NATS_OK) {
		snprintf(what, sizeof what, "cluster state: stream");
		st = js_GetStreamInfo(&si, n->js, n->stream, NULL, NULL);
	}
	if (st == NATS_OK) {
		s->last_seq = si->State.LastSeq;
		s->msgs = si->State.Msgs;
		s->bytes = si->State.Bytes;
		jsStreamInfo_Destroy(si);
	}
	/* Nothing new in the stream since our consumers were last clear: they
	 * still are (nothing can be delivered, or left unacknowledged). */
	if (st == NATS_OK && consumers && clear_seq == s->last_seq + 1)
		consumers = 0;
	for (p = 0; st == NATS_OK && consumers && n->sub != NULL && p < n->o.partitions; p++) {
		jsConsumerInfo *ci = NULL;
		if (n->sub[p] == NULL)
			continue;
		snprintf(what, sizeof what, "cluster state: consumer of partition %u", p);
		st = natsSubscription_GetConsumerInfo(&ci, n->sub[p], NULL, NULL);
		if (st == NATS_OK) {
			s->consumer_pending += ci->NumPending + (uint64_t)ci->NumAckPending;
			if (s->ack_pending == NULL) {
				s->ack_pending = xcalloc(n->o.partitions, sizeof *s->ack_pending);
				s->ack_floor = xcalloc(n->o.partitions, sizeof *s->ack_floor);
			}
			s->ack_pending[p] = (uint64_t)ci->NumAckPending;
			s->ack_floor[p] = ci->AckFloor.Stream;
			jsConsumerInfo_Destroy(ci);
		} else if (st == NATS_NOT_FOUND) {
			/* Not a failure of the view: the loop rebuilds the
			 * partition (retrying the view would find the same
			 * forever), and this node is not idle meanwhile. */
			if (s->gone == NULL)
				s->gone = xcalloc(n->o.partitions, 1);
			s->gone[p] = 1;
			s->consumer_pending++;
			st = NATS_OK;
		}
	}
	if (st == NATS_OK)
		s->ok = 1;
	else
		natscall_err(s->err, sizeof s->err, what, st);
	return s;
}

void natssnap_exec(struct natsio *n, struct natsio_snapreq *q)
{
	struct natsio_snapshot *s = natssnap_take(n, q->consumers, q->clear_seq);

	free(q);
	mailbox_to_loop(n->mb, &s->it);
}
