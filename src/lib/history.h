/* A URI's fetch history in a continuous crawl: what the next visit needs
 * to ask the server "has it changed?" (the validators), to tell a change
 * itself (the payload digest), to write a revisit record that points at
 * the capture holding the content, and to schedule the visit after (the
 * interval and counts). It travels with the URI record in the frontier
 * store (keys_curi_encode), so nothing of it is held in memory between
 * visits. Pure: no I/O. */
#ifndef TERN_HISTORY_H
#define TERN_HISTORY_H
#include <stdint.h>
#include "lib/revisit.h"

struct history {
	char *digest;	     /* "sha1:BASE32" payload digest of the last capture
				 * with a body; NULL before one */
	char *etag;	     /* the ETag of that response, as sent */
	char *last_modified; /* its Last-Modified, as sent */
	/* The capture a server-not-modified revisit refers to: the response
	 * record holding the content (for an identical-payload-digest
	 * revisit, the record it referred to). content_uri NULL: this URI. */
	int64_t content_us; /* its WARC-Date, microseconds; 0: none */
	char *content_uri;
	int64_t last_visit_ms;	/* start of the last visit (0: never visited) */
	int64_t last_change_ms; /* when a change was last seen (the first capture counts) */
	uint64_t visits;	/* visits that told changed or not */
	uint64_t changes;	/* of which changed */
	uint64_t not_modified;	/* 304 answers */
	uint64_t unchanged;	/* full answers with the same payload digest */
	int64_t interval_s;	/* the revisit interval now (0: not yet set) */
	int64_t due_ms;		/* when the next visit is due (0: not scheduled) */
};

/* What one visit got, for history_note. */
struct history_visit {
	int64_t start_ms;   /* fetch start, wall clock */
	int status;	    /* HTTP status, or a negative Heritrix code */
	const char *digest; /* payload digest of a 2xx capture; NULL otherwise */
	int truncated;	    /* the body was cut (its digest is not the resource's) */
	const char *etag;   /* response headers (NULL when absent) */
	const char *last_modified;
	/* The capture written for this visit: its WARC-Date, and when it was
	 * an identical-payload-digest revisit, what it referred to. */
	int64_t record_us;
	const char *refers_uri;
	int64_t refers_us;
};

struct history *history_new(void);
struct history *history_dup(const struct history *h);
void history_free(struct history *h);

/* The validators the next visit sends (If-None-Match, If-Modified-Since):
 * the ETag and Last-Modified kept, each NULL when absent; both NULL before
 * a capture with a digest, which a 304 would stand for. A value with
 * control characters is not sent. */
void history_validators(
    const struct history *h, const char **if_none_match, const char **if_modified_since);

/* Takes a visit into the history: validators, digest, the content record,
 * counts, last_visit_ms, then the next interval by the rule (interval_s)
 * and due_ms = start + interval. Returns what the visit said: a 304 (after a capture with a digest) or the same digest: UNCHANGED; a new
 * digest on a URI that had one: CHANGED; anything else (a first capture,
 * a failure, an error status, a truncated body): UNKNOWN. */
enum revisit_change history_note(
    struct history *h, const struct history_visit *v, const struct revisit_rule *rule);

#endif
