/* A page's outlinks: which extractors its response goes through (chosen
 * from the head), the links they report as the body streams (kept as
 * records, in order, up to extract.max-outlinks), and at the end those
 * links resolved against the page or its <base href> and handed to the
 * scheduler as one batch, after the response's own header links. */
#include <build-config.h>

#include "crawl/outlinks.h"
#include "crawl/feed.h"
#include "crawl/schedule.h"
#include "crawl/scope.h"
#include "crawl/sitemaps.h"
#include "crawl/stats.h"
#include "frontier/frontier.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "lib/curi.h"
#include "lib/rules.h"
#include "crawl/extract.h"
#include "lib/url.h"
#include "lib/xmalloc.h"
#include "net/fetch.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Content extractors a response can go through: HTML and CSS (the
 * sitemap and feed parsers are kept beside them). */
#define OUTLINKS_EXTRACTORS 2
/* Room for link records kept from one response to the next; a page with
 * more links gives its larger buffer back. */
#define OUTLINKS_KEEP_ROOM (16 * 1024)

/* What resolving one page's links needs, built once per page rather than
 * per link (and its buffers' room kept from page to page): the resolved
 * <base href>, redone only when the raw base the extractor reports
 * changes. */
struct outlinks_resolver {
	const struct curi *c;
	const struct url_parts *page;
	struct buf href;     /* the link just resolved ("" if it was not) */
	struct buf base_raw; /* the <base href> that base was resolved from */
	struct buf base;     /* base_raw resolved against the page */
	struct url_parts base_parts;
	int base_ok;
};

struct outlinks {
	const struct curi *c;
	const char *surt;
	/* The extractors the response goes through, in chain order (NULL past
	 * the last); the first is the one whose meta robots counts. */
	struct extract *x[OUTLINKS_EXTRACTORS];
	enum extract_type xt[OUTLINKS_EXTRACTORS];
	/* An ended response's extractors, by type, reset for the next one
	 * rather than made again. */
	struct extract *spare[EXTRACT_CSS + 1];
	size_t max_outlinks;	 /* extract.max-outlinks for the response, 0: none */
	size_t dropped;		 /* links past it, across the extractors */
	struct sitemaps_doc *sm; /* a sitemap's parser, first in the chain */
	struct feed *feed;	 /* a feed's parser, beside the sitemap's */
	int feed_declared;	 /* the Content-Type said it is a feed */
	struct buf links;	 /* records: hop, rel flags, then ref NUL, base NUL */
	size_t nlinks;
	struct outlinks_resolver r;
};

static void outlinks_link_cb(void *arg, const struct extract_link *l)
{
	struct outlinks *o = arg;

	/* extract.max-outlinks bounds the response, however many
	 * extractors it goes through (Heritrix counts per URI). */
	if (o->max_outlinks > 0 && o->nlinks >= o->max_outlinks) {
		o->dropped++;
		return;
	}
	buf_appendc(&o->links, l->hop);
	/* A rule can test rel=nofollow (lib/rules.h). */
	buf_appendc(&o->links, (l->flags & EXTRACT_NOFOLLOW) ? RULES_NOFOLLOW : 0);
	buf_append(&o->links, l->ref, l->len);
	buf_appendc(&o->links, '\0');
	if (l->base)
		buf_appends(&o->links, l->base);
	buf_appendc(&o->links, '\0');
	o->nlinks++;
}

static int outlinks_mime_is(const char *mime, const char *want)
{
	size_t n = strlen(want);
	return mime != NULL && strncasecmp(mime, want, n) == 0 &&
	    (mime[n] == '\0' || mime[n] == ';' || mime[n] == ' ');
}

/* A feed's link: its URL is absolute already (xml:base and the feed's
 * URL resolved by the parser). */
static void outlinks_feed_cb(void *arg, const struct feed_link *fl)
{
	struct extract_link l = {fl->url, fl->len, NULL, fl->hop, fl->context, 0};

	outlinks_link_cb(arg, &l);
}

/* Whether the feed parser takes a response: 1 when its Content-Type names
 * a feed, 2 when it is XML whose root element will tell. */
