/* What the crawl says, and the state it says it is in: events in
 * logs/tern.log, messages on stderr, every change of the crawl's state
 * (logged old -> new, so it is made here), the time crawled, the live
 * status line and progress.log, the --local suggestion, and the summary
 * with what continues a crawl that stopped early (tern(1)). The crawl's
 * other files call it; it calls none of them. */
#include <build-config.h>

#include "crawl/private.h"
#include "crawl/drops.h"
#include "crawl/failures.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "archive/crawllog.h"
#include "frontier/frontier.h"
#include "crawl/statusline.h"
#include "crawl/visit.h"

#include <assert.h>
#include <sys/ioctl.h>
#include <string.h>
#include <stdarg.h>
#include <unistd.h>

/* A runtime event for logs/tern.log. */
void crawlsay_eventv(struct crawl *cr, const char *fmt, va_list ap)
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

void crawlsay_event(struct crawl *cr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	crawlsay_eventv(cr, fmt, ap);
	va_end(ap);
}

/* Said on stderr and in tern.log. */
void crawlsay_sayv(struct crawl *cr, const char *fmt, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	/* The status line has no newline: clear it, or the message would
	 * run on from it. It is drawn again at the next tick. */
	if (cr->tty)
		fputs("\r\033[K", stderr);
	fputs("tern: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	crawlsay_eventv(cr, fmt, aq);
	va_end(aq);
}

void crawlsay_say(struct crawl *cr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	crawlsay_sayv(cr, fmt, ap);
	va_end(ap);
}

static const char *const crawlsay_state_names[CRAWL__NSTATES] = {
    "RUNNING",
    "PAUSING",
    "PAUSED",
    "EMPTY",
    "STOPPING",
    "FINISHED",
};

const char *crawlsay_state_name(enum crawl_state s)
{
	return (unsigned)s < CRAWL__NSTATES ? crawlsay_state_names[s] : "?";
}

/* The one place the crawl's state changes, logged old -> new in
 * logs/tern.log with why (tern(1) and doc/formats.md name the states). A
 * new crawl (zeroed) is RUNNING. A running crawl is paused (by the
 * operator, at start, for disk space, or by a limit held at finish), held
 * EMPTY at finish, stopped, or ends at once when nothing is in flight;
 * PAUSING becomes PAUSED once its visits have ended; a paused or held
 * crawl runs again or is stopped; STOPPING ends in FINISHED, which nothing
 * leaves. Asking for the state it is in is a bug, as any change not in the
 * table. */
void crawlsay_set_state(struct crawl *cr, enum crawl_state s, const char *why)
{
	static const unsigned char legal[CRAWL__NSTATES] = {
	    [CRAWL_RUNNING] = 1u << CRAWL_PAUSING | 1u << CRAWL_PAUSED | 1u << CRAWL_EMPTY |
		1u << CRAWL_STOPPING | 1u << CRAWL_FINISHED,
	    [CRAWL_PAUSING] = 1u << CRAWL_RUNNING | 1u << CRAWL_PAUSED | 1u << CRAWL_STOPPING,
	    [CRAWL_PAUSED] = 1u << CRAWL_RUNNING | 1u << CRAWL_STOPPING,
	    [CRAWL_EMPTY] = 1u << CRAWL_RUNNING | 1u << CRAWL_STOPPING,
	    [CRAWL_STOPPING] = 1u << CRAWL_FINISHED,
	    [CRAWL_FINISHED] = 0,
	};

	if ((unsigned)cr->state >= CRAWL__NSTATES || (unsigned)s >= CRAWL__NSTATES ||
	    !(legal[cr->state] & (1u << s))) {
		fprintf(stderr, "crawl: illegal state change %s -> %s\n",
		    crawlsay_state_name(cr->state), crawlsay_state_name(s));
		assert(!"illegal crawl state change");
	}
	crawlsay_event(cr, "state %s -> %s%s%s", crawlsay_state_name(cr->state),
	    crawlsay_state_name(s), why ? ": " : "", why ? why : "");
	cr->state = s;
}

long crawlsay_rss_kb(void)
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
uint64_t crawlsay_elapsed_ms(const struct crawl *cr)
{
	return cr->elapsed_before_ms + (clock_wall_ms() - cr->start_ms);
}

/* With nothing in flight and a fetch far off (a retry waiting out
 * frontier.retry-delay-seconds, a long Crawl-delay), the seconds until it;
 * else 0. Short politeness waits are not worth a word. */
double crawlsay_next_wait_s(const struct crawl *cr, uint64_t now)
{
	if (cr->state != CRAWL_RUNNING || visit_in_flight(cr->visits) > 0 ||
	    cr->next_wake_ms == UINT64_MAX || cr->next_wake_ms < now + CRAWL_NEXT_SAY_MS)
		return 0;
	return (double)(cr->next_wake_ms - now) / 1000.0;
}

/* The live status (tern(1), STATUS LINE): on a terminal, one line no wider
 * than it, redrawn in place every second; otherwise a plain line every
 * CRAWL_STATUS_PLAIN_MS. */
static void crawlsay_status_line(struct crawl *cr, const struct frontier_counts *fc, int final)
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
	sf.elapsed_s = (double)crawlsay_elapsed_ms(cr) / 1000.0;
	sf.next_s = crawlsay_next_wait_s(cr, now);
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

void crawlsay_progress(struct crawl *cr, int final)
{
	uint64_t now = clock_wall_ms();
	struct frontier_counts fc;
	double secs = (double)crawlsay_elapsed_ms(cr) / 1000.0;
	char t[32];

	frontier_counts(cr->frontier, &fc);
	crawlsay_status_line(cr, &fc, final);
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
		    (unsigned long long)fc.inactive, (unsigned long long)fc.retired,
		    crawlsay_rss_kb(), (unsigned long long)cr->stats.bytes);
		fflush(cr->progress);
		cr->last_progress_ms = now;
	}
}

/* Once, a while into a crawl whose every address so far was on this
 * machine or a private network and that politeness slows: a site of the
 * operator's own, which --local crawls as fast as it answers. */
void crawlsay_suggest_local(struct crawl *cr)
{
	if (cr->said_local || cr->node != NULL || cr->state != CRAWL_RUNNING ||
	    clock_wall_ms() - cr->start_ms < CRAWL_SUGGEST_LOCAL_MS ||
	    cr->stats.local_visits == 0 || cr->stats.remote_visits > 0 ||
	    config_int(cr->cfg, CK_POLITENESS_MIN_DELAY_MS) == 0)
		return;
	cr->said_local = 1;
	crawlsay_say(cr,
	    "every host so far is on this machine or a private network, and politeness "
	    "waits at least %lld ms between its fetches: for a site of your own, stop "
	    "(Ctrl-C) and `tern resume %s --local` crawls it as fast as it answers",
	    (long long)config_int(cr->cfg, CK_POLITENESS_MIN_DELAY_MS), cr->jobdir);
}

/* What continues a crawl that stopped before its end: at a limit of the
 * job, a resume that raises it; otherwise a plain resume. A cluster node
 * is continued as its crawl is (doc/cluster.md). */
static void crawlsay_next(const struct crawl *cr)
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

void crawlsay_summary(const struct crawl *cr)
{
	double secs = (double)crawlsay_elapsed_ms(cr) / 1000.0;

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
	crawlsay_next(cr);
}
