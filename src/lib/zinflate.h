/* Capped inflate shared by the readers of compressed bodies: the test that
 * tells a zlib-wrapped stream from raw deflate, and inflating a body held
 * whole into a buffer up to a cap. Pure (zlib, no I/O). The streaming
 * decoders (net/decode.c for HTTP bodies, lib/sitemap.c for sitemaps) run
 * their own loops because they hand each chunk on as it comes, with caps
 * of their own; they share the sniff. */
#ifndef TERN_ZINFLATE_H
#define TERN_ZINFLATE_H
#include <stddef.h>
#include "lib/buf.h"

/* zlib's window bits for the three wrappers. */
#define ZINFLATE_RAW (-15)
#define ZINFLATE_ZLIB 15
#define ZINFLATE_GZIP (15 + 16)
#define ZINFLATE_GZIP_OR_ZLIB (15 + 32)

/* 1 if the n bytes at b start a zlib header (RFC 1950 2.2: method 8, the
 * first two bytes a multiple of 31), else 0 (also when n < 2). "deflate" is
 * meant to be zlib-wrapped (RFC 9110 8.4.1.2), but many servers send raw
 * deflate: these two bytes tell them apart. */
int zinflate_is_zlib(const void *b, size_t n);

enum zinflate_result {
	ZINFLATE_END = 0,     /* the stream ended */
	ZINFLATE_CAPPED = 1,  /* out reached max first */
	ZINFLATE_CUT = 2,     /* the input ended before the stream */
	ZINFLATE_CORRUPT = -1 /* zlib found an error, or could not start */
};

/* Inflates the len bytes at data (window: one of ZINFLATE_*), appending
 * at most max - out->len bytes to out: what came before an error or a cut
 * is kept. */
enum zinflate_result zinflate_capped(
    const void *data, size_t len, int window, size_t max, struct buf *out);

#endif