static int outlinks_feed_type(const char *mime)
{
	if (outlinks_mime_is(mime, "application/rss+xml") ||
	    outlinks_mime_is(mime, "application/atom+xml") ||
	    outlinks_mime_is(mime, "application/rdf+xml"))
		return 1;
	if (outlinks_mime_is(mime, "text/xml") || outlinks_mime_is(mime, "application/xml"))
		return 2;
	return 0;
}

/* Whether the links of a response with this status are scheduled
 * (extract.extract-404s, extract.process-error-outlinks). */
static int outlinks_wanted(const struct config *cfg, const char *surt, int status)
{
	if (status >= 200 && status < 400)
		return 1;
	if (status == 404)
		return config_bool_for(cfg, surt, CK_EXTRACT_EXTRACT_404S);
	return config_bool_for(cfg, surt, CK_EXTRACT_PROCESS_ERROR_OUTLINKS);
}

/* Whether the HTML extractor takes a response: its Content-Type. */
static int outlinks_is_html(const char *mime)
{
	return outlinks_mime_is(mime, "text/html") ||
	    outlinks_mime_is(mime, "application/xhtml+xml");
}

/* Whether the CSS extractor takes it, as Heritrix's ExtractorCSS judges: a
 * Content-Type that names css, or a URI ending in ".css" (stylesheets are
 * often served as text/plain, or as text/html by a misconfigured server). */
static int outlinks_is_css(const char *mime, const char *target, size_t n)
{
	return (mime != NULL && strcasestr(mime, "css") != NULL) ||
	    (n >= 4 && strncasecmp(target + n - 4, ".css", 4) == 0);
}

/* The response's extractor number i, of type t: the spare one reset, or a
 * new one. */
static void outlinks_extractor(
    struct outlinks *o, int i, enum extract_type t, const struct extract_opts *xo)
{
	if (o->spare[t] != NULL) {
		o->x[i] = o->spare[t];
		o->spare[t] = NULL;
		extract_reset(o->x[i], xo);
	} else {
		o->x[i] = extract_new(t, xo, outlinks_link_cb, o);
	}
	o->xt[i] = t;
}

struct outlinks *outlinks_new(void)
{
	return xcalloc(1, sizeof(struct outlinks));
}

int outlinks_begin(struct outlinks *o, const struct config *cfg, const struct curi *c,
    const char *surt, int status, const char *mime, const char *target, size_t target_len)
{
	struct extract_opts xo;
	int n = 0, independently;

	if (!outlinks_wanted(cfg, surt, status))
		return 0;
	o->c = c;
	o->surt = surt;
	memset(&xo, 0, sizeof xo);
	xo.max_outlinks = (size_t)config_int_for(cfg, surt, CK_EXTRACT_MAX_OUTLINKS);
	xo.forms = config_bool_for(cfg, surt, CK_EXTRACT_FORMS);
	o->max_outlinks = xo.max_outlinks;
	independently = config_bool_for(cfg, surt, CK_EXTRACT_EXTRACT_INDEPENDENTLY);
	/* Heritrix's chain order, sitemap, HTML, then CSS. An extractor that
	 * runs finishes the response's link extraction (Heritrix's
	 * linkExtractorFinished): with extract.extract-independently false a
	 * later extractor skips what an earlier one finished; with true, every
	 * extractor that applies runs over the same body. The sitemap parser
	 * takes a 2xx sitemap or XML response (crawl.sitemaps). The feed
	 * parser takes a 2xx feed or XML response beside it: of an XML
	 * response, the root element says which of the two it is, so only
	 * one yields links. */
	if (status >= 200 && status < 300 && sitemaps_wanted(c, mime) &&
	    config_bool_for(cfg, surt, CK_CRAWL_SITEMAPS))
		o->sm = sitemaps_doc_new(xo.max_outlinks);
	if (status >= 200 && status < 300 && (o->feed_declared = outlinks_feed_type(mime)) != 0) {
		o->feed = feed_new(c->uri, outlinks_feed_cb, o);
		o->feed_declared = o->feed_declared == 1;
	}
	if ((o->sm == NULL || independently) && outlinks_is_html(mime))
		outlinks_extractor(o, n++, EXTRACT_HTML, &xo);
	if (((n == 0 && o->sm == NULL) || independently) &&
	    outlinks_is_css(mime, target, target_len))
		outlinks_extractor(o, n++, EXTRACT_CSS, &xo);
	return 1;
}

