/* Streaming sitemap parser over libexpat (see sitemap.h).
 *
 * Elements are matched by depth and local name: the root (depth 1) names
 * the kind, depth 2 is an entry (<url> in a urlset, <sitemap> in an
 * index), depth 3 its fields. Elements in other namespaces (image:,
 * video:, news:, xhtml:link) are extensions and are skipped with
 * everything inside them; so are entries of the wrong kind. A field's
 * text is gathered up to SITEMAP_FIELD_MAX bytes. Bad <lastmod>,
 * <changefreq> or <priority> values are dropped from their entry, which
 * still counts: a search engine would still take the URL.
 *
 * gzip is inflated by the streaming inflate every reader shares
 * (lib/zinflate.h), without caps of its own: the only cap needed here is
 * the protocol's 50 MB, which the parser counts itself, gzip or not. */
#include "lib/sitemap.h"
#include "lib/buf.h"
#include "lib/isodate.h"
#include "lib/xmalloc.h"
#include "lib/zinflate.h"
#include "lib/xmlguard.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The namespace separator expat puts between a namespace URI and a local
 * name; a space cannot occur in either. */
#define SITEMAP_NS_SEP ' '

enum sitemap_field {
	SITEMAP_F_NONE,
	SITEMAP_F_LOC,
	SITEMAP_F_LASTMOD,
	SITEMAP_F_CHANGEFREQ,
	SITEMAP_F_PRIORITY
};

enum sitemap_coding { SITEMAP_SNIFF, SITEMAP_PLAIN, SITEMAP_GZIP };

struct sitemap {
	struct xmlguard *g;
	sitemap_entry_cb cb;
	void *arg;
	uint64_t max_entries;
	uint64_t entries, skipped;
	enum sitemap_kind kind;
	enum sitemap_result result;
	int finished;
	char err[160];
	/* Element depth, and the depth of an element being skipped (0: none). */
	int depth, skip_depth;
	int in_entry;
	enum sitemap_field field;
	int field_over; /* the current field passed the cap */
	int entry_bad;	/* a field of this entry passed the cap */
	struct buf text, loc;
	int has_lastmod;
	int64_t lastmod_ms;
	enum sitemap_changefreq changefreq;
	double priority;
	/* Compression. */
	enum sitemap_coding coding;
	unsigned char sniff; /* first byte, held until the second comes */
	int sniffed;
	struct zinflate *z;
};

static const char *const sitemap_cf_names[] = {
    "", "always", "hourly", "daily", "weekly", "monthly", "yearly", "never"};

const char *sitemap_changefreq_name(enum sitemap_changefreq cf)
{
	return (unsigned)cf < sizeof(sitemap_cf_names) / sizeof(sitemap_cf_names[0])
	    ? sitemap_cf_names[cf]
	    : "";
}

static void sitemap_fail(struct sitemap *s, enum sitemap_result r, const char *why)
{
	if (s->result != SITEMAP_OK)
		return;
	s->result = r;
	snprintf(s->err, sizeof(s->err), "%s", why);
	xmlguard_stop(s->g);
}

static void sitemap_guard_fail(void *arg, enum xmlguard_why why, const char *msg)
{
	sitemap_fail(arg, why == XMLGUARD_LIMIT ? SITEMAP_LIMIT : SITEMAP_MALFORMED, msg);
}

/* The namespaces of the protocol (sitemaps.org, and Google's older ones),
 * or none at all, which many generators write. */
static int sitemap_ns_ok(const char *ns, size_t n)
{
	static const char *const tails[] = {"/sitemap/0.9", "/sitemap/0.84"};
	size_t i;

	if (n == 0)
		return 1;
	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		size_t t = strlen(tails[i]);

		if (n >= t && memcmp(ns + n - t, tails[i], t) == 0)
			return 1;
	}
	return 0;
}

/* Splits an expat name ("URI local" or "local") and says whether it is
 * one of ours; *local is the local name. */
