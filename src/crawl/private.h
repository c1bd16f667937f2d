/* struct crawl, shared by the crawl's own files and by nothing outside
 * src/crawl/: crawl.c, the loop and its phases, and the rooms around it,
 * which call down in this order and never back up: crawlopen, crawlhooks,
 * crawl, crawldisk, crawlsay. One struct, as src/frontier/private.h
 * explains for the frontier: the rooms are views of one crawl whose state,
 * handles and counters change together; the floors above see only
 * crawl.h. */
#ifndef TERN_CRAWL_PRIVATE_H
#define TERN_CRAWL_PRIVATE_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>

#include "crawl/crawl.h"
#include "crawl/jobtotals.h"
#include "crawl/seeds.h"

struct cluster_local;
struct curi;

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
	int said_local;		   /* --local suggested (crawlsay_suggest_local) */
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
	int failed; /* refused, or every seed failed: crawl_run answers CRAWL_EFAIL */
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

/* crawl.c: the loop and its phases */
int crawl_flush_outputs(void *arg, char **errp);
void crawl_end(struct crawl *cr);
const char *crawl_limit_reached(struct crawl *cr);
void crawl_at_finish(struct crawl *cr, const char *limit);
void crawl_prepare_cb(uv_prepare_t *h);
void crawl_cron_cb(uv_timer_t *t);
void crawl_signal_cb(uv_signal_t *s, int signum);
void crawl_free(struct crawl *cr);

/* crawlsay.c */
void crawlsay_eventv(struct crawl *cr, const char *fmt, va_list ap);
void crawlsay_event(struct crawl *cr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void crawlsay_sayv(struct crawl *cr, const char *fmt, va_list ap);
void crawlsay_say(struct crawl *cr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *crawlsay_state_name(enum crawl_state s);
void crawlsay_set_state(struct crawl *cr, enum crawl_state s, const char *why);
long crawlsay_rss_kb(void);
uint64_t crawlsay_elapsed_ms(const struct crawl *cr);
double crawlsay_next_wait_s(const struct crawl *cr, uint64_t now);
void crawlsay_progress(struct crawl *cr, int final);
void crawlsay_suggest_local(struct crawl *cr);
void crawlsay_summary(const struct crawl *cr);

/* crawldisk.c */
void crawldisk_check(struct crawl *cr, int enospc, const char *what);

/* crawlhooks.c (given as struct visit_env and struct clusternode_env) */
void crawlhooks_visit_event(void *ctx, const char *msg);
void crawlhooks_failure_say(void *ctx, const char *msg, int terminal);
int crawlhooks_visit_new_seed(
    void *ctx, const char *href, const char *via, const char *hops, unsigned flags);
void crawlhooks_visit_ended(void *ctx);
void crawlhooks_node_log(void *ctx, const char *msg);
void crawlhooks_node_status(void *ctx, struct cluster_local *out);
void crawlhooks_node_finished(void *ctx);
void crawlhooks_node_control(void *ctx, const char *node, const char *action, const char *body);
void crawlhooks_visit_disposed(void *ctx, const struct curi *c, uint64_t due_ms, uint64_t delay_ms);
int crawlhooks_visit_may_send(void *ctx, const char *uri);
void crawlhooks_visit_disk_full(void *ctx, const char *what);

#endif
