/* crawl.log lines, checked column by column against Heritrix's layout. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "archive/crawllog.h"

struct test_crawllog_case {
	struct crawllog_entry e;
	const char *want;
};

/* 2011-06-23T17:12:08.802Z is 1308849128802 ms after the epoch. */
static const struct test_crawllog_case test_crawllog_cases[] = {
    {{1308849128802ULL, 200, 1299, "http://content-5.powells.com/robots.txt", "LREP",
	 "http://content-5.powells.com/cgi-bin/imageDB.cgi?isbn=9780385518635",
	 "text/plain; charset=utf-8", 14, 1308849128574ULL, 225,
	 "sha1:YIUOKDGOLGI5JYHDTXRFFQ5FF4N2EJRV", NULL, NULL},
	"2011-06-23T17:12:08.802Z   200       1299 http://content-5.powells.com/robots.txt LREP "
	"http://content-5.powells.com/cgi-bin/imageDB.cgi?isbn=9780385518635 text/plain #014 "
	"20110623171208574+225 sha1:YIUOKDGOLGI5JYHDTXRFFQ5FF4N2EJRV - -\n"},
    {{1308849128802ULL, -9998, -1, "http://www.example.com/private/a.html", "L",
	 "http://www.example.com/", NULL, 3, 0, 0, NULL, NULL, NULL},
	"2011-06-23T17:12:08.802Z -9998          - http://www.example.com/private/a.html L "
	"http://www.example.com/ no-type #003 - - - -\n"},
    {{1308849128802ULL, -2, -1, "http://down.example.org/", "", NULL, "", 11, 0, 0, NULL, NULL,
	 "30t"},
	"2011-06-23T17:12:08.802Z    -2          - http://down.example.org/ - - no-type #011 - - - 30t\n"},
    {{1308849128802ULL, 1, 62, "dns:www.example.com", "P", "http://www.example.com/", "text/dns", 7,
	 1308849128051ULL, 40, NULL, NULL, ""},
	"2011-06-23T17:12:08.802Z     1         62 dns:www.example.com P http://www.example.com/ "
	"text/dns #007 20110623171208051+40 - - -\n"},
    /* A hostile Content-Type cannot add columns. */
    {{1308849128802ULL, 200, 0, "http://x.test/", "", NULL, "text/html\tevil", 1000,
	 1308849128051ULL, 0, NULL, NULL, "lenTrunc,2t"},
	"2011-06-23T17:12:08.802Z   200          0 http://x.test/ - - text/html #1000 "
	"20110623171208051+0 - - lenTrunc,2t\n"},
};

static void test_crawllog_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof test_crawllog_cases / sizeof test_crawllog_cases[0]; i++) {
		struct buf b = BUF_INIT;
		crawllog_format(&test_crawllog_cases[i].e, &b);
		if (strcmp(b.data, test_crawllog_cases[i].want) != 0)
			fail_msg(
			    "case %zu:\n got  %s want %s", i, b.data, test_crawllog_cases[i].want);
		/* The first 42 characters have a fixed layout. */
		assert_int_equal(b.data[24], ' ');
		assert_int_equal(b.data[41], ' ');
		buf_free(&b);
	}
}

static void test_crawllog_long_hops(void **state)
{
	char hops[61];
	struct buf b = BUF_INIT;
	struct crawllog_entry e = {1308849128802ULL, 200, 5, "http://x.test/", hops,
	    "http://x.test/v", "text/html", 0, 0, 0, NULL, NULL, NULL};

	(void)state;
	memset(hops, 'L', 60);
	hops[59] = 'E';
	hops[60] = '\0';
	crawllog_format(&e, &b);
	assert_non_null(strstr(b.data, " 60+LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLE "));
	buf_free(&b);
}

