/* crawl.log: Heritrix's format, one line per final disposition of a URI
 * (never for retries or deferrals), fields separated by single spaces:
 *   log-time status size URI hop-path via MIME #slot begin+duration digest source annotations
 * Formatting is pure; crawllog_write appends the line to a stdio stream whose
 * flushing the crawl loop orders before the frontier's batch (a URI is only
 * marked done once its line is written). */
#ifndef TERN_CRAWLLOG_H
#define TERN_CRAWLLOG_H
#include <stdint.h>
#include <stdio.h>

#include "lib/buf.h"

struct crawllog_entry {
	uint64_t log_ms; /* wall clock, ms since the epoch */
	int status;	 /* HTTP status or Heritrix code */
	int64_t size;	 /* body bytes; negative writes '-' */
	const char *uri;
	const char *hops;  /* "" or NULL for seeds */
	const char *via;   /* NULL for seeds */
	const char *mime;  /* Content-Type as received, or NULL */
	int slot;	   /* connection slot */
	uint64_t begin_ms; /* fetch begin, wall clock; 0 writes '-' */
	uint64_t duration_ms;
	const char *digest;	 /* "sha1:..." or NULL */
	const char *source;	 /* source tag or NULL */
	const char *annotations; /* comma-joined, or NULL/"" */
};

/* Appends one line, with its newline, to out. */
void crawllog_format(const struct crawllog_entry *e, struct buf *out);
/* Formats "yyyy-MM-ddTHH:mm:ss.SSSZ" (25 bytes with the NUL). */
void crawllog_iso_time(uint64_t ms, char out[32]);
/* Formats "yyyyMMddHHmmssSSS" (18 bytes with the NUL). */
void crawllog_compact_time(uint64_t ms, char out[32]);

#endif
