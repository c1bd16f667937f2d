/* Views of the cluster (doc/cluster.md): this node's heartbeat, what it
 * reads of the others' (their hosts' waits, their idleness), the join
 * before the first claims, the end of the crawl (clusterend.h), and the
 * partitions a view shows to be rebuilt (consumers gone, messages stuck
 * unacknowledged). A view is asked for by the tick (cluster.c) and read
 * here; the claims it allows are carried out by clusterlease.c. */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/private.h"

/* A node's first claims wait until the number of live nodes has held this
 * long: nodes started together, on a loaded machine, write their first
 * heartbeats hundreds of milliseconds apart. */
#define CLUSTER_JOIN_MS 1000
/* How long idle views may show a consumer's messages unacknowledged at the
 * same floor before they are taken as lost (clusterview_rebuild_stuck). */
#define CLUSTER_STUCK_MS 1000

/* The heartbeat's "delays": [partition, ms] for each partition held here
 * whose hosts asked for a wait longer than the hand-over hold. */
static json_t *clusterview_delays_json(struct cluster *c)
{
	json_t *a = json_array();
	unsigned p;

	for (p = 0; p < c->np; p++)
		if (c->delay_ms[p] > 0 && lease_state_of(c->lease, p) == LEASE_HELD)
			json_array_append_new(
			    a, json_pack("[I, I]", (json_int_t)p, (json_int_t)c->delay_ms[p]));
	return a;
}

/* Reads the other nodes' "delays" from a view: the last one each
 * partition was given stays, so a node gone (its heartbeat expired)
 * still passes its hosts' waits on to whoever claims its partitions. */
static void clusterview_peer_delays(struct cluster *c, const struct natsio_snapshot *s)
{
	size_t i, k;

	for (i = 0; i < s->nnodes; i++) {
		json_t *j, *d;
		if (strcmp(s->nodes[i].id, c->o.node) == 0 ||
		    strstr(s->nodes[i].json, "\"delays\":[[") == NULL)
			continue;
		if ((j = json_loads(s->nodes[i].json, 0, NULL)) == NULL)
			continue;
		d = json_object_get(j, "delays");
		for (k = 0; k < json_array_size(d); k++) {
			json_int_t p = json_integer_value(json_array_get(json_array_get(d, k), 0));
			json_int_t ms = json_integer_value(json_array_get(json_array_get(d, k), 1));
			if (p >= 0 && (uint64_t)p < c->np && ms > 0)
				c->peer_delay_ms[p] = (uint64_t)ms;
		}
		json_decref(j);
	}
}

/* Heartbeats, the view, the end. */

unsigned clusterview_held_list(struct cluster *c, json_t *arr)
{
	unsigned p, n = 0;

	for (p = 0; p < c->np; p++) {
		if (lease_state_of(c->lease, p) == LEASE_HELD) {
			if (arr != NULL)
				json_array_append_new(arr, json_integer(p));
			n++;
		}
	}
	return n;
}

static int clusterview_replaying(const struct cluster *c)
{
	unsigned p;

	for (p = 0; p < c->np; p++)
		if (c->rp[p].active || c->stopping[p])
			return 1;
	return c->cp.active;
}

void clusterview_local_idle(struct cluster *c, const struct cluster_local *l,
    uint64_t consumer_pending, int consumers_read, struct clusterend_local *out)
{
	size_t outbound = outbox_waiting(c->out);

	memset(out, 0, sizeof *out);
	out->frontier_finished = l->frontier_finished;
	out->in_flight = l->in_flight;
	out->inbound = c->in_count + c->nacks;
	out->outbound = outbound;
	out->consumer_pending = consumers_read ? consumer_pending : 1;
	out->leases_settled = lease_settled(c->lease) && !clusterview_replaying(c);
}

