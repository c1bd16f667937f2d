/* The crawl loop. Phases of one libuv loop iteration:
 *
 *   timers     the frontier's next wake-up (one uv_timer), the 1 s "cron"
 *              (progress, time limit), the shutdown grace timer
 *   poll       DNS, connections, TLS, HTTP: visits advance and end; an
 *              ending visit writes its crawl.log line and WARC records into
 *              buffers and tells the frontier, which only adds to its batch
 *   prepare    crawl_prepare_cb: flush WARC buffers and crawl.log first, then the
 *              frontier's and the dedup index's LevelDB batches (so a URI is
 *              never marked done before its records are on disk), then hand
 *              out new work up to crawl.max-connections, then check the end
 *
 * Work handed out per iteration is bounded; when the bound is hit an idle
 * handle keeps the next poll from blocking.
 *
 * Around the loop, sharing struct crawl through crawl/private.h: opening a
 * crawl (crawlopen.c), the hooks its visits and cluster node call
 * (crawlhooks.c), the disk watch (crawldisk.c) and what it says
 * (crawlsay.c). */
#include <build-config.h>

#include "crawl/private.h"
#include "crawl/drops.h"
#include "crawl/failures.h"
#include "crawl/fdlimit.h"
#include "lib/buf.h"
#include "lib/canon.h"
#include "crawl/checkpoint.h"
#include "lib/clock.h"
#include "crawl/clusternode.h"
#include "lib/config.h"
#include "archive/crawllog.h"
#include "lib/curi.h"
#include "archive/dedup.h"
#include "net/dns.h"
#include "net/fetcher.h"
#include "frontier/bloom.h"
#include "frontier/counts.h"
#include "frontier/frontier.h"
#include "frontier/hosts.h"
#include "crawl/diskguard.h"
#include "crawl/job.h"
#include "crawl/jobtotals.h"
#include "crawl/report.h"
#include "lib/robots.h"
#include "lib/rules.h"
#include "crawl/schedule.h"
#include "crawl/seedhosts.h"
#include "crawl/cookies.h"
#include "crawl/seeds.h"
#include "crawl/scope.h"
#include "crawl/statusline.h"
#include "lib/url.h"
#include "crawl/visit.h"
#include "archive/warc.h"
#include "archive/warcpool.h"
#include "archive/warcrecover.h"
#include "lib/xmalloc.h"

#include <assert.h>
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The public voice of the crawl (crawl.h), for the floors above; the
 * crawl's own files call crawlsay.c directly. */
void crawl_log_event(struct crawl *cr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	crawlsay_eventv(cr, fmt, ap);
	va_end(ap);
}

void crawl_say(struct crawl *cr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	crawlsay_sayv(cr, fmt, ap);
	va_end(ap);
}

const char *crawl_state_name(enum crawl_state s)
{
	return crawlsay_state_name(s);
}

long crawl_rss_kb(void)
{
	return crawlsay_rss_kb();
}

/* Puts the job's totals in the frontier's batch when they changed (the
 * time to the second), so that they reach the store in the same write as
 * the URIs they count. */
static void crawl_save_totals(struct crawl *cr)
{
	struct jobtotals t;

	/* An accept rule's count can change with nothing else. */
	drops_save(cr->frontier, cr->rules, &cr->rules_saved);
	memset(&t, 0, sizeof t);
	t.stats = cr->stats;
	t.elapsed_ms = crawlsay_elapsed_ms(cr);
	t.finished_ms = cr->finished_ms;
	if (t.elapsed_ms / 1000 == cr->saved.elapsed_ms / 1000 &&
	    memcmp(&t.stats, &cr->saved.stats, sizeof t.stats) == 0 &&
	    t.finished_ms == cr->saved.finished_ms)
		return;
	jobtotals_save(cr->frontier, &t);
	cr->saved = t;
}

/* Writes the WARC records and crawl.log lines recorded so far. The frontier calls it before each write of its batch (its prewrite
 * hook), so that whatever writes the batch, records and log lines reach the
 * disk before the frontier marks their URIs done. A WARC write failure (a
 * full disk) stops handing out work until it clears. */