static int sitemap_name(const XML_Char *name, const char **local)
{
	const char *sep = strrchr(name, SITEMAP_NS_SEP);

	if (sep == NULL) {
		*local = name;
		return 1;
	}
	*local = sep + 1;
	return sitemap_ns_ok(name, (size_t)(sep - name));
}

static void sitemap_entry_reset(struct sitemap *s)
{
	buf_reset(&s->loc);
	s->has_lastmod = 0;
	s->lastmod_ms = 0;
	s->changefreq = SITEMAP_CF_NONE;
	s->priority = -1;
	s->entry_bad = 0;
}

static void XMLCALL sitemap_start_cb(void *arg, const XML_Char *name, const XML_Char **attrs)
{
	struct sitemap *s = xmlguard_arg(arg);
	const char *local;
	int ours;

	(void)attrs;
	if (s->result != SITEMAP_OK)
		return;
	s->depth++;
	if (s->skip_depth != 0)
		return;
	ours = sitemap_name(name, &local);
	if (s->depth == 1) {
		if (ours && strcmp(local, "urlset") == 0)
			s->kind = SITEMAP_URLSET;
		else if (ours && strcmp(local, "sitemapindex") == 0)
			s->kind = SITEMAP_INDEX;
		else
			sitemap_fail(s, SITEMAP_NOT_SITEMAP,
			    "the root element is neither urlset nor sitemapindex");
		return;
	}
	if (s->depth == 2 && ours &&
	    strcmp(local, s->kind == SITEMAP_URLSET ? "url" : "sitemap") == 0) {
		s->in_entry = 1;
		sitemap_entry_reset(s);
		return;
	}
	if (s->depth == 3 && s->in_entry && ours) {
		s->field = strcmp(local, "loc") == 0   ? SITEMAP_F_LOC
		    : strcmp(local, "lastmod") == 0    ? SITEMAP_F_LASTMOD
		    : strcmp(local, "changefreq") == 0 ? SITEMAP_F_CHANGEFREQ
		    : strcmp(local, "priority") == 0   ? SITEMAP_F_PRIORITY
						       : SITEMAP_F_NONE;
		if (s->field != SITEMAP_F_NONE) {
			buf_reset(&s->text);
			s->field_over = 0;
			return;
		}
	}
	/* Anything else, with all it contains, is not ours. */
	s->skip_depth = s->depth;
}

static void XMLCALL sitemap_text_cb(void *arg, const XML_Char *text, int len)
{
	struct sitemap *s = xmlguard_arg(arg);

	if (s->result != SITEMAP_OK || s->field == SITEMAP_F_NONE || s->skip_depth != 0 ||
	    s->depth != 3 || s->field_over)
		return;
	if (s->text.len + (size_t)len > SITEMAP_FIELD_MAX) {
		s->field_over = 1;
		return;
	}
	buf_append(&s->text, text, (size_t)len);
}