void clusterview_heartbeat(struct cluster *c, const struct cluster_local *l)
{
	json_t *o = json_object(), *held = json_array();
	char host[256] = "";
	struct natsio_text *t;
	char *js;
	size_t nl = strlen(c->o.node), jl;

	gethostname(host, sizeof host - 1);
	clusterview_held_list(c, held);
	json_object_set_new(o, "node", json_string(c->o.node));
	json_object_set_new(o, "host", json_string(host));
	json_object_set_new(o, "jobdir", json_string(c->o.jobdir));
	json_object_set_new(o, "pid", json_integer((json_int_t)getpid()));
	/* The lease values' second word: which process of this node id. */
	json_object_set_new(o, "nonce", json_string(strrchr(c->lease_value, ' ') + 1));
	json_object_set_new(o, "state", json_string(l->state != NULL ? l->state : "?"));
	json_object_set_new(o, "idle", json_boolean(c->my_idle));
	/* What keeps it busy, for the operator (and the end's tests). */
	json_object_set_new(o, "busy",
	    json_pack("{s:b, s:i, s:I, s:I, s:I, s:b}", "frontier_finished",
		c->last_local.frontier_finished, "in_flight", (int)c->last_local.in_flight,
		"inbound", (json_int_t)c->last_local.inbound, "outbound",
		(json_int_t)c->last_local.outbound, "consumer_pending",
		(json_int_t)c->last_local.consumer_pending, "leases_settled",
		c->last_local.leases_settled));
	json_object_set_new(o, "seq", json_integer((json_int_t)c->my_seq));
	json_object_set_new(o, "partitions", held);
	json_object_set_new(o, "delays", clusterview_delays_json(c));
	json_object_set_new(o, "pages", json_integer((json_int_t)l->pages));
	json_object_set_new(o, "bytes", json_integer((json_int_t)l->bytes));
	json_object_set_new(o, "failures", json_integer((json_int_t)l->failures));
	json_object_set_new(o, "pages_per_s", json_real(l->pages_per_s));
	json_object_set_new(o, "queued", json_integer((json_int_t)l->queued));
	json_object_set_new(o, "in_flight", json_integer((json_int_t)l->in_flight));
	outbox_stats(c->out, o);
	json_object_set_new(o, "records_received", json_integer((json_int_t)c->records_in));
	json_object_set_new(o, "replays", json_integer((json_int_t)c->replays));
	js = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	jl = strlen(js);
	t = xmalloc(sizeof *t + nl + 1 + jl + 1);
	t->it.kind = NATSIO_HEARTBEAT;
	memcpy(t->data, c->o.node, nl);
	t->data[nl] = '\n';
	memcpy(t->data + nl + 1, js, jl + 1);
	t->len = nl + 1 + jl;
	free(js);
	mailbox_to_thread(c->mb, &t->it);
}

static void clusterview_free_nonces(char **nonce, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(nonce[i]);
	free(nonce);
}