int crawl_flush_outputs(void *arg, char **errp)
{
	struct crawl *cr = arg;
	char *err = NULL;

	if (cr->warc != NULL &&
	    (cr->warcpool != NULL ? warcpool_flush(cr->warcpool, &err)
				  : warc_flush(cr->warc, &err)) < 0) {
		/* Said once every 10 s while the hold lasts, not every pass. */
		uint64_t now = clock_wall_ms();
		if (now - cr->last_warc_error_ms >= 10000) {
			crawlsay_say(
			    cr, "WARC write failed, crawl held until it succeeds: %s", err);
			cr->last_warc_error_ms = now;
		}
		snprintf(cr->hold_reason, sizeof cr->hold_reason,
		    "held: WARC write failed (tried again until it succeeds): %s", err);
		if (errp != NULL)
			*errp = err;
		else
			free(err);
		return -1;
	}
	if (cr->hold_reason[0] != '\0') {
		crawlsay_event(cr, "WARC write succeeded again: the hold ends");
		cr->hold_reason[0] = '\0';
	}
	if (cr->crawllog != NULL && fflush(cr->crawllog) != 0) {
		crawlsay_event(cr, "crawl.log write failed: %s", strerror(errno));
		if (errp != NULL)
			*errp = xstrdup("crawl.log write failed");
		return -1;
	}
	/* Whatever writes the frontier's batch (a report walking the store,
	 * a seek past new URIs) carries the totals of the URIs in it. */
	if (cr->frontier != NULL)
		crawl_save_totals(cr);
	if (cr->cookies != NULL)
		cookies_flush(cr->cookies);
	return 0;
}

/* The LevelDB part of crawl_flush: the frontier's batch with the dedup
 * index's in one write (whose hook flushes the outputs again, a no-op by
 * then). */
static int crawl_flush_store(struct crawl *cr)
{
	char *err = NULL;
	int rc = 0, frc;
	/* The ends so far are in the frontier's batch (the outputs' flush
	 * drained the pool). */
	uint64_t t0, d, ended = cr->visits_ended;

	t0 = uv_hrtime();
	d = frontier_discovered(cr->frontier);
	crawl_save_totals(cr);
	if (cr->cookies != NULL)
		cookies_flush(cr->cookies);
	frc = frontier_flush(cr->frontier, &err);
	cr->stats.links_scheduled += frontier_discovered(cr->frontier) - d;
	/* LevelDB stalls a write while compaction catches up: the time spent
	 * in these writes is what /metrics reports as store write time. */
	t0 = uv_hrtime() - t0;
	cr->store_write_ns += t0;
	if (t0 > cr->store_write_max_ns)
		cr->store_write_max_ns = t0;
	if (frc < 0) {
		crawlsay_say(cr, "frontier write failed: %s", err);
		free(err);
		err = NULL;
		rc = -1;
	}
	/* The dedup index's entries rode in the frontier's write (its
	 * companion); this reads more digests into its filter, and writes
	 * the entries only when the frontier's write could not. A lost
	 * entry only costs a full record instead of a revisit later. */
	if (cr->dedup != NULL && dedup_flush(cr->dedup, &err) < 0) {
		crawlsay_event(cr, "dedup index write failed: %s", err);
		free(err);
		rc = -1;
	}
	if (rc == 0)
		cr->visits_ended_written = ended;
	/* Hand-offs scheduled so far are in the store now: the stream may let
	 * them go, and done records may follow. */
	if (rc == 0 && cr->node != NULL)
		clusternode_flushed(cr->node);
	return rc;
}

/* Writes everything recorded so far: the outputs, then the store. */
static int crawl_flush(struct crawl *cr)
{
	if (crawl_flush_outputs(cr, NULL) < 0)
		return -1;
	return crawl_flush_store(cr);
}

int crawl_checkpoint(struct crawl *cr, char *name, size_t cap, char **err)
{
	struct checkpoint_parts p;
	struct checkpoint_timing t;
	char cp[CHECKPOINT_NAME_MAX];

	if (crawl_flush(cr) < 0) {
		*err = xstrdup(
		    "pending records could not be written (see logs/tern.log): no checkpoint");
		return -1;
	}
	/* logs.json records the logs' sizes: everything logged so far in. */
	fflush(cr->ternlog);
	fflush(cr->progress);
	memset(&p, 0, sizeof p);
	p.frontier = cr->frontier;
	p.warc = cr->warc;
	p.stats = &cr->stats;
	p.forget_all_but_latest = config_bool(cr->cfg, CK_CHECKPOINT_FORGET_ALL_BUT_LATEST);
	if (checkpoint_create(cr->jobdir, &p, cp, &t, err) < 0) {
		crawlsay_event(cr, "checkpoint failed: %s", *err);
		return -1;
	}
	cr->last_checkpoint_ms = clock_wall_ms();
	cr->checkpoint_us = t.total_us;
	cr->checkpoints++;
	cr->checkpoint_total_us += t.total_us;
	crawlsay_event(cr,
	    "checkpoint %s in %.1f ms (%u tables linked); %d URIs in flight are fetched again after a resume from it",
	    cp, (double)t.total_us / 1000.0, t.tables, visit_in_flight(cr->visits));
	snprintf(name, cap, "%s", cp);
	return 0;
}

