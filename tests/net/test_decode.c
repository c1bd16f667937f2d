/* Tests of content decoding (src/net/decode.c): gzip, zlib and raw deflate,
 * br and zstd, stacked codings, multi-member gzip and multi-frame zstd,
 * corrupt and truncated streams, the caps that stop a compression bomb,
 * and (built with libdeflate) the gzip body held whole: output from feed
 * and finish together must be what streaming gives. */
#include <build-config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>
#include <brotli/encode.h>
#include <zstd.h>

#include "lib/buf.h"
#include "net/decode.h"

/* Compresses in with the given window bits (31 gzip, 15 zlib, -15 raw). */
static void compress_to(struct buf *out, const char *in, size_t len, int wbits)
{
	z_stream zs;
	char tmp[4096];
	int r;

	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (Bytef *)in;
	zs.avail_in = len;
	do {
		zs.next_out = (Bytef *)tmp;
		zs.avail_out = sizeof(tmp);
		r = deflate(&zs, Z_FINISH);
		buf_append(out, tmp, sizeof(tmp) - zs.avail_out);
	} while (r == Z_OK);
	assert_int_equal(r, Z_STREAM_END);
	deflateEnd(&zs);
}

/* Compresses in as br (quality 5, window 2^lgwin). */
static void br_to(struct buf *out, const char *in, size_t len, int lgwin)
{
	size_t n = BrotliEncoderMaxCompressedSize(len);
	char *tmp = malloc(n);

	assert_true(BrotliEncoderCompress(
	    5, lgwin, BROTLI_MODE_GENERIC, len, (const uint8_t *)in, &n, (uint8_t *)tmp));
	buf_append(out, tmp, n);
	free(tmp);
}

/* Compresses in as one zstd frame. With wlog, the frame is streamed
 * without its size so that its header asks for a 2^wlog window. */
static void zstd_to(struct buf *out, const char *in, size_t len, int wlog)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(len) + 64;
	char *tmp = malloc(cap);
	ZSTD_outBuffer ob = {tmp, cap, 0};
	ZSTD_inBuffer ib = {in, len / 2, 0};

	assert_non_null(cc);
	assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 3)));
	if (wlog)
		assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, wlog)));
	assert_false(ZSTD_isError(ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_continue)));
	assert_int_equal(ib.pos, ib.size);
	ib.size = len;
	assert_int_equal(ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_end), 0);
	buf_append(out, tmp, ob.pos);
	free(tmp);
	ZSTD_freeCCtx(cc);
}

/* Applies one coding to in, appending to out. */
static void encode_to(struct buf *out, const char *in, size_t len, enum decode_coding c)
{
	switch (c) {
	case DECODE_GZIP:
		compress_to(out, in, len, 31);
		break;
	case DECODE_DEFLATE:
		compress_to(out, in, len, 15);
		break;
	case DECODE_BR:
		br_to(out, in, len, 22);
		break;
	case DECODE_ZSTD:
		zstd_to(out, in, len, 0);
		break;
	case DECODE_IDENTITY:
		buf_append(out, in, len);
		break;
	}
}

static int collect(void *arg, const char *d, size_t n)
{
	buf_append(arg, d, n);
	return 0;
}

static void sample(struct buf *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_appendc(b, "abcdefghij<>/ \n"[(i * 7 + i / 13) % 15]);
}

/* Feeds in steps of step bytes; returns the last result. */
static enum decode_result feed(struct decode *d, const struct buf *in, size_t step, struct buf *out)
{
	enum decode_result r = DECODE_OK;

	for (size_t off = 0; off < in->len && (r == DECODE_OK || r == DECODE_END); off += step) {
		size_t n = in->len - off < step ? in->len - off : step;
		r = decode_feed(d, in->data + off, n, collect, out);
	}
	return r;
}

/* Feeds everything, then finishes: the result of the whole body. */
static enum decode_result feed_all(
    struct decode *d, const struct buf *in, size_t step, struct buf *out)
{
	enum decode_result r = feed(d, in, step, out);

