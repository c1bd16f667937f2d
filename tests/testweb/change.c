/* Changing pages and sitemaps. A page /v/PERIOD/KIND/N.html has version
 * floor((now - epoch) / PERIOD) (always 0 for PERIOD 0: it never changes);
 * its body names the version, its ETag and Last-Modified follow it, and
 * KIND says which of the two validators it sends. Conditional requests are
 * evaluated as RFC 9110 section 13.2.2 says for a GET: If-None-Match
 * first (weak comparison), If-Modified-Since only without it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <inttypes.h>
#include "lib/xmalloc.h"
#include "change.h"
#include "gzcache.h"

/* Pages per (period, kind) that the /v/ index and the sitemaps list. */
#define CHANGE_LISTED 2
#define CHANGE_MAX_PERIOD 86400
#define CHANGE_HUGE_DEFAULT 50001
#define CHANGE_HUGE_MAX 200000
/* The huge sitemap's pages are numbered from here, apart from the listed ones. */
#define CHANGE_HUGE_BASE 100000

enum change_kind { CHANGE_BOTH, CHANGE_ETAG, CHANGE_LASTMOD, CHANGE_NONE };

static const char *const change_kind_name[] = {"both", "etag", "lastmod", "none"};

struct change_page {
	uint32_t period;
	enum change_kind kind;
	uint32_t num;
};

int change_handles(const char *path)
{
	return strncmp(path, "/v/", 3) == 0 || strncmp(path, "/sm/", 4) == 0 ||
	    strcmp(path, "/sitemap.xml") == 0;
}

/* Reads a decimal number ending at one of the stop characters. */
static int change_number(const char **p, uint32_t max, uint32_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return -1;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (uint64_t)(*s++ - '0');
		if (v > max)
			return -1;
	}
	*p = s;
	*out = (uint32_t)v;
	return 0;
}

/* /v/PERIOD/KIND/N.html */
static int change_parse(const char *path, struct change_page *pg)
{
	const char *p = path + 3;
	size_t k;

	if (change_number(&p, CHANGE_MAX_PERIOD, &pg->period) < 0 || *p++ != '/')
		return -1;
	for (k = 0; k < 4; k++) {
		size_t n = strlen(change_kind_name[k]);

		if (strncmp(p, change_kind_name[k], n) == 0 && p[n] == '/') {
			pg->kind = (enum change_kind)k;
			p += n + 1;
			break;
		}
	}
	if (k == 4 || change_number(&p, 999999999, &pg->num) < 0)
		return -1;
	return strcmp(p, ".html") == 0 ? 0 : -1;
}

static int64_t change_version(const struct web_opts *o, const struct change_page *pg, int64_t now_s)
{
	if (pg->period == 0 || now_s < o->epoch_s)
		return 0;
	return (now_s - o->epoch_s) / pg->period;
}

/* When the current version appeared; a page that never changes dates
 * from a day before the server started. */
static int64_t change_modified(const struct web_opts *o, const struct change_page *pg, int64_t v)
{
	return pg->period == 0 ? o->epoch_s - 86400 : o->epoch_s + v * (int64_t)pg->period;
}

