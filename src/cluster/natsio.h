/* The NATS side of cluster mode: one thread of tern's own that owns the
 * nats.c connection and makes every call to it but the lease writes, which
 * a second one makes (nats.c's own threads read and write the socket and
 * run its callbacks, which only post events). The
 * crawl's loop talks to it through the mailbox: it sends commands (claims,
 * renewals, publications, acknowledgments...) and receives their outcomes
 * and the messages the stream delivers as events. Nothing here decides
 * anything about the crawl. Subjects, buckets and their use:
 * doc/cluster.md. */
#ifndef TERN_NATSIO_H
#define TERN_NATSIO_H
#include <stddef.h>
#include <stdint.h>
#include "cluster/mailbox.h"
#include "cluster/lease.h"

/* How a node proves itself to NATS and checks the server (tern.conf(5),
 * [cluster]); each empty or NULL when not used. A user and password, or a
 * token, go in the URL. */
struct natsio_auth {
	const char *tls_ca;	  /* the CA file the server's certificate must chain to */
	const char *tls_cert;	  /* a client certificate (mutual TLS), PEM */
	const char *tls_key;	  /* its private key, PEM */
	const char *tls_hostname; /* the name the server's certificate must hold */
	const char *creds;	  /* a .creds file (a user JWT and its nkey seed) */
	const char *nkey;	  /* a file holding a user nkey seed (SU...) */
};

struct natsio_opts {
	const char *url;
	struct natsio_auth auth;
	const char *crawl;	 /* crawl id: [A-Za-z0-9_-] */
	const char *node;	 /* node id, any text */
	const char *lease_value; /* what this process writes in the owners bucket */
	unsigned partitions;
	/* Other settings every node must share (natsio_agree below). */
	const struct natsio_agree *agree;
	size_t nagree;
	uint64_t lease_ms;
	int replicas; /* stream and bucket replicas */
	/* Every JetStream call waits api_timeout_ms for its answer. One that
	 * timed out, or found no responder (a server lost, a stream or the
	 * cluster electing a leader), is sent again up to api_retries times,
	 * after api_backoff_ms, doubling up to api_timeout_ms. 0: 2000, -, 250. */
	uint64_t api_timeout_ms, api_backoff_ms;
	unsigned api_retries;
};

/* Commands (loop -> thread). */
enum natsio_cmd_kind {
	NATSIO_CLAIM,
	NATSIO_RENEW,
	NATSIO_RELEASE,	      /* struct natsio_kv */
	NATSIO_PUBLISH,	      /* struct natsio_pub */
	NATSIO_ACK,	      /* struct natsio_ack */
	NATSIO_REPLAY,	      /* struct natsio_part */
	NATSIO_SUBSCRIBE,     /* struct natsio_part (start_seq) */
	NATSIO_UNSUBSCRIBE,   /* struct natsio_part */
	NATSIO_HEARTBEAT,     /* struct natsio_text */
	NATSIO_SNAPSHOT,      /* struct natsio_snapreq */
	NATSIO_CONTROL,	      /* struct natsio_text: to every node */
	NATSIO_END,	      /* struct natsio_part (start_seq = the end) */
	NATSIO_COMPACT_READ,  /* struct natsio_part */
	NATSIO_COMPACT_WRITE, /* struct natsio_compact */
	NATSIO_SHUTDOWN,      /* struct mbox_item */
};

/* Events (thread -> loop). */
enum natsio_event_kind {
	NATSIO_EV_KV = 100,	/* struct natsio_kv answered (kind CLAIM, RENEW or RELEASE) */
	NATSIO_EV_PUBACK,	/* struct natsio_puback */
	NATSIO_EV_MSG,		/* struct natsio_msg: a live hand-off for a partition we consume */
	NATSIO_EV_REPLAY,	/* struct natsio_replay: a chunk of a partition's log */
	NATSIO_EV_SUBSCRIBED,	/* struct natsio_part (ok) */
	NATSIO_EV_UNSUBSCRIBED, /* struct natsio_part: that subscription is closed and its
				 * handler has returned: no more NATSIO_EV_MSG for it */
	NATSIO_EV_SNAPSHOT,	/* struct natsio_snapshot */
	NATSIO_EV_CONTROL,	/* struct natsio_text from another node */
	NATSIO_EV_SEED,		/* struct natsio_text: seed records (any node's) */
	NATSIO_EV_LINK,		/* struct natsio_text: "down" or "up" (the connection) */
	NATSIO_EV_CLOSED,	/* struct mbox_item: the thread has finished */
	NATSIO_EV_COMPACTED,	/* struct natsio_part (ok; start_seq = the sequence compacted
				 * through, 0 when there was nothing to compact) */
	NATSIO_EV_NOTE,		/* struct natsio_text: a line for tern.log (a call retried) */
};

/* The stream's subjects: per partition, url records for its owner to
 * consume, url records its owner scheduled itself (for replays only) and
 * done records; seeds. */
enum natsio_subject { NATSIO_URL, NATSIO_OWN, NATSIO_DONE, NATSIO_SEEDS };
/* And a partition's snapshot: its compacted url records (snapu.N) and done
 * records (snapd.N), read by replays as the other subjects are. */

struct natsio_kv {
	struct mbox_item it;
	unsigned partition;
	uint64_t rev;	  /* command: expected revision; event: the new one */
	uint64_t sent_ms; /* the loop's clock when sent (echoed) */
	enum lease_result result;
	int op; /* the command kind, echoed */
};

