/* This crawl as a cluster node (clusternode.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster/cluster.h"
#include "crawl/clusternode.h"
#include "crawl/schedule.h"
#include "crawl/visit.h"
#include "frontier/frontier.h"
#include "lib/canon.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "crawl/seedhosts.h"
#include "lib/curi.h"
#include "lib/handoff.h"
#include "lib/history.h"
#include "lib/partition.h"
#include "crawl/scope.h"
#include "lib/surt.h"
#include "lib/xmalloc.h"

/* How long a URI whose partition may not be fetched now waits. */
#define CLUSTERNODE_DEFER_MS 1000

struct clusternode {
	struct clusternode_env env;
	struct cluster *c;
	struct visit_pool *visits;
	char *node_id;
};

/* The partition test handed to the visits and the frontier. */
struct clusternode_match {
	struct clusternode *n;
	unsigned partition;
};

int clusternode_configured(const struct config *cfg)
{
	return config_str(cfg, CK_CLUSTER_URL)[0] != '\0';
}

static void clusternode_log(void *ctx, const char *msg)
{
	struct clusternode *n = ctx;

	n->env.log(n->env.ctx, msg);
}

/* A seed, from any node: the scope of every node has it, and unless
 * guarded its host is exempt from the address guard here as on the node
 * that was given it (crawl/seedhosts.h). */
static void clusternode_seed(void *ctx, const char *uri, int guarded)
{
	struct clusternode *n = ctx;

	scope_add_seed(n->env.scope, uri);
	if (!guarded && n->env.seedhosts != NULL)
		seedhosts_add_url(n->env.seedhosts, uri);
}

static void clusternode_schedule(void *ctx, const struct handoff_url *r, int force)
{
	struct clusternode *n = ctx;
	struct schedule_hint hint = {r->interval_s, r->precedence};

	/* The owner takes a seed as a seed before it fetches it, whichever
	 * of the seed record and this one comes first: the links of a page
	 * a seed's redirect led to are judged by a scope that has it. */
	if (r->flags & CURI_SEED)
		clusternode_seed(n, r->uri, (r->flags & CURI_GUARDED) != 0);

	schedule_received(n->env.sched, r->uri, r->via, r->hops, r->flags & ~HANDOFF_FORCE, force,
	    r->interval_s != 0 || r->precedence != 0 ? &hint : NULL);
}

/* A URI another owner of the partition visited in a continuous crawl: it
 * waits here for its revisit, with the history it had there. */
static void clusternode_revisit(void *ctx, const struct handoff_done *d)
{
	struct clusternode *n = ctx;
	struct curi *c;

	if (frontier_revisit_decode(d->revisit, d->revisit_len, &c) < 0 ||
	    strcmp(c->uri, d->uri) != 0) {
		char *msg = xasprintf("cluster: the revisit record of %s refused: not a URI "
				      "record of it with a fetch history (doc/frontier.md)",
		    d->uri);
		n->env.log(n->env.ctx, msg);
		free(msg);
		curi_free(c);
		return;
	}
	schedule_waiting(n->env.sched, c);
	curi_free(c);
}

static void clusternode_mark_seen(void *ctx, const char *canon)
{
	struct clusternode *n = ctx;

	frontier_mark_seen(n->env.frontier, canon);
}

static int clusternode_any(void *ctx, const char *uri)
{
	(void)ctx;
	(void)uri;
	return 1;
}

static int clusternode_in_partition(void *ctx, const char *uri)
{
	struct clusternode_match *m = ctx;

	return cluster_partition_of(m->n->c, uri) == (int)m->partition;
}

static void clusternode_suspend(void *ctx, unsigned p)
{
	struct clusternode *n = ctx;
	struct clusternode_match m = {n, p};

	if (n->visits != NULL)
		visit_abandon_where(n->visits, clusternode_in_partition, &m);
}

static unsigned clusternode_in_flight(void *ctx, unsigned p)
{
	struct clusternode *n = ctx;
	struct clusternode_match m = {n, p};

	return n->visits != NULL
	    ? (unsigned)visit_count_where(n->visits, clusternode_in_partition, &m)
	    : 0;
}