static void change_http_date(int64_t t, char out[40])
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(out, 40, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

static void change_w3c_date(int64_t t, char out[40])
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(out, 40, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* An IMF-fixdate as seconds; -1 if it is not one. */
static int64_t change_parse_http_date(const char *s)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%a, %d %b %Y %H:%M:%S GMT", &tm);
	if (end == NULL || *end != '\0')
		return -1;
	return (int64_t)timegm(&tm);
}

/* If-None-Match: "*" or a list of entity tags, compared weakly (W/ is
 * ignored on both sides, RFC 9110 section 8.8.3.2). */
static int change_etag_matches(const char *list, const char *etag)
{
	const char *p = list;

	while (*p) {
		const char *start, *end;

		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		start = p;
		if (*p == '"') {
			end = strchr(p + 1, '"');
			end = end != NULL ? end + 1 : p + strlen(p);
		} else {
			end = p + strcspn(p, ",");
		}
		if (etag != NULL && (size_t)(end - start) == strlen(etag) &&
		    strncmp(start, etag, (size_t)(end - start)) == 0)
			return 1;
		p = end;
	}
	return 0;
}

static void change_page_reply(const struct web *w, uint32_t host, const struct respond_req *q,
    const struct change_page *pg, struct response *r)
{
	const struct web_opts *o = web_options(w);
	int64_t v = change_version(o, pg, (int64_t)(q->now_ms / 1000.0));
	int has_etag = pg->kind == CHANGE_BOTH || pg->kind == CHANGE_ETAG;
	int has_lm = pg->kind == CHANGE_BOTH || pg->kind == CHANGE_LASTMOD;
	int64_t modified = change_modified(o, pg, v);
	struct buf extra = BUF_INIT;
	char etag[96], lm[40];
	int not_modified = 0;

	snprintf(etag, sizeof(etag), "\"h%" PRIu32 "-%" PRIu32 "-%" PRIu32 "-v%" PRId64 "\"", host,
	    pg->period, pg->num, v);
	change_http_date(modified, lm);
	if (has_etag)
		buf_appendf(&extra, "ETag: %s\r\n", etag);
	if (has_lm)
		buf_appendf(&extra, "Last-Modified: %s\r\n", lm);
	if (q->if_none_match != NULL) {
		not_modified = change_etag_matches(q->if_none_match, has_etag ? etag : NULL);
	} else if (q->if_modified_since != NULL && has_lm) {
		int64_t since = change_parse_http_date(q->if_modified_since);

		not_modified = since >= 0 && modified <= since;
	}
	if (not_modified) {
		respond_head(r, 304, NULL, UINT64_MAX, extra.data);
	} else {
		struct web_reply wr;

		web_reply_init(&wr);
		wr.status = 200;
		wr.content_type = "text/html; charset=utf-8";
		buf_appendf(&wr.body,
		    "<html><head><title>h%" PRIu32 " /v/%" PRIu32 "/%s/%" PRIu32
		    ".html</title></head><body>\n<p>This page changes every %" PRIu32
		    " s (never when 0). Version %" PRId64
		    ".</p>\n<p><a href=\"/v/\">all changing pages</a></p>\n"
		    "</body></html>\n",
		    host, pg->period, change_kind_name[pg->kind], pg->num, pg->period, v);
		if (q->accept_gzip) {
			gzcache_encode(&wr, &r->body);
			buf_appends(&extra, "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n");
		} else {
			buf_append(&r->body, wr.body.data, wr.body.len);
		}
		respond_head(r, 200, wr.content_type, r->body.len, extra.data);
		web_reply_free(&wr);
	}
	buf_free(&extra);
}

/* The index: every listed page, CHANGE_LISTED per period and kind. */
static void change_index_reply(const struct web *w, uint32_t host, struct response *r)
{
	const struct web_opts *o = web_options(w);

	buf_appendf(&r->body,
	    "<html><head><title>h%" PRIu32 " changing pages</title></head><body>\n", host);
	for (unsigned i = 0; i < o->nchange; i++)
		for (unsigned k = 0; k < 4; k++)
			for (unsigned n = 0; n < CHANGE_LISTED; n++)
				buf_appendf(&r->body,
				    "<p><a href=\"/v/%" PRIu32 "/%s/%u.html\">every %" PRIu32
				    " s, %s, %u</a></p>\n",
				    o->change_periods[i], change_kind_name[k], n,
				    o->change_periods[i], change_kind_name[k], n);
	buf_appends(&r->body, "</body></html>\n");
	respond_head(r, 200, "text/html; charset=utf-8", r->body.len, NULL);
}

static const char *change_freq(uint32_t period)
{
	if (period == 0)
		return "never";
	if (period < 3600)
		return "always";
	return period < 86400 ? "hourly" : "daily";
}

/* A urlset of the listed pages of the given kinds. */
static void change_urlset(const struct web *w, const struct respond_req *q, const char *base,
    unsigned kmask, struct buf *out)
{
	const struct web_opts *o = web_options(w);
	int64_t now_s = (int64_t)(q->now_ms / 1000.0);

	buf_appends(out,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	for (unsigned i = 0; i < o->nchange; i++)
		for (unsigned k = 0; k < 4; k++) {
			if (!(kmask & (1u << k)))
				continue;
			for (unsigned n = 0; n < CHANGE_LISTED; n++) {
				struct change_page pg = {
				    o->change_periods[i], (enum change_kind)k, n};
				char lm[40];

				change_w3c_date(
				    change_modified(o, &pg, change_version(o, &pg, now_s)), lm);
				buf_appendf(out,
				    "<url><loc>%s/v/%" PRIu32
				    "/%s/%u.html</loc><lastmod>%s</lastmod>"
				    "<changefreq>%s</changefreq><priority>%s</priority></url>\n",
				    base, pg.period, change_kind_name[k], n, lm,
				    change_freq(pg.period), pg.period == 0 ? "0.2" : "0.9");
			}
		}
	buf_appends(out, "</urlset>\n");
}

static void change_xml_reply(struct response *r, struct buf *xml)
{
	buf_append(&r->body, xml->data, xml->len);
	respond_head(r, 200, "application/xml", r->body.len, NULL);
}

void change_build(const struct web *w, uint32_t host, const struct respond_req *q, const char *path,
    const char *query, struct response *r)
{
	const struct web_opts *o = web_options(w);
	struct buf base = BUF_INIT, xml = BUF_INIT;
	struct change_page pg;
	char when[40];

	r->delay_ms += web_latency_ms(w, host);
	buf_appendf(
	    &base, "%s://h%" PRIu32 ".web.test:%u", q->tls ? "https" : "http", host, q->port);
	change_w3c_date(o->epoch_s, when);
	if (strcmp(path, "/v/") == 0) {
		change_index_reply(w, host, r);
	} else if (strncmp(path, "/v/", 3) == 0 && change_parse(path, &pg) == 0) {
		change_page_reply(w, host, q, &pg, r);
	} else if (strcmp(path, "/sm/index.xml") == 0) {
		buf_appends(&xml,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
		buf_appendf(&xml,
		    "<sitemap><loc>%s/sm/pages.xml</loc><lastmod>%s</lastmod></sitemap>\n"
		    "<sitemap><loc>%s/sm/pages.xml.gz</loc><lastmod>%s</lastmod></sitemap>\n"
		    "<sitemap><loc>%s/sm/bad.xml</loc></sitemap>\n</sitemapindex>\n",
		    base.data, when, base.data, when, base.data);
		change_xml_reply(r, &xml);
	} else if (strcmp(path, "/sm/pages.xml") == 0) {
		change_urlset(w, q, base.data, 1u << CHANGE_BOTH | 1u << CHANGE_NONE, &xml);
		change_xml_reply(r, &xml);
	} else if (strcmp(path, "/sm/pages.xml.gz") == 0) {
		/* A gzip file, not a gzip content coding: no Content-Encoding. */
		struct web_reply wr;

		web_reply_init(&wr);
		change_urlset(w, q, base.data, 1u << CHANGE_ETAG | 1u << CHANGE_LASTMOD, &wr.body);
		gzcache_encode(&wr, &r->body);
		respond_head(r, 200, "application/x-gzip", r->body.len, NULL);
		web_reply_free(&wr);
	} else if (strcmp(path, "/sm/bad.xml") == 0) {
		/* The second entry's end tag is wrong: only the first counts. */
		buf_appendf(&xml,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
		    "<url><loc>%s/v/0/none/100.html</loc></url>\n"
		    "<url><loc>%s/v/0/none/101.html</lo></url>\n"
		    "<url><loc>%s/v/0/none/102.html</loc></url>\n</urlset>\n",
		    base.data, base.data, base.data);
		change_xml_reply(r, &xml);
	} else if (strcmp(path, "/sm/huge.xml") == 0) {
		long n = respond_param(query, "n", CHANGE_HUGE_DEFAULT, 1, CHANGE_HUGE_MAX);

		buf_appends(&xml,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
		for (long i = 0; i < n; i++)
			buf_appendf(&xml, "<url><loc>%s/v/0/none/%ld.html</loc></url>\n", base.data,
			    CHANGE_HUGE_BASE + i);
		buf_appends(&xml, "</urlset>\n");
		change_xml_reply(r, &xml);
	} else if (strcmp(path, "/sitemap.xml") == 0 && o->sitemaps) {
		buf_appendf(&xml,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
		    "<url><loc>%s/v/</loc><changefreq>daily</changefreq><priority>0.5</priority></url>\n"
		    "</urlset>\n",
		    base.data);
		change_xml_reply(r, &xml);
	} else {
		buf_appends(&r->body, "<html><body><h1>404 not found</h1></body></html>\n");
		respond_head(r, 404, "text/html; charset=utf-8", r->body.len, NULL);
	}
	buf_free(&base);
	buf_free(&xml);
}
