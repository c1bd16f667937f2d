/* Queue residency (residency.c): the resident queue for a key, loaded from
 * the store on demand; the cold list of resident queues outside the working
 * set; and the write after which clean cold queues are evicted. */
#ifndef TERN_FRONTIER_RESIDENCY_H
#define TERN_FRONTIER_RESIDENCY_H
#include "frontier/private.h"

/* The resident queue for key, loading its metadata from the store, or
 * creating it when create is set; NULL if absent (or on a store error). */
struct wq *residency_get(struct frontier *f, const char *key, int create);
/* Learns the keys of the queues in the store (reopening), so that
 * residency_get reads the store only for a queue that may exist: the first
 * 256Ki at once, the rest 32Ki at each residency_load_more (once per
 * flush). Until all are read, residency_get reads the store for every
 * queue not resident. */
int residency_load(struct frontier *f, char **err);
int residency_load_more(struct frontier *f, char **err);
/* Ends a load under way (closing the store). */
void residency_load_stop(struct frontier *f);
/* Keys read at open and per flush (0: the defaults); smaller in tests. */
void residency_load_batches(size_t at_open, size_t per_flush);
/* Onto (at the tail) and off the cold list. */
void residency_cold_add(struct frontier *f, struct wq *q);
void residency_cold_del(struct frontier *f, struct wq *q);
/* Writes the batch (store_write), then evicts clean cold queues beyond the
 * cap. err may be NULL. */
int residency_write(struct frontier *f, char **err);

#endif