	assert_true(r == DECODE_OK || r == DECODE_END || r == DECODE_CAPPED || r == DECODE_FAILED);
	return decode_finish(d, collect, out);
}

static void test_roundtrip(void **state)
{
	static const struct {
		enum decode_coding c;
		int wbits;
	} kinds[] = {
	    {DECODE_GZIP, 31},
	    {DECODE_DEFLATE, 15},
	    {DECODE_DEFLATE, -15},
	    {DECODE_BR, 0},
	    {DECODE_ZSTD, 0},
	};
	static const size_t steps[] = {1, 100, 1 << 20};
	struct buf plain = BUF_INIT;

	sample(&plain, 300000);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (size_t s = 0; s < 3; s++) {
			struct buf z = BUF_INIT, out = BUF_INIT;
			struct decode *d = decode_new(kinds[k].c, DECODE_MAX_OUT, DECODE_MAX_RATIO);

			if (kinds[k].wbits != 0)
				compress_to(&z, plain.data, plain.len, kinds[k].wbits);
			else
				encode_to(&z, plain.data, plain.len, kinds[k].c);
			assert_int_equal(feed_all(d, &z, steps[s], &out), DECODE_END);
			assert_int_equal(out.len, plain.len);
			assert_memory_equal(out.data, plain.data, plain.len);
			assert_int_equal(decode_out_bytes(d), plain.len);
			assert_int_equal(decode_in_bytes(d), z.len);
			decode_free(d);
			buf_free(&z);
			buf_free(&out);
		}
	buf_free(&plain);
}

static void test_multi_member(void **state)
{
	struct buf z = BUF_INIT, out = BUF_INIT;
	struct decode *d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);

	compress_to(&z, "hello ", 6, 31);
	compress_to(&z, "world", 5, 31);
	assert_int_equal(feed_all(d, &z, 3, &out), DECODE_END);
	assert_int_equal(out.len, 11);
	assert_memory_equal(out.data, "hello world", 11);
	decode_free(d);
	buf_free(&z);
	buf_free(&out);
}

static void test_corrupt(void **state)
{
	struct buf z = BUF_INIT, out = BUF_INIT, plain = BUF_INIT;
	struct decode *d;

	sample(&plain, 10000);
	compress_to(&z, plain.data, plain.len, 31);
	z.data[z.len / 2] ^= 0x55;
	z.data[z.len / 2 + 1] ^= 0xaa;
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(feed_all(d, &z, 64, &out), DECODE_FAILED);
	assert_int_equal(decode_finish(d, collect, &out), DECODE_FAILED);
	assert_non_null(decode_error(d));
	decode_free(d);

	/* not gzip at all */
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(decode_feed(d, "<html>plain</html>", 18, collect, &out), DECODE_FAILED);
	decode_free(d);

	/* truncated: no error while feeding, but finish says so, after
	 * handing over what the first half decodes to */
	buf_reset(&out);
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	z.data[z.len / 2] ^= 0x55;
	z.data[z.len / 2 + 1] ^= 0xaa;
	z.len /= 2;
	assert_int_equal(feed(d, &z, 64, &out), DECODE_OK);
	assert_int_equal(decode_finish(d, collect, &out), DECODE_FAILED);
	assert_string_equal(decode_error(d), "compressed stream truncated");
	assert_true(out.len > 0 && out.len < plain.len);
	assert_memory_equal(out.data, plain.data, out.len);
	decode_free(d);

	/* empty body with a Content-Encoding */
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(decode_finish(d, collect, &out), DECODE_END);
	decode_free(d);
	buf_free(&z);
	buf_free(&out);
	buf_free(&plain);
}

static int count(void *arg, const char *d, size_t n)
{
	*(uint64_t *)arg += n;
	return 0;
}

