/* lib/topn: the kept elements are exactly the first `keep` of a full sort,
 * in order, whatever the stream's order, and every element pushed out is
 * handed back once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "lib/topn.h"

struct item {
	int score;
	int id; /* breaks ties: lower first */
};

/* Higher score first, as the reports list the biggest hosts first. */
static int test_topn_before(const void *x, const void *y, void *ctx)
{
	const struct item *a = x, *b = y;

	(void)ctx;
	if (a->score != b->score)
		return a->score > b->score;
	return a->id < b->id;
}

static int test_topn_cmp(const void *x, const void *y)
{
	return test_topn_before(x, y, NULL) ? -1 : test_topn_before(y, x, NULL) ? 1 : 0;
}

static void test_topn_stream(const struct item *in, size_t n, size_t keep)
{
	struct item *ref = malloc((n + 1) * sizeof *ref), out, *got;
	struct topn *t = topn_new(keep, sizeof(struct item), test_topn_before, NULL);
	size_t pushed = 0, evicted = 0, kept, want = keep < n ? keep : n;
	int *seen = calloc(n + 1, sizeof *seen);

	for (size_t i = 0; i < n; i++) {
		int r;

		if (!topn_admits(t, &in[i])) {
			assert_int_equal(topn_push(t, &in[i], &out), -1);
			continue;
		}
		r = topn_push(t, &in[i], &out);
		assert_true(r == 0 || r == 1);
		pushed++;
		if (r == 1) {
			evicted++;
			seen[out.id]++;
		}
	}
	got = topn_sorted(t, &kept);
	assert_int_equal(kept, want);
	assert_int_equal(pushed - evicted, kept);
	memcpy(ref, in, n * sizeof *ref);
	qsort(ref, n, sizeof *ref, test_topn_cmp);
	for (size_t i = 0; i < kept; i++) {
		assert_int_equal(got[i].id, ref[i].id);
		assert_int_equal(seen[got[i].id], 0);
	}
	for (size_t i = 0; i <= n; i++)
		assert_true(seen[i] <= 1);
	/* Sorted once, the set takes nothing more. */
	assert_int_equal(topn_admits(t, &ref[0]), 0);
	topn_free(t);
	free(seen);
	free(ref);
}

static void test_topn_streams(void **state)
{
	static const size_t keeps[] = {0, 1, 2, 5, 99, 100, 103};
	struct item in[100];

	(void)state;
	for (int order = 0; order < 4; order++) {
		srand(7 + order);
		for (int i = 0; i < 100; i++) {
			in[i].id = i;
			/* Ascending, descending, all tied, random with many ties. */
			in[i].score = order == 0 ? i
			    : order == 1	 ? 100 - i
			    : order == 2	 ? 5
						 : rand() % 17;
		}
		for (size_t k = 0; k < sizeof keeps / sizeof keeps[0]; k++)
			test_topn_stream(in, 100, keeps[k]);
	}
	test_topn_stream(in, 0, 3);
}

/* Pointers as elements, as the hosts report keeps them. */
static int test_topn_before_ptr(const void *x, const void *y, void *ctx)
{
	const struct item *const *a = x, *const *b = y;

	return test_topn_before(*a, *b, ctx);
}

static void test_topn_pointers(void **state)
{
	static const struct item items[] = {{3, 0}, {9, 1}, {1, 2}, {9, 3}, {4, 4}};
	struct topn *t = topn_new(3, sizeof(const struct item *), test_topn_before_ptr, NULL);
	const struct item **got, *p, *out = NULL;
	size_t n;
	int evicted = 0;

	(void)state;
	for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
		p = &items[i];
		if (topn_push(t, &p, &out) == 1) {
			/* Pushed out in turn: {1,2} by {9,3}, then {3,0} by {4,4}. */
			assert_ptr_equal(out, evicted == 0 ? &items[2] : &items[0]);
			evicted++;
		}
	}
	assert_int_equal(evicted, 2);
	got = topn_sorted(t, &n);
	assert_int_equal(n, 3);
	assert_ptr_equal(got[0], &items[1]);
	assert_ptr_equal(got[1], &items[3]);
	assert_ptr_equal(got[2], &items[4]);
	topn_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_topn_streams),
	    cmocka_unit_test(test_topn_pointers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
