/* Cluster mode, the loop's side (doc/cluster.md): several tern processes
 * share one crawl over NATS JetStream. This file decides; natsio.c only
 * carries out its commands on the NATS client's thread.
 *
 * What it does for the crawl:
 * - partitions: every URI belongs to one of a fixed number of partitions,
 *   each held by one node at a time under a lease (cluster/lease.h);
 * - hand-off: every link the crawl discovers (and every seed) is published
 *   to its partition's subject of the crawl's stream, whoever owns it; the
 *   owner schedules what it receives and acknowledges a message only after
 *   the frontier write holding its URIs (cluster_flushed);
 * - the log of record: the stream keeps every hand-off and every finished
 *   URI (done records, published once their page's links are stored), so a
 *   node that takes a partition over rebuilds its queues from the stream:
 *   what was handed to it, less what is done;
 * - the end (cluster/clusterend.h), control actions to every node, heartbeats
 *   and the cluster report.
 *
 * The crawl calls in (cluster_offer, cluster_may_fetch, cluster_done...)
 * and is called back through struct cluster_hooks; nothing here knows the
 * crawl's types. Everything runs on the loop's thread. */
#ifndef TERN_CLUSTER_H
#define TERN_CLUSTER_H
#include <stddef.h>
#include <stdint.h>
#include <uv.h>
#include "cluster/natsio.h"
#include "lib/buf.h"
#include "lib/handoff.h"
#include "lib/partition.h"

struct cluster;

struct cluster_opts {
	const char *url;
	struct natsio_auth auth; /* TLS and credentials (tern.conf(5), [cluster]) */
	const char *crawl;	 /* crawl id */
	const char *node;	 /* node id */
	const char *jobdir;	 /* shown in the cluster report */
	unsigned partitions;
	/* Settings every node must share, checked at join (crawl.mode and
	 * more: doc/cluster.md); read only while opening. */
	const struct natsio_agree *agree;
	size_t nagree;
	uint64_t lease_ms;
	int replicas;
	/* JetStream calls: how long one may wait for its answer, and how a
	 * call that timed out is retried (natsio.h). */
	uint64_t api_timeout_ms, api_backoff_ms;
	unsigned api_retries;
	enum partition_by by;
	int assign;	      /* frontier.queue-assignment (by queue) */
	unsigned canon_flags; /* the crawl's canonicalization, for replays */
	/* A partition claimed after another node gave it up (or this node's
	 * earlier run held it) is not fetched from for this long after the
	 * claim: the politeness delay its hosts' last requests from there
	 * may still ask for. */
	uint64_t handover_ms;
	/* A held partition whose log grew this much since its last
	 * compaction is compacted (0: never). */
	uint64_t compact_bytes;
};

/* What the crawl tells the heartbeat and the end rule. */
struct cluster_local {
	int frontier_finished;
	unsigned in_flight;
	const char *state; /* the crawl's state word */
	uint64_t pages, bytes, queued, failures;
	double pages_per_s;
};

struct cluster_hooks {
	void *ctx;
	/* A URI handed to a partition held here: schedule it (resolve its
	 * canonical and queue keys, frontier_schedule; force as given). */
	void (*schedule)(void *ctx, const struct handoff_url *r, int force);
	/* A URI some owner of one of our partitions finished: mark its
	 * canonical key seen without queueing it. */
	void (*mark_seen)(void *ctx, const char *canon);
	/* A continuous crawl's URI finished there (its last done record, with
	 * its frontier record): it waits here for its revisit, due when that
	 * record says. */
	void (*revisit)(void *ctx, const struct handoff_done *d);
	/* Abandon the fetches in flight in partition p (they end later,
	 * never inside this call). */
	void (*suspend)(void *ctx, unsigned p);
	/* How many fetches of partition p are in flight. */
	unsigned (*in_flight)(void *ctx, unsigned p);
	/* Drop the URIs queued in partition p (nothing of it in flight). */
	int (*drop)(void *ctx, unsigned p);
	/* A seed given to any node, or made by a seed's redirect: add it to
	 * the scope, and its host to the seeds' hosts unless guarded
	 * (lib/handoff.h). */
	void (*seed)(void *ctx, const char *uri, int guarded);
	/* An operator action another node passed on ("pause", "unpause",
	 * "stop", "checkpoint", "reconsider-retired", "settings" with a JSON
	 * body). */
	/* An action another node passed on; node is the id it gave. */
	void (*control)(void *ctx, const char *node, const char *action, const char *body);
	void (*status)(void *ctx, struct cluster_local *out);
	/* The crawl is over cluster-wide (every node gets this). */
	void (*finished)(void *ctx);
	/* A line for logs/tern.log. */
	void (*log)(void *ctx, const char *msg);
};

/* Connects and joins (blocking: call before the loop runs). NULL and *err
 * on failure, *usage set for a configuration error (exit 2). */
struct cluster *cluster_open(uv_loop_t *loop, const struct cluster_opts *o,
    const struct cluster_hooks *h, char **err, int *usage);

/* The partition of an absolute URI, or -1. */
int cluster_partition_of(struct cluster *c, const char *href);

/* A discovered link (or the URIs of a redirect) for the stream: 1 sent,
 * 0 already sent recently (the bounded filter), -1 not writable as a
 * record. */
int cluster_offer(struct cluster *c, const struct handoff_url *r);
/* A seed from the command line or the seed file, or made by a seed's
 * redirect (r->flags has CURI_SEED, and CURI_GUARDED for one whose host
 * stays under the address guard; HANDOFF_FORCE to schedule it even if
 * seen): recorded for every node's scope and handed to its partition. */
int cluster_seed(struct cluster *c, const struct handoff_url *r);

/* May the URI the frontier just gave out be fetched here now? 0 when its
 * partition is not held, is being given up, or its lease window is closed
 * (the caller defers it). */
int cluster_may_fetch(struct cluster *c, const char *uri);
/* A final disposition of a URI (success, failure or disregard): a done
 * record (in a continuous crawl with its frontier record: its fetch history
 * and next due time), published after the next flush and once every link
 * discovered before it is stored. delay_ms is the politeness wait the
 * URI's host asked for after it: a partition whose hosts ask for longer
 * than the hand-over hold (a robots.txt Crawl-delay) tells the node that
 * takes it over to wait that long (doc/cluster.md, "Partitions and
 * leases"). */
void cluster_done(struct cluster *c, const struct handoff_done *d, uint64_t delay_ms);
/* The crawl has written its records, logs and frontier batch: hand-offs
 * scheduled before now may be acknowledged, done records may go out. */
void cluster_flushed(struct cluster *c);

/* Passes an operator action on to every other node. */
void cluster_control(struct cluster *c, const char *action, const char *body);

/* Leaves the cluster: stops handing work out, gives up every partition,
 * lets the last publications be stored, closes the connection and joins
 * its thread; then calls left(ctx) (on a later loop iteration) and may be
 * freed with cluster_free. */
void cluster_leave(struct cluster *c, void (*left)(void *ctx), void *ctx);
void cluster_free(struct cluster *c);

/* The cluster report: every node, its partitions, rates and queue counts
 * (as of the last heartbeats), and this node's hand-off figures. */
void cluster_report(struct cluster *c, struct buf *out, int json);
/* The same read from NATS directly, for a node that is not running (no
 * figures of its own then). 0, or -1 and *err. */
int cluster_report_offline(const char *url, const struct natsio_auth *auth, const char *crawl,
    unsigned partitions, struct buf *out, int json, char **err);
/* This node's figures for stats.json and /metrics (a new JSON object). */
struct json_t *cluster_stats_json(struct cluster *c);

#endif