struct natsio_pub {
	struct mbox_item it;
	enum natsio_subject subject;
	unsigned partition;
	uint64_t token; /* echoed in the puback; also the message id */
	size_t len;
	char data[]; /* the records */
};

struct natsio_puback {
	struct mbox_item it;
	uint64_t token;
	int ok;
	char err[120];
};

/* A delivered message: its records, and the handle to acknowledge it by
 * (opaque to the loop; given back in a NATSIO_ACK). */
struct natsio_msg {
	struct mbox_item it;
	unsigned partition;
	void *handle;
	uint64_t seq; /* stream sequence */
	size_t len;
	char data[];
};

struct natsio_ack {
	struct mbox_item it;
	int ack; /* 1 acknowledge, 0 only let go (redelivered later) */
	size_t n;
	void *handle[];
};

struct natsio_part {
	struct mbox_item it;
	unsigned partition;
	uint64_t start_seq; /* SUBSCRIBE: first sequence to deliver (0: all) */
	int ok;
	char err[120];
};

/* A chunk of a partition's log, in stream order: n records of kind[i]
 * (NATSIO_URL or NATSIO_DONE) at off[i], len[i] in data. done: the log is
 * read through last_seq (the last sequence read, 0 if none). compact: read
 * for NATSIO_COMPACT_READ, through upto (its consumer's acknowledgment
 * floor then) only. */
struct natsio_replay {
	struct mbox_item it;
	unsigned partition;
	int compact;
	uint64_t upto;
	int done;
	int failed;
	uint64_t last_seq;
	size_t n;
	unsigned char *kind;
	size_t *off, *len;
	char *data;
	char err[120];
};

/* A partition's log up to upto, compacted (doc/cluster.md): its url
 * records given and not done, and its done records, each once. Written to
 * its snapshot subjects, then everything of the partition up to upto is
 * purged from the stream. */
struct natsio_compact {
	struct mbox_item it;
	unsigned partition;
	uint64_t upto;
	char *urls, *dones;
	size_t urls_len, dones_len;
};

struct natsio_text {
	struct mbox_item it;
	size_t len;
	char data[];
};

struct natsio_snapreq {
	struct mbox_item it;
	int consumers;	    /* also read the pending counts of our consumers */
	uint64_t clear_seq; /* 1 + the sequence at which the stream ended when
				 * they had nothing pending (0: unknown): if it still
				 * ends there, they still have none */
};

/* What the buckets and the stream held at one moment. */
struct natsio_node {
	char *id;
	char *json;
};

struct natsio_snapshot {
	struct mbox_item it;
	unsigned partitions;
	int ok;
	char err[120];
	struct lease_view_entry *owners; /* one per partition, relative to us */
	char **owner_id;		 /* one per partition: holder's node id, or NULL */
	char **owner_nonce;		 /* and its process's nonce, or NULL */
	struct natsio_node *nodes;
	size_t nnodes;
	uint64_t last_seq;	   /* the stream's */
	uint64_t end_seq;	   /* the end marker, 0 if none */
	uint64_t consumer_pending; /* when asked: over our consumers */
	/* When asked: one per partition, 1 where our consumer is no longer on
	 * the server (deleted by someone, or lost by it): nothing more is
	 * delivered through it. Counted in consumer_pending too. */
	unsigned char *gone;
	/* When asked: one per partition, our consumer's messages delivered
	 * and not acknowledged, and its acknowledgment floor (the stream
	 * sequence below which every message is acknowledged). */
	uint64_t *ack_pending, *ack_floor;
	uint64_t msgs, bytes; /* the stream's */
};

void natsio_snapshot_free(struct natsio_snapshot *s);
void natsio_replay_free(struct natsio_replay *r);
/* Frees an event or command item and what it owns (a message's handle is
 * let go without an acknowledgment only by the thread: see NATSIO_ACK). */
void natsio_item_free(struct mbox_item *it);

struct natsio;

/* Connects, creates or binds the crawl's stream and buckets (checking that
 * they agree with opts: partitions, lease), and starts the thread. Runs on
 * the caller's thread and may block (before the loop runs). NULL and *err
 * (naming the URL) on failure; *usage is set when the failure is a
 * configuration error (exit 2) rather than a runtime one. */
struct natsio *natsio_start(
    const struct natsio_opts *o, struct mailbox *mb, char **err, int *usage);
/* After NATSIO_EV_CLOSED: joins the thread and frees. */
void natsio_join(struct natsio *n);
/* After NATSIO_EV_CLOSED and before natsio_join: lets a message handle the
 * loop still holds go unacknowledged (the server delivers it again). */
void natsio_drop(void *handle);

/* The cluster's state read once, synchronously, with no thread and no
 * loop (tern report on a node that is not running): the crawl's buckets and
 * stream must exist. NULL and *err on failure. */
struct natsio_snapshot *natsio_read(const char *url, const struct natsio_auth *auth,
    const char *crawl, unsigned partitions, char **err);

/* The crawl's settings every node must share, recorded in its meta bucket
 * by the first node and compared by every other (doc/cluster.md,
 * "Partitions and leases"): set before natsio_start. key is the bucket's
 * key, name the setting a person is told of. */
struct natsio_agree {
	const char *key, *name, *value;
};

/* Names shared with the reports: the key under which a node's heartbeat is
 * kept (its id with characters a key cannot hold replaced, and a hash). */
void natsio_node_key(const char *node, char *out, size_t cap);

#endif
