/* Store access and batching (store.c): every change of the frontier goes
 * into one LevelDB write batch, written by store_write; reads go through
 * store_get or the reused iterator (a walk that may outlast a write makes
 * its own on f->db). Queue metadata marked dirty is encoded
 * into the batch at the write. store_write leaves eviction to its one
 * caller, residency_write. */
#ifndef TERN_FRONTIER_STORE_H
#define TERN_FRONTIER_STORE_H
#include "frontier/private.h"

/* Records the first store error (lerr, LevelDB's, is freed; NULL: a corrupt
 * record): frontier_error and every later write report it. */
void store_fail(struct frontier *f, const char *what, char *lerr);
/* Reads k: 0 with *v (leveldb_free it) or NULL when absent; -1 after
 * store_fail(what) on a read error. */
int store_get(struct frontier *f, const struct buf *k, char **v, size_t *vlen, const char *what);
/* Adds to the batch (v NULL: an empty value). */
void store_put(struct frontier *f, const struct buf *k, const struct buf *v);
void store_del(struct frontier *f, const struct buf *k);
/* The queue's metadata goes into the next write. */
void store_dirty(struct frontier *f, struct wq *q);
/* The iterator over the written store, reused until the next write. */
leveldb_iterator_t *store_iter(struct frontier *f);
void store_iter_drop(struct frontier *f);
/* Puts the counters (keys_meta) in the batch. */
void store_counters_put(struct frontier *f);
/* Writes the batch as it stands (held URIs stay held); queues are clean
 * afterwards. -1 and *err (may be NULL) on the first store error. */
int store_write(struct frontier *f, char **err);
/* FRONTIER_CHECKPOINT_KEY = name, written synchronously. */
int store_mark(struct frontier *f, const char *name, char **err);
/* Opens the LevelDB store in dir under f->o (create=1: must not exist). */
int store_open(struct frontier *f, const char *dir, int create, char **err);
void store_close(struct frontier *f);

#endif
