/* The already-seen set: exact, kept in the frontier store as 's' CANON keys,
 * with two in-memory layers in front so that most tests cost no disk read:
 *   - the memory set: the canonical URIs themselves (exact strings, hashed),
 *     up to a memory budget. While it holds every URI of the seen set it is
 *     complete and answers every test alone, new or seen. Past its budget it
 *     drops its oldest written entries (a URI hit in the older half is moved
 *     to the newest part first, so the links a site repeats stay), and then
 *     answers "seen" for what it holds and nothing else. URIs not yet
 *     written to the store are never dropped.
 *   - a scalable Bloom filter (storage.seen-bloom-bits bits and 7 probes per
 *     URI: at 16, ~0.1% false positives a full layer, at 10 ~1%; layers
 *     double in size as the crawl grows), always kept: once
 *     the memory set is incomplete, a Bloom miss proves a URI new.
 * Only a URI the incomplete memory set lacks and the Bloom filter knows
 * needs the store. Such a candidate is held by the caller (seen_check says
 * SEEN_MAYBE) and checked with the others of its batch by seen_resolve,
 * sorted, in one merge pass of an iterator over the store, as IRLbot's DRUM
 * and Heritrix's FPMerge filter batch their checks: duplicates within a
 * batch cost nothing, and a batch's neighbouring keys (the same host's
 * pages) cost an iterator step instead of a random read. A Bloom false
 * positive therefore costs part of a merge pass and never loses a URI.
 * seen_add is the synchronous form, for the rare caller that needs the
 * answer at once (forced schedules). */
#ifndef TERN_SEEN_H
#define TERN_SEEN_H
#include <stddef.h>
#include <stdint.h>
#include <leveldb/c.h>

struct seen;

struct seen_stats {
	uint64_t added; /* URIs recorded */
	uint64_t lookups;
	uint64_t memory_hits;	 /* answered "seen" by the memory set */
	uint64_t memory_new;	 /* answered "new" by the complete memory set */
	uint64_t bloom_negative; /* answered "new" by the Bloom filter */
	uint64_t held;		 /* left to seen_resolve (SEEN_MAYBE) */
	uint64_t batches;	 /* seen_resolve calls */
	uint64_t store_reads;	 /* point reads and seeks of the store */
	uint64_t merge_steps;	 /* iterator steps of the merge, instead of seeks */
	uint64_t store_misses;	 /* the URI was new: Bloom false positives */
	uint64_t memory_entries; /* URIs the memory set holds */
	uint64_t memory_evicted; /* URIs it dropped for its budget */
	uint64_t memory_moved;	 /* entries moved to its newest part on a hit */
	size_t memory_bytes;	 /* its strings and index */
	size_t memory_budget;
	int memory_complete; /* it holds every URI of the seen set */
	size_t bloom_bytes;
	unsigned bloom_layers;
};

/* memory_budget: bytes the memory set may use (strings and index); its
 * segments are allocated as it fills. bloom_bits: the Bloom filter's bits a
 * URI (storage.seen-bloom-bits). */
struct seen *seen_new(leveldb_t *db, size_t memory_budget, unsigned bloom_bits);
void seen_free(struct seen *s);
/* Fills the Bloom filter, and the memory set as far as its budget allows,
 * from the store's seen keys (reopening a crawl): the first 256Ki keys at
 * once, the rest by seen_load_more. Until all are read no test answers
 * SEEN_NEW from memory: a URI neither layer holds is SEEN_MAYBE, for the
 * store to judge (seen_resolve, seen_add). */
int seen_load(struct seen *s, char **err);
/* The next 32Ki keys of a load under way, if any (once per flush). */
int seen_load_more(struct seen *s, char **err);
/* Keys read at open and per flush (0: the defaults above); smaller in
 * tests, so that a small store takes the lazy path. */
void seen_load_batches(size_t at_open, size_t per_flush);
enum { SEEN_OLD = 0, SEEN_NEW = 1, SEEN_MAYBE = 2 };
/* Memory only, never the store: SEEN_NEW (recorded: a put is added to wb),
 * SEEN_OLD, or SEEN_MAYBE (nothing recorded: hold it for seen_resolve). */
int seen_check(struct seen *s, const char *canon, leveldb_writebatch_t *wb);
/* 1 if memory proves canon seen (the memory set holds it), else 0; records
 * nothing. Lets a caller skip the work of scheduling a plain duplicate. */
int seen_known(struct seen *s, const char *canon, size_t len);
/* The same with canon's hash (seen_hash) given, and the two prefetch
 * hints of urlset.h for a batch of seen_known_hashed calls to come. */
int seen_known_hashed(struct seen *s, const char *canon, size_t len, uint64_t h);
void seen_prefetch(const struct seen *s, uint64_t h);
void seen_prefetch_entry(const struct seen *s, uint64_t h);
/* Checks n held candidates, sorted ascending by strcmp (duplicates
 * allowed), in one merge pass over the store: fresh[i] = 1 for each one
 * recorded as new (its put added to wb; a duplicate's first copy only).
 * 0, or negative on a store read error (message in *err). */
int seen_resolve(struct seen *s, const char *const *canon, size_t n, unsigned char *fresh,
    leveldb_writebatch_t *wb, char **err);
/* 1 if canon is new (recorded: a put is added to wb), 0 if it was seen,
 * negative on a store read error (message in *err). Reads the store when
 * memory cannot tell. */
int seen_add(struct seen *s, const char *canon, leveldb_writebatch_t *wb, char **err);
/* wb was written: what was recorded before is in the store. */
void seen_flushed(struct seen *s);
void seen_get_stats(const struct seen *s, struct seen_stats *out);
uint64_t seen_hash(const char *s, size_t n);

#endif
