/* The crawl loop: one libuv loop that takes URIs from the frontier, walks
 * each through its prerequisites (DNS, robots.txt) and its fetch (visit.c),
 * writes crawl.log and WARC records, schedules the outlinks, and flushes the
 * frontier's batch once per loop iteration.
 *
 * struct crawl is shared by crawl.c (the loop, limits, signals, reports) and
 * visit.c (one URI's journey); nothing else sees inside it. */
#ifndef TERN_CRAWL_H
#define TERN_CRAWL_H
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "lib/buf.h"
#include "lib/politeness.h"

struct config;
struct curi;

struct crawl_opts {
	const char *jobdir;
	char *const *seeds;	/* seed URLs from the command line */
	size_t nseeds;
	const char *seedfile;	/* one URL a line, '#' comments */
	int resume;		/* continue an existing job from its live state */
	const char *checkpoint;	/* with resume: restore this checkpoint (NAME or "latest") first */
};

/* Runs a crawl to its end; returns the process exit status (CONTRACT 2). */
int crawl_run(struct config *cfg, const struct crawl_opts *o);

/* CONTRACT section 7's states. Work is handed out only while RUNNING. */
enum crawl_state {
	CRAWL_RUNNING,
	CRAWL_PAUSING,		/* no new work; PAUSED once nothing is in flight */
	CRAWL_PAUSED,		/* by the operator, pause-at-start, or a limit with pause-at-finish */
	CRAWL_EMPTY,		/* finished, held by crawl.pause-at-finish */
	CRAWL_STOPPING,		/* no new work; in-flight visits end, then the crawl ends */
	CRAWL_FINISHED,
	CRAWL__NSTATES
};

struct crawl_stats {
	uint64_t pages;		/* final dispositions with an HTTP status */
	uint64_t bytes;		/* raw entity bytes of those */
	uint64_t failures;	/* final negative statuses */
	uint64_t dns_lookups;
	uint64_t robots_fetches;
	uint64_t retries;
	uint64_t revisits;
	uint64_t links_scheduled;
	uint64_t status_class[6];	/* 1xx..5xx by index 1-5; 0 for negatives */
};

struct visit;

struct crawl {
	uv_loop_t loop;
	struct config *cfg;
	char *jobdir;
	struct frontier *frontier;
	struct dns *dns;
	struct fetcher *fetcher;
	struct warc_writer *warc;
	struct dedup *dedup;
	struct scope *scope;
	struct hosts *hosts;
	FILE *crawllog;
	FILE *ternlog;
	FILE *progress;
	char *tmpdir;			/* JOBDIR/state/tmp: spill files */
	char agent[64];			/* robots.txt product token */
	unsigned canon_flags;
	int assign;			/* enum surt_assign */
	int robots_policy;		/* 0 obey, 1 ignore, 2 calculate-only */
	int max_conns;
	int in_flight;
	unsigned char *slots;		/* slot numbers in use, for crawl.log's #NNN */
	struct visit *visits;		/* every visit in progress */
	enum crawl_state state;
	const char *stop_reason;
	const char *pause_reason;	/* why PAUSING, PAUSED or EMPTY */
	int at_finish;			/* paused by pause-at-finish */
	int end_if_finished;		/* unpaused at finish: end if still finished */
	struct ctlserver *ctl;		/* JOBDIR/control.sock */
	uint64_t last_checkpoint_ms;	/* or the start: checkpoint.interval-minutes counts from it */
	uint64_t checkpoint_us;		/* duration of the last checkpoint (metrics) */
	unsigned warc_serial_floor;	/* a restored checkpoint's next WARC serial */
	int exit_status;
	int signals;
	uint64_t start_ms;
	struct crawl_stats stats;
	struct buf line;		/* scratch for log lines */
	/* Scratch of crawl_schedule, kept across calls: it runs once per
	 * extracted link. */
	struct buf sched_href, sched_canon, sched_queue, sched_surt;
	uv_prepare_t prepare;
	uv_idle_t idle;
	uv_timer_t wake;
	uv_timer_t cron;
	uv_timer_t grace;
	uv_signal_t sigint, sigterm;
	int tty;
	uint64_t last_progress_ms;
	uint64_t last_warc_error_ms;	/* rate limit of the disk-full message */
	uint64_t store_write_ns;	/* time in the frontier's LevelDB writes */
	uint64_t store_write_max_ns;
	uint64_t checkpoints;
	uint64_t checkpoint_total_us;
	uint64_t last_pages;
};

/* Wall clock, ms since the epoch: frontier wake times are stored, so they
 * must survive a restart. */
uint64_t crawl_now_ms(void);
/* Appends a runtime event to logs/tern.log (and stderr when serious). */
void crawl_log_event(struct crawl *cr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Called by a visit that has ended, after it has told the frontier. */
void crawl_visit_ended(struct crawl *cr);
/* The queue key of href into out (replacing its contents), by
 * frontier.queue-assignment, split by frontier.parallel-queues (read for
 * surt). Under ip assignment, ip is the host's address, or NULL to key by the
 * DNS cache's answer when it has one and by the host name until then. */
int crawl_queue_key(struct crawl *cr, const char *href, const char *surt, const char *ip,
    struct buf *out);

/* Schedules a discovered absolute URI: frontier_schedule's answer (1 new,
 * 0 seen or out of scope, FRONTIER_HELD_URI held for the next flush). */
int crawl_schedule(struct crawl *cr, const char *href, const char *via,
    const char *hops, unsigned flags, int force);

/* Takes a checkpoint now (any callback may: the frontier is consistent
 * between two): writes what is pending in crawl_flush's order, then
 * checkpoint_create. name receives its name (cap >= 40). */
int crawl_checkpoint(struct crawl *cr, char *name, size_t cap, char **err);
const char *crawl_state_name(enum crawl_state s);
/* Heritrix's frontier word for the one-line status: RUN, PAUSE, EMPTY, FINISH. */
const char *crawl_report_word(const struct crawl *cr);
/* Operator actions (the control socket). Each returns 0, or -1 when the
 * action does not apply in the current state (*why says so). */
int crawl_pause(struct crawl *cr, const char **why);
int crawl_unpause(struct crawl *cr, const char **why);
int crawl_stop(struct crawl *cr, const char *reason, const char **why);
/* Settings changed or retired queues were reconsidered: a crawl held at
 * finish (EMPTY) runs again to see whether queues revived. */
void crawl_settings_changed(struct crawl *cr);
/* The figures of reports/stats.json, as a new JSON object. */
struct json_t *crawl_stats_json(struct crawl *cr);
long crawl_rss_kb(void);

/* crawlctl.c: the control socket's routes (a ctlserver_handler). */
struct ctlreq;
struct ctlserver_reply;
void crawlctl_handle(void *ctx, const struct ctlreq *req, struct ctlserver_reply *reply);

/* visit.c */
/* Takes c (owned from now on) through DNS, robots.txt and its fetch. */
void visit_start(struct crawl *cr, struct curi *c);
/* Abandons every visit in progress: their URIs stay in the frontier's store
 * and are fetched again after a resume. */
void visit_abandon_all(struct crawl *cr);

#endif
