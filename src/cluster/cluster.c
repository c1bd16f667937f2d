/* Cluster mode, the loop's side (cluster.h, doc/cluster.md). One timer
 * (every CLUSTER_TICK_MS) drives leases, publications and the heartbeat;
 * events from the NATS client's thread arrive through the mailbox; work
 * left over from one loop iteration (received records, a replay's URIs)
 * continues from an idle handle, a bounded amount each time. */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/cluster.h"
#include "cluster/clusterreport.h"
#include "cluster/donelog.h"
#include "cluster/mailbox.h"
#include "cluster/natsio.h"
#include "cluster/outbox.h"
#include "lib/canon.h"
#include "cluster/clusterend.h"
#include "lib/curi.h"
#include "cluster/fpset.h"
#include "cluster/lease.h"
#include "lib/urlcreds.h"
#include "lib/xmalloc.h"

#define CLUSTER_TICK_MS 20
/* The cluster is read every fifth of a lease, and every CLUSTER_QUICK_MS
 * while it matters sooner: joining (nodes see each other before they
 * claim: two views this far apart) and for CLUSTER_QUICK_FOR_MS after the
 * node became idle (the end is usually near: the others must see it idle
 * and it them); an idle node then reads it every CLUSTER_IDLE_MS (a crawl
 * held at its end, a node with nothing to do while others crawl). A node
 * that becomes idle reads it at once. A view costs the server about 5 ms
 * of CPU (doc/cluster.md). */
#define CLUSTER_QUICK_MS 150
#define CLUSTER_QUICK_FOR_MS 3000
/* A node's first claims wait until the number of live nodes has held this
 * long: nodes started together, on a loaded machine, write their first
 * heartbeats hundreds of milliseconds apart. */
#define CLUSTER_JOIN_MS 1000
#define CLUSTER_IDLE_MS 500
/* Records handed to the crawl per loop iteration (received or replayed). */
#define CLUSTER_RECORDS_PER_PASS 4096
/* The bounded filter against handing the same link off again. */
#define CLUSTER_FILTER_SLOTS (1u << 19)
#define CLUSTER_RETRY_MS 1000
/* Leaving gives pending publications this long to be stored. */
#define CLUSTER_LEAVE_MS 10000
/* How long idle views may show a consumer's messages unacknowledged at the
 * same floor before they are taken as lost (cluster_rebuild_stuck). */
#define CLUSTER_STUCK_MS 1000

struct cluster_replay {
	int active;	    /* reading the partition's log */
	int complete;	    /* read: subscribing, then its URIs are scheduled */
	int subscribe_sent; /* the live consumer asked for */
	uint64_t last_seq;
	uint64_t retry_at; /* a failed replay starts again at this time */
	struct fpset *done, *given;
	struct buf pending; /* url records to schedule, in stream order */
	size_t pos;
	/* A continuous crawl's done records, each URI's last one (made at the
	 * first record with a revisit), and once the log is read the text of
	 * those whose revisit is re-created here, up to rv_pos. */
	struct donelog *rv;
	const char *rv_text;
	size_t rv_len, rv_pos;
	uint64_t waiting;    /* revisits re-created */
	uint64_t scheduled;  /* given and not done: queued again */
	uint64_t started_ms; /* when its log began to be read */
	uint64_t records;    /* messages of its log read */
};

struct cluster_in {
	struct natsio_msg *m;
	struct cluster_in *next;
};

struct cluster {
	uv_loop_t *loop;
	struct cluster_opts o;
	char *shown; /* o.url with its secrets hidden, for logs and reports */
	struct cluster_hooks h;
	struct mailbox *mb;
	struct natsio *nio;
	struct lease_table *lease;
	char *lease_value;
	uv_timer_t timer;
	uv_idle_t more;
	int more_on;
	unsigned np;
	unsigned char *stopping; /* STOP begun: waiting for its fetches to end */
	uint64_t *hold_until;	 /* no fetching before (a partition handed over) */
	/* Per partition, while this node is idle and its consumer still has
	 * messages unacknowledged: since when, and at which acknowledgment
	 * floor (cluster_rebuild_stuck). */
	uint64_t *stuck_since, *stuck_floor;
	/* Compaction (cluster_compact_*): bytes of records added to each
	 * partition's log since its last compaction (as this node saw them),
	 * and the one compaction in progress. */
	uint64_t *grow;
	uint64_t *snap_bytes; /* bytes of the last snapshot this node wrote, per partition */
	/* Per partition, the longest politeness wait (over handover_ms) its
	 * hosts asked for here, sent in the heartbeat; and the longest another
	 * node's heartbeat last said for it, kept after that node is gone. */
	uint64_t *delay_ms;
	uint64_t *peer_delay_ms;
	struct {
		int active;
		unsigned p;
		struct fpset *given;
		struct donelog *done;
		struct buf urls;
		uint64_t records_in;
	} cp;
	uint64_t compactions;
	struct buf compact_out; /* the url records kept, being built */
	/* 0 no, 1 consuming, 2 closing (until NATSIO_EV_UNSUBSCRIBED), 3
	 * subscribing (until NATSIO_EV_SUBSCRIBED) */
	unsigned char *subscribed;
	struct cluster_replay *rp;
	struct outbox *out;
	struct cluster_in *in_head, *in_tail;
	/* Messages of partitions still subscribing (the server delivers as
	 * soon as the consumer exists, before the client's thread can say
	 * that it does) or still scheduling their replay: held until the
	 * replay's URIs are all scheduled, or the partition's rebuilding
	 * ends otherwise (failed, given up, leaving). */
	struct cluster_in *early_head, *early_tail;
	size_t in_count; /* both lists */
	void **acks;
	size_t nacks, capacks;
	struct fpset *filter;
	/* Room for the actions one call of the lease table can return (2 per
	 * partition); calls never nest. */
	struct lease_action *act;
	size_t nact;
	struct natsio_snapshot *snap;
	int snap_out;
	int snap_consumers;
	int snap_failed; /* the last view failed: the next waits its turn */
	uint64_t next_snap_ms;
	uint64_t idle_since; /* when the views found this node idle; 0: busy */
	int joined;	     /* a view showed this node's heartbeat */
	unsigned last_live;  /* live nodes in the previous view */
	unsigned stable;     /* views in a row with that many */
	uint64_t live_since; /* when a view first showed that many */
	int claimed;	     /* claims began (the join is over) */
	int link_up;
	int leaving;
	uint64_t leave_deadline;
	int shutdown_sent;
	int closed;
	int closing; /* handles being closed before c is freed */
	void (*left)(void *ctx);
	void *left_ctx;
	int finished;
	int my_idle;
	uint64_t my_seq;
	struct clusterend_local last_local; /* what my_idle was judged from */
	uint64_t clear_seq; /* 1 + the sequence at which our consumers had nothing pending */
	struct buf scratch, canon;
	/* figures */
	uint64_t links_local, filtered;
	uint64_t msgs_in, bytes_in, records_in, replays, replayed, let_go, early;
	uint64_t claims, releases, losses;
};

