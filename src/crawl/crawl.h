/* The crawl loop: one libuv loop that takes URIs from the frontier, hands
 * each to a visit (visit.h) for its prerequisites (DNS, robots.txt) and its
 * fetch, keeps the crawl's state (doc/formats.md, "Control socket"), its limits, logs,
 * reports and checkpoints, and flushes the frontier's batch once per loop
 * iteration.
 *
 * A crawl is opened, then run to its end. Between the two, the layer above
 * (the crawl command, src/crawlcmd.c) attaches what operates it, such as
 * the control socket: it serves on crawl_loop, drives the crawl through the
 * operator actions below and reads it through the accessors, and is told
 * when the crawl ends so it can close its handles. */
#ifndef TERN_CRAWL_H
#define TERN_CRAWL_H
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "crawl/stats.h"

struct config;
struct dns;
struct frontier;
struct hosts;
struct json_t;

struct crawl_opts {
	const char *jobdir;
	char *const *seeds; /* seed URLs from the command line */
	size_t nseeds;
	const char *seedfile;	/* one URL a line, '#' comments */
	int resume;		/* continue an existing job from its live state */
	const char *checkpoint; /* with resume: restore this checkpoint (NAME or "latest") first */
};

/* The states of doc/formats.md, "Control socket". Work is handed out only while RUNNING. */
enum crawl_state {
	CRAWL_RUNNING,
	CRAWL_PAUSING,	/* no new work; PAUSED once nothing is in flight */
	CRAWL_PAUSED,	/* by the operator, pause-at-start, or a limit with pause-at-finish */
	CRAWL_EMPTY,	/* finished, held by crawl.pause-at-finish */
	CRAWL_STOPPING, /* no new work; in-flight visits end, then the crawl ends */
	CRAWL_FINISHED,
	CRAWL__NSTATES
};

struct crawl;

/* Why crawl_open refused; the commands choose the exit status from it
 * (tern(1), EXIT STATUS: 2 and 1). */
#define CRAWL_EUSAGE (-2) /* what the operator gave cannot be used: fix it and rerun */
#define CRAWL_EFAIL (-1)  /* the job could not be opened or read */

/* Creates or resumes the job, loads the seeds, opens the outputs and the
 * loop's services: 0 and *out, or CRAWL_EUSAGE or CRAWL_EFAIL with *err,
 * the reason to say. 0 with *out NULL: a resumed job has
 * finished or reached a limit; it said so and there is nothing to run. */
int crawl_open(struct config *cfg, const struct crawl_opts *o, struct crawl **out, char **err);
/* Runs the loop to the crawl's end, prints the summary and frees the crawl;
 * 0 when it finished or was stopped, CRAWL_EFAIL when it failed (refused
 * to start, every seed failed for good, or its WARCs could not be
 * written), which the commands make exit status 1. */
int crawl_run(struct crawl *cr);
/* Called once when the crawl ends, inside its loop, so that handles the
 * layer above opened on crawl_loop can close and the loop can finish. */
void crawl_on_end(struct crawl *cr, void (*cb)(void *arg), void *arg);
/* Before crawl_run: the crawl must not start (a service the operator needs
 * is missing); it stops at once, and crawl_run answers CRAWL_EFAIL. */
void crawl_refuse(struct crawl *cr, const char *reason);

uv_loop_t *crawl_loop(struct crawl *cr);
struct config *crawl_config(struct crawl *cr);
const char *crawl_jobdir(const struct crawl *cr);
struct frontier *crawl_frontier(struct crawl *cr);
struct hosts *crawl_hosts(struct crawl *cr);
/* NULL once the crawl has ended. */
struct dns *crawl_dns(struct crawl *cr);
const struct crawl_stats *crawl_stats(const struct crawl *cr);
/* The [rules] with their counts (crawl/drops.h); NULL when there are none. */
const struct rules *crawl_rules(const struct crawl *cr);

/* What the operator sees of the crawl at this moment. */
struct crawl_status {
	enum crawl_state state;
	const char *reason; /* why stopping/finished, or paused/held; may be NULL */
	int at_finish;	    /* held at finish (pause-at-finish) */
	int in_flight;
	double seconds;		 /* since the crawl (or this resume) started */
	uint64_t store_write_ns; /* time in the frontier's LevelDB writes */
	uint64_t store_write_max_ns;
	uint64_t checkpoints; /* taken in this run */
	uint64_t checkpoint_total_us;
	uint64_t checkpoint_last_us; /* duration of the last one */
	double next_fetch_s;	     /* nothing in flight: seconds to the next fetch, when
				      * far off (a retry); else 0 */
};
void crawl_status(const struct crawl *cr, struct crawl_status *st);

/* Says something to the person running the crawl: on standard error
 * (clearing the status line first on a terminal) and in logs/tern.log. */
void crawl_say(struct crawl *cr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends a runtime event to logs/tern.log. */
void crawl_log_event(struct crawl *cr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
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
/* Cluster mode (doc/cluster.md). Operator actions another node passed on
 * ("pause", "unpause", "stop", "checkpoint", "reconsider-retired",
 * "settings" with its JSON body) go to fn with the id of the node that sent
 * them, which applies them as if asked here; crawl_pass_control passes an action asked here on to every other
 * node (nothing without a cluster). */
void crawl_on_control(struct crawl *cr,
    void (*fn)(void *arg, const char *node, const char *action, const char *body), void *arg);
void crawl_pass_control(struct crawl *cr, const char *action, const char *body);
/* The cluster report into out: 0, or -1 when this crawl is no cluster node. */
struct buf;
int crawl_cluster_report(struct crawl *cr, struct buf *out, int json);
/* The figures of reports/stats.json, as a new JSON object. */
struct json_t *crawl_stats_json(struct crawl *cr);
/* This process's resident memory. */
long crawl_rss_kb(void);

#endif
