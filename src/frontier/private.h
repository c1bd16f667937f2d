/* struct frontier, shared by the frontier's own files (frontier.c and the
 * rooms behind it: store, residency, qstate, enqueue, rotation, qreport)
 * and by nothing outside src/frontier/. One struct rather than one per
 * room, because the rooms are views of one object that must change
 * together: the state machine (qstate.c) keeps the ready structures, the
 * wheel, the store's state keys, the counters and residency in agreement
 * with every queue's state in one step, and the write batch (store.c)
 * carries the changes of all of them to one LevelDB write. Splitting the
 * fields among the rooms would only pass the same dozen pointers around. */
#ifndef TERN_FRONTIER_PRIVATE_H
#define TERN_FRONTIER_PRIVATE_H
#include <leveldb/c.h>
#include <stddef.h>
#include <stdint.h>

#include "frontier/frontier.h"
#include "frontier/keys.h"
#include "frontier/seen.h"
#include "frontier/wheel.h"
#include "frontier/wq.h"

struct bloom;

/* Inactive keys read from the store per refill (rotation.c). */
#define FRONTIER_PREFETCH 64

/* A held URI: what frontier_schedule was given, copied into one block. */
struct frontier_held {
	struct curi c;
	const char *canon, *queue_key, *surt;
	unsigned char fresh; /* judged new by enqueue_resolve_held */
};

struct frontier_pre {
	char *key;
	int prec;
	uint64_t seq;
};

struct frontier {
	char *dir;
	leveldb_t *db;
	leveldb_options_t *lopt;
	leveldb_cache_t *cache;
	leveldb_filterpolicy_t *filter;
	leveldb_readoptions_t *ro;
	leveldb_writeoptions_t *wo;
	leveldb_writebatch_t *wb;
	leveldb_writebatch_t *sorted; /* wb in key order, at each write (store.c) */
	size_t wb_ops;
	leveldb_iterator_t *it;		/* reused until the next write */
	frontier_prewrite_fn *prewrite; /* frontier_set_prewrite */
	void *prewrite_arg;
	struct frontier_companion companion; /* frontier_set_companion */
	struct frontier_options o;
	const struct config *cfg;
	unsigned cfg_gen;
	unsigned settings_gen;
	struct keys_counters c;
	struct wq_table *queues;
	/* Every queue key in the store or about to be: a miss means a new
	 * queue, with no store read (residency.c), once the keys of a
	 * reopened store are all read (qload_it NULL). */
	struct bloom *queue_keys;
	leveldb_iterator_t *qload_it;
	struct wq_list ready; /* READY, FIFO */
	struct wq_heap heap;  /* READY, best-first */
	uint64_t ready_seq;
	struct wq_list cold;
	struct wheel *wheel;
	size_t nin_process;
	struct wq *dirty;
	struct seen *seen;
	struct frontier_held **held;
	size_t nheld;
	struct frontier_pre pre[FRONTIER_PREFETCH];
	size_t npre, ipre;
	int pre_prec;
	uint64_t in_flight;
	size_t ahead_bytes; /* held by the queues' read-ahead (ahead.h) */
	/* The revisit schedule (due.c): the earliest due time, URIs released
	 * since the last flush, and whether the batch holds changes to it. */
	uint64_t due_next;
	size_t due_taken;
	int due_unwritten;
	uint64_t now;
	char *error;
	struct buf k, v;
};

#endif