/* Puts in at the end of the list head..tail. */
static void cluster_in_append(
    struct cluster_in **head, struct cluster_in **tail, struct cluster_in *in)
{
	in->next = NULL;
	if (*tail != NULL)
		(*tail)->next = in;
	else
		*head = in;
	*tail = in;
}

static uint64_t cluster_now(void)
{
	return uv_hrtime() / 1000000u;
}

static void cluster_log(struct cluster *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cluster_log(struct cluster *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	c->h.log(c->h.ctx, line);
}

int cluster_partition_of(struct cluster *c, const char *href)
{
	return partition_of_url(href, c->np, c->o.by, c->o.assign, &c->scratch);
}

static void cluster_more(struct cluster *c);
static void cluster_take_early(struct cluster *c, int p);

/* Publishing (outbox.h). */

int cluster_offer(struct cluster *c, const struct handoff_url *r)
{
	int p = cluster_partition_of(c, r->uri), local;

	if (p < 0 || c->leaving)
		return -1;
	if (!(r->flags & HANDOFF_FORCE) &&
	    fpset_test_add(c->filter, fpset_hash(r->uri, strlen(r->uri)))) {
		c->filtered++;
		return 0;
	}
	/* A link for a partition held here (and consuming: its rebuild is
	 * done) is scheduled here at once, and goes to the stream only for
	 * the log (the "own" subject, which no consumer reads and every
	 * replay does): no round trip through the server, and still nothing
	 * that exists in this node's store alone. */
	local = lease_state_of(c->lease, (unsigned)p) == LEASE_HELD && c->subscribed[p] == 1 &&
	    !c->stopping[p];
	if (outbox_add_url(c->out, (unsigned)p, r, local, cluster_now()) < 0)
		return -1;
	c->grow[p] += strlen(r->uri) + (r->via != NULL ? strlen(r->via) : 0) + 8;
	if (local) {
		c->links_local++;
		c->h.schedule(c->h.ctx, r, (r->flags & HANDOFF_FORCE) != 0);
	}
	return 1;
}

int cluster_seed(struct cluster *c, const struct handoff_url *r)
{
	if (outbox_add_seed(c->out, r->uri, (r->flags & CURI_GUARDED) != 0) < 0)
		return -1;
	return cluster_offer(c, r) < 0 ? -1 : 0;
}

void cluster_done(struct cluster *c, const struct handoff_done *d, uint64_t delay_ms)
{
	int p = cluster_partition_of(c, d->uri);

	outbox_done(c->out, p, d);
	if (p >= 0) {
		c->grow[p] += strlen(d->uri) + 1 + (d->revisit_len + 2) / 3 * 4;
		if (delay_ms > c->o.handover_ms && delay_ms > c->delay_ms[p])
			c->delay_ms[p] = delay_ms;
	}
}

void cluster_flushed(struct cluster *c)
{
	outbox_flushed(c->out);
	if (c->nacks > 0) {
		struct natsio_ack *a = xmalloc(sizeof *a + c->nacks * sizeof(void *));
		a->it.kind = NATSIO_ACK;
		a->ack = 1;
		a->n = c->nacks;
		memcpy(a->handle, c->acks, c->nacks * sizeof(void *));
		c->nacks = 0;
		mailbox_to_thread(c->mb, &a->it);
	}
}

static void cluster_let_go(struct cluster *c, void *handle)
{
	struct natsio_ack *a = xmalloc(sizeof *a + sizeof(void *));

	c->let_go++;
	a->it.kind = NATSIO_ACK;
	a->ack = 0;
	a->n = 1;
	a->handle[0] = handle;
	mailbox_to_thread(c->mb, &a->it);
}

/* Fetching. */

int cluster_may_fetch(struct cluster *c, const char *uri)
{
	int p = cluster_partition_of(c, uri);
	uint64_t now = cluster_now();

	return p >= 0 && !c->leaving && !c->stopping[p] && now >= c->hold_until[p] &&
	    lease_may_fetch(c->lease, (unsigned)p, now);
}

/* Leases: carrying out the table's actions. */

/* How long a partition just claimed is not fetched from. A key with a
 * revision was written by a holder: one that gave the partition up a
 * moment ago may have fetched from its hosts just before, so the hold is
 * the delay politeness asks after a request as configured, or the longer
 * wait the partition's hosts asked of that node (a robots.txt
 * Crawl-delay, from its heartbeat). An expired or never written key had
 * nobody fetching for half a lease at least: only a wait longer than that
 * is left to hold. */
static uint64_t cluster_claim_hold(struct cluster *c, unsigned p, uint64_t rev)
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

/* The heartbeat's "delays": [partition, ms] for each partition held here
 * whose hosts asked for a wait longer than the hand-over hold. */
static json_t *cluster_delays_json(struct cluster *c)
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
static void cluster_peer_delays(struct cluster *c, const struct natsio_snapshot *s)
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

static void cluster_send_kv(struct cluster *c, int op, unsigned p, uint64_t rev)
{
	struct natsio_kv *kv = xcalloc(1, sizeof *kv);

	kv->it.kind = op;
	kv->op = op;
	kv->partition = p;
	kv->rev = rev;
	kv->sent_ms = cluster_now();
	mailbox_to_thread_urgent(c->mb, &kv->it);
}

static void cluster_send_part(struct cluster *c, int kind, unsigned p, uint64_t seq)
{
	struct natsio_part *m = xcalloc(1, sizeof *m);

	m->it.kind = kind;
	m->partition = p;
	m->start_seq = seq;
	mailbox_to_thread(c->mb, &m->it);
}

static void cluster_replay_reset(struct cluster_replay *r)
{
	fpset_free(r->done);
	fpset_free(r->given);
	buf_free(&r->pending);
	donelog_free(r->rv);
	memset(r, 0, sizeof *r);
}

static void cluster_replay_start(struct cluster *c, unsigned p)
{
	struct cluster_replay *r = &c->rp[p];

	/* Whatever this node still queues for the partition (from an earlier
	 * ownership, or its store before a restart) goes: the log rebuilds
	 * it, less what others finished since. */
	if (c->h.drop(c->h.ctx, p) < 0)
		cluster_log(c, "cluster: partition %u: dropping its old queues failed", p);
	cluster_replay_reset(r);
	r->active = 1;
	r->done = fpset_exact();
	r->given = fpset_exact();
	r->started_ms = cluster_now();
	c->replays++;
	cluster_send_part(c, NATSIO_REPLAY, p, 0);
}

static void cluster_do(struct cluster *c, const struct lease_action *a, size_t n)
{
	struct buf suspended = BUF_INIT, lost = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned p = a[i].partition;
		switch (a[i].kind) {
		case LEASE_DO_CLAIM:
			c->claims++;
			c->hold_until[p] = cluster_now() + cluster_claim_hold(c, p, a[i].rev);
			cluster_send_kv(c, NATSIO_CLAIM, p, a[i].rev);
			break;
		case LEASE_DO_RENEW:
			cluster_send_kv(c, NATSIO_RENEW, p, a[i].rev);
			break;
		case LEASE_DO_RELEASE:
			c->releases++;
			cluster_send_kv(c, NATSIO_RELEASE, p, a[i].rev);
			break;
		case LEASE_DO_START:
			/* Claimed while leaving (the claim was out): given up
			 * again at the next tick, never rebuilt. */
			if (!c->leaving)
				cluster_replay_start(c, p);
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
			 * tests/cluster_basic.sh run with nodes started 1.5 s
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
 * pages requested twice in a tests/cluster_basic.sh run whose first node
 * gave up ten partitions 50 ms after fetching from them). */
static void cluster_finish_stops(struct cluster *c)
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
		cluster_replay_reset(&c->rp[p]);
		cluster_take_early(c, (int)p);
		/* Leaving keeps the store as it is (a resume drops and replays). */
		if (!c->leaving && c->h.drop(c->h.ctx, p) < 0)
			cluster_log(c, "cluster: partition %u: dropping its queues failed", p);
		cluster_do(c, a, lease_stopped(c->lease, p, a, c->nact));
	}
}