static int clusternode_drop(void *ctx, unsigned p)
{
	struct clusternode *n = ctx;
	struct clusternode_match m = {n, p};
	char *err = NULL;
	long dropped = frontier_drop_where(n->env.frontier, clusternode_in_partition, &m, &err);

	if (dropped < 0) {
		char *msg = xasprintf("cluster: partition %u: %s", p, err);
		n->env.log(n->env.ctx, msg);
		free(msg);
		free(err);
		return -1;
	}
	if (dropped > 0) {
		char *msg = xasprintf(
		    "cluster: partition %u: %ld queued or waiting URIs dropped (the stream has them)",
		    p, dropped);
		n->env.log(n->env.ctx, msg);
		free(msg);
	}
	return 0;
}

static void clusternode_control(void *ctx, const char *node, const char *action, const char *body)
{
	struct clusternode *n = ctx;

	n->env.control(n->env.ctx, node, action, body);
}

static void clusternode_status(void *ctx, struct cluster_local *out)
{
	struct clusternode *n = ctx;

	n->env.status(n->env.ctx, out);
}

static void clusternode_finished(void *ctx)
{
	struct clusternode *n = ctx;

	n->env.finished(n->env.ctx);
}

static int clusternode_id_ok(const char *id)
{
	size_t i, n = strlen(id);

	if (n == 0 || n > 64)
		return 0;
	for (i = 0; i < n; i++) {
		char c = id[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '-' || c == '_'))
			return 0;
	}
	return 1;
}

void clusternode_auth(const struct config *cfg, struct natsio_auth *a)
{
	memset(a, 0, sizeof *a);
	a->tls_ca = config_str(cfg, CK_CLUSTER_TLS_CA_FILE);
	a->tls_cert = config_str(cfg, CK_CLUSTER_TLS_CERT_FILE);
	a->tls_key = config_str(cfg, CK_CLUSTER_TLS_KEY_FILE);
	a->tls_hostname = config_str(cfg, CK_CLUSTER_TLS_HOSTNAME);
	a->creds = config_str(cfg, CK_CLUSTER_CREDS_FILE);
	a->nkey = config_str(cfg, CK_CLUSTER_NKEY_FILE);
}

/* The canonicalize.* settings as one text ("lowercase=true ..."): nodes
 * that write one URI in different forms would fetch it twice. */
static void clusternode_canon_text(const struct config *cfg, struct buf *out)
{
	for (int k = 0; k < CK__COUNT; k++)
		if (strncmp(config_name((enum config_key)k), "canonicalize.", 13) == 0)
			buf_appendf(out, "%s%s=%s", out->len > 0 ? " " : "",
			    config_name((enum config_key)k) + 13,
			    config_text(cfg, (enum config_key)k));
}

