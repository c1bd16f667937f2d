/* The adaptive revisit interval, its seeding from sitemaps, and what a
 * visit does to a URI's fetch history; table-driven. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/buf.h"
#include "lib/history.h"
#include "lib/revisit.h"

static void test_revisit_defaults(void **state)
{
	struct revisit_rule r;

	revisit_defaults(&r);
	assert_int_equal(r.initial_s, 86400);
	assert_int_equal(r.min_s, 3600);
	assert_int_equal(r.max_s, 2592000);
	assert_true(r.changed_factor == 1.5 && r.unchanged_factor == 1.5);
}

static void test_revisit_interval_table(void **state)
{
	static const struct {
		const char *why;
		int64_t initial, min, max;
		double cf, uf;
		int64_t prev;
		enum revisit_change c;
		int64_t want;
	} t[] = {
	    {"first visit: initial", 86400, 3600, 2592000, 1.5, 1.5, 0, REVISIT_UNKNOWN, 86400},
	    {"first visit, even if it changed", 86400, 3600, 2592000, 1.5, 1.5, 0, REVISIT_CHANGED,
		86400},
	    {"initial below min: min", 60, 3600, 2592000, 1.5, 1.5, 0, REVISIT_UNKNOWN, 3600},
	    {"initial above max: max", 9999999, 3600, 2592000, 1.5, 1.5, 0, REVISIT_UNKNOWN,
		2592000},
	    {"changed: divided", 86400, 3600, 2592000, 1.5, 1.5, 86400, REVISIT_CHANGED, 57600},
	    {"unchanged: multiplied", 86400, 3600, 2592000, 1.5, 1.5, 86400, REVISIT_UNCHANGED,
		129600},
	    {"unknown: kept", 86400, 3600, 2592000, 1.5, 1.5, 7777, REVISIT_UNKNOWN, 7777},
	    {"changed, clamped at min", 86400, 3600, 2592000, 1.5, 1.5, 4000, REVISIT_CHANGED,
		3600},
	    {"unchanged, clamped at max", 86400, 3600, 2592000, 1.5, 1.5, 2000000,
		REVISIT_UNCHANGED, 2592000},
	    {"factor 2", 86400, 1, 2592000, 2.0, 2.0, 100, REVISIT_CHANGED, 50},
	    {"factor 1: no change", 86400, 1, 2592000, 1.0, 1.0, 100, REVISIT_UNCHANGED, 100},
	    {"a kept interval outside new bounds is clamped", 86400, 3600, 7200, 1.5, 1.5, 100000,
		REVISIT_UNKNOWN, 7200},
	    {"min > max: max wins", 86400, 7200, 3600, 1.5, 1.5, 5000, REVISIT_UNCHANGED, 3600},
	    {"never under 1 s", 0, 0, 10, 1.5, 1.5, 1, REVISIT_CHANGED, 1},
	    {"huge factor does not overflow", 1, 1, INT64_MAX, 1e300, 1e300, INT64_MAX / 2,
		REVISIT_UNCHANGED, INT64_MAX},
	    {"short test intervals", 2, 1, 30, 1.5, 1.5, 2, REVISIT_UNCHANGED, 3},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct revisit_rule r = {t[i].initial, t[i].min, t[i].max, t[i].cf, t[i].uf};
		int64_t got = revisit_interval(&r, t[i].prev, t[i].c);

		if (got != t[i].want)
			fail_msg("%s: got %lld want %lld", t[i].why, (long long)got,
			    (long long)t[i].want);
	}
}

/* A page that changes at every visit settles at min, one that never
 * changes at max, and the number of visits to get there is logarithmic. */
static void test_revisit_converges(void **state)
{
	struct revisit_rule r;
	int64_t a = 0, b = 0;
	int i, visits_b = 0;

	revisit_defaults(&r);
	a = revisit_interval(&r, a, REVISIT_UNKNOWN);
	b = revisit_interval(&r, b, REVISIT_UNKNOWN);
	for (i = 0; i < 30; i++) {
		a = revisit_interval(&r, a, REVISIT_CHANGED);
		if (b < r.max_s)
			visits_b++;
		b = revisit_interval(&r, b, REVISIT_UNCHANGED);
	}
	assert_int_equal(a, r.min_s);
	assert_int_equal(b, r.max_s);
	/* log(2592000 / 86400) / log(1.5) = 8.4 */
	assert_int_equal(visits_b, 9);
}

