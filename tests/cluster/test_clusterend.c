/* The end of a cluster crawl, table-driven. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "cluster/clusterend.h"

static void test_clusterend_local(void **state)
{
	static const struct {
		struct clusterend_local l;
		int want;
	} t[] = {
	    {{1, 0, 0, 0, 0, 1}, 1}, {{0, 0, 0, 0, 0, 1}, 0}, /* a queue holds a URI */
	    {{1, 1, 0, 0, 0, 1}, 0},			      /* a fetch in flight */
	    {{1, 0, 3, 0, 0, 1}, 0},			      /* received, not yet written */
	    {{1, 0, 0, 2, 0, 1}, 0},			      /* sent, not yet stored */
	    {{1, 0, 0, 0, 7, 1}, 0},			      /* the stream holds more for us */
	    {{1, 0, 0, 0, 0, 0}, 0}, /* a partition being claimed or replayed */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (clusterend_local_idle(&t[i].l) != t[i].want)
			fail_msg("row %zu", i);
}

static void test_clusterend_over_table(void **state)
{
	static const struct {
		const char *why;
		size_t n;
		struct clusterend_node nodes[3];
		int owner[4];
		int want;
		uint64_t seq;
	} t[] = {
	    {"all idle at one sequence, all held", 3, {{1, 40}, {1, 40}, {1, 40}}, {0, 1, 2, 0}, 1,
		40},
	    {"one node busy", 3, {{1, 40}, {0, 40}, {1, 40}}, {0, 1, 2, 0}, 0, 0},
	    {"sequences differ: something was published between reports", 3,
		{{1, 40}, {1, 41}, {1, 40}}, {0, 1, 2, 0}, 0, 0},
	    {"a partition nobody holds (its owner died)", 3, {{1, 40}, {1, 40}, {1, 40}},
		{0, 1, -1, 0}, 0, 0},
	    {"an owner without a heartbeat", 2, {{1, 40}, {1, 40}}, {0, 1, 2, 0}, 0, 0},
	    {"one node holding all", 1, {{1, 0}}, {0, 0, 0, 0}, 1, 0},
	    {"no nodes", 0, {{0, 0}}, {-1, -1, -1, -1}, 0, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		uint64_t seq = 99;
		int got = clusterend_over(t[i].nodes, t[i].n, t[i].owner, 4, &seq);
		if (got != t[i].want || (got && seq != t[i].seq))
			fail_msg("%s: got %d (seq %llu)", t[i].why, got, (unsigned long long)seq);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_clusterend_local),
	    cmocka_unit_test(test_clusterend_over_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
