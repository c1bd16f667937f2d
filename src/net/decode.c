/* Gzip/deflate decoding (struct decode): libdeflate in one call for a
 * gzip body held whole, zlib's streaming inflate for everything else.
 *
 * Built with libdeflate (HAVE_LIBDEFLATE), a gzip body is held compressed
 * until its end, up to DECODE_HOLD_MAX bytes, then decoded in one call by a
 * decompressor shared by every decode, into a buffer sized from the gzip
 * trailer (ISIZE). That took a third of inflate's CPU on the benchmark's
 * pages, and a fetch in flight holds only its compressed bytes, where
 * inflate holds about 7 KiB of state and a 32 KiB window for the whole
 * transfer.
 * Whatever the one call cannot settle exactly as the stream would (a body
 * past the hold limit, a body that does not start like gzip, an ISIZE
 * over the caps or over DECODE_ONESHOT_OUT_MAX, a corrupt or truncated
 * stream, several members, bytes after the end) goes through the streaming
 * path, from the first byte, so output, caps and errors are those of zlib.
 * A body decoded in one call has the ratio cap judged on the whole (ISIZE
 * over its compressed size) rather than on every prefix as streaming
 * does; a body over the cap as a whole streams and stops where it did.
 *
 * The streaming path hands output through a small stack buffer straight to
 * the caller's callback, so the only memory held is zlib's own state. */
#include <build-config.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "lib/buf.h"
#include "net/decode.h"
#include "lib/xmalloc.h"

#define DECODE_CHUNK 8192
/* Gzip bodies up to this many compressed bytes are held and decoded in
 * one call; a larger one is streamed from the point it passes this. */
#define DECODE_HOLD_MAX (1u << 20)
/* A held body that decodes to more than this is streamed too, so that the
 * one call's output buffer stays small next to the 32 MiB cap (a crawl in
 * a small memory cgroup must not allocate that at once). */
#define DECODE_ONESHOT_OUT_MAX (4u << 20)

struct decode {
	enum decode_coding coding;
	z_stream zs;
	int zinit;	      /* inflateInit2 done */
	unsigned char hdr[2]; /* deflate: the first bytes, to tell zlib from raw */
	int nhdr;
	int ended;
	int capped;
	int failed;
	int holding; /* gzip body held in held, not yet decoded */
	struct buf held;
	uint64_t max_out;
	unsigned max_ratio;
	uint64_t in_bytes;
	uint64_t out_bytes;
	const char *err;
};

/* Trims optional whitespace around a token. */
static int decode_token_is(const char *s, size_t n, const char *tok)
{
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return strlen(tok) == n && strncasecmp(s, tok, n) == 0;
}

int decode_coding_parse(const char *ce, enum decode_coding *out)
{
	size_t n;

	*out = DECODE_IDENTITY;
	if (ce == NULL)
		return 0;
	n = strlen(ce);
	if (decode_token_is(ce, n, "") || decode_token_is(ce, n, "identity"))
		return 0;
	if (decode_token_is(ce, n, "gzip") || decode_token_is(ce, n, "x-gzip")) {
		*out = DECODE_GZIP;
		return 0;
	}
	if (decode_token_is(ce, n, "deflate")) {
		*out = DECODE_DEFLATE;
		return 0;
	}
	return -1;
}

struct decode *decode_new(enum decode_coding c, uint64_t max_out, unsigned max_ratio)
{
	struct decode *d = xcalloc(1, sizeof(*d));

	d->coding = c;
	d->max_out = max_out;
	d->max_ratio = max_ratio;
#ifdef HAVE_LIBDEFLATE
	d->holding = c == DECODE_GZIP;
#endif
	return d;
}

void decode_free(struct decode *d)
{
	if (d == NULL)
		return;
	if (d->zinit)
		inflateEnd(&d->zs);
	buf_free(&d->held);
	free(d);
}

static enum decode_result decode_run(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg, char *out);

static int decode_zinit(struct decode *d, int wbits)
{
	if (d->zinit)
		inflateEnd(&d->zs);
	memset(&d->zs, 0, sizeof(d->zs));
	if (inflateInit2(&d->zs, wbits) != Z_OK) {
		d->zinit = 0;
		d->err = "zlib initialisation failed";
		return -1;
	}
	d->zinit = 1;
	return 0;
}

