/* A bounded heap with the last kept element on top, so that a newcomer is
 * tested against one element and the heap stays at keep entries; sorting
 * at the end is the heap's own sort, in place. */
#include "lib/topn.h"
#include "lib/xmalloc.h"

#include <stdlib.h>
#include <string.h>

struct topn {
	size_t keep, size, n;
	topn_before_fn before;
	void *ctx;
	char *a;
	char *tmp; /* one element, for swaps */
	int sorted;
};

struct topn *topn_new(size_t keep, size_t size, topn_before_fn before, void *ctx)
{
	struct topn *t = xcalloc(1, sizeof *t);

	t->keep = keep;
	t->size = size;
	t->before = before;
	t->ctx = ctx;
	t->a = xcalloc(keep > 0 ? keep : 1, size);
	t->tmp = xmalloc(size);
	return t;
}

void topn_free(struct topn *t)
{
	if (t == NULL)
		return;
	free(t->a);
	free(t->tmp);
	free(t);
}

static void *topn_at(const struct topn *t, size_t i)
{
	return t->a + i * t->size;
}

static void topn_swap(struct topn *t, size_t i, size_t j)
{
	memcpy(t->tmp, topn_at(t, i), t->size);
	memcpy(topn_at(t, i), topn_at(t, j), t->size);
	memcpy(topn_at(t, j), t->tmp, t->size);
}

/* Whether element i should sit above element j: it comes after it. */
static int topn_above(const struct topn *t, size_t i, size_t j)
{
	return t->before(topn_at(t, j), topn_at(t, i), t->ctx);
}

/* Restores the heap below i among the first n elements. */
static void topn_sift_down(struct topn *t, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < n && topn_above(t, l, m))
			m = l;
		if (r < n && topn_above(t, r, m))
			m = r;
		if (m == i)
			return;
		topn_swap(t, i, m);
		i = m;
	}
}

int topn_admits(const struct topn *t, const void *elem)
{
	if (t->sorted || t->keep == 0)
		return 0;
	return t->n < t->keep || t->before(elem, topn_at(t, 0), t->ctx);
}

int topn_push(struct topn *t, const void *elem, void *out)
{
	size_t i;

	if (!topn_admits(t, elem))
		return -1;
	if (t->n == t->keep) {
		memcpy(out, topn_at(t, 0), t->size);
		memcpy(topn_at(t, 0), elem, t->size);
		topn_sift_down(t, t->n, 0);
		return 1;
	}
	i = t->n++;
	memcpy(topn_at(t, i), elem, t->size);
	while (i > 0 && topn_above(t, i, (i - 1) / 2)) {
		topn_swap(t, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return 0;
}

void *topn_sorted(struct topn *t, size_t *n)
{
	/* Taking the top off each time moves the last element to the end. */
	if (!t->sorted) {
		for (size_t k = t->n; k > 1; k--) {
			topn_swap(t, 0, k - 1);
			topn_sift_down(t, k - 1, 0);
		}
		t->sorted = 1;
	}
	*n = t->n;
	return t->a;
}
