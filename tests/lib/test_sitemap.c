/* The sitemap parser and W3C-DTF dates, table-driven: every document is
 * parsed whole, byte by byte, in odd-sized chunks and gzip'd (also in
 * chunks), and must give the same entries and result each time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "lib/buf.h"
#include "lib/isodate.h"
#include "lib/sitemap.h"

static void test_isodate_table(void **state)
{
	static const struct {
		const char *s;
		int ok;
		int64_t us;
	} t[] = {
	    {"1970-01-01T00:00:00Z", 0, 0},
	    {"1970", 0, 0},
	    {"2005", 0, 1104537600000000LL},
	    {"2005-02", 0, 1107216000000000LL},
	    {"2005-01-01", 0, 1104537600000000LL},
	    {"  2005-01-01\n", 0, 1104537600000000LL},
	    {"2004-12-23T18:00+01:00", 0, 1103821200000000LL},
	    {"2004-12-23T18:00:15+00:00", 0, 1103824815000000LL},
	    {"2004-12-23T18:00:15.5Z", 0, 1103824815500000LL},
	    {"2004-12-23T18:00:15.123456789Z", 0, 1103824815123456LL},
	    {"2004-12-23T18:00:15-05:30", 0, 1103844615000000LL},
	    {"2004-12-23T18:00:15", 0, 1103824815000000LL},	    /* no zone: UTC */
	    {"2016-12-31T23:59:60Z", 0, 1483228800000000LL},	    /* leap second */
	    {"2026-11-21T16:00:00.123456Z", 0, 1795276800123456LL}, /* a WARC-Date */
	    {"2000-02-29", 0, 951782400000000LL},
	    {"1900-02-29", -1, 0},
	    {"2001-02-29", -1, 0},
	    {"2005-13-01", -1, 0},
	    {"2005-00-01", -1, 0},
	    {"2005-01-32", -1, 0},
	    {"2005-1-01", -1, 0},
	    {"05-01-01", -1, 0},
	    {"0000-01-01", -1, 0},
	    {"2004-12-23T24:00Z", -1, 0},
	    {"2004-12-23T18:60Z", -1, 0},
	    {"2004-12-23T18:00:61Z", -1, 0},
	    {"2004-12-23T18Z", -1, 0},
	    {"2004-12-23T18:00:15.Z", -1, 0},
	    {"2004-12-23T18:00:15+0100", -1, 0},
	    {"2004-12-23T18:00:15+24:00", -1, 0},
	    {"2004-12-23 18:00:15Z", -1, 0},
	    {"2004-12-23T18:00:15Zjunk", -1, 0},
	    {"", -1, 0},
	    {"yesterday", -1, 0},
	    {"9999-12-31T23:59:59Z", 0, 253402300799000000LL},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int64_t us = -1;
		int rc = isodate_parse(t[i].s, strlen(t[i].s), &us);

		if (rc != t[i].ok || (rc == 0 && us != t[i].us))
			fail_msg("%s: rc %d us %lld, want %d %lld", t[i].s, rc, (long long)us,
			    t[i].ok, (long long)t[i].us);
	}
}

/* What a parse produced, as text: one line per entry, then the result. */
struct test_sitemap_out {
	struct buf text;
	int stop_after; /* the callback stops at this entry (0: never) */
	int n;
};

static int test_sitemap_cb(void *arg, enum sitemap_kind kind, const struct sitemap_entry *e)
{
	struct test_sitemap_out *o = arg;

	buf_appendf(&o->text, "%s %s", kind == SITEMAP_INDEX ? "sitemap" : "url", e->loc);
	if (e->has_lastmod)
		buf_appendf(&o->text, " lastmod=%lld", (long long)e->lastmod_ms);
	if (e->changefreq != SITEMAP_CF_NONE)
		buf_appendf(&o->text, " changefreq=%s", sitemap_changefreq_name(e->changefreq));
	if (e->priority >= 0)
		buf_appendf(&o->text, " priority=%.2f", e->priority);
	buf_appendc(&o->text, '\n');
	return ++o->n == o->stop_after;
}

static void test_sitemap_gzip(const char *in, size_t n, struct buf *out)
{
	z_stream z;
	unsigned char chunk[4096];
	int rc;

	memset(&z, 0, sizeof(z));
	assert_int_equal(
	    deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (unsigned)n;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = deflate(&z, Z_FINISH);
		buf_append(out, chunk, sizeof(chunk) - z.avail_out);
	} while (rc == Z_OK);
	assert_int_equal(rc, Z_STREAM_END);
	deflateEnd(&z);
}

