/* Capped streaming inflate (lib/zinflate.h): the zlib-or-raw sniff; each
 * wrapping, and each sniffed one, fed in reads of every size; the output
 * and ratio caps and a stopping consumer; streams cut short at every
 * length, corrupt and garbage input; what follows the end of a stream;
 * and the whole-buffer zinflate_capped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "lib/buf.h"
#include "lib/zinflate.h"

/* zlib's window bits for how a test stream is made. */
#define TZ_GZIP (15 + 16)
#define TZ_ZLIB 15
#define TZ_RAW (-15)

static char text[100000];

static void test_zinflate_text(void)
{
	for (size_t i = 0; i < sizeof text; i++)
		text[i] = (char)('a' + (i * 7 + i / 13) % 26);
}

/* Compresses in with the given window bits into out. */
static void test_zinflate_deflate(const void *in, size_t n, int wbits, struct buf *out)
{
	z_stream z;
	size_t cap = compressBound((uLong)n) + 64;

	buf_reset(out);
	buf_reserve(out, cap);
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = (unsigned char *)out->data;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	out->len = cap - z.avail_out;
	deflateEnd(&z);
}

static int test_zinflate_collect(void *arg, const char *data, size_t len)
{
	buf_append(arg, data, len);
	return 0;
}

/* Feeds all of in, step bytes a read; the last feed's result, or the
 * first that was not ZINFLATE_MORE. */
static enum zinflate_result test_zinflate_feed(
    struct zinflate *z, const struct buf *in, size_t step, struct buf *out)
{
	enum zinflate_result r = ZINFLATE_MORE;

	for (size_t off = 0; off < in->len; off += step) {
		size_t n = in->len - off < step ? in->len - off : step, used;

		r = zinflate_feed(z, in->data + off, n, &used, test_zinflate_collect, out);
		if (r != ZINFLATE_MORE && r != ZINFLATE_END)
			return r;
		assert_int_equal(used, n);
	}
	return r;
}

