/* Capped inflate (lib/zinflate.h): the zlib-or-raw sniff, and each wrapper
 * inflated whole, capped, cut short and corrupt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include "lib/buf.h"
#include "lib/zinflate.h"

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

/* Compresses in with the given window bits. */
static size_t test_zinflate_deflate(
    const char *in, size_t n, int wbits, unsigned char *out, size_t cap)
{
	z_stream z;

	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	n = cap - z.avail_out;
	deflateEnd(&z);
	return n;
}

static void test_zinflate_table(void **state)
{
	static const struct {
		int wbits;   /* how it is compressed */
		int window;  /* how it is inflated */
		size_t cut;  /* bytes dropped from the end */
		int corrupt; /* a byte of the body flipped */
		size_t max;
		enum zinflate_result want;
		size_t want_len; /* 0: all of the text */
	} t[] = {
	    {ZINFLATE_GZIP, ZINFLATE_GZIP, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {ZINFLATE_GZIP, ZINFLATE_GZIP_OR_ZLIB, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {ZINFLATE_ZLIB, ZINFLATE_GZIP_OR_ZLIB, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {ZINFLATE_ZLIB, ZINFLATE_ZLIB, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    {ZINFLATE_RAW, ZINFLATE_RAW, 0, 0, 1 << 20, ZINFLATE_END, 0},
	    /* Capped: exactly max bytes, more than a chunk of 16 KiB. */
	    {ZINFLATE_GZIP, ZINFLATE_GZIP, 0, 0, 40000, ZINFLATE_CAPPED, 40000},
	    {ZINFLATE_RAW, ZINFLATE_RAW, 0, 0, 100, ZINFLATE_CAPPED, 100},
	    /* Cut short (its trailer gone): what came before is kept. */
	    {ZINFLATE_GZIP, ZINFLATE_GZIP, 8, 0, 1 << 20, ZINFLATE_CUT, 0},
	    /* Wrong wrapper, corrupt: an error. */
	    {ZINFLATE_RAW, ZINFLATE_ZLIB, 0, 0, 1 << 20, ZINFLATE_CORRUPT, 0},
	    {ZINFLATE_GZIP, ZINFLATE_GZIP, 0, 1, 1 << 20, ZINFLATE_CORRUPT, 0},
	};
	static char text[100000];
	static unsigned char z[200000];
	struct buf out = BUF_INIT;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof text; i++)
		text[i] = (char)('a' + (i * 7 + i / 13) % 26);
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		enum zinflate_result r;

		n = test_zinflate_deflate(text, sizeof text, t[i].wbits, z, sizeof z);
		n -= t[i].cut;
		if (t[i].corrupt)
			z[n - 4] ^= 0xff; /* the gzip trailer's length */
		buf_reset(&out);
		r = zinflate_capped(z, n, t[i].window, t[i].max, &out);
		if (r != t[i].want)
			fail_msg("row %zu: result %d, want %d", i, r, t[i].want);
		if (t[i].want == ZINFLATE_CORRUPT)
			continue;
		if (t[i].want == ZINFLATE_CUT)
			assert_true(out.len > 0 && out.len <= sizeof text);
		else
			assert_int_equal(out.len, t[i].want_len ? t[i].want_len : sizeof text);
		assert_memory_equal(out.data, text, out.len);
	}
	/* A buffer already at the cap gets nothing. */
	n = test_zinflate_deflate(text, sizeof text, ZINFLATE_GZIP, z, sizeof z);
	buf_reset(&out);
	buf_append(&out, "xy", 2);
	assert_int_equal(zinflate_capped(z, n, ZINFLATE_GZIP, 2, &out), ZINFLATE_CAPPED);
	assert_int_equal(out.len, 2);
	buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zinflate_sniff),
	    cmocka_unit_test(test_zinflate_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
