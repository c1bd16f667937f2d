/* The scalable Bloom filter (bloom.h). */
#include "frontier/bloom.h"
#include "lib/xmalloc.h"
#include <stdlib.h>

#define BLOOM_BITS_PER_KEY 10
#define BLOOM_PROBES 7
#define BLOOM_MAX_LAYERS 40

struct bloom_layer {
	uint64_t *bits;
	uint64_t mask;     /* number of bits - 1 (a power of two) */
	uint64_t cap, n;
};

struct bloom {
	struct bloom_layer layer[BLOOM_MAX_LAYERS];
	unsigned nlayers;
	uint64_t first;
	size_t bytes;
};

static void
bloom_layer_add(struct bloom *b)
{
	struct bloom_layer *l = &b->layer[b->nlayers];
	uint64_t cap = b->nlayers == 0 ? b->first : b->layer[b->nlayers - 1].cap * 2;
	uint64_t bits = 64;

	while (bits < cap * BLOOM_BITS_PER_KEY)
		bits <<= 1;
	l->bits = xcalloc(bits / 64, sizeof(uint64_t));
	l->mask = bits - 1;
	l->cap = cap;
	l->n = 0;
	b->bytes += bits / 8;
	b->nlayers++;
}

struct bloom *
bloom_new(uint64_t first)
{
	struct bloom *b = xcalloc(1, sizeof(*b));

	b->first = first > 64 ? first : 64;
	bloom_layer_add(b);
	return b;
}

void
bloom_free(struct bloom *b)
{
	unsigned i;

	if (b == NULL)
		return;
	for (i = 0; i < b->nlayers; i++)
		free(b->layer[i].bits);
	free(b);
}

static int
bloom_layer_test(const struct bloom_layer *l, uint64_t h)
{
	uint64_t h2 = (h >> 32 | h << 32) | 1;
	int i;

	for (i = 0; i < BLOOM_PROBES; i++) {
		uint64_t bit = (h + (uint64_t)i * h2) & l->mask;

		if ((l->bits[bit / 64] & (1ull << (bit % 64))) == 0)
			return 0;
	}
	return 1;
}

void
bloom_add(struct bloom *b, uint64_t h)
{
	struct bloom_layer *l = &b->layer[b->nlayers - 1];
	uint64_t h2 = (h >> 32 | h << 32) | 1;
	int i;

	if (l->n >= l->cap && b->nlayers < BLOOM_MAX_LAYERS) {
		bloom_layer_add(b);
		l = &b->layer[b->nlayers - 1];
	}
	for (i = 0; i < BLOOM_PROBES; i++) {
		uint64_t bit = (h + (uint64_t)i * h2) & l->mask;

		l->bits[bit / 64] |= 1ull << (bit % 64);
	}
	l->n++;
}

int
bloom_test(const struct bloom *b, uint64_t h)
{
	unsigned i;

	for (i = 0; i < b->nlayers; i++)
		if (bloom_layer_test(&b->layer[i], h))
			return 1;
	return 0;
}

size_t
bloom_bytes(const struct bloom *b)
{
	return b->bytes;
}

unsigned
bloom_layers(const struct bloom *b)
{
	return b->nlayers;
}
