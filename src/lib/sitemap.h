/* A streaming parser of XML sitemaps (sitemaps.org protocol 0.9): a
 * <urlset> of <url> entries or a <sitemapindex> of <sitemap> entries, each
 * with <loc> and optionally <lastmod>, <changefreq> and <priority>. Bytes
 * are fed as they arrive, gzip'd or not (a body starting with the gzip
 * magic is inflated here: a sitemap.xml.gz is usually served without a
 * Content-Encoding, so the fetch engine hands it over compressed); each
 * complete entry is handed to a callback, so memory stays bounded whatever
 * the size of the file. XML is parsed by libexpat; a DOCTYPE with entity
 * declarations is refused (a sitemap needs none, and they are how entity
 * expansion attacks start).
 *
 * The protocol's limits are enforced: at most 50,000 entries and 50 MB
 * (52,428,800 bytes) of uncompressed XML per file. Past either, parsing
 * stops with SITEMAP_LIMIT; the entries before it have been delivered. */
#ifndef TERN_SITEMAP_H
#define TERN_SITEMAP_H
#include <stddef.h>
#include <stdint.h>

#define SITEMAP_MAX_ENTRIES 50000u
#define SITEMAP_MAX_BYTES 52428800u
/* A <loc> (or other field) longer than this is dropped with its entry; the
 * protocol caps URLs at 2,048 characters. */
#define SITEMAP_FIELD_MAX 8192u

enum sitemap_kind { SITEMAP_UNKNOWN, SITEMAP_URLSET, SITEMAP_INDEX };

/* <changefreq>, in the protocol's order; SITEMAP_CF_NONE when absent or
 * not one of the seven words. */
enum sitemap_changefreq {
	SITEMAP_CF_NONE,
	SITEMAP_CF_ALWAYS,
	SITEMAP_CF_HOURLY,
	SITEMAP_CF_DAILY,
	SITEMAP_CF_WEEKLY,
	SITEMAP_CF_MONTHLY,
	SITEMAP_CF_YEARLY,
	SITEMAP_CF_NEVER
};

struct sitemap_entry {
	const char *loc;    /* white space trimmed, entities decoded */
	int has_lastmod;    /* <lastmod> present and a W3C-DTF date */
	int64_t lastmod_ms; /* milliseconds since the epoch */
	enum sitemap_changefreq changefreq;
	double priority; /* 0.0-1.0, or -1 when absent or invalid */
};

/* Called for each complete entry of a urlset (kind URLSET, a page) or of a
 * sitemap index (kind INDEX, another sitemap). Nonzero stops the parse
 * (SITEMAP_STOPPED). */
typedef int (*sitemap_entry_cb)(void *arg, enum sitemap_kind kind, const struct sitemap_entry *e);

enum sitemap_result {
	SITEMAP_OK = 0,		 /* fed (or finished) without trouble */
	SITEMAP_LIMIT = 1,	 /* over the entry or byte limit: stopped */
	SITEMAP_STOPPED = 2,	 /* the callback asked to stop */
	SITEMAP_MALFORMED = -1,	 /* not well-formed XML, or bad gzip */
	SITEMAP_NOT_SITEMAP = -2 /* the root is neither urlset nor sitemapindex */
};

struct sitemap;

struct sitemap *sitemap_new(sitemap_entry_cb cb, void *arg);
/* Lowers the limits (tests; 0 keeps the protocol's value). */
void sitemap_set_limits(struct sitemap *s, uint64_t max_entries, uint64_t max_bytes);
/* Feeds the next bytes of the body. Once a result other than SITEMAP_OK has
 * been returned, it is returned again and nothing more is parsed. */
enum sitemap_result sitemap_feed(struct sitemap *s, const char *data, size_t len);
/* The end of the body: a document or gzip stream cut short is malformed. */
enum sitemap_result sitemap_finish(struct sitemap *s);
enum sitemap_kind sitemap_kind(const struct sitemap *s);
/* Entries delivered, entries skipped (no <loc>, or a field over
 * SITEMAP_FIELD_MAX), uncompressed bytes parsed, whether it was gzip'd. */
uint64_t sitemap_entries(const struct sitemap *s);
uint64_t sitemap_skipped(const struct sitemap *s);
uint64_t sitemap_bytes(const struct sitemap *s);
int sitemap_gzipped(const struct sitemap *s);
/* Why the result is not SITEMAP_OK, for a person ("" otherwise), e.g.
 * "line 12: mismatched tag" or "over 50000 entries". */
const char *sitemap_error(const struct sitemap *s);
void sitemap_free(struct sitemap *s);

/* The changefreq word ("daily") for a value, "" for SITEMAP_CF_NONE. */
const char *sitemap_changefreq_name(enum sitemap_changefreq cf);

#endif
