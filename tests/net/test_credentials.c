/* net/credentials: the credentials file's lines (quoting, comments, the
 * errors that name a line and never a password) and the lookups: the
 * longest SURT prefix, an exact realm before "*", proxies by host:port. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "net/credentials.h"

static void test_credentials_parse(void **state)
{
	static const char text[] =
	    "# KIND WHERE REALM USER PASSWORD\n"
	    "http org,example,)/ * alice pw1\n"
	    "\n"
	    "http http://(org,example,)/private/ \"Members only\" bob \"p w\\\"2\" # c\n"
	    "http org,example,)/private/ * carol pw3\r\n"
	    "proxy 127.0.0.1:3128 * px \"\"\n";
	struct credentials *c;
	const struct credential *cr;
	char *err = NULL;

	(void)state;
	assert_int_equal(credentials_parse(text, strlen(text), "creds", &c, &err), 0);
	assert_int_equal(credentials_count(c), 4);
	cr = credentials_http(c, "org,example,)/index.html", "Anything");
	assert_string_equal(cr->user, "alice");
	cr = credentials_http(c, "org,example,)/private/a", "Members only");
	assert_string_equal(cr->user, "bob");
	assert_string_equal(cr->password, "p w\"2");
	cr = credentials_http(c, "org,example,)/private/a", "Other");
	assert_string_equal(cr->user, "carol");
	assert_string_equal(cr->password, "pw3");
	assert_null(credentials_http(c, "com,example,)/", "x"));
	cr = credentials_proxy(c, "127.0.0.1:3128");
	assert_string_equal(cr->user, "px");
	assert_string_equal(cr->password, "");
	assert_null(credentials_proxy(c, "127.0.0.1:3129"));
	credentials_free(c);
}

static void test_credentials_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"http org,example,)/ * alice\n", "creds:1: expected KIND WHERE REALM USER PASSWORD"},
	    {"\nftp org, * a b\n", "creds:2: KIND is http or proxy"},
	    {"http org, * \"a b\n", "creds:1: unbalanced double quote"},
	    {"http org, * a:b secret\n", "creds:1: a user cannot be empty nor hold ':'"},
	    {"http org, * a secret extra\n", "creds:1: expected KIND"},
	    {"http org, * a se\"cret\n", "creds:1: unbalanced double quote"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct credentials *c = NULL;
		char *err = NULL;
		assert_int_equal(
		    credentials_parse(cases[i].text, strlen(cases[i].text), "creds", &c, &err), -1);
		assert_null(c);
		assert_non_null(strstr(err, cases[i].msg));
		assert_null(strstr(err, "secret"));
		free(err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_credentials_parse),
	    cmocka_unit_test(test_credentials_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
