/* Tests of the feed parser (src/crawl/feed.c), table-driven: RSS 2.0,
 * RSS 1.0 and Atom documents, what each yields ("HOP URL" lines, in
 * document order) and its result, read whole and in reads of 1 and 7
 * bytes, which must give the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crawl/feed.h"
#include "lib/buf.h"

#define BASE "http://h.test/blog/feed.xml"

static void collect(void *arg, const struct feed_link *l)
{
	struct buf *b = arg;

	assert_int_equal(strlen(l->url), l->len);
	assert_non_null(l->context);
	buf_appendc(b, l->hop);
	buf_appendc(b, ' ');
	buf_append(b, l->url, l->len);
	buf_appendc(b, '\n');
}

static enum feed_result run(const char *doc, size_t step, struct buf *out, enum feed_kind *kind,
    uint64_t max_links, uint64_t max_bytes)
{
	struct feed *f = feed_new(BASE, collect, out);
	size_t n = strlen(doc);
	enum feed_result r = FEED_OK;

	feed_set_limits(f, max_links, max_bytes);
	for (size_t off = 0; off < n && r == FEED_OK; off += step)
		r = feed_data(f, doc + off, n - off < step ? n - off : step);
	if (r == FEED_OK)
		r = feed_finish(f);
	*kind = feed_kind(f);
	if (r != FEED_OK)
		assert_true(feed_error(f)[0] != '\0');
	feed_free(f);
	return r;
}

static const struct {
	const char *name;
	const char *doc;
	enum feed_result result;
	enum feed_kind kind;
	const char *links;
	uint64_t max_links, max_bytes;
} cases[] = {
    {"rss 2.0",
	"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>"
	"<link>http://h.test/blog/</link>"
	"<image><url>logo.png</url><link>http://h.test/blog/</link></image>"
	"<item><title>a</title><link> posts/a.html </link><comments>posts/a.html#c</comments>"
	"<enclosure url=\"/media/a.mp3\" length=\"1\" type=\"audio/mpeg\"/>"
	"<guid>http://h.test/p?id=1</guid></item>"
	"<item><link>\n  https://other.test/b  \n</link>"
	"<guid isPermaLink=\"false\">http://h.test/not-a-link</guid></item>"
	"<item><guid>tag:h.test,2024:3</guid><source url=\"http://src.test/\">s</source></item>"
	"</channel></rss>",
	FEED_OK, FEED_RSS,
	"L http://h.test/blog/\n"
	"E http://h.test/blog/logo.png\n"
	"L http://h.test/blog/posts/a.html\n"
	"L http://h.test/blog/posts/a.html#c\n"
	"L http://h.test/media/a.mp3\n"
	"L http://h.test/p?id=1\n"
	"L https://other.test/b\n",
	0, 0},
    {"rss 1.0",
	"<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
	"xmlns=\"http://purl.org/rss/1.0/\">"
	"<channel rdf:about=\"http://h.test/\"><title>t</title><link>http://h.test/</link>"
	"<items><rdf:Seq><rdf:li rdf:resource=\"http://h.test/1\"/></rdf:Seq></items></channel>"
	"<image rdf:about=\"http://h.test/i.png\"><url>http://h.test/i.png</url></image>"
	"<item rdf:about=\"http://h.test/1\"><title>1</title><link>http://h.test/1</link></item>"
	"</rdf:RDF>",
	FEED_OK, FEED_RDF, "L http://h.test/\nE http://h.test/i.png\nL http://h.test/1\n", 0, 0},
    {"atom with xml:base",
	"<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"http://h.test/a/\">"
	"<title>t</title><link rel=\"self\" href=\"feed.atom\"/><link rel=\"hub\" href=\"/hub\"/>"
	"<link href=\"./\"/><icon>i.png</icon><logo>/l.png</logo>"
	"<entry xml:base=\"2024/\"><link rel=\"alternate\" href=\"post.html\"/>"
	"<link rel=\"enclosure\" href=\"/m.ogg\"/><link rel=\"edit\" href=\"e\"/>"
	"<link rel=\"related\" href=\"https://x.test/\"/><link rel=\"replies\" href=\"c.atom\"/>"
	"<content type=\"video/mp4\" src=\"v.mp4\"/></entry>"
	"<entry><link href=\"b.html\" xml:base=\"../z/\"/><content type=\"html\">&lt;a "
	"href=\"/escaped\"&gt;</content></entry></feed>",
	FEED_OK, FEED_ATOM,
	"L http://h.test/a/\n"
	"E http://h.test/a/i.png\n"
	"E http://h.test/l.png\n"
	"L http://h.test/a/2024/post.html\n"
	"L http://h.test/m.ogg\n"
	"L https://x.test/\n"
	"L http://h.test/a/2024/c.atom\n"
	"L http://h.test/a/2024/v.mp4\n"
	"L http://h.test/z/b.html\n",
	0, 0},
    {"relative xml:base against the feed's URL",
	"<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"../\"><entry><link href=\"x\"/>"
	"</entry></feed>",
	FEED_OK, FEED_ATOM, "L http://h.test/x\n", 0, 0},
    {"a base that does not resolve changes nothing",
	"<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"mailto:a@b\"><link href=\"x\"/>"
	"</feed>",
	FEED_OK, FEED_ATOM, "L http://h.test/blog/x\n", 0, 0},
    {"media rss",
	"<rss xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><item>"
	"<media:content url=\"/v.mp4\"><media:thumbnail url=\"/t.jpg\"/></media:content>"
	"</item></channel></rss>",
	FEED_OK, FEED_RSS, "L http://h.test/v.mp4\nE http://h.test/t.jpg\n", 0, 0},
    {"atom link inside rss", /* the common atom:link rel=self and a next page */
	"<rss xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel>"
	"<atom:link rel=\"self\" href=\"/feed\"/><atom:link rel=\"next\" href=\"/feed?page=2\"/>"
	"</channel></rss>",
	FEED_OK, FEED_RSS, "L http://h.test/feed?page=2\n", 0, 0},
    {"links only where they mean an item or the channel",
	"<rss><link>/not</link><channel><title><link>/no</link></title>"
	"<textInput><link>/search</link></textInput><item><link>/yes<b>x</b></link>"
	"<link>javascript:alert(1)</link><link></link></item></channel></rss>",
	FEED_OK, FEED_RSS, "", 0, 0},
    {"not a feed", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>", FEED_NOT_FEED,
	FEED_UNKNOWN, "", 0, 0},
    {"html is not a feed", "<html><body><a href=\"/x\">x</a></body></html>", FEED_NOT_FEED,
	FEED_UNKNOWN, "", 0, 0},
    {"atom's name in no namespace is not atom", "<feed><link href=\"/x\"/></feed>", FEED_NOT_FEED,
	FEED_UNKNOWN, "", 0, 0},
    {"malformed after a link",
	"<rss><channel><item><link>/a</link></item><item><link>/b</lnk></item></channel></rss>",
	FEED_MALFORMED, FEED_RSS, "L http://h.test/a\n", 0, 0},
    {"cut short", "<rss><channel><item><link>/a</link></item>", FEED_MALFORMED, FEED_RSS,
	"L http://h.test/a\n", 0, 0},
    {"entity declarations refused",
	"<!DOCTYPE rss [<!ENTITY x \"/evil\">]><rss><channel><link>&x;</link></channel></rss>",
	FEED_MALFORMED, FEED_UNKNOWN, "", 0, 0},
    {"link limit",
	"<rss><channel><item><link>/1</link></item><item><link>/2</link></item>"
	"<item><link>/3</link></item></channel></rss>",
	FEED_LIMIT, FEED_RSS, "L http://h.test/1\nL http://h.test/2\n", 2, 0},
    {"byte limit",
	"<rss><channel><item><link>/1</link></item><item><link>/2</link></item>"
	"<item><link>/3</link></item></channel></rss>",
	FEED_LIMIT, FEED_RSS, "L http://h.test/1\n", 0, 40},
};

