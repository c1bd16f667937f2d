/* The NATS side of cluster mode (natsio.h). Everything here runs on the
 * client's threads (natsio_main and the natsio_exec_* it calls; the lease
 * writes' natsio_lease_main, which calls natsio_exec_kv only) or in nats.c's
 * callbacks (natsio_*_cb), which only copy what they received into an
 * event for the loop. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nats/nats.h>
#include <openssl/ssl.h>

#include "cluster/natsio.h"
#include "cluster/fpset.h"
#include "cluster/nkey.h"
#include "lib/urlcreds.h"
#include "lib/xmalloc.h"

/* A partition's log is read in fetches of this many messages. */
#define NATSIO_REPLAY_BATCH 512
/* How many commands run before a replay gets its next fetch. */
#define NATSIO_COMMANDS_PER_FETCH 64
/* Unacknowledged hand-offs per partition the server lets out to its owner. */
#define NATSIO_MAX_ACK_PENDING 256
/* Asynchronous publications in flight before publishing waits. */
#define NATSIO_MAX_PUB_PENDING 4096
/* A snapshot's messages: well under the server's 1 MiB payload limit. */
#define NATSIO_COMPACT_CHUNK (256 * 1024)

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

static void natsio_err(char *dst, size_t cap, const char *what, natsStatus s)
{
	const char *last = nats_GetLastError(NULL);

	snprintf(dst, cap, "%s: %s%s%s", what, natsStatus_GetText(s),
	    last != NULL && *last ? ": " : "", last != NULL ? last : "");
}

static void natsio_post_text(struct natsio *n, int kind, const char *data, size_t len);

/* Retries. In a NATS cluster, losing a server leaves the streams and
 * buckets it led, and the cluster's metadata if it led that, without a
 * leader until the others elect one (seconds): calls to them time out, or
 * find no responder, meanwhile. Such a call is sent again after a wait
 * that doubles (natsio_opts), the other failures at once are final:
 *
 *	struct natsio_try t;
 *	natsio_try_init(&t, n, "stream information");
 *	do
 *		s = js_GetStreamInfo(...);
 *	while (natsio_try_again(&t, s, jerr));
 */
struct natsio_try {
	struct natsio *n;
	const char *what;
	unsigned attempt;
	uint64_t wait_ms;
};

static void natsio_try_init(struct natsio_try *t, struct natsio *n, const char *what)
{
	t->n = n;
	t->what = what;
	t->attempt = 0;
	t->wait_ms = n->o.api_backoff_ms;
}

/* Would the same call succeed once a leader is elected? Key-value calls
 * give no error code: the server's text tells. */
static int natsio_transient(natsStatus s, jsErrCode e)
{
	const char *last;

	if (s == NATS_TIMEOUT || s == NATS_NO_RESPONDERS || s == NATS_CONNECTION_DISCONNECTED)
		return 1;
	if (e == JSClusterNotAvailErr || e == JSClusterNotLeaderErr || e == JSClusterIncompleteErr)
		return 1;
	last = nats_GetLastError(NULL);
	return s != NATS_OK && last != NULL &&
	    (strstr(last, "temporarily unavailable") != NULL ||
		strstr(last, "no suitable peers") != NULL || strstr(last, "not leader") != NULL ||
		strstr(last, "no responders") != NULL || strstr(last, "timeout") != NULL);
}

static int natsio_try_again(struct natsio_try *t, natsStatus s, jsErrCode e)
{
	char line[300], why[200];
	int len;

	if (s == NATS_OK || t->attempt >= t->n->o.api_retries || !natsio_transient(s, e) ||
	    __atomic_load_n(&t->n->stopping, __ATOMIC_RELAXED))
		return 0;
	t->attempt++;
	natsio_err(why, sizeof why, t->what, s);
	len = snprintf(line, sizeof line,
	    "cluster: %s; sent again in %" PRIu64 " ms (retry %u of %u)", why, t->wait_ms,
	    t->attempt, t->n->o.api_retries);
	if (t->n->mb != NULL)
		natsio_post_text(t->n, NATSIO_EV_NOTE, line,
		    len < (int)sizeof line ? (size_t)len : sizeof line - 1);
	nats_Sleep((int64_t)t->wait_ms);
	t->wait_ms =
	    t->wait_ms * 2 < t->n->o.api_timeout_ms ? t->wait_ms * 2 : t->n->o.api_timeout_ms;
	return 1;
}

void natsio_node_key(const char *node, char *out, size_t cap)
{
	size_t i, j = 0;
	uint64_t h = fpset_hash(node, strlen(node));

	/* Keys hold [-_=a-zA-Z0-9] (and '.' between tokens); the hash keeps
	 * two ids that differ only in replaced characters apart. */
	for (i = 0; node[i] != '\0' && j + 20 < cap && j < 64; i++) {
		char c = node[i];
		out[j++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			(c >= '0' && c <= '9') || c == '-' || c == '_'
		    ? c
		    : '_';
	}
	snprintf(out + j, cap - j, "-%016" PRIx64, h);
}

static void natsio_part_key(unsigned p, char *out, size_t cap)
{
	snprintf(out, cap, "p%u", p);
}

static void natsio_subject(
    const struct natsio *n, enum natsio_subject s, unsigned p, char *out, size_t cap)
{
	if (s == NATSIO_SEEDS)
		snprintf(out, cap, "%sseed.all", n->prefix);
	else
		snprintf(out, cap, "%s%s.%u", n->prefix,
		    s == NATSIO_URL	  ? "url"
			: s == NATSIO_OWN ? "own"
					  : "done",
		    p);
}

/* Freeing. */

void natsio_snapshot_free(struct natsio_snapshot *s)
{
	size_t i;

	if (s == NULL)
		return;
	if (s->owner_id != NULL)
		for (i = 0; i < s->partitions; i++)
			free(s->owner_id[i]);
	free(s->owner_id);
	if (s->owner_nonce != NULL)
		for (i = 0; i < s->partitions; i++)
			free(s->owner_nonce[i]);
	free(s->owner_nonce);
	free(s->owners);
	free(s->gone);
	free(s->ack_pending);
	free(s->ack_floor);
	for (i = 0; i < s->nnodes; i++) {
		free(s->nodes[i].id);
		free(s->nodes[i].json);
	}
	free(s->nodes);
	free(s);
}

void natsio_replay_free(struct natsio_replay *r)
{
	if (r == NULL)
		return;
	free(r->kind);
	free(r->off);
	free(r->len);
	free(r->data);
	free(r);
}

void natsio_item_free(struct mbox_item *it)
{
	if (it == NULL)
		return;
	if (it->kind == NATSIO_EV_SNAPSHOT)
		natsio_snapshot_free((struct natsio_snapshot *)it);
	else if (it->kind == NATSIO_EV_REPLAY)
		natsio_replay_free((struct natsio_replay *)it);
	else if (it->kind == NATSIO_COMPACT_WRITE) {
		free(((struct natsio_compact *)it)->urls);
		free(((struct natsio_compact *)it)->dones);
		free(it);
	} else
		free(it);
}

/* Callbacks from nats.c's threads: copy, post, return. */

static void natsio_post_text(struct natsio *n, int kind, const char *data, size_t len)
{
	struct natsio_text *t = xmalloc(sizeof *t + len + 1);

	t->it.kind = kind;
	t->len = len;
	memcpy(t->data, data, len);
	t->data[len] = '\0';
	mailbox_to_loop(n->mb, &t->it);
}

static void natsio_link_cb(natsConnection *nc, void *closure, const char *what)
{
	(void)nc;
	natsio_post_text(closure, NATSIO_EV_LINK, what, strlen(what));
}

static void natsio_disconnected_cb(natsConnection *nc, void *closure)
{
	natsio_link_cb(nc, closure, "down");
}

static void natsio_reconnected_cb(natsConnection *nc, void *closure)
{
	natsio_link_cb(nc, closure, "up");
}

/* An asynchronous error: the server's permissions refusing a subject is
 * kept, since the call that used it only times out. */
static void natsio_error_cb(
    natsConnection *nc, natsSubscription *sub, natsStatus err, void *closure)
{
	struct natsio *n = closure;
	const char *text = NULL;

	(void)sub;
	if (err != NATS_NOT_PERMITTED)
		return;
	natsConnection_GetLastError(nc, &text);
	uv_mutex_lock(&n->open_lock);
	snprintf(n->refused, sizeof n->refused, "%s",
	    text != NULL && text[0] != '\0' ? text : "Permissions Violation");
	uv_mutex_unlock(&n->open_lock);
}

static void natsio_puback_cb(jsCtx *js, natsMsg *msg, jsPubAck *pa, jsPubAckErr *pae, void *closure)
{
	struct natsio *n = closure;
	struct natsio_puback *a = xcalloc(1, sizeof *a);
	const char *id = NULL, *dot;

	(void)js;
	a->it.kind = NATSIO_EV_PUBACK;
	if (natsMsgHeader_Get(msg, "Nats-Msg-Id", &id) == NATS_OK && id != NULL &&
	    (dot = strrchr(id, '.')) != NULL)
		a->token = strtoull(dot + 1, NULL, 10);
	a->ok = pa != NULL && pae == NULL;
	if (!a->ok)
		snprintf(a->err, sizeof a->err, "%s",
		    pae != NULL && pae->ErrText != NULL ? pae->ErrText
			: pae != NULL			? natsStatus_GetText(pae->Err)
							: "no answer");
	natsMsg_Destroy(msg);
	mailbox_to_loop(n->mb, &a->it);
}

static void natsio_msg_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure)
{
	struct natsio_subctx *sc = closure;
	int len = natsMsg_GetDataLength(msg);
	struct natsio_msg *m = xmalloc(sizeof *m + (size_t)len + 1);
	jsMsgMetaData *meta = NULL;

	(void)nc;
	(void)sub;
	m->it.kind = NATSIO_EV_MSG;
	m->partition = sc->partition;
	m->handle = msg;
	m->seq = 0;
	if (natsMsg_GetMetaData(&meta, msg) == NATS_OK) {
		m->seq = meta->Sequence.Stream;
		jsMsgMetaData_Destroy(meta);
	}
	m->len = (size_t)len;
	if (len > 0)
		memcpy(m->data, natsMsg_GetData(msg), (size_t)len);
	m->data[len] = '\0';
	mailbox_to_loop(sc->n->mb, &m->it);
}

