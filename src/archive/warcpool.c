/* Building WARC records on libuv's worker threads, queueing them in order on
 * the loop (warcpool.h says what the order promises).
 *
 * Who owns what. An entry belongs to the loop from the moment it is made
 * until its batch is handed to uv_queue_work; from then until the batch's
 * after-work callback (which libuv runs on the loop) the worker thread reads
 * the entry's inputs (cap, store, links, stamp) and writes its output (out),
 * while the loop touches only the entry's queue link (next), which the
 * worker never reads. libuv's queue hands the batch over under its mutex
 * both ways, so each side sees everything the other wrote before. The
 * engines are the only thing shared while batches run: a stack under a
 * mutex, one engine per batch in flight, made on the loop at the start
 * (making one sets up the shared digest template, which is not safe from
 * two threads). Nothing else of the writer is read by a worker: the stamp
 * copied at submission is all a build needs to know of the file.
 *
 * Builds on a worker cannot fail: their inputs are in memory (a capture
 * whose body was spilled to a file is built on the loop when it is handed
 * in, as before, so that an unreadable spill file is refused there). */
#include <build-config.h>

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "archive/dedup.h"
#include "archive/warc.h"
#include "archive/warcpool.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

/* Captures handed to a thread in one batch at most; a fuller batch goes
 * before the loop's next kick. */
#define WARCPOOL_BATCH 64
/* While a batch is on a thread, the loop's kick sends another only from
 * this many captures: each batch costs a thread's wake-up and the loop's,
 * and the running batch's end sends what gathered meanwhile anyway. */
#define WARCPOOL_BATCH_MIN 16
/* Bounds of what waits to be queued: past them the crawl starts no new
 * fetch (warcpool_busy). The fetches in progress still hand in theirs, so
 * the bounds are soft by at most the connections' own bodies. */
#define WARCPOOL_MAX_CAPTURES 4096
#define WARCPOOL_MAX_BYTES (64u << 20)
/* Ended entries kept for reuse, with up to this much room each. */
#define WARCPOOL_SPARES 256
#define WARCPOOL_KEEP_ROOM (64u << 10)
#define WARCPOOL_MAX_THREADS 64

enum warcpool_kind { WARCPOOL_HTTP, WARCPOOL_DNS, WARCPOOL_LINES, WARCPOOL_HOLD };

struct warcpool_entry {
	/* The loop's alone. */
	struct warcpool_entry *next; /* the order, or the spares */
	enum warcpool_kind kind;
	int built;	       /* out holds the records */
	void (*cb)(void *arg); /* WARCPOOL_HOLD */
	void *arg;
	size_t weight;	   /* counted in p->bytes */
	const char *dedup; /* in store: the digest to commit, or NULL */
	/* Read by the worker while its batch runs (written before). */
	struct warcpool_entry *batch_next;
	struct buf store;	    /* copies of the inputs; WARCPOOL_LINES: the lines */
	struct buf body;	    /* the payload, taken from the caller's buffer */
	struct buf links;	    /* the outlinks, taken likewise */
	struct warc_capture cap;    /* pointing into store */
	const char *host, *ip, *rr; /* WARCPOOL_DNS, into store */
	size_t rr_len;
	uint64_t date_us;
	int spill_fd; /* a duplicate, or -1 */
	struct warc_stamp stamp;
	/* Written by the worker. */
	struct buf out;
};

struct warcpool_batch {
	uv_work_t req;
	struct warcpool *p;
	struct warcpool_entry *first;
	struct warcpool_batch *next; /* spares */
};

struct warcpool {
	uv_loop_t *loop;
	struct warc_writer *w;
	struct dedup *dedup;
	FILE *crawllog;
	int threads;
	struct warcpool_entry *head, *tail;
	struct warcpool_entry *spare;
	int nspare;
	/* The batch being filled, handed out by warcpool_kick. */
	struct warcpool_entry *open_first, *open_last;
	int open_count;
	int running; /* batches on threads */
	struct warcpool_batch *spare_batch;
	size_t captures; /* handed in, not yet queued in the writer */
	size_t bytes;
	int draining;
	char *stuck;	 /* why the head cannot be queued */
	uv_mutex_t lock; /* engines */
	struct warc_engine *engines[WARCPOOL_MAX_THREADS];
	int nengines;
};

