/* The status line: what fits in a width, in which order fields give way,
 * durations, the ETA of a limit and the recent rate. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "crawl/statusline.h"

static void test_statusline_widths(void **state)
{
	static const struct statusline_figures big = {
	    .pages = 123456,
	    .queued = 1234567,
	    .failures = 1234,
	    .in_flight = 256,
	    .rate = 123.4,
	    .mb_rate = 12.345,
	    .elapsed_s = 3723,
	    .eta_s = 754,
	};
	static const struct statusline_figures small = {
	    .pages = 0,
	    .queued = 1,
	    .failures = 0,
	    .in_flight = 1,
	    .rate = 0,
	    .mb_rate = 0,
	    .elapsed_s = 0.4,
	    .eta_s = -1,
	};
	/* Only a retry left: the wait for it, kept longer than the failures. */
	static const struct statusline_figures waiting = {
	    .pages = 0,
	    .queued = 1,
	    .failures = 0,
	    .in_flight = 0,
	    .elapsed_s = 4000,
	    .eta_s = -1,
	    .next_s = 845,
	};
	static const struct {
		const struct statusline_figures *f;
		size_t width;
		const char *want;
	} t[] = {
	    {&big, 0,
		"123456 pages, 123/s, 1234567 queued, 1234 failed, 256 in flight, "
		"12.35 MB/s, elapsed 1:02:03, ETA 12:34"},
	    {&big, 200,
		"123456 pages, 123/s, 1234567 queued, 1234 failed, 256 in flight, "
		"12.35 MB/s, elapsed 1:02:03, ETA 12:34"},
	    /* 80 columns: MB/s and in flight give way. */
	    {&big, 79,
		"123456 pages, 123/s, 1234567 queued, 1234 failed, elapsed 1:02:03, ETA 12:34"},
	    {&big, 60, "123456 pages, 123/s, 1234567 queued, 1234 failed, ETA 12:34"},
	    {&big, 50, "123456 pages, 123/s, 1234567 queued, 1234 failed"},
	    {&big, 40, "123456 pages, 123/s, 1234567 queued"},
	    {&big, 20, "123456 pages, 123/s"},
	    {&big, 12, "123456 pages"},
	    {&big, 8, "123456 p"},
	    /* No limit: no ETA; a rate under 10 keeps a decimal. */
	    {&small, 0, "0 pages, 0.0/s, 1 queued, 0 failed, 1 in flight, 0.00 MB/s, elapsed 0:00"},
	    {&waiting, 0,
		"0 pages, 0.0/s, 1 queued, next fetch in 14:05, 0 failed, 0 in flight, 0.00 MB/s, "
		"elapsed 1:06:40"},
	    {&waiting, 48, "0 pages, 0.0/s, 1 queued, next fetch in 14:05"},
	};
	char out[256];

	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		size_t n = statusline_format(t[i].f, t[i].width, out, sizeof out);

		if (strcmp(out, t[i].want) != 0)
			fail_msg("row %zu: '%s', wanted '%s'", i, out, t[i].want);
		assert_int_equal(n, strlen(out));
		if (t[i].width > 0)
			assert_true(n <= t[i].width);
	}
	/* A buffer smaller than the line is filled, never overrun. */
	assert_int_equal(statusline_format(&big, 0, out, 10), 9);
	assert_string_equal(out, "123456 pa");
}

static void test_statusline_duration(void **state)
{
	static const struct {
		double s;
		const char *want;
	} t[] = {
	    {0, "0:00"},
	    {59.4, "0:59"},
	    {61, "1:01"},
	    {3599, "59:59"},
	    {3600, "1:00:00"},
	    {86399, "23:59:59"},
	    {99 * 3600 + 59 * 60 + 59, "99:59:59"},
	    {100 * 3600, "4d04h"},
	    {-5, "0:00"},
	};
	char out[32];

	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		statusline_duration(t[i].s, out, sizeof out);
		if (strcmp(out, t[i].want) != 0)
			fail_msg("row %zu: '%s', wanted '%s'", i, out, t[i].want);
	}
}

static void test_statusline_eta(void **state)
{
	static const struct {
		uint64_t pages, max_pages;
		double rate, elapsed, max_time, want;
	} t[] = {
	    {100, 0, 10, 5, 0, -1},  /* no limit */
	    {100, 300, 0, 5, 0, -1}, /* no rate yet */
	    {100, 300, 10, 5, 0, 20},
	    {300, 300, 10, 5, 0, 0},
	    {400, 300, 10, 5, 0, 0},	/* past it (in flight at a kill) */
	    {100, 0, 0, 5, 60, 55},	/* time alone needs no rate */
	    {100, 300, 10, 50, 60, 10}, /* the sooner of the two */
	    {100, 300, 10, 5, 60, 20},
	    {100, 0, 10, 70, 60, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		double e = statusline_eta(
		    t[i].pages, t[i].max_pages, t[i].rate, t[i].elapsed, t[i].max_time);
		if (e < t[i].want - 1e-9 || e > t[i].want + 1e-9)
			fail_msg("row %zu: %f, wanted %f", i, e, t[i].want);
	}
}

static void test_statusline_rate(void **state)
{
	struct statusline_rate *r = statusline_rate_new();
	double p, b;

	(void)state;
	statusline_rate_get(r, &p, &b);
	assert_true(p == 0 && b == 0);
	statusline_rate_sample(r, 1000, 0, 0);
	statusline_rate_get(r, &p, &b);
	assert_true(p == 0);
	statusline_rate_sample(r, 2000, 50, 5000);
	statusline_rate_get(r, &p, &b);
	assert_true(p == 50 && b == 5000);
	/* 30 s at 10 pages/s after a fast start: the window forgets the start. */
	for (int s = 3; s <= 32; s++)
		statusline_rate_sample(r, (uint64_t)s * 1000, 50 + (uint64_t)(s - 2) * 10, 0);
	statusline_rate_get(r, &p, &b);
	assert_true(p > 9.999 && p < 10.001);
	statusline_rate_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_statusline_widths),
	    cmocka_unit_test(test_statusline_duration),
	    cmocka_unit_test(test_statusline_eta),
	    cmocka_unit_test(test_statusline_rate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