/* Received records: handed to the crawl a bounded number per pass. */

static void cluster_schedule_cb(void *ctx, const struct handoff_url *r)
{
	struct cluster *c = ctx;

	c->records_in++;
	c->h.schedule(c->h.ctx, r, (r->flags & HANDOFF_FORCE) != 0);
}

static size_t cluster_take_inbound(struct cluster *c, size_t budget)
{
	size_t done = 0;

	while (c->in_head != NULL && done < budget) {
		struct cluster_in *in = c->in_head;
		struct natsio_msg *m = in->m;
		char *err = NULL;

		c->in_head = in->next;
		if (c->in_head == NULL)
			c->in_tail = NULL;
		if (c->subscribed[m->partition] == 3 || c->rp[m->partition].active) {
			/* Delivered before the subscription was confirmed, or
			 * before the replay's URIs are all scheduled (forced: a
			 * live copy scheduled first would be queued twice). Not
			 * let go: the server would redeliver it only after the
			 * consumer's acknowledgment wait (30 s), and the crawl's
			 * end would wait for that. */
			c->early++;
			cluster_in_append(&c->early_head, &c->early_tail, in);
			continue;
		}
		c->in_count--;
		free(in);
		if (!lease_is_ours(c->lease, m->partition) || c->stopping[m->partition] ||
		    c->subscribed[m->partition] != 1) {
			cluster_let_go(c, m->handle);
			free(m);
			continue;
		}
		c->msgs_in++;
		c->bytes_in += m->len;
		if (handoff_parse_urls(m->data, m->len, cluster_schedule_cb, c, &err) < 0) {
			/* A record no tern writes: nothing after it in the message
			 * can be trusted; the message is acknowledged all the same
			 * (redelivering it would fail again). */
			cluster_log(c, "cluster: partition %u: message %" PRIu64 " refused: %s",
			    m->partition, m->seq, err);
			free(err);
		}
		done += 1 + m->len / 64;
		if (c->nacks == c->capacks) {
			c->capacks = c->capacks ? c->capacks * 2 : 64;
			c->acks = xrealloc(c->acks, c->capacks * sizeof *c->acks);
		}
		c->acks[c->nacks++] = m->handle;
		free(m);
	}
	return done;
}

/* Replays: records collect until the log is read; then what was given and
 * is not done is scheduled (forced: the seen set of this node may know the
 * URI from an earlier ownership whose queues were dropped). */

struct cluster_replay_ctx {
	struct cluster *c;
	struct cluster_replay *r;
};

static uint64_t cluster_canon_fp(struct cluster *c, const char *uri)
{
	if (canon_key(uri, c->o.canon_flags, &c->canon) < 0)
		return fpset_hash(uri, strlen(uri));
	return fpset_hash(c->canon.data, c->canon.len);
}

static void cluster_replay_done_cb(void *ctx, const struct handoff_done *d)
{
	struct cluster_replay_ctx *x = ctx;
	uint64_t fp;

	if (canon_key(d->uri, x->c->o.canon_flags, &x->c->canon) < 0)
		return;
	fp = fpset_hash(x->c->canon.data, x->c->canon.len);
	fpset_test_add(x->r->done, fp);
	x->c->h.mark_seen(x->c->h.ctx, x->c->canon.data);
	/* A continuous crawl's URI waits for its revisit: the last record of
	 * it says with which history and when. */
	if (d->revisit != NULL && x->r->rv == NULL)
		x->r->rv = donelog_new(0);
	if (x->r->rv != NULL)
		donelog_add(x->r->rv, fp, d);
}

static void cluster_replay_url_cb(void *ctx, const struct handoff_url *u)
{
	struct cluster_replay_ctx *x = ctx;

	if (fpset_test_add(x->r->given, cluster_canon_fp(x->c, u->uri)))
		return;
	handoff_append_url(&x->r->pending, u);
}

static void cluster_replay_chunk(struct cluster *c, struct natsio_replay *e)
{
	struct cluster_replay *r = &c->rp[e->partition];
	struct cluster_replay_ctx x = {c, r};
	size_t i;

	if (!r->active)
		return;
	if (e->failed) {
		cluster_log(c, "cluster: partition %u: %s; replaying again", e->partition, e->err);
		cluster_replay_reset(r);
		r->retry_at = cluster_now() + CLUSTER_RETRY_MS;
		return;
	}
	for (i = 0; i < e->n; i++) {
		char *err = NULL;
		char *d = e->data + e->off[i];
		char save = d[e->len[i]];
		d[e->len[i]] = '\0';
		if ((e->kind[i] == NATSIO_DONE
			    ? handoff_parse_done(d, e->len[i], cluster_replay_done_cb, &x, &err)
			    : handoff_parse_urls(d, e->len[i], cluster_replay_url_cb, &x, &err)) <
		    0) {
			cluster_log(c, "cluster: partition %u: replayed message refused: %s",
			    e->partition, err);
			free(err);
		}
		d[e->len[i]] = save;
	}
	r->records += e->n;
	if (e->last_seq > r->last_seq)
		r->last_seq = e->last_seq;
	if (e->done) {
		r->complete = 1;
		if (r->rv != NULL)
			r->rv_text = donelog_finish(r->rv, &r->rv_len);
	}
}

/* Compaction (doc/cluster.md, "A bounded stream"): a held partition whose
 * log grew by cluster.compact-kib since its last compaction is read again
 * up to its consumer's acknowledgment floor and reduced to what a replay
 * needs, each URI once: the url records given and not done, and the done
 * records. natsio stores that on the partition's snapshot subjects, then
 * purges the partition's log up to the floor. A replay reads snapshots
 * like any other record, so a node taking the partition over reads the
 * last snapshot plus the tail. One compaction at a time. */