static struct warcpool_entry *warcpool_entry_new(struct warcpool *p, enum warcpool_kind kind)
{
	struct warcpool_entry *e = p->spare;

	if (e != NULL) {
		p->spare = e->next;
		p->nspare--;
	} else {
		e = xcalloc(1, sizeof *e);
		buf_init(&e->store);
		buf_init(&e->body);
		buf_init(&e->links);
		buf_init(&e->out);
	}
	e->next = NULL;
	e->batch_next = NULL;
	e->kind = kind;
	e->built = 0;
	e->weight = 0;
	e->dedup = NULL;
	e->spill_fd = -1;
	return e;
}

static void warcpool_entry_free(struct warcpool_entry *e)
{
	buf_free(&e->store);
	buf_free(&e->body);
	buf_free(&e->links);
	buf_free(&e->out);
	free(e);
}

static void warcpool_recycle(struct warcpool *p, struct warcpool_entry *e)
{
	if (e->spill_fd >= 0) {
		close(e->spill_fd);
		e->spill_fd = -1;
	}
	if (p->nspare >= WARCPOOL_SPARES) {
		warcpool_entry_free(e);
		return;
	}
	buf_reset_keep(&e->store, WARCPOOL_KEEP_ROOM);
	buf_reset_keep(&e->body, WARCPOOL_KEEP_ROOM);
	buf_reset_keep(&e->links, WARCPOOL_KEEP_ROOM);
	buf_reset_keep(&e->out, WARCPOOL_KEEP_ROOM);
	e->next = p->spare;
	p->spare = e;
	p->nspare++;
}

static void warcpool_append(struct warcpool *p, struct warcpool_entry *e)
{
	if (p->tail != NULL)
		p->tail->next = e;
	else
		p->head = e;
	p->tail = e;
}

/* The store is reserved whole before it is filled (warcpool_size), so the
 * copies never move and pointers to them can be taken at once. */
static size_t warcpool_size(const char *s, size_t n)
{
	return s != NULL ? n + 1 : 0;
}

static size_t warcpool_sizes(const char *s)
{
	return s != NULL ? strlen(s) + 1 : 0;
}

static const char *warcpool_keep(struct warcpool_entry *e, const char *s, size_t n)
{
	const char *at;

	if (s == NULL)
		return NULL;
	at = e->store.data + e->store.len;
	assert(e->store.len + n + 1 <= e->store.cap);
	buf_append(&e->store, s, n);
	buf_appendc(&e->store, '\0');
	return at;
}

static const char *warcpool_keeps(struct warcpool_entry *e, const char *s)
{
	return warcpool_keep(e, s, s != NULL ? strlen(s) : 0);
}

static int warcpool_rebuild_cb(
    void *arg, struct warc_engine *eng, const struct warc_stamp *s, struct buf *out, char **err)
{
	struct warcpool_entry *e = arg;

	if (e->kind == WARCPOOL_DNS)
		return warc_build_dns(
		    eng, s, e->host, e->ip, e->date_us, e->rr, e->rr_len, out, err);
	return warc_build_http(eng, s, &e->cap, out, NULL, err);
}

static struct warc_engine *warcpool_engine_take(struct warcpool *p)
{
	struct warc_engine *eng;

	uv_mutex_lock(&p->lock);
	/* One engine per batch in flight, and no more batches than engines. */
	assert(p->nengines > 0);
	eng = p->engines[--p->nengines];
	uv_mutex_unlock(&p->lock);
	return eng;
}

static void warcpool_engine_give(struct warcpool *p, struct warc_engine *eng)
{
	uv_mutex_lock(&p->lock);
	p->engines[p->nengines++] = eng;
	uv_mutex_unlock(&p->lock);
}

