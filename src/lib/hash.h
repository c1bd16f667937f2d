/* The one string hash of tern: 64-bit FNV-1a over the bytes, finished by
 * MurmurHash3's fmix64. FNV-1a is a byte loop with no set-up, which is what
 * short keys (URIs, queue keys, node names) want, but its high bits and the
 * bits its last bytes reach mix slowly; fmix64 spreads every input bit over
 * all 64, so any slice of the result serves as an index or a tag. Used by
 * the frontier's sets and Bloom filters, the cluster's fingerprints, and,
 * through its parts, by partitions and the scope's prefix table.
 * Header-only: a few operations, inlined at each use.
 *
 * hash_bytes' values are carried in the cluster stream (fingerprints of
 * URIs) and partition_of_key's are agreed on by every node: neither may
 * change (tests/lib/test_hash.c pins them). */
#ifndef TERN_HASH_H
#define TERN_HASH_H
#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A_OFFSET 0xcbf29ce484222325ULL
#define HASH_FNV1A_PRIME 0x100000001b3ULL

/* FNV-1a extended by one byte: a key's hash grows one byte at a time, so
 * the hashes of all its prefixes come in one pass (src/crawl/scope.c). */
static inline uint64_t hash_fnv1a_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * HASH_FNV1A_PRIME;
}

/* Plain 64-bit FNV-1a of n bytes. */
static inline uint64_t hash_fnv1a(const char *s, size_t n)
{
	uint64_t h = HASH_FNV1A_OFFSET;
	size_t i;

	for (i = 0; i < n; i++)
		h = hash_fnv1a_step(h, (unsigned char)s[i]);
	return h;
}

/* MurmurHash3's 64-bit finalizer. */
static inline uint64_t hash_fmix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* The string hash: well mixed in every bit. */
static inline uint64_t hash_bytes(const char *s, size_t n)
{
	return hash_fmix64(hash_fnv1a(s, n));
}

#endif
