/* The already-seen set (see seen.h for the layering and its guarantees). */
#include "frontier/seen.h"
#include "lib/buf.h"
#include "frontier/bloom.h"
#include "frontier/keys.h"
#include "frontier/keyscan.h"
#include "frontier/urlset.h"
#include "lib/hash.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <string.h>

#define SEEN_FIRST_LAYER (1u << 20)
/* Seen keys read at once when a store is reopened, then per flush until
 * all are (seen_load): a small store is whole at once, a large one does
 * not hold the crawl's first fetch for a scan of millions of keys (about
 * 0.3 s a million here). */
static size_t seen_load_open = 256u << 10, seen_load_step = 32u << 10;

void seen_load_batches(size_t at_open, size_t per_flush)
{
	seen_load_open = at_open > 0 ? at_open : 256u << 10;
	seen_load_step = per_flush > 0 ? per_flush : 32u << 10;
}
/* Next() steps tried before a seek when merging sorted candidates. */
#define SEEN_MERGE_STEPS 4

struct seen {
	leveldb_t *db;
	leveldb_readoptions_t *ro;
	struct bloom *bloom;
	struct urlset *mem;
	/* The memory set held every URI loaded from the store. */
	int loaded_all;
	/* Reading the store's seen keys (seen_load): until done, neither a
	 * miss of the memory set nor one of the Bloom filter proves a URI
	 * new. */
	leveldb_iterator_t *load_it;
	/* Recorded since the last write but refused by the memory set (longer
	 * than it keeps): the store cannot answer for them yet. */
	char **unwritten;
	size_t nunwritten, unwritten_cap;
	struct seen_stats st;
	struct buf key;
};

uint64_t seen_hash(const char *s, size_t n)
{
	return hash_bytes(s, n);
}

struct seen *seen_new(leveldb_t *db, size_t memory_budget, unsigned bloom_bits)
{
	struct seen *s = xcalloc(1, sizeof(*s));

	s->db = db;
	s->ro = leveldb_readoptions_create();
	/* Seen reads are scattered: keep them out of the block cache, which
	 * holds queue heads worth more. */
	leveldb_readoptions_set_fill_cache(s->ro, 0);
	s->mem = urlset_new(memory_budget);
	s->loaded_all = 1;
	s->bloom = bloom_new(SEEN_FIRST_LAYER, bloom_bits);
	buf_init(&s->key);
	return s;
}

static void seen_unwritten_clear(struct seen *s)
{
	size_t i;

	for (i = 0; i < s->nunwritten; i++)
		free(s->unwritten[i]);
	s->nunwritten = 0;
}

void seen_free(struct seen *s)
{
	if (s == NULL)
		return;
	if (s->load_it != NULL)
		leveldb_iter_destroy(s->load_it);
	bloom_free(s->bloom);
	urlset_free(s->mem);
	seen_unwritten_clear(s);
	free(s->unwritten);
	leveldb_readoptions_destroy(s->ro);
	buf_free(&s->key);
	free(s);
}

/* The memory set holds every URI of the seen set: a miss proves new. */
static int seen_complete(const struct seen *s)
{
	return s->load_it == NULL && s->loaded_all && !urlset_dropped(s->mem);
}

/* Held in memory: the memory set, or the few unwritten URIs it refused. */
static int seen_in_memory(struct seen *s, const char *canon, size_t n, uint64_t h)
{
	size_t i;

	if (urlset_has(s->mem, canon, n, h))
		return 1;
	for (i = 0; i < s->nunwritten; i++)
		if (strcmp(s->unwritten[i], canon) == 0)
			return 1;
	return 0;
}

/* Records canon as new: its key goes into wb, and the layers learn it. */
static void seen_record(
    struct seen *s, const char *canon, size_t n, uint64_t h, leveldb_writebatch_t *wb)
{
	buf_reset(&s->key);
	keys_seen(&s->key, canon);
	leveldb_writebatch_put(wb, s->key.data, s->key.len, "", 0);
	bloom_add(s->bloom, h);
	if (!urlset_add(s->mem, canon, n, h)) {
		if (s->nunwritten == s->unwritten_cap) {
			s->unwritten_cap = s->unwritten_cap ? s->unwritten_cap * 2 : 16;
			s->unwritten = xrealloc(s->unwritten, s->unwritten_cap * sizeof(char *));
		}
		s->unwritten[s->nunwritten++] = xstrndup(canon, n);
	}
	s->st.added++;
}

