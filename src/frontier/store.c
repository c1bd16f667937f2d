/* Store access and batching: the LevelDB handles, the one write batch
 * every change goes into, the reused iterator, and the write that carries
 * the batch, with the metadata of every dirty queue and the counters, to
 * the store in one LevelDB write. */
#include "frontier/store.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void store_fail(struct frontier *f, const char *what, char *lerr)
{
	if (f->error == NULL)
		f->error = xasprintf("%s: %s", what, lerr != NULL ? lerr : "corrupt record");
	if (lerr != NULL)
		leveldb_free(lerr);
}

int store_get(struct frontier *f, const struct buf *k, char **v, size_t *vlen, const char *what)
{
	char *lerr = NULL;

	*v = leveldb_get(f->db, f->ro, k->data, k->len, vlen, &lerr);
	if (lerr != NULL) {
		store_fail(f, what, lerr);
		*v = NULL;
		return -1;
	}
	return 0;
}

void store_put(struct frontier *f, const struct buf *k, const struct buf *v)
{
	leveldb_writebatch_put(
	    f->wb, k->data, k->len, v != NULL ? v->data : "", v != NULL ? v->len : 0);
	f->wb_ops++;
}

void store_del(struct frontier *f, const struct buf *k)
{
	leveldb_writebatch_delete(f->wb, k->data, k->len);
	f->wb_ops++;
}

void store_dirty(struct frontier *f, struct wq *q)
{
	if (!q->dirty) {
		q->dirty = 1;
		q->next_dirty = f->dirty;
		f->dirty = q;
	}
}

void store_iter_drop(struct frontier *f)
{
	if (f->it != NULL) {
		leveldb_iter_destroy(f->it);
		f->it = NULL;
	}
}

leveldb_iterator_t *store_iter(struct frontier *f)
{
	if (f->it == NULL)
		f->it = leveldb_create_iterator(f->db, f->ro);
	return f->it;
}

void store_counters_put(struct frontier *f)
{
	buf_reset(&f->k);
	keys_meta(&f->k);
	buf_reset(&f->v);
	keys_counters_encode(&f->v, &f->c);
	store_put(f, &f->k, &f->v);
}

/* One operation of the batch, pointing into it, in the order it was added. */
struct store_op {
	const char *k, *v;
	size_t kl, vl;
	size_t i;
	int del;
};

struct store_ops {
	struct store_op *op;
	size_t n, cap;
};

static void store_ops_add(
    struct store_ops *o, const char *k, size_t kl, const char *v, size_t vl, int del)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 1024;
		o->op = xrealloc(o->op, o->cap * sizeof(*o->op));
	}
	o->op[o->n].k = k;
	o->op[o->n].kl = kl;
	o->op[o->n].v = v;
	o->op[o->n].vl = vl;
	o->op[o->n].del = del;
	o->op[o->n].i = o->n;
	o->n++;
}

static void store_ops_put(void *arg, const char *k, size_t kl, const char *v, size_t vl)
{
	store_ops_add(arg, k, kl, v, vl, 0);
}

static void store_ops_del(void *arg, const char *k, size_t kl)
{
	store_ops_add(arg, k, kl, NULL, 0, 1);
}

