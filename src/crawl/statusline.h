/* The one-line live status of a crawl (tern(1), STATUS LINE): its figures
 * formatted to fit a width, dropping the least wanted ones first, and the
 * recent page rate it shows. Pure: no I/O, table-tested
 * (tests/crawl/test_statusline.c); the crawl loop measures the terminal and
 * writes the line. */
#ifndef TERN_STATUSLINE_H
#define TERN_STATUSLINE_H
#include <stddef.h>
#include <stdint.h>

struct statusline_figures {
	uint64_t pages, queued, failures;
	int in_flight;
	double rate;	  /* pages/s over the last few seconds */
	double mb_rate;	  /* MB/s over the same */
	double elapsed_s; /* time crawled by the job */
	double eta_s;	  /* < 0: no limit to reach, or no rate yet */
	double next_s;	  /* nothing in flight: the wait for the next fetch (a
			   * retry's, a long Crawl-delay's); <= 0: none to say */
};

/* Writes the status into out (cap bytes, NUL-terminated) in at most width
 * characters (0: no limit), ASCII only. In order: pages, rate, queued,
 * the wait for the next fetch, failures, in flight, MB/s, elapsed, ETA;
 * when they do not fit, MB/s goes first, then in flight, elapsed, ETA,
 * failures, the wait, queued and rate, and the pages are cut last. Returns the length written. */
size_t statusline_format(const struct statusline_figures *f, size_t width, char *out, size_t cap);
/* A duration as M:SS, H:MM:SS, or NdHHh past 100 hours. */
void statusline_duration(double secs, char *out, size_t cap);
/* The time left before a limit: the sooner of (max_pages - pages) at rate
 * and (max_time_s - elapsed_s); a limit of 0 is none. -1 when no limit
 * applies or none can be estimated yet (no rate). */
double statusline_eta(
    uint64_t pages, uint64_t max_pages, double rate, double elapsed_s, double max_time_s);

/* The recent rate: samples of a counter pair, one a second, over a window. */
struct statusline_rate;
struct statusline_rate *statusline_rate_new(void);
void statusline_rate_free(struct statusline_rate *r);
/* Records the job's pages and bytes at now_ms. */
void statusline_rate_sample(
    struct statusline_rate *r, uint64_t now_ms, uint64_t pages, uint64_t bytes);
/* Pages/s and bytes/s between the oldest and newest samples of the window
 * (10 s); 0 until two samples exist. */
void statusline_rate_get(const struct statusline_rate *r, double *pages_s, double *bytes_s);

#endif
