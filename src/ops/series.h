/* The console's time series: a bounded ring of samples the crawl takes once
 * a second (the charts' last hour), and the same samples read from
 * logs/progress.log lines (the long view). Pure: no I/O, no clock; the
 * caller passes times and lines. */
#ifndef TERN_SERIES_H
#define TERN_SERIES_H
#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"

/* Cumulative pages and bytes, so rates come from any two samples. */
struct series_point {
	uint64_t t_ms; /* wall clock */
	uint64_t pages;
	int64_t bytes; /* -1: unknown (a progress.log line without it) */
	uint64_t in_flight;
	uint64_t queued;
};

struct series;

/* A ring of cap samples: the oldest is dropped when full. */
struct series *series_new(size_t cap);
void series_free(struct series *s);
void series_add(struct series *s, const struct series_point *p);
size_t series_count(const struct series *s);
/* The i-th sample, 0 the oldest. */
const struct series_point *series_at(const struct series *s, size_t i);
/* Appends the samples taken after t_ms as a JSON array of
 * [t_ms, pages, bytes|null, in_flight, queued] arrays. */
void series_json_since(const struct series *s, uint64_t t_ms, struct buf *out);

/* One logs/progress.log line ("TIMESTAMP discovered queued downloaded
 * pages/s KB/s failures in-flight ready snoozed inactive retired rss-KB
 * [bytes]"): 0 and *p, or -1 for the header comment or a line that is not
 * one (bytes -1 when the line has no bytes column: a log written before
 * the column was added). */
int series_parse_progress(const char *line, size_t len, struct series_point *p);
/* Appends points as the JSON array of series_json_since, keeping at most
 * max of them (evenly spaced, the last always kept). */
void series_json_points(const struct series_point *pts, size_t n, size_t max, struct buf *out);

#endif
