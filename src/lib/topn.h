/* The first n elements of a stream in a caller's order, kept in a bounded
 * heap: what the hosts report and the console's queue list need to show
 * one page of rows out of a million without sorting them all. Elements are
 * fixed-size values copied in (pointers, or structs whose owned strings
 * the caller frees when an element is pushed out). Pure: no I/O. */
#ifndef TERN_TOPN_H
#define TERN_TOPN_H
#include <stddef.h>

struct topn;

/* Nonzero when a comes before b (ties must be broken: equal elements make
 * the kept set depend on the stream's order). */
typedef int (*topn_before_fn)(const void *a, const void *b, void *ctx);

/* Keeps up to keep elements of size bytes each. */
struct topn *topn_new(size_t keep, size_t size, topn_before_fn before, void *ctx);
void topn_free(struct topn *t);

/* Whether elem would be kept: there is room, or it comes before the last
 * element kept. */
int topn_admits(const struct topn *t, const void *elem);
/* Copies elem in, if topn_admits says so; returns 1 when that pushed out
 * the last element kept, copied to *out (for the caller to release), else
 * 0 (and -1, nothing done, when elem is not admitted). */
int topn_push(struct topn *t, const void *elem, void *out);

/* The kept elements in order, first first (after this, no more pushes). */
void *topn_sorted(struct topn *t, size_t *n);

#endif
