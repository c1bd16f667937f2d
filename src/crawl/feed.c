/* Streaming feed parser over libexpat (see feed.h).
 *
 * Elements are matched by namespace and local name, with the element that
 * holds them: RSS 2.0 has no namespace, RSS 1.0 its own (and RSS 0.90's),
 * Atom RFC 4287's (and Atom 0.3's), Media RSS Yahoo's. A <link> is a link
 * inside an <item>, <channel> or <entry>, wherever those sit, so that a
 * feed nested oddly still yields its items, while the same names elsewhere
 * (an <image>'s <link> is the channel's page again) add nothing new.
 * Extension elements and <content:encoded> HTML are not read: Heritrix
 * does not read escaped markup either.
 *
 * xml:base (XML Base) is kept per element on a stack of resolved bases;
 * past FEED_BASE_DEPTH nested bases, deeper ones are ignored and their
 * elements resolve against the last kept. Element identities are kept to
 * FEED_DEPTH levels; deeper elements are read as unknown ones. */
#include "crawl/feed.h"
#include "lib/buf.h"
#include "lib/url.h"
#include "lib/xmalloc.h"
#include "lib/xmlguard.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FEED_NS_SEP ' '
#define FEED_DEPTH 64
#define FEED_BASE_DEPTH 16

/* The namespaces that matter. */
enum feed_ns {
	FEED_NS_NONE,
	FEED_NS_RSS1,
	FEED_NS_RDF,
	FEED_NS_ATOM,
	FEED_NS_MEDIA,
	FEED_NS_OTHER
};

/* What an element is, for its children. */
enum feed_elem {
	FEED_E_OTHER,
	FEED_E_CHANNEL,
	FEED_E_ITEM, /* an RSS <item> or an Atom <entry> */
	FEED_E_IMAGE,
	FEED_E_FEED /* the Atom <feed> or <source> */
};

/* The text of the element being read becomes a link. */
struct feed_field {
	char hop;
	const char *context;
	int absolute; /* only an absolute http(s) URL counts */
};

struct feed_base {
	int depth; /* the element that set it */
	struct buf href;
};

struct feed {
	struct xmlguard *g;
	feed_cb cb;
	void *arg;
	char *doc_url;
	uint64_t max_links;
	uint64_t links, skipped;
	enum feed_kind kind;
	enum feed_result result;
	int finished;
	char err[160];
	int depth;
	unsigned char elems[FEED_DEPTH]; /* enum feed_elem by depth (1-based) */
	struct feed_base bases[FEED_BASE_DEPTH];
	int nbases;
	/* The field being gathered (context NULL: none), at depth field_depth. */
	struct feed_field field;
	int field_depth;
	int field_over;
	struct buf text;
	struct buf href; /* the link just resolved */
};

static void feed_fail(struct feed *f, enum feed_result r, const char *why)
{
	if (f->result != FEED_OK)
		return;
	f->result = r;
	snprintf(f->err, sizeof(f->err), "%s", why);
	xmlguard_stop(f->g);
}

static void feed_guard_fail(void *arg, enum xmlguard_why why, const char *msg)
{
	feed_fail(arg, why == XMLGUARD_LIMIT ? FEED_LIMIT : FEED_MALFORMED, msg);
}

static enum feed_ns feed_ns_of(const char *ns, size_t n)
{
	static const struct {
		const char *uri;
		enum feed_ns ns;
	} known[] = {
	    {"http://purl.org/rss/1.0/", FEED_NS_RSS1},
	    {"http://my.netscape.com/rdf/simple/0.9/", FEED_NS_RSS1},
	    {"http://www.w3.org/1999/02/22-rdf-syntax-ns#", FEED_NS_RDF},
	    {"http://www.w3.org/2005/Atom", FEED_NS_ATOM},
	    {"http://purl.org/atom/ns#", FEED_NS_ATOM},
	    {"http://search.yahoo.com/mrss/", FEED_NS_MEDIA},
	};

