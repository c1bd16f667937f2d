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
 * handle keeps the next poll from blocking. */
#include <build-config.h>

#include "crawl/crawl.h"
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

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/statvfs.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* New visits started per loop iteration at most. */
#define CRAWL_FILL_BATCH 2048
/* How long in-flight fetches may finish after a stop signal. */
#define CRAWL_GRACE_MS 5000
/* How long a slow local crawl runs before --local is suggested. */
#define CRAWL_SUGGEST_LOCAL_MS 20000
/* A wait for the next fetch said on the status line and in ctl status. */
#define CRAWL_NEXT_SAY_MS 10000
/* "1 page", "2 pages". */
#define CRAWL_PLURAL(n) ((n) == 1 ? "" : "s")
/* Servers whose robots verdicts are kept in memory. */
#define CRAWL_HOSTS_CAPACITY 65536
/* progress.log period. */
#define CRAWL_PROGRESS_MS 20000
/* Without a terminal, the status is a plain line this often (tern(1)). */
#define CRAWL_STATUS_PLAIN_MS 10000

struct crawl {
	uv_loop_t loop;
	struct config *cfg;
	char *jobdir;
	struct frontier *frontier;
	struct schedule *sched;
	/* The [rules] (NULL: none), with their counts, and the sum of those
	 * counts last put in the store (crawl/drops.h). */
	struct rules *rules;
	uint64_t rules_saved;
	struct seedhosts *seedhosts; /* exempt from the address guard */
	struct seeds_env seeds;	     /* where seeds made by redirects go */
	FILE *seedsfp;		     /* JOBDIR/seeds.txt once a redirect made a seed */
	struct seeds_count seed_count;
	struct cookies *cookies;   /* the jar, kept in the frontier's store */
	char *cookies_said;	   /* what the jar started with, for tern.log */
	struct visit_pool *visits; /* every visit in progress */
	struct failures *failures; /* first failures said, counts by cause */
	int all_failed;		   /* ended with every seed failed (exit 1) */
	uint64_t next_wake_ms;	   /* the frontier's next wake when it had nothing */
	int said_local;		   /* --local suggested (crawl_suggest_local) */
	struct dns *dns;
	struct fetcher *fetcher;
	struct warc_writer *warc;
	struct warcpool *warcpool; /* builds the records on other threads */
	struct dedup *dedup;
	struct bloom *dedup_bloom; /* the index's filter (dedup_set_filter) */
	struct scope *scope;
	struct hosts *hosts;
	FILE *crawllog;
	FILE *ternlog;
	FILE *progress;
	char *tmpdir;	   /* JOBDIR/state/tmp: spill files */
	char agent[64];	   /* robots.txt product token */
	int robots_policy; /* 0 obey, 1 ignore, 2 calculate-only */
	int continuous;	   /* crawl.mode = continuous (read at start) */
	int max_conns;
	enum crawl_state state;
	const char *stop_reason;
	const char *pause_reason; /* why PAUSING, PAUSED or EMPTY */
	/* The disk watch (crawl/diskguard.h): paused for want of space, with
	 * this reason (pause_reason points at it while it holds). */
	int disk_paused;
	char disk_reason[512];
	int at_finish;		   /* paused by pause-at-finish */
	int end_if_finished;	   /* unpaused at finish: end if still finished */
	void (*on_end)(void *arg); /* the layer above closes its handles */
	void *on_end_arg;
	uint64_t last_checkpoint_ms; /* or the start: checkpoint.interval-minutes counts from it */
	uint64_t checkpoint_us;	     /* duration of the last checkpoint (metrics) */
	unsigned warc_serial_floor;  /* a restored checkpoint's next WARC serial */
	int exit_status;
	int signals;
	uint64_t start_ms;	    /* this run's start */
	uint64_t elapsed_before_ms; /* time crawled by the job's earlier runs */
	uint64_t finished_ms;	    /* when the job finished, 0 until then */
	uint64_t pages_at_start;    /* the job's pages when this run started */
	struct crawl_stats stats;   /* the job's, over every run */
	struct jobtotals saved;	    /* as last put in the frontier's batch */
	uv_prepare_t prepare;
	uv_idle_t idle;
	uv_timer_t wake;
	uv_timer_t cron;
	uv_timer_t grace;
	uv_signal_t sigint, sigterm;
	int tty;
	struct statusline_rate *rate; /* the status line's recent rate */
	uint64_t last_status_ms;      /* the last plain status line */
	uint64_t last_progress_ms;
	uint64_t last_warc_error_ms; /* rate limit of the disk-full message */
	/* While a WARC write fails the crawl hands out no work: why, for
	 * ctl status and the console ("" when it does not hold). */
	char hold_reason[512];
	/* Visits ended, and how many of them when the store was last
	 * written (crawl_flush_iteration). */
	uint64_t visits_ended, visits_ended_written;
	uint64_t store_write_ns; /* time in the frontier's LevelDB writes */
	uint64_t store_write_max_ns;
	uint64_t checkpoints;
	uint64_t checkpoint_total_us;
	/* Cluster mode (doc/cluster.md): this node, whether the cluster has
	 * found the crawl over, and who applies actions other nodes pass on. */
	struct clusternode *node;
	int loop_ready;
	int cluster_over;
	void (*on_control)(void *arg, const char *node, const char *action, const char *body);
	void *on_control_arg;
};

static void crawl_log_eventv(struct crawl *cr, const char *fmt, va_list ap)
{
	char t[32];

	crawllog_iso_time(clock_wall_ms(), t);
	if (cr->ternlog != NULL) {
		fprintf(cr->ternlog, "%s ", t);
		vfprintf(cr->ternlog, fmt, ap);
		fputc('\n', cr->ternlog);
		fflush(cr->ternlog);
	}
}

void crawl_log_event(struct crawl *cr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	crawl_log_eventv(cr, fmt, ap);
	va_end(ap);
}