void outlinks_feed(struct outlinks *o, const char *data, size_t len)
{
	if (len == 0)
		return;
	for (int i = 0; i < OUTLINKS_EXTRACTORS && o->x[i] != NULL; i++)
		extract_feed(o->x[i], data, len);
	if (o->sm != NULL)
		sitemaps_doc_feed(o->sm, data, len);
	if (o->feed != NULL)
		feed_data(o->feed, data, len);
}

void outlinks_finish(struct outlinks *o)
{
	for (int i = 0; i < OUTLINKS_EXTRACTORS && o->x[i] != NULL; i++)
		extract_finish(o->x[i]);
	if (o->feed != NULL)
		feed_finish(o->feed);
}

const char *outlinks_title(struct outlinks *o)
{
	for (int i = 0; i < OUTLINKS_EXTRACTORS && o->x[i] != NULL; i++)
		if (o->xt[i] == EXTRACT_HTML)
			return extract_title(o->x[i]);
	return NULL;
}

size_t outlinks_dropped(const struct outlinks *o)
{
	size_t n = o->dropped;

	for (int i = 0; i < OUTLINKS_EXTRACTORS && o->x[i] != NULL; i++)
		n += extract_dropped(o->x[i]);
	return n;
}

static void outlinks_resolver_init(
    struct outlinks_resolver *r, const struct curi *c, const struct url_parts *page)
{
	r->c = c;
	r->page = page;
	buf_reset(&r->href);
	buf_reset(&r->base_raw);
	buf_reset(&r->base);
	r->base_ok = 0;
}

/* Keeps the buffers' room unless a page made them large (keep 0: frees
 * them). */
static void outlinks_resolver_end(struct outlinks_resolver *r, size_t keep)
{
	buf_reset_keep(&r->href, keep);
	buf_reset_keep(&r->base_raw, keep);
	buf_reset_keep(&r->base, keep);
}

/* Resolves a link against the page (or its <base href>) into r->href; 0,
 * or -1 (r->href empty) if it does not resolve. */
static int outlinks_resolve(
    struct outlinks_resolver *r, const char *ref, size_t reflen, const char *base)
{
	const char *against = r->c->uri;
	const struct url_parts *parts = r->page;

	if (base != NULL && *base) {
		if (r->base_raw.len == 0 || strcmp(r->base_raw.data, base) != 0) {
			buf_reset(&r->base_raw);
			buf_appends(&r->base_raw, base);
			r->base_ok = url_resolve_parsed(
					 r->c->uri, r->page, base, strlen(base), &r->base) == 0 &&
			    url_split(r->base.data, &r->base_parts) == 0;
		}
		if (r->base_ok) {
			against = r->base.data;
			parts = &r->base_parts;
		}
	}
	if (url_resolve_parsed(against, parts, ref, reflen, &r->href) < 0) {
		buf_reset(&r->href);
		return -1;
	}
	return 0;
}

