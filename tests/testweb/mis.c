/* The misbehaviours: each one is a small, deterministic deviation from a
 * well-behaved server that a careful crawler must survive. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "lib/xmalloc.h"
#include "mis.h"

/* A small deterministic page whose links stay inside the test web. */
static void mis_page(const char *title, struct buf *b)
{
	buf_appendf(b, "<!DOCTYPE html>\n<html><head><title>%s</title></head><body>\n<h1>%s</h1>\n",
	    title, title);
	for (int i = 0; i < 20; i++)
		buf_appendf(b,
		    "<p>Paragraph %d of a deterministic page about terns and their long flights.</p>\n",
		    i);
	buf_appends(b,
	    "<a href=\"/\">root</a> <a href=\"/p/1.html\">one</a> "
	    "<a href=\"p/2.html\">two</a> <a href=\"/_mis/chunked\">chunked</a> "
	    "<a href=\"/_mis/gzip#top\">gzip</a>\n</body></html>\n");
}

static void mis_html(struct response *r, int status, const char *title, const char *extra)
{
	mis_page(title, &r->body);
	respond_head(r, status, "text/html; charset=utf-8", r->body.len, extra);
}

static void mis_chunked(struct response *r)
{
	struct buf page = BUF_INIT;
	size_t off = 0, step = 100;

	mis_page("chunked", &page);
	while (off < page.len) {
		size_t n = page.len - off < step ? page.len - off : step;

		buf_appendf(&r->body, "%zx\r\n", n);
		buf_append(&r->body, page.data + off, n);
		buf_appends(&r->body, "\r\n");
		off += n;
		step = step * 3 / 2;
	}
	buf_appends(&r->body, "0\r\n\r\n");
	respond_head(
	    r, 200, "text/html; charset=utf-8", UINT64_MAX, "Transfer-Encoding: chunked\r\n");
	buf_free(&page);
}

static void mis_calendar(struct response *r, const char *rest)
{
	int y, m, n = 0;
	char title[64];

	if (sscanf(rest, "%4d/%2d/%n", &y, &m, &n) != 2 || n == 0 || rest[n] || m < 1 || m > 12 ||
	    y < 1) {
		mis_html(r, 404, "no such month", NULL);
		return;
	}
	snprintf(title, sizeof(title), "calendar %04d-%02d", y, m);
	buf_appendf(&r->body,
	    "<!DOCTYPE html>\n<html><head><title>%s</title></head><body>\n<h1>%s</h1>\n"
	    "<a href=\"../../%04d/%02d/\">previous month</a>\n<a href=\"../../%04d/%02d/\">next month</a>\n"
	    "</body></html>\n",
	    title, title, m == 1 ? y - 1 : y, m == 1 ? 12 : m - 1, m == 12 ? y + 1 : y,
	    m == 12 ? 1 : m + 1);
	if (y == 1 && m == 1)
		buf_appends(&r->body, "<!-- the beginning of time -->\n");
	respond_head(r, 200, "text/html; charset=utf-8", r->body.len, NULL);
}

/* A blog of MIS_BLOG_POSTS posts, each with the machinery of a CMS that
 * reject rules keep a crawl out of: reply-form variants (rel=nofollow, as
 * WordPress writes them), a feed, a REST URL, a shortlink, a calendar
 * month, a print view, a logout link, an off-site link and a stylesheet. */
