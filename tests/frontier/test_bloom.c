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

static uint64_t test_bloom_key(const char *kind, int i)
{
	char s[64];
	int n = snprintf(s, sizeof s, "%s/%d", kind, i);

	return urlset_hash(s, (size_t)n);
}

static void test_bloom_layers(void **state)
{
	struct bloom *b = bloom_new(1000);
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
	assert_true(bloom_bytes(b) > 0);
	bloom_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bloom_layers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
