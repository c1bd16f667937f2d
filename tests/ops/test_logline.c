/* crawl.log lines for the console: fields (annotations keep the rest of
 * the line), the URI's host (userinfo, port, IPv6, dns: lines), and the
 * status, host and MIME filters. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/logline.h"

static const char test_logline_a[] =
    "2026-01-02T03:04:05.678Z   200       1234 http://user@WWW.Example.com:8080/a?b#c LLE "
    "http://www.example.com/ text/html;charset=utf-8 #007 20260102030405000+12 "
    "sha1:ABCDEF - duplicate:digest,3t\n";

static void test_logline_fields(void **state)
{
	struct logline l;
	const char *h;
	size_t n;

	(void)state;
	assert_int_equal(logline_parse(test_logline_a, strlen(test_logline_a), &l), 0);
	assert_int_equal(l.status, 200);
	assert_int_equal(l.n[LOGLINE_SIZE], 4);
	assert_memory_equal(l.f[LOGLINE_HOPS], "LLE", 3);
	assert_memory_equal(l.f[LOGLINE_MIME], "text/html;charset=utf-8", l.n[LOGLINE_MIME]);
	assert_memory_equal(l.f[LOGLINE_ANNOTATIONS], "duplicate:digest,3t", 19);
	assert_int_equal(l.n[LOGLINE_ANNOTATIONS], 19);
	logline_host(&l, &h, &n);
	assert_int_equal(n, strlen("WWW.Example.com"));
	assert_memory_equal(h, "WWW.Example.com", n);
}

static void test_logline_hosts(void **state)
{
	static const struct {
		const char *line, *host;
	} cases[] = {
	    {"t -6 - dns:h1.web.test P http://h1.web.test/ text/dns", "h1.web.test"},
	    {"t 200 1 http://[::1]:8080/x - - text/html", "[::1]"},
	    {"t 200 1 https://a.b/ - - text/html", "a.b"},
	    {"t 200 1 https://a.b - - text/html", "a.b"},
	    {"t 200 1 http://a.b?q - - text/html", "a.b"},
	    {"t 200 1 mailto:x@y - - text/html", ""},
	    {"t 200 1 http://u:p@h:1@evil/ - - -", "evil"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct logline l;
		const char *h;
		size_t n;

		assert_int_equal(logline_parse(cases[i].line, strlen(cases[i].line), &l), 0);
		logline_host(&l, &h, &n);
		if (n != strlen(cases[i].host) || memcmp(h, cases[i].host, n) != 0)
			fail_msg("case %zu: host \"%.*s\"", i, (int)n, h);
	}
}

static void test_logline_bad(void **state)
{
	static const char *const bad[] = {
	    "",
	    "\n",
	    "# comment",
	    "t 200 1 http://a/ - -",
	    "t x00 1 http://a/ - - text/html",
	    "t - 1 http://a/ - - text/html",
	    "t 12345678 1 http://a/ - - text/html",
	};
	struct logline l;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (logline_parse(bad[i], strlen(bad[i]), &l) == 0)
			fail_msg("case %zu parsed", i);
	assert_int_equal(logline_parse("t -9998 - http://a/ - - -", 25, &l), 0);
	assert_int_equal(l.status, -9998);
}

static void test_logline_filters(void **state)
{
	static const struct {
		const char *status, *host, *mime;
		int want;
	} cases[] = {
	    {"", "", "", 1},
	    {NULL, NULL, NULL, 1},
	    {"200", "", "", 1},
	    {"2xx", "", "", 1},
	    {"4xx", "", "", 0},
	    {"20", "", "", 0},
	    {"-200", "", "", 0},
	    {"", "www.example.com", "", 1},
	    {"", "example.com", "", 1},
	    {"", "ample.com", "", 0},
	    {"", "www.example.com.evil", "", 0},
	    {"", "", "text/html", 1},
	    {"", "", "TEXT/", 1},
	    {"", "", "image/", 0},
	    {"200", "example.com", "text/html", 1},
	};
	struct logline l;

	(void)state;
	assert_int_equal(logline_parse(test_logline_a, strlen(test_logline_a), &l), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct logline_filter f = {cases[i].status, cases[i].host, cases[i].mime};
		if (logline_match(&l, &f) != cases[i].want)
			fail_msg("case %zu", i);
	}
	assert_int_equal(logline_parse("t -6 - dns:x.y P http://x.y/ text/dns", 36, &l), 0);
	{
		struct logline_filter f = {"-6", "x.y", ""};
		assert_int_equal(logline_match(&l, &f), 1);
		f.status = "6";
		assert_int_equal(logline_match(&l, &f), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_logline_fields),
	    cmocka_unit_test(test_logline_hosts),
	    cmocka_unit_test(test_logline_bad),
	    cmocka_unit_test(test_logline_filters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
