/* What a cluster node publishes (outbox.h): batches per partition, kept
 * until stored, done records in order behind their pages' links. */
#include <stdlib.h>
#include <string.h>

#include "cluster/outbox.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

/* A partition's records are published once this many bytes wait, or once
 * the first of them has waited OUTBOX_BATCH_MS. */
#define OUTBOX_MSG_BYTES (256 * 1024)
#define OUTBOX_BATCH_MS 100
/* A publication the stream did not store is sent again this much later. */
#define OUTBOX_RETRY_MS 1000

/* A publication until the stream stores it. */
struct outbox_pub {
	uint64_t token;
	enum natsio_subject subject;
	unsigned partition;
	uint64_t min_link; /* url and own messages: the first link number in it */
	uint64_t retry_at; /* 0 while in flight */
	size_t len;
	char *data;
};

struct outbox_done_rec {
	uint64_t gate; /* links numbered below it must be stored first */
	int flushed;   /* the crawl has written the disposition */
	int partition;
	size_t len;
	char line[]; /* the record, newline included */
};

struct outbox {
	struct mailbox *mb;
	unsigned np;
	/* Records waiting for their batch to go, per partition: links for
	 * its owner (url), links scheduled here, for the log only (own), and
	 * done records; *_min_link is the first link number in each. */
	struct buf *url, *own, *done, seeds;
	uint64_t *url_min_link, *own_min_link;
	uint64_t *since; /* when p's oldest waiting record came; 0: none */
	uint64_t next_link, next_token;
	struct outbox_pub **pend;
	size_t npend, cappend;
	/* Done records in the order given: a ring. */
	struct outbox_done_rec **dn;
	size_t dn_head, dn_len, dn_cap;
	uint64_t msgs, bytes, links, done_out, failures;
};

struct outbox *outbox_new(struct mailbox *mb, unsigned partitions)
{
	struct outbox *o = xcalloc(1, sizeof *o);
	unsigned p;

	o->mb = mb;
	o->np = partitions;
	o->url = xcalloc(partitions, sizeof *o->url);
	o->own = xcalloc(partitions, sizeof *o->own);
	o->done = xcalloc(partitions, sizeof *o->done);
	o->url_min_link = xmalloc(partitions * sizeof *o->url_min_link);
	o->own_min_link = xmalloc(partitions * sizeof *o->own_min_link);
	o->since = xcalloc(partitions, sizeof *o->since);
	for (p = 0; p < partitions; p++)
		o->url_min_link[p] = o->own_min_link[p] = UINT64_MAX;
	return o;
}

void outbox_free(struct outbox *o)
{
	unsigned p;
	size_t i;

	if (o == NULL)
		return;
	for (p = 0; p < o->np; p++) {
		buf_free(&o->url[p]);
		buf_free(&o->own[p]);
		buf_free(&o->done[p]);
	}
	buf_free(&o->seeds);
	for (i = 0; i < o->npend; i++) {
		free(o->pend[i]->data);
		free(o->pend[i]);
	}
	for (i = 0; i < o->dn_len; i++)
		free(o->dn[(o->dn_head + i) % o->dn_cap]);
	free(o->dn);
	free(o->pend);
	free(o->url);
	free(o->own);
	free(o->done);
	free(o->url_min_link);
	free(o->own_min_link);
	free(o->since);
	free(o);
}

static void outbox_send(struct outbox *o, struct outbox_pub *x)
{
	struct natsio_pub *p = xmalloc(sizeof *p + x->len);

	p->it.kind = NATSIO_PUBLISH;
	p->subject = x->subject;
	p->partition = x->partition;
	p->token = x->token;
	p->len = x->len;
	memcpy(p->data, x->data, x->len);
	x->retry_at = 0;
	o->msgs++;
	o->bytes += x->len;
	mailbox_to_thread(o->mb, &p->it);
}