static void cluster_compact_reset(struct cluster *c)
{
	fpset_free(c->cp.given);
	donelog_free(c->cp.done);
	buf_free(&c->cp.urls);
	memset(&c->cp, 0, sizeof c->cp);
}

static void cluster_compact_maybe(struct cluster *c)
{
	unsigned p, best = 0;
	uint64_t most = 0;

	if (c->o.compact_bytes == 0 || c->cp.active || c->leaving || c->finished)
		return;
	/* A compaction rewrites the partition's whole snapshot, so it waits
	 * until the log has grown by at least the snapshot's own size too:
	 * the snapshots then add at most as many bytes as the log received,
	 * however long the crawl (a fixed threshold would rewrite a snapshot
	 * of S bytes every compact-kib), and the tail stays within
	 * max(compact-kib, snapshot). */
	for (p = 0; p < c->np; p++)
		if (c->grow[p] > most && c->grow[p] >= c->o.compact_bytes &&
		    c->grow[p] >= c->snap_bytes[p] && lease_state_of(c->lease, p) == LEASE_HELD &&
		    c->subscribed[p] == 1 && !c->rp[p].active && !c->stopping[p]) {
			most = c->grow[p];
			best = p;
		}
	if (most == 0)
		return;
	c->grow[best] = 0;
	c->cp.active = 1;
	c->cp.p = best;
	c->cp.given = fpset_exact();
	c->cp.done = donelog_new(1);
	cluster_send_part(c, NATSIO_COMPACT_READ, best, 0);
}

static void cluster_compact_done_cb(void *ctx, const struct handoff_done *d)
{
	struct cluster *c = ctx;

	donelog_add(c->cp.done, cluster_canon_fp(c, d->uri), d);
}

static void cluster_compact_url_cb(void *ctx, const struct handoff_url *u)
{
	struct cluster *c = ctx;

	if (!fpset_test_add(c->cp.given, cluster_canon_fp(c, u->uri)))
		handoff_append_url(&c->cp.urls, u);
}

static void cluster_compact_keep_cb(void *ctx, const struct handoff_url *u)
{
	struct cluster *c = ctx;
	struct buf *out = c->cp.active ? &c->compact_out : NULL;

	if (out != NULL && !donelog_has(c->cp.done, cluster_canon_fp(c, u->uri)))
		handoff_append_url(out, u);
}

static void cluster_compact_chunk(struct cluster *c, struct natsio_replay *e)
{
	struct natsio_compact *w;
	const char *dones;
	size_t i, dones_len;

	if (!c->cp.active || e->partition != c->cp.p)
		return;
	if (e->failed) {
		cluster_log(c, "cluster: partition %u: compaction: %s; tried again later",
		    e->partition, e->err);
		cluster_compact_reset(c);
		return;
	}
	for (i = 0; i < e->n; i++) {
		char *d = e->data + e->off[i];
		char save = d[e->len[i]];
		d[e->len[i]] = '\0';
		if (e->kind[i] == NATSIO_DONE)
			handoff_parse_done(d, e->len[i], cluster_compact_done_cb, c, NULL);
		else
			handoff_parse_urls(d, e->len[i], cluster_compact_url_cb, c, NULL);
		d[e->len[i]] = save;
		c->cp.records_in++;
	}
	if (!e->done)
		return;
	/* Given and done: only the done record is needed, the last one of
	 * each URI (a continuous crawl's holds its latest history). */
	dones = donelog_finish(c->cp.done, &dones_len);
	buf_reset(&c->compact_out);
	if (c->cp.urls.len > 0)
		handoff_parse_urls(
		    c->cp.urls.data, c->cp.urls.len, cluster_compact_keep_cb, c, NULL);
	w = xcalloc(1, sizeof *w);
	w->it.kind = NATSIO_COMPACT_WRITE;
	w->partition = c->cp.p;
	w->upto = e->upto;
	w->urls_len = c->compact_out.len;
	w->urls = xmalloc(w->urls_len + 1);
	memcpy(w->urls, c->compact_out.data != NULL ? c->compact_out.data : "", w->urls_len);
	w->dones_len = dones_len;
	c->snap_bytes[c->cp.p] = w->urls_len + w->dones_len;
	w->dones = xmalloc(w->dones_len + 1);
	memcpy(w->dones, dones, w->dones_len);
	buf_free(&c->compact_out);
	mailbox_to_thread(c->mb, &w->it);
}

static void cluster_compacted(struct cluster *c, struct natsio_part *e)
{
	if (!c->cp.active || e->partition != c->cp.p)
		return;
	if (!e->ok)
		cluster_log(
		    c, "cluster: partition %u: %s; tried again later", e->partition, e->err);
	else if (e->start_seq > 0) {
		c->compactions++;
		cluster_log(c,
		    "cluster: partition %u: log compacted through sequence %" PRIu64 ": %" PRIu64
		    " messages read, %zu URIs given, %zu done, kept once each",
		    e->partition, e->start_seq, c->cp.records_in, fpset_count(c->cp.given),
		    donelog_count(c->cp.done));
	}
	cluster_compact_reset(c);
}

static void cluster_replay_schedule_cb(void *ctx, const struct handoff_url *u)
{
	struct cluster_replay_ctx *x = ctx;

	if (fpset_has(x->r->done, cluster_canon_fp(x->c, u->uri)))
		return;
	x->c->replayed++;
	x->r->scheduled++;
	x->c->h.schedule(x->c->h.ctx, u, 1);
}

static void cluster_replay_revisit_cb(void *ctx, const struct handoff_done *d)
{
	struct cluster_replay_ctx *x = ctx;

	if (d->revisit == NULL)
		return;
	x->r->waiting++;
	x->c->h.revisit(x->c->h.ctx, d);
}

/* A replay whose log is read subscribes to its partition's live
 * hand-offs from right after it; once subscribed, its records are
 * scheduled, up to budget in all, and when the last is the partition is
 * held: its URIs are queued just as they may be fetched (queued earlier,
 * the crawl would defer them), and no live hand-off is taken before the
 * log's are. */