static void clusterview_check_end(struct cluster *c, struct natsio_snapshot *s)
{
	struct clusterend_node *nodes;
	char **nonce;
	unsigned char *holds;
	int *owner, self = -1;
	size_t i, n = s->nnodes + 1;
	uint64_t seq = 0;
	unsigned p;

	if (c->finished || c->leaving || !c->my_idle)
		return;
	/* Someone already found the end, and nothing was published since. */
	if (s->end_seq != 0 && s->end_seq == s->last_seq) {
		c->finished = 1;
		cluster_log(c, "cluster: the crawl is over (ended at stream sequence %" PRIu64 ")",
		    s->end_seq);
		c->h.finished(c->h.ctx);
		return;
	}
	nodes = xcalloc(n, sizeof *nodes);
	owner = xcalloc(c->np, sizeof *owner);
	nonce = xcalloc(n, sizeof *nonce);
	/* Which partitions each node's heartbeat says it held (replayed). */
	holds = xcalloc(n * c->np, 1);
	for (i = 0; i < s->nnodes; i++) {
		json_t *j = json_loads(s->nodes[i].json, 0, NULL);
		if (strcmp(s->nodes[i].id, c->o.node) == 0) {
			self = (int)i;
			nodes[i].idle = c->my_idle;
			nodes[i].seq = c->my_seq;
			nonce[i] = xstrdup(strrchr(c->lease_value, ' ') + 1);
			for (p = 0; p < c->np; p++)
				holds[i * c->np + p] = lease_state_of(c->lease, p) == LEASE_HELD;
		} else if (j != NULL) {
			const char *nv = json_string_value(json_object_get(j, "nonce"));
			json_t *held = json_object_get(j, "partitions"), *v;
			size_t k;
			nodes[i].idle = json_is_true(json_object_get(j, "idle"));
			nodes[i].seq = (uint64_t)json_integer_value(json_object_get(j, "seq"));
			nonce[i] = nv != NULL ? xstrdup(nv) : NULL;
			json_array_foreach(held, k, v)
			{
				json_int_t hp = json_integer_value(v);
				if (hp >= 0 && (uint64_t)hp < c->np)
					holds[i * c->np + (size_t)hp] = 1;
			}
		}
		json_decref(j);
	}
	/* A key is held by a live node only if its process wrote it: a node
	 * restarted under the same id (a resume after kill -9) has not yet
	 * claimed back the keys its earlier run left, whose work is its own
	 * no more, and its idleness says nothing of them. And only if that
	 * node's heartbeat lists the partition as held: a heartbeat written
	 * before its claims (idle, holding nothing) says nothing of the
	 * partitions it claimed since, which a view of the keys shows at once
	 * (seen: a node joining just then took the crawl for over before the
	 * first page). */
	for (p = 0; self >= 0 && p < c->np; p++) {
		owner[p] = -1;
		for (i = 0; s->owner_id[p] != NULL && i < s->nnodes; i++)
			if (strcmp(s->owner_id[p], s->nodes[i].id) == 0 && nonce[i] != NULL &&
			    s->owner_nonce[p] != NULL && strcmp(s->owner_nonce[p], nonce[i]) == 0 &&
			    holds[i * c->np + p])
				owner[p] = (int)i;
	}
	free(holds);
	if (self < 0) {
		/* Our heartbeat is not in this view yet. */
		clusterview_free_nonces(nonce, n);
		free(nodes);
		free(owner);
		return;
	}
	if (clusterend_over(nodes, s->nnodes, owner, c->np, &seq) && seq == s->last_seq &&
	    seq > 0) {
		c->finished = 1;
		cluster_send_part(c, NATSIO_END, 0, seq);
		cluster_log(c,
		    "cluster: the crawl is over: %zu nodes idle at stream sequence %" PRIu64,
		    s->nnodes, seq);
		c->h.finished(c->h.ctx);
	}
	clusterview_free_nonces(nonce, n);
	free(nodes);
	free(owner);
}

/* Gives up each partition flagged in which (held, its consumer made), to
 * be claimed again (by this node or another), which rebuilds it from the
 * stream and makes a new consumer; logs them with why. A partition already
 * being given up, or lost, just closes its consumer. */
static void clusterview_rebuild(struct cluster *c, const unsigned char *which, const char *why)
{
	struct buf list = BUF_INIT;
	unsigned p;
	size_t n;

	for (p = 0; p < c->np; p++) {
		if (!which[p] || c->subscribed[p] != 1)
			continue;
		n = lease_give_up(c->lease, p, c->act, c->nact);
		if (n == 0)
			continue;
		buf_appendf(&list, "%s%u", list.len ? " " : "", p);
		clusterlease_do(c, c->act, n);
	}
	if (list.len > 0)
		cluster_log(c, "cluster: partitions %s: %s; given up, to be claimed and rebuilt",
		    list.data, why);
	buf_free(&list);
}

/* Partitions whose consumer the view found gone from the server deliver
 * nothing more here. */
static void clusterview_rebuild_gone(struct cluster *c, const struct natsio_snapshot *s)
{
	if (s->gone == NULL || c->leaving || c->finished)
		return;
	clusterview_rebuild(c, s->gone, "their consumers are gone from the server");
}

/* A consumer that counts messages delivered and unacknowledged while this
 * node holds none of them (it is idle: every message it received is
 * scheduled and acknowledged) lost them or their acknowledgments: sent
 * just before a server went down (its outgoing buffer, or the ack in our
 * socket's), they come back only after the acknowledgment wait (30 s), and
 * the crawl's end waited that long (tests/cluster/cluster_restart.sh, about one run
 * in 15; one in 3 when the server is killed with -9). A delivery in transit
 * passes in milliseconds and moves the floor; one that stays at the same
 * floor for CLUSTER_STUCK_MS of idle views is not coming: the partition is
 * rebuilt from the stream (a new consumer starts after its log), which
 * costs a replay instead of the wait. */