static void test_feeds(void **state)
{
	static const size_t steps[] = {1, 7, 1 << 20};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
			struct buf out = BUF_INIT;
			enum feed_kind kind;
			enum feed_result r = run(cases[i].doc, steps[s], &out, &kind,
			    cases[i].max_links, cases[i].max_bytes);

			if (r != cases[i].result || kind != cases[i].kind ||
			    strcmp(out.data ? out.data : "", cases[i].links) != 0)
				fail_msg("%s (reads of %zu): result %d kind %d links:\n%s",
				    cases[i].name, steps[s], r, kind, out.data ? out.data : "");
			buf_free(&out);
		}
}

/* A field past the cap is dropped, the next one still read. */
static void test_field_cap(void **state)
{
	struct buf doc = BUF_INIT, out = BUF_INIT;
	enum feed_kind kind;

	buf_appends(&doc, "<rss><channel><item><link>/");
	for (size_t i = 0; i < FEED_FIELD_MAX; i++)
		buf_appendc(&doc, 'a');
	buf_appends(&doc, "</link><link>/b</link></item></channel></rss>");
	assert_int_equal(run(doc.data, 4096, &out, &kind, 0, 0), FEED_OK);
	assert_string_equal(out.data, "L http://h.test/b\n");
	buf_free(&doc);
	buf_free(&out);
}

/* xml:base nested deeper than the parser keeps still resolves, against
 * the deepest base kept. */
static void test_deep_bases(void **state)
{
	struct buf doc = BUF_INIT, out = BUF_INIT;
	enum feed_kind kind;

	buf_appends(&doc, "<feed xmlns=\"http://www.w3.org/2005/Atom\">");
	for (int i = 0; i < 40; i++)
		buf_appends(&doc, "<x xml:base=\"d/\">");
	buf_appends(&doc, "<link href=\"e\"/>");
	for (int i = 0; i < 40; i++)
		buf_appends(&doc, "</x>");
	buf_appends(&doc, "<link href=\"f\"/></feed>");
	assert_int_equal(run(doc.data, 13, &out, &kind, 0, 0), FEED_OK);
	assert_non_null(strstr(out.data, "/e\n"));
	assert_non_null(strstr(out.data, "L http://h.test/blog/f\n"));
	buf_free(&doc);
	buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_feeds),
	    cmocka_unit_test(test_field_cap),
	    cmocka_unit_test(test_deep_bases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