static void test_zinflate_sniff(void **state)
{
	static const struct {
		const char *b;
		size_t n;
		int zlib;
	} t[] = {
	    {"\x78\x9c", 2, 1}, /* zlib's default level */
	    {"\x78\x01", 2, 1},
	    {"\x78\xda", 2, 1},
	    {"\x48\x89", 2, 1}, /* a 4 KiB window: 0x4889 = 31 * 599 */
	    {"\x78\x9d", 2, 0}, /* not a multiple of 31 */
	    {"\x79\x9c", 2, 0}, /* method 9 */
	    {"\x1f\x8b", 2, 0}, /* gzip is not zlib */
	    {"\xcb\x48", 2, 0}, /* raw deflate of "hello" */
	    {"\x78", 1, 0},
	    {"", 0, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (zinflate_is_zlib(t[i].b, t[i].n) != t[i].zlib)
			fail_msg("row %zu: want %d", i, t[i].zlib);
}

/* Every wrapping, fed whole and in reads of 1 to 300 bytes and larger:
 * the same output, all of the input counted, the stream ended. */
static void test_zinflate_wraps(void **state)
{
	static const struct {
		int wbits;
		enum zinflate_wrap wrap;
	} t[] = {
	    {TZ_GZIP, ZINFLATE_GZIP},
	    {TZ_ZLIB, ZINFLATE_ZLIB},
	    {TZ_RAW, ZINFLATE_RAW},
	    {TZ_ZLIB, ZINFLATE_DEFLATE},
	    {TZ_RAW, ZINFLATE_DEFLATE},
	    {TZ_GZIP, ZINFLATE_ANY},
	    {TZ_ZLIB, ZINFLATE_ANY},
	    {TZ_RAW, ZINFLATE_ANY},
	};
	static const size_t big[] = {1000, 4096, 8191, 8192, 65536, 1u << 30};
	struct buf z = BUF_INIT, out = BUF_INIT;

	(void)state;
	test_zinflate_text();
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		test_zinflate_deflate(text, sizeof text, t[i].wbits, &z);
		for (size_t k = 0; k < 300 + sizeof big / sizeof big[0]; k++) {
			size_t step = k < 300 ? k + 1 : big[k - 300];
			struct zinflate *zi = zinflate_new(t[i].wrap, ZINFLATE_ONE, NULL);
			enum zinflate_result r;

			buf_reset(&out);
			r = test_zinflate_feed(zi, &z, step, &out);
			if (r != ZINFLATE_END)
				fail_msg("row %zu, reads of %zu: result %d", i, step, r);
			assert_int_equal(zinflate_finish(zi), ZINFLATE_END);
			assert_int_equal(out.len, sizeof text);
			assert_memory_equal(out.data, text, sizeof text);
			assert_int_equal(zinflate_in_bytes(zi), z.len);
			assert_int_equal(zinflate_out_bytes(zi), sizeof text);
			assert_null(zinflate_error(zi));
			zinflate_free(zi);
		}
	}
	buf_free(&z);
	buf_free(&out);
}

static int test_zinflate_count(void *arg, const char *data, size_t len)
{
	(void)data;
	*(uint64_t *)arg += len;
	return 0;
}

static int test_zinflate_stop_after(void *arg, const char *data, size_t len)
{
	(void)data;
	(void)len;
	return --*(int *)arg <= 0;
}

/* The output cap stops at exactly the cap, the ratio cap within a chunk
 * past its floor, a consumer when it says so; each result stays. */
static void test_zinflate_caps(void **state)
{
	static const size_t maxes[] = {1, 100, 8191, 8192, 8193, 40000, 99999};
	size_t nz = 4u << 20;
	char *zeros = calloc(1, nz);
	struct buf z = BUF_INIT, out = BUF_INIT;
	struct zinflate *zi;
	uint64_t got = 0;
	int calls = 2;

	(void)state;
	test_zinflate_text();
	test_zinflate_deflate(text, sizeof text, TZ_GZIP, &z);
	for (size_t i = 0; i < sizeof maxes / sizeof maxes[0]; i++) {
		for (size_t step = 1; step <= z.len; step = step * 3 + 1) {
			struct zinflate_caps caps = {maxes[i], 0, 0};

			zi = zinflate_new(ZINFLATE_GZIP, ZINFLATE_ONE, &caps);
			buf_reset(&out);
			assert_int_equal(test_zinflate_feed(zi, &z, step, &out), ZINFLATE_CAPPED);
			assert_int_equal(out.len, maxes[i]);
			assert_memory_equal(out.data, text, out.len);
			assert_int_equal(
			    zinflate_feed(zi, "x", 1, NULL, NULL, NULL), ZINFLATE_CAPPED);
			assert_int_equal(zinflate_finish(zi), ZINFLATE_CAPPED);
			zinflate_free(zi);
		}
	}
	/* A cap the whole output fits exactly is no stop. */
	{
		struct zinflate_caps caps = {sizeof text, 0, 0};

		zi = zinflate_new(ZINFLATE_GZIP, ZINFLATE_ONE, &caps);
		buf_reset(&out);
		assert_int_equal(test_zinflate_feed(zi, &z, z.len, &out), ZINFLATE_END);
		assert_int_equal(out.len, sizeof text);
		zinflate_free(zi);
	}
	/* 4 MiB of zeros (about 4 KiB compressed): 100:1 once 64 KiB are out. */
	test_zinflate_deflate(zeros, nz, TZ_ZLIB, &z);
	free(zeros);
	{
		struct zinflate_caps caps = {0, 100, 65536};

		zi = zinflate_new(ZINFLATE_DEFLATE, ZINFLATE_ONE, &caps);
		assert_int_equal(zinflate_feed(zi, z.data, z.len, NULL, test_zinflate_count, &got),
		    ZINFLATE_CAPPED);
		assert_true(got >= 65536 && got < 65536 + 8192);
		assert_int_equal(zinflate_out_bytes(zi), got);
		zinflate_free(zi);
	}
	/* Without caps all of it comes out; the consumer stops it after two
	 * chunks. */
	got = 0;
	zi = zinflate_new(ZINFLATE_ZLIB, ZINFLATE_ONE, NULL);
	assert_int_equal(
	    zinflate_feed(zi, z.data, z.len, NULL, test_zinflate_count, &got), ZINFLATE_END);
	assert_int_equal(got, nz);
	zinflate_free(zi);
	zi = zinflate_new(ZINFLATE_ZLIB, ZINFLATE_ONE, NULL);
	assert_int_equal(zinflate_feed(zi, z.data, z.len, NULL, test_zinflate_stop_after, &calls),
	    ZINFLATE_STOPPED);
	assert_int_equal(zinflate_out_bytes(zi), 2 * 8192);
	assert_int_equal(zinflate_feed(zi, z.data, z.len, NULL, NULL, NULL), ZINFLATE_STOPPED);
	assert_int_equal(zinflate_finish(zi), ZINFLATE_STOPPED);
	zinflate_free(zi);
	buf_free(&z);
	buf_free(&out);
}

/* A stream cut at every length: never an error while feeding, a prefix of
 * the text out, and finish says cut (or empty, for nothing). */
static void test_zinflate_cut(void **state)
{
	static const int wbits[] = {TZ_GZIP, TZ_ZLIB, TZ_RAW};
	static const enum zinflate_wrap wraps[] = {ZINFLATE_GZIP, ZINFLATE_DEFLATE, ZINFLATE_ANY};
	struct buf z = BUF_INIT, cut = BUF_INIT, out = BUF_INIT;

	(void)state;
	test_zinflate_text();
	for (size_t w = 0; w < 3; w++) {
		test_zinflate_deflate(text, 3000, wbits[w], &z);
		for (size_t n = 0; n < z.len; n++) {
			enum zinflate_wrap wrap =
			    w == 0 ? wraps[n % 3 == 0 ? 0 : 2] : wraps[1 + n % 2];
			struct zinflate *zi = zinflate_new(wrap, ZINFLATE_MEMBERS_LENIENT, NULL);
			enum zinflate_result r;

			buf_reset(&cut);
			buf_append(&cut, z.data, n);
			buf_reset(&out);
			r = test_zinflate_feed(zi, &cut, 1 + n % 7, &out);
			if (r != ZINFLATE_MORE)
				fail_msg("wbits %d, cut at %zu: result %d", wbits[w], n, r);
			assert_int_equal(
			    zinflate_finish(zi), n == 0 ? ZINFLATE_EMPTY : ZINFLATE_CUT);
			assert_true(out.len <= 3000);
			assert_memory_equal(out.data, text, out.len);
			zinflate_free(zi);
		}
	}
	buf_free(&z);
	buf_free(&cut);
	buf_free(&out);
}

/* Corrupt and garbage input: an error, after the output that came before
 * it; zlib's message when it gives one. */
static void test_zinflate_corrupt(void **state)
{
	static const struct {
		const char *b;
		size_t n;
		enum zinflate_wrap wrap;
		int has_msg;
	} t[] = {
	    {"<html>plain</html>", 18, ZINFLATE_GZIP, 1},
	    {"<html>plain</html>", 18, ZINFLATE_ZLIB, 1},
	    {"\x1f\x8b\x09\x00", 4, ZINFLATE_GZIP, 1}, /* method 9 */
	    {"\x1f\x00\x00\x00", 4, ZINFLATE_ANY, 1},  /* 1f: taken as gzip */
	    {"\xff\xff\xff\xff", 4, ZINFLATE_RAW, 1},  /* block type 3 */
	    {"\xff\xff\xff\xff", 4, ZINFLATE_DEFLATE, 1},
	    /* A zlib stream that needs a preset dictionary: no message. */
	    {"\x78\x20\x00\x00\x00\x01\x03\x00", 8, ZINFLATE_DEFLATE, 0},
	};
	struct buf z = BUF_INIT, out = BUF_INIT;
	struct zinflate *zi;

	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		for (size_t step = 1; step <= t[i].n; step++) {
			struct buf in = {(char *)t[i].b, t[i].n, t[i].n};

			zi = zinflate_new(t[i].wrap, ZINFLATE_MEMBERS_LENIENT, NULL);
			buf_reset(&out);
			if (test_zinflate_feed(zi, &in, step, &out) != ZINFLATE_CORRUPT)
				fail_msg("row %zu, reads of %zu: not corrupt", i, step);
			assert_int_equal(out.len, 0);
			assert_int_equal(zinflate_error(zi) != NULL, t[i].has_msg);
			assert_int_equal(zinflate_finish(zi), ZINFLATE_CORRUPT);
			zinflate_free(zi);
		}
	}
	/* A gzip stream with its trailer's length wrong: kept, all of the
	 * text comes out before the error however it is read; by default, the
	 * output of the call that found it is dropped (what comes out then
	 * depends on the reads, but is never all of it in one read). */
	test_zinflate_text();
	test_zinflate_deflate(text, sizeof text, TZ_GZIP, &z);
	z.data[z.len - 4] ^= 0xff;
	for (size_t step = 1; step <= z.len; step = step * 2 + 1) {
		for (int keep = 0; keep < 2; keep++) {
			zi = zinflate_new(ZINFLATE_GZIP, ZINFLATE_ONE, NULL);
			if (keep)
				zinflate_keep_before_error(zi);
			buf_reset(&out);
			assert_int_equal(test_zinflate_feed(zi, &z, step, &out), ZINFLATE_CORRUPT);
			assert_string_equal(zinflate_error(zi), "incorrect length check");
			if (keep)
				assert_int_equal(out.len, sizeof text);
			else if (step >= z.len)
				assert_true(out.len < sizeof text);
			assert_memory_equal(out.data, text, out.len);
			zinflate_free(zi);
		}
	}
	buf_free(&z);
	buf_free(&out);
}