/* The field's text without surrounding white space. */
static const char *sitemap_trim(struct buf *b, size_t *n)
{
	const char *p = b->data != NULL ? b->data : "";
	size_t len = b->len;

	while (len > 0 && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
		p++;
		len--;
	}
	while (len > 0 &&
	    (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r' || p[len - 1] == '\n'))
		len--;
	*n = len;
	return p;
}

static void sitemap_field_end(struct sitemap *s)
{
	size_t n, i;
	const char *t = sitemap_trim(&s->text, &n);
	int64_t us;

	if (s->field_over) {
		/* An over-long date or word is simply not used; an over-long
		 * <loc> cannot be, so the entry goes. */
		if (s->field == SITEMAP_F_LOC)
			s->entry_bad = 1;
		return;
	}
	switch (s->field) {
	case SITEMAP_F_LOC:
		if (s->loc.len == 0)
			buf_append(&s->loc, t, n);
		break;
	case SITEMAP_F_LASTMOD:
		if (isodate_parse(t, n, &us) == 0) {
			s->has_lastmod = 1;
			s->lastmod_ms = us / 1000;
		}
		break;
	case SITEMAP_F_CHANGEFREQ:
		for (i = 1; i < sizeof(sitemap_cf_names) / sizeof(sitemap_cf_names[0]); i++)
			if (strlen(sitemap_cf_names[i]) == n &&
			    strncasecmp(t, sitemap_cf_names[i], n) == 0)
				s->changefreq = (enum sitemap_changefreq)i;
		break;
	case SITEMAP_F_PRIORITY: {
		char tmp[32], *end;
		double v;

		if (n == 0 || n >= sizeof(tmp))
			break;
		memcpy(tmp, t, n);
		tmp[n] = '\0';
		v = strtod(tmp, &end);
		/* The protocol's values are decimals from 0.0 to 1.0; strtod
		 * also takes hex, "nan" and exponents, which are refused. */
		if (*end == '\0' && v >= 0.0 && v <= 1.0 && strspn(tmp, "0123456789.") == n)
			s->priority = v;
		break;
	}
	case SITEMAP_F_NONE:
		break;
	}
}

static void sitemap_entry_end(struct sitemap *s)
{
	struct sitemap_entry e;

	if (s->loc.len == 0 || s->entry_bad) {
		s->skipped++;
		return;
	}
	if (s->entries >= s->max_entries) {
		char why[64];

		snprintf(why, sizeof(why), "over %llu entries", (unsigned long long)s->max_entries);
		sitemap_fail(s, SITEMAP_LIMIT, why);
		return;
	}
	s->entries++;
	e.loc = s->loc.data;
	e.has_lastmod = s->has_lastmod;
	e.lastmod_ms = s->lastmod_ms;
	e.changefreq = s->changefreq;
	e.priority = s->priority;
	if (s->cb(s->arg, s->kind, &e) != 0)
		sitemap_fail(s, SITEMAP_STOPPED, "stopped by the caller");
}

static void XMLCALL sitemap_end_cb(void *arg, const XML_Char *name)
{
	struct sitemap *s = xmlguard_arg(arg);

	(void)name;
	if (s->result != SITEMAP_OK)
		return;
	if (s->skip_depth != 0) {
		if (s->depth == s->skip_depth)
			s->skip_depth = 0;
	} else if (s->depth == 3 && s->field != SITEMAP_F_NONE) {
		sitemap_field_end(s);
		s->field = SITEMAP_F_NONE;
	} else if (s->depth == 2 && s->in_entry) {
		sitemap_entry_end(s);
		s->in_entry = 0;
	}
	s->depth--;
}

/* zinflate's output, parsed; the parser's failure stops inflating. */
static int sitemap_inflated_cb(void *arg, const char *data, size_t len)
{
	struct sitemap *s = arg;

	xmlguard_parse(s->g, data, len, 0);
	return s->result != SITEMAP_OK;
}

static void sitemap_inflate(struct sitemap *s, const char *data, size_t len)
{
	char why[96];

	/* What was inflated before an error is parsed first (see
	 * sitemap_start_coding), so that the result does not depend on where
	 * the reads were cut. */
	if (zinflate_feed(s->z, data, len, NULL, sitemap_inflated_cb, s) != ZINFLATE_CORRUPT)
		return;
	xmlguard_drain(s->g);
	snprintf(why, sizeof(why), "gzip: %s",
	    zinflate_error(s->z) != NULL ? zinflate_error(s->z) : "corrupt data");
	sitemap_fail(s, SITEMAP_MALFORMED, why);
}

static void sitemap_start_coding(struct sitemap *s, int gzip)
{
	if (!gzip) {
		s->coding = SITEMAP_PLAIN;
		return;
	}
	/* A gzip wrapper, checked (CRC-32 and length); members may follow
	 * each other, as in a concatenated file. What came before an error
	 * is parsed. */
	s->z = zinflate_new(ZINFLATE_GZIP, ZINFLATE_MEMBERS, NULL);
	zinflate_keep_before_error(s->z);
	s->coding = SITEMAP_GZIP;
}

static void sitemap_route(struct sitemap *s, const char *data, size_t len)
{
	if (s->coding == SITEMAP_PLAIN)
		xmlguard_parse(s->g, data, len, 0);
	else
		sitemap_inflate(s, data, len);
}

enum sitemap_result sitemap_feed(struct sitemap *s, const char *data, size_t len)
{
	if (s->result != SITEMAP_OK || len == 0)
		return s->result;
	if (s->finished) {
		sitemap_fail(s, SITEMAP_MALFORMED, "bytes after the end");
		return s->result;
	}
	if (s->coding == SITEMAP_SNIFF) {
		/* The gzip magic is 1f 8b; a body split after its first byte
		 * waits for the second. */
		unsigned char b0 = s->sniffed ? s->sniff : (unsigned char)data[0];

		if (!s->sniffed && len == 1 && b0 == 0x1f) {
			s->sniff = b0;
			s->sniffed = 1;
			return s->result;
		}
		sitemap_start_coding(
		    s, b0 == 0x1f && (unsigned char)(s->sniffed ? data[0] : data[1]) == 0x8b);
		if (s->sniffed) {
			char c = (char)s->sniff;

			s->sniffed = 0;
			sitemap_route(s, &c, 1);
		}
	}
	if (s->result == SITEMAP_OK)
		sitemap_route(s, data, len);
	return s->result;
}

enum sitemap_result sitemap_finish(struct sitemap *s)
{
	if (s->result != SITEMAP_OK || s->finished)
		return s->result;
	s->finished = 1;
	if (s->coding == SITEMAP_SNIFF) {
		sitemap_start_coding(s, 0);
		if (s->sniffed) {
			char c = (char)s->sniff;

			s->sniffed = 0;
			xmlguard_parse(s->g, &c, 1, 0);
		}
	}
	if (s->coding == SITEMAP_GZIP && zinflate_finish(s->z) != ZINFLATE_END) {
		xmlguard_drain(s->g);
		sitemap_fail(s, SITEMAP_MALFORMED, "gzip: the stream is cut short");
		return s->result;
	}
	xmlguard_parse(s->g, "", 0, 1);
	return s->result;
}

struct sitemap *sitemap_new(sitemap_entry_cb cb, void *arg)
{
	struct sitemap *s = xcalloc(1, sizeof(*s));

	s->cb = cb;
	s->arg = arg;
	s->max_entries = SITEMAP_MAX_ENTRIES;
	buf_init(&s->text);
	buf_init(&s->loc);
	s->priority = -1;
	s->g = xmlguard_new(SITEMAP_NS_SEP, SITEMAP_MAX_BYTES, sitemap_guard_fail, s);
	xmlguard_handlers(s->g, sitemap_start_cb, sitemap_end_cb, sitemap_text_cb);
	return s;
}

void sitemap_set_limits(struct sitemap *s, uint64_t max_entries, uint64_t max_bytes)
{
	if (max_entries > 0)
		s->max_entries = max_entries;
	xmlguard_set_max_bytes(s->g, max_bytes);
}

enum sitemap_kind sitemap_kind(const struct sitemap *s)
{
	return s->kind;
}

uint64_t sitemap_entries(const struct sitemap *s)
{
	return s->entries;
}

uint64_t sitemap_skipped(const struct sitemap *s)
{
	return s->skipped;
}

uint64_t sitemap_bytes(const struct sitemap *s)
{
	return xmlguard_bytes(s->g);
}

int sitemap_gzipped(const struct sitemap *s)
{
	return s->z != NULL;
}

const char *sitemap_error(const struct sitemap *s)
{
	return s->err;
}

void sitemap_free(struct sitemap *s)
{
	if (s == NULL)
		return;
	zinflate_free(s->z);
	xmlguard_free(s->g);
	buf_free(&s->text);
	buf_free(&s->loc);
	free(s);
}
