/* One crawl URI as the frontier hands it out: the discovered URI, how it was
 * reached (via and hop path), and the scheduling facts Heritrix keeps with it
 * (directive, precedence, cost, attempts, ordinal). */
#ifndef TERN_CURI_H
#define TERN_CURI_H
#include <stdint.h>

struct history;

/* CURI_SITEMAP: the URI is a sitemap (named by robots.txt or a sitemap
 * index, or /sitemap.xml), read as one. CURI_HINTED: its precedence is a
 * sitemap's <priority>, which a tern precedence-load value overrides.
 * CURI_GUARDED, with CURI_SEED: a seed made from a seed's redirect
 * (crawl.seed-redirects-new-seeds) whose redirecting seed was on a public
 * address, so that the address guard judges it as any link
 * (crawl/seedhosts.h). */
enum { CURI_SEED = 1, CURI_SITEMAP = 2, CURI_HINTED = 4, CURI_GUARDED = 8 };

/* Heritrix's scheduling directives (SchedulingConstants): lower goes first. */
enum { CURI_HIGHEST = 0, CURI_HIGH = 1, CURI_MEDIUM = 2, CURI_NORMAL = 3 };

struct curi {
	char *uri;	  /* absolute URI as discovered (written to crawl.log and WARC) */
	char *via;	  /* NULL for seeds */
	char *hops;	  /* hop path, "" for seeds, e.g. "LLE" */
	int precedence;	  /* URI precedence (lower = earlier) */
	int directive;	  /* scheduling directive: 0 HIGHEST ... 3 NORMAL */
	int attempts;	  /* fetch attempts already made */
	int64_t cost;	  /* from the cost policy; -1 = not yet computed */
	unsigned flags;	  /* CURI_SEED, CURI_SITEMAP, CURI_HINTED, CURI_GUARDED */
	uint64_t ordinal; /* set by the frontier */
	char *queue_key;  /* set by the frontier */
	struct history
	    *history; /* continuous crawl: the fetch history; NULL before the first visit */
};

/* A new URI with directive NORMAL, cost not yet computed, no queue. */
struct curi *curi_new(const char *uri, const char *via, const char *hops, unsigned flags);
struct curi *curi_dup(const struct curi *c);
void curi_free(struct curi *c);

#endif
