/* The exact string set within a budget (src/frontier/urlset.c): exact answers,
 * the budget kept by dropping whole sealed segments and never an unsealed
 * string, the second chance for strings met again, and the index staying
 * consistent through drops (checked against a model). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontier/urlset.h"
#include "lib/hash.h"

static int test_urlset_has(struct urlset *u, const char *s)
{
	return urlset_has(u, s, strlen(s), hash_bytes(s, strlen(s)));
}

static int test_urlset_add(struct urlset *u, const char *s)
{
	return urlset_add(u, s, strlen(s), hash_bytes(s, strlen(s)));
}

/* Within its budget the set holds everything and nothing else. */
static void test_urlset_exact(void **state)
{
	struct urlset *u = urlset_new(16 << 20);
	struct urlset_stats st;
	char s[64];
	int i;

	(void)state;
	for (i = 0; i < 50000; i++) {
		snprintf(s, sizeof s, "http://h%d.example/p/%d.html", i % 211, i);
		assert_false(test_urlset_has(u, s));
		assert_int_equal(test_urlset_add(u, s), 1);
	}
	for (i = 0; i < 50000; i++) {
		snprintf(s, sizeof s, "http://h%d.example/p/%d.html", i % 211, i);
		/* The prefetch hints change no answer. */
		urlset_prefetch(u, hash_bytes(s, strlen(s)));
		urlset_prefetch_entry(u, hash_bytes(s, strlen(s)));
		assert_true(test_urlset_has(u, s));
		/* A prefix, an extension, another host: not held. */
		s[strlen(s) - 1] = '\0';
		assert_false(test_urlset_has(u, s));
		snprintf(s, sizeof s, "http://h%d.example/p/%d.htmlx", i % 211, i);
		assert_false(test_urlset_has(u, s));
		snprintf(s, sizeof s, "http://h%d.example/p/%d.html", i % 211 + 1, i);
		assert_false(test_urlset_has(u, s));
	}
	urlset_prefetch_entry(u, hash_bytes("", 0));
	assert_false(test_urlset_has(u, ""));
	assert_int_equal(test_urlset_add(u, ""), 1);
	assert_true(test_urlset_has(u, ""));
	assert_false(urlset_dropped(u));
	urlset_get_stats(u, &st);
	assert_int_equal(st.entries, 50001);
	assert_int_equal(st.evicted, 0);
	assert_true(st.bytes <= st.budget);
	urlset_free(u);
}

/* Unsealed strings are never dropped, whatever the budget; sealed ones
 * are, oldest first, and the set stays near its budget. */
static void test_urlset_budget(void **state)
{
	struct urlset *u = urlset_new(256 << 10);
	struct urlset_stats st;
	char s[64];
	int i, lost = 0;

	(void)state;
	/* More than the budget holds. */
	for (i = 0; i < 8000; i++) {
		snprintf(s, sizeof s, "http://example.org/unsealed/%d", i);
		assert_int_equal(test_urlset_add(u, s), 1);
	}
	for (i = 0; i < 8000; i++) {
		snprintf(s, sizeof s, "http://example.org/unsealed/%d", i);
		assert_true(test_urlset_has(u, s));
	}
	assert_false(urlset_dropped(u));
	urlset_seal(u);
	for (i = 0; i < 20000; i++) {
		snprintf(s, sizeof s, "http://example.org/later/%d", i);
		assert_int_equal(test_urlset_add(u, s), 1);
		if (i % 1000 == 999)
			urlset_seal(u);
	}
	assert_true(urlset_dropped(u));
	urlset_get_stats(u, &st);
	assert_true(st.evicted > 0);
	/* The budget, give or take the index grown for the unsealed burst. */
	assert_true(st.bytes <= st.budget + (64 << 10));
	for (i = 0; i < 8000; i++) {
		snprintf(s, sizeof s, "http://example.org/unsealed/%d", i);
		lost += !test_urlset_has(u, s);
	}
	/* The oldest went first. */
	assert_int_equal(lost, 8000);
	snprintf(s, sizeof s, "http://example.org/later/%d", 19999);
	assert_true(test_urlset_has(u, s));
	urlset_free(u);
}

