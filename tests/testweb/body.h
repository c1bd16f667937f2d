/* Response bodies produced piece by piece, so that endless, huge and
 * decompression-bomb bodies cost a few kilobytes of memory. */
#ifndef TESTWEB_BODY_H
#define TESTWEB_BODY_H
#include <stddef.h>
#include <stdint.h>
#include "lib/buf.h"

struct body;

/* Filler text of exactly `bytes` bytes. */
struct body *body_new_filler(uint64_t bytes);
/* A chunked transfer-coded body that never ends. */
struct body *body_new_endless(void);
/* A gzip member decoding to `mb` MiB of zeros. */
struct body *body_new_bomb(uint32_t mb);
/* Bytes the body will produce in total (wire bytes), or UINT64_MAX. */
uint64_t body_length(const struct body *b);
/* Writes up to cap bytes into out; returns how many, 0 once the body is done. */
size_t body_next(struct body *b, char *out, size_t cap);
void body_free(struct body *b);

/* Compresses in[0..len) as one gzip member at level 1 into out. */
void body_gzip(const void *in, size_t len, struct buf *out);
/* Appends in as br (quality 5), or as one zstd frame (level 3). */
void body_br(const void *in, size_t len, struct buf *out);
void body_zstd(const void *in, size_t len, struct buf *out);
/* Appends mb MiB of zeros as br, or as zstd, compressed a MiB at a time
 * (a bomb: a few KB on the wire). */
void body_br_zeros(uint32_t mb, struct buf *out);
void body_zstd_zeros(uint32_t mb, struct buf *out);

#endif
