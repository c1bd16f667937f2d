/* crawl.log lines, checked column by column against Heritrix's layout. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "crawllog.h"

struct test_crawllog_case {
	struct crawllog_entry e;
	const char *want;
};

/* 2011-06-23T17:12:08.802Z is 1308849128802 ms after the epoch. */
static const struct test_crawllog_case test_crawllog_cases[] = {
	{ { 1308849128802ULL, 200, 1299, "http://content-5.powells.com/robots.txt", "LREP",
	    "http://content-5.powells.com/cgi-bin/imageDB.cgi?isbn=9780385518635", "text/plain; charset=utf-8",
	    14, 1308849128574ULL, 225, "sha1:YIUOKDGOLGI5JYHDTXRFFQ5FF4N2EJRV", NULL, NULL },
	  "2011-06-23T17:12:08.802Z   200       1299 http://content-5.powells.com/robots.txt LREP "
	  "http://content-5.powells.com/cgi-bin/imageDB.cgi?isbn=9780385518635 text/plain #014 "
	  "20110623171208574+225 sha1:YIUOKDGOLGI5JYHDTXRFFQ5FF4N2EJRV - -\n" },
	{ { 1308849128802ULL, -9998, -1, "http://www.example.com/private/a.html", "L",
	    "http://www.example.com/", NULL, 3, 0, 0, NULL, NULL, NULL },
	  "2011-06-23T17:12:08.802Z -9998          - http://www.example.com/private/a.html L "
	  "http://www.example.com/ no-type #003 - - - -\n" },
	{ { 1308849128802ULL, -2, -1, "http://down.example.org/", "", NULL, "", 11, 0, 0,
	    NULL, NULL, "30t" },
	  "2011-06-23T17:12:08.802Z    -2          - http://down.example.org/ - - no-type #011 - - - 30t\n" },
	{ { 1308849128802ULL, 1, 62, "dns:www.example.com", "P", "http://www.example.com/",
	    "text/dns", 7, 1308849128051ULL, 40, NULL, NULL, "" },
	  "2011-06-23T17:12:08.802Z     1         62 dns:www.example.com P http://www.example.com/ "
	  "text/dns #007 20110623171208051+40 - - -\n" },
	/* A hostile Content-Type cannot add columns. */
	{ { 1308849128802ULL, 200, 0, "http://x.test/", "", NULL, "text/html\tevil", 1000, 1308849128051ULL, 0,
	    NULL, NULL, "lenTrunc,2t" },
	  "2011-06-23T17:12:08.802Z   200          0 http://x.test/ - - text/html #1000 "
	  "20110623171208051+0 - - lenTrunc,2t\n" },
};

static void test_crawllog_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof test_crawllog_cases / sizeof test_crawllog_cases[0]; i++) {
		struct buf b = BUF_INIT;
		crawllog_format(&test_crawllog_cases[i].e, &b);
		if (strcmp(b.data, test_crawllog_cases[i].want) != 0)
			fail_msg("case %zu:\n got  %s want %s", i, b.data, test_crawllog_cases[i].want);
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
	struct crawllog_entry e = { 1308849128802ULL, 200, 5, "http://x.test/", hops, "http://x.test/v",
	    "text/html", 0, 0, 0, NULL, NULL, NULL };

	(void)state;
	memset(hops, 'L', 60);
	hops[59] = 'E';
	hops[60] = '\0';
	crawllog_format(&e, &b);
	assert_non_null(strstr(b.data, " 60+LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLE "));
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crawllog_lines),
		cmocka_unit_test(test_crawllog_long_hops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
