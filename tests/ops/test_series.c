/* The console's time series: the ring keeps the newest samples in order,
 * the JSON since a time starts after it, progress.log lines parse with and
 * without a bytes column, and thinning keeps the last point. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/series.h"

static void test_series_ring(void **state)
{
	struct series *s = series_new(3);
	struct buf b = BUF_INIT;

	(void)state;
	for (uint64_t t = 1; t <= 5; t++) {
		struct series_point p = {t * 1000, t * 10, t == 4 ? -1 : (int64_t)t * 100, t, 7};
		series_add(s, &p);
	}
	assert_int_equal(series_count(s), 3);
	assert_int_equal(series_at(s, 0)->t_ms, 3000);
	assert_int_equal(series_at(s, 2)->t_ms, 5000);
	assert_null(series_at(s, 3));
	series_json_since(s, 0, &b);
	assert_string_equal(b.data, "[[3000,30,300,3,7],[4000,40,null,4,7],[5000,50,500,5,7]]");
	buf_reset(&b);
	series_json_since(s, 4000, &b);
	assert_string_equal(b.data, "[[5000,50,500,5,7]]");
	buf_reset(&b);
	series_json_since(s, 9000, &b);
	assert_string_equal(b.data, "[]");
	buf_free(&b);
	series_free(s);
}

static void test_series_progress(void **state)
{
	static const char old[] = "2026-01-02T03:04:05.678Z 100 40 55 2.5 10.0 1 4 2 1 0 0 81234\n";
	static const char now[] =
	    "2026-01-02T03:04:25.678Z 120 30 75 2.5 10.0 1 3 2 1 0 0 81234 987654";
	struct series_point p;

	(void)state;
	assert_int_equal(series_parse_progress(old, strlen(old), &p), 0);
	assert_int_equal(p.t_ms, 1767323045678ULL);
	assert_int_equal(p.queued, 40);
	assert_int_equal(p.pages, 55);
	assert_int_equal(p.in_flight, 4);
	assert_int_equal(p.bytes, -1);
	assert_int_equal(series_parse_progress(now, strlen(now), &p), 0);
	assert_int_equal(p.t_ms, 1767323065678ULL);
	assert_int_equal(p.bytes, 987654);
	assert_int_equal(series_parse_progress("# timestamp discovered queued", 29, &p), -1);
	assert_int_equal(series_parse_progress("2026-01-02 1 2 3", 16, &p), -1);
	assert_int_equal(
	    series_parse_progress(
		"2026-13-02T03:04:05.678Z 100 40 55 2.5 10.0 1 4 2 1 0 0 81234", 62, &p),
	    -1);
	assert_int_equal(
	    series_parse_progress(
		"2026-01-02T03:04:05.678Z 100 4x 55 2.5 10.0 1 4 2 1 0 0 81234", 62, &p),
	    -1);
}

static void test_series_thin(void **state)
{
	struct series_point pts[10];
	struct buf b = BUF_INIT;
	size_t commas = 0;

	(void)state;
	for (size_t i = 0; i < 10; i++)
		pts[i] = (struct series_point){i, i, 0, 0, 0};
	series_json_points(pts, 10, 4, &b);
	for (size_t i = 0; i < b.len; i++)
		commas += b.data[i] == '[';
	assert_int_equal(commas, 1 + 4);
	assert_non_null(strstr(b.data, "[9,9,0,0,0]]"));
	buf_reset(&b);
	series_json_points(pts, 3, 4, &b);
	assert_string_equal(b.data, "[[0,0,0,0,0],[1,1,0,0,0],[2,2,0,0,0]]");
	buf_reset(&b);
	series_json_points(pts, 0, 4, &b);
	assert_string_equal(b.data, "[]");
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_series_ring),
	    cmocka_unit_test(test_series_progress),
	    cmocka_unit_test(test_series_thin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