	if (n == 0)
		return FEED_NS_NONE;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i].uri) == n && memcmp(known[i].uri, ns, n) == 0)
			return known[i].ns;
	return FEED_NS_OTHER;
}

/* Splits an expat name ("URI local" or "local"). */
static enum feed_ns feed_name(const XML_Char *name, const char **local)
{
	const char *sep = strrchr(name, FEED_NS_SEP);

	if (sep == NULL) {
		*local = name;
		return FEED_NS_NONE;
	}
	*local = sep + 1;
	return feed_ns_of(name, (size_t)(sep - name));
}

/* The value of an attribute by its expat name, or NULL. */
static const char *feed_attr(const XML_Char **attrs, const char *name)
{
	for (size_t i = 0; attrs[i] != NULL; i += 2)
		if (strcmp(attrs[i], name) == 0)
			return attrs[i + 1];
	return NULL;
}

static const char *feed_base(const struct feed *f)
{
	return f->nbases > 0 ? f->bases[f->nbases - 1].href.data : f->doc_url;
}

/* RSS's and Atom's elements live in their namespace, or in none for RSS
 * 2.0 (and the many RSS 1.0 feeds written without one). */
static int feed_is_rss(enum feed_ns ns)
{
	return ns == FEED_NS_NONE || ns == FEED_NS_RSS1;
}

/* Resolves ref against the base in effect and hands the link over. */
static void feed_emit(struct feed *f, const char *ref, size_t len, char hop, const char *context)
{
	struct feed_link l;

	while (len > 0 && (*ref == ' ' || *ref == '\t' || *ref == '\r' || *ref == '\n')) {
		ref++;
		len--;
	}
	while (len > 0 &&
	    (ref[len - 1] == ' ' || ref[len - 1] == '\t' || ref[len - 1] == '\r' ||
		ref[len - 1] == '\n'))
		len--;
	if (len == 0)
		return;
	if (len > FEED_FIELD_MAX || url_resolve(feed_base(f), ref, len, &f->href) != 0) {
		f->skipped++;
		return;
	}
	if (f->links >= f->max_links) {
		char why[64];

		snprintf(why, sizeof(why), "over %llu links", (unsigned long long)f->max_links);
		feed_fail(f, FEED_LIMIT, why);
		return;
	}
	f->links++;
	l.url = f->href.data;
	l.len = f->href.len;
	l.hop = hop;
	l.context = context;
	f->cb(f->arg, &l);
}

static void feed_emit_attr(
    struct feed *f, const XML_Char **attrs, const char *name, char hop, const char *context)
{
	const char *v = feed_attr(attrs, name);

	if (v != NULL)
		feed_emit(f, v, strlen(v), hop, context);
}

/* Atom <link>: every rel but those naming no document of the feed's. */
static void feed_atom_link(struct feed *f, const XML_Char **attrs)
{
	static const char *const skip[] = {"self", "hub", "edit", "edit-media", NULL};
	const char *rel = feed_attr(attrs, "rel");

	if (rel != NULL)
		for (const char *const *s = skip; *s; s++)
			if (strcasecmp(rel, *s) == 0)
				return;
	feed_emit_attr(f, attrs, "href", 'L', "atom/link/@href");
}

/* The root element names the kind, or ends the parse. */
static void feed_root(struct feed *f, enum feed_ns ns, const char *local)
{
	if (ns == FEED_NS_NONE && strcmp(local, "rss") == 0)
		f->kind = FEED_RSS;
	else if (ns == FEED_NS_RDF && strcmp(local, "RDF") == 0)
		f->kind = FEED_RDF;
	else if (ns == FEED_NS_ATOM && strcmp(local, "feed") == 0)
		f->kind = FEED_ATOM;
	else
		feed_fail(f, FEED_NOT_FEED, "the root element is none of rss, rdf:RDF and feed");
}

/* An element's identity for its children, and what it yields itself. */
static enum feed_elem feed_element(struct feed *f, enum feed_ns ns, const char *local,
    enum feed_elem parent, const XML_Char **attrs)
{
	int in_item = parent == FEED_E_ITEM;

