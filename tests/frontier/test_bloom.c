/* The scalable Bloom filter (src/frontier/bloom.c): no false negatives across
 * its layers, about 1 % false positives, layers added as it fills. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "frontier/bloom.h"
#include "frontier/urlset.h"
#include "lib/hash.h"

static uint64_t test_bloom_key(const char *kind, int i)
{
	char s[64];
	int n = snprintf(s, sizeof s, "%s/%d", kind, i);

	return hash_bytes(s, (size_t)n);
}

static void test_bloom_layers(void **state)
{
	struct bloom *b = bloom_new(1000, 10);
	int i, fp = 0;

	(void)state;
	assert_int_equal(bloom_layers(b), 1);
	for (i = 0; i < 20000; i++)
		bloom_add(b, test_bloom_key("in", i));
	/* 1000, 2000, 4000, 8000, 16000: five layers for 20,000 keys. */
	assert_int_equal(bloom_layers(b), 5);
	for (i = 0; i < 20000; i++)
		assert_true(bloom_test(b, test_bloom_key("in", i)));
	for (i = 0; i < 20000; i++)
		fp += bloom_test(b, test_bloom_key("out", i));
	/* Each layer errs about 1 % of the time; five of them at most 5 %. */
	if (fp > 20000 / 20)
		fail_msg("%d false positives of 20000", fp);
	/* 10 bits a key of the layers' 31,000, each rounded up to one
	 * 64-byte block at most: not a power of two above. */
	assert_true(bloom_bytes(b) >= 31000 * 10 / 8);
	assert_true(bloom_bytes(b) <= 31000 * 10 / 8 + 5 * 64);
	bloom_free(b);
}

/* A full layer of bits bits a key, whose count of blocks is not a power of
 * two: exactly that many bits, and the false positives of that size (the
 * range reduction spreads the keys over all of it). */
static void test_bloom_full_layer_bits(unsigned bits, int fp_min, int fp_max)
{
	struct bloom *b = bloom_new(300000, bits);
	int i, fp = 0;

	for (i = 0; i < 300000; i++)
		bloom_add(b, test_bloom_key("in", i));
	assert_int_equal(bloom_layers(b), 1);
	assert_int_equal(bloom_bytes(b), (300000 * bits + 511) / 512 * 64);
	for (i = 0; i < 300000; i++)
		assert_true(bloom_test(b, test_bloom_key("in", i)));
	for (i = 0; i < 100000; i++)
		fp += bloom_test(b, test_bloom_key("out", i));
	if (fp < fp_min || fp > fp_max)
		fail_msg("%u bits a key: %d false positives of 100000", bits, fp);
	bloom_free(b);
}

/* 10 bits a key: about 1 %; 16 (the seen set's default): about 0.1 %. */
/* A layer of 4 MiB or more is a mapping of its own (with huge pages when
 * the kernel gives them): zero until written, freed with the filter, and
 * prefetching a key changes no answer. */
static void test_bloom_mapped(void **state)
{
	struct bloom *b = bloom_new(3u << 20, 16);
	int i, fp = 0;

	(void)state;
	assert_int_equal(bloom_bytes(b), (uint64_t)(3u << 20) * 16 / 8);
	for (i = 0; i < 20000; i++)
		fp += bloom_test(b, test_bloom_key("out", i));
	assert_int_equal(fp, 0);
	for (i = 0; i < 100000; i++) {
		bloom_prefetch(b, test_bloom_key("in", i));
		bloom_add(b, test_bloom_key("in", i));
	}
	for (i = 0; i < 100000; i++)
		assert_true(bloom_test(b, test_bloom_key("in", i)));
	for (i = 0; i < 20000; i++)
		fp += bloom_test(b, test_bloom_key("out", i));
	assert_true(fp < 20);
	bloom_free(b);
}

static void test_bloom_full_layer(void **state)
{
	(void)state;
	test_bloom_full_layer_bits(10, 500, 1500);
	test_bloom_full_layer_bits(16, 20, 250);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bloom_layers),
	    cmocka_unit_test(test_bloom_mapped),
	    cmocka_unit_test(test_bloom_full_layer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