#define MIS_BLOG_POSTS 12
static void mis_blog(struct response *r, const char *rest)
{
	char *end;
	long n = strtol(rest, &end, 10);

	if (end == rest || n < 1 || n > MIS_BLOG_POSTS ||
	    (strcmp(end, "/") != 0 && strcmp(end, "/feed/") != 0 && strcmp(end, "/print/") != 0)) {
		mis_html(r, 404, "no such post", NULL);
		return;
	}
	buf_appendf(&r->body,
	    "<!DOCTYPE html>\n<html><head><title>post %ld</title>\n"
	    "<link rel=\"stylesheet\" href=\"/_mis/plain.css\">\n"
	    "<link rel=\"alternate\" href=\"/_mis/blog/%ld/feed/\">\n"
	    "</head><body>\n<h1>post %ld</h1>\n",
	    n, n, n);
	for (int k = 1; k <= 3; k++)
		buf_appendf(&r->body,
		    "<a rel=\"nofollow\" class=\"comment-reply-link\" "
		    "href=\"/_mis/blog/%ld/?replytocom=%ld#respond\">reply</a>\n",
		    n, n * 10 + k);
	buf_appendf(&r->body,
	    "<a href=\"/_mis/blog/wp-json/oembed/?url=%ld\">oembed</a>\n"
	    "<a href=\"/_mis/blog/?p=%ld\">shortlink</a>\n"
	    "<a href=\"/_mis/calendar/2024/%02ld/\">archive</a>\n"
	    "<a href=\"/_mis/blog/%ld/print/\">print</a>\n"
	    "<a href=\"/_mis/blog/logout/?n=%ld\">log out</a>\n"
	    "<a href=\"http://elsewhere.invalid/post/%ld\">elsewhere</a>\n",
	    n, n, (n - 1) % 12 + 1, n, n, n);
	if (n < MIS_BLOG_POSTS)
		buf_appendf(&r->body, "<a href=\"/_mis/blog/%ld/\">next post</a>\n", n + 1);
	buf_appends(&r->body, "</body></html>\n");
	respond_head(r, 200, "text/html; charset=utf-8", r->body.len, NULL);
}

static void mis_bigheaders(struct response *r, long kb)
{
	struct buf extra = BUF_INIT;
	int i = 0;

	while (extra.len < (size_t)kb * 1024)
		buf_appendf(&extra, "X-Filler-%d: %s\r\n", i++,
		    "terns-terns-terns-terns-terns-terns-terns-terns-terns-terns-terns-terns-terns-terns-terns");
	buf_appends(&r->body, "<html><body>big headers</body></html>\n");
	respond_head(r, 200, "text/html; charset=utf-8", r->body.len, extra.data);
	buf_free(&extra);
}

/* The feeds: each lists item pages of the test web, in the ways feeds
 * name links (see README.md). */
