/* The payload-digest index behind revisit records: digest -> (URI, WARC-Date)
 * of the first capture with that payload in this crawl. It lives in the
 * frontier's LevelDB under keys "dedup:" + digest, so it survives resume;
 * new entries are batched and written in the frontier's own write (the
 * crawl makes the index the frontier's companion), or by dedup_flush. */
#ifndef TERN_DEDUP_H
#define TERN_DEDUP_H
#include <stdint.h>
#include "lib/buf.h"

struct dedup;

/* A filter of digests, lent by the caller (the crawl lends a Bloom filter
 * of the frontier's kind, frontier/bloom.h): test 0 proves a hash never
 * added. h: a well-mixed 64-bit hash of the digest. */
struct dedup_filter {
	void *arg;
	void (*add)(void *arg, uint64_t h);
	int (*test)(void *arg, uint64_t h);
};

struct dedup_stats {
	uint64_t memory_hits; /* answered by the entries in memory */
	uint64_t filtered;    /* proven new by the filter, without a read */
	uint64_t reads;	      /* LevelDB reads */
	uint64_t loaded;      /* digests read from the store into the filter */
	size_t memory_entries;
};

/* leveldb_db is a leveldb_t * owned by the caller and outliving the index. */
struct dedup *dedup_open(void *leveldb_db, char **err);
/* From now on every digest of the index is added to f, which must outlive
 * d: those in the store now (read in steps, the rest at each dedup_flush)
 * and each new one. Once all are in, a digest f has not seen is new
 * without a LevelDB read. -1 when the store could not be read (the index
 * then reads LevelDB for every check, as without a filter). */
int dedup_set_filter(struct dedup *d, const struct dedup_filter *f, char **err);
/* Digests read into the filter when it is set, then at each flush (tests
 * make them small; 0 restores the default). */
void dedup_load_batches(size_t at_open, size_t per_flush);
/* 1: the digest was recorded before; refers_uri and refers_date are set to
 * the original capture's (write a revisit). 0: new; it is recorded (batched)
 * with uri and date. The empty payload's digest is never recorded, since a
 * revisit of nothing saves nothing. -1: LevelDB read error (archive the
 * capture in full). */
int dedup_check(struct dedup *d, const char *digest, const char *uri, const char *date,
    struct buf *refers_uri, struct buf *refers_date);
/* From now on a new entry answers dedup_check at once but joins the batch
 * only through dedup_commit (the WARC pool's, once the capture's records are
 * queued), so a flush never writes an entry whose record could still be
 * lost. */
void dedup_hold_new(struct dedup *d);
/* Puts digest's held entry, if any, in the batch. */
void dedup_commit(struct dedup *d, const char *digest);
/* Drops digest's held entry, if any: its capture could not be handed in,
 * so no later capture may refer to it. */
void dedup_forget(struct dedup *d, const char *digest);
/* Writes the batch; reads the next digests into the filter while it
 * loads. */
int dedup_flush(struct dedup *d, char **err);
/* The batch, for a write that carries it with others (the frontier's,
 * frontier_set_companion): the leveldb_writebatch_t, or NULL when it is
 * empty; dedup_written once that write succeeded. */
void *dedup_batch(struct dedup *d);
void dedup_written(struct dedup *d);
/* Entries in the batch, waiting for dedup_flush. */
size_t dedup_pending(const struct dedup *d);
void dedup_get_stats(const struct dedup *d, struct dedup_stats *out);
void dedup_free(struct dedup *d);

#endif