static size_t cluster_replay_feed(struct cluster *c, size_t budget)
{
	size_t used = 0;
	unsigned p;

	for (p = 0; p < c->np && used < budget; p++) {
		struct cluster_replay *r = &c->rp[p];
		struct cluster_replay_ctx x = {c, r};
		if (!r->active || !r->complete)
			continue;
		if (!r->subscribe_sent) {
			uint64_t next = r->last_seq + 1;
			r->subscribe_sent = 1;
			c->subscribed[p] = 3;
			cluster_send_part(c, NATSIO_SUBSCRIBE, p, next > 1 ? next : 0);
		}
		if (c->subscribed[p] != 1)
			continue;
		while (r->pos < r->pending.len && used < budget) {
			char *start = r->pending.data + r->pos;
			char *nl = memchr(start, '\n', r->pending.len - r->pos);
			size_t n = (size_t)(nl - start) + 1;
			char save = start[n];
			start[n] = '\0';
			handoff_parse_urls(start, n, cluster_replay_schedule_cb, &x, NULL);
			start[n] = save;
			r->pos += n;
			used++;
		}
		/* A continuous crawl's URIs visited here before wait for their
		 * revisits again, with their histories. */
		while (r->pos >= r->pending.len && r->rv_pos < r->rv_len && used < budget) {
			const char *start = r->rv_text + r->rv_pos;
			const char *nl = memchr(start, '\n', r->rv_len - r->rv_pos);
			size_t n = (size_t)(nl - start) + 1;
			char *line = xstrndup(start, n);
			char *err = NULL;
			if (handoff_parse_done(line, n, cluster_replay_revisit_cb, &x, &err) < 0) {
				cluster_log(c, "cluster: partition %u: %s", p, err);
				free(err);
			}
			free(line);
			r->rv_pos += n;
			used++;
		}
		if (r->pos >= r->pending.len && r->rv_pos >= r->rv_len) {
			if (r->last_seq > 0)
				cluster_log(c,
				    "cluster: partition %u: log replayed through sequence %" PRIu64
				    ": %zu URIs handed to it, %zu done, %" PRIu64
				    " queued again, %" PRIu64
				    " waiting for their revisits (%" PRIu64 " messages in %" PRIu64
				    " ms)",
				    p, r->last_seq, fpset_count(r->given), fpset_count(r->done),
				    r->scheduled, r->waiting, r->records,
				    cluster_now() - r->started_ms);
			cluster_replay_reset(r);
			if (lease_state_of(c->lease, p) == LEASE_REPLAYING && !c->leaving)
				lease_replayed(c->lease, p);
			cluster_take_early(c, (int)p);
		}
	}
	return used;
}

static void cluster_more_cb(uv_idle_t *h)
{
	cluster_more(h->data);
}

/* Bounded work of this iteration; the idle handle keeps it going. */
static void cluster_more(struct cluster *c)
{
	size_t used = cluster_take_inbound(c, CLUSTER_RECORDS_PER_PASS);
	int left;
	unsigned p;

	if (used < CLUSTER_RECORDS_PER_PASS)
		used += cluster_replay_feed(c, CLUSTER_RECORDS_PER_PASS - used);
	left = c->in_head != NULL;
	for (p = 0; p < c->np && !left; p++)
		left = c->rp[p].active && c->rp[p].complete &&
		    (!c->rp[p].subscribe_sent || c->subscribed[p] == 1);
	if (left && !c->more_on) {
		uv_idle_start(&c->more, cluster_more_cb);
		c->more_on = 1;
	} else if (!left && c->more_on) {
		uv_idle_stop(&c->more);
		c->more_on = 0;
	}
}

/* Heartbeats, the view, the end. */

static unsigned cluster_held_list(struct cluster *c, json_t *arr)
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

static int cluster_replaying(const struct cluster *c)
{
	unsigned p;

	for (p = 0; p < c->np; p++)
		if (c->rp[p].active || c->stopping[p])
			return 1;
	return c->cp.active;
}

static void cluster_local_idle(struct cluster *c, const struct cluster_local *l,
    uint64_t consumer_pending, int consumers_read, struct clusterend_local *out)
{
	size_t outbound = outbox_waiting(c->out);

	memset(out, 0, sizeof *out);
	out->frontier_finished = l->frontier_finished;
	out->in_flight = l->in_flight;
	out->inbound = c->in_count + c->nacks;
	out->outbound = outbound;
	out->consumer_pending = consumers_read ? consumer_pending : 1;
	out->leases_settled = lease_settled(c->lease) && !cluster_replaying(c);
}

static void cluster_heartbeat(struct cluster *c, const struct cluster_local *l)
{
	json_t *o = json_object(), *held = json_array();
	char host[256] = "";
	struct natsio_text *t;
	char *js;
	size_t nl = strlen(c->o.node), jl;

	gethostname(host, sizeof host - 1);
	cluster_held_list(c, held);
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
	json_object_set_new(o, "delays", cluster_delays_json(c));
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

static void cluster_free_nonces(char **nonce, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(nonce[i]);
	free(nonce);
}

static void cluster_check_end(struct cluster *c, struct natsio_snapshot *s)
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
		cluster_free_nonces(nonce, n);
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
	cluster_free_nonces(nonce, n);
	free(nodes);
	free(owner);
}

/* Gives up each partition flagged in which (held, its consumer made), to
 * be claimed again (by this node or another), which rebuilds it from the
 * stream and makes a new consumer; logs them with why. A partition already
 * being given up, or lost, just closes its consumer. */
static void cluster_rebuild(struct cluster *c, const unsigned char *which, const char *why)
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
		cluster_do(c, c->act, n);
	}
	if (list.len > 0)
		cluster_log(c, "cluster: partitions %s: %s; given up, to be claimed and rebuilt",
		    list.data, why);
	buf_free(&list);
}

/* Partitions whose consumer the view found gone from the server deliver
 * nothing more here. */
static void cluster_rebuild_gone(struct cluster *c, const struct natsio_snapshot *s)
{
	if (s->gone == NULL || c->leaving || c->finished)
		return;
	cluster_rebuild(c, s->gone, "their consumers are gone from the server");
}

/* A consumer that counts messages delivered and unacknowledged while this
 * node holds none of them (it is idle: every message it received is
 * scheduled and acknowledged) lost them or their acknowledgments: sent
 * just before a server went down (its outgoing buffer, or the ack in our
 * socket's), they come back only after the acknowledgment wait (30 s), and
 * the crawl's end waited that long (tests/cluster_restart.sh, about one run
 * in 15; one in 3 when the server is killed with -9). A delivery in transit
 * passes in milliseconds and moves the floor; one that stays at the same
 * floor for CLUSTER_STUCK_MS of idle views is not coming: the partition is
 * rebuilt from the stream (a new consumer starts after its log), which
 * costs a replay instead of the wait. */
static void cluster_rebuild_stuck(
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
		cluster_rebuild(c, stuck,
		    "messages delivered and never acknowledged here (lost "
		    "around a server restart), otherwise redelivered only after the acknowledgment "
		    "wait");
	free(stuck);
}

/* The last views allow claims: this node's heartbeat seen, and the number
 * of live nodes steady (comment in cluster_on_snapshot). */
static int cluster_may_claim(const struct cluster *c)
{
	return c->joined && c->stable >= 1 &&
	    (c->claimed || cluster_now() - c->live_since >= CLUSTER_JOIN_MS);
}

