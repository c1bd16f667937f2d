/* libFuzzer target for the feed parser (src/crawl/feed.c): hostile XML
 * must give a result and links, never a crash, a leak or unbounded
 * memory. Beyond memory safety it checks that the links and the result do
 * not depend on how the body is cut into reads (the first byte picks the
 * read size), and that every link is an absolute http(s) URL with a hop of
 * L or E. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "crawl/feed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_feed_tally {
	uint64_t links;
	uint64_t hash;
};

static void fuzz_feed_cb(void *arg, const struct feed_link *l)
{
	struct fuzz_feed_tally *t = arg;

	if (l->len == 0 || strlen(l->url) != l->len || (l->hop != 'L' && l->hop != 'E') ||
	    (strncmp(l->url, "http://", 7) != 0 && strncmp(l->url, "https://", 8) != 0))
		abort();
	t->links++;
	for (size_t i = 0; i < l->len; i++)
		t->hash = (t->hash ^ (unsigned char)l->url[i]) * 1099511628211ull;
	t->hash = (t->hash ^ (unsigned char)l->hop) * 1099511628211ull;
}

static enum feed_result fuzz_feed_run(
    const uint8_t *data, size_t size, size_t chunk, struct fuzz_feed_tally *t)
{
	struct feed *f = feed_new("http://fuzz.test/a/feed.xml", fuzz_feed_cb, t);
	enum feed_result r = FEED_OK;
	size_t at = 0;

	/* Small limits, so that they are reached. */
	feed_set_limits(f, 64, 1u << 16);
	while (at < size && r == FEED_OK) {
		size_t k = size - at < chunk ? size - at : chunk;

		r = feed_data(f, (const char *)data + at, k);
		at += k;
	}
	if (r == FEED_OK)
		r = feed_finish(f);
	if (feed_links(f) != t->links || t->links > 64)
		abort();
	feed_free(f);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_feed_tally whole = {0, 14695981039346656037ull};
	struct fuzz_feed_tally cut = whole;
	size_t chunk;

	if (size == 0)
		return 0;
	chunk = (size_t)(data[0] % 31) + 1;
	data++;
	size--;
	if (fuzz_feed_run(data, size, size > 0 ? size : 1, &whole) !=
		fuzz_feed_run(data, size, chunk, &cut) ||
	    whole.links != cut.links || whole.hash != cut.hash)
		abort();
	return 0;
}
