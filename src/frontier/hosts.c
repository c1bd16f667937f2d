#include "frontier/hosts.h"
#include "lib/robots.h"
#include "lib/xmalloc.h"

#include <stdlib.h>
#include <string.h>

struct hosts {
	struct host **buckets;
	size_t nbuckets; /* a power of two */
	size_t count;
	size_t capacity;
	struct host *lru_head; /* most recently used */
	struct host *lru_tail;
	size_t bytes;
};

static uint32_t hosts_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

struct hosts *hosts_new(size_t capacity)
{
	struct hosts *t = xcalloc(1, sizeof *t);

	t->nbuckets = 256;
	t->buckets = xcalloc(t->nbuckets, sizeof *t->buckets);
	t->capacity = capacity ? capacity : 1;
	return t;
}

static void hosts_lru_unlink(struct hosts *t, struct host *h)
{
	if (h->lru_prev)
		h->lru_prev->lru_next = h->lru_next;
	else
		t->lru_head = h->lru_next;
	if (h->lru_next)
		h->lru_next->lru_prev = h->lru_prev;
	else
		t->lru_tail = h->lru_prev;
	h->lru_prev = h->lru_next = NULL;
}

static void hosts_lru_push(struct hosts *t, struct host *h)
{
	h->lru_next = t->lru_head;
	h->lru_prev = NULL;
	if (t->lru_head)
		t->lru_head->lru_prev = h;
	t->lru_head = h;
	if (t->lru_tail == NULL)
		t->lru_tail = h;
}

static size_t hosts_entry_bytes(const struct host *h)
{
	return sizeof *h + strlen(h->key) + 1 + (h->robots ? robots_size(h->robots) : 0);
}

static void hosts_remove(struct hosts *t, struct host *h)
{
	struct host **pp = &t->buckets[h->hash & (t->nbuckets - 1)];

	while (*pp != h)
		pp = &(*pp)->hash_next;
	*pp = h->hash_next;
	hosts_lru_unlink(t, h);
	t->count--;
	t->bytes -= hosts_entry_bytes(h);
	if (h->robots)
		robots_free(h->robots);
	free(h->key);
	free(h);
}

static void hosts_grow(struct hosts *t)
{
	size_t n = t->nbuckets * 2;
	struct host **b = xcalloc(n, sizeof *b);

	for (size_t i = 0; i < t->nbuckets; i++) {
		struct host *h = t->buckets[i], *next;
		for (; h != NULL; h = next) {
			next = h->hash_next;
			h->hash_next = b[h->hash & (n - 1)];
			b[h->hash & (n - 1)] = h;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

struct host *hosts_get(struct hosts *t, const char *key, int create)
{
	uint32_t hash = hosts_hash(key);
	struct host *h;

	for (h = t->buckets[hash & (t->nbuckets - 1)]; h != NULL; h = h->hash_next) {
		if (h->hash == hash && strcmp(h->key, key) == 0) {
			hosts_lru_unlink(t, h);
			hosts_lru_push(t, h);
			return h;
		}
	}
	if (!create)
		return NULL;
	while (t->count >= t->capacity && t->lru_tail != NULL)
		hosts_remove(t, t->lru_tail);
	if (t->count >= t->nbuckets)
		hosts_grow(t);
	h = xcalloc(1, sizeof *h);
	h->key = xstrdup(key);
	h->hash = hash;
	h->hash_next = t->buckets[hash & (t->nbuckets - 1)];
	t->buckets[hash & (t->nbuckets - 1)] = h;
	hosts_lru_push(t, h);
	t->count++;
	t->bytes += hosts_entry_bytes(h);
	return h;
}

void hosts_set_robots(struct hosts *t, struct host *h, struct robots *r, uint64_t now_ms)
{
	t->bytes -= hosts_entry_bytes(h);
	if (h->robots)
		robots_free(h->robots);
	h->robots = r;
	h->robots_fetched_ms = now_ms;
	h->robots_unused = 0;
	t->bytes += hosts_entry_bytes(h);
}

size_t hosts_count(const struct hosts *t)
{
	return t->count;
}

size_t hosts_memory(const struct hosts *t)
{
	return sizeof *t + t->nbuckets * sizeof *t->buckets + t->bytes;
}

void hosts_free(struct hosts *t)
{
	if (t == NULL)
		return;
	while (t->lru_head != NULL)
		hosts_remove(t, t->lru_head);
	free(t->buckets);
	free(t);
}