/* 256 MiB of zeros (about 256 KiB compressed) stops at the ratio cap
 * right after the 1 MiB floor, and at the byte cap without ratio cap. */
static void test_bomb(void **state)
{
	size_t n = 256u << 20;
	char *zeros = calloc(1, n);
	struct buf z = BUF_INIT;
	struct decode *d;
	uint64_t got = 0;
	enum decode_result r;

	compress_to(&z, zeros, n, 31);
	free(zeros);
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	r = DECODE_OK;
	for (size_t off = 0; off < z.len && r == DECODE_OK; off += 1024)
		r = decode_feed(
		    d, z.data + off, z.len - off < 1024 ? z.len - off : 1024, count, &got);
	if (r == DECODE_OK)
		r = decode_finish(d, count, &got);
	assert_int_equal(r, DECODE_CAPPED);
	assert_true(got >= DECODE_RATIO_FLOOR);
	assert_true(got < 2 * DECODE_RATIO_FLOOR);
	assert_int_equal(decode_feed(d, "x", 1, count, &got), DECODE_CAPPED);
	decode_free(d);

	got = 0;
	d = decode_new(DECODE_GZIP, 5u << 20, 100000);
	r = DECODE_OK;
	for (size_t off = 0; off < z.len && r == DECODE_OK; off += 4096)
		r = decode_feed(
		    d, z.data + off, z.len - off < 4096 ? z.len - off : 4096, count, &got);
	if (r == DECODE_OK)
		r = decode_finish(d, count, &got);
	assert_int_equal(r, DECODE_CAPPED);
	assert_int_equal(got, 5u << 20);
	assert_int_equal(decode_out_bytes(d), 5u << 20);
	decode_free(d);
	buf_free(&z);
}

static int refuse(void *arg, const char *d, size_t n)
{
	(void)d;
	*(uint64_t *)arg += n;
	return 1;
}

/* What holding a gzip body whole must not change: a body past the hold
 * limit (streamed from there on), bytes after the end, a trailer whose
 * length is wrong, a consumer that stops, a large output, multi-member
 * bodies in one piece, and the input count while held. */