static void crawl_wake_cb(uv_timer_t *t)
{
	struct crawl *cr = t->data;

	/* Nothing to do here: the prepare phase that follows hands out work.
	 * crawl_end closed the timer, so the crawl cannot have ended. */
	assert(cr->state != CRAWL_FINISHED);
}

static void crawl_idle_cb(uv_idle_t *h)
{
	(void)h;
}

static void crawl_fill(struct crawl *cr)
{
	int budget = CRAWL_FILL_BATCH;
	uint64_t now = clock_wall_ms(), wake = UINT64_MAX;
	int64_t max_pages = config_int(cr->cfg, CK_CRAWL_MAX_PAGES);

	while (cr->state == CRAWL_RUNNING && visit_in_flight(cr->visits) < cr->max_conns &&
	    budget > 0 && (cr->warcpool == NULL || !warcpool_busy(cr->warcpool))) {
		struct curi *c = NULL;
		/* No more visits than pages left under crawl.max-pages: the
		 * limit is met exactly unless a kill cuts a run short. */
		if (max_pages > 0 &&
		    cr->stats.pages + (uint64_t)visit_in_flight(cr->visits) >= (uint64_t)max_pages)
			break;
		if (frontier_next(cr->frontier, now, &c, &wake) != 1)
			break;
		budget--;
		if (cr->node != NULL && !clusternode_admit(cr->node, c))
			continue;
		cr->end_if_finished = 0;
		{
			int before = visit_in_flight(cr->visits);
			visit_start(cr->visits, c);
			/* A visit that ended at once has its crawl.log line in the
			 * stdio buffer and its removal in the frontier's batch,
			 * which the next frontier_next may write: the line first,
			 * and before it the WARC records of the lines buffered with
			 * it (a kill between the two left lines without records). */
			if (visit_in_flight(cr->visits) == before)
				crawl_flush_outputs(cr, NULL);
		}
	}
	if (budget == 0)
		uv_idle_start(&cr->idle, crawl_idle_cb);
	else
		uv_idle_stop(&cr->idle);
	if (wake != UINT64_MAX && cr->state == CRAWL_RUNNING)
		uv_timer_start(&cr->wake, crawl_wake_cb, wake > now ? wake - now : 0, 0);
	cr->next_wake_ms = budget > 0 ? wake : UINT64_MAX;
}

/* The state stats.json and the offline console give: a run that ended
 * stopped (a signal, tern ctl stop) before the job's end is STOPPED, a job
 * that resumes, as tern report's HOLD says; finished at the end or at a
 * limit of the job, FINISHED. */
static const char *crawl_stats_state(const struct crawl *cr)
{
	if (cr->state == CRAWL_FINISHED && cr->stop_reason != NULL &&
	    jobtotals_limit(cr->cfg, &cr->stats, crawlsay_elapsed_ms(cr)) == NULL)
		return "STOPPED";
	return crawlsay_state_name(cr->state);
}

