/* A streaming parser of web feeds for link extraction: RSS 2.0, RSS 1.0
 * (RDF) and Atom (RFC 4287). Bytes are fed as they arrive (decoded of
 * their Content-Encoding); the root element says whether the document is
 * a feed, and each link it names is handed to a callback as soon as its
 * element ends, resolved against xml:base and the feed's URL, so memory
 * stays bounded whatever the size of the feed. XML is parsed by libexpat;
 * a DOCTYPE with entity declarations is refused, as in sitemaps.
 *
 * What is a link, and its hop (doc/formats.md, "Feeds"): an item's or
 * channel's <link>, an item's <comments>, a permalink <guid>, an
 * <enclosure url>, Atom <link href> of any rel but self, hub, edit and
 * edit-media, Atom <content src>, Media RSS <media:content url> are
 * navigational (L); a feed's <image><url>, Atom <icon> and <logo>, and
 * <media:thumbnail url> are what a reader shows with the feed (E).
 *
 * The limits are the sitemap protocol's (lib/sitemap.h): at most 50,000
 * links and 50 MB of XML per document; past either, parsing stops with
 * FEED_LIMIT, the links before it delivered. A field (a <link> text, an
 * attribute) longer than SITEMAP_FIELD_MAX is dropped. */
#ifndef TERN_FEED_H
#define TERN_FEED_H
#include <stddef.h>
#include <stdint.h>

#define FEED_MAX_LINKS 50000u
#define FEED_MAX_BYTES 52428800u
#define FEED_FIELD_MAX 8192u

enum feed_kind { FEED_UNKNOWN, FEED_RSS, FEED_RDF, FEED_ATOM };

enum feed_result {
	FEED_OK = 0,	     /* fed (or finished) without trouble */
	FEED_LIMIT = 1,	     /* over the link or byte limit: stopped */
	FEED_MALFORMED = -1, /* not well-formed XML, or entity declarations */
	FEED_NOT_FEED = -2   /* the root is none of rss, rdf:RDF, feed */
};

struct feed_link {
	const char *url; /* absolute, NUL-terminated */
	size_t len;
	char hop;	     /* 'L' or 'E' */
	const char *context; /* static, e.g. "rss/item/link", "atom/link/@href" */
};

typedef void (*feed_cb)(void *arg, const struct feed_link *l);

struct feed;

/* doc_url: the feed's own absolute URL, the base of its relative links. */
struct feed *feed_new(const char *doc_url, feed_cb cb, void *arg);
/* Lowers the limits (tests; 0 keeps the default). */
void feed_set_limits(struct feed *f, uint64_t max_links, uint64_t max_bytes);
/* Feeds the next bytes. Once a result other than FEED_OK has been
 * returned, it is returned again and nothing more is parsed. */
enum feed_result feed_data(struct feed *f, const char *data, size_t len);
/* The end of the body: a document cut short is malformed. */
enum feed_result feed_finish(struct feed *f);
enum feed_kind feed_kind(const struct feed *f);
/* Links delivered, and links skipped (over the field cap, or a reference
 * that does not resolve). */
uint64_t feed_links(const struct feed *f);
uint64_t feed_skipped(const struct feed *f);
/* Why the result is not FEED_OK, for a person ("" otherwise). */
const char *feed_error(const struct feed *f);
void feed_free(struct feed *f);

#endif