	f->field.context = NULL;
	if (feed_is_rss(ns)) {
		if (strcmp(local, "channel") == 0)
			return FEED_E_CHANNEL;
		if (strcmp(local, "item") == 0)
			return FEED_E_ITEM;
		if (strcmp(local, "image") == 0)
			return FEED_E_IMAGE;
		if (strcmp(local, "link") == 0 && (in_item || parent == FEED_E_CHANNEL))
			f->field = (struct feed_field){
			    'L', in_item ? "rss/item/link" : "rss/channel/link", 0};
		else if (strcmp(local, "comments") == 0 && in_item)
			f->field = (struct feed_field){'L', "rss/item/comments", 0};
		else if (strcmp(local, "guid") == 0 && in_item) {
			/* A guid is the item's permalink unless it says it is not. */
			const char *p = feed_attr(attrs, "isPermaLink");
			if (p == NULL || strcasecmp(p, "true") == 0)
				f->field = (struct feed_field){'L', "rss/item/guid", 1};
		} else if (strcmp(local, "url") == 0 && parent == FEED_E_IMAGE)
			f->field = (struct feed_field){'E', "rss/image/url", 0};
		else if (strcmp(local, "enclosure") == 0 && in_item)
			feed_emit_attr(f, attrs, "url", 'L', "rss/enclosure/@url");
		return FEED_E_OTHER;
	}
	if (ns == FEED_NS_ATOM) {
		if (strcmp(local, "entry") == 0)
			return FEED_E_ITEM;
		if (strcmp(local, "feed") == 0 || strcmp(local, "source") == 0)
			return FEED_E_FEED;
		if (strcmp(local, "link") == 0)
			feed_atom_link(f, attrs);
		else if (strcmp(local, "content") == 0 && in_item)
			feed_emit_attr(f, attrs, "src", 'L', "atom/content/@src");
		else if ((strcmp(local, "icon") == 0 || strcmp(local, "logo") == 0) &&
		    parent == FEED_E_FEED)
			f->field = (struct feed_field){'E', "atom/icon", 0};
		return FEED_E_OTHER;
	}
	if (ns == FEED_NS_MEDIA) {
		if (strcmp(local, "content") == 0)
			feed_emit_attr(f, attrs, "url", 'L', "media/content/@url");
		else if (strcmp(local, "thumbnail") == 0)
			feed_emit_attr(f, attrs, "url", 'E', "media/thumbnail/@url");
	}
	return FEED_E_OTHER;
}

/* An xml:base on the element: resolved against the one in effect. */
static void feed_push_base(struct feed *f, const char *v)
{
	struct feed_base *b;

	if (f->nbases == FEED_BASE_DEPTH)
		return;
	b = &f->bases[f->nbases];
	if (url_resolve(feed_base(f), v, strlen(v), &b->href) != 0) {
		/* A base that does not resolve changes nothing. */
		buf_reset(&b->href);
		buf_appends(&b->href, feed_base(f));
	}
	b->depth = f->depth;
	f->nbases++;
}

static void XMLCALL feed_start_cb(void *arg, const XML_Char *name, const XML_Char **attrs)
{
	struct feed *f = xmlguard_arg(arg);
	const char *local, *xb;
	enum feed_ns ns;
	enum feed_elem parent, e;

	if (f->result != FEED_OK)
		return;
	f->depth++;
	ns = feed_name(name, &local);
	if (f->depth == 1) {
		feed_root(f, ns, local);
		if (f->result != FEED_OK)
			return;
	}
	xb = feed_attr(attrs, "http://www.w3.org/XML/1998/namespace base");
	if (xb != NULL)
		feed_push_base(f, xb);
	/* Text inside a field's children is not the field's. */
	if (f->field.context != NULL) {
		f->field_over = 1;
		return;
	}
	parent =
	    f->depth >= 2 && f->depth - 1 <= FEED_DEPTH ? f->elems[f->depth - 2] : FEED_E_OTHER;
	e = feed_element(f, ns, local, parent, attrs);
	if (f->depth <= FEED_DEPTH)
		f->elems[f->depth - 1] = (unsigned char)e;
	if (f->field.context != NULL) {
		f->field_depth = f->depth;
		f->field_over = 0;
		buf_reset(&f->text);
	}
}