json_t *crawl_stats_json(struct crawl *cr)
{
	struct frontier_counts fc;
	double secs = (double)crawlsay_elapsed_ms(cr) / 1000.0;
	json_t *j;

	frontier_counts(cr->frontier, &fc);
	j = json_pack(
	    "{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:{s:I,s:I,s:I,s:I,s:I,s:I}, "
	    "s:o, s:I}",
	    "state", crawl_stats_state(cr), "reason",
	    cr->stop_reason	   ? cr->stop_reason
		: cr->pause_reason ? cr->pause_reason
				   : "",
	    "pages", (json_int_t)cr->stats.pages, "bytes", (json_int_t)cr->stats.bytes, "failures",
	    (json_int_t)cr->stats.failures, "dns_lookups", (json_int_t)cr->stats.dns_lookups,
	    "robots_fetches", (json_int_t)cr->stats.robots_fetches, "retries",
	    (json_int_t)cr->stats.retries, "revisits", (json_int_t)cr->stats.revisits,
	    "not_modified", (json_int_t)cr->stats.not_modified, "seconds", secs, "pages_per_second",
	    secs > 0 ? (double)cr->stats.pages / secs : 0.0, "statuses", "negative",
	    (json_int_t)cr->stats.status_class[0], "1xx", (json_int_t)cr->stats.status_class[1],
	    "2xx", (json_int_t)cr->stats.status_class[2], "3xx",
	    (json_int_t)cr->stats.status_class[3], "4xx", (json_int_t)cr->stats.status_class[4],
	    "5xx", (json_int_t)cr->stats.status_class[5], "frontier", counts_json(&fc),
	    "peak_rss_kb", (json_int_t)crawlsay_rss_kb());
	if (j != NULL) {
		json_object_set_new(j, "failures_by_cause", failures_json(&cr->stats));
		json_object_set_new(j, "dropped", drops_json(&cr->stats, cr->rules));
	}
	{
		double wait = crawlsay_next_wait_s(cr, clock_wall_ms());
		if (j != NULL && wait > 0)
			json_object_set_new(j, "next_fetch_in_seconds", json_real(wait));
	}
	/* A cluster node's hand-off figures (messages and bytes per page). */
	if (j != NULL && cr->node != NULL)
		json_object_set_new(j, "cluster", clusternode_stats_json(cr->node));
	return j;
}

const char *crawl_report_word(const struct crawl *cr)
{
	switch (cr->state) {
	case CRAWL_RUNNING:
		return "RUN";
	case CRAWL_PAUSING:
	case CRAWL_PAUSED:
		return "PAUSE";
	case CRAWL_EMPTY:
		return "EMPTY";
	default:
		return "FINISH";
	}
}

/* reports/, written at the end and whenever the crawl is held at finish. */
static void crawl_write_reports(struct crawl *cr)
{
	json_t *j = crawl_stats_json(cr);

	report_write_job(cr->jobdir, cr->frontier, crawl_report_word(cr), j);
	json_decref(j);
}

static void crawl_close_cb(uv_handle_t *h)
{
	(void)h;
}

static void crawl_node_left(void *arg)
{
	struct crawl *cr = arg;

	clusternode_free(cr->node);
	cr->node = NULL;
}

void crawl_free(struct crawl *cr)
{
	/* A crawl that failed after joining its cluster leaves it first (it
	 * holds nothing yet: partitions are claimed once the loop runs). */
	if (cr->node != NULL)
		clusternode_leave(cr->node, crawl_node_left, cr);
	/* Made before the job (crawlopen_services) and freed by crawl_end
	 * once the crawl ran: here only when it never did. */
	if (cr->fetcher != NULL)
		fetcher_free(cr->fetcher);
	if (cr->dns != NULL)
		dns_free(cr->dns);
	if (cr->loop_ready) {
		uv_run(&cr->loop, UV_RUN_DEFAULT);
		if (uv_loop_close(&cr->loop) != 0)
			fprintf(stderr, "tern: event loop closed with handles still open\n");
		cr->loop_ready = 0;
	}
	visit_pool_free(cr->visits);
	failures_free(cr->failures);
	/* Before the frontier's last write, whose hook flushes through it. */
	warcpool_free(cr->warcpool);
	cr->warcpool = NULL;
	schedule_free(cr->sched);
	/* First: its last write flushes the WARC and crawl.log through the
	 * prewrite hook, so they must still be open. */
	if (cr->frontier != NULL)
		frontier_close(cr->frontier);
	cookies_close(cr->cookies);
	free(cr->cookies_said);
	if (cr->warc != NULL)
		warc_close(cr->warc);
	if (cr->dedup != NULL)
		dedup_free(cr->dedup);
	bloom_free(cr->dedup_bloom);
	if (cr->scope != NULL)
		scope_free(cr->scope);
	rules_free(cr->rules);
	if (cr->hosts != NULL)
		hosts_free(cr->hosts);
	seedhosts_free(cr->seedhosts);
	if (cr->seedsfp != NULL)
		fclose(cr->seedsfp);
	if (cr->crawllog)
		fclose(cr->crawllog);
	if (cr->ternlog)
		fclose(cr->ternlog);
	if (cr->progress)
		fclose(cr->progress);
	statusline_rate_free(cr->rate);
	free(cr->tmpdir);
	free(cr->jobdir);
	free(cr);
}