int clusternode_open(
    uv_loop_t *loop, const struct clusternode_env *env, struct clusternode **out, char **err)
{
	const struct config *cfg = env->cfg;
	const char *crawl = config_str(cfg, CK_CLUSTER_CRAWL_ID);
	int assign = config_enum(cfg, CK_FRONTIER_QUEUE_ASSIGNMENT);
	int by = config_enum(cfg, CK_CLUSTER_PARTITION_BY);
	struct clusternode *n = NULL;
	struct cluster_opts o;
	struct cluster_hooks h;
	struct natsio_agree agree[4];
	struct buf canon = BUF_INIT;
	int usage = 0, rc = 0;
	long dropped, forgotten;

	*out = NULL;
	*err = NULL;
	if (!clusternode_configured(cfg))
		return 0;
	if (!clusternode_id_ok(crawl)) {
		*err = xasprintf("cluster.crawl-id: %s (letters, digits, '-' and '_', "
				 "up to 64; every node of one crawl gives the same)",
		    crawl[0] ? "not a valid name" : "required with cluster.url");
		rc = CLUSTERNODE_EUSAGE;
		goto out;
	}
	/* An address's queue gathers hosts of different partitions (and moves
	 * URIs between queues once names resolve). */
	if (assign == SURT_ASSIGN_IP) {
		*err = xstrdup("frontier.queue-assignment = ip cannot be used in cluster mode "
			       "(an address's queue would span partitions)");
		rc = CLUSTERNODE_EUSAGE;
		goto out;
	}
	n = xcalloc(1, sizeof *n);
	n->env = *env;
	if (config_str(cfg, CK_CLUSTER_NODE_ID)[0] != '\0') {
		n->node_id = xstrdup(config_str(cfg, CK_CLUSTER_NODE_ID));
	} else {
		char host[256] = "localhost", *abs = realpath(env->jobdir, NULL);
		gethostname(host, sizeof host - 1);
		n->node_id = xasprintf("%s:%s", host, abs != NULL ? abs : env->jobdir);
		free(abs);
	}
	memset(&o, 0, sizeof o);
	o.url = config_str(cfg, CK_CLUSTER_URL);
	o.crawl = crawl;
	o.node = n->node_id;
	o.jobdir = env->jobdir;
	o.partitions = (unsigned)config_int(cfg, CK_CLUSTER_PARTITIONS);
	clusternode_auth(cfg, &o.auth);
	/* What every node of the crawl must share besides the partition count
	 * (doc/cluster.md, "Partitions and leases"): the mode (the end), how
	 * a URI's partition is found (who owns it), and its canonical form
	 * (what is one URI). */
	clusternode_canon_text(cfg, &canon);
	agree[0].key = "mode";
	agree[0].name = "crawl.mode";
	agree[0].value = config_enum(cfg, CK_CRAWL_MODE) == 1 ? "continuous" : "once";
	agree[1].key = "partition-by";
	agree[1].name = "cluster.partition-by";
	agree[1].value = config_text(cfg, CK_CLUSTER_PARTITION_BY);
	agree[2].key = "queue-assignment";
	agree[2].name = "frontier.queue-assignment";
	agree[2].value = config_text(cfg, CK_FRONTIER_QUEUE_ASSIGNMENT);
	agree[3].key = "canonicalize";
	agree[3].name = "canonicalize.*";
	agree[3].value = canon.data != NULL ? canon.data : "";
	o.agree = agree;
	o.nagree = sizeof agree / sizeof agree[0];
	o.lease_ms = (uint64_t)config_int(cfg, CK_CLUSTER_LEASE_SECONDS) * 1000;
	o.replicas = (int)config_int(cfg, CK_CLUSTER_REPLICAS);
	o.api_timeout_ms = (uint64_t)config_int(cfg, CK_CLUSTER_API_TIMEOUT_MS);
	o.api_retries = (unsigned)config_int(cfg, CK_CLUSTER_API_RETRIES);
	o.api_backoff_ms = (uint64_t)config_int(cfg, CK_CLUSTER_API_BACKOFF_MS);
	o.compact_bytes = (uint64_t)config_int(cfg, CK_CLUSTER_COMPACT_KIB) * 1024;
	o.by = by == 1 ? PARTITION_BY_QUEUE : PARTITION_BY_DOMAIN;
	o.assign = assign;
	o.canon_flags = canon_flags(cfg);
	/* The other node's last request to each host is not known here: wait
	 * the delay politeness asks after a request, as configured (min-delay,
	 * or max-delay when the delay grows with the fetch's time). A longer
	 * wait the partition's hosts asked of the other node (a robots.txt
	 * Crawl-delay, a per-site override) comes in its heartbeat. */
	o.handover_ms = (uint64_t)config_int(cfg, CK_POLITENESS_MIN_DELAY_MS);
	if (config_double(cfg, CK_POLITENESS_DELAY_FACTOR) > 0 &&
	    (uint64_t)config_int(cfg, CK_POLITENESS_MAX_DELAY_MS) > o.handover_ms)
		o.handover_ms = (uint64_t)config_int(cfg, CK_POLITENESS_MAX_DELAY_MS);
	memset(&h, 0, sizeof h);
	h.ctx = n;
	h.schedule = clusternode_schedule;
	h.mark_seen = clusternode_mark_seen;
	h.revisit = clusternode_revisit;
	h.suspend = clusternode_suspend;
	h.in_flight = clusternode_in_flight;
	h.drop = clusternode_drop;
	h.seed = clusternode_seed;
	h.control = clusternode_control;
	h.status = clusternode_status;
	h.finished = clusternode_finished;
	h.log = clusternode_log;
	n->c = cluster_open(loop, &o, &h, err, &usage);
	if (n->c == NULL) {
		free(n->node_id);
		free(n);
		n = NULL;
		rc = usage ? CLUSTERNODE_EUSAGE : CLUSTERNODE_EFAIL;
		goto out;
	}
	/* A node's frontier holds only the partitions it holds, and it holds
	 * none yet: what a resumed store still queues goes (the stream has
	 * it), and each partition it claims is rebuilt from the stream. From
	 * here a failure still hands the node out, to leave its cluster. */
	dropped = frontier_drop_where(env->frontier, clusternode_any, NULL, err);
	if (dropped < 0) {
		rc = CLUSTERNODE_EFAIL;
		goto out;
	}
	if (dropped > 0) {
		char *msg = xasprintf(
		    "cluster: %ld URIs the store queued or kept waiting dropped; the partitions "
		    "this node claims are rebuilt from the stream",
		    dropped);
		n->env.log(n->env.ctx, msg);
		free(msg);
	}
	/* Nor does its seen set answer for the cluster: a node killed may
	 * have stored URIs as seen whose records never reached the stream;
	 * found again on a page fetched again, they must be scheduled. The
	 * replays mark what is done. */
	forgotten = frontier_forget_seen(env->frontier, err);
	if (forgotten < 0) {
		rc = CLUSTERNODE_EFAIL;
		goto out;
	}
	if (forgotten > 0) {
		char *msg = xasprintf("cluster: the store's seen set (%ld URIs) forgotten; the "
				      "stream's done records mark them again",
		    forgotten);
		n->env.log(n->env.ctx, msg);
		free(msg);
	}
out:
	buf_free(&canon);
	*out = n;
	return rc;
}

