/* Content decoding (struct decode): libdeflate in one call for a gzip
 * body held whole, the streaming inflate shared by every reader
 * (lib/zinflate.h) for other gzip and deflate, libbrotlidec for br and
 * libzstd for zstd, both streaming; all of them under the same caps, whose
 * arithmetic is zinflate's.
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
 * the caller's callback, so the only memory held is the library's own
 * state: zlib's 32 KiB window; brotli's ring buffer, as large as the
 * stream's window (at most 16 MiB) and no larger than its output needs;
 * zstd's window, held to 8 MiB as RFC 9659 asks of HTTP (a frame that
 * needs more fails).
 *
 * Stacked codings ("gzip, br") are a chain of stages, one per coding,
 * the outermost (listed last) first: each stage's output is the next
 * one's input, and only the last stage's reaches the caller. Every stage
 * has the caps; the ratio is judged against the bytes received, so a
 * stack cannot multiply one stage's allowance by another's. */
#include <build-config.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <brotli/decode.h>
#include <zstd.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "lib/buf.h"
#include "net/decode.h"
#include "lib/xmalloc.h"
#include "lib/zinflate.h"

#define DECODE_CHUNK 8192
/* Gzip bodies up to this many compressed bytes are held and decoded in
 * one call; a larger one is streamed from the point it passes this. */
#define DECODE_HOLD_MAX (1u << 20)
/* zstd frames whose window is larger are refused: RFC 9659 holds a
 * decoder of HTTP content to 8 MiB. */
#define DECODE_ZSTD_WINDOW_LOG 23
/* zstd contexts kept for the next bodies. A context is about 160 KiB,
 * past malloc's mmap threshold: made and freed per body, its pages were
 * mapped and faulted in every time, which cost tern half again its CPU
 * per page on a crawl of zstd pages (doc/performance.md, "Content
 * codings"). */
#define DECODE_ZSTD_SPARE 8
/* A held body that decodes to more than this is streamed too, so that the
 * one call's output buffer stays small next to the 32 MiB cap (a crawl in
 * a small memory cgroup must not allocate that at once). */
#define DECODE_ONESHOT_OUT_MAX (4u << 20)

struct decode {
	enum decode_coding coding;
	/* A stack's next stage, which decodes this one's output, and its
	 * first stage, which counts the bytes received (itself if first). */
	struct decode *inner;
	const struct decode *head;
	struct zinflate *zi; /* gzip and deflate, once streaming */
	BrotliDecoderState *br;
	ZSTD_DCtx *zstd;
	int ended; /* br and zstd; a held gzip body decoded in one call */
	int capped;
	int failed;
	int holding; /* gzip body held in held, not yet decoded */
	struct buf held;
	struct zinflate_caps caps;
	/* Bytes received by the stage's own decoding (zinflate counts its
	 * own), and handed out. */
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

static const char *const decode_names[] = {"identity", "gzip", "deflate", "br", "zstd"};

const char *decode_coding_name(enum decode_coding c)
{
	return (unsigned)c < sizeof(decode_names) / sizeof(decode_names[0]) ? decode_names[c] : "?";
}

/* One coding name: 0 and *out, or -1 when we do not decode it. */
static int decode_coding_word(const char *s, size_t n, enum decode_coding *out)
{
	if (decode_token_is(s, n, "gzip") || decode_token_is(s, n, "x-gzip"))
		*out = DECODE_GZIP;
	else if (decode_token_is(s, n, "deflate"))
		*out = DECODE_DEFLATE;
	else if (decode_token_is(s, n, "br"))
		*out = DECODE_BR;
	else if (decode_token_is(s, n, "zstd"))
		*out = DECODE_ZSTD;
	else if (decode_token_is(s, n, "identity") || decode_token_is(s, n, ""))
		*out = DECODE_IDENTITY;
	else
		return -1;
	return 0;
}

int decode_codings_parse(const char *ce, struct decode_codings *out)
{
	out->n = 0;
	while (ce != NULL && *ce) {
		const char *comma = strchr(ce, ',');
		size_t n = comma ? (size_t)(comma - ce) : strlen(ce);
		enum decode_coding c;

		if (decode_coding_word(ce, n, &c) != 0)
			return -1;
		if (c != DECODE_IDENTITY) {
			if (out->n == DECODE_MAX_STACK)
				return -1;
			out->c[out->n++] = c;
		}
		ce = comma ? comma + 1 : NULL;
	}
	return 0;
}

static ZSTD_DCtx *decode_zstd_spare[DECODE_ZSTD_SPARE];
static int decode_zstd_nspare;

/* A context for a new body: a kept one, or a new one holding the window
 * limit (a session reset keeps parameters). */
static ZSTD_DCtx *decode_zstd_get(void)
{
	ZSTD_DCtx *z;

	if (decode_zstd_nspare > 0)
		return decode_zstd_spare[--decode_zstd_nspare];
	z = ZSTD_createDCtx();
	if (z != NULL &&
	    ZSTD_isError(ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, DECODE_ZSTD_WINDOW_LOG))) {
		ZSTD_freeDCtx(z);
		z = NULL;
	}
	return z;
}