/* Parses data in chunks of `chunk` bytes (0: whole) and returns the text. */
static char *test_sitemap_run(const char *data, size_t n, size_t chunk, uint64_t max_entries,
    uint64_t max_bytes, int stop_after)
{
	struct test_sitemap_out o = {BUF_INIT, stop_after, 0};
	struct sitemap *s = sitemap_new(test_sitemap_cb, &o);
	enum sitemap_result r = SITEMAP_OK;
	size_t at = 0;

	sitemap_set_limits(s, max_entries, max_bytes);
	if (chunk == 0)
		chunk = n > 0 ? n : 1;
	while (at < n && r == SITEMAP_OK) {
		size_t k = n - at < chunk ? n - at : chunk;

		r = sitemap_feed(s, data + at, k);
		at += k;
	}
	if (r == SITEMAP_OK)
		r = sitemap_finish(s);
	assert_int_equal(sitemap_finish(s), r); /* sticky */
	buf_appendf(&o.text, "= %d %s", (int)r,
	    r == SITEMAP_OK		 ? ""
		: r == SITEMAP_LIMIT	 ? "limit"
		: r == SITEMAP_STOPPED	 ? "stopped"
		: r == SITEMAP_MALFORMED ? "malformed"
					 : "not a sitemap");
	if (r != SITEMAP_OK)
		assert_true(sitemap_error(s)[0] != '\0');
	sitemap_free(s);
	return buf_steal(&o.text);
}

#define NS "http://www.sitemaps.org/schemas/sitemap/0.9"