/* The end: everything written, handles closed, the loop let go. */
void crawl_end(struct crawl *cr)
{
	/* Finished, not stopped: a resume has nothing to do. */
	if (cr->stop_reason == NULL)
		cr->finished_ms = clock_wall_ms();
	crawl_flush(cr);
	if (cr->stop_reason != NULL && config_bool(cr->cfg, CK_CHECKPOINT_ON_SHUTDOWN)) {
		char name[CHECKPOINT_NAME_MAX], *err = NULL;
		if (crawl_checkpoint(cr, name, sizeof name, &err) < 0)
			free(err);
	}
	/* Finished by itself, with nothing fetched because every seed failed
	 * for good: a runtime failure, said as such (a cluster's nodes end
	 * together and are judged as one, not here). */
	if (cr->stop_reason == NULL && cr->node == NULL && failures_all_failed(cr->failures)) {
		cr->all_failed = 1;
		cr->failed = 1;
		crawlsay_event(
		    cr, "every seed failed for good: no page answered 2xx or 304 (exit status 1)");
	}
	crawlsay_set_state(cr, CRAWL_FINISHED, cr->stop_reason);
	crawlsay_progress(cr, 1);
	crawl_write_reports(cr);
	{
		struct buf by = BUF_INIT;

		failures_brief(&cr->stats, &by);
		crawlsay_event(cr, "crawl %s%s%s: %llu page%s, %llu failure%s%s%s%s",
		    cr->stop_reason == NULL ? "finished" : "stopped", cr->stop_reason ? ": " : "",
		    cr->stop_reason ? cr->stop_reason : "", (unsigned long long)cr->stats.pages,
		    CRAWL_PLURAL(cr->stats.pages), (unsigned long long)cr->stats.failures,
		    CRAWL_PLURAL(cr->stats.failures), by.len ? " (by cause: " : "",
		    by.len ? by.data : "", by.len ? ")" : "");
		buf_free(&by);
	}
	uv_close((uv_handle_t *)&cr->prepare, crawl_close_cb);
	uv_close((uv_handle_t *)&cr->idle, crawl_close_cb);
	uv_close((uv_handle_t *)&cr->wake, crawl_close_cb);
	uv_close((uv_handle_t *)&cr->cron, crawl_close_cb);
	uv_close((uv_handle_t *)&cr->grace, crawl_close_cb);
	uv_close((uv_handle_t *)&cr->sigint, crawl_close_cb);
	uv_close((uv_handle_t *)&cr->sigterm, crawl_close_cb);
	if (cr->on_end != NULL) {
		void (*cb)(void *) = cr->on_end;
		cr->on_end = NULL;
		cb(cr->on_end_arg);
	}
	fetcher_free(cr->fetcher);
	cr->fetcher = NULL;
	dns_free(cr->dns);
	cr->dns = NULL;
	schedule_set_dns(cr->sched, NULL);
	/* The node gives its partitions up and lets its last records be
	 * stored; its handles keep the loop running until then. */
	if (cr->node != NULL)
		clusternode_leave(cr->node, crawl_node_left, cr);
}

/* The limit of the job the crawl has reached, or NULL (jobtotals_limit). */
const char *crawl_limit_reached(struct crawl *cr)
{
	return jobtotals_limit(cr->cfg, &cr->stats, crawlsay_elapsed_ms(cr));
}

/* The crawl is at its finish: no eligible URI is left (limit NULL) or a
 * limit is reached. With crawl.pause-at-finish it is held (EMPTY, or
 * PAUSING/PAUSED for a limit) so the operator can look and change settings;
 * otherwise, or when the operator unpaused it at finish, it ends. */
