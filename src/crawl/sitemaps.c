/* Sitemaps in a crawl (sitemaps.h). A body's entries are kept compactly
 * until the fetch ends, as a page's links are, because what is scheduled
 * depends on how the fetch ended (its status). */
#include "crawl/sitemaps.h"
#include "crawl/recrawl.h"
#include "crawl/schedule.h"
#include "lib/config.h"
#include "lib/curi.h"
#include "lib/revisit.h"
#include "lib/robots.h"
#include "lib/sitemap.h"
#include "lib/url.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct sitemaps_doc {
	struct sitemap *p;
	size_t max_entries;
	size_t kept, dropped;
	/* Per entry: kind, changefreq, has_lastmod (one byte each), lastmod
	 * (int64), priority (double), then the loc and a NUL. */
	struct buf entries;
};

/* Hops of what a sitemap or robots.txt lists: its own plus M. */
static void sitemaps_hops(const char *hops, struct buf *out)
{
	buf_reset(out);
	buf_appends(out, hops != NULL ? hops : "");
	buf_appendc(out, 'M');
}

struct sitemaps_robots {
	struct schedule *s;
	const char *robots_url;
	struct buf hops, href;
	int scheduled;
};

static void sitemaps_robots_cb(void *arg, const char *url, size_t n)
{
	struct sitemaps_robots *r = arg;

	if (url_resolve(r->robots_url, url, n, &r->href) == 0)
		r->scheduled += schedule_uri(r->s, r->href.data, r->robots_url, r->hops.data,
				    CURI_SITEMAP, 0) == 1;
}

int sitemaps_from_robots(struct schedule *s, const char *robots_url, const char *server_key,
    const char *hops, const char *body, size_t len, int continuous)
{
	struct sitemaps_robots r;

	memset(&r, 0, sizeof r);
	r.s = s;
	r.robots_url = robots_url;
	sitemaps_hops(hops, &r.hops);
	robots_sitemaps(body, len, sitemaps_robots_cb, &r);
	/* Guessing the usual place costs every server a request, worth it
	 * for a crawl that comes back, not for one pass (see tern.conf(5)).
	 * When robots.txt names it too, the seen set keeps one. */
	if (continuous) {
		buf_reset(&r.href);
		buf_appends(&r.href, server_key);
		buf_appends(&r.href, "/sitemap.xml");
		r.scheduled +=
		    schedule_uri(s, r.href.data, robots_url, r.hops.data, CURI_SITEMAP, 0) == 1;
	}
	buf_free(&r.hops);
	buf_free(&r.href);
	return r.scheduled;
}

static int sitemaps_mime_is(const char *mime, const char *want)
{
	size_t n = strlen(want);

	return mime != NULL && strncasecmp(mime, want, n) == 0 &&
	    (mime[n] == '\0' || mime[n] == ';' || mime[n] == ' ');
}

int sitemaps_wanted(const struct curi *c, const char *content_type)
{
	if (sitemaps_mime_is(content_type, "text/html") ||
	    sitemaps_mime_is(content_type, "application/xhtml+xml"))
		return 0;
	if (c->flags & CURI_SITEMAP)
		return 1;
	return sitemaps_mime_is(content_type, "application/xml") ||
	    sitemaps_mime_is(content_type, "text/xml");
}

static int sitemaps_entry_cb(void *arg, enum sitemap_kind kind, const struct sitemap_entry *e)
{
	struct sitemaps_doc *d = arg;
	unsigned char head[3];
	int64_t lastmod = e->lastmod_ms;
	double priority = e->priority;

	if (d->kept >= d->max_entries) {
		d->dropped++;
		return 0;
	}
	head[0] = (unsigned char)kind;
	head[1] = (unsigned char)e->changefreq;
	head[2] = (unsigned char)e->has_lastmod;
	buf_append(&d->entries, head, sizeof head);
	buf_append(&d->entries, &lastmod, sizeof lastmod);
	buf_append(&d->entries, &priority, sizeof priority);
	buf_appends(&d->entries, e->loc);
	buf_appendc(&d->entries, '\0');
	d->kept++;
	return 0;
}

struct sitemaps_doc *sitemaps_doc_new(size_t max_entries)
{
	struct sitemaps_doc *d = xcalloc(1, sizeof(*d));

	d->max_entries = max_entries;
	d->p = sitemap_new(sitemaps_entry_cb, d);
	return d;
}

void sitemaps_doc_feed(struct sitemaps_doc *d, const char *data, size_t len)
{
	sitemap_feed(d->p, data, len);
}

static void sitemaps_annotate(struct buf *annotations, const char *what)
{
	if (annotations->len)
		buf_appendc(annotations, ',');
	buf_appends(annotations, what);
}

size_t sitemaps_doc_finish(struct sitemaps_doc *d, struct schedule *s, const struct config *cfg,
    const struct curi *c, const char *surt, int continuous, uint64_t now_ms,
    struct buf *outlinks_text, struct buf *annotations)
{
	enum sitemap_result r = sitemap_finish(d->p);
	struct revisit_rule rule;
	struct buf hops = BUF_INIT, href = BUF_INIT;
	const char *p = d->entries.data, *end = d->entries.data + d->entries.len;
	int meant = (c->flags & CURI_SITEMAP) != 0;

	/* An XML document that is not a sitemap was only being tried. */
	if (r == SITEMAP_NOT_SITEMAP && !meant)
		return 0;
	if (r == SITEMAP_LIMIT)
		sitemaps_annotate(annotations, "sitemapLimit");
	else if (r == SITEMAP_MALFORMED || r == SITEMAP_NOT_SITEMAP)
		sitemaps_annotate(annotations, "sitemapError");
	if (d->dropped > 0) {
		if (annotations->len)
			buf_appendc(annotations, ',');
		buf_appendf(annotations, "dol:%zu", d->dropped);
	}
	recrawl_rule(cfg, surt, &rule);
	sitemaps_hops(c->hops, &hops);
	while (p != NULL && p < end) {
		struct schedule_hint hint;
		enum sitemap_kind kind = (enum sitemap_kind)(unsigned char)p[0];
		enum sitemap_changefreq cf = (enum sitemap_changefreq)(unsigned char)p[1];
		int has_lastmod = p[2];
		int64_t lastmod;
		double priority;
		const char *loc;

		memcpy(&lastmod, p + 3, sizeof lastmod);
		memcpy(&priority, p + 3 + sizeof lastmod, sizeof priority);
		loc = p + 3 + sizeof lastmod + sizeof priority;
		p = loc + strlen(loc) + 1;
		if (url_resolve(c->uri, loc, strlen(loc), &href) < 0)
			continue;
		memset(&hint, 0, sizeof hint);
		if (kind == SITEMAP_URLSET) {
			if (continuous && (cf != SITEMAP_CF_NONE || has_lastmod))
				hint.interval_s =
				    revisit_seed(&rule, cf, has_lastmod, lastmod, (int64_t)now_ms);
			if (priority >= 0)
				hint.precedence = revisit_priority_precedence(priority, 1);
		}
		schedule_uri_hinted(s, href.data, c->uri, hops.data,
		    kind == SITEMAP_INDEX ? CURI_SITEMAP : 0, &hint);
		buf_append(outlinks_text, href.data, href.len);
		buf_appends(outlinks_text, " M\n");
	}
	buf_free(&hops);
	buf_free(&href);
	return d->kept;
}

void sitemaps_doc_free(struct sitemaps_doc *d)
{
	if (d == NULL)
		return;
	sitemap_free(d->p);
	buf_free(&d->entries);
	free(d);
}
