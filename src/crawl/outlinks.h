/* A fetched page's outlinks: the extractors its response goes through
 * (sitemap, HTML, CSS, in Heritrix's chain order, and feeds: RSS, RDF,
 * Atom, crawl/feed.h), the links they report
 * up to extract.max-outlinks, and, once the response is whole, those links
 * and the response's own (Location, Content-Location, Refresh) resolved
 * and scheduled, their lines kept for the WARC metadata record. A visit
 * (visithttp.c) makes one at its first response's head, keeps it for every
 * later visit it serves, and hands it the decoded body as it streams when
 * the head says the response's links count. */
#ifndef TERN_OUTLINKS_H
#define TERN_OUTLINKS_H
#include <stddef.h>

#include "lib/buf.h"

struct config;
struct crawl_stats;
struct curi;
struct fetch;
struct frontier;
struct schedule;
struct scope;
struct url_parts;

/* What scheduling needs; the visit pool owns it, and what it points to. */
struct outlinks_env {
	const struct config *cfg;
	struct frontier *frontier;
	struct schedule *schedule;
	struct crawl_stats *stats; /* links_scheduled */
	int robots_policy;	   /* 0 obey: meta robots nofollow counts */
	int continuous;		   /* crawl.mode = continuous (sitemaps) */
	/* Seed redirects (crawl.seed-redirects-new-seeds in tern.conf(5)): a
	 * seed's redirect to a URI outside scope makes that URI a seed
	 * through new_seed (given ctx), which widens the scope, records the
	 * seed and schedules it with flags (CURI_SEED, and CURI_GUARDED);
	 * 0, or -1 when it could not. NULL: none made. */
	const struct scope *scope;
	int (*new_seed)(
	    void *ctx, const char *href, const char *via, const char *hops, unsigned flags);
	void *ctx;
};

/* The longest chain of seed redirects followed by new seeds (a seed's
 * redirect target that redirects again, and so on), as Heritrix's. */
#define OUTLINKS_SEED_REDIRECTS 5

struct outlinks;

/* An outlinks object serves one response after another: a visit keeps it
 * (and the room its link records took) from page to page. */
struct outlinks *outlinks_new(void);
/* Starts on c's response, whose head has status, Content-Type mime (may be
 * NULL) and request target "/path?query"; surt is c's [override] key.
 * Returns 1, or 0 when the links of a response with this status are not
 * scheduled (extract.extract-404s, extract.process-error-outlinks): then
 * nothing else is called until the next outlinks_begin. c and surt must
 * outlive the response (outlinks_end). */
int outlinks_begin(struct outlinks *o, const struct config *cfg, const struct curi *c,
    const char *surt, int status, const char *mime, const char *target, size_t target_len);
/* The decoded body, in any chunking. */
void outlinks_feed(struct outlinks *o, const char *data, size_t len);
/* The body has ended: the extractors report what only the end decides. */
void outlinks_finish(struct outlinks *o);
/* The <title> of an HTML response once finished ("" when it has none), or
 * NULL when no HTML extractor read the response. Valid until the next call. */
const char *outlinks_title(struct outlinks *o);
/* Links past extract.max-outlinks, across the extractors (dol:N). */
size_t outlinks_dropped(const struct outlinks *o);
/* Schedules the outlinks of the response, whose URI is split in page: the extracted
 * links, a sitemap's entries, and the Location (3xx), Content-Location and
 * Refresh headers of f (may be NULL), whose status is status. "URI HOP"
 * lines go to text (for the WARC metadata record), what went wrong with a
 * sitemap or a feed, and a seed's redirect made a seed (seedRedirect), to
 * annotations. local: the response came from a private, loopback or
 * other special-purpose address (net/addrguard.h), which a seed's
 * redirect target made a seed may then reach as well. */
void outlinks_schedule(struct outlinks *o, const struct outlinks_env *env,
    const struct url_parts *page, struct fetch *f, int status, int local, struct buf *text,
    struct buf *annotations);
/* The response is done with (scheduled or not): its extractors are kept,
 * reset, for the next response, and its buffers' room unless it grew. */
void outlinks_end(struct outlinks *o);
void outlinks_free(struct outlinks *o);

#endif