void crawl_at_finish(struct crawl *cr, const char *limit)
{
	if (config_bool(cr->cfg, CK_CRAWL_PAUSE_AT_FINISH) && !cr->end_if_finished) {
		cr->at_finish = 1;
		cr->pause_reason = limit != NULL
		    ? limit
		    : "finished: no eligible queue holds a URI (pause-at-finish)";
		if (limit == NULL)
			crawlsay_set_state(cr, CRAWL_EMPTY, cr->pause_reason);
		else
			crawlsay_set_state(cr,
			    visit_in_flight(cr->visits) > 0 ? CRAWL_PAUSING : CRAWL_PAUSED,
			    cr->pause_reason);
		uv_timer_stop(&cr->wake);
		crawl_write_reports(cr);
		return;
	}
	if (limit != NULL) {
		cr->stop_reason = limit;
		crawlsay_set_state(cr, CRAWL_STOPPING, limit);
	} else if (visit_in_flight(cr->visits) == 0) {
		crawl_end(cr);
	}
}

/* The flush of a loop iteration. While the WARC pool builds records, the
 * loop runs many small iterations (a response handed in, a batch of
 * records back), and each write of the store costs the same however little
 * it holds. An iteration that ended no visit leaves the store's batch for
 * the next one that does: such a batch holds no URI done, deferred or
 * failed (a visit's end is what puts those in it), only the discoveries and
 * hand-outs of visits still in flight, which a kill would have them redo
 * anyway; and a visit's end is near, since the pool is busy. The outputs
 * are written as before. */
static int crawl_flush_iteration(struct crawl *cr)
{
	if (crawl_flush_outputs(cr, NULL) < 0)
		return -1;
	/* Judged after the outputs' flush, whose drain may end visits. A
	 * cluster node writes every time: its stream's acknowledgments and
	 * hand-offs wait for the write (doc/cluster.md). */
	if (cr->node == NULL && cr->warcpool != NULL && !warcpool_idle(cr->warcpool) &&
	    cr->visits_ended == cr->visits_ended_written &&
	    (cr->dedup == NULL || dedup_pending(cr->dedup) == 0))
		return 0;
	return crawl_flush_store(cr);
}

void crawl_prepare_cb(uv_prepare_t *h)
{
	struct crawl *cr = h->data;

	/* crawl_end closes this handle, here or elsewhere. */
	assert(cr->state != CRAWL_FINISHED);
	/* This iteration's captures go to the threads in one batch. */
	if (cr->warcpool != NULL)
		warcpool_kick(cr->warcpool);
	if (crawl_flush_iteration(cr) < 0 && cr->state == CRAWL_RUNNING) {
		/* Hold: retry the writes on the next cron tick. */
		return;
	}
	crawl_fill(cr);
	/* Records still being built hold their visits' ends and lines. */
	if (visit_in_flight(cr->visits) > 0 ||
	    (cr->warcpool != NULL && !warcpool_idle(cr->warcpool)))
		return;
	switch (cr->state) {
	case CRAWL_STOPPING:
		crawl_end(cr);
		break;
	case CRAWL_PAUSING:
		crawlsay_set_state(cr, CRAWL_PAUSED, cr->pause_reason);
		if (cr->at_finish)
			crawl_write_reports(cr);
		break;
	case CRAWL_RUNNING:
		/* A continuous crawl never runs out: what was visited comes
		 * back when due (the wake timer), so only a stop or a limit
		 * ends it. A cluster node's frontier empties and fills again
		 * as other nodes hand it work: the cluster says when the
		 * crawl is over. */
		if (cr->node != NULL ? cr->cluster_over
				     : !cr->continuous && frontier_is_finished(cr->frontier))
			crawl_at_finish(cr, NULL);
		break;
	default:
		break;
	}
}

void crawl_cron_cb(uv_timer_t *t)
{
	struct crawl *cr = t->data;
	const char *limit;

	assert(cr->state != CRAWL_FINISHED); /* crawl_end closed the timer */
	if (cr->state == CRAWL_RUNNING && (limit = crawl_limit_reached(cr)) != NULL)
		crawl_at_finish(cr, limit);
	crawldisk_check(cr, 0, NULL);
	crawlsay_progress(cr, 0);
	crawlsay_suggest_local(cr);
}

static void crawl_grace_cb(uv_timer_t *t)
{
	struct crawl *cr = t->data;

	/* Started by a stop, which nothing but the end follows, and closed
	 * by crawl_end. */
	assert(cr->state == CRAWL_STOPPING);
	crawlsay_event(cr, "abandoning %d in-flight fetches; they are fetched again on resume",
	    visit_in_flight(cr->visits));
	visit_abandon_all(cr->visits);
}

