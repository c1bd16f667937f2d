/* Throughput of the robots.txt parser: parses per second and robots_allowed
 * checks per second, for a typical file, a large site's file and a hostile
 * 500 KiB file of wildcard rules. Prints figures; asserts nothing.
 * usage: robotsbench [seconds-per-figure, default 1] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/buf.h"
#include "lib/robots.h"

static double robotsbench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void robotsbench_typical(struct buf *b)
{
	buf_appends(b,
	    "# robots.txt\nUser-agent: *\nDisallow: /cgi-bin/\nDisallow: /tmp/\n"
	    "Disallow: /*?sessionid=\nDisallow: /*.pdf$\nAllow: /tmp/public/\n"
	    "Crawl-delay: 2\n\nUser-agent: googlebot\nDisallow: /nogoogle/\n\n"
	    "Sitemap: https://example.com/sitemap.xml\n");
}

static void robotsbench_large(struct buf *b)
{
	int i;

	buf_appends(b, "User-agent: *\n");
	for (i = 0; i < 400; i++)
		buf_appendf(b,
		    "Disallow: /section%d/private/\nAllow: /section%d/private/ok*.html$\n", i, i);
	buf_appends(b, "User-agent: otherbot\nDisallow: /\n");
}

static void robotsbench_hostile(struct buf *b)
{
	int i = 0;

	buf_appends(b, "User-agent: *\n");
	while (b->len < ROBOTS_MAX_BODY)
		buf_appendf(b, "Disallow: /*%x*z*q$\n", i++);
}

static const char *const robotsbench_paths[] = {
    "/",
    "/index.html",
    "/section12/private/ok-page.html",
    "/section399/private/secret",
    "/tmp/public/a.png",
    "/cgi-bin/x?y=1",
    "/products/list?page=3&sessionid=abcdef",
    "/docs/manual.pdf",
    "/a/very/long/path/that/goes/on/and/on/with/segments/index.html?q=1&r=2",
};

static void robotsbench_run(const char *name, const struct buf *body, double secs)
{
	size_t npaths = sizeof(robotsbench_paths) / sizeof(robotsbench_paths[0]);
	struct robots *r;
	double t0, t;
	long n = 0;
	long allowed = 0;

	t0 = robotsbench_now();
	do {
		r = robots_parse(body->data, body->len, "tern");
		robots_free(r);
		n++;
	} while ((t = robotsbench_now() - t0) < secs);
	printf("%-8s %7zu bytes: %10.0f parses/s (%6.1f MB/s)", name, body->len, n / t,
	    n * (double)body->len / t / 1e6);

	r = robots_parse(body->data, body->len, "tern");
	n = 0;
	t0 = robotsbench_now();
	do {
		size_t i;

		for (i = 0; i < npaths; i++)
			allowed +=
			    robots_allowed(r, robotsbench_paths[i], strlen(robotsbench_paths[i]));
		n += (long)npaths;
	} while ((t = robotsbench_now() - t0) < secs);
	printf(", %12.0f allowed()/s (%zu rules, %zu bytes held, %ld allowed)\n", n / t,
	    robots_rule_count(r), robots_size(r), allowed);
	robots_free(r);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	struct buf b = BUF_INIT;

	if (secs <= 0)
		secs = 1.0;
	robotsbench_typical(&b);
	robotsbench_run("typical", &b, secs);
	buf_reset(&b);
	robotsbench_large(&b);
	robotsbench_run("large", &b, secs);
	buf_reset(&b);
	robotsbench_hostile(&b);
	robotsbench_run("hostile", &b, secs);
	buf_free(&b);
	return 0;
}
