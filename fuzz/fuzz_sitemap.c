/* libFuzzer target for the sitemap parser: hostile XML, gzip'd or not,
 * must give a result and entries, never a crash, a leak or unbounded
 * memory. Beyond memory safety it checks that the entries and the result
 * do not depend on how the body is cut into reads (the first byte picks
 * the read size), and that every entry is well-formed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/sitemap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_sitemap_tally {
	uint64_t entries;
	uint64_t hash;
};

static int fuzz_sitemap_cb(void *arg, enum sitemap_kind kind, const struct sitemap_entry *e)
{
	struct fuzz_sitemap_tally *t = arg;
	const unsigned char *p;

	if (e->loc == NULL || e->loc[0] == '\0' || strlen(e->loc) > SITEMAP_FIELD_MAX)
		abort();
	if (e->priority != -1 && !(e->priority >= 0.0 && e->priority <= 1.0))
		abort();
	if (kind != SITEMAP_URLSET && kind != SITEMAP_INDEX)
		abort();
	t->entries++;
	for (p = (const unsigned char *)e->loc; *p != '\0'; p++)
		t->hash = (t->hash ^ *p) * 1099511628211ull;
	t->hash = (t->hash ^ (uint64_t)e->lastmod_ms ^ (uint64_t)e->changefreq) * 1099511628211ull;
	return 0;
}

static enum sitemap_result fuzz_sitemap_run(
    const uint8_t *data, size_t size, size_t chunk, struct fuzz_sitemap_tally *t)
{
	struct sitemap *s = sitemap_new(fuzz_sitemap_cb, t);
	enum sitemap_result r = SITEMAP_OK;
	size_t at = 0;

	/* Small limits, so that they are reached. */
	sitemap_set_limits(s, 64, 1u << 16);
	while (at < size && r == SITEMAP_OK) {
		size_t k = size - at < chunk ? size - at : chunk;

		r = sitemap_feed(s, (const char *)data + at, k);
		at += k;
	}
	if (r == SITEMAP_OK)
		r = sitemap_finish(s);
	if (sitemap_entries(s) != t->entries || sitemap_bytes(s) > (1u << 16))
		abort();
	sitemap_free(s);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_sitemap_tally whole = {0, 14695981039346656037ull};
	struct fuzz_sitemap_tally cut = whole;
	size_t chunk;

	if (size == 0)
		return 0;
	chunk = (size_t)(data[0] % 31) + 1;
	data++;
	size--;
	if (fuzz_sitemap_run(data, size, size > 0 ? size : 1, &whole) !=
		fuzz_sitemap_run(data, size, chunk, &cut) ||
	    whole.entries != cut.entries || whole.hash != cut.hash)
		abort();
	return 0;
}