/* What follows the end: ONE stops there, MEMBERS reads another member and
 * fails on garbage, MEMBERS_LENIENT reads a member that starts with 1f and
 * takes and ignores anything else. */
static void test_zinflate_tails(void **state)
{
	struct buf a = BUF_INIT, b = BUF_INIT, two = BUF_INIT, junk = BUF_INIT, out = BUF_INIT;
	struct zinflate *zi;
	size_t used;

	(void)state;
	test_zinflate_text();
	test_zinflate_deflate(text, 5000, TZ_GZIP, &a);
	test_zinflate_deflate(text + 5000, 7000, TZ_GZIP, &b);
	buf_append(&two, a.data, a.len);
	buf_append(&two, b.data, b.len);
	buf_append(&junk, a.data, a.len);
	buf_append(&junk, "trailing junk", 13);

	/* ONE: used stops at the end of the first member; a reset reads the
	 * second from there. */
	zi = zinflate_new(ZINFLATE_GZIP, ZINFLATE_ONE, NULL);
	assert_int_equal(
	    zinflate_feed(zi, two.data, two.len, &used, test_zinflate_collect, &out), ZINFLATE_END);
	assert_int_equal(used, a.len);
	assert_int_equal(zinflate_in_bytes(zi), a.len);
	assert_int_equal(out.len, 5000);
	zinflate_reset(zi);
	assert_int_equal(
	    zinflate_feed(zi, two.data + used, two.len - used, &used, test_zinflate_collect, &out),
	    ZINFLATE_END);
	assert_int_equal(used, b.len);
	assert_int_equal(out.len, 12000);
	assert_memory_equal(out.data, text, 12000);
	zinflate_free(zi);

	/* MEMBERS and MEMBERS_LENIENT read both members, in any reads. */
	for (int tail = 0; tail < 2; tail++) {
		for (size_t step = 1; step <= two.len; step = step * 2 + 1) {
			zi = zinflate_new(ZINFLATE_GZIP,
			    tail ? ZINFLATE_MEMBERS_LENIENT : ZINFLATE_MEMBERS, NULL);
			buf_reset(&out);
			assert_int_equal(test_zinflate_feed(zi, &two, step, &out), ZINFLATE_END);
			assert_int_equal(zinflate_finish(zi), ZINFLATE_END);
			assert_int_equal(out.len, 12000);
			assert_memory_equal(out.data, text, 12000);
			assert_int_equal(zinflate_in_bytes(zi), two.len);
			zinflate_free(zi);
		}
	}
	/* Garbage after the end: an error for MEMBERS, ignored (and counted)
	 * by MEMBERS_LENIENT. */
	zi = zinflate_new(ZINFLATE_GZIP, ZINFLATE_MEMBERS, NULL);
	buf_reset(&out);
	assert_int_equal(test_zinflate_feed(zi, &junk, junk.len, &out), ZINFLATE_CORRUPT);
	assert_int_equal(out.len, 5000);
	zinflate_free(zi);
	zi = zinflate_new(ZINFLATE_GZIP, ZINFLATE_MEMBERS_LENIENT, NULL);
	buf_reset(&out);
	assert_int_equal(test_zinflate_feed(zi, &junk, 7, &out), ZINFLATE_END);
	assert_int_equal(zinflate_finish(zi), ZINFLATE_END);
	assert_int_equal(zinflate_in_bytes(zi), junk.len);
	assert_int_equal(out.len, 5000);
	zinflate_free(zi);
	/* A member begun after the end and cut short is a cut stream. */
	zi = zinflate_new(ZINFLATE_GZIP, ZINFLATE_MEMBERS, NULL);
	buf_reset(&out);
	assert_int_equal(zinflate_feed(zi, two.data, a.len + 5, NULL, test_zinflate_collect, &out),
	    ZINFLATE_MORE);
	assert_int_equal(zinflate_finish(zi), ZINFLATE_CUT);
	zinflate_free(zi);
	/* Reset after a stop starts afresh, sniffing again. */
	zi = zinflate_new(ZINFLATE_ANY, ZINFLATE_ONE, NULL);
	assert_int_equal(zinflate_feed(zi, "garbage!", 8, NULL, NULL, NULL), ZINFLATE_CORRUPT);
	zinflate_reset(zi);
	buf_reset(&out);
	assert_int_equal(test_zinflate_feed(zi, &a, 3, &out), ZINFLATE_END);
	assert_int_equal(out.len, 5000);
	zinflate_free(zi);

	buf_free(&a);
	buf_free(&b);
	buf_free(&two);
	buf_free(&junk);
	buf_free(&out);
}