/* A string met again while in the older half is moved and survives
 * drops that take every string of its age. */
static void test_urlset_second_chance(void **state)
{
	struct urlset *u = urlset_new(256 << 10);
	struct urlset_stats st;
	char s[64];
	int i;

	(void)state;
	assert_int_equal(test_urlset_add(u, "http://example.org/nav"), 1);
	for (i = 0; i < 40000; i++) {
		snprintf(s, sizeof s, "http://example.org/once/%d", i);
		assert_int_equal(test_urlset_add(u, s), 1);
		urlset_seal(u);
		if (i % 50 == 0)
			assert_true(test_urlset_has(u, "http://example.org/nav"));
	}
	assert_true(test_urlset_has(u, "http://example.org/nav"));
	assert_false(test_urlset_has(u, "http://example.org/once/0"));
	urlset_get_stats(u, &st);
	assert_true(st.moved > 0);
	urlset_free(u);
}

/* Random adds, seals and tests against a model: a string held was added
 * (no false answer ever), one added since the last seal is held, and the
 * count of held strings is what the model finds. */
static void test_urlset_model(void **state)
{
	enum { N = 30000 };
	static unsigned char added[N], unsealed[N];
	struct urlset *u = urlset_new(256 << 10);
	struct urlset_stats st;
	unsigned seed = 12345;
	char s[80];
	int step, i;

	(void)state;
	memset(added, 0, sizeof added);
	memset(unsealed, 0, sizeof unsealed);
	for (step = 0; step < 200000; step++) {
		seed = seed * 1103515245u + 12345u;
		i = (int)((seed >> 8) % N);
		/* Lengths vary from 20 to 70 bytes: segments end at odd places. */
		snprintf(s, sizeof s, "http://h%d.test/%.*s%d", i % 37, (int)(i % 51),
		    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", i);
		if (test_urlset_has(u, s)) {
			assert_true(added[i]);
		} else {
			assert_false(unsealed[i]);
			assert_int_equal(test_urlset_add(u, s), 1);
			added[i] = unsealed[i] = 1;
		}
		if (seed % 97 == 0) {
			urlset_seal(u);
			memset(unsealed, 0, sizeof unsealed);
		}
	}
	{
		uint64_t held = 0;

		for (i = 0; i < N; i++) {
			snprintf(s, sizeof s, "http://h%d.test/%.*s%d", i % 37, (int)(i % 51),
			    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", i);
			if (test_urlset_has(u, s)) {
				assert_true(added[i]);
				held++;
			} else {
				assert_false(unsealed[i]);
			}
		}
		urlset_get_stats(u, &st);
		assert_int_equal(st.entries, held);
		assert_true(st.evicted > 0);
	}
	urlset_free(u);
}

/* Strings longer than the set keeps are refused, and the set says it no
 * longer holds all it was given. */
static void test_urlset_long(void **state)
{
	struct urlset *u = urlset_new(1 << 20);
	size_t n = URLSET_MAX_LEN + 1;
	char *s = malloc(n + 1);

	(void)state;
	memset(s, 'a', n);
	s[n] = '\0';
	assert_int_equal(urlset_add(u, s, n, hash_bytes(s, n)), 0);
	assert_true(urlset_dropped(u));
	assert_int_equal(urlset_add(u, s, n - 1, hash_bytes(s, n - 1)), 1);
	assert_true(urlset_has(u, s, n - 1, hash_bytes(s, n - 1)));
	free(s);
	urlset_free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_urlset_exact),
	    cmocka_unit_test(test_urlset_budget),
	    cmocka_unit_test(test_urlset_second_chance),
	    cmocka_unit_test(test_urlset_model),
	    cmocka_unit_test(test_urlset_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