int crawl_pause(struct crawl *cr, const char **why)
{
	if (cr->state != CRAWL_RUNNING) {
		*why = cr->state == CRAWL_STOPPING || cr->state == CRAWL_FINISHED
		    ? "the crawl is ending"
		    : "already paused";
		return cr->state == CRAWL_STOPPING || cr->state == CRAWL_FINISHED ? -1 : 0;
	}
	cr->pause_reason = "paused by the operator";
	cr->at_finish = 0;
	uv_timer_stop(&cr->wake);
	crawlsay_set_state(
	    cr, visit_in_flight(cr->visits) > 0 ? CRAWL_PAUSING : CRAWL_PAUSED, cr->pause_reason);
	return 0;
}

int crawl_unpause(struct crawl *cr, const char **why)
{
	const char *limit;

	switch (cr->state) {
	case CRAWL_RUNNING:
		*why = "not paused";
		return 0;
	case CRAWL_STOPPING:
	case CRAWL_FINISHED:
	case CRAWL__NSTATES:
		*why = "the crawl is ending";
		return -1;
	default:
		break;
	}
	if (cr->disk_paused && cr->pause_reason == cr->disk_reason) {
		*why = "paused for disk space: it resumes itself once space is freed (or lower "
		       "crawl.pause-below-free-mb and crawl.resume-above-free-mb)";
		return -1;
	}
	/* Unpaused at finish: if it is still finished, it ends (Heritrix 1's
	 * pause-at-finish); a raised limit or revived queues let it go on. */
	if (cr->at_finish)
		cr->end_if_finished = 1;
	cr->at_finish = 0;
	cr->pause_reason = NULL;
	if (cr->end_if_finished && (limit = crawl_limit_reached(cr)) != NULL) {
		cr->stop_reason = limit;
		crawlsay_set_state(cr, CRAWL_STOPPING, limit);
		return 0;
	}
	crawlsay_set_state(cr, CRAWL_RUNNING, "unpaused by the operator");
	return 0;
}

int crawl_stop(struct crawl *cr, const char *reason, const char **why)
{
	if (cr->state == CRAWL_STOPPING || cr->state == CRAWL_FINISHED) {
		*why = "already stopping";
		return 0;
	}
	/* Held at finish: stopping is how the operator ends it (exit 0, the
	 * crawl finished). */
	cr->stop_reason = cr->state == CRAWL_EMPTY ? NULL : reason;
	uv_timer_stop(&cr->wake);
	crawlsay_set_state(cr, CRAWL_STOPPING, reason);
	if (visit_in_flight(cr->visits) > 0) {
		crawlsay_event(cr, "in-flight fetches get %d ms", CRAWL_GRACE_MS);
		uv_timer_start(&cr->grace, crawl_grace_cb, CRAWL_GRACE_MS, 0);
	}
	return 0;
}

void crawl_settings_changed(struct crawl *cr)
{
	/* Let the frontier (which notices the change itself at its next
	 * call) re-judge its retired queues: if some revive, the crawl goes
	 * on; if not, it is back at finish on the next loop iteration. */
	if (cr->state == CRAWL_EMPTY) {
		cr->at_finish = 0;
		cr->pause_reason = NULL;
		crawlsay_set_state(cr, CRAWL_RUNNING, "settings changed at finish");
	}
}

void crawl_signal_cb(uv_signal_t *s, int signum)
{
	struct crawl *cr = s->data;
	const char *why;

	assert(cr->state != CRAWL_FINISHED); /* crawl_end closed the signals */
	cr->signals++;
	if (cr->signals > 1) {
		/* A second signal: leave now, keeping what is recorded, and say
		 * so below the status line rather than over it. */
		crawlsay_event(cr, "second signal %d: exiting at once", signum);
		crawl_flush(cr);
		frontier_close(cr->frontier);
		fprintf(stderr,
		    "%stern: second %s: exiting now, without the end reports; what was "
		    "recorded is kept, and `tern resume %s` continues the crawl\n",
		    cr->tty ? "\r\033[K" : "", signum == SIGINT ? "interrupt" : "signal",
		    cr->jobdir);
		_exit(0);
	}
	if (cr->tty && signum == SIGINT)
		fprintf(stderr,
		    "\r\033[Ktern: interrupted: stopping (in-flight fetches get %d s); a second "
		    "Ctrl-C exits at once\n",
		    CRAWL_GRACE_MS / 1000);
	crawlsay_event(
	    cr, "signal %d: stopping; in-flight fetches get %d ms", signum, CRAWL_GRACE_MS);
	crawl_stop(cr, signum == SIGINT ? "interrupted" : "terminated", &why);
	uv_timer_start(&cr->grace, crawl_grace_cb, CRAWL_GRACE_MS, 0);
}

