/* Sitemaps in a crawl (crawl.sitemaps): the sitemaps robots.txt names (and,
 * in a continuous crawl, /sitemap.xml of every server) go into the frontier
 * flagged CURI_SITEMAP, hop M; a sitemap's body is parsed as it streams
 * (lib/sitemap.h), and the URLs it lists are scheduled with hop M through
 * the scope and the seen set like any link, a sitemap index's entries as
 * sitemaps again. <changefreq> or <lastmod> seeds a listed URL's first
 * revisit interval, <priority> its preloaded precedence. */
#ifndef TERN_SITEMAPS_H
#define TERN_SITEMAPS_H
#include <stddef.h>
#include <stdint.h>
#include "lib/buf.h"

struct config;
struct curi;
struct schedule;
struct sitemaps_doc;

/* Schedules the Sitemap: URLs of a robots.txt body fetched from
 * robots_url, with hops (the robots fetch's) + M; in a continuous crawl,
 * server_key/sitemap.xml too. Returns how many were new. */
int sitemaps_from_robots(struct schedule *s, const char *robots_url, const char *server_key,
    const char *hops, const char *body, size_t len, int continuous);

/* Whether a response is read as a sitemap: a URI flagged as one (unless it
 * turns out to be HTML), or any XML response (its root element decides). */
int sitemaps_wanted(const struct curi *c, const char *content_type);

/* One sitemap body being read, keeping at most max_entries entries. */
struct sitemaps_doc *sitemaps_doc_new(size_t max_entries);
void sitemaps_doc_feed(struct sitemaps_doc *d, const char *data, size_t len);
/* The end of the body: schedules the entries (resolved against c->uri) and
 * appends "URI M" lines to outlinks_text for the WARC metadata record, and
 * to annotations what went wrong, if c was meant to be a sitemap:
 * sitemapLimit (over 50,000 entries or 50 MB: the first ones are taken),
 * sitemapError (not a sitemap, or malformed: the entries before the error
 * are taken), and dol:N for entries past extract.max-outlinks. Returns the
 * number of entries. */
size_t sitemaps_doc_finish(struct sitemaps_doc *d, struct schedule *s, const struct config *cfg,
    const struct curi *c, const char *surt, int continuous, uint64_t now_ms,
    struct buf *outlinks_text, struct buf *annotations);
void sitemaps_doc_free(struct sitemaps_doc *d);

#endif