static void clusterview_rebuild_stuck(
    struct cluster *c, const struct natsio_snapshot *s, int idle_but_consumers)
{
	unsigned char *stuck;
	uint64_t now = cluster_now();
	unsigned p;
	int any = 0;

	if (!idle_but_consumers || s->ack_pending == NULL || c->leaving || c->finished) {
		memset(c->stuck_since, 0, c->np * sizeof *c->stuck_since);
		return;
	}
	stuck = xcalloc(c->np, 1);
	for (p = 0; p < c->np; p++) {
		if (s->ack_pending[p] == 0 || c->subscribed[p] != 1) {
			c->stuck_since[p] = 0;
			continue;
		}
		if (c->stuck_since[p] == 0 || c->stuck_floor[p] != s->ack_floor[p]) {
			c->stuck_since[p] = now;
			c->stuck_floor[p] = s->ack_floor[p];
			continue;
		}
		if (now - c->stuck_since[p] >= CLUSTER_STUCK_MS) {
			stuck[p] = 1;
			c->stuck_since[p] = 0;
			any = 1;
		}
	}
	if (any)
		clusterview_rebuild(c, stuck,
		    "messages delivered and never acknowledged here (lost "
		    "around a server restart), otherwise redelivered only after the acknowledgment "
		    "wait");
	free(stuck);
}

/* The last views allow claims: this node's heartbeat seen, and the number
 * of live nodes steady (comment in clusterview_on_snapshot). */
int clusterview_may_claim(const struct cluster *c)
{
	return c->joined && c->stable >= 1 &&
	    (c->claimed || cluster_now() - c->live_since >= CLUSTER_JOIN_MS);
}

void clusterview_on_snapshot(struct cluster *c, struct natsio_snapshot *s)
{
	struct cluster_local l;
	struct clusterend_local el;
	struct lease_action *a = c->act;
	unsigned live = (unsigned)s->nnodes;
	size_t i;
	int self = 0;

	c->snap_out = 0;
	c->snap_failed = !s->ok;
	if (!s->ok) {
		cluster_log(c, "cluster: %s", s->err);
		natsio_snapshot_free(s);
		return;
	}
	natsio_snapshot_free(c->snap);
	c->snap = s;
	clusterview_peer_delays(c, s);
	memset(&l, 0, sizeof l);
	c->h.status(c->h.ctx, &l);
	clusterview_local_idle(c, &l, s->consumer_pending, c->snap_consumers, &el);
	c->my_idle = clusterend_local_idle(&el);
	c->last_local = el;
	/* Consumers read clear at this sequence (or known to be). */
	c->clear_seq = c->snap_consumers && s->consumer_pending == 0 ? s->last_seq + 1 : 0;
	c->my_seq = s->last_seq;
	if (!c->leaving)
		clusterview_heartbeat(c, &l);
	for (i = 0; i < s->nnodes; i++)
		if (strcmp(s->nodes[i].id, c->o.node) == 0)
			self = 1;
	if (!self)
		live++;
	/* Claims wait for a view that shows this node's own heartbeat and
	 * then for the number of live nodes to hold for two views in a row,
	 * and the first claims for it to hold CLUSTER_JOIN_MS, so that nodes
	 * started together see each other before they claim (and hosts do
	 * not move between them as they join). Two views 150 ms apart were
	 * not enough: in 1 of 26 tests/cluster/cluster_basic.sh runs on a loaded
	 * 2-core machine the first node started 180 ms before the others,
	 * claimed all 16 partitions and gave 10 up half a second later. */
	if (self)
		c->joined = 1;
	if (live != c->last_live || c->live_since == 0)
		c->live_since = cluster_now();
	c->stable = live == c->last_live ? c->stable + 1 : 0;
	c->last_live = live;
	clusterview_rebuild_gone(c, s);
	{
		struct clusterend_local ec;
		clusterview_local_idle(c, &l, 0, 1, &ec);
		clusterview_rebuild_stuck(c, s, c->snap_consumers && clusterend_local_idle(&ec));
	}
	/* The end first: a crawl that is over claims nothing more. */
	clusterview_check_end(c, s);
	if (clusterview_may_claim(c) && !c->leaving && !c->finished) {
		c->claimed = 1;
		clusterlease_do(
		    c, a, lease_view(c->lease, s->owners, live, cluster_now(), a, c->nact));
	}
}
