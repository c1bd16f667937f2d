/* lib/proxy: proxy URLs as settings and the environment give them, and
 * the no_proxy list as curl reads it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "lib/proxy.h"

static void test_proxy_parse(void **state)
{
	static const struct {
		const char *url;
		int userinfo;
		int ok;
		const char *hostport, *user, *password;
	} cases[] = {
	    {"http://proxy.example:3128", 0, 1, "proxy.example:3128", NULL, NULL},
	    {"http://Proxy.Example:3128/", 0, 1, "proxy.example:3128", NULL, NULL},
	    {"HTTP://127.0.0.1:8080", 0, 1, "127.0.0.1:8080", NULL, NULL},
	    {"proxy:3128", 0, 1, "proxy:3128", NULL, NULL},
	    {"http://proxy", 0, 1, "proxy:1080", NULL, NULL},
	    {"http://[::1]:3128", 0, 1, "[::1]:3128", NULL, NULL},
	    {"http://u:p%40ss@proxy:3128", 1, 1, "proxy:3128", "u", "p@ss"},
	    {"http://u@proxy:3128", 1, 1, "proxy:3128", "u", ""},
	    {"http://u:p@proxy:3128", 0, 0, NULL, NULL, NULL},
	    {"https://proxy:3128", 0, 0, NULL, NULL, NULL},
	    {"socks5://proxy:1080", 0, 0, NULL, NULL, NULL},
	    {"http://proxy:3128/path", 0, 0, NULL, NULL, NULL},
	    {"http://proxy:0", 0, 0, NULL, NULL, NULL},
	    {"http://proxy:65536", 0, 0, NULL, NULL, NULL},
	    {"http://proxy:", 0, 0, NULL, NULL, NULL},
	    {"http://:3128", 0, 0, NULL, NULL, NULL},
	    {"http://[::1:3128", 0, 0, NULL, NULL, NULL},
	    {"http://pro xy:3128", 0, 0, NULL, NULL, NULL},
	    {"http://u:%zz@proxy:3128", 1, 0, NULL, NULL, NULL},
	    {"http://u:%00@proxy:3128", 1, 0, NULL, NULL, NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct proxy p;
		const char *why = NULL;
		int rc = proxy_parse(cases[i].url, cases[i].userinfo, &p, &why);
		if (!cases[i].ok) {
			assert_int_equal(rc, -1);
			assert_non_null(why);
			assert_null(p.user);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_string_equal(p.hostport, cases[i].hostport);
		if (cases[i].user == NULL) {
			assert_null(p.user);
		} else {
			assert_string_equal(p.user, cases[i].user);
			assert_string_equal(p.password, cases[i].password);
		}
		proxy_clear(&p);
	}
}

static void test_proxy_bypass(void **state)
{
	static const struct {
		const char *list, *host;
		int bypass;
	} cases[] = {
	    {"", "example.org", 0},
	    {"*", "example.org", 1},
	    {"example.org", "example.org", 1},
	    {"example.org", "www.example.org", 1},
	    {".example.org", "www.example.org", 1},
	    {".example.org", "example.org", 1},
	    {"example.org", "badexample.org", 0},
	    {"localhost, 127.0.0.1", "127.0.0.1", 1},
	    {"localhost,127.0.0.1", "localhost", 1},
	    {"10.0.0.1", "110.0.0.1", 0},
	    {"[::1]", "::1", 1},
	    {"a.test b.test", "x.b.test", 1},
	    {"EXAMPLE.org", "www.example.org", 1},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(proxy_bypass(cases[i].list, cases[i].host), cases[i].bypass);
}

static void test_proxy_setting(void **state)
{
	const char *why;

	(void)state;
	assert_int_equal(proxy_check_setting("", &why), 0);
	assert_int_equal(proxy_check_setting("none", &why), 0);
	assert_int_equal(proxy_check_setting("http://p:3128", &why), 0);
	assert_int_equal(proxy_check_setting("http://u:p@p:3128", &why), -1);
	assert_non_null(strstr(why, "fetch.credentials-file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_proxy_parse),
	    cmocka_unit_test(test_proxy_bypass),
	    cmocka_unit_test(test_proxy_setting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
