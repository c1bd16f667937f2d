/* Checkpoint cost with a large frontier: the time checkpoint_create takes
 * (it runs on the loop thread, so this is the longest loop stall it
 * causes), split into the store's flush and synchronous marker and the
 * freeze of its files, and the time to restore and reopen.
 *
 *   bench/checkpointbench [URIS [HOSTS [DIR]]]    (defaults 1000000 10000 /tmp)
 *
 * URIS new URIs are scheduled over HOSTS queues, flushed every 1000 as the
 * crawl loop would once per iteration (as bench/frontierbench). Then five
 * checkpoints are taken, each after another 20000 URIs, so the store is
 * being flushed and compacted around them; then the last is restored and
 * the frontier reopened from it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crawl/checkpoint.h"
#include "frontier/frontier.h"
#include "lib/xmalloc.h"

static double checkpointbench_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void checkpointbench_fill(
    struct frontier *f, unsigned long from, unsigned long n, unsigned long hosts)
{
	char uri[128], host[64], *err = NULL;
	struct curi c;

	for (unsigned long i = from; i < from + n; i++) {
		memset(&c, 0, sizeof c);
		snprintf(host, sizeof host, "com,host%lu,", i % hosts);
		snprintf(uri, sizeof uri, "http://host%lu.com/page/%lu.html", i % hosts, i / hosts);
		c.uri = uri;
		c.via = (char *)"http://host0.com/";
		c.hops = (char *)"L";
		c.directive = 3;
		c.cost = -1;
		if (frontier_schedule(f, &c, uri, host, host, 0) < 0) {
			fprintf(stderr, "schedule failed: %s\n", frontier_error(f));
			exit(1);
		}
		if (i % 1000 == 999 && frontier_flush(f, &err) < 0) {
			fprintf(stderr, "flush: %s\n", err);
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long uris = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	unsigned long hosts = argc > 2 ? strtoul(argv[2], NULL, 10) : 10000;
	const char *base = argc > 3 ? argv[3] : "/tmp";
	char *job = xasprintf("%s/checkpointbench.%d", base, (int)getpid());
	char *store = xasprintf("%s/state/frontier", job), *cmd, *err = NULL;
	char name[CHECKPOINT_NAME_MAX];
	struct frontier_options o;
	struct frontier *f;
	struct checkpoint_parts p;
	struct checkpoint_timing t;
	struct checkpoint_restored r;
	double t0, worst = 0;
	uint64_t next = uris;

	cmd = xasprintf("mkdir -p %s/state %s/logs", job, job);
	if (system(cmd) != 0)
		return 1;
	free(cmd);
	frontier_options_defaults(&o);
	o.cache_mb = 8;
	o.write_buffer_mb = 4;
	f = frontier_open_opts(store, &o, 1, 1000000, &err);
	if (f == NULL) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	t0 = checkpointbench_secs();
	checkpointbench_fill(f, 0, uris, hosts);
	printf("filled %lu URIs over %lu queues in %.1f s\n", uris, hosts,
	    checkpointbench_secs() - t0);
	memset(&p, 0, sizeof p);
	p.frontier = f;
	for (int i = 0; i < 5; i++) {
		checkpointbench_fill(f, next, 20000, hosts);
		next += 20000;
		if (checkpoint_create(job, &p, name, &t, &err) < 0) {
			fprintf(stderr, "checkpoint: %s\n", err);
			return 1;
		}
		printf("%s: %.1f ms (flush+sync marker %.1f ms, freeze %.1f ms: %u tables linked, "
		       "%.1f MiB copied, %u attempt%s)\n",
		    name, t.total_us / 1000.0, t.mark_us / 1000.0, t.freeze_us / 1000.0, t.tables,
		    t.copied_bytes / 1048576.0, t.attempts, t.attempts == 1 ? "" : "s");
		if (t.total_us / 1000.0 > worst)
			worst = t.total_us / 1000.0;
	}
	printf("longest loop stall from a checkpoint: %.1f ms\n", worst);
	frontier_close(f);
	t0 = checkpointbench_secs();
	if (checkpoint_restore(job, "latest", &r, &err) < 0) {
		fprintf(stderr, "restore: %s\n", err);
		return 1;
	}
	printf("restore (links, copies, verify): %.1f ms\n", (checkpointbench_secs() - t0) * 1000);
	t0 = checkpointbench_secs();
	f = frontier_open_opts(store, &o, 0, 1000000, &err);
	if (f == NULL) {
		fprintf(stderr, "reopen: %s\n", err);
		return 1;
	}
	{
		struct frontier_counts c;
		frontier_counts(f, &c);
		printf("reopen from it: %.1f s, %" PRIu64 " queued\n", checkpointbench_secs() - t0,
		    c.queued);
	}
	frontier_close(f);
	cmd = xasprintf("rm -rf %s", job);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", job);
	free(cmd);
	free(job);
	free(store);
	return 0;
}
