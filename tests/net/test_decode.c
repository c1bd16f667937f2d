/* Tests of content decoding (src/net/decode.c): gzip, zlib and raw deflate,
 * multi-member gzip, corrupt and truncated streams, the caps that stop a
 * compression bomb, and (built with libdeflate) the gzip body held whole:
 * output from feed and finish together must be what streaming gives. */
#include <build-config.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

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
	};
	static const size_t steps[] = {1, 100, 1 << 20};
	struct buf plain = BUF_INIT;

	sample(&plain, 300000);
	for (size_t k = 0; k < 3; k++)
		for (size_t s = 0; s < 3; s++) {
			struct buf z = BUF_INIT, out = BUF_INIT;
			struct decode *d = decode_new(kinds[k].c, DECODE_MAX_OUT, DECODE_MAX_RATIO);

			compress_to(&z, plain.data, plain.len, kinds[k].wbits);
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
		enum decode_coding c;
	} t[] = {
	    {NULL, 0, DECODE_IDENTITY},
	    {"", 0, DECODE_IDENTITY},
	    {"identity", 0, DECODE_IDENTITY},
	    {"gzip", 0, DECODE_GZIP},
	    {" GZip ", 0, DECODE_GZIP},
	    {"x-gzip", 0, DECODE_GZIP},
	    {"deflate", 0, DECODE_DEFLATE},
	    {"br", -1, DECODE_IDENTITY},
	    {"gzip, gzip", -1, DECODE_IDENTITY},
	    {"compress", -1, DECODE_IDENTITY},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		enum decode_coding c;
		assert_int_equal(decode_coding_parse(t[i].v, &c), t[i].r);
		if (t[i].r == 0)
			assert_int_equal(c, t[i].c);
	}
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