static void outbox_publish(
    struct outbox *o, enum natsio_subject subj, unsigned p, struct buf *b, uint64_t min_link)
{
	struct outbox_pub *x = xcalloc(1, sizeof *x);

	x->token = ++o->next_token;
	x->subject = subj;
	x->partition = p;
	x->min_link = min_link;
	x->len = b->len;
	x->data = buf_steal(b);
	buf_init(b);
	if (o->npend == o->cappend) {
		o->cappend = o->cappend ? o->cappend * 2 : 64;
		o->pend = xrealloc(o->pend, o->cappend * sizeof *o->pend);
	}
	o->pend[o->npend++] = x;
	outbox_send(o, x);
}

int outbox_add_url(
    struct outbox *o, unsigned p, const struct handoff_url *r, int own, uint64_t now_ms)
{
	uint64_t *min = own ? &o->own_min_link[p] : &o->url_min_link[p];

	if (handoff_append_url(own ? &o->own[p] : &o->url[p], r) < 0)
		return -1;
	if (o->since[p] == 0)
		o->since[p] = now_ms;
	if (*min == UINT64_MAX)
		*min = o->next_link;
	o->next_link++;
	o->links++;
	return 0;
}

int outbox_add_seed(struct outbox *o, const char *href, int guarded)
{
	return handoff_append_seed(&o->seeds, href, guarded) < 0 ? -1 : 0;
}

void outbox_done(struct outbox *o, int p, const struct handoff_done *rec)
{
	struct buf line = BUF_INIT;
	struct outbox_done_rec *d;

	if (handoff_append_done(&line, rec) < 0) {
		buf_free(&line);
		return;
	}
	d = xmalloc(sizeof *d + line.len);
	d->gate = o->next_link;
	d->flushed = 0;
	d->partition = p;
	d->len = line.len;
	memcpy(d->line, line.data, line.len);
	buf_free(&line);
	if (o->dn_len == o->dn_cap) {
		size_t cap = o->dn_cap ? o->dn_cap * 2 : 256, i;
		struct outbox_done_rec **dn = xmalloc(cap * sizeof *dn);
		for (i = 0; i < o->dn_len; i++)
			dn[i] = o->dn[(o->dn_head + i) % o->dn_cap];
		free(o->dn);
		o->dn = dn;
		o->dn_head = 0;
		o->dn_cap = cap;
	}
	o->dn[(o->dn_head + o->dn_len++) % o->dn_cap] = d;
}

void outbox_flushed(struct outbox *o)
{
	size_t i;

	for (i = 0; i < o->dn_len; i++)
		o->dn[(o->dn_head + i) % o->dn_cap]->flushed = 1;
}

int outbox_answered(struct outbox *o, const struct natsio_puback *pa, uint64_t now_ms)
{
	size_t i;

	for (i = 0; i < o->npend; i++) {
		struct outbox_pub *x = o->pend[i];
		if (x->token != pa->token)
			continue;
		if (pa->ok) {
			free(x->data);
			free(x);
			o->pend[i] = o->pend[--o->npend];
			return 0;
		}
		x->retry_at = now_ms + OUTBOX_RETRY_MS;
		return o->failures++ % 100 == 0;
	}
	return 0;
}

/* The lowest link number not yet stored by the stream. */
static uint64_t outbox_stored_floor(const struct outbox *o)
{
	uint64_t floor = o->next_link;
	size_t i;
	unsigned p;

	for (i = 0; i < o->npend; i++)
		if (o->pend[i]->min_link < floor)
			floor = o->pend[i]->min_link;
	for (p = 0; p < o->np; p++) {
		if (o->url_min_link[p] < floor)
			floor = o->url_min_link[p];
		if (o->own_min_link[p] < floor)
			floor = o->own_min_link[p];
	}
	return floor;
}

/* Done records whose disposition is written and whose page's links are all
 * stored move to their partitions' batches, in order. */
