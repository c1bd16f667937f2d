/* lib/urlcreds: a NATS URL's password or token is replaced by "***" in what
 * is shown, in each URL of a list, and nothing else changes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "lib/urlcreds.h"

static const struct {
	const char *in, *shown;
	int secret;
} cases[] = {
    {"nats://127.0.0.1:4222", "nats://127.0.0.1:4222", 0},
    {"nats://alice:s3cret@nats:4222", "nats://alice:***@nats:4222", 1},
    {"nats://tok3n@nats:4222", "nats://***@nats:4222", 1},
    {"tls://alice:p@ss@word@h:1", "tls://alice:***@h:1", 1},
    {"alice:pw@h:4222", "alice:***@h:4222", 1},
    {"nats://h:4222/x@y", "nats://h:4222/x@y", 0},
    {"nats://a:1@h1:4222,nats://h2:4222, nats://t@h3",
	"nats://a:***@h1:4222,nats://h2:4222, nats://***@h3", 1},
    {"nats://alice:@h:4222", "nats://alice:***@h:4222", 1},
    {"", "", 0},
    {",", ",", 0},
};

static void test_urlcreds_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *s = urlcreds_hide(cases[i].in);
		assert_string_equal(s, cases[i].shown);
		assert_int_equal(urlcreds_has_secret(cases[i].in), cases[i].secret);
		/* What is shown holds no secret of the original. */
		if (cases[i].secret)
			assert_null(strstr(s, "s3cret"));
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_urlcreds_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