static void natsio_open_sub(struct natsio *n, int delta)
{
	uv_mutex_lock(&n->open_lock);
	n->open_subs += (unsigned)delta;
	uv_cond_signal(&n->open_cond);
	uv_mutex_unlock(&n->open_lock);
}

static void natsio_closed_cb(void *closure)
{
	natsio_open_sub(closure, -1);
}

static void natsio_sub_done_cb(void *closure)
{
	struct natsio_subctx *sc = closure;
	struct natsio_part *m = xcalloc(1, sizeof *m);

	natsio_open_sub(sc->n, -1);
	m->it.kind = NATSIO_EV_UNSUBSCRIBED;
	m->partition = sc->partition;
	mailbox_to_loop(sc->n->mb, &m->it);
}

static void natsio_text_cb(
    natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure, int kind)
{
	(void)nc;
	(void)sub;
	natsio_post_text(closure, kind, natsMsg_GetData(msg), (size_t)natsMsg_GetDataLength(msg));
	natsMsg_Destroy(msg);
}

static void natsio_seed_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure)
{
	natsio_text_cb(nc, sub, msg, closure, NATSIO_EV_SEED);
}

static void natsio_ctl_cb(natsConnection *nc, natsSubscription *sub, natsMsg *msg, void *closure)
{
	natsio_text_cb(nc, sub, msg, closure, NATSIO_EV_CONTROL);
}

/* Commands, on the client's thread. */

static int natsio_value_is_ours(const struct natsio *n, kvEntry *e)
{
	const char *v = kvEntry_ValueString(e);

	return v != NULL && strcmp(v, n->o.lease_value) == 0;
}

/* A lease write that failed: what the key holds tells whether one of our
 * earlier unanswered writes landed (FOUND), someone else's did (REFUSED),
 * or nothing can be told now (UNKNOWN). */
static enum lease_result natsio_after_failed_write(
    struct natsio *n, const char *key, natsStatus s, uint64_t *rev)
{
	kvEntry *e = NULL;
	struct natsio_try t;
	natsStatus g;
	enum lease_result r;

	(void)s;
	natsio_try_init(&t, n, "lease check");
	do
		g = kvStore_Get(&e, n->owners, key);
	while (natsio_try_again(&t, g, 0));
	if (g == NATS_NOT_FOUND)
		return LEASE_REFUSED;
	if (g != NATS_OK)
		return LEASE_UNKNOWN;
	if (natsio_value_is_ours(n, e)) {
		*rev = kvEntry_Revision(e);
		r = LEASE_OK_FOUND;
	} else {
		r = LEASE_REFUSED;
	}
	kvEntry_Destroy(e);
	return r;
}

/* A lease write that timed out is sent again as it was, at the same
 * expected revision: if an earlier attempt landed, the retry is refused
 * and the key, holding our value, tells (natsio_after_failed_write). The
 * loop keeps the first attempt's send time, earlier than any landing, so
 * the lease is never taken for longer than it holds. */
static void natsio_exec_kv(struct natsio *n, struct natsio_kv *kv)
{
	char key[32];
	uint64_t rev = 0;
	struct natsio_try t;
	natsStatus s;

	natsio_part_key(kv->partition, key, sizeof key);
	natsio_try_init(&t, n, "lease write");
	do {
		if (kv->op == NATSIO_RELEASE)
			s = kvStore_UpdateString(&rev, n->owners, key, "", kv->rev);
		else if (kv->rev == 0)
			s = kvStore_CreateString(&rev, n->owners, key, n->o.lease_value);
		else
			s = kvStore_UpdateString(&rev, n->owners, key, n->o.lease_value, kv->rev);
	} while (natsio_try_again(&t, s, 0));
	if (s == NATS_OK)
		kv->result = LEASE_OK;
	else if (kv->op == NATSIO_RELEASE)
		kv->result = natsio_transient(s, 0) ? LEASE_UNKNOWN : LEASE_REFUSED;
	else
		kv->result = natsio_after_failed_write(n, key, s, &rev);
	kv->rev = rev;
	kv->it.kind = NATSIO_EV_KV;
	mailbox_to_loop(n->mb, &kv->it);
}

static void natsio_exec_publish(struct natsio *n, struct natsio_pub *p)
{
	char subject[200], id[64];
	natsMsg *m = NULL;
	jsPubOptions po;
	natsStatus s;

	natsio_subject(n, p->subject, p->partition, subject, sizeof subject);
	snprintf(id, sizeof id, "%s%" PRIu64, n->msgid_prefix, p->token);
	jsPubOptions_Init(&po);
	po.MsgId = id;
	po.MaxWait = (int64_t)n->o.api_timeout_ms;
	s = natsMsg_Create(&m, subject, NULL, p->data, (int)p->len);
	if (s == NATS_OK)
		s = js_PublishMsgAsync(n->js, &m, &po);
	if (s != NATS_OK) {
		struct natsio_puback *a = xcalloc(1, sizeof *a);
		natsMsg_Destroy(m);
		a->it.kind = NATSIO_EV_PUBACK;
		a->token = p->token;
		natsio_err(a->err, sizeof a->err, "publish", s);
		mailbox_to_loop(n->mb, &a->it);
	}
	free(p);
}

static void natsio_exec_ack(struct natsio *n, struct natsio_ack *a)
{
	size_t i;

	(void)n;
	for (i = 0; i < a->n; i++) {
		natsMsg *m = a->handle[i];
		if (a->ack)
			natsMsg_Ack(m, NULL);
		natsMsg_Destroy(m);
	}
	free(a);
}

/* A partition's live consumer is named by its partition, the process that
 * made it and a serial: "pN-NONCE-K". An owner that lost a partition
 * deletes its own consumer when it unsubscribes, which can happen after the
 * next owner made its consumer (the lease expired while the server was
 * away, and the delete waited in the client's reconnect buffer, or the old
 * owner's fetches ended late); under one shared name that delete removed
 * the new owner's consumer, whose hand-offs then stopped for good. */
