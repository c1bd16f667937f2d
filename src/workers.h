/* tern crawl --workers N: N local tern processes sharing one crawl in
 * cluster mode (doc/cluster.md), over a nats-server this command starts
 * (loopback, an ephemeral port, its store in JOBDIR/nats) when no
 * cluster.url is configured. JOBDIR holds workers.json, nats/ and one job
 * directory per worker (w0, w1, ...); seeds go to w0. `tern resume JOBDIR`
 * starts them again, `tern ctl` and `tern report` act through w0. */
#ifndef TERN_WORKERS_H
#define TERN_WORKERS_H
#include <stddef.h>

struct workers_opts {
	const char *jobdir;
	unsigned n;
	const char *url;      /* cluster.url, or NULL/"" to start a server */
	const char *crawl_id; /* cluster.crawl-id, or NULL/"" for "local" */
	char *const *confs;   /* each -c FILE, in order */
	size_t nconfs;
	char *const *sets; /* --set KEY=VALUE, given to every worker */
	size_t nsets;
	const char *seedfile; /* given to worker 0 */
	char *const *seeds;
	size_t nseeds;
	int resume; /* tern resume JOBDIR */
	/* warc.wacz: one package of every worker's WARCs once all have
	 * ended (the workers make none); kept in workers.json for resume. */
	int wacz;
};

/* Runs the workers to their end; the exit status (0 when every worker
 * exited 0, else the first other status). */
int workers_run(const struct workers_opts *o);

/* Is dir a --workers job directory? Then *first (to free) is the job
 * directory of its worker 0, through which ctl and report act. */
int workers_dir(const char *dir, char **first);

#endif
