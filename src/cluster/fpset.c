/* Fingerprint sets: open addressing over uint64_t slots, 0 meaning empty
 * (a fingerprint of 0 is stored as 1: one more collision class in 2^64). */
#include <stdlib.h>
#include <string.h>
#include "cluster/fpset.h"
#include "lib/xmalloc.h"

struct fpset {
	uint64_t *slot;
	size_t mask; /* slots - 1 */
	size_t count;
	int bounded;
	unsigned victim; /* bounded: which of a bucket's 4 slots goes next */
};

static struct fpset *fpset_make(size_t slots, int bounded)
{
	struct fpset *s = xcalloc(1, sizeof *s);
	size_t n = 4;

	while (n < slots)
		n <<= 1;
	s->slot = xcalloc(n, sizeof *s->slot);
	s->mask = n - 1;
	s->bounded = bounded;
	return s;
}

struct fpset *fpset_bounded(size_t slots)
{
	return fpset_make(slots, 1);
}

struct fpset *fpset_exact(void)
{
	return fpset_make(1024, 0);
}

void fpset_free(struct fpset *s)
{
	if (s == NULL)
		return;
	free(s->slot);
	free(s);
}

static uint64_t fpset_norm(uint64_t fp)
{
	return fp == 0 ? 1 : fp;
}

/* Exact: doubles at 50 % load, so probes stay short. */
static void fpset_grow(struct fpset *s)
{
	uint64_t *old = s->slot;
	size_t n = s->mask + 1, i;

	s->slot = xcalloc(n * 2, sizeof *s->slot);
	s->mask = n * 2 - 1;
	for (i = 0; i < n; i++) {
		size_t j;
		if (old[i] == 0)
			continue;
		for (j = old[i] & s->mask; s->slot[j] != 0; j = (j + 1) & s->mask)
			;
		s->slot[j] = old[i];
	}
	free(old);
}

int fpset_has(const struct fpset *s, uint64_t fp)
{
	size_t j, k;

	fp = fpset_norm(fp);
	if (s->bounded) {
		j = fp & s->mask & ~(size_t)3;
		for (k = 0; k < 4; k++)
			if (s->slot[j + k] == fp)
				return 1;
		return 0;
	}
	for (j = fp & s->mask; s->slot[j] != 0; j = (j + 1) & s->mask)
		if (s->slot[j] == fp)
			return 1;
	return 0;
}

int fpset_test_add(struct fpset *s, uint64_t fp)
{
	size_t j, k;

	fp = fpset_norm(fp);
	if (s->bounded) {
		j = fp & s->mask & ~(size_t)3;
		for (k = 0; k < 4; k++) {
			if (s->slot[j + k] == fp)
				return 1;
			if (s->slot[j + k] == 0) {
				s->slot[j + k] = fp;
				s->count++;
				return 0;
			}
		}
		/* A full bucket forgets one of its four, in turn across the
		 * table: cheaper than an age per slot, and as good for a
		 * filter whose misses only cost a repeated message. */
		s->slot[j + (s->victim++ & 3)] = fp;
		return 0;
	}
	for (j = fp & s->mask; s->slot[j] != 0; j = (j + 1) & s->mask)
		if (s->slot[j] == fp)
			return 1;
	s->slot[j] = fp;
	if (++s->count * 2 > s->mask + 1)
		fpset_grow(s);
	return 0;
}

size_t fpset_count(const struct fpset *s)
{
	return s->count;
}

size_t fpset_bytes(const struct fpset *s)
{
	return (s->mask + 1) * sizeof *s->slot;
}