/* Hands n decoded bytes to the callback within the caps. */
static enum decode_result decode_emit(
    struct decode *d, const char *p, size_t n, decode_out_cb cb, void *arg)
{
	if (d->out_bytes + n > d->max_out) {
		n = d->max_out - d->out_bytes;
		d->capped = 1;
	}
	d->out_bytes += n;
	if (n > 0 && cb && cb(arg, p, n) != 0)
		d->capped = 1;
	if (d->out_bytes >= DECODE_RATIO_FLOOR &&
	    d->out_bytes / (d->in_bytes ? d->in_bytes : 1) >= d->max_ratio)
		d->capped = 1;
	return d->capped ? DECODE_CAPPED : DECODE_OK;
}

/* Decodes len more bytes of a compressed stream with zlib. */
static enum decode_result decode_stream(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	char out[DECODE_CHUNK];

	if (d->ended) {
		/* Another gzip member may follow (RFC 1952 2.2); other bytes
		 * after the end of the stream are ignored, as browsers do. */
		if (d->coding == DECODE_GZIP && len > 0 && (unsigned char)in[0] == 0x1f) {
			d->ended = 0;
			inflateReset(&d->zs);
			return decode_run(d, in, len, cb, arg, out);
		}
		d->in_bytes += len;
		return DECODE_END;
	}
	if (!d->zinit && d->coding == DECODE_DEFLATE) {
		/* "deflate" is meant to be zlib-wrapped (RFC 9110 8.4.1.2), but
		 * many servers send a raw deflate stream: the first two bytes
		 * tell them apart (a zlib header is a multiple of 31). */
		while (d->nhdr < 2 && len > 0) {
			d->hdr[d->nhdr++] = *in++;
			len--;
		}
		if (d->nhdr < 2)
			return DECODE_OK;
		if (decode_zinit(d,
			((d->hdr[0] & 0x0f) == 8 && ((d->hdr[0] << 8) | d->hdr[1]) % 31 == 0)
			    ? 15
			    : -15) != 0) {
			d->failed = 1;
			return DECODE_FAILED;
		}
		if (decode_run(d, (const char *)d->hdr, 2, cb, arg, out) != DECODE_OK || len == 0)
			return d->failed ? DECODE_FAILED
			    : d->capped	 ? DECODE_CAPPED
			    : d->ended	 ? DECODE_END
					 : DECODE_OK;
	}
	if (!d->zinit && decode_zinit(d, 15 + 16) != 0) {
		d->failed = 1;
		return DECODE_FAILED;
	}
	return decode_run(d, in, len, cb, arg, out);
}

/* Inflates len bytes of in through out. */
static enum decode_result decode_run(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg, char *out)
{
	d->zs.next_in = (Bytef *)in;
	d->zs.avail_in = len;
	for (;;) {
		uInt before = d->zs.avail_in;
		int zr;
		enum decode_result r;

		d->zs.next_out = (Bytef *)out;
		d->zs.avail_out = DECODE_CHUNK;
		zr = inflate(&d->zs, Z_NO_FLUSH);
		d->in_bytes += before - d->zs.avail_in;
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			d->failed = 1;
			d->err = d->zs.msg ? d->zs.msg : "corrupt compressed stream";
			return DECODE_FAILED;
		}
		r = decode_emit(d, out, DECODE_CHUNK - d->zs.avail_out, cb, arg);
		if (r != DECODE_OK)
			return r;
		if (zr == Z_STREAM_END) {
			/* A gzip body may hold several members (RFC 1952 2.2). */
			if (d->coding == DECODE_GZIP && d->zs.avail_in > 0 &&
			    (unsigned char)d->zs.next_in[0] == 0x1f) {
				inflateReset(&d->zs);
				continue;
			}
			d->ended = 1;
			d->in_bytes += d->zs.avail_in;
			return DECODE_END;
		}
		/* Stop when the input is used up and zlib had room to spare;
		 * a full output buffer may mean more output is pending. */
		if ((d->zs.avail_in == 0 && d->zs.avail_out != 0) || zr == Z_BUF_ERROR)
			break;
	}
	return DECODE_OK;
}

/* Stops holding: what was held, then in, goes through zlib. */
static enum decode_result decode_unhold(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	enum decode_result r = DECODE_OK;

	d->holding = 0;
	if (d->held.len > 0)
		r = decode_stream(d, d->held.data, d->held.len, cb, arg);
	buf_free(&d->held);
	if (len > 0 && (r == DECODE_OK || r == DECODE_END))
		r = decode_stream(d, in, len, cb, arg);
	return r;
}

static int decode_held_is_gzip(const struct decode *d)
{
	const unsigned char *p = (const unsigned char *)d->held.data;

	return d->held.len < 2 || (p[0] == 0x1f && p[1] == 0x8b);
}