static void cluster_on_snapshot(struct cluster *c, struct natsio_snapshot *s)
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
	cluster_peer_delays(c, s);
	memset(&l, 0, sizeof l);
	c->h.status(c->h.ctx, &l);
	cluster_local_idle(c, &l, s->consumer_pending, c->snap_consumers, &el);
	c->my_idle = clusterend_local_idle(&el);
	c->last_local = el;
	/* Consumers read clear at this sequence (or known to be). */
	c->clear_seq = c->snap_consumers && s->consumer_pending == 0 ? s->last_seq + 1 : 0;
	c->my_seq = s->last_seq;
	if (!c->leaving)
		cluster_heartbeat(c, &l);
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
	 * not enough: in 1 of 26 tests/cluster_basic.sh runs on a loaded
	 * 2-core machine the first node started 180 ms before the others,
	 * claimed all 16 partitions and gave 10 up half a second later. */
	if (self)
		c->joined = 1;
	if (live != c->last_live || c->live_since == 0)
		c->live_since = cluster_now();
	c->stable = live == c->last_live ? c->stable + 1 : 0;
	c->last_live = live;
	cluster_rebuild_gone(c, s);
	{
		struct clusterend_local ec;
		cluster_local_idle(c, &l, 0, 1, &ec);
		cluster_rebuild_stuck(c, s, c->snap_consumers && clusterend_local_idle(&ec));
	}
	/* The end first: a crawl that is over claims nothing more. */
	cluster_check_end(c, s);
	if (cluster_may_claim(c) && !c->leaving && !c->finished) {
		c->claimed = 1;
		cluster_do(c, a, lease_view(c->lease, s->owners, live, cluster_now(), a, c->nact));
	}
}

/* Events from the client's thread. */

static void cluster_on_control(struct cluster *c, struct natsio_text *t)
{
	char *node = t->data, *action, *body;

	if ((action = strchr(node, '\n')) == NULL)
		return;
	*action++ = '\0';
	if ((body = strchr(action, '\n')) == NULL)
		return;
	*body++ = '\0';
	if (strcmp(node, c->o.node) == 0)
		return;
	cluster_log(c, "cluster: %s from node %s", action, node);
	c->h.control(c->h.ctx, node, action, body);
}

static void cluster_seed_cb(void *ctx, const char *uri, int guarded)
{
	struct cluster *c = ctx;

	c->h.seed(c->h.ctx, uri, guarded);
}

/* Partition p's rebuilding is over, done or not (p < 0: every partition):
 * what it delivered early joins the inbound list again, to be taken (or
 * let go) as any message. */
static void cluster_take_early(struct cluster *c, int p)
{
	struct cluster_in **pp = &c->early_head, *in;

	c->early_tail = NULL;
	while ((in = *pp) != NULL) {
		if (p >= 0 && in->m->partition != (unsigned)p) {
			c->early_tail = in;
			pp = &in->next;
			continue;
		}
		*pp = in->next;
		cluster_in_append(&c->in_head, &c->in_tail, in);
	}
}

/* The client has ended: the message handles still held here (acks not
 * sent, hand-offs not written, early ones) go with it, unacknowledged,
 * before natsio_join closes the library. A node whose leave deadline
 * passed before every consumer closed holds some. */
static void cluster_drop_held(struct cluster *c)
{
	struct cluster_in *in;

	for (size_t i = 0; i < c->nacks; i++)
		natsio_drop(c->acks[i]);
	c->nacks = 0;
	for (in = c->in_head; in != NULL; in = in->next) {
		natsio_drop(in->m->handle);
		in->m->handle = NULL;
	}
	for (in = c->early_head; in != NULL; in = in->next) {
		natsio_drop(in->m->handle);
		in->m->handle = NULL;
	}
}

static void cluster_on_event(struct cluster *c, struct mbox_item *it)
{
	struct lease_action *a = c->act;

	switch (it->kind) {
	case NATSIO_EV_KV: {
		struct natsio_kv *kv = (struct natsio_kv *)it;
		if (kv->op == NATSIO_CLAIM)
			cluster_do(c, a,
			    lease_claimed(c->lease, kv->partition, kv->result, kv->rev, kv->sent_ms,
				a, c->nact));
		else if (kv->op == NATSIO_RENEW)
			cluster_do(c, a,
			    lease_renewed(c->lease, kv->partition, kv->result, kv->rev, kv->sent_ms,
				a, c->nact));
		else
			lease_released(c->lease, kv->partition, kv->result);
		break;
	}
	case NATSIO_EV_PUBACK: {
		struct natsio_puback *pa = (struct natsio_puback *)it;
		if (outbox_answered(c->out, pa, cluster_now()))
			cluster_log(c, "cluster: publication not stored (%s); sent again", pa->err);
		break;
	}
	case NATSIO_EV_MSG: {
		struct cluster_in *in = xmalloc(sizeof *in);
		in->m = (struct natsio_msg *)it;
		c->grow[in->m->partition] += in->m->len;
		cluster_in_append(&c->in_head, &c->in_tail, in);
		c->in_count++;
		return; /* owned by the inbound list now */
	}
	case NATSIO_EV_REPLAY:
		if (((struct natsio_replay *)it)->compact)
			cluster_compact_chunk(c, (struct natsio_replay *)it);
		else
			cluster_replay_chunk(c, (struct natsio_replay *)it);
		break;
	case NATSIO_EV_COMPACTED:
		cluster_compacted(c, (struct natsio_part *)it);
		break;
	case NATSIO_EV_SUBSCRIBED: {
		struct natsio_part *m = (struct natsio_part *)it;
		c->subscribed[m->partition] = 0;
		if (m->ok) {
			c->subscribed[m->partition] = 1;
			/* Its replay's records are scheduled next (cluster_more). */
			if (lease_state_of(c->lease, m->partition) != LEASE_REPLAYING ||
			    c->leaving) {
				cluster_replay_reset(&c->rp[m->partition]);
				cluster_take_early(c, (int)m->partition);
				/* Given up while it was being rebuilt. */
				cluster_send_part(c, NATSIO_UNSUBSCRIBE, m->partition, 0);
				c->subscribed[m->partition] = 2;
			}
		} else {
			cluster_log(
			    c, "cluster: partition %u: %s; replaying again", m->partition, m->err);
			cluster_replay_reset(&c->rp[m->partition]);
			cluster_take_early(c, (int)m->partition);
			c->rp[m->partition].retry_at = cluster_now() + CLUSTER_RETRY_MS;
		}
		break;
	}
	case NATSIO_EV_UNSUBSCRIBED:
		c->subscribed[((struct natsio_part *)it)->partition] = 0;
		break;
	case NATSIO_EV_SNAPSHOT:
		cluster_on_snapshot(c, (struct natsio_snapshot *)it);
		return; /* kept as c->snap */
	case NATSIO_EV_CONTROL:
		cluster_on_control(c, (struct natsio_text *)it);
		break;
	case NATSIO_EV_NOTE:
		cluster_log(c, "%s", ((struct natsio_text *)it)->data);
		break;
	case NATSIO_EV_SEED: {
		struct natsio_text *t = (struct natsio_text *)it;
		handoff_parse_seeds(t->data, t->len, cluster_seed_cb, c, NULL);
		break;
	}
	case NATSIO_EV_LINK: {
		struct natsio_text *t = (struct natsio_text *)it;
		c->link_up = strcmp(t->data, "up") == 0;
		/* Closing the connection when leaving disconnects it too. */
		if (!c->shutdown_sent)
			cluster_log(c, "cluster: connection to NATS at %s %s", c->shown,
			    c->link_up ? "restored" : "lost; reconnecting");
		break;
	}
	case NATSIO_EV_CLOSED:
		cluster_drop_held(c);
		natsio_join(c->nio);
		c->nio = NULL;
		c->closed = 1;
		break;
	}
	natsio_item_free(it);
}

