/* Capped streaming inflate (zinflate.h).
 *
 * Output goes through a stack buffer of ZINFLATE_CHUNK bytes straight to
 * the callback, and the caps are judged after each chunk, so a bomb
 * stops within a chunk of the output cap, and within a chunk of where the
 * ratio first passes its cap. zlib allocates through xmalloc: out
 * of memory aborts, as everywhere else, so starting never fails. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "lib/xmalloc.h"
#include "lib/zinflate.h"

#define ZINFLATE_CHUNK 8192
/* zlib counts input in an unsigned int: larger reads go in parts. */
#define ZINFLATE_PART (1u << 30)

struct zinflate {
	z_stream zs;
	int live; /* inflateInit2 done */
	enum zinflate_wrap wrap;
	enum zinflate_tail tail;
	struct zinflate_caps caps;
	int keep_before_error;
	/* The first bytes, held until they tell the wrapping (DEFLATE, ANY). */
	unsigned char hdr[2];
	int nhdr;
	int gzip;  /* this stream is gzip: another member may follow */
	int ended; /* the stream (or member) ended */
	/* MORE while inflating goes on; CAPPED, STOPPED or CORRUPT for good. */
	enum zinflate_result stop;
	uint64_t fed; /* bytes handed to feed since the start */
	uint64_t in, out;
	const char *err;
};

int zinflate_is_zlib(const void *b, size_t n)
{
	const unsigned char *p = b;

	return n >= 2 && (p[0] & 0x0f) == 8 && ((p[0] << 8) | p[1]) % 31 == 0;
}

size_t zinflate_caps_room(const struct zinflate_caps *c, uint64_t out, size_t n, int *capped)
{
	if (c->max_out == 0 || out + n <= c->max_out)
		return n;
	*capped = 1;
	return out >= c->max_out ? 0 : (size_t)(c->max_out - out);
}

int zinflate_caps_ratio_over(const struct zinflate_caps *c, uint64_t out, uint64_t in)
{
	return c->max_ratio != 0 && out >= c->ratio_floor && out / (in ? in : 1) >= c->max_ratio;
}

static voidpf zinflate_alloc_cb(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return xmalloc((size_t)items * size);
}

static void zinflate_free_cb(voidpf opaque, voidpf p)
{
	(void)opaque;
	free(p);
}

struct zinflate *zinflate_new(
    enum zinflate_wrap wrap, enum zinflate_tail tail, const struct zinflate_caps *caps)
{
	struct zinflate *z = xcalloc(1, sizeof(*z));

	z->wrap = wrap;
	z->tail = tail;
	if (caps != NULL)
		z->caps = *caps;
	z->zs.zalloc = zinflate_alloc_cb;
	z->zs.zfree = zinflate_free_cb;
	return z;
}

void zinflate_free(struct zinflate *z)
{
	if (z == NULL)
		return;
	if (z->live)
		inflateEnd(&z->zs);
	free(z);
}

void zinflate_keep_before_error(struct zinflate *z)
{
	z->keep_before_error = 1;
}

void zinflate_reset(struct zinflate *z)
{
	/* A sniffed wrapping is sniffed again: the window bits differ. */
	if (z->live && (z->wrap == ZINFLATE_DEFLATE || z->wrap == ZINFLATE_ANY)) {
		inflateEnd(&z->zs);
		z->live = 0;
	} else if (z->live && inflateReset(&z->zs) != Z_OK) {
		abort();
	}
	z->nhdr = 0;
	z->ended = 0;
	z->stop = ZINFLATE_MORE;
	z->fed = z->in = z->out = 0;
	z->err = NULL;
}

/* Starts zlib for the wrapping (for DEFLATE and ANY, as hdr tells). */
static void zinflate_start(struct zinflate *z)
{
	int bits;

	switch (z->wrap) {
	case ZINFLATE_GZIP:
		bits = 15 + 16;
		break;
	case ZINFLATE_ZLIB:
		bits = 15;
		break;
	case ZINFLATE_RAW:
		bits = -15;
		break;
	case ZINFLATE_ANY:
		if (z->hdr[0] == 0x1f) {
			bits = 15 + 16;
			break;
		}
		/* fall through */
	default:
		bits = zinflate_is_zlib(z->hdr, 2) ? 15 : -15;
		break;
	}
	z->gzip = bits == 15 + 16;
	/* Only a zlib built without the window sizes we ask for fails. */
	if (inflateInit2(&z->zs, bits) != Z_OK)
		abort();
	z->live = 1;
}

/* Hands n bytes of output on within the caps. */
static enum zinflate_result zinflate_emit(
    struct zinflate *z, const char *p, size_t n, zinflate_out_cb cb, void *arg)
{
	int capped = 0;

	n = zinflate_caps_room(&z->caps, z->out, n, &capped);
	z->out += n;
	if (n > 0 && cb != NULL && cb(arg, p, n) != 0)
		return z->stop = ZINFLATE_STOPPED;
	if (capped || zinflate_caps_ratio_over(&z->caps, z->out, z->in))
		return z->stop = ZINFLATE_CAPPED;
	return ZINFLATE_MORE;
}

