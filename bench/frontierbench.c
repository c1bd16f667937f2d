/* Frontier throughput on a simulated clock, no network: schedule, next and
 * finish operations per second over a real LevelDB store, and the process's
 * resident memory after each phase.
 *
 *   bench/frontierbench [-p MODE] [-b BALANCE] [-d DUPS] [-t TAKE] [URIS [HOSTS [DIR]]]
 *   (defaults 1000000 10000 /tmp)
 *
 * MODE sets the budget and precedence policies, to measure what they cost:
 *   default  the configuration defaults (unit cost, balance 3000, hold-queues)
 *   off      zero cost, base URI and queue precedence, no rotation, no total
 *            budget, hold-queues false: the bookkeeping does nothing
 *   off-hold off with hold-queues true: queues site-first, one at a time,
 *            as with the policies on, so the access pattern is comparable
 *   highest  unit cost, cost URI precedence, rotation every 21 URIs
 *            (balance 20), a total budget checked at every poll (never
 *            reached), hold-queues, highest-uri queue precedence
 *   success  as highest, with success-counts queue precedence (10,10), so
 *            queues are demoted and yield as the crawl goes
 * -b BALANCE replaces the mode's balance-replenish-amount (0: no rotation).
 * -d DUPS is the number of already-seen URIs scheduled per new one (default
 * 1; 0 measures the queue alone, as bench/run's 10M-URI curve does, where
 * the duplicates' store reads would take most of the time).
 * -t TAKE stops phase 2 after TAKE next+finish pairs (default all): the rate
 * with a huge queue is measured without draining all of it.
 *
 * Phase 1 schedules URIS new URIs spread over HOSTS queues, plus DUPS
 * times as many already-seen ones (a crawl's outlinks are mostly duplicates), flushing
 * every 1000 URIs as the crawl loop would once per iteration. Phase 2 takes
 * and finishes every URI with no politeness delay, flushing every 256
 * operations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "frontier/frontier.h"

static double frontierbench_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The highest RssAnon and RssFile seen by frontierbench_rss. RSS has two
 * parts: anonymous memory (the heap: what the frontier holds) and file
 * pages mapped by LevelDB, which reads its tables through mmap; those are
 * page cache the kernel takes back under pressure (in a memory cgroup
 * too), yet they count in VmRSS and VmHWM. */
static long frontierbench_anon_peak, frontierbench_file_peak;

/* VmRSS and VmHWM in KiB from /proc/self/status; tracks the peaks above. */
static void frontierbench_rss(long *rss, long *hwm)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	long v;

	*rss = *hwm = -1;
	if (fp == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0) {
			*rss = strtol(line + 6, NULL, 10);
		} else if (strncmp(line, "VmHWM:", 6) == 0) {
			*hwm = strtol(line + 6, NULL, 10);
		} else if (strncmp(line, "RssAnon:", 8) == 0) {
			v = strtol(line + 8, NULL, 10);
			if (v > frontierbench_anon_peak)
				frontierbench_anon_peak = v;
		} else if (strncmp(line, "RssFile:", 8) == 0) {
			v = strtol(line + 8, NULL, 10);
			if (v > frontierbench_file_peak)
				frontierbench_file_peak = v;
		}
	}
	fclose(fp);
}

static void frontierbench_schedule(struct frontier *f, unsigned long i, unsigned long hosts)
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

static void frontierbench_flush(struct frontier *f)
{
	char *err = NULL;

	if (frontier_flush(f, &err) < 0) {
		fprintf(stderr, "flush: %s\n", err);
		exit(1);
	}
}

