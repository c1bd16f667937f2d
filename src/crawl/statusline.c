/* The crawl's status line: figures to a line that fits, and the recent
 * rate. The line is rebuilt from its fields each time: there are nine at
 * most, and it is written once a second. */
#include "crawl/statusline.h"
#include "lib/xmalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Samples kept: one a second, the rate spans the oldest to the newest. */
#define STATUSLINE_SAMPLES 11

enum {
	SL_PAGES,
	SL_RATE,
	SL_QUEUED,
	SL_NEXT,
	SL_FAILED,
	SL_FLIGHT,
	SL_MB,
	SL_ELAPSED,
	SL_ETA,
	SL_N
};

/* The order in which fields give way when the line does not fit. */
static const int statusline_drop[SL_N - 1] = {
    SL_MB,
    SL_FLIGHT,
    SL_ELAPSED,
    SL_ETA,
    SL_FAILED,
    SL_NEXT,
    SL_QUEUED,
    SL_RATE,
};

void statusline_duration(double secs, char *out, size_t cap)
{
	unsigned long long s = secs > 0 ? (unsigned long long)(secs + 0.5) : 0;

	if (s < 3600)
		snprintf(out, cap, "%llu:%02llu", s / 60, s % 60);
	else if (s < 100 * 3600)
		snprintf(out, cap, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(out, cap, "%llud%02lluh", s / 86400, s / 3600 % 24);
}

double statusline_eta(
    uint64_t pages, uint64_t max_pages, double rate, double elapsed_s, double max_time_s)
{
	double eta = -1;

	if (max_pages > 0 && rate > 0)
		eta = pages >= max_pages ? 0 : (double)(max_pages - pages) / rate;
	if (max_time_s > 0) {
		double left = max_time_s > elapsed_s ? max_time_s - elapsed_s : 0;
		if (eta < 0 || left < eta)
			eta = left;
	}
	return eta;
}

size_t statusline_format(const struct statusline_figures *f, size_t width, char *out, size_t cap)
{
	char field[SL_N][48], d[32];
	int on[SL_N];
	size_t len, i;

	if (cap == 0)
		return 0;
	snprintf(field[SL_PAGES], sizeof field[0], "%llu page%s", (unsigned long long)f->pages,
	    f->pages == 1 ? "" : "s");
	snprintf(field[SL_RATE], sizeof field[0], f->rate < 10 ? "%.1f/s" : "%.0f/s", f->rate);
	snprintf(field[SL_QUEUED], sizeof field[0], "%llu queued", (unsigned long long)f->queued);
	snprintf(field[SL_FAILED], sizeof field[0], "%llu failed", (unsigned long long)f->failures);
	snprintf(field[SL_FLIGHT], sizeof field[0], "%d in flight", f->in_flight);
	snprintf(field[SL_MB], sizeof field[0], "%.2f MB/s", f->mb_rate);
	statusline_duration(f->elapsed_s, d, sizeof d);
	snprintf(field[SL_ELAPSED], sizeof field[0], "elapsed %s", d);
	statusline_duration(f->eta_s, d, sizeof d);
	snprintf(field[SL_ETA], sizeof field[0], "ETA %s", d);
	statusline_duration(f->next_s, d, sizeof d);
	snprintf(field[SL_NEXT], sizeof field[0], "next fetch in %s", d);
	for (i = 0; i < SL_N; i++)
		on[i] = 1;
	on[SL_ETA] = f->eta_s >= 0;
	on[SL_NEXT] = f->next_s > 0;
	for (size_t k = 0;; k++) {
		len = 0;
		for (i = 0; i < SL_N; i++)
			if (on[i])
				len += (len > 0 ? 2 : 0) + strlen(field[i]);
		if (width == 0 || len <= width || k == SL_N - 1)
			break;
		on[statusline_drop[k]] = 0;
	}
	out[0] = '\0';
	len = 0;
	for (i = 0; i < SL_N; i++) {
		if (!on[i])
			continue;
		len +=
		    (size_t)snprintf(out + len, cap - len, "%s%s", len > 0 ? ", " : "", field[i]);
		if (len >= cap) {
			len = cap - 1;
			break;
		}
	}
	if (width > 0 && len > width) {
		len = width;
		out[len] = '\0';
	}
	return len;
}

struct statusline_rate {
	uint64_t ms[STATUSLINE_SAMPLES], pages[STATUSLINE_SAMPLES], bytes[STATUSLINE_SAMPLES];
	size_t n, next;
};

struct statusline_rate *statusline_rate_new(void)
{
	return xcalloc(1, sizeof(struct statusline_rate));
}

void statusline_rate_free(struct statusline_rate *r)
{
	free(r);
}

void statusline_rate_sample(
    struct statusline_rate *r, uint64_t now_ms, uint64_t pages, uint64_t bytes)
{
	r->ms[r->next] = now_ms;
	r->pages[r->next] = pages;
	r->bytes[r->next] = bytes;
	r->next = (r->next + 1) % STATUSLINE_SAMPLES;
	if (r->n < STATUSLINE_SAMPLES)
		r->n++;
}

void statusline_rate_get(const struct statusline_rate *r, double *pages_s, double *bytes_s)
{
	size_t newest = (r->next + STATUSLINE_SAMPLES - 1) % STATUSLINE_SAMPLES;
	size_t oldest = r->n < STATUSLINE_SAMPLES ? 0 : r->next;
	double secs;

	*pages_s = *bytes_s = 0;
	if (r->n < 2 || r->ms[newest] <= r->ms[oldest])
		return;
	secs = (double)(r->ms[newest] - r->ms[oldest]) / 1000.0;
	*pages_s = (double)(r->pages[newest] - r->pages[oldest]) / secs;
	*bytes_s = (double)(r->bytes[newest] - r->bytes[oldest]) / secs;
}
