/* Rebuilding a partition from the stream (doc/cluster.md): the replay of
 * its log when this node takes it (what was handed to it, less what is
 * done), the subscription to its live hand-offs after the log, the
 * messages those delivered early, and compaction, which reduces a held
 * partition's log to what a replay needs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/private.h"
#include "lib/canon.h"

/* Replays: records collect until the log is read; then what was given and
 * is not done is scheduled (forced: the seen set of this node may know the
 * URI from an earlier ownership whose queues were dropped). */

struct clusterreplay_ctx {
	struct cluster *c;
	struct cluster_replay *r;
};

static uint64_t clusterreplay_canon_fp(struct cluster *c, const char *uri)
{
	if (canon_key(uri, c->o.canon_flags, &c->canon) < 0)
		return fpset_hash(uri, strlen(uri));
	return fpset_hash(c->canon.data, c->canon.len);
}

void clusterreplay_reset(struct cluster_replay *r)
{
	fpset_free(r->done);
	fpset_free(r->given);
	buf_free(&r->pending);
	donelog_free(r->rv);
	memset(r, 0, sizeof *r);
}

void clusterreplay_start(struct cluster *c, unsigned p)
{
	struct cluster_replay *r = &c->rp[p];

	/* Whatever this node still queues for the partition (from an earlier
	 * ownership, or its store before a restart) goes: the log rebuilds
	 * it, less what others finished since. */
	if (c->h.drop(c->h.ctx, p) < 0)
		cluster_log(c, "cluster: partition %u: dropping its old queues failed", p);
	clusterreplay_reset(r);
	r->active = 1;
	r->done = fpset_exact();
	r->given = fpset_exact();
	r->started_ms = cluster_now();
	c->replays++;
	cluster_send_part(c, NATSIO_REPLAY, p, 0);
}

static void clusterreplay_done_cb(void *ctx, const struct handoff_done *d)
{
	struct clusterreplay_ctx *x = ctx;
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

static void clusterreplay_url_cb(void *ctx, const struct handoff_url *u)
{
	struct clusterreplay_ctx *x = ctx;

	if (fpset_test_add(x->r->given, clusterreplay_canon_fp(x->c, u->uri)))
		return;
	handoff_append_url(&x->r->pending, u);
}

void clusterreplay_chunk(struct cluster *c, struct natsio_replay *e)
{
	struct cluster_replay *r = &c->rp[e->partition];
	struct clusterreplay_ctx x = {c, r};
	size_t i;

	if (!r->active)
		return;
	if (e->failed) {
		cluster_log(c, "cluster: partition %u: %s; replaying again", e->partition, e->err);
		clusterreplay_reset(r);
		r->retry_at = cluster_now() + CLUSTER_RETRY_MS;
		return;
	}
	for (i = 0; i < e->n; i++) {
		char *err = NULL;
		char *d = e->data + e->off[i];
		char save = d[e->len[i]];
		d[e->len[i]] = '\0';
		if ((e->kind[i] == NATSIO_DONE
			    ? handoff_parse_done(d, e->len[i], clusterreplay_done_cb, &x, &err)
			    : handoff_parse_urls(d, e->len[i], clusterreplay_url_cb, &x, &err)) <
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

void clusterreplay_compact_reset(struct cluster *c)
{
	fpset_free(c->cp.given);
	donelog_free(c->cp.done);
	buf_free(&c->cp.urls);
	memset(&c->cp, 0, sizeof c->cp);
}

void clusterreplay_compact_maybe(struct cluster *c)
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

static void clusterreplay_compact_done_cb(void *ctx, const struct handoff_done *d)
{
	struct cluster *c = ctx;

	donelog_add(c->cp.done, clusterreplay_canon_fp(c, d->uri), d);
}

static void clusterreplay_compact_url_cb(void *ctx, const struct handoff_url *u)
{
	struct cluster *c = ctx;

	if (!fpset_test_add(c->cp.given, clusterreplay_canon_fp(c, u->uri)))
		handoff_append_url(&c->cp.urls, u);
}

static void clusterreplay_compact_keep_cb(void *ctx, const struct handoff_url *u)
{
	struct cluster *c = ctx;
	struct buf *out = c->cp.active ? &c->compact_out : NULL;

	if (out != NULL && !donelog_has(c->cp.done, clusterreplay_canon_fp(c, u->uri)))
		handoff_append_url(out, u);
}

void clusterreplay_compact_chunk(struct cluster *c, struct natsio_replay *e)
{
	struct natsio_compact *w;
	const char *dones;
	size_t i, dones_len;

	if (!c->cp.active || e->partition != c->cp.p)
		return;
	if (e->failed) {
		cluster_log(c, "cluster: partition %u: compaction: %s; tried again later",
		    e->partition, e->err);
		clusterreplay_compact_reset(c);
		return;
	}
	for (i = 0; i < e->n; i++) {
		char *d = e->data + e->off[i];
		char save = d[e->len[i]];
		d[e->len[i]] = '\0';
		if (e->kind[i] == NATSIO_DONE)
			handoff_parse_done(d, e->len[i], clusterreplay_compact_done_cb, c, NULL);
		else
			handoff_parse_urls(d, e->len[i], clusterreplay_compact_url_cb, c, NULL);
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
		    c->cp.urls.data, c->cp.urls.len, clusterreplay_compact_keep_cb, c, NULL);
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

void clusterreplay_compacted(struct cluster *c, struct natsio_part *e)
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
	clusterreplay_compact_reset(c);
}

static void clusterreplay_schedule_cb(void *ctx, const struct handoff_url *u)
{
	struct clusterreplay_ctx *x = ctx;

	if (fpset_has(x->r->done, clusterreplay_canon_fp(x->c, u->uri)))
		return;
	x->c->replayed++;
	x->r->scheduled++;
	x->c->h.schedule(x->c->h.ctx, u, 1);
}

static void clusterreplay_revisit_cb(void *ctx, const struct handoff_done *d)
{
	struct clusterreplay_ctx *x = ctx;

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
size_t clusterreplay_feed(struct cluster *c, size_t budget)
{
	size_t used = 0;
	unsigned p;

	for (p = 0; p < c->np && used < budget; p++) {
		struct cluster_replay *r = &c->rp[p];
		struct clusterreplay_ctx x = {c, r};
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
			handoff_parse_urls(start, n, clusterreplay_schedule_cb, &x, NULL);
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
			if (handoff_parse_done(line, n, clusterreplay_revisit_cb, &x, &err) < 0) {
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
			clusterreplay_reset(r);
			if (lease_state_of(c->lease, p) == LEASE_REPLAYING && !c->leaving)
				lease_replayed(c->lease, p);
			clusterreplay_take_early(c, (int)p);
		}
	}
	return used;
}

/* Partition p's rebuilding is over, done or not (p < 0: every partition):
 * what it delivered early joins the inbound list again, to be taken (or
 * let go) as any message. */
void clusterreplay_take_early(struct cluster *c, int p)
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