static void test_held(void **state)
{
	struct buf plain = BUF_INIT, z = BUF_INIT, out = BUF_INIT;
	struct decode *d;
	uint32_t x = 12345;
	uint64_t got = 0;

	/* 1.5 MiB of noise compresses to more than the 1 MiB held. */
	for (size_t i = 0; i < (3u << 19); i++) {
		x = x * 1103515245u + 12345u;
		buf_appendc(&plain, (char)(x >> 23));
	}
	compress_to(&z, plain.data, plain.len, 31);
	assert_true(z.len > (1u << 20));
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(feed_all(d, &z, 65536, &out), DECODE_END);
	assert_int_equal(out.len, plain.len);
	assert_memory_equal(out.data, plain.data, plain.len);
	assert_int_equal(decode_in_bytes(d), z.len);
	decode_free(d);

	/* A small body: counted while held, then bytes after its end. */
	buf_reset(&z);
	buf_reset(&out);
	compress_to(&z, plain.data, 5000, 31);
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(decode_feed(d, z.data, 100, collect, &out), DECODE_OK);
	assert_int_equal(decode_in_bytes(d), 100);
	buf_append(&z, "trailing junk", 13);
	assert_int_equal(
	    decode_feed(d, z.data + 100, z.len - 100, collect, &out) == DECODE_FAILED, 0);
	assert_int_equal(decode_finish(d, collect, &out), DECODE_END);
	assert_int_equal(out.len, 5000);
	assert_memory_equal(out.data, plain.data, 5000);
	assert_int_equal(decode_in_bytes(d), z.len);
	decode_free(d);

	/* The trailer's length is wrong: the whole output, then the error. */
	z.len -= 13;
	z.data[z.len - 4] ^= 1;
	buf_reset(&out);
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(feed_all(d, &z, 1 << 20, &out), DECODE_FAILED);
	assert_non_null(decode_error(d));
	decode_free(d);

	/* The trailer claims more than the byte cap. */
	z.data[z.len - 1] = 0x7f;
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(feed_all(d, &z, 1 << 20, &out), DECODE_FAILED);
	decode_free(d);

	/* The consumer stops at the first piece. */
	buf_reset(&z);
	compress_to(&z, plain.data, 5000, 31);
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(decode_feed(d, z.data, z.len, refuse, &got) == DECODE_FAILED, 0);
	assert_int_equal(decode_finish(d, refuse, &got), DECODE_CAPPED);
	assert_true(got > 0 && got <= 5000);
	decode_free(d);

	/* Held whole (under 1 MiB compressed) but 5 MiB decoded: streamed at
	 * the end rather than decoded into one buffer that large. */
	buf_reset(&plain);
	buf_reset(&z);
	buf_reset(&out);
	for (size_t i = 0; i < (5u << 20); i++) {
		x = x * 1103515245u + 12345u;
		buf_appendc(&plain, (x >> 27) & 1 ? 'a' : 'b');
	}
	compress_to(&z, plain.data, plain.len, 31);
	assert_true(z.len < (1u << 20));
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(feed_all(d, &z, 16384, &out), DECODE_END);
	assert_int_equal(out.len, plain.len);
	assert_memory_equal(out.data, plain.data, plain.len);
	decode_free(d);

	/* Two members in one piece. */
	buf_reset(&z);
	buf_reset(&out);
	compress_to(&z, plain.data, 3000, 31);
	compress_to(&z, plain.data + 3000, 4000, 31);
	d = decode_new(DECODE_GZIP, DECODE_MAX_OUT, DECODE_MAX_RATIO);
	assert_int_equal(feed_all(d, &z, 1 << 20, &out), DECODE_END);
	assert_int_equal(out.len, 7000);
	assert_memory_equal(out.data, plain.data, 7000);
	decode_free(d);
	buf_free(&plain);
	buf_free(&z);
	buf_free(&out);
}

static void test_identity(void **state)
{
	struct buf out = BUF_INIT;
	struct decode *d = decode_new(DECODE_IDENTITY, 10, DECODE_MAX_RATIO);

	assert_int_equal(decode_feed(d, "hello", 5, collect, &out), DECODE_OK);
	assert_int_equal(decode_feed(d, "world!!", 7, collect, &out), DECODE_CAPPED);
	assert_int_equal(out.len, 10);
	assert_memory_equal(out.data, "helloworld", 10);
	decode_free(d);
	buf_free(&out);
}

static void test_coding_parse(void **state)
{
	static const struct {
		const char *v;
		int r;
		unsigned n;
		enum decode_coding c[DECODE_MAX_STACK];
	} t[] = {
	    {NULL, 0, 0, {0}},
	    {"", 0, 0, {0}},
	    {"identity", 0, 0, {0}},
	    {"gzip", 0, 1, {DECODE_GZIP}},
	    {" GZip ", 0, 1, {DECODE_GZIP}},
	    {"x-gzip", 0, 1, {DECODE_GZIP}},
	    {"deflate", 0, 1, {DECODE_DEFLATE}},
	    {"br", 0, 1, {DECODE_BR}},
	    {"BR", 0, 1, {DECODE_BR}},
	    {"zstd", 0, 1, {DECODE_ZSTD}},
	    {"gzip, br", 0, 2, {DECODE_GZIP, DECODE_BR}},
	    {"gzip, gzip", 0, 2, {DECODE_GZIP, DECODE_GZIP}},
	    {"identity,zstd, identity", 0, 1, {DECODE_ZSTD}},
	    {"deflate, zstd,br ,gzip", 0, 4, {DECODE_DEFLATE, DECODE_ZSTD, DECODE_BR, DECODE_GZIP}},
	    {"gzip,gzip,gzip,gzip,gzip", -1, 0, {0}},
	    {"compress", -1, 0, {0}},
	    {"gzip, compress", -1, 0, {0}},
	    {"brotli", -1, 0, {0}},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct decode_codings cs;
		assert_int_equal(decode_codings_parse(t[i].v, &cs), t[i].r);
		if (t[i].r != 0)
			continue;
		assert_int_equal(cs.n, t[i].n);
		for (unsigned j = 0; j < cs.n; j++)
			assert_int_equal(cs.c[j], t[i].c[j]);
	}
}