void crawl_say(struct crawl *cr, const char *fmt, ...)
{
	va_list ap;

	/* The status line has no newline: clear it, or the message would
	 * run on from it. It is drawn again at the next tick. */
	if (cr->tty)
		fputs("\r\033[K", stderr);
	fputs("tern: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	va_start(ap, fmt);
	crawl_log_eventv(cr, fmt, ap);
	va_end(ap);
}

static const char *const crawl_state_names[CRAWL__NSTATES] = {
    "RUNNING",
    "PAUSING",
    "PAUSED",
    "EMPTY",
    "STOPPING",
    "FINISHED",
};

const char *crawl_state_name(enum crawl_state s)
{
	return (unsigned)s < CRAWL__NSTATES ? crawl_state_names[s] : "?";
}

/* Every change of the crawl's state goes through here, logged old -> new. */
static void crawl_set_state(struct crawl *cr, enum crawl_state s, const char *why)
{
	if (cr->state == s)
		return;
	crawl_log_event(cr, "state %s -> %s%s%s", crawl_state_name(cr->state), crawl_state_name(s),
	    why ? ": " : "", why ? why : "");
	cr->state = s;
}

long crawl_rss_kb(void)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	long pages = 0, rss = 0;

	if (fp == NULL)
		return 0;
	if (fscanf(fp, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	fclose(fp);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Time crawled by the job: its earlier runs and this one. */
static uint64_t crawl_elapsed_ms(const struct crawl *cr)
{
	return cr->elapsed_before_ms + (clock_wall_ms() - cr->start_ms);
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
	t.elapsed_ms = crawl_elapsed_ms(cr);
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
static int crawl_flush_outputs(void *arg, char **errp)
{
	struct crawl *cr = arg;
	char *err = NULL;

	if (cr->warc != NULL &&
	    (cr->warcpool != NULL ? warcpool_flush(cr->warcpool, &err)
				  : warc_flush(cr->warc, &err)) < 0) {
		/* Said once every 10 s while the hold lasts, not every pass. */
		uint64_t now = clock_wall_ms();
		if (now - cr->last_warc_error_ms >= 10000) {
			crawl_say(cr, "WARC write failed, crawl held until it succeeds: %s", err);
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
		crawl_log_event(cr, "WARC write succeeded again: the hold ends");
		cr->hold_reason[0] = '\0';
	}
	if (cr->crawllog != NULL && fflush(cr->crawllog) != 0) {
		crawl_log_event(cr, "crawl.log write failed: %s", strerror(errno));
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

/* The LevelDB part of crawl_flush: the dedup index, then the frontier's
 * batch (whose hook flushes the outputs again, a no-op by then). */
static int crawl_flush_store(struct crawl *cr)
{
	char *err = NULL;
	int rc = 0, frc;
	/* The ends so far are in the frontier's batch (the outputs' flush
	 * drained the pool). */
	uint64_t t0, d, ended = cr->visits_ended;

	/* A lost dedup entry only costs a full record instead of a revisit
	 * later, so its failure does not hold the frontier back. */
	if (cr->dedup != NULL && dedup_flush(cr->dedup, &err) < 0) {
		crawl_log_event(cr, "dedup index write failed: %s", err);
		free(err);
		err = NULL;
		rc = -1;
	}
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
		crawl_say(cr, "frontier write failed: %s", err);
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
		crawl_log_event(cr, "checkpoint failed: %s", *err);
		return -1;
	}
	cr->last_checkpoint_ms = clock_wall_ms();
	cr->checkpoint_us = t.total_us;
	cr->checkpoints++;
	cr->checkpoint_total_us += t.total_us;
	crawl_log_event(cr,
	    "checkpoint %s in %.1f ms (%u tables linked); %d URIs in flight are fetched again after a resume from it",
	    cp, (double)t.total_us / 1000.0, t.tables, visit_in_flight(cr->visits));
	snprintf(name, cap, "%s", cp);
	return 0;
}

static void crawl_wake_cb(uv_timer_t *t)
{
	/* Nothing to do here: the prepare phase that follows hands out work. */
	(void)t;
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

/* With nothing in flight and a fetch far off (a retry waiting out
 * frontier.retry-delay-seconds, a long Crawl-delay), the seconds until it;
 * else 0. Short politeness waits are not worth a word. */
static double crawl_next_wait_s(const struct crawl *cr, uint64_t now)
{
	if (cr->state != CRAWL_RUNNING || visit_in_flight(cr->visits) > 0 ||
	    cr->next_wake_ms == UINT64_MAX || cr->next_wake_ms < now + CRAWL_NEXT_SAY_MS)
		return 0;
	return (double)(cr->next_wake_ms - now) / 1000.0;
}

/* The state stats.json and the offline console give: a run that ended
 * stopped (a signal, tern ctl stop) before the job's end is STOPPED, a job
 * that resumes, as tern report's HOLD says; finished at the end or at a
 * limit of the job, FINISHED. */
static const char *crawl_stats_state(const struct crawl *cr)
{
	if (cr->state == CRAWL_FINISHED && cr->stop_reason != NULL &&
	    jobtotals_limit(cr->cfg, &cr->stats, crawl_elapsed_ms(cr)) == NULL)
		return "STOPPED";
	return crawl_state_name(cr->state);
}

json_t *crawl_stats_json(struct crawl *cr)
{
	struct frontier_counts fc;
	double secs = (double)crawl_elapsed_ms(cr) / 1000.0;
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
	    "peak_rss_kb", (json_int_t)crawl_rss_kb());
	if (j != NULL) {
		json_object_set_new(j, "failures_by_cause", failures_json(&cr->stats));
		json_object_set_new(j, "dropped", drops_json(&cr->stats, cr->rules));
	}
	{
		double wait = crawl_next_wait_s(cr, clock_wall_ms());
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

/* The live status (tern(1), STATUS LINE): on a terminal, one line no wider
 * than it, redrawn in place every second; otherwise a plain line every
 * CRAWL_STATUS_PLAIN_MS. */
static void crawl_status_line(struct crawl *cr, const struct frontier_counts *fc, int final)
{
	struct statusline_figures sf;
	struct winsize ws;
	uint64_t now = clock_wall_ms();
	double bytes_s;
	char line[512];
	size_t width = 0;

	statusline_rate_sample(cr->rate, now, cr->stats.pages, cr->stats.bytes);
	if (!cr->tty && !final && now - cr->last_status_ms < CRAWL_STATUS_PLAIN_MS)
		return;
	cr->last_status_ms = now;
	memset(&sf, 0, sizeof sf);
	sf.pages = cr->stats.pages;
	sf.queued = fc->queued;
	sf.failures = cr->stats.failures;
	sf.in_flight = visit_in_flight(cr->visits);
	statusline_rate_get(cr->rate, &sf.rate, &bytes_s);
	sf.mb_rate = bytes_s / 1e6;
	sf.elapsed_s = (double)crawl_elapsed_ms(cr) / 1000.0;
	sf.next_s = crawl_next_wait_s(cr, now);
	sf.eta_s = final
	    ? -1
	    : statusline_eta(cr->stats.pages, (uint64_t)config_int(cr->cfg, CK_CRAWL_MAX_PAGES),
		  sf.rate, sf.elapsed_s, (double)config_int(cr->cfg, CK_CRAWL_MAX_TIME_SECONDS));
	if (!cr->tty) {
		/* A last plain line would only repeat the summary. */
		if (!final) {
			statusline_format(&sf, 0, line, sizeof line);
			fprintf(stderr, "tern: %s\n", line);
		}
		return;
	}
	/* One column short of the edge: some terminals wrap on the last. */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = (size_t)ws.ws_col - 1;
	else
		width = 79;
	statusline_format(&sf, width, line, sizeof line);
	fprintf(stderr, "\r\033[K%s%s", line, final ? "\n" : "");
	fflush(stderr);
}

static void crawl_progress(struct crawl *cr, int final)
{
	uint64_t now = clock_wall_ms();
	struct frontier_counts fc;
	double secs = (double)crawl_elapsed_ms(cr) / 1000.0;
	char t[32];

	frontier_counts(cr->frontier, &fc);
	crawl_status_line(cr, &fc, final);
	if (final || now - cr->last_progress_ms >= CRAWL_PROGRESS_MS) {
		crawllog_iso_time(now, t);
		fprintf(cr->progress,
		    "%s %llu %llu %llu %.1f %.1f %llu %d %llu %llu %llu %llu %ld %llu\n", t,
		    (unsigned long long)fc.discovered, (unsigned long long)fc.queued,
		    (unsigned long long)cr->stats.pages,
		    secs > 0 ? (double)cr->stats.pages / secs : 0.0,
		    secs > 0 ? (double)cr->stats.bytes / secs / 1024 : 0.0,
		    (unsigned long long)cr->stats.failures, visit_in_flight(cr->visits),
		    (unsigned long long)fc.ready, (unsigned long long)fc.snoozed,
		    (unsigned long long)fc.inactive, (unsigned long long)fc.retired, crawl_rss_kb(),
		    (unsigned long long)cr->stats.bytes);
		fflush(cr->progress);
		cr->last_progress_ms = now;
	}
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

/* The end: everything written, handles closed, the loop let go. */
static void crawl_end(struct crawl *cr)
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
		cr->exit_status = 1;
		crawl_log_event(
		    cr, "every seed failed for good: no page answered 2xx or 304 (exit status 1)");
	}
	crawl_set_state(cr, CRAWL_FINISHED, cr->stop_reason);
	crawl_progress(cr, 1);
	crawl_write_reports(cr);
	{
		struct buf by = BUF_INIT;

		failures_brief(&cr->stats, &by);
		crawl_log_event(cr, "crawl %s%s%s: %llu page%s, %llu failure%s%s%s%s",
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
static const char *crawl_limit_reached(struct crawl *cr)
{
	return jobtotals_limit(cr->cfg, &cr->stats, crawl_elapsed_ms(cr));
}

/* The crawl is at its finish: no eligible URI is left (limit NULL) or a
 * limit is reached. With crawl.pause-at-finish it is held (EMPTY, or
 * PAUSING/PAUSED for a limit) so the operator can look and change settings;
 * otherwise, or when the operator unpaused it at finish, it ends. */
static void crawl_at_finish(struct crawl *cr, const char *limit)
{
	if (config_bool(cr->cfg, CK_CRAWL_PAUSE_AT_FINISH) && !cr->end_if_finished) {
		cr->at_finish = 1;
		cr->pause_reason = limit != NULL
		    ? limit
		    : "finished: no eligible queue holds a URI (pause-at-finish)";
		if (limit == NULL)
			crawl_set_state(cr, CRAWL_EMPTY, cr->pause_reason);
		else
			crawl_set_state(cr,
			    visit_in_flight(cr->visits) > 0 ? CRAWL_PAUSING : CRAWL_PAUSED,
			    cr->pause_reason);
		uv_timer_stop(&cr->wake);
		crawl_write_reports(cr);
		return;
	}
	if (limit != NULL) {
		cr->stop_reason = limit;
		crawl_set_state(cr, CRAWL_STOPPING, limit);
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

static void crawl_prepare_cb(uv_prepare_t *h)
{
	struct crawl *cr = h->data;

	if (cr->state == CRAWL_FINISHED)
		return;
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
		crawl_set_state(cr, CRAWL_PAUSED, cr->pause_reason);
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

/* The visits' hooks (struct visit_env). */
static void crawl_visit_event(void *ctx, const char *msg)
{
	crawl_log_event(ctx, "%s", msg);
}

/* A failure said where the person is looking: on a terminal the live
 * status line is cleared first and comes back at its next refresh. */
static void crawl_failure_say(void *ctx, const char *msg, int terminal)
{
	struct crawl *cr = ctx;

	if (terminal)
		crawl_say(cr, "%s", msg);
	else
		crawl_log_event(cr, "%s", msg);
}

/* A seed's redirect target made a seed (crawl.seed-redirects-new-seeds):
 * said in tern.log, counted for the summary. */
static int crawl_visit_new_seed(
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

	crawl_log_event(cr,
	    "seed %s redirects to %s, made a seed%s (crawl.seed-redirects-new-seeds)%s", via, href,
	    (flags & CURI_GUARDED) ? " that the address guard judges as any link, the "
				     "redirecting seed being on a public address"
				   : "",
	    rc < 0 ? "; seeds.txt could not be written: a resume will not know it" : "");
	return 0;
}

static void crawl_visit_ended(void *ctx)
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
static void crawl_node_log(void *ctx, const char *msg)
{
	crawl_log_event(ctx, "%s", msg);
}

static void crawl_node_status(void *ctx, struct cluster_local *out)
{
	struct crawl *cr = ctx;
	struct frontier_counts fc;
	double secs = (double)crawl_elapsed_ms(cr) / 1000.0;

	frontier_counts(cr->frontier, &fc);
	/* A continuous crawl never runs out (its URIs come due again): its
	 * nodes are never idle, and only a stop or a limit ends them. */
	out->frontier_finished = !cr->continuous && frontier_is_finished(cr->frontier);
	out->in_flight = cr->visits != NULL ? (unsigned)visit_in_flight(cr->visits) : 0;
	out->state = crawl_state_name(cr->state);
	out->pages = cr->stats.pages;
	out->bytes = cr->stats.bytes;
	out->failures = cr->stats.failures;
	out->queued = fc.queued;
	out->pages_per_s = secs > 0 ? (double)cr->stats.pages / secs : 0;
}

static void crawl_node_finished(void *ctx)
{
	struct crawl *cr = ctx;

	cr->cluster_over = 1;
}

static void crawl_node_control(void *ctx, const char *node, const char *action, const char *body)
{
	struct crawl *cr = ctx;

	if (cr->on_control != NULL)
		cr->on_control(cr->on_control_arg, node, action, body);
}

static void crawl_visit_disposed(
    void *ctx, const struct curi *c, uint64_t due_ms, uint64_t delay_ms)
{
	struct crawl *cr = ctx;

	clusternode_disposed(cr->node, c, due_ms, delay_ms);
}

static int crawl_visit_may_send(void *ctx, const char *uri)
{
	struct crawl *cr = ctx;

	return clusternode_may_send(cr->node, uri);
}

/* Once, a while into a crawl whose every address so far was on this
 * machine or a private network and that politeness slows: a site of the
 * operator's own, which --local crawls as fast as it answers. */
static void crawl_suggest_local(struct crawl *cr)
{
	if (cr->said_local || cr->node != NULL || cr->state != CRAWL_RUNNING ||
	    clock_wall_ms() - cr->start_ms < CRAWL_SUGGEST_LOCAL_MS ||
	    cr->stats.local_visits == 0 || cr->stats.remote_visits > 0 ||
	    config_int(cr->cfg, CK_POLITENESS_MIN_DELAY_MS) == 0)
		return;
	cr->said_local = 1;
	crawl_say(cr,
	    "every host so far is on this machine or a private network, and politeness "
	    "waits at least %lld ms between its fetches: for a site of your own, stop "
	    "(Ctrl-C) and `tern resume %s --local` crawls it as fast as it answers",
	    (long long)config_int(cr->cfg, CK_POLITENESS_MIN_DELAY_MS), cr->jobdir);
}

/* The least free space, in MiB, of the file systems the crawl writes to:
 * the job directory, its WARCs and its store with the spill files (any of
 * them may be a mount of its own). */
static uint64_t crawl_disk_free_mb(const struct crawl *cr)
{
	static const char *const sub[] = {"", "/warcs", "/state", "/state/tmp"};
	uint64_t least = UINT64_MAX;
	char path[4096];
	struct statvfs sv;

	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		snprintf(path, sizeof path, "%s%s", cr->jobdir, sub[i]);
		if (statvfs(path, &sv) == 0 && ((uint64_t)sv.f_bavail * sv.f_frsize >> 20) < least)
			least = (uint64_t)sv.f_bavail * sv.f_frsize >> 20;
	}
	return least;
}

/* The disk watch: every second, and at once when a write failed for want
 * of space (enospc; what names the write). It pauses a running crawl and
 * resumes the crawl it paused, never one the operator paused. */
static void crawl_disk_check(struct crawl *cr, int enospc, const char *what)
{
	uint64_t below = (uint64_t)config_int(cr->cfg, CK_CRAWL_PAUSE_BELOW_FREE_MB);
	uint64_t above = (uint64_t)config_int(cr->cfg, CK_CRAWL_RESUME_ABOVE_FREE_MB);
	uint64_t resume = diskguard_resume_mb(below, above), free_mb;

	if (cr->state == CRAWL_STOPPING || cr->state == CRAWL_FINISHED ||
	    (below == 0 && !enospc && !cr->disk_paused))
		return;
	free_mb = crawl_disk_free_mb(cr);
	switch (diskguard_judge(cr->disk_paused, free_mb, enospc, below, above)) {
	case DISKGUARD_PAUSE:
		if (cr->state != CRAWL_RUNNING)
			return; /* the operator's pause, or at finish: theirs to end */
		if (enospc)
			snprintf(cr->disk_reason, sizeof cr->disk_reason,
			    "disk full: no space left for %s (%llu MiB free); paused until more "
			    "than %llu MiB are free (crawl.resume-above-free-mb)",
			    what, (unsigned long long)free_mb, (unsigned long long)resume);
		else
			snprintf(cr->disk_reason, sizeof cr->disk_reason,
			    "disk low: %llu MiB free under %s, below %llu MiB "
			    "(crawl.pause-below-free-mb); paused until more than %llu MiB are free "
			    "(crawl.resume-above-free-mb)",
			    (unsigned long long)free_mb, cr->jobdir, (unsigned long long)below,
			    (unsigned long long)resume);
		cr->disk_paused = 1;
		cr->pause_reason = cr->disk_reason;
		uv_timer_stop(&cr->wake);
		crawl_say(cr, "%s", cr->disk_reason);
		crawl_set_state(cr, visit_in_flight(cr->visits) > 0 ? CRAWL_PAUSING : CRAWL_PAUSED,
		    cr->pause_reason);
		break;
	case DISKGUARD_RESUME:
		cr->disk_paused = 0;
		if ((cr->state != CRAWL_PAUSING && cr->state != CRAWL_PAUSED) ||
		    cr->pause_reason != cr->disk_reason)
			break;
		cr->pause_reason = NULL;
		crawl_say(cr, "disk: %llu MiB free under %s, more than %llu MiB: resumed",
		    (unsigned long long)free_mb, cr->jobdir, (unsigned long long)resume);
		crawl_set_state(cr, CRAWL_RUNNING, "disk space is back");
		break;
	case DISKGUARD_KEEP:
		break;
	}
}

static void crawl_cron_cb(uv_timer_t *t)
{
	struct crawl *cr = t->data;
	const char *limit;

	if (cr->state == CRAWL_RUNNING && (limit = crawl_limit_reached(cr)) != NULL)
		crawl_at_finish(cr, limit);
	crawl_disk_check(cr, 0, NULL);
	crawl_progress(cr, 0);
	crawl_suggest_local(cr);
}

/* A visit could not write for want of space (its spill file): the crawl
 * pauses until there is room, and the visit's URI waits in its queue. */
static void crawl_visit_disk_full(void *ctx, const char *what)
{
	crawl_disk_check(ctx, 1, what);
}

static void crawl_grace_cb(uv_timer_t *t)
{
	struct crawl *cr = t->data;

	crawl_log_event(cr, "abandoning %d in-flight fetches; they are fetched again on resume",
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
	crawl_set_state(
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
		crawl_set_state(cr, CRAWL_STOPPING, limit);
		return 0;
	}
	crawl_set_state(cr, CRAWL_RUNNING, "unpaused by the operator");
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
	crawl_set_state(cr, CRAWL_STOPPING, reason);
	if (visit_in_flight(cr->visits) > 0) {
		crawl_log_event(cr, "in-flight fetches get %d ms", CRAWL_GRACE_MS);
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
		crawl_set_state(cr, CRAWL_RUNNING, "settings changed at finish");
	}
}

static void crawl_signal_cb(uv_signal_t *s, int signum)
{
	struct crawl *cr = s->data;
	const char *why;

	cr->signals++;
	if (cr->signals > 1) {
		/* A second signal: leave now, keeping what is recorded, and say
		 * so below the status line rather than over it. */
		crawl_log_event(cr, "second signal %d: exiting at once", signum);
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
	crawl_log_event(
	    cr, "signal %d: stopping; in-flight fetches get %d ms", signum, CRAWL_GRACE_MS);
	crawl_stop(cr, signum == SIGINT ? "interrupted" : "terminated", &why);
	uv_timer_start(&cr->grace, crawl_grace_cb, CRAWL_GRACE_MS, 0);
}

static unsigned crawl_next_warc_serial(const char *dir)
{
	return job_max_warc_serial(dir) + 1;
}

/* The dedup index's filter: a Bloom filter like the frontier's seen set's,
 * so that a new payload digest, the common case, is proven new without a
 * LevelDB read. Without it (a store read error) the index reads as before. */
static void crawl_dedup_add(void *arg, uint64_t h)
{
	bloom_add(arg, h);
}

static int crawl_dedup_test(void *arg, uint64_t h)
{
	return bloom_test(arg, h);
}

static void crawl_dedup_filter(struct crawl *cr)
{
	struct dedup_filter f;
	char *err = NULL;

	/* 16 bits a digest: a false positive costs a store read (0.1 % of
	 * new digests, as the seen set's default). */
	cr->dedup_bloom = bloom_new(1u << 16, 16);
	f.arg = cr->dedup_bloom;
	f.add = crawl_dedup_add;
	f.test = crawl_dedup_test;
	if (dedup_set_filter(cr->dedup, &f, &err) < 0) {
		crawl_log_event(cr, "%s", err);
		free(err);
	}
}

static int crawl_open_outputs(struct crawl *cr, char **err)
{
	struct config *cfg = cr->cfg;
	char *p;

	p = xasprintf("%s/logs/crawl.log", cr->jobdir);
	/* A kill may have cut the last line short; its URI is still queued. */
	job_log_repair(p);
	cr->crawllog = fopen(p, "a");
	free(p);
	p = xasprintf("%s/logs/tern.log", cr->jobdir);
	cr->ternlog = fopen(p, "a");
	free(p);
	p = xasprintf("%s/logs/progress.log", cr->jobdir);
	cr->progress = fopen(p, "a");
	free(p);
	if (cr->crawllog == NULL || cr->ternlog == NULL || cr->progress == NULL) {
		*err = xasprintf("%s/logs: %s", cr->jobdir, strerror(errno));
		return -1;
	}
	/* crawl.log is flushed explicitly, once per loop iteration. */
	setvbuf(cr->crawllog, NULL, _IOFBF, 1 << 16);
	if (ftell(cr->progress) == 0)
		fprintf(cr->progress,
		    "# timestamp discovered queued downloaded pages/s(avg) KB/s(avg) failures in-flight ready snoozed inactive retired rss-KB bytes\n");
	if (config_bool(cfg, CK_WARC_ENABLED)) {
		struct warc_opts wo;
		char host[256], *extra, *wdir = xasprintf("%s/warcs", cr->jobdir);
		if (gethostname(host, sizeof host) != 0)
			snprintf(host, sizeof host, "localhost");
		host[sizeof host - 1] = '\0';
		extra = xasprintf("operator: %s\r\nhttp-header-user-agent: %s\r\nrobots: %s\r\n"
				  "description: tern crawl of job %s\r\n",
		    "tern operator", config_str(cfg, CK_CRAWL_USER_AGENT),
		    config_str(cfg, CK_ROBOTS_POLICY), cr->jobdir);
		memset(&wo, 0, sizeof wo);
		wo.dir = wdir;
		wo.prefix = config_str(cfg, CK_WARC_PREFIX);
		wo.max_size = (uint64_t)config_int(cfg, CK_WARC_MAX_SIZE_BYTES);
		wo.version10 = config_enum(cfg, CK_WARC_VERSION) == 1;
		wo.software = "tern/" PACKAGE_VERSION;
		wo.hostname = host;
		wo.first_serial = crawl_next_warc_serial(wdir);
		if (cr->warc_serial_floor > wo.first_serial)
			wo.first_serial = cr->warc_serial_floor;
		wo.warcinfo_extra = extra;
		{
			/* Files a killed run left ".open" are cut to their last
			 * whole record and closed (doc/warc.md). The serial
			 * above was taken first, so a file removed here never
			 * has its serial reused. The frontier's LevelDB lock,
			 * held already, keeps any other tern off this job. A
			 * file that cannot be recovered stays as it is and
			 * the crawl goes on with new files. */
			struct buf rep = BUF_INIT;
			char *rerr = NULL, *line, *nl;

			/* The report has a line for each failure too. */
			if (warcrecover_dir(wdir, &rep, &rerr) < 0)
				free(rerr);
			for (line = rep.data; line != NULL && (nl = strchr(line, '\n')) != NULL;
			     line = nl + 1)
				crawl_log_event(cr, "WARC recovery: %.*s", (int)(nl - line), line);
			buf_free(&rep);
		}
		cr->warc = warc_open(&wo, err);
		free(extra);
		free(wdir);
		if (cr->warc == NULL)
			return -1;
		if (config_enum(cfg, CK_WARC_DEDUP) == 0) {
			cr->dedup = dedup_open(frontier_db(cr->frontier), err);
			if (cr->dedup == NULL)
				return -1;
			crawl_dedup_filter(cr);
		}
	}
	return 0;
}

static void crawl_free(struct crawl *cr)
{
	/* A crawl that failed after joining its cluster leaves it first (it
	 * holds nothing yet: partitions are claimed once the loop runs). */
	if (cr->node != NULL)
		clusternode_leave(cr->node, crawl_node_left, cr);
	/* Made before the job (crawl_open_services) and freed by crawl_end
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

/* What continues a crawl that stopped before its end: at a limit of the
 * job, a resume that raises it; otherwise a plain resume. A cluster node
 * is continued as its crawl is (doc/cluster.md). */
static void crawl_print_next(const struct crawl *cr)
{
	static const struct {
		const char *reason;
		enum config_key key;
	} limits[] = {
	    {"max-pages reached", CK_CRAWL_MAX_PAGES},
	    {"max-bytes reached", CK_CRAWL_MAX_BYTES},
	    {"max-time-seconds reached", CK_CRAWL_MAX_TIME_SECONDS},
	};

	if (cr->stop_reason == NULL || cr->node != NULL)
		return;
	for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
		if (strcmp(cr->stop_reason, limits[i].reason) == 0) {
			printf("tern: to crawl further: tern resume %s --set %s=%lld\n", cr->jobdir,
			    config_name(limits[i].key),
			    (long long)config_int(cr->cfg, limits[i].key) * 2);
			return;
		}
	printf("tern: to continue: tern resume %s\n", cr->jobdir);
}

static void crawl_print_summary(const struct crawl *cr)
{
	double secs = (double)crawl_elapsed_ms(cr) / 1000.0;

	printf("tern: crawl %s%s%s in %.1f s: %llu page%s (%.1f pages/s), %llu failure%s; "
	       "2xx %llu, 3xx %llu, 4xx %llu, 5xx %llu\n",
	    cr->stop_reason ? "stopped" : "finished", cr->stop_reason ? ", " : "",
	    cr->stop_reason ? cr->stop_reason : "", secs, (unsigned long long)cr->stats.pages,
	    CRAWL_PLURAL(cr->stats.pages), secs > 0 ? (double)cr->stats.pages / secs : 0.0,
	    (unsigned long long)cr->stats.failures, CRAWL_PLURAL(cr->stats.failures),
	    (unsigned long long)cr->stats.status_class[2],
	    (unsigned long long)cr->stats.status_class[3],
	    (unsigned long long)cr->stats.status_class[4],
	    (unsigned long long)cr->stats.status_class[5]);
	failures_print(&cr->stats, stdout);
	drops_print(&cr->stats, cr->rules, stdout);
	if (cr->all_failed)
		printf(
		    "tern: every seed failed for good: no page answered 2xx or 304 (exit status 1); "
		    "the first failure of each host is said above and in %s/logs/tern.log\n",
		    cr->jobdir);
	if (cr->seed_count.redirects > 0)
		printf(
		    "tern: %zu seed%s made by seeds' redirects (crawl.seed-redirects-new-seeds), "
		    "listed in %s/seeds.txt\n",
		    cr->seed_count.redirects, cr->seed_count.redirects == 1 ? "" : "s", cr->jobdir);
	if (cr->elapsed_before_ms > 0)
		printf("tern: the job's totals over every run; this run: %llu page%s in %.1f s\n",
		    (unsigned long long)(cr->stats.pages - cr->pages_at_start),
		    CRAWL_PLURAL(cr->stats.pages - cr->pages_at_start),
		    (double)(clock_wall_ms() - cr->start_ms) / 1000.0);
	/* URIs left where only the operator can release them (doc/formats.md, "When a crawl ends"). */
	if (cr->frontier != NULL) {
		struct frontier_counts fc;
		frontier_counts(cr->frontier, &fc);
		if (fc.retired > 0)
			printf(
			    "tern: %llu retired queues hold %llu URIs (tern report %s queues --state retired)\n",
			    (unsigned long long)fc.retired, (unsigned long long)fc.retired_uris,
			    cr->jobdir);
		if (fc.ineligible > 0)
			printf(
			    "tern: %llu ineligible queues (at or past the precedence floor) hold %llu URIs\n",
			    (unsigned long long)fc.ineligible,
			    (unsigned long long)fc.ineligible_uris);
	}
	printf(
	    "tern: crawl.log %s/logs/crawl.log\ntern: WARCs    %s/warcs/\ntern: reports  %s/reports/\n",
	    cr->jobdir, cr->jobdir, cr->jobdir);
	crawl_print_next(cr);
}

/* The loop, the resolver and the fetch engine: made from the settings
 * alone, before the job, so that bad DNS or TLS settings refuse the crawl
 * before anything is written. */
static int crawl_open_services(struct crawl *cr)
{
	char *err = NULL;

	uv_loop_init(&cr->loop);
	cr->loop_ready = 1;
	cr->dns = dns_new(&cr->loop, cr->cfg, &err);
	if (cr->dns == NULL) {
		fprintf(stderr, "tern: DNS: %s\n", err);
		free(err);
		return -1;
	}
	cr->fetcher = fetcher_new(&cr->loop, cr->cfg, cr->dns, &err);
	if (cr->fetcher == NULL) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		return -1;
	}
	return 0;
}

/* The job's totals from its store. A resume of a job that finished with
 * nothing held back, or that has reached one of its limits, says so and
 * changes nothing: the
 * frontier is closed (cr->frontier NULL) and 0 returned. */
static int crawl_open_totals(struct crawl *cr, const struct crawl_opts *o)
{
	struct jobtotals t;
	struct frontier_counts fc;
	const char *limit;
	char *err = NULL, when[32];
	int rc = jobtotals_load(cr->frontier, &t, &err);

	if (rc < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		return 1;
	}
	if (rc == 1) {
		/* The store's record is written with the URIs it counts, so
		 * it wins over a restored checkpoint's crawl.json. */
		cr->stats = t.stats;
		cr->elapsed_before_ms = t.elapsed_ms;
		cr->finished_ms = t.finished_ms;
		cr->saved = t;
	}
	cr->pages_at_start = cr->stats.pages;
	/* The rate's first second counts from the start. */
	statusline_rate_sample(cr->rate, cr->start_ms, cr->stats.pages, cr->stats.bytes);
	if (!o->resume)
		return 0;
	frontier_counts(cr->frontier, &fc);
	/* URIs held in retired or ineligible queues are the operator's to
	 * release (an edited budget or floor in tern.conf, reconsider-retired
	 * while paused at finish): such a job resumes. */
	if (cr->finished_ms != 0 && frontier_is_finished(cr->frontier) && fc.retired_uris == 0 &&
	    fc.ineligible_uris == 0) {
		time_t sec = (time_t)(cr->finished_ms / 1000);
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&sec));
		printf("tern: %s: this crawl finished at %s with %llu page%s and %llu failure%s; "
		       "nothing to resume (reports in %s/reports/)\n",
		    cr->jobdir, when, (unsigned long long)cr->stats.pages,
		    CRAWL_PLURAL(cr->stats.pages), (unsigned long long)cr->stats.failures,
		    CRAWL_PLURAL(cr->stats.failures), cr->jobdir);
	} else if ((limit = crawl_limit_reached(cr)) != NULL) {
		printf("tern: %s: this crawl is at a limit of the job (%s: %llu pages, %llu bytes, "
		       "%.0f s); nothing to resume: raise the limit to crawl further "
		       "(tern resume %s --set crawl.%.*s=...)\n",
		    cr->jobdir, limit, (unsigned long long)cr->stats.pages,
		    (unsigned long long)cr->stats.bytes, (double)cr->elapsed_before_ms / 1000.0,
		    cr->jobdir, (int)strcspn(limit, " "), limit);
	} else {
		return 0;
	}
	/* Closed as it was opened: not even the time of this look is added. */
	frontier_set_prewrite(cr->frontier, NULL, NULL);
	frontier_close(cr->frontier);
	cr->frontier = NULL;
	return 0;
}

/* The seeds' count, said at the start: a seed listed twice (or once more
 * with a #fragment) is fetched once, and the operator sees it. */
static void crawl_say_seeds(struct crawl *cr, int resume)
{
	const struct seeds_count *n = &cr->seed_count;

	if (n->given == 0)
		return;
	if (resume && n->redirects > 0)
		crawl_say(cr, "%zu seed%s from %s/seeds.txt (%zu made by seeds' redirects)",
		    n->kept, n->kept == 1 ? "" : "s", cr->jobdir, n->redirects);
	else if (resume)
		crawl_say(cr, "%zu seed%s from %s/seeds.txt", n->kept, n->kept == 1 ? "" : "s",
		    cr->jobdir);
	else if (n->kept < n->given)
		crawl_say(cr,
		    "%zu seed%s given, %zu kept: %zu repeated a seed before it (the same "
		    "URI but for a #fragment or a default port)",
		    n->given, n->given == 1 ? "" : "s", n->kept, n->given - n->kept);
	else
		crawl_say(
		    cr, "%zu seed%s given, %zu kept", n->given, n->given == 1 ? "" : "s", n->kept);
}

/* Everything a crawl needs before its loop runs, in the order that lets a
 * failure say the most: the job, the scope, a restored checkpoint, the
 * frontier, the seeds, the outputs, then the loop's services. */
int crawl_open(struct config *cfg, const struct crawl_opts *o, struct crawl **out)
{
	char restored[CHECKPOINT_NAME_MAX] = "";
	uint64_t restored_log_bytes = 0;
	struct crawl *cr;
	struct scope_opts so;
	struct schedule_opts sco;
	struct visit_env env;
	struct seeds_env sde;
	char *err = NULL, *statedir = NULL;
	uint64_t nofile, nofile_before;
	int rc, wanted_conns, conns;

	*out = NULL;
	if (scope_validate(config_str(cfg, CK_CRAWL_SCOPE), &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		return 2;
	}
	/* Before the store is opened (LevelDB sizes its own use of descriptors
	 * from the limit it finds) and before the job is made, so that a limit
	 * too low for one connection leaves nothing behind. */
	if (fdlimit_raise(&nofile, &nofile_before, &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		return 1;
	}
	wanted_conns = (int)config_int(cfg, CK_CRAWL_MAX_CONNECTIONS);
	conns = fdlimit_connections(nofile, wanted_conns);
	if (conns == 0) {
		fprintf(stderr,
		    "tern: the open-file limit (ulimit -n) is %llu: tern keeps %llu "
		    "descriptors for its store, WARCs, logs and control socket, and a connection "
		    "needs 2 more; raise the limit\n",
		    (unsigned long long)nofile, (unsigned long long)fdlimit_reserve(nofile));
		return 2;
	}
	cr = xcalloc(1, sizeof *cr);
	cr->cfg = cfg;
	cr->jobdir = xstrdup(o->jobdir);
	cr->start_ms = clock_wall_ms();
	cr->last_progress_ms = cr->start_ms;
	cr->last_checkpoint_ms = cr->start_ms;
	signal(SIGPIPE, SIG_IGN);

	/* Everything the operator gave is checked before the job directory
	 * is made, so that a refusal leaves nothing behind. */
	if (!o->resume &&
	    (rc = seeds_check(o->seeds, o->nseeds, o->seedfile, clusternode_configured(cfg))) !=
		0) {
		crawl_free(cr);
		return rc;
	}
	if (crawl_open_services(cr) < 0) {
		crawl_free(cr);
		return 2;
	}
	if (o->resume) {
		if (job_check_resumable(cr->jobdir, &err) < 0) {
			fprintf(stderr, "tern: %s\n", err);
			free(err);
			crawl_free(cr);
			return 2;
		}
		/* Before a checkpoint is restored over a store another
		 * process has open, and instead of LevelDB's lock error. */
		if (job_check_unlocked(cr->jobdir, &err) < 0) {
			fprintf(stderr, "tern: %s\n", err);
			free(err);
			crawl_free(cr);
			return 1;
		}
	} else if (job_create(cr->jobdir, cfg, &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		crawl_free(cr);
		return 2;
	}

	robots_agent_token(config_str(cfg, CK_CRAWL_USER_AGENT), cr->agent, sizeof cr->agent);
	cr->robots_policy = config_enum(cfg, CK_ROBOTS_POLICY);
	cr->continuous = config_enum(cfg, CK_CRAWL_MODE) == 1;
	cr->max_conns = conns;
	cr->hosts = hosts_new(CRAWL_HOSTS_CAPACITY);
	cr->tmpdir = xasprintf("%s/state/tmp", cr->jobdir);
	cr->tty = isatty(STDERR_FILENO);
	cr->rate = statusline_rate_new();
	cr->last_status_ms = cr->start_ms;

	memset(&so, 0, sizeof so);
	so.scope = config_str(cfg, CK_CRAWL_SCOPE);
	so.max_hops = (int)config_int(cfg, CK_CRAWL_MAX_HOPS);
	so.max_trans_hops = (int)config_int(cfg, CK_CRAWL_MAX_TRANS_HOPS);
	so.max_uri_length = (size_t)config_int(cfg, CK_CRAWL_MAX_URI_LENGTH);
	so.max_path_repeats = (int)config_int(cfg, CK_CRAWL_MAX_PATH_REPEATS);
	so.max_query_length = (size_t)config_int(cfg, CK_CRAWL_MAX_QUERY_LENGTH);
	cr->scope = scope_new(&so);

	if (o->resume && o->checkpoint != NULL) {
		struct checkpoint_restored rs;
		int r = checkpoint_restore(cr->jobdir, o->checkpoint, &rs, &err);
		if (r < 0) {
			fprintf(stderr, "tern: %s\n", err);
			free(err);
			crawl_free(cr);
			return r == -2 ? 2 : 1;
		}
		if (rs.have_stats)
			cr->stats = rs.stats;
		cr->warc_serial_floor = rs.warc_next_serial;
		snprintf(restored, sizeof restored, "%s", rs.name);
		restored_log_bytes = rs.crawl_log_bytes;
	}
	statedir = xasprintf("%s/state/frontier", cr->jobdir);
	cr->frontier = frontier_open(statedir, cfg, !o->resume, cr->start_ms, &err);
	free(statedir);
	if (cr->frontier == NULL) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		crawl_free(cr);
		return 1;
	}
	frontier_set_prewrite(cr->frontier, crawl_flush_outputs, cr);
	rc = crawl_open_totals(cr, o);
	if (rc != 0 || cr->frontier == NULL) {
		crawl_free(cr);
		return rc;
	}
	if (cookies_open(cfg, cr->frontier, &cr->cookies, &cr->cookies_said, &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		crawl_free(cr);
		return 1;
	}
	cr->rules = drops_rules_new(cfg);
	if (drops_load(cr->frontier, cr->rules, &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		crawl_free(cr);
		return 1;
	}
	memset(&sco, 0, sizeof sco);
	sco.cfg = cfg;
	sco.frontier = cr->frontier;
	sco.scope = cr->scope;
	sco.rules = cr->rules;
	sco.stats = &cr->stats;
	sco.canon_flags = canon_flags(cfg);
	sco.assign = config_enum(cfg, CK_FRONTIER_QUEUE_ASSIGNMENT);
	cr->sched = schedule_new(&sco);
	cr->seedhosts = seedhosts_new();
	if (clusternode_configured(cfg)) {
		/* Joined before the seeds: they are handed to their
		 * partitions' owners like any discovered URI. */
		struct clusternode_env ne;
		memset(&ne, 0, sizeof ne);
		ne.cfg = cfg;
		ne.frontier = cr->frontier;
		ne.sched = cr->sched;
		ne.scope = cr->scope;
		ne.seedhosts = cr->seedhosts;
		ne.jobdir = cr->jobdir;
		ne.ctx = cr;
		ne.log = crawl_node_log;
		ne.status = crawl_node_status;
		ne.finished = crawl_node_finished;
		ne.control = crawl_node_control;
		rc = clusternode_open(&cr->loop, &ne, &cr->node);
		if (rc != 0) {
			crawl_free(cr);
			return rc;
		}
		schedule_set_handoff(cr->sched, clusternode_handoff, cr->node);
	}

	memset(&sde, 0, sizeof sde);
	sde.scope = cr->scope;
	sde.sched = cr->sched;
	sde.frontier = cr->frontier;
	sde.hosts = cr->seedhosts;
	sde.count = &cr->seed_count;
	/* A cluster node may start with none and take its share of the
	 * work the others were given. */
	sde.none_ok = cr->node != NULL;
	rc = seeds_load(&sde, cr->jobdir, o->resume, o->seeds, o->nseeds, o->seedfile);
	if (rc != 0) {
		crawl_free(cr);
		return rc;
	}
	cr->seeds = sde;
	if (crawl_open_outputs(cr, &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		crawl_free(cr);
		return 1;
	}
	crawl_say_seeds(cr, o->resume);
	if (restored[0] != '\0')
		crawl_log_event(cr,
		    "restored checkpoint %s; crawl.log lines after byte %llu were written after it",
		    restored, (unsigned long long)restored_log_bytes);
	if (nofile > nofile_before)
		crawl_log_event(cr, "open-file limit raised from %llu to %llu",
		    (unsigned long long)nofile_before, (unsigned long long)nofile);
	if (conns < wanted_conns) {
		char *msg = xasprintf(
		    "crawl.max-connections %d lowered to %d: the open-file limit "
		    "(ulimit -n) is %llu, %llu descriptors are kept for the store, WARCs, logs and "
		    "the control socket, and each connection may need 2",
		    wanted_conns, conns, (unsigned long long)nofile,
		    (unsigned long long)fdlimit_reserve(nofile));
		crawl_log_event(cr, "%s", msg);
		fprintf(stderr, "tern: %s\n", msg);
		free(msg);
	}
	if (frontier_flush(cr->frontier, &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		crawl_free(cr);
		return 1;
	}

	fetcher_limit_idle(cr->fetcher, fdlimit_idle(nofile, conns));
	schedule_set_dns(cr->sched, cr->dns);
	{
		struct failures_env fe = {&cr->stats, cr, crawl_failure_say};

		cr->failures = failures_new(&fe);
	}
	if (cr->warc != NULL)
		cr->warcpool = warcpool_new(&cr->loop, cr->warc, cr->dedup, cr->crawllog, 0);
	memset(&env, 0, sizeof env);
	env.cfg = cfg;
	env.frontier = cr->frontier;
	env.schedule = cr->sched;
	env.dns = cr->dns;
	env.fetcher = cr->fetcher;
	env.hosts = cr->hosts;
	env.warc = cr->warc;
	env.warcpool = cr->warcpool;
	env.dedup = cr->dedup;
	env.seedhosts = cr->seedhosts;
	env.crawllog = cr->crawllog;
	env.tmpdir = cr->tmpdir;
	env.agent = cr->agent;
	env.robots_policy = cr->robots_policy;
	env.continuous = cr->continuous;
	env.max_conns = cr->max_conns;
	env.stats = &cr->stats;
	env.failures = cr->failures;
	env.cookies = cr->cookies;
	env.ctx = cr;
	env.event = crawl_visit_event;
	env.disk_full = crawl_visit_disk_full;
	env.ended = crawl_visit_ended;
	env.scope = cr->scope;
	env.new_seed = crawl_visit_new_seed;
	if (cr->node != NULL) {
		env.disposed = crawl_visit_disposed;
		env.may_send = crawl_visit_may_send;
	}
	cr->visits = visit_pool_new(&env);
	if (cr->node != NULL)
		clusternode_set_visits(cr->node, cr->visits);
	crawl_log_event(cr, "%s job %s with %d connections", o->resume ? "resuming" : "starting",
	    cr->jobdir, cr->max_conns);
	crawl_log_event(cr, "%s", cr->cookies_said);

	uv_prepare_init(&cr->loop, &cr->prepare);
	cr->prepare.data = cr;
	uv_prepare_start(&cr->prepare, crawl_prepare_cb);
	uv_idle_init(&cr->loop, &cr->idle);
	uv_timer_init(&cr->loop, &cr->wake);
	uv_timer_init(&cr->loop, &cr->cron);
	cr->cron.data = cr;
	uv_timer_start(&cr->cron, crawl_cron_cb, 1000, 1000);
	uv_timer_init(&cr->loop, &cr->grace);
	cr->grace.data = cr;
	uv_signal_init(&cr->loop, &cr->sigint);
	uv_signal_init(&cr->loop, &cr->sigterm);
	cr->sigint.data = cr->sigterm.data = cr;
	uv_signal_start(&cr->sigint, crawl_signal_cb, SIGINT);
	uv_signal_start(&cr->sigterm, crawl_signal_cb, SIGTERM);
	*out = cr;
	return 0;
}

void crawl_on_end(struct crawl *cr, void (*cb)(void *arg), void *arg)
{
	cr->on_end = cb;
	cr->on_end_arg = arg;
}

void crawl_refuse(struct crawl *cr, const char *reason)
{
	cr->stop_reason = reason;
	cr->state = CRAWL_STOPPING;
	cr->exit_status = 1;
}

int crawl_run(struct crawl *cr)
{
	char *err = NULL;
	int rc;

	if (cr->state == CRAWL_RUNNING && config_bool(cr->cfg, CK_CRAWL_PAUSE_AT_START)) {
		cr->pause_reason = "pause-at-start";
		crawl_set_state(cr, CRAWL_PAUSED, cr->pause_reason);
	}

	uv_run(&cr->loop, UV_RUN_DEFAULT);
	/* A last pass lets closing handles finish. */
	uv_run(&cr->loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&cr->loop) != 0)
		crawl_log_event(cr, "event loop closed with handles still open");
	cr->loop_ready = 0;

	crawl_print_summary(cr);
	rc = cr->exit_status;
	if (cr->warc != NULL && warc_flush(cr->warc, &err) < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
		rc = 1;
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
	st->seconds = (double)crawl_elapsed_ms(cr) / 1000.0;
	st->store_write_ns = cr->store_write_ns;
	st->store_write_max_ns = cr->store_write_max_ns;
	st->checkpoints = cr->checkpoints;
	st->checkpoint_total_us = cr->checkpoint_total_us;
	st->checkpoint_last_us = cr->checkpoint_us;
	st->next_fetch_s = crawl_next_wait_s(cr, clock_wall_ms());
}
