/* Replays and compactions, the NATS side (private.h, doc/cluster.md): a
 * partition's log read through a pull consumer a fetch at a time between
 * other commands, and a compaction's reduced log stored on the
 * partition's snapshot subjects before the log is purged up to it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/private.h"
#include "lib/xmalloc.h"

/* A partition's log is read in fetches of this many messages. */
#define NATSIO_REPLAY_BATCH 512
/* A snapshot's messages: well under the server's 1 MiB payload limit. */
#define NATSIO_COMPACT_CHUNK (256 * 1024)

/* Replays: a pull consumer over the partition's url and done subjects from
 * the start of the stream, read one fetch at a time between commands. */

static void natsreplay_post_failure(struct natsio *n, unsigned p, const char *what, natsStatus s)
{
	struct natsio_replay *r = xcalloc(1, sizeof *r);

	r->it.kind = NATSIO_EV_REPLAY;
	r->partition = p;
	r->compact = n->compacting;
	r->failed = 1;
	r->done = 1;
	natscall_err(r->err, sizeof r->err, what, s);
	mailbox_to_loop(n->mb, &r->it);
}

static void natsreplay_start(struct natsio *n, unsigned p, int compact, uint64_t upto)
{
	char filter[200];
	jsSubOptions so;
	jsConsumerInfo *ci = NULL;
	natsSubscription *sub = NULL;
	struct natscall_try t;
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
	natscall_try_init(&t, n, "replay");
	do
		s = js_PullSubscribe(&sub, n->js, filter, NULL, NULL, &so, &jerr);
	while (natscall_try_again(&t, s, jerr));
	if (s == NATS_OK) {
		natscall_try_init(&t, n, "replay");
		do
			s = natsSubscription_GetConsumerInfo(&ci, sub, NULL, &jerr);
		while (natscall_try_again(&t, s, jerr));
	}
	if (s != NATS_OK) {
		if (sub != NULL) {
			natsSubscription_Unsubscribe(sub);
			natsSubscription_Destroy(sub);
		}
		n->compacting = compact;
		natsreplay_post_failure(n, p, "replay", s);
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

void natsreplay_step(struct natsio *n)
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
		natsreplay_post_failure(
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

void natsreplay_exec(struct natsio *n, struct natsio_part *c)
{
	unsigned p = c->partition;

	free(c);
	natsreplay_start(n, p, 0, 0);
}

/* Compaction, first half: the partition's log is read, as a replay, for
 * the loop to reduce, up to the last sequence below which its live
 * consumer has every url record acknowledged (purging one it still has to
 * deliver would lose it): the stream's last sequence, read before the
 * consumer, when the consumer then has nothing pending; the last one it
 * delivered when it has nothing unacknowledged; else its acknowledgment
 * floor. Own and done records are published, not consumed: any stored
 * one may go. */
void natsreplay_compact_read(struct natsio *n, struct natsio_part *c)
{
	jsConsumerInfo *ci = NULL;
	jsStreamInfo *si = NULL;
	unsigned p = c->partition;
	struct natscall_try t;
	jsErrCode jerr = 0;
	natsStatus s = NATS_ERR;
	uint64_t upto = 0, last = 0;

	if (n->sub[p] != NULL) {
		natscall_try_init(&t, n, "compaction");
		do
			s = js_GetStreamInfo(&si, n->js, n->stream, NULL, &jerr);
		while (natscall_try_again(&t, s, jerr));
	}
	if (s == NATS_OK) {
		last = si->State.LastSeq;
		jsStreamInfo_Destroy(si);
		natscall_try_init(&t, n, "compaction");
		do
			s = natsSubscription_GetConsumerInfo(&ci, n->sub[p], NULL, &jerr);
		while (natscall_try_again(&t, s, jerr));
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
			natscall_err(c->err, sizeof c->err, "compaction", s);
		mailbox_to_loop(n->mb, &c->it);
		return;
	}
	free(c);
	natsreplay_start(n, p, 1, upto);
}

/* Publishes data (records, one a line) on subject in messages of at most
 * NATSIO_COMPACT_CHUNK bytes cut at line ends, each waited for. */
static natsStatus natsreplay_publish_lines(
    struct natsio *n, const char *subject, const char *data, size_t len)
{
	jsPubOptions po;
	struct natscall_try t;
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
		natscall_try_init(&t, n, "compaction");
		do
			s = js_Publish(NULL, n->js, subject, data + at, (int)n1, &po, &jerr);
		while (natscall_try_again(&t, s, jerr));
		at += n1;
	}
	return s;
}

/* Compaction, second half: the reduced log is stored on the partition's
 * snapshot subjects, and only then is everything of the partition up to
 * the floor purged (its earlier snapshot included): a reader that comes
 * between the two finds the records twice, never none. */
void natsreplay_compact_write(struct natsio *n, struct natsio_compact *w)
{
	struct natsio_part *e = xcalloc(1, sizeof *e);
	char subject[200], filter[200];
	jsOptions jo;
	struct natscall_try t;
	jsErrCode jerr = 0;
	natsStatus s;

	snprintf(subject, sizeof subject, "%ssnapu.%u", n->prefix, w->partition);
	s = natsreplay_publish_lines(n, subject, w->urls, w->urls_len);
	snprintf(subject, sizeof subject, "%ssnapd.%u", n->prefix, w->partition);
	if (s == NATS_OK)
		s = natsreplay_publish_lines(n, subject, w->dones, w->dones_len);
	if (s == NATS_OK) {
		snprintf(filter, sizeof filter, "%s*.%u", n->prefix, w->partition);
		jsOptions_Init(&jo);
		jo.Stream.Purge.Subject = filter;
		jo.Stream.Purge.Sequence = w->upto + 1;
		natscall_try_init(&t, n, "compaction");
		do
			s = js_PurgeStream(n->js, n->stream, &jo, &jerr);
		while (natscall_try_again(&t, s, jerr));
	}
	e->it.kind = NATSIO_EV_COMPACTED;
	e->partition = w->partition;
	e->ok = s == NATS_OK;
	e->start_seq = w->upto;
	if (s != NATS_OK)
		natscall_err(e->err, sizeof e->err, "compaction", s);
	free(w->urls);
	free(w->dones);
	free(w);
	mailbox_to_loop(n->mb, &e->it);
}
