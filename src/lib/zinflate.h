/* Capped streaming inflate, the one every reader of deflate data uses:
 * HTTP bodies (net/decode.c), sitemaps (lib/sitemap.c), WARC records
 * (archive/warcread.c) and the pages of a WACZ (archive/waczpages.c).
 *
 * A struct zinflate takes compressed bytes in reads of any size and hands
 * the output through a small stack buffer to a callback, so the memory it
 * holds is zlib's own (about 7 KiB of state and a 32 KiB window). It
 * undoes gzip, zlib or raw deflate, or tells zlib from raw deflate (and
 * gzip from both) by the first bytes; it stops at an output cap and at a
 * ratio cap (output over input, judged once a floor of output is out),
 * whose arithmetic is also used for codings zlib does not do (br, zstd in
 * net/decode.c). Pure (zlib, no I/O). */
#ifndef TERN_ZINFLATE_H
#define TERN_ZINFLATE_H
#include <stddef.h>
#include <stdint.h>
#include "lib/buf.h"

/* How the deflate data is wrapped. */
enum zinflate_wrap {
	ZINFLATE_GZIP,	  /* RFC 1952, CRC-32 and length checked */
	ZINFLATE_ZLIB,	  /* RFC 1950 */
	ZINFLATE_RAW,	  /* RFC 1951 */
	ZINFLATE_DEFLATE, /* zlib or raw, told apart by the first two bytes */
	ZINFLATE_ANY	  /* gzip (first byte 1f), zlib or raw */
};

/* What follows the end of a stream. */
enum zinflate_tail {
	/* Nothing is read past the end: feed returns ZINFLATE_END and *used
	 * says where the next data starts (a WARC member, a whole body). */
	ZINFLATE_ONE,
	/* Any byte after an end starts another gzip member (RFC 1952 2.2), as
	 * in a concatenated .gz file; garbage there is an error. */
	ZINFLATE_MEMBERS,
	/* As browsers read HTTP bodies: a gzip member follows when the bytes
	 * after an end, or the next read, start with 1f; other bytes after
	 * the end are taken and ignored. */
	ZINFLATE_MEMBERS_LENIENT
};

/* Output caps; 0 in a field: no such cap. */
struct zinflate_caps {
	uint64_t max_out;     /* bytes handed out in all */
	unsigned max_ratio;   /* output over input bytes ... */
	uint64_t ratio_floor; /* ... judged once this much is out */
};

enum zinflate_result {
	ZINFLATE_MORE = 0,    /* every byte was taken; the stream goes on */
	ZINFLATE_END = 1,     /* the stream ended */
	ZINFLATE_CAPPED = 2,  /* the output or the ratio cap was reached */
	ZINFLATE_STOPPED = 3, /* the callback asked to stop */
	ZINFLATE_CUT = 4,     /* (finish) the input ended inside the stream */
	ZINFLATE_EMPTY = 5,   /* (finish) no byte came at all */
	ZINFLATE_CORRUPT = -1 /* zlib found an error; see zinflate_error() */
};

/* Receives output; nonzero stops inflating (ZINFLATE_STOPPED). */
typedef int (*zinflate_out_cb)(void *arg, const char *data, size_t len);

struct zinflate;

/* caps may be NULL (none); it is copied. */
struct zinflate *zinflate_new(
    enum zinflate_wrap wrap, enum zinflate_tail tail, const struct zinflate_caps *caps);
void zinflate_free(struct zinflate *z);
/* By default what zlib inflated in the call that found an error (up to a
 * chunk) is dropped with it, as HTTP bodies, WARC records and WACZ pages
 * always were. After this call it is handed out before the error, so that
 * what a consumer sees does not depend on where the reads were cut (what
 * the sitemap parser needs: its entries must not). */
void zinflate_keep_before_error(struct zinflate *z);
/* Starts a new stream with the same settings (the next WARC member). */
void zinflate_reset(struct zinflate *z);
/* Inflates len more bytes. *used (may be NULL) gets how many were taken:
 * all of them, but with ZINFLATE_ONE those after the end, and after a
 * stop, those not yet inflated. Once capped, stopped or corrupt, the
 * result stays. */
enum zinflate_result zinflate_feed(
    struct zinflate *z, const void *in, size_t len, size_t *used, zinflate_out_cb cb, void *arg);
/* At the end of the input: ZINFLATE_END if the stream was complete,
 * ZINFLATE_EMPTY if nothing was fed, ZINFLATE_CUT, or the sticky result
 * of a stop. */
enum zinflate_result zinflate_finish(struct zinflate *z);
/* Compressed bytes taken so far (those held to tell the wrapping apart
 * count once inflated; ignored bytes after an end count). */
uint64_t zinflate_in_bytes(const struct zinflate *z);
uint64_t zinflate_out_bytes(const struct zinflate *z);
/* zlib's message for ZINFLATE_CORRUPT, or NULL when it gave none. */
const char *zinflate_error(const struct zinflate *z);

/* Inflates the len bytes at data, appending at most max - out->len bytes to
 * out: what came before an error, a cut or the cap is kept. */
enum zinflate_result zinflate_capped(
    const void *data, size_t len, enum zinflate_wrap wrap, size_t max, struct buf *out);

/* 1 if the n bytes at b start a zlib header (RFC 1950 2.2: method 8, the
 * first two bytes a multiple of 31), else 0 (also when n < 2). "deflate" is
 * meant to be zlib-wrapped (RFC 9110 8.4.1.2), but many servers send raw
 * deflate: these two bytes tell them apart. */
int zinflate_is_zlib(const void *b, size_t n);

/* The caps' arithmetic, for decoders of other codings. How many of n more
 * bytes fit under max_out after out were handed out; fewer than n (then
 * *capped = 1) when they do not. */
size_t zinflate_caps_room(const struct zinflate_caps *c, uint64_t out, size_t n, int *capped);
/* 1 when out bytes decoded from in bytes pass the ratio cap. */
int zinflate_caps_ratio_over(const struct zinflate_caps *c, uint64_t out, uint64_t in);

#endif
