/* The hierarchical timer wheel against a brute-force model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include "frontier/wheel.h"

struct test_wheel_item {
	struct wheel_entry e;
	int id;
};

static uint64_t test_wheel_rng = 88172645463325252ull;

static uint64_t test_wheel_rand(void)
{
	test_wheel_rng ^= test_wheel_rng << 13;
	test_wheel_rng ^= test_wheel_rng >> 7;
	test_wheel_rng ^= test_wheel_rng << 17;
	return test_wheel_rng;
}

static void test_wheel_basic(void **state)
{
	struct wheel *w = wheel_new(1000);
	struct test_wheel_item a, b, c;

	wheel_entry_init(&a.e);
	wheel_entry_init(&b.e);
	wheel_entry_init(&c.e);
	assert_true(wheel_next(w) == UINT64_MAX);
	assert_null(wheel_expire(w, 5000));
	wheel_add(w, &a.e, 7000);
	wheel_add(w, &b.e, 6000);
	wheel_add(w, &c.e, 6000);
	assert_int_equal(wheel_count(w), 3);
	assert_true(wheel_next(w) == 6000);
	assert_null(wheel_expire(w, 5999));
	/* Equal times come out FIFO. */
	assert_ptr_equal(wheel_expire(w, 6000), &b.e);
	assert_ptr_equal(wheel_expire(w, 6000), &c.e);
	assert_null(wheel_expire(w, 6000));
	assert_false(wheel_entry_pending(&b.e));
	assert_true(wheel_next(w) == 7000);
	wheel_remove(w, &a.e);
	assert_int_equal(wheel_count(w), 0);
	assert_null(wheel_expire(w, 100000));
	/* A time in the past expires at the next call. */
	wheel_add(w, &a.e, 5);
	assert_true(wheel_next(w) == wheel_now(w));
	assert_ptr_equal(wheel_expire(w, wheel_now(w)), &a.e);
	wheel_free(w);
}

/* Long delays (days, years, the far end of 64 bits) and slot wrap-around. */
static void test_wheel_long_and_wrap(void **state)
{
	static const uint64_t delays[] = {
	    1,
	    255,
	    256,
	    257,
	    65535,
	    65536,
	    65537,
	    86400000ull,
	    365ull * 86400000ull,
	    1ull << 40,
	    (1ull << 56) + 3,
	    UINT64_MAX / 2,
	};
	size_t n = sizeof(delays) / sizeof(delays[0]), i;
	struct test_wheel_item *it = calloc(n, sizeof(*it));
	uint64_t start = 0xffff00ull - 3; /* near a level-2 boundary */
	struct wheel *w = wheel_new(start);
	struct wheel_entry *e;

	for (i = 0; i < n; i++) {
		wheel_entry_init(&it[i].e);
		it[i].id = (int)i;
		wheel_add(w, &it[i].e, start + delays[i]);
	}
	for (i = 0; i < n; i++) {
		assert_true(wheel_next(w) == start + delays[i]);
		assert_null(wheel_expire(w, start + delays[i] - 1));
		e = wheel_expire(w, start + delays[i]);
		assert_non_null(e);
		assert_int_equal(((struct test_wheel_item *)e)->id, (int)i);
	}
	assert_int_equal(wheel_count(w), 0);
	wheel_free(w);
	free(it);
}

/* Random inserts, removals and clock jumps against a linear model: every
 * entry expires exactly when its time is reached, earliest first. */
static void test_wheel_random(void **state)
{
	enum { N = 3000 };
	struct test_wheel_item *it = calloc(N, sizeof(*it));
	int *live = calloc(N, sizeof(int));
	uint64_t now = 123456789, last_when;
	struct wheel *w = wheel_new(now);
	int round, i;

	for (i = 0; i < N; i++) {
		wheel_entry_init(&it[i].e);
		it[i].id = i;
	}
	for (round = 0; round < 200; round++) {
		struct wheel_entry *e;
		uint64_t min = UINT64_MAX;

		for (i = 0; i < 40; i++) {
			int k = (int)(test_wheel_rand() % N);
			uint64_t r = test_wheel_rand();
			uint64_t d = r % 4 == 0 ? r % 100
			    : r % 4 == 1	? r % 100000
			    : r % 4 == 2	? r % 100000000
						: 0;

			if (live[k]) {
				wheel_remove(w, &it[k].e);
				live[k] = 0;
			} else {
				wheel_add(w, &it[k].e, now + d);
				live[k] = 1;
			}
		}
		for (i = 0; i < N; i++)
			if (live[i] && it[i].e.when < min)
				min = it[i].e.when;
		assert_true(wheel_next(w) == (min < now ? now : min));
		now += test_wheel_rand() % (round % 10 == 0 ? 50000000 : 20000);
		last_when = 0;
		while ((e = wheel_expire(w, now)) != NULL) {
			struct test_wheel_item *x = (struct test_wheel_item *)e;

			assert_true(live[x->id]);
			assert_true(e->when <= now);
			assert_true(e->when >= last_when);
			last_when = e->when;
			live[x->id] = 0;
		}
		for (i = 0; i < N; i++)
			if (live[i])
				assert_true(it[i].e.when > now);
	}
	wheel_free(w);
	free(it);
	free(live);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_wheel_basic),
	    cmocka_unit_test(test_wheel_long_and_wrap),
	    cmocka_unit_test(test_wheel_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