/* On a worker thread. */
static void warcpool_work_cb(uv_work_t *req)
{
	struct warcpool_batch *b = req->data;
	struct warc_engine *eng = warcpool_engine_take(b->p);

	for (struct warcpool_entry *e = b->first; e != NULL; e = e->batch_next) {
		char *err = NULL;

		buf_reset(&e->out);
		/* Inputs in memory: nothing to fail on. */
		if (warcpool_rebuild_cb(e, eng, &e->stamp, &e->out, &err) < 0)
			abort();
	}
	warcpool_engine_give(b->p, eng);
}

/* Queues in the writer everything at the head that is ready, writes the
 * lines and runs the callbacks that come after it. A callback may call back
 * into the pool (a checkpoint flushes): the loop here does not nest. */
static void warcpool_drain(struct warcpool *p)
{
	struct warcpool_entry *e;

	if (p->draining)
		return;
	p->draining = 1;
	while ((e = p->head) != NULL) {
		void (*cb)(void *) = NULL;
		void *arg = NULL;

		if (e->kind == WARCPOOL_HTTP || e->kind == WARCPOOL_DNS) {
			char *err = NULL;

			if (!e->built)
				break;
			if (warc_append(p->w, &e->stamp, &e->out, warcpool_rebuild_cb, e, &err) <
			    0) {
				free(p->stuck);
				p->stuck = err;
				break;
			}
			free(p->stuck);
			p->stuck = NULL;
			if (e->dedup != NULL && p->dedup != NULL)
				dedup_commit(p->dedup, e->dedup);
			p->captures--;
			p->bytes -= e->weight;
		} else if (e->kind == WARCPOOL_LINES) {
			fwrite(e->store.data, 1, e->store.len, p->crawllog);
		} else {
			cb = e->cb;
			arg = e->arg;
		}
		p->head = e->next;
		if (p->head == NULL)
			p->tail = NULL;
		warcpool_recycle(p, e);
		if (cb != NULL)
			cb(arg);
	}
	p->draining = 0;
}

static void warcpool_send(struct warcpool *p);

/* On the loop, once the batch's thread is done with it. */
static void warcpool_after_cb(uv_work_t *req, int status)
{
	struct warcpool_batch *b = req->data;
	struct warcpool *p = b->p;

	/* Nothing cancels a batch (uv_cancel is never called). */
	assert(status == 0);
	(void)status;
	for (struct warcpool_entry *e = b->first; e != NULL; e = e->batch_next) {
		e->built = 1;
		p->bytes += e->out.len;
		e->weight += e->out.len;
	}
	b->next = p->spare_batch;
	p->spare_batch = b;
	p->running--;
	warcpool_drain(p);
	if (p->open_first != NULL && p->running < p->threads)
		warcpool_send(p);
}

static void warcpool_send(struct warcpool *p)
{
	struct warcpool_batch *b;

	b = p->spare_batch;
	if (b != NULL)
		p->spare_batch = b->next;
	else
		b = xcalloc(1, sizeof *b);
	b->p = p;
	b->first = p->open_first;
	b->req.data = b;
	p->open_first = p->open_last = NULL;
	p->open_count = 0;
	p->running++;
	if (uv_queue_work(p->loop, &b->req, warcpool_work_cb, warcpool_after_cb) != 0)
		abort(); /* only with a NULL callback */
}

void warcpool_kick(struct warcpool *p)
{
	if (p->open_first != NULL && p->running < p->threads &&
	    (p->running == 0 || p->open_count >= WARCPOOL_BATCH_MIN))
		warcpool_send(p);
}

/* A capture handed in: to a batch, or already built (spilled bodies). */
static void warcpool_submit(struct warcpool *p, struct warcpool_entry *e)
{
	e->weight = e->store.len + e->body.len + e->out.len;
	p->captures++;
	p->bytes += e->weight;
	warcpool_append(p, e);
	if (e->built)
		return;
	if (p->open_last != NULL)
		p->open_last->batch_next = e;
	else
		p->open_first = e;
	p->open_last = e;
	if (++p->open_count >= WARCPOOL_BATCH && p->running < p->threads)
		warcpool_send(p);
}

/* Takes from's bytes into to: from gets to's old buffer, empty, with its
 * room. */
