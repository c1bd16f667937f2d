/* The seeds' hosts: names, IPv4 and IPv6 literals (brackets dropped), any
 * port, repeats kept once; hosts that were not seeds are not held. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "crawl/seedhosts.h"

static void test_seedhosts_table(void **state)
{
	static const char *const seeds[] = {
	    "http://localhost:8080/",
	    "http://127.0.0.1:18081/a",
	    "https://[::1]:8443/",
	    "http://intranet.example/",
	    "http://localhost/other",
	    "http://127.0.0.1/",
	};
	static const struct {
		const char *host;
		int want;
	} asks[] = {
	    {"localhost", 1},
	    {"127.0.0.1", 1},
	    {"::1", 1},
	    {"intranet.example", 1},
	    {"[::1]", 0},
	    {"127.0.0.2", 0},
	    {"10.0.0.1", 0},
	    {"example", 0},
	    {"www.intranet.example", 0},
	    {"", 0},
	};
	struct seedhosts *s = seedhosts_new();

	(void)state;
	assert_int_equal(seedhosts_has(s, "localhost"), 0);
	for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
		assert_int_equal(seedhosts_add_url(s, seeds[i]), 0);
	assert_int_equal(seedhosts_add_url(s, "not a url"), -1);
	for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++)
		if (seedhosts_has(s, asks[i].host) != asks[i].want)
			fail_msg("%s: %d, expected %d", asks[i].host, !asks[i].want, asks[i].want);
	assert_int_equal(seedhosts_count(s), 4);
	/* Added after a lookup: sorted again. */
	assert_int_equal(seedhosts_add_url(s, "http://a.example/"), 0);
	assert_int_equal(seedhosts_has(s, "a.example"), 1);
	assert_int_equal(seedhosts_has(s, "localhost"), 1);
	seedhosts_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_seedhosts_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