static void natsio_consumer_name(struct natsio *n, unsigned p, char *out, size_t cap)
{
	snprintf(out, cap, "p%u-%s-%u", p, n->nonce, ++n->consumer_serial);
}

/* Is name a consumer of partition p, made by any process ("pN-..."), or
 * by a version that used one name per partition ("pN")? */
static int natsio_consumer_of(const char *name, unsigned p)
{
	char *end;
	unsigned long v;

	if (name[0] != 'p' || name[1] < '0' || name[1] > '9')
		return 0;
	v = strtoul(name + 1, &end, 10);
	return v == p && (*end == '\0' || *end == '-');
}

/* The consumers of partition p that earlier owners left (a node that died,
 * or ended and left its partitions held) are deleted by the new owner
 * before it makes its own: a push consumer without a subscriber delivers
 * nothing, but the server keeps it and its state until it is deleted. */
static void natsio_delete_stale_consumers(struct natsio *n, unsigned p)
{
	jsConsumerNamesList *l = NULL;
	struct natsio_try t;
	jsErrCode jerr = 0;
	natsStatus s;
	int i;

	natsio_try_init(&t, n, "consumer names");
	do
		s = js_ConsumerNames(&l, n->js, n->stream, NULL, &jerr);
	while (natsio_try_again(&t, s, jerr));
	if (s != NATS_OK)
		return;
	for (i = 0; i < l->Count; i++)
		if (natsio_consumer_of(l->List[i], p)) {
			natsio_try_init(&t, n, "consumer deletion");
			do
				s = js_DeleteConsumer(n->js, n->stream, l->List[i], NULL, &jerr);
			while (natsio_try_again(&t, s, jerr));
		}
	jsConsumerNamesList_Destroy(l);
}

static void natsio_exec_subscribe(struct natsio *n, struct natsio_part *c)
{
	char subject[200], name[64];
	jsSubOptions so;
	jsErrCode jerr = 0;
	struct natsio_try t;
	natsStatus s;

	c->it.kind = NATSIO_EV_SUBSCRIBED;
	c->ok = 0;
	if (n->sub[c->partition] != NULL) {
		c->ok = 1;
		mailbox_to_loop(n->mb, &c->it);
		return;
	}
	natsio_subject(n, NATSIO_URL, c->partition, subject, sizeof subject);
	/* The consumer of a partition is made afresh by each new owner,
	 * starting right after the log it replayed: what an earlier owner
	 * had consumed is in that log. */
	natsio_delete_stale_consumers(n, c->partition);
	jsSubOptions_Init(&so);
	so.Stream = n->stream;
	so.ManualAck = true;
	so.Config.AckPolicy = js_AckExplicit;
	so.Config.AckWait = (int64_t)30 * 1000000000;
	so.Config.MaxAckPending = NATSIO_MAX_ACK_PENDING;
	so.Config.FilterSubject = subject;
	if (c->start_seq > 0) {
		so.Config.DeliverPolicy = js_DeliverByStartSequence;
		so.Config.OptStartSeq = c->start_seq;
	} else {
		so.Config.DeliverPolicy = js_DeliverAll;
	}
	/* Each attempt under a new name: one whose answer timed out may have
	 * made its consumer, which the next owner deletes (above). */
	natsio_try_init(&t, n, "consumer");
	do {
		natsio_consumer_name(n, c->partition, name, sizeof name);
		so.Config.Durable = name;
		s = js_Subscribe(&n->sub[c->partition], n->js, subject, natsio_msg_cb,
		    &n->subctx[c->partition], NULL, &so, &jerr);
	} while (natsio_try_again(&t, s, jerr));
	/* Told when its handler can run no more, so that the loop knows
	 * every message handle it will get for the partition. */
	if (s == NATS_OK) {
		s = natsSubscription_SetOnCompleteCB(
		    n->sub[c->partition], natsio_sub_done_cb, &n->subctx[c->partition]);
		if (s == NATS_OK)
			natsio_open_sub(n, 1);
	}
	if (s != NATS_OK) {
		if (n->sub[c->partition] != NULL) {
			natsSubscription_Unsubscribe(n->sub[c->partition]);
			natsSubscription_Destroy(n->sub[c->partition]);
		}
		n->sub[c->partition] = NULL;
		natsio_err(c->err, sizeof c->err, "subscribe", s);
	} else {
		c->ok = 1;
	}
	mailbox_to_loop(n->mb, &c->it);
}

static void natsio_exec_unsubscribe(struct natsio *n, struct natsio_part *c)
{
	natsSubscription *sub = n->sub[c->partition];

	if (sub != NULL) {
		/* Unsubscribing deletes the consumer (the library made it); the
		 * next owner makes its own. */
		natsSubscription_Unsubscribe(sub);
		natsSubscription_Destroy(sub);
		n->sub[c->partition] = NULL;
	}
	free(c);
}

/* Replays: a pull consumer over the partition's url and done subjects from
 * the start of the stream, read one fetch at a time between commands. */

static void natsio_replay_post_failure(struct natsio *n, unsigned p, const char *what, natsStatus s)
{
	struct natsio_replay *r = xcalloc(1, sizeof *r);

	r->it.kind = NATSIO_EV_REPLAY;
	r->partition = p;
	r->compact = n->compacting;
	r->failed = 1;
	r->done = 1;
	natsio_err(r->err, sizeof r->err, what, s);
	mailbox_to_loop(n->mb, &r->it);
}

static void natsio_start_replay(struct natsio *n, unsigned p, int compact, uint64_t upto)
{
	char filter[200];
	jsSubOptions so;
	jsConsumerInfo *ci = NULL;
	natsSubscription *sub = NULL;
	struct natsio_try t;
	jsErrCode jerr = 0;
	natsStatus s;

	snprintf(filter, sizeof filter, "%s*.%u", n->prefix, p);
	jsSubOptions_Init(&so);
	so.Stream = n->stream;
	so.Config.AckPolicy = js_AckNone;
	so.Config.DeliverPolicy = js_DeliverAll;
	so.Config.InactiveThreshold = (int64_t)60 * 1000000000;
	/* An ephemeral consumer made by an attempt whose answer timed out
	 * goes once inactive that long. */
	natsio_try_init(&t, n, "replay");
	do
		s = js_PullSubscribe(&sub, n->js, filter, NULL, NULL, &so, &jerr);
	while (natsio_try_again(&t, s, jerr));
	if (s == NATS_OK) {
		natsio_try_init(&t, n, "replay");
		do
			s = natsSubscription_GetConsumerInfo(&ci, sub, NULL, &jerr);
		while (natsio_try_again(&t, s, jerr));
	}
	if (s != NATS_OK) {
		if (sub != NULL) {
			natsSubscription_Unsubscribe(sub);
			natsSubscription_Destroy(sub);
		}
		n->compacting = compact;
		natsio_replay_post_failure(n, p, "replay", s);
		n->compacting = 0;
		return;
	}
	if (ci->NumPending == 0) {
		/* Nothing was ever handed to this partition. */
		struct natsio_replay *r = xcalloc(1, sizeof *r);
		jsConsumerInfo_Destroy(ci);
		natsSubscription_Unsubscribe(sub);
		natsSubscription_Destroy(sub);
		r->it.kind = NATSIO_EV_REPLAY;
		r->partition = p;
		r->compact = compact;
		r->upto = upto;
		r->done = 1;
		mailbox_to_loop(n->mb, &r->it);
		return;
	}
	jsConsumerInfo_Destroy(ci);
	{
		struct natsio_replay_job *j = xcalloc(1, sizeof *j), **tail = &n->replays;
		j->partition = p;
		j->sub = sub;
		j->compact = compact;
		j->upto = upto;
		while (*tail != NULL)
			tail = &(*tail)->next;
		*tail = j;
	}
}