static const char *warcpool_take(struct buf *to, struct buf *from)
{
	struct buf t = *to;

	*to = *from;
	*from = t;
	buf_reset(from);
	return to->data;
}

int warcpool_http(struct warcpool *p, const struct warc_capture *c, const char *dedup_digest,
    struct buf *body, struct buf *links, char **err)
{
	struct warcpool_entry *e;
	struct warc_capture *k;
	struct warc_stamp s;
	size_t need;
	int rc,
	    take = body != NULL && body->data != NULL && c->payload == body->data &&
	    c->payload_len == body->len,
	    take_links = links != NULL && links->data != NULL && c->outlinks == links->data &&
	    c->outlinks_len == links->len;

	if ((rc = warc_begin_http(p->w, c, &s, err)) < 0)
		return rc;
	e = warcpool_entry_new(p, WARCPOOL_HTTP);
	e->stamp = s;
	need = warcpool_sizes(c->uri) + warcpool_sizes(c->ip) + warcpool_size(c->req, c->req_len) +
	    warcpool_size(c->resp_head, c->resp_head_len) +
	    (take ? 0 : warcpool_size(c->payload, c->payload_len)) +
	    warcpool_sizes(c->payload_digest) + warcpool_sizes(c->truncated) +
	    warcpool_sizes(c->refers_to_uri) + warcpool_sizes(c->refers_to_date) +
	    warcpool_sizes(c->via) + warcpool_sizes(c->hops) + warcpool_sizes(c->title) +
	    warcpool_sizes(c->protocol) + warcpool_sizes(c->tls_version) +
	    warcpool_sizes(c->cipher) + warcpool_sizes(dedup_digest) +
	    (take_links ? 0 : warcpool_size(c->outlinks, c->outlinks_len));
	buf_reset(&e->store);
	buf_reserve(&e->store, need);
	k = &e->cap;
	*k = *c;
	k->uri = warcpool_keeps(e, c->uri);
	k->ip = warcpool_keeps(e, c->ip);
	k->req = warcpool_keep(e, c->req, c->req_len);
	k->resp_head = warcpool_keep(e, c->resp_head, c->resp_head_len);
	/* The body and the outlinks change hands instead of being copied:
	 * the caller gets this entry's old buffers, empty, with their room. */
	k->payload =
	    take ? warcpool_take(&e->body, body) : warcpool_keep(e, c->payload, c->payload_len);
	k->outlinks = take_links ? warcpool_take(&e->links, links)
				 : warcpool_keep(e, c->outlinks, c->outlinks_len);
	k->payload_digest = warcpool_keeps(e, c->payload_digest);
	k->truncated = warcpool_keeps(e, c->truncated);
	k->refers_to_uri = warcpool_keeps(e, c->refers_to_uri);
	k->refers_to_date = warcpool_keeps(e, c->refers_to_date);
	k->via = warcpool_keeps(e, c->via);
	k->hops = warcpool_keeps(e, c->hops);
	k->title = warcpool_keeps(e, c->title);
	k->protocol = warcpool_keeps(e, c->protocol);
	k->tls_version = warcpool_keeps(e, c->tls_version);
	k->cipher = warcpool_keeps(e, c->cipher);
	e->dedup = warcpool_keeps(e, dedup_digest);
	k->payload_fd = -1;
	if (c->payload == NULL && c->payload_fd >= 0) {
		/* A spilled body: built here, read from the caller's file; the
		 * duplicate is kept for a rebuild at a rotation. */
		e->spill_fd = dup(c->payload_fd);
		if (e->spill_fd < 0) {
			*err = xasprintf("capture of %.200s: duplicating its spill file: %s",
			    c->uri, strerror(errno));
			warcpool_recycle(p, e);
			return -1;
		}
		k->payload_fd = e->spill_fd;
		buf_reset(&e->out);
		if ((rc = warc_build_http(
			 warc_loop_engine(p->w), &e->stamp, k, &e->out, NULL, err)) < 0) {
			warcpool_recycle(p, e);
			return rc;
		}
		e->built = 1;
	}
	warcpool_submit(p, e);
	return 0;
}