static void outbox_release_done(struct outbox *o, uint64_t now_ms)
{
	uint64_t floor = outbox_stored_floor(o);

	while (o->dn_len > 0) {
		struct outbox_done_rec *d = o->dn[o->dn_head];
		int p = d->partition;
		if (!d->flushed || d->gate > floor)
			break;
		if (p >= 0 && (unsigned)p < o->np) {
			buf_append(&o->done[p], d->line, d->len);
			o->done_out++;
			if (o->since[p] == 0)
				o->since[p] = now_ms;
		}
		free(d);
		o->dn_head = (o->dn_head + 1) % o->dn_cap;
		o->dn_len--;
	}
}

static void outbox_flush(struct outbox *o, uint64_t now_ms, int force)
{
	unsigned p;

	if (o->seeds.len > 0)
		outbox_publish(o, NATSIO_SEEDS, 0, &o->seeds, UINT64_MAX);
	for (p = 0; p < o->np; p++) {
		int all;
		if (o->since[p] == 0)
			continue;
		all = force || now_ms - o->since[p] >= OUTBOX_BATCH_MS;
		if (o->url[p].len > 0 && (all || o->url[p].len >= OUTBOX_MSG_BYTES)) {
			outbox_publish(o, NATSIO_URL, p, &o->url[p], o->url_min_link[p]);
			o->url_min_link[p] = UINT64_MAX;
		}
		if (o->own[p].len > 0 && (all || o->own[p].len >= OUTBOX_MSG_BYTES)) {
			outbox_publish(o, NATSIO_OWN, p, &o->own[p], o->own_min_link[p]);
			o->own_min_link[p] = UINT64_MAX;
		}
		if (o->done[p].len > 0 && (all || o->done[p].len >= OUTBOX_MSG_BYTES))
			outbox_publish(o, NATSIO_DONE, p, &o->done[p], UINT64_MAX);
		/* What still waits keeps its age. */
		if (o->url[p].len == 0 && o->own[p].len == 0 && o->done[p].len == 0)
			o->since[p] = 0;
	}
}

void outbox_tick(struct outbox *o, uint64_t now_ms, int force)
{
	size_t i;

	for (i = 0; i < o->npend; i++)
		if (o->pend[i]->retry_at != 0 && o->pend[i]->retry_at <= now_ms)
			outbox_send(o, o->pend[i]);
	outbox_release_done(o, now_ms);
	outbox_flush(o, now_ms, force);
}

size_t outbox_waiting(const struct outbox *o)
{
	size_t n = o->npend + o->dn_len + o->seeds.len;
	unsigned p;

	for (p = 0; p < o->np; p++)
		n += o->url[p].len + o->own[p].len + o->done[p].len;
	return n;
}

int outbox_settled(const struct outbox *o)
{
	return o->npend == 0 && o->dn_len == 0;
}

int outbox_partition_settled(const struct outbox *o, unsigned p)
{
	size_t i;

	if (o->own[p].len > 0 || o->done[p].len > 0)
		return 0;
	for (i = 0; i < o->dn_len; i++)
		if (o->dn[(o->dn_head + i) % o->dn_cap]->partition == (int)p)
			return 0;
	for (i = 0; i < o->npend; i++)
		if (o->pend[i]->partition == p &&
		    (o->pend[i]->subject == NATSIO_OWN || o->pend[i]->subject == NATSIO_DONE))
			return 0;
	return 1;
}

void outbox_stats(const struct outbox *o, json_t *obj)
{
	json_object_set_new(obj, "links_sent", json_integer((json_int_t)o->links));
	json_object_set_new(obj, "done_sent", json_integer((json_int_t)o->done_out));
	json_object_set_new(obj, "messages_sent", json_integer((json_int_t)o->msgs));
	json_object_set_new(obj, "bytes_sent", json_integer((json_int_t)o->bytes));
	json_object_set_new(obj, "publish_failures", json_integer((json_int_t)o->failures));
}
