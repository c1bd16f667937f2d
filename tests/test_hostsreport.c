/* The hosts report from crawl.log lines: per-host counts, dns: lines, lines
 * that are not crawl.log lines, the order and both output forms. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "crawl/hostsreport.h"

static const char *const test_hostsreport_lines[] = {
	"2026-11-21T18:00:00.000Z     1         62 dns:a.test P http://a.test/ text/dns #001 20261121180000000+1 - - -\n",
	"2026-11-21T18:00:00.100Z   200        100 http://a.test/robots.txt P http://a.test/ text/plain #001 20261121180000000+1 sha1:X - -\n",
	"2026-11-21T18:00:00.200Z   200       1000 http://a.test/ - - text/html #001 20261121180000000+1 sha1:Y - -\n",
	"2026-11-21T18:00:00.300Z   404         10 http://a.test/missing L http://a.test/ text/html #001 20261121180000000+1 sha1:Z - -\n",
	"2026-11-21T18:00:00.400Z -9998          - http://a.test/private/x L http://a.test/ no-type #001 - - - -\n",
	"2026-11-21T18:00:00.500Z    -2          - http://b.test:8080/ - - no-type #002 - - - 3t\n",
	"2026-11-21T18:00:00.600Z   301          0 https://user@b.test:8080/r L http://b.test:8080/ text/html #002 - - - -",
	"garbage line\n",
	"2026-11-21T18:00:00.700Z   xyz          0 http://c.test/ - - no-type #002 - - - -\n",
	"2026-11-21T18:00:00.800Z   200          5 nocolon - - no-type #002 - - - -\n",
	"2026-11-21T18:00:00.900Z   200          7 http://[::1]:8080/ - - text/html #002 - - - -\n",
};

static struct hostsreport *test_hostsreport_load(void)
{
	struct hostsreport *h = hostsreport_new();

	for (size_t i = 0; i < sizeof test_hostsreport_lines / sizeof test_hostsreport_lines[0]; i++)
		hostsreport_add_line(h, test_hostsreport_lines[i], strlen(test_hostsreport_lines[i]));
	return h;
}

static void test_hostsreport_text(void **state)
{
	struct hostsreport *h = test_hostsreport_load();
	struct buf out = BUF_INIT;

	(void)state;
	assert_int_equal(hostsreport_hosts(h), 3);
	assert_int_equal(hostsreport_skipped(h), 3);
	hostsreport_write(h, 0, &out);
	assert_string_equal(out.data,
	    "[#urls] [#bytes] [host] [#robots] [#2xx] [#3xx] [#4xx] [#5xx] [#failed] [#dns]\n"
	    "4 1110 a.test 1 2 0 1 0 0 1\n"
	    "2 0 b.test 0 0 1 0 0 1 0\n"
	    "1 7 [::1] 0 1 0 0 0 0 0\n");
	buf_free(&out);
	hostsreport_free(h);
}

static void test_hostsreport_json(void **state)
{
	struct hostsreport *h = test_hostsreport_load();
	struct buf out = BUF_INIT;

	(void)state;
	hostsreport_write(h, 1, &out);
	assert_non_null(strstr(out.data, "{\"host\": \"a.test\", \"urls\": 4, \"bytes\": 1110"));
	assert_non_null(strstr(out.data, "\"host\": \"b.test\""));
	assert_true(out.data[0] == '[');
	buf_free(&out);
	hostsreport_free(h);

	h = hostsreport_new();
	hostsreport_write(h, 1, &out);
	assert_string_equal(out.data, "[\n]\n");
	buf_free(&out);
	hostsreport_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostsreport_text),
		cmocka_unit_test(test_hostsreport_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