/* Inflates the len bytes at p; *took gets how many were taken. */
static enum zinflate_result zinflate_run(struct zinflate *z, const unsigned char *p, size_t len,
    size_t *took, zinflate_out_cb cb, void *arg)
{
	const unsigned char *end = p + len;
	char out[ZINFLATE_CHUNK];
	int full = 0;

	z->zs.next_in = (Bytef *)(uintptr_t)p;
	z->zs.avail_in = 0;
	for (;;) {
		size_t rest = (size_t)(end - (const unsigned char *)z->zs.next_in);
		enum zinflate_result r;
		uInt before;
		int zr;

		if (z->ended) {
			if (rest == 0 || z->tail == ZINFLATE_ONE) {
				*took = len - rest;
				return ZINFLATE_END;
			}
			if (z->tail == ZINFLATE_MEMBERS_LENIENT &&
			    !(z->gzip && *(const unsigned char *)z->zs.next_in == 0x1f)) {
				z->in += rest;
				*took = len;
				return ZINFLATE_END;
			}
			/* Another gzip member (RFC 1952 2.2). */
			if (inflateReset(&z->zs) != Z_OK)
				abort();
			z->ended = 0;
		}
		/* A full output buffer may leave output inside zlib even when
		 * every input byte is taken: inflate again before returning. */
		if (z->zs.avail_in == 0) {
			if (rest == 0 && !full) {
				*took = len;
				return ZINFLATE_MORE;
			}
			z->zs.avail_in = rest > ZINFLATE_PART ? ZINFLATE_PART : (uInt)rest;
		}
		z->zs.next_out = (Bytef *)out;
		z->zs.avail_out = sizeof(out);
		before = z->zs.avail_in;
		zr = inflate(&z->zs, Z_NO_FLUSH);
		z->in += before - z->zs.avail_in;
		full = z->zs.avail_out == 0;
		*took = (size_t)((const unsigned char *)z->zs.next_in - p);
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			if (z->keep_before_error &&
			    zinflate_emit(z, out, sizeof(out) - z->zs.avail_out, cb, arg) !=
				ZINFLATE_MORE)
				return z->stop;
			z->err = z->zs.msg;
			return z->stop = ZINFLATE_CORRUPT;
		}
		r = zinflate_emit(z, out, sizeof(out) - z->zs.avail_out, cb, arg);
		if (r != ZINFLATE_MORE)
			return r;
		if (zr == Z_STREAM_END) {
			z->ended = 1;
			full = 0;
		}
	}
}

enum zinflate_result zinflate_feed(
    struct zinflate *z, const void *in, size_t len, size_t *used, zinflate_out_cb cb, void *arg)
{
	const unsigned char *p = in;
	size_t took = 0, held = 0;
	enum zinflate_result r;

	if (used != NULL)
		*used = 0;
	if (z->stop != ZINFLATE_MORE)
		return z->stop;
	if (len == 0)
		return z->ended ? ZINFLATE_END : ZINFLATE_MORE;
	z->fed += len;
	if (!z->live && (z->wrap == ZINFLATE_DEFLATE || z->wrap == ZINFLATE_ANY)) {
		/* The first two bytes tell the wrapping; a read of one byte
		 * waits for the next. */
		while (z->nhdr < 2 && held < len)
			z->hdr[z->nhdr++] = p[held++];
		if (used != NULL)
			*used = held;
		if (z->nhdr < 2)
			return ZINFLATE_MORE;
		zinflate_start(z);
		r = zinflate_run(z, z->hdr, 2, &took, cb, arg);
		if (r != ZINFLATE_MORE && !(r == ZINFLATE_END && z->tail != ZINFLATE_ONE))
			return r;
		if (r == ZINFLATE_END && held == len)
			return r;
	} else if (!z->live) {
		zinflate_start(z);
	}
	r = zinflate_run(z, p + held, len - held, &took, cb, arg);
	if (used != NULL)
		*used = held + took;
	return r;
}

enum zinflate_result zinflate_finish(struct zinflate *z)
{
	if (z->stop != ZINFLATE_MORE)
		return z->stop;
	if (z->ended)
		return ZINFLATE_END;
	return z->fed == 0 ? ZINFLATE_EMPTY : ZINFLATE_CUT;
}

uint64_t zinflate_in_bytes(const struct zinflate *z)
{
	return z->in;
}

uint64_t zinflate_out_bytes(const struct zinflate *z)
{
	return z->out;
}

const char *zinflate_error(const struct zinflate *z)
{
	return z->stop == ZINFLATE_CORRUPT ? z->err : NULL;
}

/* Appends output to a struct buf. */
static int zinflate_buf_cb(void *arg, const char *data, size_t len)
{
	buf_append(arg, data, len);
	return 0;
}

enum zinflate_result zinflate_capped(
    const void *data, size_t len, enum zinflate_wrap wrap, size_t max, struct buf *out)
{
	struct zinflate_caps caps = {0, 0, 0};
	struct zinflate *z;
	enum zinflate_result r;

	if (out->len >= max) {
		/* A cap of 0 would mean none. */
		return len > 0 ? ZINFLATE_CAPPED : ZINFLATE_EMPTY;
	}
	caps.max_out = max - out->len;
	z = zinflate_new(wrap, ZINFLATE_ONE, &caps);
	r = zinflate_feed(z, data, len, NULL, zinflate_buf_cb, out);
	if (r == ZINFLATE_MORE)
		r = zinflate_finish(z);
	zinflate_free(z);
	return r;
}