/* The answers memory can give: SEEN_OLD (held in memory), SEEN_NEW (a miss
 * of the complete memory set, or a Bloom miss), or SEEN_MAYBE. */
static int seen_memory(struct seen *s, const char *canon, size_t n, uint64_t h)
{
	if (seen_in_memory(s, canon, n, h)) {
		s->st.memory_hits++;
		return SEEN_OLD;
	}
	if (seen_complete(s)) {
		s->st.memory_new++;
		return SEEN_NEW;
	}
	if (s->load_it != NULL)
		return SEEN_MAYBE;
	if (!bloom_test(s->bloom, h)) {
		s->st.bloom_negative++;
		return SEEN_NEW;
	}
	return SEEN_MAYBE;
}

int seen_known_hashed(struct seen *s, const char *canon, size_t len, uint64_t h)
{
	if (!seen_in_memory(s, canon, len, h))
		return 0;
	s->st.lookups++;
	s->st.memory_hits++;
	return 1;
}

int seen_known(struct seen *s, const char *canon, size_t len)
{
	return seen_known_hashed(s, canon, len, seen_hash(canon, len));
}

void seen_prefetch(const struct seen *s, uint64_t h)
{
	urlset_prefetch(s->mem, h);
}

void seen_prefetch_entry(const struct seen *s, uint64_t h)
{
	urlset_prefetch_entry(s->mem, h);
	/* The Bloom filter is asked only when the memory set cannot answer. */
	if (s->load_it == NULL && !seen_complete(s))
		bloom_prefetch(s->bloom, h);
}

int seen_check(struct seen *s, const char *canon, leveldb_writebatch_t *wb)
{
	size_t n = strlen(canon);
	uint64_t h = seen_hash(canon, n);
	int r;

	s->st.lookups++;
	r = seen_memory(s, canon, n, h);
	if (r == SEEN_NEW)
		seen_record(s, canon, n, h, wb);
	else if (r == SEEN_MAYBE)
		s->st.held++;
	return r;
}

int seen_add(struct seen *s, const char *canon, leveldb_writebatch_t *wb, char **err)
{
	size_t n = strlen(canon);
	uint64_t h = seen_hash(canon, n);
	char *lerr = NULL, *v;
	size_t vlen;
	int r;

	s->st.lookups++;
	r = seen_memory(s, canon, n, h);
	if (r == SEEN_OLD)
		return 0;
	if (r == SEEN_MAYBE) {
		buf_reset(&s->key);
		keys_seen(&s->key, canon);
		s->st.store_reads++;
		v = leveldb_get(s->db, s->ro, s->key.data, s->key.len, &vlen, &lerr);
		if (lerr != NULL) {
			*err = xasprintf("reading the seen set: %s", lerr);
			leveldb_free(lerr);
			return -1;
		}
		if (v != NULL) {
			leveldb_free(v);
			urlset_add(s->mem, canon, n, h);
			return 0;
		}
		s->st.store_misses++;
	}
	seen_record(s, canon, n, h, wb);
	return 1;
}

/* 1 if the iterator's key and key name the same scheme://authority/: only
 * then is the next candidate likely to be a few keys away. */
static int seen_same_site(leveldb_iterator_t *it, const struct buf *key)
{
	size_t kl, i, slashes = 0;
	const char *k;

	if (!leveldb_iter_valid(it))
		return 0;
	k = leveldb_iter_key(it, &kl);
	for (i = 0; i < kl && i < key->len && k[i] == key->data[i]; i++)
		if (k[i] == '/' && ++slashes == 3)
			return 1;
	return 0;
}

/* Positions it at the first key >= key, the way a merge does: the
 * candidates come sorted, so the next one is usually a few keys ahead of
 * the last position (the same host's pages sit together), where stepping
 * is cheaper than a seek through every level of the store. */
static void seen_iter_advance(
    struct seen *s, leveldb_iterator_t *it, int *positioned, const struct buf *key)
{
	int steps;