static const struct {
	const char *why, *doc, *want;
	uint64_t max_entries, max_bytes;
	int stop_after;
} test_sitemap_cases[] = {
    {"urlset with every field",
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"" NS "\">\n"
	"<url><loc>http://example.com/</loc><lastmod>2005-01-01</lastmod>"
	"<changefreq>monthly</changefreq><priority>0.8</priority></url>\n"
	"<url><loc>\n  http://example.com/a?x=1&amp;y=2\n</loc></url>\n"
	"</urlset>\n",
	"url http://example.com/ lastmod=1104537600000 changefreq=monthly priority=0.80\n"
	"url http://example.com/a?x=1&y=2\n= 0 ",
	0, 0, 0},
    {"sitemap index",
	"<sitemapindex xmlns=\"" NS "\"><sitemap><loc>http://example.com/s1.xml.gz</loc>"
	"<lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap>"
	"<sitemap><loc>http://example.com/s2.xml</loc></sitemap></sitemapindex>",
	"sitemap http://example.com/s1.xml.gz lastmod=1096654997000\n"
	"sitemap http://example.com/s2.xml\n= 0 ",
	0, 0, 0},
    {"no namespace, Google's 0.84 namespace, prefixed names",
	"<urlset><url><loc>http://a/</loc></url></urlset>", "url http://a/\n= 0 ", 0, 0, 0},
    {"google 0.84",
	"<urlset xmlns=\"http://www.google.com/schemas/sitemap/0.84\"><url><loc>http://a/</loc></url></urlset>",
	"url http://a/\n= 0 ", 0, 0, 0},
    {"prefixed",
	"<sm:urlset xmlns:sm=\"" NS "\"><sm:url><sm:loc>http://a/</sm:loc></sm:url></sm:urlset>",
	"url http://a/\n= 0 ", 0, 0, 0},
    {"extensions are skipped with their content",
	"<urlset xmlns=\"" NS "\" xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\""
	" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">"
	"<url><image:image><image:loc>http://a/i.png</image:loc></image:image>"
	"<loc>http://a/</loc><xhtml:link rel=\"alternate\" href=\"http://a/fr\"/>"
	"<image:loc>http://a/j.png</image:loc></url></urlset>",
	"url http://a/\n= 0 ", 0, 0, 0},
    {"a foreign namespace's loc is not ours",
	"<urlset xmlns=\"" NS "\" xmlns:x=\"urn:x\"><url><x:loc>http://a/x</x:loc></url>"
	"<url><loc>http://a/</loc></url></urlset>",
	"url http://a/\n= 0 ", 0, 0, 0},
    {"entries of the wrong kind and out of place are skipped",
	"<urlset xmlns=\"" NS "\"><sitemap><loc>http://a/s.xml</loc></sitemap>"
	"<loc>http://a/top</loc><url><url><loc>http://a/deep</loc></url></url>"
	"<url><loc>http://a/</loc></url></urlset>",
	"url http://a/\n= 0 ", 0, 0, 0},
    {"CDATA, comments and processing instructions",
	"<urlset xmlns=\"" NS "\"><url><!-- c --><loc><![CDATA[http://a/?q=<b>]]></loc>"
	"<?pi x?></url></urlset>",
	"url http://a/?q=<b>\n= 0 ", 0, 0, 0},
    {"entries without loc are skipped; the first loc wins",
	"<urlset xmlns=\"" NS "\"><url><priority>0.1</priority></url><url><loc> </loc></url>"
	"<url><loc>http://a/1</loc><loc>http://a/2</loc></url></urlset>",
	"url http://a/1\n= 0 ", 0, 0, 0},
    {"bad field values are dropped, the entry stays",
	"<urlset xmlns=\"" NS "\"><url><loc>http://a/</loc><lastmod>last week</lastmod>"
	"<changefreq>fortnightly</changefreq><priority>1.5</priority></url>"
	"<url><loc>http://a/b</loc><priority>0x1</priority><changefreq> Daily </changefreq></url>"
	"<url><loc>http://a/c</loc><priority>nan</priority><changefreq>NEVER</changefreq></url>"
	"<url><loc>http://a/d</loc><priority>1e-1</priority><priority>.5</priority></url>"
	"</urlset>",
	"url http://a/\nurl http://a/b changefreq=daily\nurl http://a/c changefreq=never\n"
	"url http://a/d priority=0.50\n= 0 ",
	0, 0, 0},
    {"an HTML page is not a sitemap",
	"<!DOCTYPE html><html><body><a href=\"/x\">x</a></body></html>", "= -2 not a sitemap", 0, 0,
	0},
    {"an RSS feed is not a sitemap",
	"<rss version=\"2.0\"><channel><link>http://a/</link></channel></rss>",
	"= -2 not a sitemap", 0, 0, 0},
    {"malformed: the entries before the error count",
	"<urlset xmlns=\"" NS "\"><url><loc>http://a/1</loc></url><url><loc>http://a/2</lo></url>",
	"url http://a/1\n= -1 malformed", 0, 0, 0},
    {"cut short", "<urlset xmlns=\"" NS "\"><url><loc>http://a/1</loc></url><url><loc>http://a/2",
	"url http://a/1\n= -1 malformed", 0, 0, 0},
    {"empty body", "", "= -1 malformed", 0, 0, 0},
    {"a plain-text sitemap is not XML", "http://a/1\nhttp://a/2\n", "= -1 malformed", 0, 0, 0},
    {"entity declarations are refused",
	"<!DOCTYPE urlset [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]>"
	"<urlset><url><loc>http://a/&b;</loc></url></urlset>",
	"= -1 malformed", 0, 0, 0},
    {"an entity of an external DTD is neither fetched nor skipped silently",
	"<!DOCTYPE urlset SYSTEM \"http://evil/x.dtd\"><urlset><url><loc>http://a/&x;</loc></url></urlset>",
	"= -1 malformed", 0, 0, 0},
    {"a DOCTYPE without entities is fine",
	"<!DOCTYPE urlset><urlset><url><loc>http://a/</loc></url></urlset>", "url http://a/\n= 0 ",
	0, 0, 0},
    {"exactly at the entry limit",
	"<urlset><url><loc>http://a/1</loc></url><url><loc>http://a/2</loc></url></urlset>",
	"url http://a/1\nurl http://a/2\n= 0 ", 2, 0, 0},
    {"one entry over the limit",
	"<urlset><url><loc>http://a/1</loc></url><url><loc>http://a/2</loc></url>"
	"<url><loc>http://a/3</loc></url></urlset>",
	"url http://a/1\nurl http://a/2\n= 1 limit", 2, 0, 0},
    {"skipped entries do not count toward the limit",
	"<urlset><url/><url><loc>http://a/1</loc></url><url></url><url><loc>http://a/2</loc></url></urlset>",
	"url http://a/1\nurl http://a/2\n= 0 ", 2, 0, 0},
    {"over the byte limit",
	"<urlset><url><loc>http://a/1</loc></url><url><loc>http://a/2</loc></url></urlset>",
	"url http://a/1\n= 1 limit", 0, 50, 0},
    {"exactly at the byte limit", "<urlset><url><loc>http://a/1</loc></url></urlset>",
	"url http://a/1\n= 0 ", 0, 49, 0},
    {"the caller stops",
	"<urlset><url><loc>http://a/1</loc></url><url><loc>http://a/2</loc></url>"
	"<url><loc>http://a/3</loc></url></urlset>",
	"url http://a/1\nurl http://a/2\n= 2 stopped", 0, 0, 2},
    {"UTF-8 and a declared Latin-1 encoding",
	"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>http://a/\xe9</loc></url></urlset>",
	"url http://a/\xc3\xa9\n= 0 ", 0, 0, 0},
};