/* Stacked codings come off last first, in any chunking; the input count
 * is of the bytes received. */
static void test_stack(void **state)
{
	static const char *const stacks[] = {
	    "gzip, br", "br, gzip", "zstd, deflate", "deflate, zstd, br, gzip", "gzip, gzip", ""};
	static const size_t steps[] = {1, 333, 1 << 20};
	struct buf plain = BUF_INIT;

	sample(&plain, 100000);
	for (size_t i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++)
		for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
			struct decode_codings cs;
			struct buf z = BUF_INIT, next = BUF_INIT, out = BUF_INIT;
			struct decode *d;

			assert_int_equal(decode_codings_parse(stacks[i], &cs), 0);
			buf_append(&z, plain.data, plain.len);
			for (unsigned j = 0; j < cs.n; j++) {
				buf_reset(&next);
				encode_to(&next, z.data, z.len, cs.c[j]);
				buf_reset(&z);
				buf_append(&z, next.data, next.len);
			}
			d = decode_new_stack(&cs, DECODE_MAX_OUT, DECODE_MAX_RATIO);
			assert_int_equal(feed_all(d, &z, steps[s], &out), DECODE_END);
			assert_int_equal(out.len, plain.len);
			assert_memory_equal(out.data, plain.data, plain.len);
			assert_int_equal(decode_in_bytes(d), z.len);
			assert_int_equal(decode_out_bytes(d), plain.len);
			assert_null(decode_error(d));
			decode_free(d);
			buf_free(&z);
			buf_free(&next);
			buf_free(&out);
		}
	buf_free(&plain);
}

/* A body's mutation for test_broken. */
enum broken_how { BROKEN_FLIP, BROKEN_CUT, BROKEN_GARBAGE, BROKEN_WINDOW };

/* Corrupt, truncated and refused streams of every coding, alone and
 * inside a stack: decoding fails with a reason, after handing over no
 * more than a prefix of the right output. */
static void test_broken(void **state)
{
	static const struct {
		const char *ce;
		enum broken_how how;
		const char *err; /* NULL: any */
	} t[] = {
	    {"br", BROKEN_FLIP, NULL},
	    {"br", BROKEN_CUT, "compressed stream truncated"},
	    {"br", BROKEN_GARBAGE, NULL},
	    {"zstd", BROKEN_FLIP, NULL},
	    {"zstd", BROKEN_CUT, "compressed stream truncated"},
	    {"zstd", BROKEN_GARBAGE, NULL},
	    {"zstd", BROKEN_WINDOW, NULL},
	    {"deflate", BROKEN_CUT, "compressed stream truncated"},
	    {"gzip, br", BROKEN_FLIP, NULL},
	    {"gzip, br", BROKEN_CUT, "compressed stream truncated"},
	    {"br, gzip", BROKEN_CUT, "compressed stream truncated"},
	};
	struct buf plain = BUF_INIT;

	/* Noise, so that a flipped byte cannot fall in a long match. */
	for (uint32_t i = 0, x = 7; i < 200000; i++) {
		x = x * 1103515245u + 12345u;
		buf_appendc(&plain, "abcdefgh"[(x >> 20) & 7]);
	}
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct decode_codings cs;
		struct buf z = BUF_INIT, next = BUF_INIT, out = BUF_INIT;
		struct decode *d;

		assert_int_equal(decode_codings_parse(t[i].ce, &cs), 0);
		if (t[i].how == BROKEN_WINDOW) {
			zstd_to(&z, plain.data, plain.len, 27);
		} else {
			buf_append(&z, plain.data, plain.len);
			for (unsigned j = 0; j < cs.n; j++) {
				buf_reset(&next);
				encode_to(&next, z.data, z.len, cs.c[j]);
				buf_reset(&z);
				buf_append(&z, next.data, next.len);
			}
		}
		if (t[i].how == BROKEN_FLIP)
			for (size_t k = z.len / 3; k < z.len / 3 + 16; k++)
				z.data[k] ^= 0x5a;
		else if (t[i].how == BROKEN_CUT)
			z.len /= 2;
		else if (t[i].how == BROKEN_GARBAGE)
			for (size_t k = 0; k < z.len; k++)
				z.data[k] = (char)(0xff - k % 7);
		d = decode_new_stack(&cs, DECODE_MAX_OUT, DECODE_MAX_RATIO);
		assert_int_equal(feed_all(d, &z, 4096, &out), DECODE_FAILED);
		assert_non_null(decode_error(d));
		if (t[i].err != NULL)
			assert_string_equal(decode_error(d), t[i].err);
		assert_true(out.len < plain.len);
		if (t[i].how == BROKEN_CUT && out.len > 0)
			assert_memory_equal(out.data, plain.data, out.len);
		assert_int_equal(decode_feed(d, "x", 1, collect, &out), DECODE_FAILED);
		decode_free(d);
		buf_free(&z);
		buf_free(&next);
		buf_free(&out);
	}
	buf_free(&plain);
}

