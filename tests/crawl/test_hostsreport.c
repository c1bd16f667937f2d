/* The hosts report from crawl.log lines: per-host counts, dns: lines, lines
 * that are not crawl.log lines, the order and both output forms. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
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

	for (size_t i = 0; i < sizeof test_hostsreport_lines / sizeof test_hostsreport_lines[0];
	     i++)
		hostsreport_add_line(
		    h, test_hostsreport_lines[i], strlen(test_hostsreport_lines[i]));
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

/* Pages of rows in each order, against the order checked by hand: 500
 * hosts h0..h499 with (i * 7) % 50 URIs and i % 13 failures each. */
static void test_hostsreport_rows(void **state)
{
	static const char *const orders[] = {"urls", "bytes", "failed", "name"};
	struct hostsreport *h = hostsreport_new();
	struct hostsreport_row rows[500], page[37];
	char line[200];

	(void)state;
	for (int i = 0; i < 500; i++) {
		for (int u = 0; u < (i * 7) % 50; u++) {
			int n = snprintf(line, sizeof line,
			    "t %d %d http://h%d.test/%d - - x #1 - - - -\n", u < i % 13 ? -2 : 200,
			    u < i % 13 ? 0 : 10 + i, i, u);
			hostsreport_add_line(h, line, (size_t)n);
		}
	}
	for (size_t o = 0; o < 4; o++) {
		size_t n = hostsreport_rows(h, orders[o], 0, 500, rows), got = 0;
		assert_int_equal(n, hostsreport_hosts(h));
		for (size_t i = 1; i < n; i++) {
			const struct hostsreport_row *a = &rows[i - 1], *b = &rows[i];
			uint64_t x = o == 0 ? a->urls : o == 1 ? a->bytes : o == 2 ? a->failed : 0;
			uint64_t y = o == 0 ? b->urls : o == 1 ? b->bytes : o == 2 ? b->failed : 0;
			assert_true(x > y || (x == y && strcmp(a->name, b->name) < 0));
		}
		/* Pages of 37 give the same rows. */
		for (size_t from = 0; from < n; from += 37) {
			size_t k = hostsreport_rows(h, orders[o], from, 37, page);
			assert_int_equal(k, from + 37 <= n ? 37 : n - from);
			for (size_t i = 0; i < k; i++)
				assert_string_equal(page[i].name, rows[from + i].name);
			got += k;
		}
		assert_int_equal(got, n);
		assert_int_equal(hostsreport_rows(h, orders[o], n, 10, page), 0);
	}
	hostsreport_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hostsreport_text),
	    cmocka_unit_test(test_hostsreport_json),
	    cmocka_unit_test(test_hostsreport_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