static void test_sitemap_table(void **state)
{
	static const size_t chunks[] = {0, 1, 2, 7, 64};
	size_t i, j;

	for (i = 0; i < sizeof(test_sitemap_cases) / sizeof(test_sitemap_cases[0]); i++) {
		const char *doc = test_sitemap_cases[i].doc;
		size_t n = strlen(doc);
		struct buf gz = BUF_INIT;

		test_sitemap_gzip(doc, n, &gz);
		for (j = 0; j < sizeof(chunks) / sizeof(chunks[0]); j++) {
			char *got =
			    test_sitemap_run(doc, n, chunks[j], test_sitemap_cases[i].max_entries,
				test_sitemap_cases[i].max_bytes, test_sitemap_cases[i].stop_after);

			if (strcmp(got, test_sitemap_cases[i].want) != 0)
				fail_msg("%s (chunks of %zu):\n%s\nwant\n%s",
				    test_sitemap_cases[i].why, chunks[j], got,
				    test_sitemap_cases[i].want);
			free(got);
			/* The same document gzip'd (the empty one is a valid
			 * gzip of nothing: still an empty document). */
			got = test_sitemap_run(gz.data, gz.len, chunks[j],
			    test_sitemap_cases[i].max_entries, test_sitemap_cases[i].max_bytes,
			    test_sitemap_cases[i].stop_after);
			if (strcmp(got, test_sitemap_cases[i].want) != 0)
				fail_msg("%s (gzip, chunks of %zu):\n%s\nwant\n%s",
				    test_sitemap_cases[i].why, chunks[j], got,
				    test_sitemap_cases[i].want);
			free(got);
		}
		buf_free(&gz);
	}
}

/* The protocol's own limits: 50,000 entries pass, the 50,001st stops the
 * parse; past 50 MB of XML the parse stops even inside a gzip stream that
 * would inflate to much more (a compression bomb costs 50 MB of parsing,
 * not memory). */
static void test_sitemap_protocol_limits(void **state)
{
	struct buf doc = BUF_INIT, gz = BUF_INIT;
	char *got, *last;
	unsigned i;

	buf_appends(&doc, "<urlset xmlns=\"" NS "\">\n");
	for (i = 1; i <= SITEMAP_MAX_ENTRIES; i++)
		buf_appendf(&doc, "<url><loc>http://example.com/p/%u.html</loc></url>\n", i);
	buf_appends(&doc, "</urlset>\n");
	got = test_sitemap_run(doc.data, doc.len, 65536, 0, 0, 0);
	last = strrchr(got, '\n');
	assert_string_equal(last, "\n= 0 ");
	assert_non_null(strstr(got, "url http://example.com/p/50000.html\n= 0"));
	free(got);
	doc.len -= strlen("</urlset>\n");
	buf_appends(&doc, "<url><loc>http://example.com/p/50001.html</loc></url>\n</urlset>\n");
	got = test_sitemap_run(doc.data, doc.len, 4096, 0, 0, 0);
	assert_non_null(strstr(got, "url http://example.com/p/50000.html\n= 1 limit"));
	assert_null(strstr(got, "50001"));
	free(got);

	/* 60 MB of white space inside the urlset, gzip'd to about 60 KB. */
	buf_reset(&doc);
	buf_appends(&doc, "<urlset><url><loc>http://a/1</loc></url>");
	buf_reserve(&doc, 60u << 20);
	memset(doc.data + doc.len, ' ', 60u << 20);
	doc.len += 60u << 20;
	doc.data[doc.len] = '\0';
	buf_appends(&doc, "<url><loc>http://a/2</loc></url></urlset>");
	test_sitemap_gzip(doc.data, doc.len, &gz);
	assert_true(gz.len < (1u << 20));
	got = test_sitemap_run(gz.data, gz.len, 8192, 0, 0, 0);
	assert_string_equal(got, "url http://a/1\n= 1 limit");
	free(got);
	buf_free(&doc);
	buf_free(&gz);
}

