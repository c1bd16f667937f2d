/* This crawl as a node of a cluster crawl (doc/cluster.md): the crawl's
 * side of src/cluster/cluster.h. It reads [cluster] from the configuration,
 * joins, and answers the cluster's hooks with this crawl's frontier,
 * scheduling and visits; the crawl loop calls it at its few meeting points
 * (a link to hand off, a URI about to be fetched, a disposition, the flush,
 * the end). It never calls the crawl loop but through struct
 * clusternode_env's hooks. */
#ifndef TERN_CLUSTERNODE_H
#define TERN_CLUSTERNODE_H
#include <uv.h>

#include "cluster/cluster.h"
#include "lib/buf.h"

struct config;
struct curi;
struct frontier;
struct schedule;
struct schedule_hint;
struct scope;
struct seedhosts;
struct visit_pool;
struct json_t;

struct clusternode_env {
	const struct config *cfg;
	struct frontier *frontier;
	struct schedule *sched;
	struct scope *scope;
	struct seedhosts *seedhosts; /* the hosts of every node's seeds */
	const char *jobdir;
	void *ctx;
	void (*log)(void *ctx, const char *msg);
	void (*status)(void *ctx, struct cluster_local *out);
	/* The crawl is over cluster-wide. */
	void (*finished)(void *ctx);
	/* An operator action another node passed on. */
	void (*control)(void *ctx, const char *node, const char *action, const char *body);
};

struct clusternode;

/* Is cluster mode configured (cluster.url set)? */
int clusternode_configured(const struct config *cfg);
/* The [cluster] TLS and credential settings of cfg (pointers into it). */
struct natsio_auth;
void clusternode_auth(const struct config *cfg, struct natsio_auth *a);
/* Why clusternode_open refused (with *err, caller frees); the commands
 * choose the exit status (tern(1), EXIT STATUS). */
#define CLUSTERNODE_EUSAGE (-2) /* the configuration cannot be used */
#define CLUSTERNODE_EFAIL (-1)	/* NATS, or the store */

/* Checks [cluster] and the settings it cannot work with, connects and
 * joins (blocking, before the loop runs). 0 and *out (NULL when cluster
 * mode is not configured), or CLUSTERNODE_EUSAGE or CLUSTERNODE_EFAIL and
 * *err; once joined, a failure still sets *out, for the caller to leave. */
int clusternode_open(
    uv_loop_t *loop, const struct clusternode_env *env, struct clusternode **out, char **err);
/* The visits, once the crawl has made their pool. */
void clusternode_set_visits(struct clusternode *n, struct visit_pool *visits);

/* struct schedule_opts.handoff: a URI past the scope goes to the stream
 * (with a sitemap's hint, when it has one). */
int clusternode_handoff(void *ctx, const char *href, const char *via, const char *hops,
    unsigned flags, int force, const struct schedule_hint *hint);
/* The frontier gave c out: 1 to fetch it, or 0 after giving it back
 * (deferred a second) because its partition may not be fetched here now. */
int clusternode_admit(struct clusternode *n, struct curi *c);
/* May a request for uri be written now (its partition's lease window
 * open)? */
int clusternode_may_send(struct clusternode *n, const char *uri);
/* struct visit_env.disposed. */
void clusternode_disposed(void *ctx, const struct curi *c, uint64_t due_ms, uint64_t delay_ms);
/* The crawl's records, logs and frontier batch are written. */
void clusternode_flushed(struct clusternode *n);

/* Passes an operator action handled here on to every other node. */
void clusternode_pass(struct clusternode *n, const char *action, const char *body);
/* Leaves the cluster (after the crawl's last flush); left(arg) runs on a
 * later loop iteration, and the node is freed with clusternode_free. */
void clusternode_leave(struct clusternode *n, void (*left)(void *arg), void *arg);
void clusternode_free(struct clusternode *n);

void clusternode_report(struct clusternode *n, struct buf *out, int json);
struct json_t *clusternode_stats_json(struct clusternode *n);

#endif
