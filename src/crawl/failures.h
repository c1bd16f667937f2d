/* Saying why, once, where the person is looking: the first failure of each
 * group (lib/status.h: robots, private, DNS, connect, TLS...) for a host goes
 * to the terminal and logs/tern.log with its cause and what happens next
 * (the next attempt and when, or that it gave up), naming the settings that
 * change it; a seed's retries are each said while the crawl has fetched
 * nothing, so that a crawl that cannot start does not look like a hang.
 * Final failures are counted by group in crawl_stats.failures_by_cause for
 * the end summary and reports/stats.json, both written from here. */
#ifndef TERN_FAILURES_H
#define TERN_FAILURES_H
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/status.h"

struct crawl_stats;
struct failures;

struct failures_env {
	struct crawl_stats *stats; /* counted into; read for pages so far */
	/* Says msg on the terminal (when terminal is set) and in tern.log. */
	void *ctx;
	void (*say)(void *ctx, const char *msg, int terminal);
};

/* One failed attempt of a URI, or its final failure. */
struct failures_event {
	const char *host; /* the host (a DNS failure is said of it) */
	int port;	  /* and port (every other failure) */
	const char *uri;
	int status; /* as logged (an HTTP error says its code) */
	enum status_cause cause;
	int seed;		   /* the URI is a seed */
	int final;		   /* no attempt follows */
	int attempt;		   /* the attempt that failed, from 1 */
	int max_attempts;	   /* frontier.max-retries for this URI */
	uint64_t retry_ms;	   /* not final: the wait before the next attempt */
	const char *retry_setting; /* what sets that wait, or NULL */
};

/* env is copied. */
struct failures *failures_new(const struct failures_env *env);
void failures_free(struct failures *fl);
/* A failed attempt (final or not): said if it is the first of its group for
 * its host, or a seed's while nothing has been fetched. */
void failures_note(struct failures *fl, const struct failures_event *ev);
/* A final disposition with status (HTTP or Heritrix code) and cause:
 * counted by group when it is a failure (a negative status, or 4xx/5xx). */
void failures_disposed(struct failures *fl, int status, enum status_cause cause);
/* 1 when this process saw failures and the job has no page answered 2xx or
 * 304: the seeds failed for good and nothing else was found. */
int failures_all_failed(const struct failures *fl);

struct buf;
/* "connect 2, tls 1": the groups with failures, for one-line logs ("" when
 * there are none). */
void failures_brief(const struct crawl_stats *st, struct buf *out);
/* The summary's breakdown, a line per group with failures, to out. */
void failures_print(const struct crawl_stats *st, FILE *out);
/* {"robots": N, "private": N, ...}: every group, for reports/stats.json. */
json_t *failures_json(const struct crawl_stats *st);
/* Reads an object failures_json wrote back into st (a missing group is 0). */
void failures_from_json(struct crawl_stats *st, const json_t *j);

#endif
