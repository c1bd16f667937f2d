/* The records of the cluster's stream, pure: what one node hands another
 * (a URI discovered for a partition it may not own) and what an owner
 * records as finished. Text, one record a line, so that a stream can be read
 * with the nats command-line tool:
 *
 *   url records   "FLAGS HOPS URI VIA\n" or "FLAGS HOPS URI VIA HINT\n"
 *                 FLAGS decimal (CURI_SEED, and HANDOFF_FORCE
 *                 for an operator's seed given again), HOPS the hop path or
 *                 "-" for a seed, VIA the URI it was found on or "-"; HINT,
 *                 only when a sitemap gave one, "INTERVAL:PRECEDENCE" (its
 *                 first revisit interval in seconds and its precedence, each
 *                 decimal, 0 for none, not both 0)
 *   done records  "URI\n", or in a continuous crawl "URI REVISIT\n": REVISIT
 *                 is the base64 (RFC 4648, padded) of the URI's frontier
 *                 record with its fetch history and next due time
 *                 (doc/frontier.md), opaque here: it starts with that
 *                 record's own version byte, and its reader decodes it
 *                 strictly
 *   seed records  "URI\n", or "URI guarded\n" for a seed made by a seed's
 *                 redirect from a public address, whose host stays under the
 *                 address guard (lib/curi.h, CURI_GUARDED)
 *
 * URIs come from url_resolve, which never leaves a space, a control
 * character or a non-ASCII byte in them; the parser refuses anything else,
 * every field's shape and any record without its newline. */
#ifndef TERN_HANDOFF_H
#define TERN_HANDOFF_H
#include <stddef.h>
#include <stdint.h>
#include "lib/buf.h"

#define HANDOFF_FORCE 0x100u /* schedule even if seen (an operator's seed) */
#define HANDOFF_FLAGS_MAX 0xffffu
#define HANDOFF_GUARDED "guarded" /* a seed record's second word */

struct handoff_url {
	unsigned flags;
	const char *hops; /* "" for a seed */
	const char *uri;
	const char *via; /* NULL when none */
	/* A sitemap's hint for a URI it listed (0: none): the first revisit
	 * interval of a continuous crawl and a preloaded precedence. */
	int64_t interval_s;
	int precedence;
};

/* A URI finished: with, in a continuous crawl, its frontier record
 * (revisit_len bytes; NULL when none). */
struct handoff_done {
	const char *uri;
	const unsigned char *revisit;
	size_t revisit_len;
};

#define HANDOFF_INTERVAL_MAX 3153600000LL /* a century, in seconds */
#define HANDOFF_PRECEDENCE_MAX 1000000

/* Appends one url record (0), or -1 if a field cannot be written as one
 * (a space or control byte in a URI, a hop that is not a letter). */
int handoff_append_url(struct buf *msg, const struct handoff_url *r);
/* Appends one done record (with its revisit, when it has one); -1 as
 * above. */
int handoff_append_done(struct buf *msg, const struct handoff_done *d);
/* Appends one seed record (guarded: with its second word); -1 as above. */
int handoff_append_seed(struct buf *msg, const char *uri, int guarded);

/* Parsers over data[0..len) (which they modify: separators become NULs),
 * calling fn once per record in order. 0, or -1 at the first malformed
 * record with *err naming its line (no call is made for it or after it). */
int handoff_parse_urls(char *data, size_t len, void (*fn)(void *ctx, const struct handoff_url *r),
    void *ctx, char **err);
int handoff_parse_done(char *data, size_t len, void (*fn)(void *ctx, const struct handoff_done *d),
    void *ctx, char **err);
int handoff_parse_seeds(char *data, size_t len, void (*fn)(void *ctx, const char *uri, int guarded),
    void *ctx, char **err);

#endif