static const char mis_feed_atom[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"/p/\">\n"
    "<title>terns</title><id>tag:web.test,2024:feed</id>\n"
    "<link rel=\"self\" href=\"/_mis/feed.atom\"/>\n"
    "<link rel=\"alternate\" type=\"text/html\" href=\"/\"/>\n"
    "<link rel=\"hub\" href=\"/_mis/hub\"/>\n"
    "<icon>/i/5.png</icon>\n"
    "<entry><title>eleven</title><id>tag:web.test,2024:11</id>\n"
    "<link href=\"11.html\"/>\n"
    "<link rel=\"enclosure\" type=\"image/png\" href=\"/i/6.png\"/></entry>\n"
    "<entry xml:base=\"../\"><title>twelve</title><id>tag:web.test,2024:12</id>\n"
    "<link rel=\"alternate\" href=\"p/12.html\"/>"
    "<link rel=\"related\" href=\"p/13.html\"/></entry>\n"
    "</feed>\n";
static const char mis_feed_rss[] =
    "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>terns</title>\n"
    "<link>/</link><description>terns</description>\n"
    "<image><url>/i/7.png</url><title>terns</title><link>/</link></image>\n"
    "<item><title>fourteen</title><link>/p/14.html</link><comments>/p/15.html</comments>\n"
    "<enclosure url=\"/i/8.png\" length=\"68\" type=\"image/png\"/>"
    "<guid isPermaLink=\"false\">terns-14</guid></item>\n"
    "<item><title>sixteen</title><link>\n  /p/16.html\n</link></item>\n"
    "</channel></rss>\n";
/* RSS 1.0, served as text/xml: only its root says it is a feed. */
static const char mis_feed_rdf[] =
    "<?xml version=\"1.0\"?>\n"
    "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
    "xmlns=\"http://purl.org/rss/1.0/\">\n"
    "<channel rdf:about=\"/_mis/feed.rdf\"><title>terns</title><link>/</link></channel>\n"
    "<item rdf:about=\"/p/17.html\"><title>seventeen</title><link>/p/17.html</link></item>\n"
    "</rdf:RDF>\n";
/* A feed cut by a mismatched tag after its first item. */
static const char mis_feed_bad[] = "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel>\n"
				   "<item><link>/p/18.html</link></item>\n"
				   "<item><link>/p/19.html</lnk></item>\n"
				   "</channel></rss>\n";
static const char mis_feeds_html[] =
    "<!DOCTYPE html>\n<html><head><title>feeds</title>\n"
    "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"/_mis/feed.atom\">\n"
    "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/_mis/feed.rss\">\n"
    "<link rel=\"alternate\" type=\"application/rdf+xml\" href=\"/_mis/feed.rdf\">\n"
    "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/_mis/feed-bad.rss\">\n"
    "</head><body><h1>feeds</h1></body></html>\n";

/* A page always sent with a content coding, whatever the request asked. */
static void mis_encoded(struct response *r, const char *name)
{
	struct buf page = BUF_INIT, mid = BUF_INIT;
	char extra[64];

	mis_page(name, &page);
	if (strcmp(name, "zstd") == 0) {
		body_zstd(page.data, page.len, &r->body);
	} else if (strcmp(name, "gzip-br") == 0) {
		/* "gzip, br": gzip first, then br over it. */
		body_gzip(page.data, page.len, &mid);
		body_br(mid.data, mid.len, &r->body);
	} else {
		body_br(page.data, page.len, &r->body);
		/* A stream broken a third of the way in: the decoder must
		 * fail, never hand over garbage as the page. */
		if (strcmp(name, "br-corrupt") == 0)
			memset(r->body.data + r->body.len / 3, 0xff, r->body.len / 3);
	}
	snprintf(extra, sizeof(extra), "Content-Encoding: %s\r\n",
	    strcmp(name, "zstd") == 0	       ? "zstd"
		: strcmp(name, "gzip-br") == 0 ? "gzip, br"
					       : "br");
	respond_head(r, 200, "text/html; charset=utf-8", r->body.len, extra);
	buf_free(&page);
	buf_free(&mid);
}

static void mis_static(struct response *r, const char *type, const char *body)
{
	buf_appends(&r->body, body);
	respond_head(r, 200, type, r->body.len, NULL);
}

void mis_build(const struct respond_req *q, const char *path, const char *query, struct response *r)
{
	const char *name = path + 6;
	char loc[128];
	long n;

	if (strcmp(name, "drip") == 0) {
		n = respond_param(query, "bytes", 100, 0, 1L << 30);
		r->drip_ms = (uint32_t)respond_param(query, "ms", 100, 1, 3600000);
		r->stream = body_new_filler((uint64_t)n);
		respond_head(r, 200, "text/plain", (uint64_t)n, NULL);
	} else if (strcmp(name, "hang") == 0) {
		r->action = RESPOND_SILENT;
	} else if (strcmp(name, "hang-body") == 0) {
		r->after = RESPOND_HOLD;
		respond_head(r, 200, "text/html; charset=utf-8", 1000, NULL);
	} else if (strcmp(name, "endless") == 0) {
		r->stream = body_new_endless();
		respond_head(r, 200, "text/html; charset=utf-8", UINT64_MAX,
		    "Transfer-Encoding: chunked\r\n");
	} else if (strcmp(name, "short") == 0) {
		r->after = RESPOND_CLOSE;
		buf_appends(&r->body, "<html>shor");
		respond_head(r, 200, "text/html; charset=utf-8", 1000, NULL);
	} else if (strcmp(name, "bigheaders") == 0) {
		mis_bigheaders(r, respond_param(query, "kb", 100, 1, 100000));
	} else if (strcmp(name, "garbage") == 0) {
		r->after = RESPOND_CLOSE;
		buf_appends(&r->head, "HTTP/1.1 garbage status line\r\n\x01\xfe\xff junk\r\n\r\n");
	} else if (strcmp(name, "reset") == 0) {
		r->action = RESPOND_RESET;
	} else if (strcmp(name, "bomb") == 0) {
		r->stream = body_new_bomb((uint32_t)respond_param(query, "mb", 1024, 1, 4095));
		respond_head(r, 200, "text/html; charset=utf-8", body_length(r->stream),
		    "Content-Encoding: gzip\r\n");
	} else if (strcmp(name, "br") == 0 || strcmp(name, "zstd") == 0 ||
	    strcmp(name, "gzip-br") == 0 || strcmp(name, "br-corrupt") == 0) {
		mis_encoded(r, name);
	} else if (strcmp(name, "br-bomb") == 0 || strcmp(name, "zstd-bomb") == 0) {
		n = respond_param(query, "mb", 64, 1, 1024);
		if (name[0] == 'b')
			body_br_zeros((uint32_t)n, &r->body);
		else
			body_zstd_zeros((uint32_t)n, &r->body);
		respond_head(r, 200, "text/html; charset=utf-8", r->body.len,
		    name[0] == 'b' ? "Content-Encoding: br\r\n" : "Content-Encoding: zstd\r\n");
	} else if (strcmp(name, "feed.atom") == 0) {
		mis_static(r, "application/atom+xml", mis_feed_atom);
	} else if (strcmp(name, "feed.rss") == 0) {
		mis_static(r, "application/rss+xml; charset=utf-8", mis_feed_rss);
	} else if (strcmp(name, "feed.rdf") == 0) {
		mis_static(r, "text/xml", mis_feed_rdf);
	} else if (strcmp(name, "feed-bad.rss") == 0) {
		mis_static(r, "application/rss+xml", mis_feed_bad);
	} else if (strcmp(name, "feeds.html") == 0) {
		mis_static(r, "text/html; charset=utf-8", mis_feeds_html);
	} else if (strcmp(name, "redirect-loop") == 0) {
		mis_html(r, 302, "loop", "Location: /_mis/redirect-loop\r\n");
	} else if (strcmp(name, "redirect-chain") == 0) {
		n = respond_param(query, "n", 5, 0, 1000000);
		if (n == 0) {
			mis_html(r, 200, "end of chain", NULL);
		} else {
			snprintf(
			    loc, sizeof(loc), "Location: /_mis/redirect-chain?n=%ld\r\n", n - 1);
			mis_html(r, 302, "chain", loc);
		}
	} else if (strncmp(name, "blog/", 5) == 0 && isdigit((unsigned char)name[5])) {
		mis_blog(r, name + 5);
	} else if (strncmp(name, "calendar/", 9) == 0) {
		mis_calendar(r, name + 9);
	} else if (strcmp(name, "204") == 0 || strcmp(name, "304") == 0) {
		/* The Content-Length is a lie the client must ignore: these
		 * statuses never have a body. */
		respond_head(r, atoi(name), NULL, 5, NULL);
	} else if (strcmp(name, "100") == 0) {
		mis_html(r, 200, "after continue", NULL);
	} else if (strcmp(name, "chunked") == 0) {
		mis_chunked(r);
	} else if (strcmp(name, "gzip") == 0) {
		struct buf page = BUF_INIT;

		mis_page("gzip", &page);
		body_gzip(page.data, page.len, &r->body);
		respond_head(
		    r, 200, "text/html; charset=utf-8", r->body.len, "Content-Encoding: gzip\r\n");
		buf_free(&page);
	} else if (strcmp(name, "status") == 0) {
		n = respond_param(query, "code", 200, 0, 999);
		if (n < 200 || n > 599)
			mis_html(r, 400, "code must be 200..599", NULL);
		else if (n == 204 || n == 304)
			respond_head(r, (int)n, NULL, UINT64_MAX, NULL);
		else
			mis_html(r, (int)n, "status", NULL);
	} else if (strcmp(name, "retry-after") == 0) {
		snprintf(loc, sizeof(loc), "Retry-After: %ld\r\n",
		    respond_param(query, "s", 2, 0, 1000000));
		mis_html(r, 503, "retry later", loc);
	} else if (strcmp(name, "slow-head") == 0) {
		r->delay_ms += (uint32_t)respond_param(query, "ms", 1000, 0, 3600000);
		mis_html(r, 200, "slow head", NULL);
	} else if (strcmp(name, "mixed.css") == 0) {
		/* A stylesheet URL a misconfigured server answers with HTML: the
		 * HTML extractor finds the link, only a CSS extractor the url(). */
		buf_appends(&r->body,
		    "<!DOCTYPE html>\n<html><body>\n<a href=\"/p/1.html\">one</a>\n"
		    "body { background: url(/i/1.png) }\n</body></html>\n");
		respond_head(r, 200, "text/html; charset=utf-8", r->body.len, NULL);
	} else if (strcmp(name, "plain.css") == 0) {
		buf_appends(&r->body, "@import url(/s.css);\nbody { background: url(/i/2.png) }\n");
		respond_head(r, 200, "text/plain", r->body.len, NULL);
	} else if (strcmp(name, "big") == 0) {
		n = respond_param(query, "kb", 1024, 0, 1L << 30);
		r->stream = body_new_filler((uint64_t)n * 1024);
		respond_head(r, 200, "text/plain", (uint64_t)n * 1024, NULL);
	} else {
		mis_html(r, 404, "no such misbehaviour", NULL);
	}
	(void)q;
}
