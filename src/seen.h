/* The already-seen set: exact, kept in the frontier store as 's' CANON keys,
 * with three in-memory layers in front so that most tests cost no disk read:
 *   - a scalable Bloom filter (10 bits and 7 probes per URI, ~1% false
 *     positives; layers double in size as the crawl grows): a miss proves
 *     the URI new;
 *   - the set of URIs added since the last store write (exact);
 *   - a direct-mapped cache of recently tested URIs (exact strings).
 * Only a Bloom hit that neither exact layer answers reads the store, and
 * LevelDB's own per-table Bloom filters make that read cheap when the key is
 * absent. A false positive therefore costs one read and never loses a URI. */
#ifndef TERN_SEEN_H
#define TERN_SEEN_H
#include <stddef.h>
#include <stdint.h>
#include <leveldb/c.h>

struct seen;

struct seen_stats {
	uint64_t added;           /* URIs recorded */
	uint64_t lookups;
	uint64_t bloom_negative;  /* answered "new" by the Bloom filter */
	uint64_t pending_hits;    /* answered "seen" by the unwritten set */
	uint64_t cache_hits;      /* answered "seen" by the recent cache */
	uint64_t store_reads;     /* reads of the store */
	uint64_t store_misses;    /* of which the URI was new: Bloom false positives */
	size_t bloom_bytes;
	unsigned bloom_layers;
};

/* cache_slots: size of the recent cache (rounded up to a power of two). */
struct seen *seen_new(leveldb_t *db, size_t cache_slots);
void seen_free(struct seen *s);
/* Fills the Bloom filter from the store's seen keys (reopening a crawl). */
int seen_load(struct seen *s, char **err);
/* 1 if canon is new (recorded: a put is added to wb), 0 if it was seen,
 * negative on a store read error (message in *err). */
int seen_add(struct seen *s, const char *canon, leveldb_writebatch_t *wb, char **err);
/* wb was written: the unwritten set can be forgotten. */
void seen_flushed(struct seen *s);
void seen_get_stats(const struct seen *s, struct seen_stats *out);
uint64_t seen_hash(const char *s, size_t n);

#endif
