/* URL throughput: resolutions per second of a mix of links as pages have
 * them, with the base parsed per call (url_resolve) and once per page
 * (url_resolve_parsed), and the already-seen key and SURT per second.
 *   bench/urlbench [ITERATIONS]    (default 200000 rounds of the mix) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/canon.h"
#include "lib/surt.h"
#include "lib/url.h"

static const char *const urlbench_links[] = {
    "index.html",
    "../css/style.css?ver=5.8.1",
    "/images/logo.png",
    "//cdn.example.net/js/app.min.js",
    "https://www.example.org/articles/2024/05/some-long-article-title.html",
    "?page=2&sort=date",
    "#top",
    "/search?q=caf\xc3\xa9+au+lait&lang=fr",
    "http://M\xc3\xbcnchen.example/stra\xc3\x9f"
    "e",
    "  ./a/b/../c/d.html\n",
};
#define URLBENCH_N (sizeof(urlbench_links) / sizeof(urlbench_links[0]))

static double urlbench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *base = "https://www.example.com/news/world/article.html?id=42";
	long rounds = argc > 1 ? atol(argv[1]) : 200000, r;
	size_t lens[URLBENCH_N], i, n = 0;
	struct buf out = BUF_INIT, key = BUF_INIT;
	struct url_parts bp;
	double t0, t;

	for (i = 0; i < URLBENCH_N; i++)
		lens[i] = strlen(urlbench_links[i]);
	t0 = urlbench_now();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < URLBENCH_N; i++)
			n += url_resolve(base, urlbench_links[i], lens[i], &out) == 0;
	t = urlbench_now() - t0;
	printf("url_resolve (base parsed per call): %.0f resolutions/s (%zu ok)\n",
	    (double)rounds * URLBENCH_N / t, n);

	if (url_split(base, &bp) != 0)
		return 1;
	n = 0;
	t0 = urlbench_now();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < URLBENCH_N; i++)
			n += url_resolve_parsed(base, &bp, urlbench_links[i], lens[i], &out) == 0;
	t = urlbench_now() - t0;
	printf("url_resolve_parsed (base split once): %.0f resolutions/s (%zu ok)\n",
	    (double)rounds * URLBENCH_N / t, n);

	url_resolve(base, urlbench_links[1], lens[1], &out);
	t0 = urlbench_now();
	for (r = 0; r < rounds * (long)URLBENCH_N; r++)
		canon_key(out.data, CANON_DEFAULT, &key);
	t = urlbench_now() - t0;
	printf("canon_key: %.0f keys/s\n", (double)rounds * URLBENCH_N / t);

	t0 = urlbench_now();
	for (r = 0; r < rounds * (long)URLBENCH_N; r++)
		surt_from_url(out.data, 1, &key);
	t = urlbench_now() - t0;
	printf("surt_from_url: %.0f SURTs/s\n", (double)rounds * URLBENCH_N / t);
	buf_free(&out);
	buf_free(&key);
	return 0;
}
