/* The descriptor budget's arithmetic: what a limit leaves for connections
 * and for idle kept-alive sockets, and raising the soft limit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <cmocka.h>
#include "crawl/fdlimit.h"

static void test_fdlimit_budget(void **state)
{
	static const struct {
		uint64_t soft;
		int wanted, conns;
	} t[] = {
	    {40, 256, 0}, /* not even one connection */
	    {60, 256, 0},
	    {64, 256, 2},     /* 64 - (48 + 12) = 4 descriptors, 2 each */
	    {1024, 256, 256}, /* the common default: no cap */
	    {1024, 1000, 386},
	    {1048576, 10000, 10000},
	};

	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		int c = fdlimit_connections(t[i].soft, t[i].wanted);

		if (c != t[i].conns)
			fail_msg("row %zu: %d connections, wanted %d", i, c, t[i].conns);
		/* Connections, their spill files, idle sockets and the reserve
		 * never add up past the limit. */
		if (c > 0)
			assert_true(fdlimit_reserve(t[i].soft) + 2 * (uint64_t)c +
				fdlimit_idle(t[i].soft, c) <=
			    t[i].soft);
	}
	assert_int_equal(fdlimit_idle(64, 2), 0);
	assert_int_equal(fdlimit_idle(1024, 256), 1024 - fdlimit_reserve(1024) - 512);
}

static void test_fdlimit_raise(void **state)
{
	struct rlimit rl;
	uint64_t soft, before;
	char *err = NULL;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	rl.rlim_cur = rl.rlim_max > 64 ? 64 : rl.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(fdlimit_raise(&soft, &before, &err), 0);
	assert_int_equal(before, rl.rlim_cur);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(soft, rl.rlim_cur);
	if (rl.rlim_max != RLIM_INFINITY)
		assert_int_equal(rl.rlim_cur, rl.rlim_max);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fdlimit_budget),
	    cmocka_unit_test(test_fdlimit_raise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
