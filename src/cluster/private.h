/* struct cluster, shared by the loop's side of cluster mode and by nothing
 * outside src/cluster/: cluster.c (the node's life and the public API,
 * the inbound messages, the events and the tick) and the rooms it calls,
 * each of which calls only rooms below it:
 *
 *   clusterview.c    views of the cluster: heartbeat, claims, the end,
 *                    partitions given up to be rebuilt
 *   clusterlease.c   carrying out the lease table's actions; stops
 *   clusterreplay.c  rebuilding a partition from its log, and compaction
 *
 * One struct rather than one per room, as src/frontier/private.h: the
 * rooms are views of one node whose partitions' states (lease, consumer,
 * replay, stopping) change together; its fields are grouped below by the
 * room that owns them. The helpers at the end are inline so that every
 * room may use them without calling a file above it (tests/layers.sh). */
#ifndef TERN_CLUSTER_PRIVATE_H
#define TERN_CLUSTER_PRIVATE_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include <nats/nats.h>
#include <stdio.h>
#include <uv.h>

#include "cluster/cluster.h"
#include "cluster/clusterend.h"
#include "cluster/donelog.h"
#include "cluster/fpset.h"
#include "cluster/lease.h"
#include "cluster/mailbox.h"
#include "cluster/natsio.h"
#include "cluster/outbox.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

/* A failed replay or subscription starts again this long after. */
#define CLUSTER_RETRY_MS 1000

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
	/* The node (cluster.c): its loop, options, hooks, the client's
	 * thread and the way to it, leaving and closing. */
	uv_loop_t *loop;
	struct cluster_opts o;
	char *shown; /* o.url with its secrets hidden, for logs and reports */
	struct cluster_hooks h;
	struct mailbox *mb;
	struct natsio *nio;
	uv_timer_t timer;
	uv_idle_t more;
	int more_on;
	int link_up;
	int leaving;
	uint64_t leave_deadline;
	int shutdown_sent;
	int closed;
	int closing; /* handles being closed before c is freed */
	void (*left)(void *ctx);
	void *left_ctx;
	struct buf scratch, canon;
	/* Publishing (cluster.c, outbox.c). */
	struct outbox *out;
	struct fpset *filter;
	/* Inbound messages (cluster.c). */
	struct cluster_in *in_head, *in_tail;
	/* Messages of partitions still subscribing (the server delivers as
	 * soon as the consumer exists, before the client's thread can say
	 * that it does) or still scheduling their replay: held until the
	 * replay's URIs are all scheduled, or the partition's rebuilding
	 * ends otherwise (failed, given up, leaving): clusterreplay_take_early. */
	struct cluster_in *early_head, *early_tail;
	size_t in_count; /* both lists */
	void **acks;
	size_t nacks, capacks;

	/* Partitions under leases (clusterlease.c). */
	unsigned np;
	struct lease_table *lease;
	char *lease_value;
	/* Room for the actions one call of the lease table can return (2 per
	 * partition); calls never nest. */
	struct lease_action *act;
	size_t nact;
	unsigned char *stopping; /* STOP begun: waiting for its fetches to end */
	uint64_t *hold_until;	 /* no fetching before (a partition handed over) */
	/* Per partition, the longest politeness wait (over handover_ms) its
	 * hosts asked for here, sent in the heartbeat; and the longest another
	 * node's heartbeat last said for it, kept after that node is gone. */
	uint64_t *delay_ms;
	uint64_t *peer_delay_ms;
	/* 0 no, 1 consuming, 2 closing (until NATSIO_EV_UNSUBSCRIBED), 3
	 * subscribing (until NATSIO_EV_SUBSCRIBED) */
	unsigned char *subscribed;

	/* Rebuilding partitions from their logs (clusterreplay.c). */
	struct cluster_replay *rp;
	/* Compaction (clusterreplay_compact_*): bytes of records added to each
	 * partition's log since its last compaction (as this node saw them),
	 * and the one compaction in progress. */
	uint64_t *grow;
	uint64_t *snap_bytes; /* bytes of the last snapshot this node wrote, per partition */
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

	/* Views of the cluster, the join and the end (clusterview.c). */
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
	int finished;
	int my_idle;
	uint64_t my_seq;
	struct clusterend_local last_local; /* what my_idle was judged from */
	uint64_t clear_seq; /* 1 + the sequence at which our consumers had nothing pending */
	/* Per partition, while this node is idle and its consumer still has
	 * messages unacknowledged: since when, and at which acknowledgment
	 * floor (clusterview_rebuild_stuck). */
	uint64_t *stuck_since, *stuck_floor;

	/* figures */
	uint64_t links_local, filtered;
	uint64_t msgs_in, bytes_in, records_in, replays, replayed, let_go, early;
	uint64_t claims, releases, losses;
};