	if (*positioned && seen_same_site(it, key)) {
		for (steps = 0; steps < SEEN_MERGE_STEPS && leveldb_iter_valid(it); steps++) {
			size_t kl;
			const char *k = leveldb_iter_key(it, &kl);
			size_t m = kl < key->len ? kl : key->len;
			int c = memcmp(k, key->data, m);

			if (c > 0 || (c == 0 && kl >= key->len))
				return;
			leveldb_iter_next(it);
			s->st.merge_steps++;
		}
		if (!leveldb_iter_valid(it))
			return;
	}
	leveldb_iter_seek(it, key->data, key->len);
	s->st.store_reads++;
	*positioned = 1;
}

int seen_resolve(struct seen *s, const char *const *canon, size_t n, unsigned char *fresh,
    leveldb_writebatch_t *wb, char **err)
{
	leveldb_iterator_t *it = NULL;
	char *lerr = NULL;
	int positioned = 0;
	size_t i;

	s->st.batches++;
	for (i = 0; i < n; i++) {
		size_t len = strlen(canon[i]);
		uint64_t h = seen_hash(canon[i], len);
		size_t kl;
		const char *k;

		fresh[i] = 0;
		if (i > 0 && strcmp(canon[i], canon[i - 1]) == 0)
			continue;
		/* Recorded since it was held (a forced schedule, or the batch
		 * itself): memory knows, as it knows every unwritten URI. */
		if (seen_in_memory(s, canon[i], len, h))
			continue;
		if (it == NULL)
			it = leveldb_create_iterator(s->db, s->ro);
		buf_reset(&s->key);
		keys_seen(&s->key, canon[i]);
		seen_iter_advance(s, it, &positioned, &s->key);
		if (leveldb_iter_valid(it)) {
			k = leveldb_iter_key(it, &kl);
			if (kl == s->key.len && memcmp(k, s->key.data, kl) == 0) {
				urlset_add(s->mem, canon[i], len, h);
				continue;
			}
		}
		s->st.store_misses++;
		seen_record(s, canon[i], len, h, wb);
		fresh[i] = 1;
	}
	if (it != NULL) {
		leveldb_iter_get_error(it, &lerr);
		leveldb_iter_destroy(it);
	}
	if (lerr != NULL) {
		*err = xasprintf("reading the seen set: %s", lerr);
		leveldb_free(lerr);
		return -1;
	}
	return 0;
}

void seen_flushed(struct seen *s)
{
	urlset_seal(s->mem);
	seen_unwritten_clear(s);
}

/* One seen key read from the store: into the Bloom filter and, as far as
 * its budget allows, the memory set. Keys recorded since the load began
 * are not in the iterator's view, but they are in both layers already. */
static void seen_load_key(void *arg, const char *k, size_t kl)
{
	struct seen *s = arg;
	uint64_t h = seen_hash(k, kl);

	bloom_add(s->bloom, h);
	/* Loaded strings are in the store: the memory set may drop them, but
	 * stops taking them at its budget. A URI judged seen by the store
	 * since the load began may be there. */
	s->st.added++;
	if (urlset_has(s->mem, k, kl, h))
		return;
	if (s->loaded_all && urlset_fits(s->mem, kl))
		urlset_add(s->mem, k, kl, h);
	else
		s->loaded_all = 0;
}

/* Up to n more seen keys; the memory set is sealed when the load ends. */
static int seen_load_keys(struct seen *s, size_t n, char **err)
{
	int r =
	    keyscan_step(&s->load_it, KEYS_SEEN, n, seen_load_key, s, "loading the seen set", err);

	if (s->load_it == NULL)
		urlset_seal(s->mem);
	return r;
}

int seen_load(struct seen *s, char **err)
{
	s->load_it = keyscan_start(s->db, s->ro, KEYS_SEEN);
	return seen_load_keys(s, seen_load_open, err);
}

int seen_load_more(struct seen *s, char **err)
{
	if (s->load_it == NULL)
		return 0;
	return seen_load_keys(s, seen_load_step, err);
}

void seen_get_stats(const struct seen *s, struct seen_stats *out)
{
	struct urlset_stats us;

	*out = s->st;
	urlset_get_stats(s->mem, &us);
	out->memory_entries = us.entries;
	out->memory_evicted = us.evicted;
	out->memory_moved = us.moved;
	out->memory_bytes = us.bytes;
	out->memory_budget = us.budget;
	out->memory_complete = seen_complete(s);
	out->bloom_bytes = bloom_bytes(s->bloom);
	out->bloom_layers = bloom_layers(s->bloom);
}