void crawl_on_end(struct crawl *cr, void (*cb)(void *arg), void *arg)
{
	cr->on_end = cb;
	cr->on_end_arg = arg;
}

void crawl_refuse(struct crawl *cr, const char *reason)
{
	cr->stop_reason = reason;
	crawlsay_set_state(cr, CRAWL_STOPPING, reason);
	cr->failed = 1;
}

int crawl_run(struct crawl *cr)
{
	char *err = NULL;
	int rc;

	if (cr->state == CRAWL_RUNNING && config_bool(cr->cfg, CK_CRAWL_PAUSE_AT_START)) {
		cr->pause_reason = "pause-at-start";
		crawlsay_set_state(cr, CRAWL_PAUSED, cr->pause_reason);
	}

	uv_run(&cr->loop, UV_RUN_DEFAULT);
	/* A last pass lets closing handles finish. */
	uv_run(&cr->loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&cr->loop) != 0)
		crawlsay_event(cr, "event loop closed with handles still open");
	cr->loop_ready = 0;
	/* Only crawl_end closes the crawl's handles, which kept the loop. */
	assert(cr->state == CRAWL_FINISHED);

	crawlsay_summary(cr);
	rc = cr->failed ? CRAWL_EFAIL : 0;
	if (cr->warc != NULL && warc_flush(cr->warc, &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		rc = CRAWL_EFAIL;
	}
	crawl_free(cr);
	return rc;
}

uv_loop_t *crawl_loop(struct crawl *cr)
{
	return &cr->loop;
}

struct config *crawl_config(struct crawl *cr)
{
	return cr->cfg;
}

const char *crawl_jobdir(const struct crawl *cr)
{
	return cr->jobdir;
}

struct frontier *crawl_frontier(struct crawl *cr)
{
	return cr->frontier;
}

struct hosts *crawl_hosts(struct crawl *cr)
{
	return cr->hosts;
}

struct dns *crawl_dns(struct crawl *cr)
{
	return cr->dns;
}

const struct crawl_stats *crawl_stats(const struct crawl *cr)
{
	return &cr->stats;
}

const struct rules *crawl_rules(const struct crawl *cr)
{
	return cr->rules;
}

void crawl_on_control(struct crawl *cr,
    void (*fn)(void *arg, const char *node, const char *action, const char *body), void *arg)
{
	cr->on_control = fn;
	cr->on_control_arg = arg;
}

void crawl_pass_control(struct crawl *cr, const char *action, const char *body)
{
	if (cr->node != NULL)
		clusternode_pass(cr->node, action, body);
}

int crawl_cluster_report(struct crawl *cr, struct buf *out, int json)
{
	if (cr->node == NULL)
		return -1;
	clusternode_report(cr->node, out, json);
	return 0;
}

void crawl_status(const struct crawl *cr, struct crawl_status *st)
{
	memset(st, 0, sizeof *st);
	st->state = cr->state;
	st->reason = cr->state == CRAWL_STOPPING || cr->state == CRAWL_FINISHED ? cr->stop_reason
										: cr->pause_reason;
	if (cr->state == CRAWL_RUNNING && cr->hold_reason[0] != '\0')
		st->reason = cr->hold_reason;
	st->at_finish = cr->at_finish || cr->state == CRAWL_EMPTY;
	st->in_flight = visit_in_flight(cr->visits);
	st->seconds = (double)crawlsay_elapsed_ms(cr) / 1000.0;
	st->store_write_ns = cr->store_write_ns;
	st->store_write_max_ns = cr->store_write_max_ns;
	st->checkpoints = cr->checkpoints;
	st->checkpoint_total_us = cr->checkpoint_total_us;
	st->checkpoint_last_us = cr->checkpoint_us;
	st->next_fetch_s = crawlsay_next_wait_s(cr, clock_wall_ms());
}