static void decode_zstd_put(ZSTD_DCtx *z)
{
	if (z == NULL)
		return;
	if (decode_zstd_nspare < DECODE_ZSTD_SPARE &&
	    !ZSTD_isError(ZSTD_DCtx_reset(z, ZSTD_reset_session_only))) {
		decode_zstd_spare[decode_zstd_nspare++] = z;
		return;
	}
	ZSTD_freeDCtx(z);
}

struct decode *decode_new(enum decode_coding c, uint64_t max_out, unsigned max_ratio)
{
	struct decode *d = xcalloc(1, sizeof(*d));

	d->coding = c;
	d->head = d;
	d->caps.max_out = max_out;
	d->caps.max_ratio = max_ratio;
	d->caps.ratio_floor = DECODE_RATIO_FLOOR;
#ifdef HAVE_LIBDEFLATE
	d->holding = c == DECODE_GZIP;
#endif
	return d;
}

struct decode *decode_new_stack(
    const struct decode_codings *cs, uint64_t max_out, unsigned max_ratio)
{
	struct decode *head, *last;

	if (cs->n == 0)
		return decode_new(DECODE_IDENTITY, max_out, max_ratio);
	/* The coding applied last is undone first. */
	head = last = decode_new(cs->c[cs->n - 1], max_out, max_ratio);
	for (unsigned i = cs->n - 1; i-- > 0;) {
		last->inner = decode_new(cs->c[i], max_out, max_ratio);
		last = last->inner;
		last->head = head;
	}
	return head;
}

void decode_free(struct decode *d)
{
	while (d != NULL) {
		struct decode *inner = d->inner;

		zinflate_free(d->zi);
		if (d->br != NULL)
			BrotliDecoderDestroyInstance(d->br);
		decode_zstd_put(d->zstd);
		buf_free(&d->held);
		free(d);
		d = inner;
	}
}

/* Hands n decoded bytes to the callback within the caps. */
static enum decode_result decode_emit(
    struct decode *d, const char *p, size_t n, decode_out_cb cb, void *arg)
{
	n = zinflate_caps_room(&d->caps, d->out_bytes, n, &d->capped);
	d->out_bytes += n;
	if (n > 0 && cb && cb(arg, p, n) != 0)
		d->capped = 1;
	if (zinflate_caps_ratio_over(&d->caps, d->out_bytes, decode_in_bytes(d->head)))
		d->capped = 1;
	return d->capped ? DECODE_CAPPED : DECODE_OK;
}

/* zinflate's output, through the stage's caps: the ratio is judged
 * against the bytes the stack received, which zinflate does not see. */
