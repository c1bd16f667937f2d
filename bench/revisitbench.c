/* Memory of a continuous crawl's revisit schedule: URIS URIs over HOSTS
 * queues are visited (taken and finished with a fetch history) and parked
 * for their revisit, spread over the next hour, on a simulated clock over a
 * real LevelDB store; then the clock moves two hours on and every URI is
 * revisited once more and parked again. The process's anonymous resident
 * memory (the heap: what the frontier holds; LevelDB's mapped table pages
 * are file-backed page cache and shown apart) is sampled as the schedule
 * grows and as it cycles, so a schedule held in memory would show as
 * growth with the parked count.
 *
 *   bench/revisitbench [URIS [HOSTS [DIR]]]   (defaults 1000000 10000 /tmp)
 *
 * Output: one line per sample: phase, URIs parked, RssAnon and RssFile in
 * KiB, seconds since the start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "frontier/frontier.h"
#include "lib/history.h"

static double revisitbench_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* RssAnon and RssFile in KiB from /proc/self/status. */
static void revisitbench_rss(long *anon, long *file)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];

	*anon = *file = -1;
	if (fp == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strncmp(line, "RssAnon:", 8) == 0)
			*anon = strtol(line + 8, NULL, 10);
		else if (strncmp(line, "RssFile:", 8) == 0)
			*file = strtol(line + 8, NULL, 10);
	}
	fclose(fp);
}

static void revisitbench_flush(struct frontier *f)
{
	char *err = NULL;

	if (frontier_flush(f, &err) < 0) {
		fprintf(stderr, "revisitbench: flush: %s\n", err);
		exit(1);
	}
}

static void revisitbench_sample(const char *phase, struct frontier *f, double t0)
{
	struct frontier_counts n;
	long anon, file;

	frontier_counts(f, &n);
	revisitbench_rss(&anon, &file);
	printf("%-8s %10llu parked %8ld KiB anon %8ld KiB file %7.1f s\n", phase,
	    (unsigned long long)n.revisits, anon, file, revisitbench_secs() - t0);
	fflush(stdout);
}

/* Takes and finishes up to n URIs at now, each parked due within the hour
 * after base; samples at each tenth. Returns the number finished. */
static unsigned long revisitbench_cycle(
    struct frontier *f, const char *phase, unsigned long n, uint64_t now, uint64_t base, double t0)
{
	unsigned long done = 0, next_sample = n / 10;
	struct curi *c;
	uint64_t wake;

	while (done < n) {
		if (frontier_next(f, now, &c, &wake) != 1) {
			/* Released a bounded number per flush: flush and go on. */
			revisitbench_flush(f);
			if (frontier_next(f, now, &c, &wake) != 1)
				break;
		}
		if (c->history == NULL) {
			c->history = history_new();
			c->history->etag = strdup("\"5f2b-3a0c6e1d\"");
			c->history->last_modified = strdup("Tue, 15 Nov 1994 12:45:26 GMT");
		}
		free(c->history->digest);
		c->history->digest = strdup("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
		c->history->content_us = (int64_t)now * 1000;
		c->history->last_visit_ms = (int64_t)now;
		c->history->visits++;
		c->history->interval_s = 3600;
		frontier_finish_revisit(
		    f, c, FRONTIER_SUCCESS, now, 0, base + (done * 997 % 3600) * 1000);
		done++;
		if (done % 256 == 0)
			revisitbench_flush(f);
		if (done == next_sample) {
			revisitbench_sample(phase, f, t0);
			next_sample += n / 10;
		}
	}
	revisitbench_flush(f);
	return done;
}

/* The hosts of one partition in 64 (h0, h64, h128...). */
static int revisitbench_one_in_64(void *ctx, const char *uri)
{
	(void)ctx;
	return strtoul(uri + strlen("http://h"), NULL, 10) % 64 == 0;
}

int main(int argc, char **argv)
{
	unsigned long uris = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	unsigned long hosts = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000;
	const char *base = argc > 3 ? argv[3] : "/tmp";
	struct frontier_options o;
	struct frontier *f;
	char dir[256], uri[128], key[64], *err = NULL, cmd[300];
	uint64_t now = 1700000000000ull;
	double t0 = revisitbench_secs();
	unsigned long i, done;

	if (uris == 0 || hosts == 0) {
		fprintf(stderr, "usage: bench/revisitbench [URIS [HOSTS [DIR]]]\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/revisitbench.%ld", base, (long)getpid());
	frontier_options_defaults(&o);
	o.hold_queues = 0;
	o.defaults.balance_replenish = 0;
	f = frontier_open_opts(dir, &o, 1, now, &err);
	if (f == NULL) {
		fprintf(stderr, "revisitbench: %s\n", err);
		return 1;
	}
	revisitbench_sample("start", f, t0);
	for (i = 0; i < uris; i++) {
		struct curi *c;

		snprintf(uri, sizeof(uri), "http://h%lu.example/p/%lu.html", i % hosts, i);
		snprintf(key, sizeof(key), "example,h%lu,", i % hosts);
		c = curi_new(uri, NULL, "", CURI_SEED);
		if (frontier_schedule(f, c, uri, key, key, 0) < 0) {
			fprintf(stderr, "revisitbench: schedule failed\n");
			return 1;
		}
		curi_free(c);
		if (i % 1000 == 999)
			revisitbench_flush(f);
	}
	revisitbench_flush(f);
	revisitbench_sample("queued", f, t0);
	/* First visits: the schedule grows from 0 to every URI. */
	done = revisitbench_cycle(f, "visit", uris, now, now + 3600000, t0);
	if (done != uris) {
		fprintf(stderr, "revisitbench: %lu of %lu first visits\n", done, uris);
		return 1;
	}
	/* Two hours on, all are due: each is revisited and parked again. */
	now += 2 * 3600000;
	done = revisitbench_cycle(f, "revisit", uris, now, now + 3600000, t0);
	if (done != uris) {
		fprintf(stderr, "revisitbench: %lu of %lu revisits\n", done, uris);
		return 1;
	}
	/* Cluster mode: a node gives one partition of 64 up, its queued and
	 * waiting URIs dropped (doc/cluster.md, "Continuous crawls"). */
	{
		double t = revisitbench_secs();
		long n = frontier_drop_where(f, revisitbench_one_in_64, NULL, &err);

		if (n < 0) {
			fprintf(stderr, "revisitbench: drop: %s\n", err);
			return 1;
		}
		printf("drop     %10ld URIs of 1 host in 64 given up in %.2f s\n", n,
		    revisitbench_secs() - t);
	}
	frontier_close(f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "revisitbench: could not remove %s\n", dir);
	return 0;
}