/* 0, or -1 if mode is unknown. */
static int frontierbench_mode(struct frontier_options *o, const char *mode)
{
	struct policy_settings *d = &o->defaults;

	frontier_options_defaults(o);
	if (strcmp(mode, "default") == 0)
		return 0;
	if (strcmp(mode, "off") == 0 || strcmp(mode, "off-hold") == 0) {
		d->cost_policy = POLICY_COST_ZERO;
		d->uri_policy = POLICY_URI_BASE;
		d->queue_policy = POLICY_QUEUE_BASE;
		d->balance_replenish = 0;
		d->total_budget = -1;
		o->hold_queues = strcmp(mode, "off-hold") == 0;
		return 0;
	}
	if (strcmp(mode, "highest") != 0 && strcmp(mode, "success") != 0)
		return -1;
	d->cost_policy = POLICY_COST_UNIT;
	d->uri_policy = POLICY_URI_COST;
	d->balance_replenish = 20;
	d->total_budget = INT64_MAX / 2;
	o->hold_queues = 1;
	if (strcmp(mode, "highest") == 0) {
		d->queue_policy = POLICY_QUEUE_HIGHEST_URI;
	} else {
		d->queue_policy = POLICY_QUEUE_SUCCESS_COUNTS;
		d->success_counts[0] = 10;
		d->success_counts[1] = 10;
		d->nsuccess_counts = 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = "default";
	long long balance = -1;
	unsigned long dups = 1, take = 0;
	unsigned long n, hosts;
	const char *base;
	struct frontier_options o;
	struct frontier *f;
	struct frontier_counts cnt;
	struct curi *c;
	char dir[256], *err = NULL, cmd[300];
	unsigned long i, done = 0;
	uint64_t now = 1000000, wake;
	double t0, t1, t2;
	long rss, hwm;

	while (argc > 2 &&
	    (strcmp(argv[1], "-p") == 0 || strcmp(argv[1], "-b") == 0 ||
		strcmp(argv[1], "-d") == 0 || strcmp(argv[1], "-t") == 0)) {
		if (argv[1][1] == 'p')
			mode = argv[2];
		else if (argv[1][1] == 'b')
			balance = strtoll(argv[2], NULL, 10);
		else if (argv[1][1] == 'd')
			dups = strtoul(argv[2], NULL, 10);
		else
			take = strtoul(argv[2], NULL, 10);
		argc -= 2;
		argv += 2;
	}
	n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	hosts = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000;
	base = argc > 3 ? argv[3] : "/tmp";
	if (n == 0 || hosts == 0 || frontierbench_mode(&o, mode) < 0) {
		fprintf(stderr,
		    "usage: frontierbench [-p default|off|off-hold|highest|success] "
		    "[-b BALANCE] [-d DUPS] [-t TAKE] [URIS [HOSTS [DIR]]]\n");
		return 2;
	}
	if (balance >= 0)
		o.defaults.balance_replenish = balance;
	snprintf(dir, sizeof(dir), "%s/frontierbench.%ld", base, (long)getpid());
	/* Politeness off, as a fast crawl of many hosts. */
	f = frontier_open_opts(dir, &o, 1, now, &err);
	if (f == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	t0 = frontierbench_secs();
	for (i = 0; i < n; i++) {
		frontierbench_schedule(f, i, hosts);
		for (unsigned long d = 1; d <= dups; d++)
			frontierbench_schedule(f, i / (d + 1), hosts); /* already seen */
		if (i % 1000 == 999)
			frontierbench_flush(f);
		if (i % 50000 == 49999)
			frontierbench_rss(&rss, &hwm);
	}
	frontierbench_flush(f);
	t1 = frontierbench_secs();
	frontierbench_rss(&rss, &hwm);
	printf("policies %s balance %lld uris %lu hosts %lu duplicates %lu\n", mode,
	    (long long)o.defaults.balance_replenish, n, hosts, dups);
	printf("schedule: %lu calls (%lu duplicates) in %.2f s = %.0f/s; RSS %ld KiB\n",
	    (dups + 1) * n, dups * n, t1 - t0, (double)(dups + 1) * n / (t1 - t0), rss);
	if (take == 0 || take > n)
		take = n;
	while (done < take) {
		int got = 0;

		while (done < take && frontier_next(f, now, &c, &wake) == 1) {
			frontier_finish(f, c, FRONTIER_SUCCESS, now, 0);
			done++;
			if (++got % 256 == 0)
				frontierbench_flush(f);
			if (done % 50000 == 0)
				frontierbench_rss(&rss, &hwm);
		}
		frontierbench_flush(f);
		if (done >= take || wake == UINT64_MAX)
			break;
		if (wake > now)
			now = wake;
	}
	t2 = frontierbench_secs();
	frontierbench_rss(&rss, &hwm);
	frontier_counts(f, &cnt);
	printf("next+finish: %lu pairs in %.2f s = %.0f/s; RSS %ld KiB, peak %ld KiB\n", done,
	    t2 - t1, (double)done / (t2 - t1), rss, hwm);
	printf("memory: anonymous peak %ld KiB; file-backed peak %ld KiB (sampled every 50,000 "
	       "operations)\n",
	    frontierbench_anon_peak, frontierbench_file_peak);
	printf("succeeded %llu queued %llu finished %d\n", (unsigned long long)cnt.succeeded,
	    (unsigned long long)cnt.queued, frontier_is_finished(f));
	frontier_close(f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return done == take ? 0 : 1;
}