struct decode_zout {
	struct decode *d;
	decode_out_cb cb;
	void *arg;
};

static int decode_zout_cb(void *arg, const char *data, size_t len)
{
	struct decode_zout *o = arg;

	return decode_emit(o->d, data, len, o->cb, o->arg) != DECODE_OK;
}

/* Decodes len more bytes of gzip or deflate. Bytes after the end of the
 * stream are ignored, as browsers do, unless another gzip member starts
 * there (RFC 1952 2.2); "deflate" is zlib-wrapped or, from many servers,
 * raw (lib/zinflate.h tells them apart). */
static enum decode_result decode_stream(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	struct decode_zout o = {d, cb, arg};

	if (d->zi == NULL)
		d->zi = zinflate_new(d->coding == DECODE_GZIP ? ZINFLATE_GZIP : ZINFLATE_DEFLATE,
		    ZINFLATE_MEMBERS_LENIENT, NULL);
	switch (zinflate_feed(d->zi, in, len, NULL, decode_zout_cb, &o)) {
	case ZINFLATE_MORE:
		return DECODE_OK;
	case ZINFLATE_END:
		return DECODE_END;
	case ZINFLATE_CORRUPT:
		d->failed = 1;
		d->err =
		    zinflate_error(d->zi) ? zinflate_error(d->zi) : "corrupt compressed stream";
		return DECODE_FAILED;
	default:
		/* Stopped by decode_emit, which marked the stage capped. */
		d->capped = 1;
		return DECODE_CAPPED;
	}
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

/* Decodes len more bytes of a brotli stream. Bytes after its end are
 * ignored, as for gzip. */
static enum decode_result decode_br(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	const uint8_t *next_in = (const uint8_t *)in;
	size_t avail_in = len;

	if (d->ended) {
		d->in_bytes += len;
		return DECODE_END;
	}
	if (d->br == NULL && (d->br = BrotliDecoderCreateInstance(NULL, NULL, NULL)) == NULL) {
		d->failed = 1;
		d->err = "brotli initialisation failed";
		return DECODE_FAILED;
	}
	for (;;) {
		uint8_t out[DECODE_CHUNK], *next_out = out;
		size_t avail_out = sizeof(out), before = avail_in;
		BrotliDecoderResult br;
		enum decode_result r;

		br = BrotliDecoderDecompressStream(
		    d->br, &avail_in, &next_in, &avail_out, &next_out, NULL);
		d->in_bytes += before - avail_in;
		if (br == BROTLI_DECODER_RESULT_ERROR) {
			d->failed = 1;
			d->err = BrotliDecoderErrorString(BrotliDecoderGetErrorCode(d->br));
			return DECODE_FAILED;
		}
		r = decode_emit(d, (const char *)out, sizeof(out) - avail_out, cb, arg);
		if (r != DECODE_OK)
			return r;
		if (br == BROTLI_DECODER_RESULT_SUCCESS) {
			d->ended = 1;
			d->in_bytes += avail_in;
			return DECODE_END;
		}
		if (br == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
			return DECODE_OK;
	}
}

/* Decodes len more bytes of zstd frames (several may follow each other,
 * RFC 8878 3.1). */
static enum decode_result decode_zstd(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	ZSTD_inBuffer ib = {in, len, 0};

	if (len == 0)
		return d->ended ? DECODE_END : DECODE_OK;
	if (d->zstd == NULL && (d->zstd = decode_zstd_get()) == NULL) {
		d->failed = 1;
		d->err = "zstd initialisation failed";
		return DECODE_FAILED;
	}
	for (;;) {
		char out[DECODE_CHUNK];
		ZSTD_outBuffer ob = {out, sizeof(out), 0};
		size_t before = ib.pos, zr;
		enum decode_result r;

		zr = ZSTD_decompressStream(d->zstd, &ob, &ib);
		d->in_bytes += ib.pos - before;
		if (ZSTD_isError(zr)) {
			d->failed = 1;
			d->err = ZSTD_getErrorName(zr);
			return DECODE_FAILED;
		}
		/* 0: a frame ended and all its output is out. */
		d->ended = zr == 0;
		r = decode_emit(d, out, ob.pos, cb, arg);
		if (r != DECODE_OK)
			return r;
		if (ib.pos == ib.size && ob.pos < ob.size)
			return d->ended ? DECODE_END : DECODE_OK;
	}
}

/* One stage: decodes len bytes of its coding and hands the output to cb. */
static enum decode_result decode_stage_feed(
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
	if (d->coding == DECODE_BR)
		return decode_br(d, in, len, cb, arg);
	if (d->coding == DECODE_ZSTD)
		return decode_zstd(d, in, len, cb, arg);
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
	if (isize > d->caps.max_out || zinflate_caps_ratio_over(&d->caps, isize, n) ||
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

static enum decode_result decode_stage_finish(struct decode *d, decode_out_cb cb, void *arg)
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
	/* An empty body with a Content-Encoding is common for errors. */
	if (d->zi != NULL) {
		enum zinflate_result zr = zinflate_finish(d->zi);

		if (zr == ZINFLATE_END || zr == ZINFLATE_EMPTY)
			return DECODE_END;
	} else if (d->in_bytes == 0) {
		return DECODE_END;
	}
	d->failed = 1;
	d->err = "compressed stream truncated";
	return DECODE_FAILED;
}

/* What a stage of a stack hands on goes into the next stage. */
struct decode_link {
	struct decode *inner;
	decode_out_cb cb;
	void *arg;
};

static enum decode_result decode_chain_feed(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg);

static int decode_link_cb(void *arg, const char *data, size_t len)
{
	struct decode_link *l = arg;
	enum decode_result r = decode_chain_feed(l->inner, data, len, l->cb, l->arg);

	return r == DECODE_CAPPED || r == DECODE_FAILED;
}

/* The result of a stack whose first stage returned r: a later stage that
 * failed or was capped decides it (the first stage only saw its consumer
 * stop). */
static enum decode_result decode_chain_result(const struct decode *d, enum decode_result r)
{
	for (const struct decode *s = d; s != NULL; s = s->inner)
		if (s->failed)
			return DECODE_FAILED;
	for (const struct decode *s = d; s != NULL; s = s->inner)
		if (s->capped)
			return DECODE_CAPPED;
	return r;
}

static enum decode_result decode_chain_feed(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	struct decode_link l = {d->inner, cb, arg};

	if (d->inner == NULL)
		return decode_stage_feed(d, in, len, cb, arg);
	return decode_chain_result(d, decode_stage_feed(d, in, len, decode_link_cb, &l));
}

enum decode_result decode_feed(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg)
{
	return decode_chain_feed(d, in, len, cb, arg);
}

enum decode_result decode_finish(struct decode *d, decode_out_cb cb, void *arg)
{
	struct decode_link l = {d->inner, cb, arg};
	enum decode_result r;

	if (d->inner == NULL)
		return decode_stage_finish(d, cb, arg);
	r = decode_chain_result(d, decode_stage_finish(d, decode_link_cb, &l));
	if (r != DECODE_END)
		return r;
	return decode_chain_result(d, decode_finish(d->inner, cb, arg));
}

uint64_t decode_in_bytes(const struct decode *d)
{
	return d->in_bytes + (d->zi != NULL ? zinflate_in_bytes(d->zi) : 0) +
	    (d->holding ? d->held.len : 0);
}

uint64_t decode_out_bytes(const struct decode *d)
{
	while (d->inner != NULL)
		d = d->inner;
	return d->out_bytes;
}

const char *decode_error(const struct decode *d)
{
	for (; d != NULL; d = d->inner)
		if (d->err != NULL)
			return d->err;
	return NULL;
}