enum decode_result decode_feed(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	if (d->failed)
		return DECODE_FAILED;
	if (d->capped)
		return DECODE_CAPPED;
	if (d->coding == DECODE_IDENTITY) {
		d->in_bytes += len;
		return decode_emit(d, in, len, cb, arg);
	}
	if (d->holding) {
		if (d->held.len + len > DECODE_HOLD_MAX)
			return decode_unhold(d, in, len, cb, arg);
		buf_append(&d->held, in, len);
		/* Anything but gzip fails as soon as it is seen, as it would
		 * while streaming. */
		if (!decode_held_is_gzip(d))
			return decode_unhold(d, NULL, 0, cb, arg);
		return DECODE_OK;
	}
	return decode_stream(d, in, len, cb, arg);
}

#ifdef HAVE_LIBDEFLATE
/* One decompressor serves every decode: decoding never re-enters it, and
 * it is about 11 KiB that need not exist once per fetch. */
static struct libdeflate_decompressor *decode_inflater;
/* The output of bodies up to DECODE_SCRATCH_MAX goes to one buffer kept
 * between decodes (most pages), sparing a malloc, a free and fresh pages
 * per body; busy while its output is with the callback, in case that
 * decodes another body. */
#define DECODE_SCRATCH_MAX (256u << 10)
static char *decode_scratch;
static size_t decode_scratch_cap;
static int decode_scratch_busy;

/* Decodes the held gzip body in one libdeflate call. 1 when it could not
 * be settled that way (nothing was emitted: the caller streams it). */
static int decode_held_oneshot(
    struct decode *d, decode_out_cb cb, void *arg, enum decode_result *res)
{
	const unsigned char *p = (const unsigned char *)d->held.data;
	size_t n = d->held.len, used = 0, got = 0;
	uint32_t isize;
	char *out;
	enum libdeflate_result lr;

	/* A gzip member is at least a 10-byte header and an 8-byte trailer. */
	if (n < 18 || !decode_held_is_gzip(d))
		return 1;
	isize = (uint32_t)p[n - 4] | (uint32_t)p[n - 3] << 8 | (uint32_t)p[n - 2] << 16 |
	    (uint32_t)p[n - 1] << 24;
	/* Over a cap the stream stops where streaming would stop it. */
	if (isize > d->max_out || (isize >= DECODE_RATIO_FLOOR && isize / n >= d->max_ratio) ||
	    isize > DECODE_ONESHOT_OUT_MAX)
		return 1;
	if (decode_inflater == NULL && (decode_inflater = libdeflate_alloc_decompressor()) == NULL)
		return 1;
	if (!decode_scratch_busy && isize <= DECODE_SCRATCH_MAX) {
		if (decode_scratch_cap < isize || decode_scratch == NULL) {
			decode_scratch_cap = isize < 65536 ? 65536 : DECODE_SCRATCH_MAX;
			decode_scratch = xrealloc(decode_scratch, decode_scratch_cap);
		}
		out = decode_scratch;
		decode_scratch_busy = 1;
	} else {
		out = xmalloc(isize ? isize : 1);
	}
	lr = libdeflate_gzip_decompress_ex(decode_inflater, p, n, out, isize, &used, &got);
	if (lr == LIBDEFLATE_SUCCESS && used == n && got == isize) {
		d->holding = 0;
		d->ended = 1;
		d->in_bytes = n;
		buf_free(&d->held);
		*res = decode_emit(d, out, got, cb, arg);
		if (*res == DECODE_OK)
			*res = DECODE_END;
	}
	if (out == decode_scratch)
		decode_scratch_busy = 0;
	else
		free(out);
	return d->holding;
}
#endif

enum decode_result decode_finish(struct decode *d, decode_out_cb cb, void *arg)
{
	if (d->holding && d->held.len > 0) {
#ifdef HAVE_LIBDEFLATE
		enum decode_result r = DECODE_OK;
		if (decode_held_oneshot(d, cb, arg, &r) == 0)
			return r;
#endif
		decode_unhold(d, NULL, 0, cb, arg);
	}
	if (d->failed)
		return DECODE_FAILED;
	if (d->capped)
		return DECODE_CAPPED;
	if (d->coding == DECODE_IDENTITY || d->ended)
		return DECODE_END;
	if (d->in_bytes == 0 && d->nhdr == 0) {
		/* An empty body with a Content-Encoding is common for errors. */
		return DECODE_END;
	}
	d->err = "compressed stream truncated";
	return DECODE_FAILED;
}

uint64_t decode_in_bytes(const struct decode *d)
{
	return d->in_bytes + (d->holding ? d->held.len : 0);
}

uint64_t decode_out_bytes(const struct decode *d)
{
	return d->out_bytes;
}

const char *decode_error(const struct decode *d)
{
	return d->err;
}