static void test_revisit_seed_table(void **state)
{
	static const struct {
		const char *why;
		enum sitemap_changefreq cf;
		int has_lastmod;
		int64_t lastmod_ms, now_ms, want;
	} t[] = {
	    {"always: min", SITEMAP_CF_ALWAYS, 0, 0, 0, 3600},
	    {"hourly", SITEMAP_CF_HOURLY, 0, 0, 0, 3600},
	    {"daily", SITEMAP_CF_DAILY, 0, 0, 0, 86400},
	    {"weekly", SITEMAP_CF_WEEKLY, 0, 0, 0, 604800},
	    {"monthly", SITEMAP_CF_MONTHLY, 0, 0, 0, 2592000},
	    {"yearly: clamped to max", SITEMAP_CF_YEARLY, 0, 0, 0, 2592000},
	    {"never: max", SITEMAP_CF_NEVER, 0, 0, 0, 2592000},
	    {"changefreq wins over lastmod", SITEMAP_CF_DAILY, 1, 0, 1000000000000LL, 86400},
	    {"lastmod 2 days ago", SITEMAP_CF_NONE, 1, 1000000000000LL - 172800000LL,
		1000000000000LL, 172800},
	    {"lastmod a minute ago: min", SITEMAP_CF_NONE, 1, 1000000000000LL - 60000,
		1000000000000LL, 3600},
	    {"lastmod years ago: max", SITEMAP_CF_NONE, 1, 0, 1000000000000LL, 2592000},
	    {"lastmod in the future: initial", SITEMAP_CF_NONE, 1, 2000000000000LL, 1000000000000LL,
		86400},
	    {"nothing: initial", SITEMAP_CF_NONE, 0, 0, 1000000000000LL, 86400},
	};
	struct revisit_rule r;
	size_t i;

	revisit_defaults(&r);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int64_t got =
		    revisit_seed(&r, t[i].cf, t[i].has_lastmod, t[i].lastmod_ms, t[i].now_ms);

		if (got != t[i].want)
			fail_msg("%s: got %lld want %lld", t[i].why, (long long)got,
			    (long long)t[i].want);
	}
	assert_true(revisit_lastmod_newer(1, 2000, 1000));
	assert_false(revisit_lastmod_newer(1, 1000, 1000));
	assert_false(revisit_lastmod_newer(0, 2000, 1000));
}

