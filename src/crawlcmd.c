/* `tern crawl` and `tern resume`: opens the crawl, attaches its control
 * socket, and runs it. The wiring lives here, above both, so that the crawl
 * loop knows nothing of the routes that operate it and the routes reach the
 * crawl only through its header. */
#include "crawlcmd.h"
#include "lib/config.h"
#include "crawl/crawl.h"
#include "ops/crawlctl.h"
#include "waczcmd.h"

#include <stdio.h>
#include <stdlib.h>

/* A site of one's own needs no politeness delay, nor the one its robots.txt
 * asks for with Crawl-delay (its Disallow lines are still obeyed). Its
 * private or loopback address needs no setting either: the seeds' hosts are
 * exempt from fetch.allow-private-addresses (crawl/seedhosts.h), while
 * links to other private addresses stay refused. */
const char *const crawlcmd_local_sets[] = {
    "politeness.min-delay-ms=0",
    "politeness.max-delay-ms=0",
    "politeness.delay-factor=0",
    "politeness.respect-crawl-delay-up-to-seconds=0",
    NULL,
};

static void crawlcmd_end_cb(void *arg)
{
	crawlctl_close(arg);
}

int crawlcmd_run(struct config *cfg, const struct crawl_opts *o)
{
	struct crawl *cr;
	struct crawlctl *ctl;
	char *err = NULL;
	int rc;

	/* The exit status is chosen here, at the top (tern(1), EXIT STATUS). */
	rc = crawl_open(cfg, o, &cr, &err);
	if (rc < 0) {
		if (err != NULL)
			fprintf(stderr, "tern: %s\n", err);
		free(err);
		return rc == CRAWL_EUSAGE ? 2 : 1;
	}
	if (cr == NULL)
		return 0;
	ctl = crawlctl_start(cr, &err);
	if (ctl != NULL) {
		crawl_on_end(cr, crawlcmd_end_cb, ctl);
		/* The job's name is what every other command needs while it runs. */
		fprintf(stderr,
		    "tern: job %s: steer it with `tern ctl %s status|pause|stop` or "
		    "`tern console %s`\n",
		    o->jobdir, o->jobdir, o->jobdir);
	} else {
		/* Without its socket a crawl cannot be paused or unpaused, so
		 * one that would wait for the operator must not start. */
		crawl_log_event(cr, "control socket: %s", err);
		fprintf(stderr, "tern: control socket: %s\n", err);
		free(err);
		if (config_bool(cfg, CK_CRAWL_PAUSE_AT_START) ||
		    config_bool(cfg, CK_CRAWL_PAUSE_AT_FINISH))
			crawl_refuse(cr, "no control socket");
	}
	if (crawl_run(cr) < 0)
		return 1;
	/* warc.wacz: the package of the job once its WARCs are closed. A
	 * --workers crawl's workers leave it to the command that ran them. */
	rc = 0;
	if (config_bool(cfg, CK_WARC_WACZ) && config_bool(cfg, CK_WARC_ENABLED))
		rc = waczcmd_after_crawl(o->jobdir);
	return rc;
}
