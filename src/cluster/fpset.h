/* Sets of 64-bit fingerprints of strings, pure. Two kinds:
 * - bounded: a fixed table that forgets (each fingerprint has 4 slots to
 *   live in, and a new one evicts one of them in turn); a hit means the
 *   string was probably added recently, a miss proves nothing. The cluster
 *   uses it to avoid handing the same link off again and again.
 * - exact: a table that grows, for sets that must not forget (a partition's
 *   replay: which URIs are done, which were handed out already).
 * Two different strings share a fingerprint with probability 2^-64 per
 * pair; a caller that needs certainty keeps the strings. */
#ifndef TERN_FPSET_H
#define TERN_FPSET_H
#include <stddef.h>
#include <stdint.h>
#include "lib/hash.h"

/* A string's fingerprint: the string hash of lib/hash.h. */
static inline uint64_t fpset_hash(const char *s, size_t len)
{
	return hash_bytes(s, len);
}

struct fpset;

/* Bounded: about slots fingerprints (rounded up to a power of two, at
 * least 4), 8 bytes each. */
struct fpset *fpset_bounded(size_t slots);
/* Exact: grows as needed. */
struct fpset *fpset_exact(void);
void fpset_free(struct fpset *s);
/* 1 if fp was in the set; otherwise adds it and returns 0. */
int fpset_test_add(struct fpset *s, uint64_t fp);
/* 1 if fp is in the set. */
int fpset_has(const struct fpset *s, uint64_t fp);
/* Fingerprints held now. */
size_t fpset_count(const struct fpset *s);
/* Bytes of table. */
size_t fpset_bytes(const struct fpset *s);

#endif