/* 64 MiB of zeros as br, as zstd, and as br inside gzip: the ratio cap
 * stops each right after the 1 MiB floor, the byte cap when the ratio
 * cap is out of reach. */
static void test_bomb_codings(void **state)
{
	static const char *const stacks[] = {"br", "zstd", "br, gzip", "gzip, br", "gzip, zstd"};
	size_t n = 64u << 20;
	char *zeros = calloc(1, n);

	for (size_t i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++) {
		struct decode_codings cs;
		struct buf z = BUF_INIT, next = BUF_INIT;
		uint64_t got = 0;
		struct decode *d;

		assert_int_equal(decode_codings_parse(stacks[i], &cs), 0);
		encode_to(&z, zeros, n, cs.c[0]);
		for (unsigned j = 1; j < cs.n; j++) {
			buf_reset(&next);
			encode_to(&next, z.data, z.len, cs.c[j]);
			buf_reset(&z);
			buf_append(&z, next.data, next.len);
		}
		d = decode_new_stack(&cs, DECODE_MAX_OUT, DECODE_MAX_RATIO);
		buf_reset(&next);
		assert_int_equal(feed_all(d, &z, 512, &next), DECODE_CAPPED);
		assert_true(decode_out_bytes(d) >= DECODE_RATIO_FLOOR);
		assert_true(decode_out_bytes(d) < 2 * DECODE_RATIO_FLOOR);
		decode_free(d);

		d = decode_new_stack(&cs, 5u << 20, 1000000000u);
		for (size_t off = 0; off < z.len; off += 4096) {
			enum decode_result r = decode_feed(
			    d, z.data + off, z.len - off < 4096 ? z.len - off : 4096, count, &got);
			if (r != DECODE_OK)
				break;
		}
		assert_int_equal(decode_finish(d, count, &got), DECODE_CAPPED);
		assert_int_equal(got, 5u << 20);
		decode_free(d);
		buf_free(&z);
		buf_free(&next);
	}
	free(zeros);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip),
	    cmocka_unit_test(test_multi_member),
	    cmocka_unit_test(test_corrupt),
	    cmocka_unit_test(test_bomb),
	    cmocka_unit_test(test_held),
	    cmocka_unit_test(test_identity),
	    cmocka_unit_test(test_coding_parse),
	    cmocka_unit_test(test_stack),
	    cmocka_unit_test(test_broken),
	    cmocka_unit_test(test_bomb_codings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
