/* Cost and precedence policies, table-driven; items name the reference's
 * Feature checklist numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "frontier/policy.h"

/* Checklist 18. */
static void test_policy_cost_table(void **state)
{
	static const struct {
		int policy;
		const char *uri, *via;
		int64_t want;
	} t[] = {
	    {POLICY_COST_ZERO, "http://a/x?y", "http://a/x", 0},
	    {POLICY_COST_UNIT, "http://a/x?y", "http://a/x", 1},
	    {POLICY_COST_WAG, "http://a/x", NULL, 1},
	    {POLICY_COST_WAG, "http://a/x?y=1", NULL, 2},
	    {POLICY_COST_WAG, "http://a/x?y=1", "http://a/other", 2},
	    {POLICY_COST_WAG, "http://a/x?y=1", "http://a/x?y=0", 3},
	    {POLICY_COST_WAG, "http://a/x?y=1", "http://a/x", 3},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/x", NULL, 1},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/Calendar/", NULL, 2},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/archive/1999/", NULL, 2},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/archive/2024.html", NULL, 2},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/p?yr=5", NULL, 2},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/20241/", NULL, 1},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/x/2024", NULL, 1},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/bonjour", NULL, 2},
	    {POLICY_COST_ANTI_CALENDAR, "http://a/EVENTS", NULL, 2},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int64_t got = policy_cost(t[i].policy, t[i].uri, t[i].via);

		if (got != t[i].want)
			fail_msg("row %zu %s: got %lld", i, t[i].uri, (long long)got);
	}
}

/* Checklist 19, 20, 21. */
static void test_policy_uri_precedence_table(void **state)
{
	static const struct {
		int policy, base;
		int64_t cost;
		const char *hops;
		int pre, want;
	} t[] = {
	    {POLICY_URI_COST, 1, 1, "", 0, 1},
	    {POLICY_URI_COST, 1, 3, "LL", 0, 3},
	    {POLICY_URI_BASE, 1, 3, "LL", 0, 1},
	    {POLICY_URI_BASE, 5, 3, "LL", 0, 5},
	    {POLICY_URI_HOPS, 1, 3, "", 0, 1},
	    {POLICY_URI_HOPS, 1, 3, "LLE", 0, 3},
	    {POLICY_URI_HOPS, 2, 3, "LRLPX", 0, 4},
	    {POLICY_URI_PRELOADED, 1, 3, "", 5, 6},
	    {POLICY_URI_PRELOADED, 1, 3, "", 0, 3},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (policy_uri_precedence(t[i].policy, t[i].base, t[i].cost, t[i].hops, t[i].pre) !=
		    t[i].want)
			fail_msg("row %zu", i);
}

/* Checklist 22, 23, 24. */
static void test_policy_queue_precedence_table(void **state)
{
	static const int64_t counts[] = {100, 1000};
	static const struct {
		int policy, base, min_uri;
		uint64_t succ;
		int want;
	} t[] = {
	    {POLICY_QUEUE_BASE, 3, 1, 5000, 3},
	    {POLICY_QUEUE_HIGHEST_URI, 3, 1, 0, 4},
	    {POLICY_QUEUE_HIGHEST_URI, 3, -1, 0, 3},
	    {POLICY_QUEUE_HIGHEST_URI, 3, 7, 0, 10},
	    {POLICY_QUEUE_HIGHEST_URI, 3, 400, 0, 255},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 3, 1, 0, 3},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 3, 1, 99, 3},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 3, 1, 100, 4},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 3, 1, 1099, 4},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 3, 1, 1100, 5},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 3, 1, 2099, 5},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 3, 1, 2100, 6},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 2, 1, 0, 2},
	    {POLICY_QUEUE_SUCCESS_COUNTS, 3, 1, UINT64_MAX, 255},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int got = policy_queue_precedence(
		    t[i].policy, t[i].base, t[i].min_uri, t[i].succ, counts, 2);

		if (got != t[i].want)
			fail_msg("row %zu: got %d want %d", i, got, t[i].want);
	}
}

static void test_policy_defaults(void **state)
{
	struct policy_settings s;

	policy_settings_defaults(&s);
	assert_int_equal(s.balance_replenish, 3000);
	assert_int_equal(s.total_budget, -1);
	assert_int_equal(s.error_penalty, 100);
	assert_int_equal(s.cost_policy, POLICY_COST_UNIT);
	assert_int_equal(s.uri_policy, POLICY_URI_COST);
	assert_int_equal(s.queue_base, 3);
	assert_int_equal(s.max_retries, 30);
	assert_int_equal(s.retry_delay_ms, 900000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_policy_cost_table),
	    cmocka_unit_test(test_policy_uri_precedence_table),
	    cmocka_unit_test(test_policy_queue_precedence_table),
	    cmocka_unit_test(test_policy_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
