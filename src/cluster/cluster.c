/* Cluster mode, the loop's side (cluster.h, doc/cluster.md): the node's
 * life and the public API. It opens and closes the node, takes what the
 * crawl publishes and asks (hand-offs, done records, may it fetch), hands
 * received records to the crawl, dispatches the events of the NATS
 * client's thread, and runs the tick; the rest it hands to the rooms
 * behind private.h (views, leases, replays). One timer (every
 * CLUSTER_TICK_MS) drives leases, publications and the heartbeat; events
 * from the NATS client's thread arrive through the mailbox; work left over
 * from one loop iteration (received records, a replay's URIs) continues
 * from an idle handle, a bounded amount each time. */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/private.h"
#include "cluster/clusterreport.h"
#include "lib/curi.h"
#include "lib/urlcreds.h"

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
#define CLUSTER_IDLE_MS 500
/* Records handed to the crawl per loop iteration (received or replayed). */
#define CLUSTER_RECORDS_PER_PASS 4096
/* The bounded filter against handing the same link off again. */
#define CLUSTER_FILTER_SLOTS (1u << 19)
/* Leaving gives pending publications this long to be stored. */
#define CLUSTER_LEAVE_MS 10000

int cluster_partition_of(struct cluster *c, const char *href)
{
	return partition_of_url(href, c->np, c->o.by, c->o.assign, &c->scratch);
}

static void cluster_more(struct cluster *c);

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
		used += clusterreplay_feed(c, CLUSTER_RECORDS_PER_PASS - used);
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
			clusterlease_do(c, a,
			    lease_claimed(c->lease, kv->partition, kv->result, kv->rev, kv->sent_ms,
				a, c->nact));
		else if (kv->op == NATSIO_RENEW)
			clusterlease_do(c, a,
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
			clusterreplay_compact_chunk(c, (struct natsio_replay *)it);
		else
			clusterreplay_chunk(c, (struct natsio_replay *)it);
		break;
	case NATSIO_EV_COMPACTED:
		clusterreplay_compacted(c, (struct natsio_part *)it);
		break;
	case NATSIO_EV_SUBSCRIBED: {
		struct natsio_part *m = (struct natsio_part *)it;
		c->subscribed[m->partition] = 0;
		if (m->ok) {
			c->subscribed[m->partition] = 1;
			/* Its replay's records are scheduled next (cluster_more). */
			if (lease_state_of(c->lease, m->partition) != LEASE_REPLAYING ||
			    c->leaving) {
				clusterreplay_reset(&c->rp[m->partition]);
				clusterreplay_take_early(c, (int)m->partition);
				/* Given up while it was being rebuilt. */
				cluster_send_part(c, NATSIO_UNSUBSCRIBE, m->partition, 0);
				c->subscribed[m->partition] = 2;
			}
		} else {
			cluster_log(
			    c, "cluster: partition %u: %s; replaying again", m->partition, m->err);
			clusterreplay_reset(&c->rp[m->partition]);
			clusterreplay_take_early(c, (int)m->partition);
			c->rp[m->partition].retry_at = cluster_now() + CLUSTER_RETRY_MS;
		}
		break;
	}
	case NATSIO_EV_UNSUBSCRIBED:
		c->subscribed[((struct natsio_part *)it)->partition] = 0;
		break;
	case NATSIO_EV_SNAPSHOT:
		clusterview_on_snapshot(c, (struct natsio_snapshot *)it);
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
	clusterlease_do(c, a, lease_tick(c->lease, now, a, c->nact));
	outbox_tick(c->out, now, c->leaving);
	clusterlease_finish_stops(c);
	for (p = 0; p < c->np; p++)
		if (c->rp[p].retry_at != 0 && c->rp[p].retry_at <= now &&
		    lease_state_of(c->lease, p) == LEASE_REPLAYING)
			clusterreplay_start(c, p);
	clusterreplay_compact_maybe(c);
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
		clusterview_local_idle(c, &l, 0, 1, &el);
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
		clusterview_local_idle(c, &l, 0, 1, &el);
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
		if (!clusterview_may_claim(c))
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
		clusterlease_do(c, a, lease_release_all(c->lease, a, c->nact));
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
	clusterlease_do(c, a, lease_release_all(c->lease, a, c->nact));
	/* Hand-offs received and not yet written are redelivered to the next
	 * owner (the crawl's last flush acknowledged the rest). */
	clusterreplay_take_early(c, -1);
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
		clusterview_heartbeat(c, &l);
	}
	uv_timer_start(&c->timer, cluster_tick_cb, CLUSTER_TICK_MS, CLUSTER_TICK_MS);
	return c;
}

static void cluster_free_now(struct cluster *c)
{
	unsigned p;

	for (p = 0; p < c->np; p++)
		clusterreplay_reset(&c->rp[p]);
	outbox_free(c->out);
	clusterreplay_take_early(c, -1);
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
	clusterreplay_compact_reset(c);
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
	json_object_set_new(o, "partitions_held", json_integer(clusterview_held_list(c, NULL)));
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