static int test_sitemap_count_cb(void *arg, enum sitemap_kind kind, const struct sitemap_entry *e)
{
	(void)kind;
	(void)e;
	++*(int *)arg;
	return 0;
}

/* gzip: concatenated members are one document; a stream cut short or
 * corrupt is malformed; a body split right after the first magic byte is
 * still recognised; the counters tell what happened. */
static void test_sitemap_gzip_cases(void **state)
{
	const char *a = "<urlset><url><loc>http://a/1</loc></url>";
	const char *b = "<url><loc>http://a/2</loc></url></urlset>";
	struct buf gz = BUF_INIT;
	struct sitemap *s;
	size_t half;
	char *got;
	int n = 0;

	test_sitemap_gzip(a, strlen(a), &gz);
	half = gz.len;
	test_sitemap_gzip(b, strlen(b), &gz);
	got = test_sitemap_run(gz.data, gz.len, 3, 0, 0, 0);
	assert_string_equal(got, "url http://a/1\nurl http://a/2\n= 0 ");
	free(got);
	/* Cut inside the first member's trailer: its XML was read. */
	got = test_sitemap_run(gz.data, half - 4, 0, 0, 0, 0);
	assert_string_equal(got, "url http://a/1\n= -1 malformed");
	free(got);
	gz.data[half + 12] ^= 0x55;
	got = test_sitemap_run(gz.data, gz.len, 0, 0, 0, 0);
	assert_true(strstr(got, "= -1 malformed") != NULL);
	free(got);
	gz.data[half + 12] ^= 0x55;

	s = sitemap_new(test_sitemap_count_cb, &n);
	assert_int_equal(sitemap_feed(s, gz.data, 1), SITEMAP_OK);
	assert_int_equal(sitemap_feed(s, gz.data + 1, gz.len - 1), SITEMAP_OK);
	assert_int_equal(sitemap_finish(s), SITEMAP_OK);
	assert_int_equal(n, 2);
	assert_int_equal(sitemap_entries(s), 2);
	assert_int_equal(sitemap_skipped(s), 0);
	assert_int_equal(sitemap_bytes(s), strlen(a) + strlen(b));
	assert_true(sitemap_gzipped(s));
	assert_int_equal(sitemap_kind(s), SITEMAP_URLSET);
	sitemap_free(s);

	/* One byte that is the first gzip magic byte, then the end. */
	got = test_sitemap_run("\x1f", 1, 0, 0, 0, 0);
	assert_string_equal(got, "= -1 malformed");
	free(got);
	buf_free(&gz);
}

/* An over-long <loc> drops its entry; an over-long <lastmod> is ignored. */
static void test_sitemap_field_cap(void **state)
{
	struct buf doc = BUF_INIT;
	char *got;

	buf_appends(&doc, "<urlset><url><loc>http://a/");
	buf_reserve(&doc, SITEMAP_FIELD_MAX);
	memset(doc.data + doc.len, 'x', SITEMAP_FIELD_MAX);
	doc.len += SITEMAP_FIELD_MAX;
	doc.data[doc.len] = '\0';
	buf_appends(&doc, "</loc></url><url><loc>http://a/ok</loc><lastmod>2005-01-01");
	buf_reserve(&doc, SITEMAP_FIELD_MAX);
	memset(doc.data + doc.len, ' ', SITEMAP_FIELD_MAX);
	doc.len += SITEMAP_FIELD_MAX;
	doc.data[doc.len] = '\0';
	buf_appends(&doc, "</lastmod></url></urlset>");
	got = test_sitemap_run(doc.data, doc.len, 1000, 0, 0, 0);
	assert_string_equal(got, "url http://a/ok\n= 0 ");
	free(got);
	buf_free(&doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_isodate_table),
	    cmocka_unit_test(test_sitemap_table),
	    cmocka_unit_test(test_sitemap_protocol_limits),
	    cmocka_unit_test(test_sitemap_gzip_cases),
	    cmocka_unit_test(test_sitemap_field_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
