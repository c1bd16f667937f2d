/* What the crawl hands the objects it owns: the hooks of its visits
 * (struct visit_env: events, a failure to say, a seed made by a redirect,
 * a visit's end, a full disk) and of its cluster node (struct
 * clusternode_env: log, status, the cluster's end, control actions passed
 * on). Each is a few lines that reach into struct crawl, kept here so that
 * the loop (crawl.c) reads as its phases. */
#include <build-config.h>

#include "crawl/private.h"
#include "lib/xmalloc.h"
#include "crawl/checkpoint.h"
#include "lib/clock.h"
#include "crawl/clusternode.h"
#include "lib/config.h"
#include "lib/curi.h"
#include "frontier/frontier.h"
#include "crawl/seeds.h"
#include "crawl/visit.h"

#include <stdlib.h>

/* The visits' hooks (struct visit_env). */
void crawlhooks_visit_event(void *ctx, const char *msg)
{
	crawlsay_event(ctx, "%s", msg);
}

/* A failure said where the person is looking: on a terminal the live
 * status line is cleared first and comes back at its next refresh. */
void crawlhooks_failure_say(void *ctx, const char *msg, int terminal)
{
	struct crawl *cr = ctx;

	if (terminal)
		crawlsay_say(cr, "%s", msg);
	else
		crawlsay_event(cr, "%s", msg);
}

/* A seed's redirect target made a seed (crawl.seed-redirects-new-seeds):
 * said in tern.log, counted for the summary. */
int crawlhooks_visit_new_seed(
    void *ctx, const char *href, const char *via, const char *hops, unsigned flags)
{
	struct crawl *cr = ctx;
	int rc;

	/* Opened at the first such seed and kept: a crawl where no seed
	 * redirects spends no descriptor on it. */
	if (cr->seedsfp == NULL) {
		char *path = xasprintf("%s/seeds.txt", cr->jobdir);
		cr->seedsfp = fopen(path, "a");
		free(path);
	}
	rc = seeds_add_redirect(&cr->seeds, cr->seedsfp, href, via, hops, flags);

	crawlsay_event(cr,
	    "seed %s redirects to %s, made a seed%s (crawl.seed-redirects-new-seeds)%s", via, href,
	    (flags & CURI_GUARDED) ? " that the address guard judges as any link, the "
				     "redirecting seed being on a public address"
				   : "",
	    rc < 0 ? "; seeds.txt could not be written: a resume will not know it" : "");
	return 0;
}

void crawlhooks_visit_ended(void *ctx)
{
	struct crawl *cr = ctx;
	const char *limit;

	cr->visits_ended++;
	if (cr->state == CRAWL_RUNNING && (limit = crawl_limit_reached(cr)) != NULL)
		crawl_at_finish(cr, limit);
	if (cr->state == CRAWL_RUNNING &&
	    checkpoint_due(cr->last_checkpoint_ms, clock_wall_ms(),
		config_int(cr->cfg, CK_CHECKPOINT_INTERVAL_MINUTES))) {
		char name[CHECKPOINT_NAME_MAX], *err = NULL;
		if (crawl_checkpoint(cr, name, sizeof name, &err) < 0) {
			/* Tried again at the next interval. */
			cr->last_checkpoint_ms = clock_wall_ms();
			free(err);
		}
	}
}

/* The cluster node's hooks (struct clusternode_env). */
void crawlhooks_node_log(void *ctx, const char *msg)
{
	crawlsay_event(ctx, "%s", msg);
}

void crawlhooks_node_status(void *ctx, struct cluster_local *out)
{
	struct crawl *cr = ctx;
	struct frontier_counts fc;
	double secs = (double)crawlsay_elapsed_ms(cr) / 1000.0;

	frontier_counts(cr->frontier, &fc);
	/* A continuous crawl never runs out (its URIs come due again): its
	 * nodes are never idle, and only a stop or a limit ends them. */
	out->frontier_finished = !cr->continuous && frontier_is_finished(cr->frontier);
	out->in_flight = cr->visits != NULL ? (unsigned)visit_in_flight(cr->visits) : 0;
	out->state = crawlsay_state_name(cr->state);
	out->pages = cr->stats.pages;
	out->bytes = cr->stats.bytes;
	out->failures = cr->stats.failures;
	out->queued = fc.queued;
	out->pages_per_s = secs > 0 ? (double)cr->stats.pages / secs : 0;
}

void crawlhooks_node_finished(void *ctx)
{
	struct crawl *cr = ctx;

	cr->cluster_over = 1;
}

void crawlhooks_node_control(void *ctx, const char *node, const char *action, const char *body)
{
	struct crawl *cr = ctx;

	if (cr->on_control != NULL)
		cr->on_control(cr->on_control_arg, node, action, body);
}

void crawlhooks_visit_disposed(void *ctx, const struct curi *c, uint64_t due_ms, uint64_t delay_ms)
{
	struct crawl *cr = ctx;

	clusternode_disposed(cr->node, c, due_ms, delay_ms);
}

int crawlhooks_visit_may_send(void *ctx, const char *uri)
{
	struct crawl *cr = ctx;

	return clusternode_may_send(cr->node, uri);
}

/* A visit could not write for want of space (its spill file): the crawl
 * pauses until there is room, and the visit's URI waits in its queue. */
void crawlhooks_visit_disk_full(void *ctx, const char *what)
{
	crawldisk_check(ctx, 1, what);
}
