/* Drives src/crawl/checkpoint.c against a job directory's real store, for the
 * shell tests (until the crawl loop takes checkpoints itself):
 *
 *   checkpoint_driver create JOBDIR [--forget]   checkpoint a stopped job
 *   checkpoint_driver list JOBDIR                valid checkpoints, oldest first
 *   checkpoint_driver restore JOBDIR NAME|latest make the live state from one
 *   checkpoint_driver counts JOBDIR              the store's frontier counts
 *
 * The frontier is opened with the job's tern.conf, as `tern resume` does. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "crawl/checkpoint.h"
#include "lib/config.h"
#include "frontier/frontier.h"
#include "crawl/job.h"
#include "lib/xmalloc.h"

static uint64_t checkpoint_driver_now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
}

static struct frontier *checkpoint_driver_open(const char *jobdir, struct config **cfg)
{
	char *conf = xasprintf("%s/tern.conf", jobdir),
	     *dir = xasprintf("%s/state/frontier", jobdir);
	char *err = NULL;
	struct frontier *f = NULL;

	*cfg = config_new();
	if (job_config_load(*cfg, conf, &err) < 0 ||
	    (f = frontier_open(dir, *cfg, 0, checkpoint_driver_now_ms(), &err)) == NULL) {
		fprintf(stderr, "checkpoint_driver: %s\n", err);
		free(err);
		config_free(*cfg);
		*cfg = NULL;
	}
	free(conf);
	free(dir);
	return f;
}

static int checkpoint_driver_create(const char *jobdir, int forget)
{
	struct checkpoint_parts p;
	struct checkpoint_timing t;
	struct config *cfg;
	char name[CHECKPOINT_NAME_MAX], *err = NULL;
	int rc;

	memset(&p, 0, sizeof p);
	p.frontier = checkpoint_driver_open(jobdir, &cfg);
	if (p.frontier == NULL)
		return 1;
	p.forget_all_but_latest = forget;
	rc = checkpoint_create(jobdir, &p, name, &t, &err);
	if (rc < 0) {
		fprintf(stderr, "checkpoint_driver: %s\n", err);
		free(err);
	} else {
		printf("%s total_us=%" PRIu64 " mark_us=%" PRIu64 " freeze_us=%" PRIu64
		       " tables=%u copied=%" PRIu64 " attempts=%u\n",
		    name, t.total_us, t.mark_us, t.freeze_us, t.tables, t.copied_bytes, t.attempts);
	}
	frontier_close(p.frontier);
	config_free(cfg);
	return rc < 0 ? 1 : 0;
}

static int checkpoint_driver_list(const char *jobdir)
{
	char **names, *err = NULL;
	size_t n;

	if (checkpoint_list(jobdir, &names, &n, &err) < 0) {
		fprintf(stderr, "checkpoint_driver: %s\n", err);
		free(err);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		printf("%s\n", names[i]);
	checkpoint_list_free(names);
	return 0;
}

static int checkpoint_driver_restore(const char *jobdir, const char *name)
{
	struct checkpoint_restored r;
	char *err = NULL;

	if (checkpoint_restore(jobdir, name, &r, &err) < 0) {
		fprintf(stderr, "checkpoint_driver: %s\n", err);
		free(err);
		return 1;
	}
	printf("%s warc_next_serial=%u crawl_log_bytes=%" PRIu64 " pages=%" PRIu64 "\n", r.name,
	    r.warc_next_serial, r.crawl_log_bytes, r.have_stats ? r.stats.pages : 0);
	return 0;
}

static int checkpoint_driver_counts(const char *jobdir)
{
	struct frontier_counts c;
	struct config *cfg;
	struct frontier *f = checkpoint_driver_open(jobdir, &cfg);

	if (f == NULL)
		return 1;
	frontier_counts(f, &c);
	printf("queued=%" PRIu64 " succeeded=%" PRIu64 " failed=%" PRIu64 " disregarded=%" PRIu64
	       " discovered=%" PRIu64 "\n",
	    c.queued, c.succeeded, c.failed, c.disregarded, c.discovered);
	frontier_close(f);
	config_free(cfg);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "create") == 0)
		return checkpoint_driver_create(
		    argv[2], argc > 3 && strcmp(argv[3], "--forget") == 0);
	if (argc == 3 && strcmp(argv[1], "list") == 0)
		return checkpoint_driver_list(argv[2]);
	if (argc == 4 && strcmp(argv[1], "restore") == 0)
		return checkpoint_driver_restore(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "counts") == 0)
		return checkpoint_driver_counts(argv[2]);
	fprintf(stderr,
	    "usage: checkpoint_driver (create JOBDIR [--forget] | list JOBDIR | "
	    "restore JOBDIR NAME|latest | counts JOBDIR)\n");
	return 2;
}
