/* libFuzzer target for src/lib/robots.c: the input is a robots.txt body, and the
 * same bytes are also tried as a serialized verdict and as paths. Checks that
 * nothing crashes and that serialization round-trips to the same verdicts;
 * the body's Sitemap: values are non-empty and hold no white space. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/robots.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fuzz_robots_paths[] = {
    "/",
    "/a",
    "/a/b.gif",
    "/private/x?y=1",
    "/%7Ea",
    "/a%2Fb",
    "/caf%C3%A9",
    "",
    "/robots.txt",
};

static void fuzz_robots_sitemap_cb(void *arg, const char *url, size_t n)
{
	size_t i;

	(void)arg;
	if (n == 0)
		abort();
	for (i = 0; i < n; i++)
		if (url[i] == ' ' || url[i] == '\t' || url[i] == '\n' || url[i] == '\r')
			abort();
}

static void fuzz_robots_check(
    const struct robots *r, const struct robots *back, const char *p, size_t n)
{
	if (robots_allowed(r, p, n) != robots_allowed(back, p, n))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *body = (const char *)data;
	struct robots *r = robots_parse(body, size, "tern");
	struct robots *back, *raw;
	struct buf s = BUF_INIT;
	size_t i, off;

	robots_sitemaps(body, size, fuzz_robots_sitemap_cb, NULL);
	robots_serialize(r, &s);
	back = robots_deserialize(s.data, s.len);
	if (back == NULL || robots_crawl_delay_ms(back) != robots_crawl_delay_ms(r) ||
	    robots_rule_count(back) != robots_rule_count(r))
		abort();
	for (i = 0; i < sizeof(fuzz_robots_paths) / sizeof(fuzz_robots_paths[0]); i++)
		fuzz_robots_check(r, back, fuzz_robots_paths[i], strlen(fuzz_robots_paths[i]));
	/* Each line of the input is also a path to check. */
	for (off = 0; off < size;) {
		const char *nl = memchr(body + off, '\n', size - off);
		size_t n = nl != NULL ? (size_t)(nl - (body + off)) : size - off;

		fuzz_robots_check(r, back, body + off, n);
		off += n + 1;
	}
	raw = robots_deserialize(body, size);
	if (raw != NULL) {
		(void)robots_allowed(raw, "/a/b", 4);
		robots_free(raw);
	}
	robots_free(back);
	robots_free(r);
	buf_free(&s);
	return 0;
}