void clusternode_set_visits(struct clusternode *n, struct visit_pool *visits)
{
	n->visits = visits;
}

int clusternode_handoff(void *ctx, const char *href, const char *via, const char *hops,
    unsigned flags, int force, const struct schedule_hint *hint)
{
	struct clusternode *n = ctx;
	struct handoff_url r;

	memset(&r, 0, sizeof r);
	if (flags & CURI_SEED) {
		r.flags = flags | (force ? HANDOFF_FORCE : 0);
		r.hops = hops != NULL ? hops : "";
		r.uri = href;
		r.via = via;
		return cluster_seed(n->c, &r) == 0;
	}
	if (hint != NULL) {
		r.interval_s = hint->interval_s;
		r.precedence = hint->precedence;
	}
	r.flags = flags | (force ? HANDOFF_FORCE : 0);
	r.hops = hops != NULL ? hops : "";
	r.uri = href;
	r.via = via;
	return cluster_offer(n->c, &r) == 1;
}

int clusternode_admit(struct clusternode *n, struct curi *c)
{
	if (cluster_may_fetch(n->c, c->uri))
		return 1;
	frontier_finish(n->env.frontier, c, FRONTIER_DEFER, clock_wall_ms(), CLUSTERNODE_DEFER_MS);
	return 0;
}

int clusternode_may_send(struct clusternode *n, const char *uri)
{
	char *msg;

	if (cluster_may_fetch(n->c, uri))
		return 1;
	/* Rare (a visit that outlived its window: a stopped process), and at
	 * most a connection's worth at a time. */
	msg = xasprintf("cluster: a request for %s not sent: its partition's lease window closed "
			"since its visit began",
	    uri);
	n->env.log(n->env.ctx, msg);
	free(msg);
	return 0;
}

void clusternode_disposed(void *ctx, const struct curi *c, uint64_t due_ms, uint64_t delay_ms)
{
	struct clusternode *n = ctx;
	struct handoff_done d = {c->uri, NULL, 0};
	struct buf rec = BUF_INIT;

	/* A continuous crawl's done record carries what the URI's `v` record
	 * holds: whoever rebuilds the partition re-creates its revisit. */
	if (due_ms > 0 && c->history != NULL) {
		struct curi at = *c;
		struct history h = *c->history;

		/* Due when the frontier parks it (shallow copies: nothing of
		 * them is freed). */
		h.due_ms = (int64_t)due_ms;
		at.history = &h;
		frontier_revisit_encode(&at, &rec);
		d.revisit = (const unsigned char *)rec.data;
		d.revisit_len = rec.len;
	}
	cluster_done(n->c, &d, delay_ms);
	buf_free(&rec);
}

void clusternode_flushed(struct clusternode *n)
{
	cluster_flushed(n->c);
}

void clusternode_pass(struct clusternode *n, const char *action, const char *body)
{
	cluster_control(n->c, action, body);
}

void clusternode_leave(struct clusternode *n, void (*left)(void *arg), void *arg)
{
	cluster_leave(n->c, left, arg);
}

void clusternode_free(struct clusternode *n)
{
	if (n == NULL)
		return;
	cluster_free(n->c);
	free(n->node_id);
	free(n);
}

void clusternode_report(struct clusternode *n, struct buf *out, int json)
{
	cluster_report(n->c, out, json);
}

struct json_t *clusternode_stats_json(struct clusternode *n)
{
	return cluster_stats_json(n->c);
}