int warcpool_dns(struct warcpool *p, const char *host, const char *server_ip, uint64_t date_us,
    const char *rr_text, size_t len, char **err)
{
	struct warcpool_entry *e;
	struct warc_stamp s;
	int rc;

	if ((rc = warc_begin_dns(p->w, host, server_ip, &s, err)) < 0)
		return rc;
	e = warcpool_entry_new(p, WARCPOOL_DNS);
	e->stamp = s;
	buf_reset(&e->store);
	buf_reserve(&e->store,
	    warcpool_sizes(host) + warcpool_sizes(server_ip) + warcpool_size(rr_text, len));
	e->host = warcpool_keeps(e, host);
	e->ip = warcpool_keeps(e, server_ip);
	e->rr = warcpool_keep(e, rr_text, len);
	e->rr_len = len;
	e->date_us = date_us;
	warcpool_submit(p, e);
	return 0;
}

void warcpool_log(struct warcpool *p, const char *line, size_t len)
{
	struct warcpool_entry *e = p->tail;

	if (p->head == NULL) {
		fwrite(line, 1, len, p->crawllog);
		return;
	}
	if (e->kind != WARCPOOL_LINES) {
		e = warcpool_entry_new(p, WARCPOOL_LINES);
		warcpool_append(p, e);
	}
	buf_append(&e->store, line, len);
}

int warcpool_hold(struct warcpool *p, void (*cb)(void *arg), void *arg)
{
	struct warcpool_entry *e;

	if (p->head == NULL)
		return 0;
	e = warcpool_entry_new(p, WARCPOOL_HOLD);
	e->cb = cb;
	e->arg = arg;
	warcpool_append(p, e);
	return 1;
}

int warcpool_flush(struct warcpool *p, char **err)
{
	warcpool_drain(p);
	if (p->stuck != NULL) {
		*err = xasprintf("%s; %zu captures wait behind it", p->stuck, p->captures);
		return -1;
	}
	return warc_flush(p->w, err);
}

int warcpool_busy(const struct warcpool *p)
{
	return p->captures >= WARCPOOL_MAX_CAPTURES || p->bytes >= WARCPOOL_MAX_BYTES;
}

int warcpool_idle(const struct warcpool *p)
{
	return p->head == NULL;
}

struct warcpool *warcpool_new(
    uv_loop_t *loop, struct warc_writer *w, struct dedup *dedup, FILE *crawllog, int threads)
{
	struct warcpool *p = xcalloc(1, sizeof *p);

	p->loop = loop;
	p->w = w;
	p->dedup = dedup;
	p->crawllog = crawllog;
	if (threads <= 0) {
		/* A thread for each processor, up to libuv's default pool. */
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n < 1 ? 1 : n > 4 ? 4 : (int)n;
	}
	p->threads = threads > WARCPOOL_MAX_THREADS ? WARCPOOL_MAX_THREADS : threads;
	if (uv_mutex_init(&p->lock) != 0)
		abort();
	for (int i = 0; i < p->threads; i++)
		p->engines[p->nengines++] = warc_engine_new(w);
	if (dedup != NULL)
		dedup_hold_new(dedup);
	return p;
}

void warcpool_free(struct warcpool *p)
{
	if (p == NULL)
		return;
	/* No batch is on a thread: every entry is the loop's. */
	assert(p->running == 0);
	while (p->head != NULL) {
		struct warcpool_entry *e = p->head;

		p->head = e->next;
		if (e->spill_fd >= 0)
			close(e->spill_fd);
		warcpool_entry_free(e);
	}
	while (p->spare != NULL) {
		struct warcpool_entry *e = p->spare;

		p->spare = e->next;
		warcpool_entry_free(e);
	}
	while (p->spare_batch != NULL) {
		struct warcpool_batch *b = p->spare_batch;

		p->spare_batch = b->next;
		free(b);
	}
	for (int i = 0; i < p->nengines; i++)
		warc_engine_free(p->engines[i]);
	uv_mutex_destroy(&p->lock);
	free(p->stuck);
	free(p);
}
