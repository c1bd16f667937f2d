/* A scalable Bloom filter of 64-bit hashes: a given number of bits and 7
 * probes per key (10 bits: about 1 % false positives a full layer; 16: about
 * 0.1 %), in layers that double in size as keys are added, so that nothing
 * is sized in advance. A miss proves a key absent.
 * Used by the already-seen set (frontier/seen.h) and the frontier's set of
 * queues that exist in the store. Written by hand: it is a few lines over
 * a bit array, and the layering is what matters here. */
#ifndef TERN_BLOOM_H
#define TERN_BLOOM_H
#include <stddef.h>
#include <stdint.h>

struct bloom;

/* first: keys the first layer holds; bits_per_key: bits of every layer per
 * key it holds. */
struct bloom *bloom_new(uint64_t first, unsigned bits_per_key);
void bloom_free(struct bloom *b);
/* h: a well-mixed 64-bit hash of the key (hash_bytes, lib/hash.h). */
void bloom_add(struct bloom *b, uint64_t h);
int bloom_test(const struct bloom *b, uint64_t h);
/* Starts loading the block of h in every layer, for a caller that will
 * test h a little later: a new key misses every layer, and the misses of
 * many keys then overlap instead of following each other. */
void bloom_prefetch(const struct bloom *b, uint64_t h);
size_t bloom_bytes(const struct bloom *b);
unsigned bloom_layers(const struct bloom *b);

#endif
