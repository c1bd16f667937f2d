/* Frontier throughput on a simulated clock, no network: schedule, next and
 * finish operations per second over a real LevelDB store, and the process's
 * resident memory after each phase.
 *
 *   bench/frontierbench [URIS [HOSTS [DIR]]]     (defaults 1000000 10000 /tmp)
 *
 * Phase 1 schedules URIS new URIs spread over HOSTS queues, plus as many
 * already-seen ones (a crawl's outlinks are mostly duplicates), flushing
 * every 1000 URIs as the crawl loop would once per iteration. Phase 2 takes
 * and finishes every URI with no politeness delay, flushing every 256
 * operations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "frontier.h"

static double
frontierbench_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* VmRSS and VmHWM in KiB from /proc/self/status. */
static void
frontierbench_rss(long *rss, long *hwm)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];

	*rss = *hwm = -1;
	if (fp == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			*rss = strtol(line + 6, NULL, 10);
		else if (strncmp(line, "VmHWM:", 6) == 0)
			*hwm = strtol(line + 6, NULL, 10);
	}
	fclose(fp);
}

static void
frontierbench_schedule(struct frontier *f, unsigned long i, unsigned long hosts)
{
	char uri[128], host[64];
	struct curi c;

	memset(&c, 0, sizeof(c));
	snprintf(host, sizeof(host), "com,host%lu,", i % hosts);
	snprintf(uri, sizeof(uri), "http://host%lu.com/page/%lu.html", i % hosts, i / hosts);
	c.uri = uri;
	c.via = (char *)"http://host0.com/";
	c.hops = (char *)"L";
	c.directive = 3;
	c.cost = -1;
	if (frontier_schedule(f, &c, uri, host, host, 0) < 0) {
		fprintf(stderr, "schedule failed: %s\n", frontier_error(f));
		exit(1);
	}
}

static void
frontierbench_flush(struct frontier *f)
{
	char *err = NULL;

	if (frontier_flush(f, &err) < 0) {
		fprintf(stderr, "flush: %s\n", err);
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	unsigned long hosts = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000;
	const char *base = argc > 3 ? argv[3] : "/tmp";
	struct frontier_options o;
	struct frontier *f;
	struct frontier_counts cnt;
	struct curi *c;
	char dir[256], *err = NULL, cmd[300];
	unsigned long i, done = 0;
	uint64_t now = 1000000, wake;
	double t0, t1, t2;
	long rss, hwm;

	if (n == 0 || hosts == 0) {
		fprintf(stderr, "usage: frontierbench [URIS [HOSTS [DIR]]]\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/frontierbench.%ld", base, (long)getpid());
	frontier_options_defaults(&o);
	/* Politeness off and rotation on, as a fast crawl of many hosts. */
	f = frontier_open_opts(dir, &o, 1, now, &err);
	if (f == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	t0 = frontierbench_secs();
	for (i = 0; i < n; i++) {
		frontierbench_schedule(f, i, hosts);
		frontierbench_schedule(f, i / 2, hosts);   /* already seen */
		if (i % 1000 == 999)
			frontierbench_flush(f);
	}
	frontierbench_flush(f);
	t1 = frontierbench_secs();
	frontierbench_rss(&rss, &hwm);
	printf("uris %lu hosts %lu\n", n, hosts);
	printf("schedule: %lu calls (half duplicates) in %.2f s = %.0f/s; RSS %ld KiB\n",
	    2 * n, t1 - t0, 2 * (double)n / (t1 - t0), rss);
	for (;;) {
		int got = 0;

		while (frontier_next(f, now, &c, &wake) == 1) {
			frontier_finish(f, c, FRONTIER_SUCCESS, now, 0);
			done++;
			if (++got % 256 == 0)
				frontierbench_flush(f);
		}
		frontierbench_flush(f);
		if (wake == UINT64_MAX)
			break;
		if (wake > now)
			now = wake;
	}
	t2 = frontierbench_secs();
	frontierbench_rss(&rss, &hwm);
	frontier_counts(f, &cnt);
	printf("next+finish: %lu pairs in %.2f s = %.0f/s; RSS %ld KiB, peak %ld KiB\n",
	    done, t2 - t1, (double)done / (t2 - t1), rss, hwm);
	printf("succeeded %llu queued %llu finished %d\n", (unsigned long long)cnt.succeeded,
	    (unsigned long long)cnt.queued, frontier_is_finished(f));
	frontier_close(f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return done == n ? 0 : 1;
}