static void cluster_events_cb(void *ctx)
{
	struct cluster *c = ctx;
	struct mbox_item *it = mailbox_take_events(c->mb), *next;

	for (; it != NULL; it = next) {
		next = it->next;
		cluster_on_event(c, it);
	}
	if (c->closed) {
		uv_timer_stop(&c->timer);
		if (c->more_on)
			uv_idle_stop(&c->more);
		c->more_on = 0;
		if (c->left != NULL) {
			void (*left)(void *) = c->left;
			c->left = NULL;
			left(c->left_ctx);
		}
		return;
	}
	cluster_more(c);
}

static void cluster_tick_cb(uv_timer_t *t)
{
	struct cluster *c = t->data;
	struct lease_action *a = c->act;
	uint64_t now = cluster_now();
	unsigned p;

	if (c->shutdown_sent)
		return;
	cluster_do(c, a, lease_tick(c->lease, now, a, c->nact));
	outbox_tick(c->out, now, c->leaving);
	cluster_finish_stops(c);
	for (p = 0; p < c->np; p++)
		if (c->rp[p].retry_at != 0 && c->rp[p].retry_at <= now &&
		    lease_state_of(c->lease, p) == LEASE_REPLAYING)
			cluster_replay_start(c, p);
	cluster_compact_maybe(c);
	/* Busy at the last view and idle now (its last page written, its
	 * last records stored): the end may be near, read the cluster now
	 * rather than at the next view's time. Not after a failed view: one
	 * that fails at once would be asked for at every tick (it was, 50
	 * times a second, each logged). */
	if (!c->snap_out && now < c->next_snap_ms && !c->leaving && c->joined && !c->my_idle &&
	    !c->finished && !c->snap_failed) {
		struct cluster_local l;
		struct clusterend_local el;
		memset(&l, 0, sizeof l);
		c->h.status(c->h.ctx, &l);
		cluster_local_idle(c, &l, 0, 1, &el);
		if (clusterend_local_idle(&el))
			c->next_snap_ms = now;
	}
	if (!c->snap_out && now >= c->next_snap_ms && !c->leaving) {
		struct natsio_snapreq *q = xcalloc(1, sizeof *q);
		uint64_t interval;
		struct cluster_local l;
		struct clusterend_local el;
		memset(&l, 0, sizeof l);
		c->h.status(c->h.ctx, &l);
		cluster_local_idle(c, &l, 0, 1, &el);
		/* Consumers are asked about only when nothing else keeps this
		 * node busy: that is when their counts decide anything. */
		q->it.kind = NATSIO_SNAPSHOT;
		q->consumers = c->snap_consumers = clusterend_local_idle(&el);
		q->clear_seq = c->clear_seq;
		c->snap_out = 1;
		if (!q->consumers)
			c->idle_since = 0;
		else if (c->idle_since == 0)
			c->idle_since = now;
		if (!cluster_may_claim(c))
			interval = CLUSTER_QUICK_MS;
		else if (q->consumers)
			interval = now - c->idle_since < CLUSTER_QUICK_FOR_MS ? CLUSTER_QUICK_MS
									      : CLUSTER_IDLE_MS;
		else
			interval = c->o.lease_ms / 5;
		c->next_snap_ms = now + interval;
		mailbox_to_thread(c->mb, &q->it);
	}
	if (c->leaving) {
		/* A claim that was out when leaving began has come back. */
		cluster_do(c, a, lease_release_all(c->lease, a, c->nact));
		/* Gone once every partition is given up and everything this
		 * node published (done records included) is stored. */
		int settled =
		    lease_held(c->lease) == 0 && lease_settled(c->lease) && outbox_settled(c->out);
		/* And every consumer closed, so that no message handle is
		 * delivered after the client is gone. */
		for (p = 0; p < c->np && settled; p++)
			settled = c->subscribed[p] == 0;
		if (settled || now >= c->leave_deadline) {
			struct mbox_item *s = xcalloc(1, sizeof *s);
			s->kind = NATSIO_SHUTDOWN;
			c->shutdown_sent = 1;
			mailbox_to_thread(c->mb, s);
		}
	}
}

/* Operator actions. */

void cluster_control(struct cluster *c, const char *action, const char *body)
{
	size_t nl = strlen(c->o.node), al = strlen(action), bl = body != NULL ? strlen(body) : 0;
	struct natsio_text *t = xmalloc(sizeof *t + nl + al + bl + 3);

	t->it.kind = NATSIO_CONTROL;
	memcpy(t->data, c->o.node, nl);
	t->data[nl] = '\n';
	memcpy(t->data + nl + 1, action, al);
	t->data[nl + 1 + al] = '\n';
	if (bl > 0)
		memcpy(t->data + nl + 2 + al, body, bl);
	t->len = nl + 2 + al + bl;
	t->data[t->len] = '\0';
	mailbox_to_thread(c->mb, &t->it);
}

void cluster_leave(struct cluster *c, void (*left)(void *ctx), void *ctx)
{
	struct lease_action *a = c->act;

	c->left = left;
	c->left_ctx = ctx;
	if (c->leaving)
		return;
	c->leaving = 1;
	c->leave_deadline = cluster_now() + CLUSTER_LEAVE_MS;
	cluster_log(c, "cluster: leaving: giving up %u partitions", lease_held(c->lease));
	cluster_do(c, a, lease_release_all(c->lease, a, c->nact));
	/* Hand-offs received and not yet written are redelivered to the next
	 * owner (the crawl's last flush acknowledged the rest). */
	cluster_take_early(c, -1);
	while (c->in_head != NULL) {
		struct cluster_in *in = c->in_head;
		c->in_head = in->next;
		cluster_let_go(c, in->m->handle);
		free(in->m);
		free(in);
	}
	c->in_tail = NULL;
	c->in_count = 0;
}

/* Opening and closing. */