static void natsio_replay_step(struct natsio *n)
{
	struct natsio_replay_job *j = n->replays;
	struct natsio_replay *r;
	natsMsgList l = {0};
	jsFetchRequest fr;
	natsStatus s;
	size_t total = 0, at = 0;
	int i;

	/* What is there now, without waiting for a full batch: the log's
	 * end is known from the last message's pending count. */
	jsFetchRequest_Init(&fr);
	fr.Batch = NATSIO_REPLAY_BATCH;
	fr.NoWait = true;
	fr.Expires = (int64_t)1 * 1000000000;
	s = natsSubscription_FetchRequest(&l, j->sub, &fr);
	n->replays = j->next;
	if (s != NATS_OK || l.Count == 0) {
		natsMsgList_Destroy(&l);
		natsSubscription_Unsubscribe(j->sub);
		natsSubscription_Destroy(j->sub);
		n->compacting = j->compact;
		natsio_replay_post_failure(
		    n, j->partition, "replay fetch", s != NATS_OK ? s : NATS_TIMEOUT);
		n->compacting = 0;
		free(j);
		return;
	}
	r = xcalloc(1, sizeof *r);
	r->it.kind = NATSIO_EV_REPLAY;
	r->partition = j->partition;
	r->compact = j->compact;
	r->upto = j->upto;
	r->kind = xcalloc((size_t)l.Count, 1);
	r->off = xcalloc((size_t)l.Count, sizeof *r->off);
	r->len = xcalloc((size_t)l.Count, sizeof *r->len);
	for (i = 0; i < l.Count; i++)
		total += (size_t)natsMsg_GetDataLength(l.Msgs[i]);
	r->data = xmalloc(total + 1);
	for (i = 0; i < l.Count; i++) {
		natsMsg *m = l.Msgs[i];
		const char *subj = natsMsg_GetSubject(m) + strlen(n->prefix);
		jsMsgMetaData *meta = NULL;
		size_t len = (size_t)natsMsg_GetDataLength(m);

		uint64_t seq = 0;

		if (natsMsg_GetMetaData(&meta, m) == NATS_OK) {
			seq = meta->Sequence.Stream;
			if (meta->NumPending == 0 || (j->compact && seq >= j->upto))
				r->done = 1;
			jsMsgMetaData_Destroy(meta);
		}
		/* A compaction reads no further than its floor. */
		if (j->compact && seq > j->upto)
			continue;
		if (seq > 0)
			j->last_seq = seq;
		r->kind[r->n] = strncmp(subj, "done.", 5) == 0 || strncmp(subj, "snapd.", 6) == 0
		    ? NATSIO_DONE
		    : NATSIO_URL;
		r->off[r->n] = at;
		r->len[r->n] = len;
		memcpy(r->data + at, natsMsg_GetData(m), len);
		at += len;
		r->n++;
	}
	r->data[at] = '\0';
	r->last_seq = j->last_seq;
	natsMsgList_Destroy(&l);
	if (r->done) {
		natsSubscription_Unsubscribe(j->sub);
		natsSubscription_Destroy(j->sub);
		free(j);
	} else {
		/* To the back: partitions replay side by side. */
		struct natsio_replay_job **tail = &n->replays;
		j->next = NULL;
		while (*tail != NULL)
			tail = &(*tail)->next;
		*tail = j;
	}
	mailbox_to_loop(n->mb, &r->it);
}

static void natsio_exec_replay(struct natsio *n, struct natsio_part *c)
{
	unsigned p = c->partition;

	free(c);
	natsio_start_replay(n, p, 0, 0);
}

/* Compaction, first half: the partition's log is read, as a replay, for
 * the loop to reduce, up to the last sequence below which its live
 * consumer has every url record acknowledged (purging one it still has to
 * deliver would lose it): the stream's last sequence, read before the
 * consumer, when the consumer then has nothing pending; the last one it
 * delivered when it has nothing unacknowledged; else its acknowledgment
 * floor. Own and done records are published, not consumed: any stored
 * one may go. */
static void natsio_exec_compact_read(struct natsio *n, struct natsio_part *c)
{
	jsConsumerInfo *ci = NULL;
	jsStreamInfo *si = NULL;
	unsigned p = c->partition;
	struct natsio_try t;
	jsErrCode jerr = 0;
	natsStatus s = NATS_ERR;
	uint64_t upto = 0, last = 0;

	if (n->sub[p] != NULL) {
		natsio_try_init(&t, n, "compaction");
		do
			s = js_GetStreamInfo(&si, n->js, n->stream, NULL, &jerr);
		while (natsio_try_again(&t, s, jerr));
	}
	if (s == NATS_OK) {
		last = si->State.LastSeq;
		jsStreamInfo_Destroy(si);
		natsio_try_init(&t, n, "compaction");
		do
			s = natsSubscription_GetConsumerInfo(&ci, n->sub[p], NULL, &jerr);
		while (natsio_try_again(&t, s, jerr));
	}
	if (s == NATS_OK) {
		if (ci->NumAckPending == 0 && ci->NumPending == 0)
			upto = last;
		else if (ci->NumAckPending == 0)
			upto = ci->Delivered.Stream;
		else
			upto = ci->AckFloor.Stream;
		jsConsumerInfo_Destroy(ci);
	}
	if (s != NATS_OK || upto == 0) {
		c->it.kind = NATSIO_EV_COMPACTED;
		c->ok = s == NATS_OK;
		c->start_seq = 0;
		if (s != NATS_OK)
			natsio_err(c->err, sizeof c->err, "compaction", s);
		mailbox_to_loop(n->mb, &c->it);
		return;
	}
	free(c);
	natsio_start_replay(n, p, 1, upto);
}

/* Publishes data (records, one a line) on subject in messages of at most
 * NATSIO_COMPACT_CHUNK bytes cut at line ends, each waited for. */
static natsStatus natsio_publish_lines(
    struct natsio *n, const char *subject, const char *data, size_t len)
{
	jsPubOptions po;
	struct natsio_try t;
	jsErrCode jerr = 0;
	natsStatus s = NATS_OK;
	size_t at = 0;

	jsPubOptions_Init(&po);
	po.MaxWait = (int64_t)n->o.api_timeout_ms;
	while (s == NATS_OK && at < len) {
		size_t n1 = len - at;
		if (n1 > NATSIO_COMPACT_CHUNK) {
			const char *nl = data + at + NATSIO_COMPACT_CHUNK;
			while (nl > data + at && nl[-1] != '\n')
				nl--;
			n1 = nl > data + at ? (size_t)(nl - (data + at)) : NATSIO_COMPACT_CHUNK;
		}
		/* A retry may store a chunk twice: replays and compactions
		 * read each record once however often it is there. */
		natsio_try_init(&t, n, "compaction");
		do
			s = js_Publish(NULL, n->js, subject, data + at, (int)n1, &po, &jerr);
		while (natsio_try_again(&t, s, jerr));
		at += n1;
	}
	return s;
}

/* Compaction, second half: the reduced log is stored on the partition's
 * snapshot subjects, and only then is everything of the partition up to
 * the floor purged (its earlier snapshot included): a reader that comes
 * between the two finds the records twice, never none. */
static void natsio_exec_compact_write(struct natsio *n, struct natsio_compact *w)
{
	struct natsio_part *e = xcalloc(1, sizeof *e);
	char subject[200], filter[200];
	jsOptions jo;
	struct natsio_try t;
	jsErrCode jerr = 0;
	natsStatus s;

	snprintf(subject, sizeof subject, "%ssnapu.%u", n->prefix, w->partition);
	s = natsio_publish_lines(n, subject, w->urls, w->urls_len);
	snprintf(subject, sizeof subject, "%ssnapd.%u", n->prefix, w->partition);
	if (s == NATS_OK)
		s = natsio_publish_lines(n, subject, w->dones, w->dones_len);
	if (s == NATS_OK) {
		snprintf(filter, sizeof filter, "%s*.%u", n->prefix, w->partition);
		jsOptions_Init(&jo);
		jo.Stream.Purge.Subject = filter;
		jo.Stream.Purge.Sequence = w->upto + 1;
		natsio_try_init(&t, n, "compaction");
		do
			s = js_PurgeStream(n->js, n->stream, &jo, &jerr);
		while (natsio_try_again(&t, s, jerr));
	}
	e->it.kind = NATSIO_EV_COMPACTED;
	e->partition = w->partition;
	e->ok = s == NATS_OK;
	e->start_seq = w->upto;
	if (s != NATS_OK)
		natsio_err(e->err, sizeof e->err, "compaction", s);
	free(w->urls);
	free(w->dones);
	free(w);
	mailbox_to_loop(n->mb, &e->it);
}

struct natsio_snapctx {
	struct natsio *n;
	struct natsio_snapshot *s;
};

