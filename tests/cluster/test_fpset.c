/* The fingerprint sets of cluster mode (src/cluster/fpset.c): the exact set
 * that never forgets and the bounded one that keeps its memory. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cluster/fpset.h"

static void test_fpset_exact(void **state)
{
	struct fpset *s = fpset_exact();
	uint64_t i;

	(void)state;
	for (i = 0; i < 100000; i++)
		assert_int_equal(fpset_test_add(s, i * 0x9e3779b97f4a7c15ULL), 0);
	assert_int_equal(fpset_count(s), 100000);
	for (i = 0; i < 100000; i++) {
		assert_int_equal(fpset_test_add(s, i * 0x9e3779b97f4a7c15ULL), 1);
		assert_true(fpset_has(s, i * 0x9e3779b97f4a7c15ULL));
	}
	assert_false(fpset_has(s, 12345));
	/* 0 is a fingerprint like any other. */
	assert_true(fpset_has(s, 0));
	fpset_free(s);
}

static void test_fpset_bounded(void **state)
{
	struct fpset *s = fpset_bounded(1000);
	uint64_t i, kept = 0;

	(void)state;
	assert_int_equal(fpset_bytes(s), 1024 * 8);
	assert_int_equal(fpset_test_add(s, fpset_hash("http://a/", 9)), 0);
	assert_int_equal(fpset_test_add(s, fpset_hash("http://a/", 9)), 1);
	assert_int_not_equal(fpset_hash("http://a/", 9), fpset_hash("http://b/", 9));
	/* It forgets, never grows, and keeps the recent ones. */
	for (i = 0; i < 100000; i++)
		fpset_test_add(s, fpset_hash((const char *)&i, sizeof i));
	assert_int_equal(fpset_bytes(s), 1024 * 8);
	for (i = 100000 - 200; i < 100000; i++)
		kept += fpset_has(s, fpset_hash((const char *)&i, sizeof i));
	if (kept < 150)
		fail_msg("only %llu of the last 200 kept", (unsigned long long)kept);
	fpset_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fpset_exact),
	    cmocka_unit_test(test_fpset_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