struct cluster *cluster_open(uv_loop_t *loop, const struct cluster_opts *o,
    const struct cluster_hooks *h, char **err, int *usage)
{
	struct cluster *c = xcalloc(1, sizeof *c);
	struct natsio_opts no;
	struct lease_params lp;
	uint64_t nonce = 0;

	c->loop = loop;
	c->o = *o;
	c->o.url = xstrdup(o->url);
	c->shown = urlcreds_hide(o->url);
	memset(&c->o.auth, 0, sizeof c->o.auth);
	c->o.agree = NULL;
	c->o.nagree = 0;
	c->o.crawl = xstrdup(o->crawl);
	c->o.node = xstrdup(o->node);
	c->o.jobdir = xstrdup(o->jobdir);
	c->h = *h;
	c->np = o->partitions;
	c->stopping = xcalloc(c->np, 1);
	c->hold_until = xcalloc(c->np, sizeof *c->hold_until);
	c->stuck_since = xcalloc(c->np, sizeof *c->stuck_since);
	c->grow = xcalloc(c->np, sizeof *c->grow);
	c->snap_bytes = xcalloc(c->np, sizeof *c->snap_bytes);
	c->delay_ms = xcalloc(c->np, sizeof *c->delay_ms);
	c->peer_delay_ms = xcalloc(c->np, sizeof *c->peer_delay_ms);
	c->stuck_floor = xcalloc(c->np, sizeof *c->stuck_floor);
	c->subscribed = xcalloc(c->np, 1);
	c->rp = xcalloc(c->np, sizeof *c->rp);
	c->filter = fpset_bounded(CLUSTER_FILTER_SLOTS);
	c->nact = 2 * (size_t)c->np + 8;
	c->act = xcalloc(c->nact, sizeof *c->act);
	c->link_up = 1;
	if (uv_random(NULL, NULL, &nonce, sizeof nonce, 0, NULL) != 0)
		nonce = uv_hrtime() ^ ((uint64_t)getpid() << 32);
	c->lease_value = xasprintf("%s %016" PRIx64, o->node, nonce);
	memset(&lp, 0, sizeof lp);
	lp.partitions = c->np;
	lp.lease_ms = o->lease_ms;
	lp.seed = (unsigned)fpset_hash(o->node, strlen(o->node));
	c->lease = lease_new(&lp);
	c->mb = mailbox_new(loop, cluster_events_cb, c);
	c->out = outbox_new(c->mb, c->np);
	memset(&no, 0, sizeof no);
	no.url = o->url;
	no.auth = o->auth;
	no.crawl = o->crawl;
	no.node = o->node;
	no.lease_value = c->lease_value;
	no.partitions = c->np;
	no.agree = o->agree;
	no.nagree = o->nagree;
	no.lease_ms = o->lease_ms;
	no.replicas = o->replicas;
	no.api_timeout_ms = o->api_timeout_ms;
	no.api_retries = o->api_retries;
	no.api_backoff_ms = o->api_backoff_ms;
	c->nio = natsio_start(&no, c->mb, err, usage);
	if (c->nio == NULL) {
		c->closed = 1;
		cluster_free(c);
		return NULL;
	}
	uv_timer_init(loop, &c->timer);
	c->timer.data = c;
	uv_idle_init(loop, &c->more);
	c->more.data = c;
	/* A heartbeat first, so that the first view already shows this node. */
	{
		struct cluster_local l;
		memset(&l, 0, sizeof l);
		l.state = "STARTING";
		cluster_heartbeat(c, &l);
	}
	uv_timer_start(&c->timer, cluster_tick_cb, CLUSTER_TICK_MS, CLUSTER_TICK_MS);
	return c;
}

static void cluster_free_now(struct cluster *c)
{
	unsigned p;

	for (p = 0; p < c->np; p++)
		cluster_replay_reset(&c->rp[p]);
	outbox_free(c->out);
	cluster_take_early(c, -1);
	while (c->in_head != NULL) {
		struct cluster_in *in = c->in_head;
		c->in_head = in->next;
		free(in->m);
		free(in);
	}
	free(c->acks);
	free(c->stopping);
	free(c->hold_until);
	free(c->stuck_since);
	free(c->grow);
	free(c->snap_bytes);
	free(c->delay_ms);
	free(c->peer_delay_ms);
	cluster_compact_reset(c);
	free(c->stuck_floor);
	free(c->subscribed);
	free(c->rp);
	fpset_free(c->filter);
	free(c->act);
	natsio_snapshot_free(c->snap);
	lease_free(c->lease);
	free(c->lease_value);
	buf_free(&c->scratch);
	buf_free(&c->canon);
	free((char *)c->o.url);
	free(c->shown);
	free((char *)c->o.crawl);
	free((char *)c->o.node);
	free((char *)c->o.jobdir);
	free(c);
}

static void cluster_handle_closed(uv_handle_t *h)
{
	struct cluster *c = h->data;

	if (--c->closing == 0)
		cluster_free_now(c);
}

void cluster_free(struct cluster *c)
{
	if (c == NULL)
		return;
	if (c->mb != NULL)
		mailbox_close(c->mb);
	c->mb = NULL;
	if (c->timer.data == NULL) {
		cluster_free_now(c);
		return;
	}
	/* The handles live inside c: it goes with the last of them. */
	c->closing = 2;
	uv_close((uv_handle_t *)&c->timer, cluster_handle_closed);
	uv_close((uv_handle_t *)&c->more, cluster_handle_closed);
}

/* Reports. */

json_t *cluster_stats_json(struct cluster *c)
{
	json_t *o = json_object();

	json_object_set_new(o, "node", json_string(c->o.node));
	json_object_set_new(o, "crawl_id", json_string(c->o.crawl));
	json_object_set_new(o, "partitions_held", json_integer(cluster_held_list(c, NULL)));
	outbox_stats(c->out, o);
	json_object_set_new(o, "links_scheduled_here", json_integer((json_int_t)c->links_local));
	json_object_set_new(o, "links_filtered", json_integer((json_int_t)c->filtered));
	json_object_set_new(o, "messages_received", json_integer((json_int_t)c->msgs_in));
	json_object_set_new(o, "bytes_received", json_integer((json_int_t)c->bytes_in));
	json_object_set_new(o, "records_received", json_integer((json_int_t)c->records_in));
	json_object_set_new(o, "replays", json_integer((json_int_t)c->replays));
	json_object_set_new(o, "replayed", json_integer((json_int_t)c->replayed));
	json_object_set_new(o, "claims", json_integer((json_int_t)c->claims));
	json_object_set_new(o, "releases", json_integer((json_int_t)c->releases));
	json_object_set_new(o, "losses", json_integer((json_int_t)c->losses));
	json_object_set_new(o, "messages_let_go", json_integer((json_int_t)c->let_go));
	json_object_set_new(o, "messages_early", json_integer((json_int_t)c->early));
	json_object_set_new(o, "connected", json_boolean(c->link_up));
	return o;
}

void cluster_report(struct cluster *c, struct buf *out, int json)
{
	clusterreport_render(
	    c->snap, c->o.crawl, c->shown, c->np, cluster_stats_json(c), out, json);
}

int cluster_report_offline(const char *url, const struct natsio_auth *auth, const char *crawl,
    unsigned partitions, struct buf *out, int json, char **err)
{
	struct natsio_snapshot *s = natsio_read(url, auth, crawl, partitions, err);
	char *shown;

	if (s == NULL)
		return -1;
	shown = urlcreds_hide(url);
	clusterreport_render(s, crawl, shown, partitions, NULL, out, json);
	free(shown);
	natsio_snapshot_free(s);
	return 0;
}