static void XMLCALL feed_text_cb(void *arg, const XML_Char *text, int len)
{
	struct feed *f = xmlguard_arg(arg);

	if (f->result != FEED_OK || f->field.context == NULL || f->field_over)
		return;
	if (f->text.len + (size_t)len > FEED_FIELD_MAX) {
		f->field_over = 1;
		f->skipped++;
		return;
	}
	buf_append(&f->text, text, (size_t)len);
}

/* Whether a field's text is an absolute http or https URL: a guid that
 * is not one is an identifier, whatever isPermaLink says. */
static int feed_absolute(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
		s++;
		n--;
	}
	return (n > 7 && strncasecmp(s, "http://", 7) == 0) ||
	    (n > 8 && strncasecmp(s, "https://", 8) == 0);
}

static void XMLCALL feed_end_cb(void *arg, const XML_Char *name)
{
	struct feed *f = xmlguard_arg(arg);

	(void)name;
	if (f->result != FEED_OK)
		return;
	if (f->field.context != NULL && f->depth == f->field_depth) {
		if (!f->field_over && f->text.len > 0 &&
		    (!f->field.absolute || feed_absolute(f->text.data, f->text.len)))
			feed_emit(f, f->text.data, f->text.len, f->field.hop, f->field.context);
		f->field.context = NULL;
	}
	if (f->nbases > 0 && f->bases[f->nbases - 1].depth == f->depth)
		f->nbases--;
	f->depth--;
}

enum feed_result feed_data(struct feed *f, const char *data, size_t len)
{
	if (f->result != FEED_OK || len == 0)
		return f->result;
	if (f->finished) {
		feed_fail(f, FEED_MALFORMED, "bytes after the end");
		return f->result;
	}
	xmlguard_parse(f->g, data, len, 0);
	return f->result;
}

enum feed_result feed_finish(struct feed *f)
{
	if (f->result != FEED_OK || f->finished)
		return f->result;
	f->finished = 1;
	xmlguard_parse(f->g, "", 0, 1);
	return f->result;
}

struct feed *feed_new(const char *doc_url, feed_cb cb, void *arg)
{
	struct feed *f = xcalloc(1, sizeof(*f));

	f->cb = cb;
	f->arg = arg;
	f->doc_url = xstrdup(doc_url);
	f->max_links = FEED_MAX_LINKS;
	buf_init(&f->text);
	buf_init(&f->href);
	for (int i = 0; i < FEED_BASE_DEPTH; i++)
		buf_init(&f->bases[i].href);
	f->g = xmlguard_new(FEED_NS_SEP, FEED_MAX_BYTES, feed_guard_fail, f);
	xmlguard_handlers(f->g, feed_start_cb, feed_end_cb, feed_text_cb);
	return f;
}

void feed_set_limits(struct feed *f, uint64_t max_links, uint64_t max_bytes)
{
	if (max_links > 0)
		f->max_links = max_links;
	xmlguard_set_max_bytes(f->g, max_bytes);
}

enum feed_kind feed_kind(const struct feed *f)
{
	return f->kind;
}

uint64_t feed_links(const struct feed *f)
{
	return f->links;
}

uint64_t feed_skipped(const struct feed *f)
{
	return f->skipped;
}

const char *feed_error(const struct feed *f)
{
	return f->err;
}

void feed_free(struct feed *f)
{
	if (f == NULL)
		return;
	xmlguard_free(f->g);
	buf_free(&f->text);
	buf_free(&f->href);
	for (int i = 0; i < FEED_BASE_DEPTH; i++)
		buf_free(&f->bases[i].href);
	free(f->doc_url);
	free(f);
}