/* Whether status is a redirect whose Location a browser follows. */
static int outlinks_is_redirect(int status)
{
	return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

/* A seed's redirect (Location, Refresh, meta refresh) to href, len bytes,
 * outside the scope makes href a seed (crawl.seed-redirects-new-seeds in
 * tern.conf(5), Heritrix's seedsRedirectNewSeeds), up to
 * OUTLINKS_SEED_REDIRECTS in a chain: the scope grows as if it had been
 * listed, so that its site is crawled and not only its first page. The
 * new seed keeps the address guard's exemption only when the redirecting
 * seed was itself on a private or loopback address (a site of one's own);
 * a public seed's redirect to such an address is refused as any link. 1
 * if href was made a seed (and scheduled as one), 0 to schedule it as any
 * link. */
static int outlinks_new_seed(const struct outlinks *o, const struct outlinks_env *env,
    const char *href, size_t len, int local, struct buf *annotations)
{
	const struct curi *c = o->c;
	size_t nhops = c->hops != NULL ? strlen(c->hops) : 0;
	unsigned flags = CURI_SEED;
	char *uri, *hops;
	int rc;

	/* Under an explicit list of prefixes a seed adds nothing to the
	 * scope: the target is fetched as any redirect's target. */
	if (!(c->flags & CURI_SEED) || env->new_seed == NULL || env->scope == NULL ||
	    !scope_seeds_widen(env->scope) || nhops >= OUTLINKS_SEED_REDIRECTS ||
	    !config_bool(env->cfg, CK_CRAWL_SEED_REDIRECTS_NEW_SEEDS))
		return 0;
	/* The fragment is not part of the URI fetched (schedule.h). */
	uri = xstrndup(href, len);
	uri[strcspn(uri, "#")] = '\0';
	if (strcmp(uri, c->uri) == 0 || scope_check(env->scope, uri, "", 0) == SCOPE_ACCEPT) {
		free(uri);
		return 0;
	}
	if ((c->flags & CURI_GUARDED) || !local)
		flags |= CURI_GUARDED;
	hops = xasprintf("%sR", c->hops != NULL ? c->hops : "");
	rc = env->new_seed(env->ctx, uri, c->uri, hops, flags);
	free(hops);
	free(uri);
	if (rc < 0)
		return 0;
	if (strstr(annotations->data != NULL ? annotations->data : "", "seedRedirect") == NULL)
		buf_appends(annotations, annotations->len ? ",seedRedirect" : "seedRedirect");
	return 1;
}

/* Resolves a header's link into r->href and adds it to the page's batch,
 * ahead of the body's links, unless a seed's redirect made it a seed. */
static void outlinks_header_link(const struct outlinks *o, const struct outlinks_env *env,
    struct outlinks_resolver *r, const char *ref, size_t reflen, int redirect, int local,
    struct buf *annotations)
{
	if (outlinks_resolve(r, ref, reflen, NULL) < 0)
		return;
	if (redirect && outlinks_new_seed(o, env, r->href.data, r->href.len, local, annotations))
		return;
	schedule_batch_add(env->schedule, r->href.data, r->href.len, 'R');
}

/* The response's header links: the Location header (hop R) and, as
 * Heritrix's ExtractorHTTP, Content-Location, and the Refresh header that
 * browsers follow like a meta refresh. */
static void outlinks_headers(const struct outlinks *o, const struct outlinks_env *env,
    struct outlinks_resolver *r, struct fetch *f, int status, int local, struct buf *text,
    struct buf *annotations)
{
	const char *loc =
	    f != NULL && status >= 300 && status < 400 ? fetch_header(f, "Location") : NULL;

	if (loc != NULL) {
		outlinks_header_link(
		    o, env, r, loc, strlen(loc), outlinks_is_redirect(status), local, annotations);
		buf_appendf(text, "%s R =LOCATION\n", r->href.len ? r->href.data : loc);
	}
	if (f != NULL) {
		const char *cl = fetch_header(f, "Content-Location");
		const char *refresh = fetch_header(f, "Refresh");
		const char *u;
		size_t ulen;
		if (cl != NULL) {
			outlinks_header_link(o, env, r, cl, strlen(cl), 0, local, annotations);
			if (r->href.len)
				buf_appendf(text, "%s R =CONTENT_LOCATION\n", r->href.data);
		}
		if (refresh != NULL &&
		    extract_refresh_url(refresh, strlen(refresh), &u, &ulen) == 0) {
			outlinks_header_link(o, env, r, u, ulen, 1, local, annotations);
			if (r->href.len)
				buf_appendf(text, "%s R =REFRESH\n", r->href.data);
		}
	}
}

/* meta robots nofollow, under the obey policy, drops the navigational
 * links and keeps embeds, which the page needs to render. */
void outlinks_schedule(struct outlinks *o, const struct outlinks_env *env,
    const struct url_parts *page, struct fetch *f, int status, int local, struct buf *text,
    struct buf *annotations)
{
	const struct curi *c = o->c;
	struct outlinks_resolver *r = &o->r;
	int nofollow = o->x[0] != NULL && (extract_meta(o->x[0]) & EXTRACT_META_NOFOLLOW) &&
	    env->robots_policy == 0;
	const char *p = o->links.data, *end = o->links.data + o->links.len;
	uint64_t d;

	outlinks_resolver_init(r, c, page);
	outlinks_headers(o, env, r, f, status, local, text, annotations);
	/* The page's links go to the scheduler together, in order: it starts
	 * their already-seen lookups as they come (schedule_batch_add). */
	while (p != NULL && p < end) {
		char hop = *p++;
		unsigned rel = (unsigned char)*p++;
		const char *ref = p;
		size_t reflen = strlen(ref);
		const char *base = ref + reflen + 1;
		p = base + strlen(base) + 1;
		if (nofollow && hop == 'L') {
			env->stats->dropped[SCOPE_WHY_NOFOLLOW]++;
			continue;
		}
		if (outlinks_resolve(r, ref, reflen, *base ? base : NULL) < 0)
			continue;
		/* The one 'R' of a page's body is a meta refresh. */
		if (hop != 'R' ||
		    !outlinks_new_seed(o, env, r->href.data, r->href.len, local, annotations))
			schedule_batch_add_rel(env->schedule, r->href.data, r->href.len, hop, rel);
		buf_append(text, r->href.data, r->href.len);
		buf_appendc(text, ' ');
		buf_appendc(text, hop);
		buf_appendc(text, '\n');
	}
	/* A link only the store can judge is counted when the flush does
	 * (crawl_flush); one judged now, or a batch judged because the hold
	 * filled, is counted here. */
	if (o->feed != NULL) {
		/* A feed over its limits (50,000 links, 50 MB) gave its first
		 * links; one the Content-Type called a feed that is not one,
		 * or is not well-formed, gave those before the error. */
		enum feed_result fr = feed_finish(o->feed);
		const char *what = fr == FEED_LIMIT	? "feedLimit"
		    : fr != FEED_OK && o->feed_declared ? "feedError"
							: NULL;
		if (what != NULL) {
			if (annotations->len)
				buf_appendc(annotations, ',');
			buf_appends(annotations, what);
		}
	}
	d = frontier_discovered(env->frontier);
	schedule_batch_run(env->schedule, c->uri, c->hops);
	env->stats->links_scheduled += frontier_discovered(env->frontier) - d;
	if (o->sm != NULL) {
		d = frontier_discovered(env->frontier);
		sitemaps_doc_finish(o->sm, env->schedule, env->cfg, c, o->surt, env->continuous,
		    clock_wall_ms(), text, annotations);
		env->stats->links_scheduled += frontier_discovered(env->frontier) - d;
	}
}

void outlinks_end(struct outlinks *o)
{
	for (int i = 0; i < OUTLINKS_EXTRACTORS && o->x[i] != NULL; i++) {
		if (o->spare[o->xt[i]] == NULL)
			o->spare[o->xt[i]] = o->x[i];
		else
			extract_free(o->x[i]);
		o->x[i] = NULL;
	}
	sitemaps_doc_free(o->sm);
	o->sm = NULL;
	feed_free(o->feed);
	o->feed = NULL;
	o->feed_declared = 0;
	buf_reset_keep(&o->links, OUTLINKS_KEEP_ROOM);
	outlinks_resolver_end(&o->r, OUTLINKS_KEEP_ROOM);
	o->c = NULL;
	o->surt = NULL;
	o->max_outlinks = 0;
	o->dropped = 0;
	o->nlinks = 0;
}

void outlinks_free(struct outlinks *o)
{
	if (o == NULL)
		return;
	outlinks_end(o);
	extract_free(o->spare[EXTRACT_HTML]);
	extract_free(o->spare[EXTRACT_CSS]);
	outlinks_resolver_end(&o->r, 0);
	buf_free(&o->links);
	free(o);
}