static void test_zinflate_capped_table(void **state)
{
	static const struct {
		int wbits;		 /* how it is compressed */
		enum zinflate_wrap wrap; /* how it is inflated */
		size_t cut;		 /* bytes dropped from the end */
		int corrupt;		 /* a byte of the trailer flipped */
		size_t max;
		enum zinflate_result want;
		size_t want_len; /* 0: all of the text */
	} t[] = {
	    {TZ_GZIP, ZINFLATE_GZIP, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {TZ_GZIP, ZINFLATE_ANY, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {TZ_ZLIB, ZINFLATE_ANY, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {TZ_RAW, ZINFLATE_ANY, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {TZ_ZLIB, ZINFLATE_ZLIB, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {TZ_RAW, ZINFLATE_RAW, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    /* Capped: exactly max bytes, more than a chunk. */
	    {TZ_GZIP, ZINFLATE_GZIP, 0, 0, 40000, ZINFLATE_CAPPED, 40000},
	    {TZ_RAW, ZINFLATE_RAW, 0, 0, 100, ZINFLATE_CAPPED, 100},
	    /* Cut short (its trailer gone): what came before is kept. */
	    {TZ_GZIP, ZINFLATE_GZIP, 8, 0, 1 << 20, ZINFLATE_CUT, 0},
	    /* Wrong wrapper, corrupt: an error. */
	    {TZ_RAW, ZINFLATE_ZLIB, 0, 0, 1 << 20, ZINFLATE_CORRUPT, 0},
	    {TZ_GZIP, ZINFLATE_GZIP, 0, 1, 1 << 20, ZINFLATE_CORRUPT, 0},
	};
	struct buf z = BUF_INIT, out = BUF_INIT;

	(void)state;
	test_zinflate_text();
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		enum zinflate_result r;

		test_zinflate_deflate(text, sizeof text, t[i].wbits, &z);
		z.len -= t[i].cut;
		if (t[i].corrupt)
			z.data[z.len - 4] ^= 0xff; /* the gzip trailer's length */
		buf_reset(&out);
		r = zinflate_capped(z.data, z.len, t[i].wrap, t[i].max, &out);
		if (r != t[i].want)
			fail_msg("row %zu: result %d, want %d", i, r, t[i].want);
		if (t[i].want == ZINFLATE_CUT || t[i].corrupt)
			assert_true(out.len > 0 && out.len <= sizeof text);
		else if (t[i].want != ZINFLATE_CORRUPT)
			assert_int_equal(out.len, t[i].want_len ? t[i].want_len : sizeof text);
		assert_memory_equal(out.data, text, out.len);
	}
	/* A buffer already at the cap gets nothing. */
	test_zinflate_deflate(text, sizeof text, TZ_GZIP, &z);
	buf_reset(&out);
	buf_append(&out, "xy", 2);
	assert_int_equal(zinflate_capped(z.data, z.len, ZINFLATE_GZIP, 2, &out), ZINFLATE_CAPPED);
	assert_int_equal(out.len, 2);
	buf_free(&z);
	buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zinflate_sniff),
	    cmocka_unit_test(test_zinflate_wraps),
	    cmocka_unit_test(test_zinflate_caps),
	    cmocka_unit_test(test_zinflate_cut),
	    cmocka_unit_test(test_zinflate_corrupt),
	    cmocka_unit_test(test_zinflate_tails),
	    cmocka_unit_test(test_zinflate_capped_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
