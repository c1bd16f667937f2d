/* Streaming gzip/deflate decoding (struct decode) over zlib's inflate.
 *
 * Output goes through a small stack buffer straight to the caller's
 * callback, so the only memory held is zlib's own state (about 7 KiB plus
 * its 32 KiB window, allocated on first use). */
#include <build-config.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "decode.h"
#include "xmalloc.h"

#define DECODE_CHUNK 8192

struct decode {
	enum decode_coding coding;
	z_stream zs;
	int zinit;		/* inflateInit2 done */
	unsigned char hdr[2];	/* deflate: the first bytes, to tell zlib from raw */
	int nhdr;
	int ended;
	int capped;
	int failed;
	uint64_t max_out;
	unsigned max_ratio;
	uint64_t in_bytes;
	uint64_t out_bytes;
	const char *err;
};

/* Trims optional whitespace around a token. */
static int
decode_token_is(const char *s, size_t n, const char *tok)
{
	while (n > 0 && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return strlen(tok) == n && strncasecmp(s, tok, n) == 0;
}

int
decode_coding_parse(const char *ce, enum decode_coding *out)
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

struct decode *
decode_new(enum decode_coding c, uint64_t max_out, unsigned max_ratio)
{
	struct decode *d = xcalloc(1, sizeof(*d));

	d->coding = c;
	d->max_out = max_out;
	d->max_ratio = max_ratio;
	return d;
}

void
decode_free(struct decode *d)
{
	if (d == NULL)
		return;
	if (d->zinit)
		inflateEnd(&d->zs);
	free(d);
}

static enum decode_result decode_run(struct decode *d, const char *in, size_t len,
    decode_out_cb cb, void *arg, char *out);

static int
decode_zinit(struct decode *d, int wbits)
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
static enum decode_result
decode_emit(struct decode *d, const char *p, size_t n, decode_out_cb cb, void *arg)
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

enum decode_result
decode_feed(struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	char out[DECODE_CHUNK];

	if (d->failed)
		return DECODE_FAILED;
	if (d->capped)
		return DECODE_CAPPED;
	if (d->coding == DECODE_IDENTITY) {
		d->in_bytes += len;
		return decode_emit(d, in, len, cb, arg);
	}
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
		if (decode_zinit(d, ((d->hdr[0] & 0x0f) == 8 &&
		    ((d->hdr[0] << 8) | d->hdr[1]) % 31 == 0) ? 15 : -15) != 0) {
			d->failed = 1;
			return DECODE_FAILED;
		}
		if (decode_run(d, (const char *)d->hdr, 2, cb, arg, out) != DECODE_OK ||
		    len == 0)
			return d->failed ? DECODE_FAILED : d->capped ? DECODE_CAPPED :
			    d->ended ? DECODE_END : DECODE_OK;
	}
	if (!d->zinit && decode_zinit(d, 15 + 16) != 0) {
		d->failed = 1;
		return DECODE_FAILED;
	}
	return decode_run(d, in, len, cb, arg, out);
}

/* Inflates len bytes of in through out. */
static enum decode_result
decode_run(struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg, char *out)
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

enum decode_result
decode_finish(struct decode *d)
{
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

uint64_t
decode_in_bytes(const struct decode *d)
{
	return d->in_bytes;
}

uint64_t
decode_out_bytes(const struct decode *d)
{
	return d->out_bytes;
}

const char *
decode_error(const struct decode *d)
{
	return d->err;
}