/* The times of the layout as the C library formats them. */
static void test_crawllog_ref_times(uint64_t ms, char iso[32], char compact[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	size_t n;

	gmtime_r(&t, &tm);
	/* After the seconds, wherever they end: a five-digit year is longer. */
	n = strftime(iso, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(iso + n, 32 - n, ".%03uZ", (unsigned)(ms % 1000));
	n = strftime(compact, 32, "%Y%m%d%H%M%S", &tm);
	snprintf(compact + n, 32 - n, "%03u", (unsigned)(ms % 1000));
}

/* Hand-made dates against gmtime_r and strftime: the epoch, leap days
 * (2000 is a leap year, 2100 is not), the last millisecond of a year, year
 * 9999 and beyond, and a spread of pseudo-random instants. */
static void test_crawllog_times(void **state)
{
	static const uint64_t fixed[] = {
	    0,
	    999,
	    1000,
	    86399999,
	    86400000,
	    68255999999ULL,
	    951782400000ULL,
	    951868800000ULL,
	    4107542400000ULL,
	    4107456000000ULL,
	    1308849128802ULL,
	    253402300799999ULL,
	    253402300800000ULL,
	    253402387200123ULL,
	};
	uint64_t x = 88172645463325252ULL;

	(void)state;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] + 20000; i++) {
		uint64_t ms;
		char got[32], want[32], gotc[32], wantc[32];

		if (i < sizeof fixed / sizeof fixed[0]) {
			ms = fixed[i];
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			ms = x % 253402300800000ULL;
		}
		test_crawllog_ref_times(ms, want, wantc);
		crawllog_iso_time(ms, got);
		crawllog_compact_time(ms, gotc);
		if (strcmp(got, want) != 0 || strcmp(gotc, wantc) != 0)
			fail_msg("%llu ms: got %s %s, want %s %s", (unsigned long long)ms, got,
			    gotc, want, wantc);
	}
}

/* The numeric columns at their extremes against the printf formats of the
 * layout ("%5d", "%10lld", "%zu+", "#%03d", "+%llu"), and escapes of
 * control bytes. */
static void test_crawllog_numbers(void **state)
{
	static const int ints[] = {0, 1, -1, 7, 99, 100, 999, 1000, 99999, 100000, -9998, -99999,
	    -100000, 2147483647, -2147483647 - 1};
	static const int64_t sizes[] = {
	    0, 1, 999999999, 1000000000, 9999999999LL, 10000000000LL, 9223372036854775807LL};
	static const uint64_t durs[] = {0, 5, 18446744073709551615ULL};
	char hops[200];

	(void)state;
	memset(hops, 'L', sizeof hops - 1);
	hops[sizeof hops - 1] = '\0';
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
			uint64_t dur = durs[(i + j) % 3];
			size_t nh = (i * 13 + j) % sizeof hops;
			struct crawllog_entry e = {1308849128802ULL, ints[i], sizes[j],
			    "http://x.test/a\x01"
			    "b c\x7f",
			    hops + sizeof hops - 1 - nh, "http://x.test/", "text/html",
			    ints[(i + j) % 15], 1308849128051ULL, dur, NULL, NULL, "x"};
			struct buf b = BUF_INIT;
			char want[600], hop[80];

			if (nh > 50)
				snprintf(hop, sizeof hop, "%zu+%s", nh, hops + sizeof hops - 51);
			else
				snprintf(
				    hop, sizeof hop, "%s", nh ? hops + sizeof hops - 1 - nh : "-");
			snprintf(want, sizeof want,
			    "2011-06-23T17:12:08.802Z %5d %10lld http://x.test/a%%01b%%20c%%7F "
			    "%s http://x.test/ text/html #%03d 20110623171208051+%llu - - x\n",
			    ints[i], (long long)sizes[j], hop, ints[(i + j) % 15],
			    (unsigned long long)dur);
			crawllog_format(&e, &b);
			if (strcmp(b.data, want) != 0)
				fail_msg("got  %swant %s", b.data, want);
			buf_free(&b);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_crawllog_lines),
	    cmocka_unit_test(test_crawllog_long_hops),
	    cmocka_unit_test(test_crawllog_times),
	    cmocka_unit_test(test_crawllog_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
