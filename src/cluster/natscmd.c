/* The client thread's commands but replays and views (private.h): lease
 * writes (on their own thread), publications, acknowledgments, and each
 * partition's live consumer, made after its replay and closed when the
 * partition goes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/private.h"
#include "lib/xmalloc.h"

/* Unacknowledged hand-offs per partition the server lets out to its owner. */
#define NATSIO_MAX_ACK_PENDING 256

/* Commands, on the client's thread. */

static int natscmd_value_is_ours(const struct natsio *n, kvEntry *e)
{
	const char *v = kvEntry_ValueString(e);

	return v != NULL && strcmp(v, n->o.lease_value) == 0;
}

/* A lease write that failed: what the key holds tells whether one of our
 * earlier unanswered writes landed (FOUND), someone else's did (REFUSED),
 * or nothing can be told now (UNKNOWN). */
static enum lease_result natscmd_after_failed_write(
    struct natsio *n, const char *key, natsStatus s, uint64_t *rev)
{
	kvEntry *e = NULL;
	struct natscall_try t;
	natsStatus g;
	enum lease_result r;

	(void)s;
	natscall_try_init(&t, n, "lease check");
	do
		g = kvStore_Get(&e, n->owners, key);
	while (natscall_try_again(&t, g, 0));
	if (g == NATS_NOT_FOUND)
		return LEASE_REFUSED;
	if (g != NATS_OK)
		return LEASE_UNKNOWN;
	if (natscmd_value_is_ours(n, e)) {
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
 * and the key, holding our value, tells (natscmd_after_failed_write). The
 * loop keeps the first attempt's send time, earlier than any landing, so
 * the lease is never taken for longer than it holds. */
void natscmd_exec_kv(struct natsio *n, struct natsio_kv *kv)
{
	char key[32];
	uint64_t rev = 0;
	struct natscall_try t;
	natsStatus s;

	natscall_part_key(kv->partition, key, sizeof key);
	natscall_try_init(&t, n, "lease write");
	do {
		if (kv->op == NATSIO_RELEASE)
			s = kvStore_UpdateString(&rev, n->owners, key, "", kv->rev);
		else if (kv->rev == 0)
			s = kvStore_CreateString(&rev, n->owners, key, n->o.lease_value);
		else
			s = kvStore_UpdateString(&rev, n->owners, key, n->o.lease_value, kv->rev);
	} while (natscall_try_again(&t, s, 0));
	if (s == NATS_OK)
		kv->result = LEASE_OK;
	else if (kv->op == NATSIO_RELEASE)
		kv->result = natscall_transient(s, 0) ? LEASE_UNKNOWN : LEASE_REFUSED;
	else
		kv->result = natscmd_after_failed_write(n, key, s, &rev);
	kv->rev = rev;
	kv->it.kind = NATSIO_EV_KV;
	mailbox_to_loop(n->mb, &kv->it);
}

void natscmd_exec_publish(struct natsio *n, struct natsio_pub *p)
{
	char subject[200], id[64];
	natsMsg *m = NULL;
	jsPubOptions po;
	natsStatus s;

	natscall_subject(n, p->subject, p->partition, subject, sizeof subject);
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
		natscall_err(a->err, sizeof a->err, "publish", s);
		mailbox_to_loop(n->mb, &a->it);
	}
	free(p);
}

void natscmd_exec_ack(struct natsio *n, struct natsio_ack *a)
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
static void natscmd_consumer_name(struct natsio *n, unsigned p, char *out, size_t cap)
{
	snprintf(out, cap, "p%u-%s-%u", p, n->nonce, ++n->consumer_serial);
}

/* Is name a consumer of partition p, made by any process ("pN-..."), or
 * by a version that used one name per partition ("pN")? */
static int natscmd_consumer_of(const char *name, unsigned p)
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
static void natscmd_delete_stale_consumers(struct natsio *n, unsigned p)
{
	jsConsumerNamesList *l = NULL;
	struct natscall_try t;
	jsErrCode jerr = 0;
	natsStatus s;
	int i;

	natscall_try_init(&t, n, "consumer names");
	do
		s = js_ConsumerNames(&l, n->js, n->stream, NULL, &jerr);
	while (natscall_try_again(&t, s, jerr));
	if (s != NATS_OK)
		return;
	for (i = 0; i < l->Count; i++)
		if (natscmd_consumer_of(l->List[i], p)) {
			natscall_try_init(&t, n, "consumer deletion");
			do
				s = js_DeleteConsumer(n->js, n->stream, l->List[i], NULL, &jerr);
			while (natscall_try_again(&t, s, jerr));
		}
	jsConsumerNamesList_Destroy(l);
}

void natscmd_exec_subscribe(struct natsio *n, struct natsio_part *c)
{
	char subject[200], name[64];
	jsSubOptions so;
	jsErrCode jerr = 0;
	struct natscall_try t;
	natsStatus s;

	c->it.kind = NATSIO_EV_SUBSCRIBED;
	c->ok = 0;
	if (n->sub[c->partition] != NULL) {
		c->ok = 1;
		mailbox_to_loop(n->mb, &c->it);
		return;
	}
	natscall_subject(n, NATSIO_URL, c->partition, subject, sizeof subject);
	/* The consumer of a partition is made afresh by each new owner,
	 * starting right after the log it replayed: what an earlier owner
	 * had consumed is in that log. */
	natscmd_delete_stale_consumers(n, c->partition);
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
	natscall_try_init(&t, n, "consumer");
	do {
		natscmd_consumer_name(n, c->partition, name, sizeof name);
		so.Config.Durable = name;
		s = js_Subscribe(&n->sub[c->partition], n->js, subject, natscall_msg_cb,
		    &n->subctx[c->partition], NULL, &so, &jerr);
	} while (natscall_try_again(&t, s, jerr));
	/* Told when its handler can run no more, so that the loop knows
	 * every message handle it will get for the partition. */
	if (s == NATS_OK) {
		s = natsSubscription_SetOnCompleteCB(
		    n->sub[c->partition], natscall_sub_done_cb, &n->subctx[c->partition]);
		if (s == NATS_OK)
			natscall_open_sub(n, 1);
	}
	if (s != NATS_OK) {
		if (n->sub[c->partition] != NULL) {
			natsSubscription_Unsubscribe(n->sub[c->partition]);
			natsSubscription_Destroy(n->sub[c->partition]);
		}
		n->sub[c->partition] = NULL;
		natscall_err(c->err, sizeof c->err, "subscribe", s);
	} else {
		c->ok = 1;
	}
	mailbox_to_loop(n->mb, &c->it);
}

void natscmd_exec_unsubscribe(struct natsio *n, struct natsio_part *c)
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