static void natsio_snap_owner(void *ctx, kvEntry *e)
{
	struct natsio_snapctx *c = ctx;
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

static void natsio_snap_node(void *ctx, kvEntry *e)
{
	struct natsio_snapctx *c = ctx;
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
static natsStatus natsio_read_key(
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
static natsStatus natsio_read_owners(struct natsio *n, struct natsio_snapctx *c)
{
	char key[32];
	natsStatus s = NATS_OK;
	unsigned p;

	for (p = 0; s == NATS_OK && p < n->o.partitions; p++) {
		natsio_part_key(p, key, sizeof key);
		s = natsio_read_key(n->owners, key, natsio_snap_owner, c);
	}
	return s;
}

/* The nodes bucket: its keys from its stream's subjects, then each. */
static natsStatus natsio_read_nodes(struct natsio *n, struct natsio_snapctx *c)
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
			s = natsio_read_key(n->nodes, subj + plen, natsio_snap_node, c);
	}
	jsStreamInfo_Destroy(si);
	return s;
}

/* What the buckets and the stream hold now; with consumers, also what our
 * consumers have pending, unless the stream still ends at 1 + clear_seq. */
static struct natsio_snapshot *natsio_snapshot_take(
    struct natsio *n, int consumers, uint64_t clear_seq)
{
	struct natsio_snapshot *s = xcalloc(1, sizeof *s);
	struct natsio_snapctx c = {n, s};
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
	st = natsio_read_owners(n, &c);
	if (st == NATS_OK) {
		snprintf(what, sizeof what, "cluster state: nodes");
		st = natsio_read_nodes(n, &c);
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
		natsio_err(s->err, sizeof s->err, what, st);
	return s;
}

static void natsio_exec_snapshot(struct natsio *n, struct natsio_snapreq *q)
{
	struct natsio_snapshot *s = natsio_snapshot_take(n, q->consumers, q->clear_seq);

	free(q);
	mailbox_to_loop(n->mb, &s->it);
}

static void natsio_exec_text(struct natsio *n, struct natsio_text *t, int kind)
{
	/* A heartbeat is not retried: the next view sends a fresh one. */
	if (kind == NATSIO_HEARTBEAT)
		kvStore_Put(NULL, n->nodes, n->node_key, t->data, (int)t->len);
	else if (kind == NATSIO_CONTROL)
		natsConnection_Publish(n->nc, n->ctl_subject, t->data, (int)t->len);
	free(t);
}

static void natsio_exec_end(struct natsio *n, struct natsio_part *c)
{
	char v[32];
	struct natsio_try t;
	natsStatus s;

	snprintf(v, sizeof v, "%" PRIu64, c->start_seq);
	natsio_try_init(&t, n, "end marker");
	do
		s = kvStore_PutString(NULL, n->meta, "end", v);
	while (natsio_try_again(&t, s, 0));
	free(c);
}

static void natsio_exec(struct natsio *n, struct mbox_item *it)
{
	switch (it->kind) {
	case NATSIO_CLAIM:
	case NATSIO_RENEW:
	case NATSIO_RELEASE:
		natsio_exec_kv(n, (struct natsio_kv *)it);
		break;
	case NATSIO_PUBLISH:
		natsio_exec_publish(n, (struct natsio_pub *)it);
		break;
	case NATSIO_ACK:
		natsio_exec_ack(n, (struct natsio_ack *)it);
		break;
	case NATSIO_REPLAY:
		natsio_exec_replay(n, (struct natsio_part *)it);
		break;
	case NATSIO_SUBSCRIBE:
		natsio_exec_subscribe(n, (struct natsio_part *)it);
		break;
	case NATSIO_UNSUBSCRIBE:
		natsio_exec_unsubscribe(n, (struct natsio_part *)it);
		break;
	case NATSIO_HEARTBEAT:
	case NATSIO_CONTROL:
		natsio_exec_text(n, (struct natsio_text *)it, it->kind);
		break;
	case NATSIO_SNAPSHOT:
		natsio_exec_snapshot(n, (struct natsio_snapreq *)it);
		break;
	case NATSIO_END:
		natsio_exec_end(n, (struct natsio_part *)it);
		break;
	case NATSIO_COMPACT_READ:
		natsio_exec_compact_read(n, (struct natsio_part *)it);
		break;
	case NATSIO_COMPACT_WRITE:
		natsio_exec_compact_write(n, (struct natsio_compact *)it);
		break;
	default:
		free(it);
	}
}

/* Shutting down: subscriptions go (their consumers stay: the next owner
 * replaces them), publications still out get a few seconds to be stored,
 * then the connection closes. */
/* Commands the thread will never carry out: the message handles of their
 * acknowledgments are let go unacknowledged (the server delivers those
 * messages again, to whichever node owns their partitions next). */
static void natsio_drop_commands(struct natsio *n)
{
	struct mbox_item *it;

	while ((it = mailbox_take_command(n->mb, 0)) != NULL ||
	    (it = mailbox_take_urgent(n->mb, 0)) != NULL) {
		if (it->kind == NATSIO_ACK) {
			struct natsio_ack *a = (struct natsio_ack *)it;
			for (size_t i = 0; i < a->n; i++)
				natsMsg_Destroy(a->handle[i]);
		}
		natsio_item_free(it);
	}
}

static void natsio_shutdown(struct natsio *n)
{
	jsPubOptions po;
	unsigned p;

	while (n->replays != NULL) {
		struct natsio_replay_job *j = n->replays;
		n->replays = j->next;
		natsSubscription_Unsubscribe(j->sub);
		natsSubscription_Destroy(j->sub);
		free(j);
	}
	for (p = 0; p < n->o.partitions; p++)
		if (n->sub[p] != NULL) {
			natsSubscription_Destroy(n->sub[p]);
			n->sub[p] = NULL;
		}
	natsSubscription_Destroy(n->seeds_sub);
	natsSubscription_Destroy(n->ctl_sub);
	n->seeds_sub = n->ctl_sub = NULL;
	/* Every handler has returned (a few seconds at most) before the
	 * connection and the library close. */
	uv_mutex_lock(&n->open_lock);
	while (n->open_subs > 0 &&
	    uv_cond_timedwait(&n->open_cond, &n->open_lock, (uint64_t)3000 * 1000000u) == 0)
		;
	uv_mutex_unlock(&n->open_lock);
	jsPubOptions_Init(&po);
	po.MaxWait = 5000;
	js_PublishAsyncComplete(n->js, &po);
	natsConnection_Close(n->nc);
}

/* Lease writes, on a thread of their own: every other command may wait
 * seconds for a stream or a consumer whose server was lost (retried,
 * above), and a renewal queued behind it would let the lease's window
 * close, or the lease expire, on a bucket that answers. Only the owners
 * bucket's own outage delays them. */
static void natsio_lease_main(void *arg)
{
	struct natsio *n = arg;

	for (;;) {
		struct mbox_item *it = mailbox_take_urgent(n->mb, 1000);
		if (it == NULL)
			continue;
		if (it->kind == NATSIO_SHUTDOWN) {
			free(it);
			break;
		}
		natsio_exec(n, it);
	}
}

static void natsio_stop_lease_thread(struct natsio *n)
{
	struct mbox_item *it = xcalloc(1, sizeof *it);

	it->kind = NATSIO_SHUTDOWN;
	__atomic_store_n(&n->stopping, 1, __ATOMIC_RELAXED);
	mailbox_to_thread_urgent(n->mb, it);
	uv_thread_join(&n->lease_thread);
}

static void natsio_main(void *arg)
{
	struct natsio *n = arg;
	unsigned since_fetch = 0;

	for (;;) {
		struct mbox_item *it = mailbox_take_command(n->mb, n->replays != NULL ? 0 : 1000);
		if (it != NULL) {
			if (it->kind == NATSIO_SHUTDOWN) {
				free(it);
				natsio_stop_lease_thread(n);
				break;
			}
			natsio_exec(n, it);
			if (n->replays == NULL || ++since_fetch < NATSIO_COMMANDS_PER_FETCH)
				continue;
		}
		since_fetch = 0;
		if (n->replays != NULL)
			natsio_replay_step(n);
	}
	natsio_shutdown(n);
	/* Commands posted after the shutdown are dropped with it. */
	natsio_drop_commands(n);
	{
		struct mbox_item *done = xcalloc(1, sizeof *done);
		done->kind = NATSIO_EV_CLOSED;
		mailbox_to_loop(n->mb, done);
	}
}

/* Start: connect, make or bind the stream and buckets, check them. */

static natsStatus natsio_bucket(
    struct natsio *n, kvStore **kv, const char *suffix, int64_t ttl_ms, char **err, int *usage)
{
	char name[200];
	kvConfig kc;
	kvStatus *st = NULL;
	struct natsio_try t;
	natsStatus s;

	snprintf(name, sizeof name, "tern-%s-%s", n->o.crawl, suffix);
	natsio_try_init(&t, n, name);
	do
		s = js_KeyValue(kv, n->js, name);
	while (natsio_try_again(&t, s, 0));
	if (s == NATS_NOT_FOUND) {
		kvConfig_Init(&kc);
		kc.Bucket = name;
		kc.History = 1;
		kc.TTL = ttl_ms * 1000000;
		kc.Replicas = n->o.replicas;
		kc.StorageType = js_FileStorage;
		natsio_try_init(&t, n, name);
		do
			s = js_CreateKeyValue(kv, n->js, &kc);
		while (natsio_try_again(&t, s, 0));
		/* Another node may have made it between the two calls (or an
		 * attempt that timed out did). */
		if (s != NATS_OK) {
			natsio_try_init(&t, n, name);
			do
				s = js_KeyValue(kv, n->js, name);
			while (natsio_try_again(&t, s, 0));
		}
	}
	if (s != NATS_OK) {
		char e[300];
		natsio_err(e, sizeof e, name, s);
		*err = xasprintf("NATS at %s: %s", n->shown, e);
		return s;
	}
	natsio_try_init(&t, n, name);
	do
		s = kvStore_Status(&st, *kv);
	while (natsio_try_again(&t, s, 0));
	if (s == NATS_OK) {
		int64_t have = kvStatus_TTL(st) / 1000000;
		kvStatus_Destroy(st);
		if (have != ttl_ms) {
			*err = xasprintf("cluster.lease-seconds: crawl '%s' on %s uses %" PRId64
					 " s, not %" PRId64 " s",
			    n->o.crawl, n->shown, have / 1000, ttl_ms / 1000);
			*usage = 1;
			return NATS_ERR;
		}
	}
	return NATS_OK;
}

/* The crawl's setting KEY in the meta bucket: written by the first node,
 * compared by every other (a mismatch is a usage error: exit 2). */
static natsStatus natsio_meta_check(
    struct natsio *n, const char *key, const char *name, const char *want, char **err, int *usage)
{
	struct natsio_try t;
	natsStatus s;
	kvEntry *e = NULL;
	uint64_t rev;

	natsio_try_init(&t, n, key);
	do
		s = kvStore_CreateString(&rev, n->meta, key, want);
	while (natsio_try_again(&t, s, 0));
	if (s == NATS_OK)
		return NATS_OK;
	natsio_try_init(&t, n, key);
	do
		s = kvStore_Get(&e, n->meta, key);
	while (natsio_try_again(&t, s, 0));
	if (s != NATS_OK) {
		char e2[300];
		natsio_err(e2, sizeof e2, key, s);
		*err = xasprintf("NATS at %s: %s", n->shown, e2);
		return s;
	}
	if (strcmp(kvEntry_ValueString(e), want) != 0) {
		if (strcmp(key, "partitions") == 0)
			*err = xasprintf(
			    "cluster.partitions: crawl '%s' on %s has %s partitions, not %s",
			    n->o.crawl, n->shown, kvEntry_ValueString(e), want);
		else
			*err = xasprintf("%s: crawl '%s' on %s is %s, not %s (every node "
					 "of one crawl gives the same)",
			    name, n->o.crawl, n->shown, kvEntry_ValueString(e), want);
		*usage = 1;
		kvEntry_Destroy(e);
		return NATS_ERR;
	}
	kvEntry_Destroy(e);
	return NATS_OK;
}

static natsStatus natsio_setup(struct natsio *n, char **err, int *usage)
{
	jsOptions jo;
	jsStreamConfig sc;
	jsStreamInfo *si = NULL;
	char subjects[200], pbuf[32];
	const char *subj[1];
	struct natsio_try t;
	jsErrCode jerr = 0;
	natsStatus s;

	jsOptions_Init(&jo);
	jo.Wait = (int64_t)n->o.api_timeout_ms;
	jo.PublishAsync.AckHandler = natsio_puback_cb;
	jo.PublishAsync.AckHandlerClosure = n;
	jo.PublishAsync.MaxPending = NATSIO_MAX_PUB_PENDING;
	s = natsConnection_JetStream(&n->js, n->nc, &jo);
	if (s == NATS_OK) {
		natsio_try_init(&t, n, "stream information");
		do
			s = js_GetStreamInfo(&si, n->js, n->stream, NULL, &jerr);
		while (natsio_try_again(&t, s, jerr));
		if (s == NATS_NOT_FOUND) {
			snprintf(subjects, sizeof subjects, "%s*.*", n->prefix);
			subj[0] = subjects;
			jsStreamConfig_Init(&sc);
			sc.Name = n->stream;
			sc.Subjects = subj;
			sc.SubjectsLen = 1;
			sc.Storage = js_FileStorage;
			sc.Replicas = n->o.replicas;
			natsio_try_init(&t, n, "stream creation");
			do
				s = js_AddStream(&si, n->js, &sc, NULL, &jerr);
			while (natsio_try_again(&t, s, jerr));
			/* Made by another node meanwhile, or by an attempt whose
			 * answer timed out. */
			if (s != NATS_OK) {
				natsio_try_init(&t, n, "stream information");
				do
					s = js_GetStreamInfo(&si, n->js, n->stream, NULL, &jerr);
				while (natsio_try_again(&t, s, jerr));
			}
		}
		jsStreamInfo_Destroy(si);
	}
	if (s != NATS_OK) {
		char e2[300];
		natsio_err(e2, sizeof e2, "JetStream", s);
		*err = xasprintf("NATS at %s: %s (is the server started with -js?)", n->shown, e2);
		return s;
	}
	if ((s = natsio_bucket(n, &n->owners, "owners", (int64_t)n->o.lease_ms, err, usage)) !=
		NATS_OK ||
	    (s = natsio_bucket(n, &n->nodes, "nodes", (int64_t)n->o.lease_ms, err, usage)) !=
		NATS_OK ||
	    (s = natsio_bucket(n, &n->meta, "meta", 0, err, usage)) != NATS_OK)
		return s;
	/* The partition count and the other settings nodes must share are
	 * fixed by the first node of the crawl: nodes partitioning
	 * differently would disagree on who owns a URI, a continuous node and
	 * a one-time node on the end (doc/cluster.md lists them). */
	snprintf(pbuf, sizeof pbuf, "%u", n->o.partitions);
	if ((s = natsio_meta_check(n, "partitions", "cluster.partitions", pbuf, err, usage)) !=
	    NATS_OK)
		return s;
	for (size_t i = 0; i < n->o.nagree; i++)
		if ((s = natsio_meta_check(n, n->o.agree[i].key, n->o.agree[i].name,
			 n->o.agree[i].value, err, usage)) != NATS_OK)
			return s;
	/* The caller's, valid only while starting. */
	n->o.agree = NULL;
	n->o.nagree = 0;
	{
		jsSubOptions so;
		char seeds[200];
		jsSubOptions_Init(&so);
		so.Stream = n->stream;
		so.Ordered = true;
		natsio_subject(n, NATSIO_SEEDS, 0, seeds, sizeof seeds);
		natsio_try_init(&t, n, "seeds");
		do
			s = js_Subscribe(
			    &n->seeds_sub, n->js, seeds, natsio_seed_cb, n, NULL, &so, &jerr);
		while (natsio_try_again(&t, s, jerr));
	}
	if (s == NATS_OK &&
	    natsSubscription_SetOnCompleteCB(n->seeds_sub, natsio_closed_cb, n) == NATS_OK)
		natsio_open_sub(n, 1);
	if (s == NATS_OK)
		s = natsConnection_Subscribe(&n->ctl_sub, n->nc, n->ctl_subject, natsio_ctl_cb, n);
	if (s == NATS_OK &&
	    natsSubscription_SetOnCompleteCB(n->ctl_sub, natsio_closed_cb, n) == NATS_OK)
		natsio_open_sub(n, 1);
	if (s != NATS_OK) {
		char e2[300];
		natsio_err(e2, sizeof e2, "subscribe", s);
		*err = xasprintf("NATS at %s: %s", n->shown, e2);
	}
	return s;
}

/* cluster.url may name several servers of a NATS cluster, comma-separated:
 * the client connects to any and fails over to the others. */
static natsStatus natsio_set_servers(natsOptions *opts, const char *url)
{
	char *copy = xstrdup(url), *p, *save = NULL;
	const char **list = NULL;
	int n = 0;
	natsStatus s;

	for (p = strtok_r(copy, ", ", &save); p != NULL; p = strtok_r(NULL, ", ", &save)) {
		list = xrealloc(list, (size_t)(n + 1) * sizeof *list);
		list[n++] = p;
	}
	s = n > 0 ? natsOptions_SetServers(opts, list, n) : NATS_INVALID_ARG;
	free(list);
	free(copy);
	return s;
}

static void natsio_comp_free(SSL_COMP *c)
{
	OPENSSL_free(c);
}

/* TLS and credentials (natsio_auth) on n->opts: NATS_OK, or an error and
 * *err naming the setting whose file could not be used. */
static natsStatus natsio_auth_set(struct natsio *n, const struct natsio_auth *a, char **err)
{
	natsStatus s = NATS_OK;
	const char *what = NULL;

#define NATSIO_SET(key, call)         \
	do {                          \
		if (s == NATS_OK) {   \
			what = (key); \
			s = (call);   \
		}                     \
	} while (0)
	if (strstr(n->o.url, "tls://") != NULL)
		n->tls = 1;
	if (a == NULL)
		return NATS_OK;
	if ((a->tls_ca != NULL && a->tls_ca[0] != '\0') ||
	    (a->tls_cert != NULL && a->tls_cert[0] != '\0') ||
	    (a->tls_key != NULL && a->tls_key[0] != '\0'))
		n->tls = 1;
	if (a->tls_ca != NULL && a->tls_ca[0] != '\0') {
		NATSIO_SET("cluster.tls-ca-file", natsOptions_SetSecure(n->opts, true));
		NATSIO_SET("cluster.tls-ca-file",
		    natsOptions_LoadCATrustedCertificates(n->opts, a->tls_ca));
	}
	if ((a->tls_cert != NULL && a->tls_cert[0] != '\0') ||
	    (a->tls_key != NULL && a->tls_key[0] != '\0')) {
		if (a->tls_cert == NULL || a->tls_cert[0] == '\0' || a->tls_key == NULL ||
		    a->tls_key[0] == '\0') {
			*err = xstrdup("cluster.tls-cert-file and cluster.tls-key-file go together "
				       "(a client certificate and its key)");
			return NATS_INVALID_ARG;
		}
		NATSIO_SET("cluster.tls-cert-file", natsOptions_SetSecure(n->opts, true));
		NATSIO_SET("cluster.tls-cert-file",
		    natsOptions_LoadCertificatesChain(n->opts, a->tls_cert, a->tls_key));
	}
	if (a->tls_hostname != NULL && a->tls_hostname[0] != '\0')
		NATSIO_SET("cluster.tls-hostname",
		    natsOptions_SetExpectedHostname(n->opts, a->tls_hostname));
	if (a->creds != NULL && a->creds[0] != '\0') {
		FILE *fp = fopen(a->creds, "r");
		if (fp == NULL) {
			*err = xasprintf("cluster.creds-file: %s: %s", a->creds, strerror(errno));
			return NATS_INVALID_ARG;
		}
		fclose(fp);
		NATSIO_SET("cluster.creds-file",
		    natsOptions_SetUserCredentialsFromFiles(n->opts, a->creds, NULL));
	}
	if (a->nkey != NULL && a->nkey[0] != '\0') {
		/* nats.c reads the seed again at each connection, but wants the
		 * public key too: derived once here from the seed. */
		char seed[256], pub[64], *e = NULL;
		size_t len = 0;
		FILE *fp = fopen(a->nkey, "r");
		if (fp != NULL) {
			len = fread(seed, 1, sizeof seed - 1, fp);
			fclose(fp);
		}
		seed[len] = '\0';
		if (fp == NULL) {
			*err = xasprintf("cluster.nkey-file: %s: %s", a->nkey, strerror(errno));
			return NATS_INVALID_ARG;
		}
		if (nkey_public(seed, pub, sizeof pub, &e) < 0) {
			*err = xasprintf("cluster.nkey-file: %s: %s", a->nkey, e);
			free(e);
			memset(seed, 0, sizeof seed);
			return NATS_INVALID_ARG;
		}
		memset(seed, 0, sizeof seed);
		NATSIO_SET("cluster.nkey-file", natsOptions_SetNKeyFromSeed(n->opts, pub, a->nkey));
	}
#undef NATSIO_SET
	if (s != NATS_OK) {
		const char *last = nats_GetLastError(NULL);
		*err = xasprintf(
		    "%s: %s", what, last != NULL && last[0] != '\0' ? last : natsStatus_GetText(s));
	}
	return s;
}

/* Why a connection was refused, for the person who reads it: nats.c's
 * last error and what to look at. *usage is set when the refusal is the
 * configuration's (credentials, TLS), not the network's. */
static char *natsio_connect_error(const struct natsio *n, natsStatus s, int *usage)
{
	const char *last = nats_GetLastError(NULL), *hint = "";

	switch (s) {
	case NATS_SECURE_CONNECTION_REQUIRED:
		hint = " (the server requires TLS: set cluster.tls-ca-file to the CA that signed "
		       "its certificate, or use a tls:// URL)";
		*usage = 1;
		break;
	case NATS_SECURE_CONNECTION_WANTED:
		hint = " (TLS is set here but the server does not offer it)";
		*usage = 1;
		break;
	case NATS_SSL_ERROR:
		if (!n->tls) {
			hint = " (the server requires TLS: set cluster.tls-ca-file to the CA "
			       "that signed its certificate)";
			*usage = 1;
			break;
		}
		hint = " (TLS failed: is the server's certificate signed by the CA of "
		       "cluster.tls-ca-file, and does it name the host of the URL or "
		       "cluster.tls-hostname?)";
		*usage = 1;
		break;
	case NATS_CONNECTION_AUTH_FAILED:
	case NATS_NOT_PERMITTED:
		hint = " (the server refused this node's credentials: the user and password "
		       "or token in cluster.url, cluster.nkey-file or cluster.creds-file)";
		*usage = 1;
		break;
	default:
		break;
	}
	/* nats.c's detail may quote the server, never the URL's secrets. */
	if (last != NULL && last[0] != '\0' && strcmp(last, natsStatus_GetText(s)) != 0)
		return xasprintf("cannot reach NATS at %s: %s: %s%s", n->shown,
		    natsStatus_GetText(s), last, hint);
	return xasprintf("cannot reach NATS at %s: %s%s", n->shown, natsStatus_GetText(s), hint);
}

static void natsio_free(struct natsio *n)
{
	natsSubscription_Destroy(n->seeds_sub);
	natsSubscription_Destroy(n->ctl_sub);
	kvStore_Destroy(n->owners);
	kvStore_Destroy(n->nodes);
	kvStore_Destroy(n->meta);
	jsCtx_Destroy(n->js);
	natsConnection_Destroy(n->nc);
	natsOptions_Destroy(n->opts);
	/* nats.c's own threads end here, so that nothing of the library
	 * outlives cluster mode. */
	nats_CloseAndWait(5000);
	/* nats.c, once it used TLS (asked to, or because the server requires
	 * it), frees OpenSSL's list of compression methods at exit, and
	 * OpenSSL frees it again after it (measured: a crash in
	 * OPENSSL_cleanup): the list is freed here and left empty, which both
	 * frees at exit accept. */
	sk_SSL_COMP_pop_free(SSL_COMP_set0_compression_methods(NULL), natsio_comp_free);
	free((char *)n->o.url);
	free(n->shown);
	free((char *)n->o.crawl);
	free((char *)n->o.node);
	free((char *)n->o.lease_value);
	free(n->sub);
	free(n->subctx);
	uv_cond_destroy(&n->open_cond);
	uv_mutex_destroy(&n->open_lock);
	free(n);
}

struct natsio *natsio_start(const struct natsio_opts *o, struct mailbox *mb, char **err, int *usage)
{
	struct natsio *n = xcalloc(1, sizeof *n);
	natsStatus s;
	unsigned p;

	*usage = 0;
	n->o = *o;
	n->o.url = xstrdup(o->url);
	n->shown = urlcreds_hide(o->url);
	memset(&n->o.auth, 0, sizeof n->o.auth);
	n->o.crawl = xstrdup(o->crawl);
	n->o.node = xstrdup(o->node);
	n->o.lease_value = xstrdup(o->lease_value);
	n->mb = mb;
	if (n->o.api_timeout_ms == 0)
		n->o.api_timeout_ms = 2000;
	if (n->o.api_backoff_ms == 0)
		n->o.api_backoff_ms = 250;
	if (uv_mutex_init(&n->open_lock) != 0 || uv_cond_init(&n->open_cond) != 0)
		abort();
	n->sub = xcalloc(o->partitions, sizeof *n->sub);
	n->subctx = xcalloc(o->partitions, sizeof *n->subctx);
	for (p = 0; p < o->partitions; p++) {
		n->subctx[p].n = n;
		n->subctx[p].partition = p;
	}
	snprintf(n->stream, sizeof n->stream, "tern-%s", o->crawl);
	snprintf(n->prefix, sizeof n->prefix, "tern.%s.", o->crawl);
	snprintf(n->ctl_subject, sizeof n->ctl_subject, "tern-ctl.%s", o->crawl);
	{
		/* The lease value ends in this process's nonce: message ids
		 * start with it, so two runs never share one. */
		const char *sp = strrchr(o->lease_value, ' ');
		snprintf(n->nonce, sizeof n->nonce, "%s", sp != NULL ? sp + 1 : "0");
		snprintf(n->msgid_prefix, sizeof n->msgid_prefix, "%s.", n->nonce);
	}
	natsio_node_key(o->node, n->node_key, sizeof n->node_key);

	s = natsOptions_Create(&n->opts);
	if (s == NATS_OK)
		s = natsio_set_servers(n->opts, o->url);
	if (s == NATS_OK)
		s = natsOptions_SetName(n->opts, o->node);
	if (s == NATS_OK)
		s = natsOptions_SetTimeout(n->opts, 3000);
	if (s == NATS_OK)
		s = natsOptions_SetMaxReconnect(n->opts, -1);
	if (s == NATS_OK)
		s = natsOptions_SetReconnectWait(n->opts, 250);
	if (s == NATS_OK)
		s = natsOptions_SetReconnectBufSize(n->opts, 64 * 1024 * 1024);
	if (s == NATS_OK)
		s = natsOptions_SetPingInterval(n->opts, 5000);
	if (s == NATS_OK)
		s = natsOptions_UseGlobalMessageDelivery(n->opts, true);
	if (s == NATS_OK)
		s = natsOptions_SetDisconnectedCB(n->opts, natsio_disconnected_cb, n);
	if (s == NATS_OK)
		s = natsOptions_SetReconnectedCB(n->opts, natsio_reconnected_cb, n);
	if (s == NATS_OK)
		s = natsOptions_SetErrorHandler(n->opts, natsio_error_cb, n);
	if (s == NATS_OK && natsio_auth_set(n, &o->auth, err) != NATS_OK) {
		*usage = 1;
		natsio_free(n);
		return NULL;
	}
	if (s == NATS_OK) {
		s = natsConnection_Connect(&n->nc, n->opts);
		if (s != NATS_OK) {
			*err = natsio_connect_error(n, s, usage);
			natsio_free(n);
			return NULL;
		}
	}
	if (s != NATS_OK) {
		*err = xasprintf("NATS options for %s: %s", n->shown, natsStatus_GetText(s));
		natsio_free(n);
		return NULL;
	}
	if (natsio_setup(n, err, usage) != NATS_OK) {
		uv_mutex_lock(&n->open_lock);
		if (n->refused[0] != '\0') {
			char *e = xasprintf(
			    "%s; the server refused this node a subject of crawl '%s' (%s): "
			    "its user's permissions must allow the crawl's subjects "
			    "(doc/cluster.md, \"Who can steer a crawl\")",
			    *err, n->o.crawl, n->refused);
			free(*err);
			*err = e;
			*usage = 1;
		}
		uv_mutex_unlock(&n->open_lock);
		natsConnection_Close(n->nc);
		natsio_free(n);
		return NULL;
	}
	mailbox_split_urgent(mb);
	if (uv_thread_create(&n->lease_thread, natsio_lease_main, n) != 0) {
		*err = xstrdup("cannot start the NATS client's thread");
		natsConnection_Close(n->nc);
		natsio_free(n);
		return NULL;
	}
	if (uv_thread_create(&n->thread, natsio_main, n) != 0) {
		*err = xstrdup("cannot start the NATS client's thread");
		natsio_stop_lease_thread(n);
		natsConnection_Close(n->nc);
		natsio_free(n);
		return NULL;
	}
	return n;
}

void natsio_join(struct natsio *n)
{
	uv_thread_join(&n->thread);
	/* What the loop posted between the thread's last look and its end. */
	natsio_drop_commands(n);
	natsio_free(n);
}

void natsio_drop(void *handle)
{
	natsMsg_Destroy(handle);
}

struct natsio_snapshot *natsio_read(const char *url, const struct natsio_auth *auth,
    const char *crawl, unsigned partitions, char **err)
{
	struct natsio *n = xcalloc(1, sizeof *n);
	struct natsio_snapshot *s = NULL;
	char name[200];
	natsStatus st;

	n->o.url = xstrdup(url);
	n->shown = urlcreds_hide(url);
	n->o.crawl = xstrdup(crawl);
	n->o.node = xstrdup("");
	n->o.lease_value = xstrdup("");
	n->o.partitions = partitions;
	if (uv_mutex_init(&n->open_lock) != 0 || uv_cond_init(&n->open_cond) != 0)
		abort();
	snprintf(n->stream, sizeof n->stream, "tern-%s", crawl);
	st = natsOptions_Create(&n->opts);
	if (st == NATS_OK)
		st = natsio_set_servers(n->opts, url);
	if (st == NATS_OK)
		st = natsOptions_SetTimeout(n->opts, 3000);
	if (st == NATS_OK)
		st = natsOptions_SetMaxReconnect(n->opts, 0);
	if (st == NATS_OK && (st = natsio_auth_set(n, auth, err)) != NATS_OK)
		goto out;
	if (st == NATS_OK && (st = natsConnection_Connect(&n->nc, n->opts)) != NATS_OK) {
		int usage = 0;
		*err = natsio_connect_error(n, st, &usage);
		goto out;
	}
	if (st == NATS_OK)
		st = natsConnection_JetStream(&n->js, n->nc, NULL);
	/* Bound, never made: a report must not create a crawl. */
	snprintf(name, sizeof name, "tern-%s-owners", crawl);
	if (st == NATS_OK)
		st = js_KeyValue(&n->owners, n->js, name);
	snprintf(name, sizeof name, "tern-%s-nodes", crawl);
	if (st == NATS_OK)
		st = js_KeyValue(&n->nodes, n->js, name);
	snprintf(name, sizeof name, "tern-%s-meta", crawl);
	if (st == NATS_OK)
		st = js_KeyValue(&n->meta, n->js, name);
	if (st != NATS_OK) {
		*err = xasprintf("crawl '%s' on NATS at %s: %s", crawl, n->shown,
		    st == NATS_NOT_FOUND ? "not found" : natsStatus_GetText(st));
		goto out;
	}
	s = natsio_snapshot_take(n, 0, 0);
	if (!s->ok) {
		*err = xasprintf("NATS at %s: %s", n->shown, s->err);
		natsio_snapshot_free(s);
		s = NULL;
	}
out:
	if (n->nc != NULL)
		natsConnection_Close(n->nc);
	natsio_free(n);
	return s;
}