/* Puts in at the end of the list head..tail. */
static inline void cluster_in_append(
    struct cluster_in **head, struct cluster_in **tail, struct cluster_in *in)
{
	in->next = NULL;
	if (*tail != NULL)
		(*tail)->next = in;
	else
		*head = in;
	*tail = in;
}

static inline uint64_t cluster_now(void)
{
	return uv_hrtime() / 1000000u;
}

static inline void cluster_log(struct cluster *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void cluster_log(struct cluster *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	c->h.log(c->h.ctx, line);
}

/* Asks the client's thread to act on partition p (natsio.h). */
static inline void cluster_send_part(struct cluster *c, int kind, unsigned p, uint64_t seq)
{
	struct natsio_part *m = xcalloc(1, sizeof *m);

	m->it.kind = kind;
	m->partition = p;
	m->start_seq = seq;
	mailbox_to_thread(c->mb, &m->it);
}

/* clusterview.c */
void clusterview_on_snapshot(struct cluster *c, struct natsio_snapshot *s);
void clusterview_heartbeat(struct cluster *c, const struct cluster_local *l);
void clusterview_local_idle(struct cluster *c, const struct cluster_local *l,
    uint64_t consumer_pending, int consumers_read, struct clusterend_local *out);
int clusterview_may_claim(const struct cluster *c);
unsigned clusterview_held_list(struct cluster *c, json_t *arr);

/* clusterlease.c */
void clusterlease_do(struct cluster *c, const struct lease_action *a, size_t n);
void clusterlease_finish_stops(struct cluster *c);

/* clusterreplay.c */
void clusterreplay_reset(struct cluster_replay *r);
void clusterreplay_start(struct cluster *c, unsigned p);
void clusterreplay_chunk(struct cluster *c, struct natsio_replay *e);
size_t clusterreplay_feed(struct cluster *c, size_t budget);
void clusterreplay_take_early(struct cluster *c, int p);
void clusterreplay_compact_reset(struct cluster *c);
void clusterreplay_compact_maybe(struct cluster *c);
void clusterreplay_compact_chunk(struct cluster *c, struct natsio_replay *e);
void clusterreplay_compacted(struct cluster *c, struct natsio_part *e);

/* The NATS side: struct natsio, shared by natsio.c (the client's thread,
 * connection and JetStream setup, the public API) and the rooms it calls,
 * each of which calls only rooms below it:
 *
 *   natssnap.c    views of the cluster: the buckets, the stream, consumers
 *   natsreplay.c  replays of a partition's log, and compactions
 *   natscmd.c     the other commands: lease writes, publications, acks,
 *                 live consumers
 *   natsauth.c    TLS and credentials, and why a connection was refused
 *   natscall.c    nats.c's callbacks, retries, errors, subjects
 *
 * Everything here runs on the client's threads or in nats.c's callbacks;
 * the loop's side (cluster*.c) never touches it: the two meet only in the
 * mailbox (natsio.h). */
struct natsio_subctx {
	struct natsio *n;
	unsigned partition;
};

struct natsio_replay_job {
	struct natsio_replay_job *next;
	unsigned partition;
	natsSubscription *sub;
	uint64_t last_seq;
	int compact;
	uint64_t upto; /* compact: the last sequence to read */
};

struct natsio {
	struct natsio_opts o;
	char *shown; /* o.url with its password or token hidden (urlcreds.h) */
	int tls;     /* TLS was configured here (a tls:// URL, a CA or a certificate) */
	/* The server's last refusal of a subject (its permissions), for the
	 * message of a start that fails on it; under open_lock. */
	char refused[256];
	struct mailbox *mb;
	natsOptions *opts;
	natsConnection *nc;
	jsCtx *js;
	kvStore *owners, *nodes, *meta;
	natsSubscription **sub; /* live hand-offs per partition we consume */
	struct natsio_subctx *subctx;
	natsSubscription *seeds_sub, *ctl_sub;
	struct natsio_replay_job *replays;
	int compacting; /* set while a compaction's read fails, for its event */
	uv_thread_t thread;
	/* Lease writes have a thread of their own (natsio_lease_main). */
	uv_thread_t lease_thread;
	int stopping; /* shutting down: no more retries (atomic) */
	char stream[160];
	char prefix[160]; /* "tern.CRAWL." */
	char ctl_subject[160];
	char msgid_prefix[40]; /* unique to this process: "NONCE." */
	char node_key[128];
	char nonce[24];		  /* this process's, as in the lease value */
	unsigned consumer_serial; /* consumers this process has made */
	/* Asynchronous subscriptions whose handler may still run: closing
	 * one posts nats.c a control message its delivery thread must see
	 * before the library closes, or that message is lost. */
	uv_mutex_t open_lock;
	uv_cond_t open_cond;
	unsigned open_subs;
};

struct natscall_try {
	struct natsio *n;
	const char *what;
	unsigned attempt;
	uint64_t wait_ms;
};

/* natscall.c */
void natscall_err(char *dst, size_t cap, const char *what, natsStatus s);
void natscall_try_init(struct natscall_try *t, struct natsio *n, const char *what);
int natscall_transient(natsStatus s, jsErrCode e);
int natscall_try_again(struct natscall_try *t, natsStatus s, jsErrCode e);
void natscall_part_key(unsigned p, char *out, size_t cap);
void natscall_subject(
    const struct natsio *n, enum natsio_subject s, unsigned p, char *out, size_t cap);
void natscall_disconnected_cb(natsConnection *nc, void *closure);
void natscall_reconnected_cb(natsConnection *nc, void *closure);
void natscall_error_cb(natsConnection *nc, natsSubscription *sub, natsStatus err, void *closure);
void natscall_puback_cb(jsCtx *js, natsMsg *msg, jsPubAck *pa, jsPubAckErr *pae, void *closure);
void natscall_msg_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure);
void natscall_open_sub(struct natsio *n, int delta);
void natscall_closed_cb(void *closure);
void natscall_sub_done_cb(void *closure);
void natscall_seed_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure);
void natscall_ctl_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure);

/* natscmd.c */
void natscmd_exec_kv(struct natsio *n, struct natsio_kv *kv);
void natscmd_exec_publish(struct natsio *n, struct natsio_pub *p);
void natscmd_exec_ack(struct natsio *n, struct natsio_ack *a);
void natscmd_exec_subscribe(struct natsio *n, struct natsio_part *c);
void natscmd_exec_unsubscribe(struct natsio *n, struct natsio_part *c);

/* natsreplay.c */
void natsreplay_step(struct natsio *n);
void natsreplay_exec(struct natsio *n, struct natsio_part *c);
void natsreplay_compact_read(struct natsio *n, struct natsio_part *c);
void natsreplay_compact_write(struct natsio *n, struct natsio_compact *w);

/* natssnap.c */
struct natsio_snapshot *natssnap_take(struct natsio *n, int consumers, uint64_t clear_seq);
void natssnap_exec(struct natsio *n, struct natsio_snapreq *q);

/* natsauth.c */
natsStatus natsauth_set_servers(natsOptions *opts, const char *url);
natsStatus natsauth_set(struct natsio *n, const struct natsio_auth *a, char **err);
char *natsauth_connect_error(const struct natsio *n, natsStatus s, int *usage);
#endif