static void test_revisit_priority(void **state)
{
	static const struct {
		double p;
		int base, want;
	} t[] = {
	    {1.0, 1, 1},
	    {0.0, 1, 11},
	    {0.5, 1, 6},
	    {-1, 1, 6},
	    {0.8, 1, 3},
	    {0.85, 1, 3},
	    {0.84, 1, 3},
	    {0.75, 3, 6},
	    {2.0, 1, 6},
	    {0.1, 1, 10},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (revisit_priority_precedence(t[i].p, t[i].base) != t[i].want)
			fail_msg("priority %g base %d: got %d want %d", t[i].p, t[i].base,
			    revisit_priority_precedence(t[i].p, t[i].base), t[i].want);
}

static void test_revisit_change_rate(void **state)
{
	assert_true(revisit_change_rate(0, 0, 10) == 0.0);
	assert_true(revisit_change_rate(10, 0, 0) == 0.0);
	/* No change seen: 0. */
	assert_true(fabs(revisit_change_rate(10, 0, 1) - -log(10.5 / 10.5)) < 1e-12);
	assert_true(fabs(revisit_change_rate(10, 5, 100) - -log(5.5 / 10.5) / 100) < 1e-12);
	/* Every visit a change: finite, larger than any fewer. */
	assert_true(revisit_change_rate(10, 10, 1) > revisit_change_rate(10, 9, 1));
	assert_true(isfinite(revisit_change_rate(10, 10, 1)));
	assert_true(revisit_change_rate(10, 11, 1) == revisit_change_rate(10, 10, 1));
}

/* The validators as the request would carry them, for comparison. */
static void test_history_cond(const struct history *h, struct buf *out)
{
	const char *inm, *ims;

	buf_reset(out);
	history_validators(h, &inm, &ims);
	if (inm != NULL)
		buf_appendf(out, "If-None-Match: %s\r\n", inm);
	if (ims != NULL)
		buf_appendf(out, "If-Modified-Since: %s\r\n", ims);
}

/* A URI's history through a sequence of visits. */
static void test_history_sequence(void **state)
{
	static const struct {
		const char *why;
		int status;
		const char *digest, *etag, *lm;
		int truncated;
		const char *refers_uri;
		enum revisit_change want;
		int64_t want_interval;
		const char *want_cond;
	} t[] = {
	    {"a failure first: nothing learnt", -2, NULL, NULL, NULL, 0, NULL, REVISIT_UNKNOWN, 100,
		""},
	    {"first capture", 200, "sha1:A", "\"e1\"", "Mon, 01 Jan 2024 00:00:00 GMT", 0, NULL,
		REVISIT_UNKNOWN, 100,
		"If-None-Match: \"e1\"\r\nIf-Modified-Since: Mon, 01 Jan 2024 00:00:00 GMT\r\n"},
	    {"304", 304, NULL, NULL, NULL, 0, NULL, REVISIT_UNCHANGED, 150,
		"If-None-Match: \"e1\"\r\nIf-Modified-Since: Mon, 01 Jan 2024 00:00:00 GMT\r\n"},
	    {"304 with a new ETag", 304, NULL, "\"e2\"", NULL, 0, NULL, REVISIT_UNCHANGED, 225,
		"If-None-Match: \"e2\"\r\nIf-Modified-Since: Mon, 01 Jan 2024 00:00:00 GMT\r\n"},
	    {"same digest, no validators now", 200, "sha1:A", NULL, NULL, 0, "http://x/orig",
		REVISIT_UNCHANGED, 337, ""},
	    {"a 404 keeps everything", 404, "sha1:E", NULL, NULL, 0, NULL, REVISIT_UNKNOWN, 337,
		""},
	    {"changed", 200, "sha1:B", "\"e3\"", NULL, 0, NULL, REVISIT_CHANGED, 224,
		"If-None-Match: \"e3\"\r\n"},
	    {"truncated: not the resource's digest", 200, "sha1:C", NULL, NULL, 1, NULL,
		REVISIT_UNKNOWN, 224, "If-None-Match: \"e3\"\r\n"},
	    {"an ETag with a line break is kept, never sent", 200, "sha1:D", "\"x\r\nEvil: 1\"",
		NULL, 0, NULL, REVISIT_CHANGED, 149, ""},
	};
	struct revisit_rule r = {100, 10, 1000, 1.5, 1.5};
	struct history *h = history_new();
	struct buf cond = BUF_INIT;
	size_t i;

	/* No validators before anything was captured. */
	test_history_cond(h, &cond);
	assert_int_equal(cond.len, 0);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct history_visit v = {
		    .start_ms = 1000 * (int64_t)(i + 1),
		    .status = t[i].status,
		    .digest = t[i].digest,
		    .truncated = t[i].truncated,
		    .etag = t[i].etag,
		    .last_modified = t[i].lm,
		    .record_us = 1000000 * (int64_t)(i + 1),
		    .refers_uri = t[i].refers_uri,
		    .refers_us = 7,
		};
		enum revisit_change c = history_note(h, &v, &r);

		if (c != t[i].want || h->interval_s != t[i].want_interval)
			fail_msg("%s: change %d interval %lld, want %d %lld", t[i].why, (int)c,
			    (long long)h->interval_s, (int)t[i].want,
			    (long long)t[i].want_interval);
		assert_true(h->due_ms == v.start_ms + h->interval_s * 1000);
		assert_true(h->last_visit_ms == v.start_ms);
		test_history_cond(h, &cond);
		if (strcmp(cond.data != NULL ? cond.data : "", t[i].want_cond) != 0)
			fail_msg("%s: conditional headers\n%s\nwant\n%s", t[i].why,
			    cond.data != NULL ? cond.data : "", t[i].want_cond);
		/* Where a 304 would point. */
		if (i == 1 || i == 2 || i == 3) {
			assert_null(h->content_uri);
			assert_true(h->content_us == 2000000);
		}
		if (i == 4) {
			assert_string_equal(h->content_uri, "http://x/orig");
			assert_true(h->content_us == 7);
		}
	}
	assert_string_equal(h->digest, "sha1:D");
	assert_int_equal(h->visits, 5);
	assert_int_equal(h->changes, 2);
	assert_int_equal(h->not_modified, 2);
	assert_int_equal(h->unchanged, 1);
	assert_true(h->last_change_ms == 9000);
	/* A copy is deep. */
	{
		struct history *d = history_dup(h);

		assert_string_equal(d->digest, h->digest);
		assert_ptr_not_equal(d->digest, h->digest);
		history_free(d);
	}
	history_free(h);
	buf_free(&cond);
	assert_null(history_dup(NULL));
	history_free(NULL);
}

/* A server that answers 304 to a request without validators (no capture
 * yet) has not confirmed anything. */
static void test_history_stray_304(void **state)
{
	struct revisit_rule r;
	struct history *h = history_new();
	struct history_visit v = {.start_ms = 5, .status = 304};

	revisit_defaults(&r);
	assert_int_equal(history_note(h, &v, &r), REVISIT_UNKNOWN);
	assert_int_equal(h->not_modified, 0);
	assert_int_equal(h->interval_s, 86400);
	history_free(h);
}

/* An interval seeded by a sitemap before the first visit is kept by it. */
static void test_history_seeded(void **state)
{
	struct revisit_rule r;
	struct history *h = history_new();
	struct history_visit v = {
	    .start_ms = 5000, .status = 200, .digest = "sha1:A", .record_us = 1};

	revisit_defaults(&r);
	h->interval_s = revisit_seed(&r, SITEMAP_CF_WEEKLY, 0, 0, 0);
	assert_int_equal(history_note(h, &v, &r), REVISIT_UNKNOWN);
	assert_int_equal(h->interval_s, 604800);
	assert_true(h->due_ms == 5000 + 604800000LL);
	history_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_revisit_defaults),
	    cmocka_unit_test(test_revisit_interval_table),
	    cmocka_unit_test(test_revisit_converges),
	    cmocka_unit_test(test_revisit_seed_table),
	    cmocka_unit_test(test_revisit_priority),
	    cmocka_unit_test(test_revisit_change_rate),
	    cmocka_unit_test(test_history_sequence),
	    cmocka_unit_test(test_history_stray_304),
	    cmocka_unit_test(test_history_seeded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