/* Key order, and the order of addition for one key (the last one wins). */
static int store_op_cmp(const void *a, const void *b)
{
	const struct store_op *x = a, *y = b;
	int c = memcmp(x->k, y->k, x->kl < y->kl ? x->kl : y->kl);

	if (c != 0)
		return c;
	if (x->kl != y->kl)
		return x->kl < y->kl ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The batch in key order. LevelDB inserts a batch into its memtable (a
 * skip list) one entry at a time in the batch's order; the new URIs and
 * seen keys of a loop iteration are spread over the whole key range, so
 * each insert's search missed the caches at nearly every level. In key
 * order each search follows the previous one's path, which is cached.
 * Ops on one key keep their order, so the batch means the same. */
static void store_sort_batch(struct frontier *f)
{
	struct store_ops o = {NULL, 0, 0};
	size_t i;

	leveldb_writebatch_iterate(f->wb, &o, store_ops_put, store_ops_del);
	qsort(o.op, o.n, sizeof(*o.op), store_op_cmp);
	for (i = 0; i < o.n; i++) {
		if (o.op[i].del)
			leveldb_writebatch_delete(f->sorted, o.op[i].k, o.op[i].kl);
		else
			leveldb_writebatch_put(
			    f->sorted, o.op[i].k, o.op[i].kl, o.op[i].v, o.op[i].vl);
	}
	free(o.op);
}

int store_write(struct frontier *f, char **err)
{
	struct wq *q, *next;
	char *lerr = NULL;
	leveldb_writebatch_t *extra;

	if (f->error != NULL) {
		if (err != NULL)
			*err = xstrdup(f->error);
		return -1;
	}
	extra = f->companion.batch != NULL ? f->companion.batch(f->companion.arg) : NULL;
	if (f->wb_ops == 0 && f->dirty == NULL && extra == NULL)
		return 0;
	if (f->prewrite != NULL && f->prewrite(f->prewrite_arg, err) < 0)
		return -1;
	for (q = f->dirty; q != NULL; q = q->next_dirty) {
		buf_reset(&f->k);
		keys_queue(&f->k, q->key);
		buf_reset(&f->v);
		keys_qmeta_encode(&f->v, &q->m);
		store_put(f, &f->k, &f->v);
	}
	store_counters_put(f);
	store_sort_batch(f);
	/* The companion's entries after the frontier's, in one write: the
	 * append copies its batch's bytes, no more. Asked again since the
	 * prewrite hook may have added to it. */
	extra = f->companion.batch != NULL ? f->companion.batch(f->companion.arg) : NULL;
	if (extra != NULL)
		leveldb_writebatch_append(f->sorted, extra);
	leveldb_write(f->db, f->wo, f->sorted, &lerr);
	leveldb_writebatch_clear(f->sorted);
	if (lerr != NULL) {
		store_fail(f, "writing the frontier store", lerr);
		if (err != NULL)
			*err = xstrdup(f->error);
		return -1;
	}
	leveldb_writebatch_clear(f->wb);
	f->wb_ops = 0;
	if (extra != NULL)
		f->companion.written(f->companion.arg);
	store_iter_drop(f);
	seen_flushed(f->seen);
	for (q = f->dirty; q != NULL; q = next) {
		next = q->next_dirty;
		q->next_dirty = NULL;
		q->dirty = 0;
		q->batch_puts = 0;
		q->seek_out = 0;
		q->skip_out = 0;
	}
	f->dirty = NULL;
	return 0;
}

int store_mark(struct frontier *f, const char *name, char **err)
{
	leveldb_writeoptions_t *sync;
	char *lerr = NULL;

	/* One synchronous write also makes every earlier asynchronous one
	 * durable: they precede it in the same log. */
	sync = leveldb_writeoptions_create();
	leveldb_writeoptions_set_sync(sync, 1);
	leveldb_put(f->db, sync, FRONTIER_CHECKPOINT_KEY, sizeof(FRONTIER_CHECKPOINT_KEY) - 1, name,
	    strlen(name), &lerr);
	leveldb_writeoptions_destroy(sync);
	store_iter_drop(f);
	if (lerr != NULL) {
		store_fail(f, "writing the checkpoint marker", lerr);
		if (err != NULL)
			*err = xstrdup(f->error);
		return -1;
	}
	return 0;
}

int store_open(struct frontier *f, const char *dir, int create, char **err)
{
	const struct frontier_options *o = &f->o;
	char *lerr = NULL;

	f->lopt = leveldb_options_create();
	leveldb_options_set_create_if_missing(f->lopt, create);
	leveldb_options_set_error_if_exists(f->lopt, create);
	f->cache = leveldb_cache_create_lru((o->cache_mb > 0 ? o->cache_mb : 8) << 20);
	leveldb_options_set_cache(f->lopt, f->cache);
	leveldb_options_set_write_buffer_size(
	    f->lopt, (o->write_buffer_mb > 0 ? o->write_buffer_mb : 16) << 20);
	/* Per-table Bloom filters make reads of absent seen keys cheap. */
	f->filter = leveldb_filterpolicy_create_bloom(10);
	leveldb_options_set_filter_policy(f->lopt, f->filter);
	leveldb_options_set_compression(f->lopt, leveldb_snappy_compression);
	/* Every open table keeps its index and filter blocks in memory
	 * (~40 KiB for a 2 MiB table): bound them with the cache, not by
	 * LevelDB's default of 1000 tables. */
	leveldb_options_set_max_open_files(f->lopt,
	    o->cache_mb * 8 > 64 ? (int)(o->cache_mb * 8 > 4096 ? 4096 : o->cache_mb * 8) : 64);
	f->ro = leveldb_readoptions_create();
	f->wo = leveldb_writeoptions_create();
	leveldb_writeoptions_set_sync(f->wo, 0);
	f->wb = leveldb_writebatch_create();
	f->sorted = leveldb_writebatch_create();
	if (create)
		mkdir(dir, 0755);
	f->db = leveldb_open(f->lopt, dir, &lerr);
	if (lerr != NULL) {
		*err = xasprintf("%s: %s", dir, lerr);
		leveldb_free(lerr);
		return -1;
	}
	return 0;
}

void store_close(struct frontier *f)
{
	store_iter_drop(f);
	if (f->db != NULL)
		leveldb_close(f->db);
	leveldb_writebatch_destroy(f->wb);
	leveldb_writebatch_destroy(f->sorted);
	leveldb_readoptions_destroy(f->ro);
	leveldb_writeoptions_destroy(f->wo);
	leveldb_options_destroy(f->lopt);
	leveldb_cache_destroy(f->cache);
	leveldb_filterpolicy_destroy(f->filter);
}
