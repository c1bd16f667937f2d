/* A set of strings (canonical URIs) held exactly, within a memory budget:
 * the already-seen set's memory layer (frontier/seen.h).
 *
 * Strings live in segments appended in order; an open-addressing index of
 * 64-bit slots (32 bits of the string's hash, 32 of its place) finds them,
 * so a test costs one hash, usually one slot and one comparison. When the
 * strings and the index would pass the budget, the oldest segment is
 * dropped whole (first in, first out), but only a sealed one: the caller
 * seals what it may lose (for the seen set, what the store already holds).
 * A string found in the older half of the segments is first copied to the
 * newest one (a second chance), so the strings a crawl keeps meeting, a
 * site's navigation links, stay while the ones met once leave.
 *
 * Written by hand: the libraries at hand (a C hash table, LevelDB's own
 * cache) neither keep variable-length keys in a fixed budget without a
 * malloc per entry nor drop them in bulk. */
#ifndef TERN_URLSET_H
#define TERN_URLSET_H
#include <stddef.h>
#include <stdint.h>

/* The longest string held; longer ones are never added (urlset_add says 0). */
#define URLSET_MAX_LEN 16384

struct urlset;

struct urlset_stats {
	uint64_t entries; /* strings held */
	uint64_t evicted; /* strings dropped for the budget */
	uint64_t moved;	  /* strings copied to the newest segment on a hit */
	size_t bytes;	  /* segments and index allocated */
	size_t budget;
};

/* budget: bytes for segments and index together (at least 64 KiB is
 * used). Nothing is allocated up front beyond a small index. */
struct urlset *urlset_new(size_t budget);
void urlset_free(struct urlset *u);
/* The hash of a string is hash_bytes (lib/hash.h), computed by the caller:
 * callers that need one for the same string (a Bloom filter) compute it
 * once. 1 if s (n bytes, hash h = hash_bytes(s, n)) is held, else 0. A string
 * found in the older half of a set at its budget is moved to the newest
 * segment. */
int urlset_has(struct urlset *u, const char *s, size_t n, uint64_t h);
/* Hints for a caller about to test many strings: urlset_prefetch starts
 * loading the index slot of hash h; urlset_prefetch_entry, called later
 * (once that slot is likely loaded), the string it points to. They change
 * nothing: a batch of tests then waits for its memory misses together
 * instead of one after another. */
void urlset_prefetch(const struct urlset *u, uint64_t h);
void urlset_prefetch_entry(const struct urlset *u, uint64_t h);
/* Adds s, which must not be held. Returns 1, or 0 if it was not added: too
 * long, or the budget is spent and nothing sealed can be dropped. Dropping
 * strings to make room is counted in the stats (urlset_dropped says whether
 * any string ever was). */
int urlset_add(struct urlset *u, const char *s, size_t n, uint64_t h);
/* 1 if s could be added now without dropping anything. */
int urlset_fits(const struct urlset *u, size_t n);
/* Everything added so far may be dropped from now on. */
void urlset_seal(struct urlset *u);
/* 1 once any string has been dropped: the set no longer holds all it was
 * given. */
int urlset_dropped(const struct urlset *u);
void urlset_get_stats(const struct urlset *u, struct urlset_stats *out);

#endif
