/* Politeness arithmetic, table-driven; items name the reference's Feature
 * checklist numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "crawl/politeness.h"

static void test_politeness_delay_table(void **state)
{
	static const struct {
		const char *why;
		double factor;
		int64_t min, max, respect_s;
		int fetched;
		uint64_t duration;
		int64_t crawl_delay;
		uint64_t want;
	} t[] = {
	    {"34: defaults, fast fetch -> min", 5.0, 3000, 30000, 300, 1, 100, -1, 3000},
	    {"28: factor x duration", 5.0, 3000, 30000, 300, 1, 1000, -1, 5000},
	    {"28: capped by max", 5.0, 3000, 30000, 300, 1, 10000, -1, 30000},
	    {"28: min > max: max wins", 5.0, 5000, 2000, 300, 1, 10, -1, 2000},
	    {"29: crawl-delay raises", 5.0, 3000, 30000, 300, 1, 100, 10000, 10000},
	    {"29: crawl-delay may pass max", 5.0, 3000, 30000, 300, 1, 100, 60000, 60000},
	    {"29: crawl-delay capped by respect", 5.0, 3000, 30000, 20, 1, 100, 60000, 20000},
	    {"29: respect 0 ignores crawl-delay", 5.0, 3000, 30000, 0, 1, 100, 60000, 3000},
	    {"29: crawl-delay below delay", 5.0, 3000, 30000, 300, 1, 1000, 1000, 5000},
	    {"30: nothing fetched -> 0", 5.0, 3000, 30000, 300, 0, 1000, 10000, 0},
	    {"all zero", 0, 0, 0, 0, 1, 1000, -1, 0},
	    {"fractional factor", 0.5, 0, 30000, 300, 1, 1001, -1, 500},
	    {"huge duration", 1000, 0, 86400000, 300, 1, UINT64_MAX / 4, -1, 86400000},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct politeness_params p = {t[i].factor, t[i].min, t[i].max, t[i].respect_s, 0};
		uint64_t got = politeness_delay(&p, t[i].fetched, t[i].duration, t[i].crawl_delay);

		if (got != t[i].want)
			fail_msg("%s: got %llu want %llu", t[i].why, (unsigned long long)got,
			    (unsigned long long)t[i].want);
	}
}

static void test_politeness_defaults(void **state)
{
	struct politeness_params p;

	politeness_defaults(&p);
	assert_true(p.delay_factor == 5.0);
	assert_int_equal(p.min_delay_ms, 3000);
	assert_int_equal(p.max_delay_ms, 30000);
	assert_int_equal(p.respect_crawl_delay_s, 300);
	assert_int_equal(p.max_kb_sec, 0);
}

/* Checklist 32, as a debit of the current fetch: the host's average stays
 * at or under the cap. */
static void test_politeness_bandwidth(void **state)
{
	uint64_t next = 0, now = 1000;

	assert_int_equal(politeness_bandwidth(0, &next, now, 1 << 20), 0);
	/* 1024 bytes at 1 KB/s = 1000 ms. */
	assert_int_equal(politeness_bandwidth(1, &next, now, 1024), 1000);
	assert_int_equal(next, 2000);
	/* A second fetch before then queues behind the first. */
	assert_int_equal(politeness_bandwidth(1, &next, now + 500, 2048), 2500);
	assert_int_equal(next, 4000);
	/* After an idle gap, the debit starts from now. */
	assert_int_equal(politeness_bandwidth(10, &next, 10000, 10240), 1000);
	assert_int_equal(next, 11000);
}

/* retry-delay-seconds is a floor: the jitter only ever adds to it. */
static void test_politeness_backoff(void **state)
{
	static const struct {
		uint64_t floor;
		uint32_t rnd;
		uint64_t lo, hi;
	} t[] = {
	    {0, UINT32_MAX, 0, 0}, {1000, 0, 1000, 1000}, {1000, 1u << 31, 1125, 1125},
	    {1000, UINT32_MAX, 1249, 1250}, {900000, 0, 900000, 900000},
	    {900000, UINT32_MAX, 1124999, 1125000},
	    {UINT64_MAX / 2, UINT32_MAX, UINT64_MAX / 2, UINT64_MAX}, /* no overflow */
	};
	size_t i;
	uint32_t r;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t d = politeness_backoff(t[i].floor, t[i].rnd);

		if (d < t[i].lo || d > t[i].hi)
			fail_msg("row %zu: %llu", i, (unsigned long long)d);
	}
	for (r = 0; r < 4000; r++)
		assert_true(politeness_backoff(1000, r * 1073741u) >= 1000);
}

static void test_politeness_retry_after(void **state)
{
	static const struct {
		const char *v;
		int ok;
		uint64_t want;
	} t[] = {
	    {"120", 0, 120000},
	    {"  0 ", 0, 0},
	    {"99999999999999999999999", 0, 3600000},
	    {"Sun, 06 Nov 1994 08:49:37 GMT", 0, 37000},   /* now is 08:49:00 */
	    {"Sun, 06 Nov 1994 08:48:00 GMT", 0, 0},	   /* in the past */
	    {"Sun, 06 Nov 1994 09:49:37 GMT", 0, 3600000}, /* capped */
	    {"Sunday, 06-Nov-94 08:49:37 GMT", -1, 0},
	    {"Sun, 06 Foo 1994 08:49:37 GMT", -1, 0},
	    {"12abc", -1, 0},
	    {"", -1, 0},
	    {"-5", -1, 0},
	};
	const int64_t now = 784111740; /* 1994-11-06 08:49:00 UTC */
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t got = 7;
		int r = politeness_retry_after(t[i].v, now, 3600000, &got);

		if (r != t[i].ok || (r == 0 && got != t[i].want))
			fail_msg("'%s': r=%d got %llu", t[i].v, r, (unsigned long long)got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_politeness_delay_table),
	    cmocka_unit_test(test_politeness_defaults),
	    cmocka_unit_test(test_politeness_bandwidth),
	    cmocka_unit_test(test_politeness_backoff),
	    cmocka_unit_test(test_politeness_retry_after),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
