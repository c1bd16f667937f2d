/* Table tests of the link extractor, the tokenizer under it and character
 * reference decoding. Every extraction case is run three ways (one chunk,
 * byte by byte, chunks of 7) and must give the same links each time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include "crawl/extract.h"
#include "crawl/htmltok.h"
#include "crawl/entity.h"
#include "lib/buf.h"

/* Links are rendered "HOP CONTEXT BASE|REF FLAGS;" with "-" for no base. */
static void test_extract_link_cb(void *arg, const struct extract_link *l)
{
	struct buf *b = arg;

	buf_appendf(b, "%c %s %s|%.*s%s;", l->hop, l->context, l->base ? l->base : "-", (int)l->len,
	    l->ref, l->flags & EXTRACT_NOFOLLOW ? " nofollow" : "");
}

struct extract_case {
	const char *html;
	const char *want;
	unsigned meta;
	int forms;
	size_t max, dropped;
};

static const struct extract_case extract_cases[] = {
    /* attribute forms, case, duplicates, whitespace */
    {"<a href=\"a\">", "L a/@href -|a;", 0, 0, 0, 0},
    {"<a href='b'><A HREF=c><a href = \"d\" >", "L a/@href -|b;L a/@href -|c;L a/@href -|d;", 0, 0,
	0, 0},
    {"<a href=x href=y>", "L a/@href -|x;", 0, 0, 0, 0},
    {"<a href=\" \t\n sp \n\">", "L a/@href -|sp;", 0, 0, 0, 0},
    {"<a href=\"\"><a href=\"  \"><a href>", "", 0, 0, 0, 0},
    {"<a/href=x>", "L a/@href -|x;", 0, 0, 0, 0},
    {"<a href=x/>", "L a/@href -|x/;", 0, 0, 0, 0},
    {"<a =x href=y>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<a href=\"q\"title=t>", "L a/@href -|q;", 0, 0, 0, 0},
    {"<a rel=\"NoFollow noopener\" href=n>", "L a/@href -|n nofollow;", 0, 0, 0, 0},
    {"<area href=ar>", "L area/@href -|ar;", 0, 0, 0, 0},
    /* character references in attribute values */
    {"<a href=\"a?x=1&amp;y=2&copy=3&reg_id=4\">", "L a/@href -|a?x=1&y=2&copy=3\xc2\xae_id=4;", 0,
	0, 0, 0},
    {"<a href=\"&#x2F;&#47;&#0;&#128;&#x110000;&#65\">",
	"L a/@href -|//\xef\xbf\xbd\xe2\x82\xac\xef\xbf\xbd"
	"A;",
	0, 0, 0, 0},
    {"<a href=\"&notin;&notit;&ampx&lang;\">", "L a/@href -|\xe2\x88\x89&notit;&ampx\xe2\x9f\xa8;",
	0, 0, 0, 0},
    /* link rel decides the hop */
    {"<link rel=stylesheet href=s><link rel=\"shortcut icon\" href=i><link rel=canonical href=c>"
     "<link rel=dns-prefetch href=//d><link href=n><link rel=\"Alternate StyleSheet\" href=a>",
	"E link/@href -|s;E link/@href -|i;L link/@href -|c;L link/@href -|n;E link/@href -|a;", 0,
	0, 0, 0},
    /* feeds a page names are navigational links (src/crawl/feed.c reads them) */
    {"<link rel=alternate type=application/rss+xml href=/feed><link rel=\"alternate\" "
     "type=\"application/atom+xml\" title=x href=\"a.atom\">",
	"L link/@href -|/feed;L link/@href -|a.atom;", 0, 0, 0, 0},
    /* embeds */
    {"<img src=i srcset=\"a 1x, b 2x,c,, d 100w (x,y), e\"><image src=im>",
	"E img/@src -|i;E img/@srcset -|a;E img/@srcset -|b;E img/@srcset -|c;E img/@srcset -|d;"
	"E img/@srcset -|e;E img/@src -|im;",
	0, 0, 0, 0},
    {"<script src=j></script><iframe src=f></iframe><frame src=fr><embed src=e><object data=o>"
     "<video src=v poster=p><audio src=au><track src=t><source src=so srcset=ss>",
	"E script/@src -|j;E iframe/@src -|f;E frame/@src -|fr;E embed/@src -|e;E object/@data -|o;"
	"E video/@src -|v;E video/@poster -|p;E audio/@src -|au;E track/@src -|t;"
	"E source/@src -|so;E source/@srcset -|ss;",
	0, 0, 0, 0},
    /* forms: off by default, GET only */
    {"<form action=f>", "", 0, 0, 0, 0},
    {"<form action=f><form method=POST action=p><form method=get action=g>",
	"L form/@action -|f;L form/@action -|g;", 0, 1, 0, 0},
    /* base: the first applies to later links only */
    {"<a href=a><base href=\" /b/ \"><a href=c><base href=/z/><a href=d>",
	"L a/@href -|a;L a/@href /b/|c;L a/@href /b/|d;", 0, 0, 0, 0},
    {"<svg><base href=/s/></svg><a href=a>", "L a/@href -|a;", 0, 0, 0, 0},
    /* meta refresh and robots */
    {"<meta http-equiv=refresh content=\"5; URL='r.html'\">", "R meta/@content -|r.html;", 0, 0, 0,
	0},
    {"<meta http-equiv=Refresh content=\"0;url=x y\"><meta http-equiv=refresh content=\"7\">",
	"R meta/@content -|x y;", 0, 0, 0, 0},
    {"<meta name=robots content=\"NOINDEX,nofollow\">", "",
	EXTRACT_META_NOINDEX | EXTRACT_META_NOFOLLOW, 0, 0, 0},
    {"<meta name=ROBOTS content=none><a href=still>", "L a/@href -|still;",
	EXTRACT_META_NOINDEX | EXTRACT_META_NOFOLLOW, 0, 0, 0},
    {"<meta name=googlebot content=noindex>", "", 0, 0, 0, 0},
    /* CSS in style attributes and <style> */
    {"<p style=\"background:url(bg.png)\">", "E css/url -|bg.png;", 0, 0, 0, 0},
    {"<style>a{b:url( 'x.png' )} @import \"i.css\"; /* url(no) */</style><a href=after>",
	"E css/url -|x.png;E css/@import -|i.css;L a/@href -|after;", 0, 0, 0, 0},
    {"<style>a{b:url(x)}</stylex><a href=no></style >", "E css/url -|x;", 0, 0, 0, 0},
    {"<style>a{b:url(</abcdefghijklmnopqrstuvwxyz.png)}</style>",
	"E css/url -|</abcdefghijklmnopqrstuvwxyz.png;", 0, 0, 0, 0},
    /* text that is not markup */
    {"<!-- <a href=no> --><a href=y>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<!--><a href=y1><!---><a href=y2><!-- --!><a href=y3>",
	"L a/@href -|y1;L a/@href -|y2;L a/@href -|y3;", 0, 0, 0, 0},
    {"<!-- <!-- --- -> --><a href=y>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<?php <a href=no ?><a href=y>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<!DOCTYPE html PUBLIC \"a>b\"><a href=y>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<![CDATA[ x > <a href=y> ]]>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<svg><![CDATA[ x > <a href=no> ]]><a href=y></svg>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<title><a href=no></title><textarea><a href=no></TEXTAREA><xmp><a href=no></xmp>"
     "<noembed><a href=no></noembed><noframes><a href=no></noframes><iframe><a href=no></iframe>"
     "<a href=y>",
	"L a/@href -|y;", 0, 0, 0, 0},
    {"<noscript><a href=ns></noscript>", "L a/@href -|ns;", 0, 0, 0, 0},
    {"<script>x=\"<a href=no>\"</script><a href=y>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<script><!--<script></script><a href=no></script>--></script><a href=y>", "L a/@href -|y;", 0,
	0, 0, 0},
    {"<script><!--></script><a href=y>", "L a/@href -|y;", 0, 0, 0, 0},
    {"<plaintext></plaintext><a href=no>", "", 0, 0, 0, 0},
    {"< a href=no><3 </><a href=y>", "L a/@href -|y;", 0, 0, 0, 0},
    /* foreign content */
    {"<svg><style><a href=s1></style></svg><style><a href=no></style>", "L a/@href -|s1;", 0, 0, 0,
	0},
    {"<svg><foreignObject><style>a{b:url(f)}</style></foreignObject></svg>", "E css/url -|f;", 0, 0,
	0, 0},
    {"<svg><p><style><a href=no></style>", "", 0, 0, 0, 0},
    {"<math><mi><title><a href=no></title></mi></math>", "", 0, 0, 0, 0},
    {"<svg><image href=si src=no2>", "", 0, 0, 0, 0},
    {"<div><svg><g></div><title><a href=no></title>", "", 0, 0, 0, 0},
    /* a tag cut by the end of input is dropped */
    {"<a href=y><a href=\"cut", "L a/@href -|y;", 0, 0, 0, 0},
    /* max-outlinks */
    {"<a href=1><a href=2><a href=3><a href=4>", "L a/@href -|1;L a/@href -|2;", 0, 0, 2, 2},
};

static void test_extract_run(
    const struct extract_case *c, size_t chunk, struct buf *out, unsigned *meta, size_t *dropped)
{
	struct extract_opts o = {c->max, c->forms};
	struct extract *x = extract_new(EXTRACT_HTML, &o, test_extract_link_cb, out);
	size_t len = strlen(c->html), off, n;

	for (off = 0; off < len; off += n) {
		n = chunk && chunk < len - off ? chunk : len - off;
		assert_int_equal(extract_feed(x, c->html + off, n), 0);
	}
	assert_int_equal(extract_finish(x), 0);
	*meta = extract_meta(x);
	*dropped = extract_dropped(x);
	extract_free(x);
}

static void test_extract_cases(void **state)
{
	size_t i, k;
	static const size_t chunks[] = {0, 1, 7};

	(void)state;
	for (i = 0; i < sizeof(extract_cases) / sizeof(extract_cases[0]); i++) {
		for (k = 0; k < 3; k++) {
			struct buf out = BUF_INIT;
			unsigned meta;
			size_t dropped;

			buf_appends(&out, "");
			test_extract_run(&extract_cases[i], chunks[k], &out, &meta, &dropped);
			if (strcmp(out.data, extract_cases[i].want) != 0)
				fail_msg("case %zu (chunk %zu): %s\n got  %s\n want %s", i,
				    chunks[k], extract_cases[i].html, out.data,
				    extract_cases[i].want);
			assert_int_equal(meta, extract_cases[i].meta);
			assert_int_equal(dropped, extract_cases[i].dropped);
			buf_free(&out);
		}
	}
}

/* One extractor serves every case in turn, reset between them, after
 * being left in the middle of the case before (inside a tag, a script, a
 * <base>, a <meta> or past max-outlinks): each answers as a new one. */
static void test_extract_reset(void **state)
{
	size_t n = sizeof(extract_cases) / sizeof(extract_cases[0]);
	struct buf out = BUF_INIT;
	struct extract *x = extract_new(EXTRACT_HTML, NULL, test_extract_link_cb, &out);
	static const char *const before[] = {
	    "<a href=\"cut",
	    "<script>x=\"<a href=no>",
	    "<base href=http://b/x/>",
	    "<meta name=robots content=nofollow>",
	    "<style>a{b:url(",
	    "<svg><p",
	};

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const struct extract_case *c = &extract_cases[i];
		const char *prev = i % 2 ? extract_cases[i - 1].html : before[i / 2 % 6];
		struct extract_opts o = {c->max, c->forms};

		extract_reset(x, &(struct extract_opts){1, 0});
		assert_int_equal(extract_feed(x, prev, strlen(prev)), 0);
		extract_reset(x, &o);
		buf_reset(&out);
		buf_appends(&out, "");
		assert_int_equal(extract_feed(x, c->html, strlen(c->html)), 0);
		assert_int_equal(extract_finish(x), 0);
		if (strcmp(out.data, c->want) != 0)
			fail_msg("case %zu after \"%s\": %s\n got  %s\n want %s", i, prev, c->html,
			    out.data, c->want);
		assert_int_equal(extract_meta(x), c->meta);
		assert_int_equal(extract_dropped(x), c->dropped);
	}
	extract_free(x);
	buf_free(&out);
}

/* NUL bytes need explicit lengths. */
static void test_extract_nul(void **state)
{
	static const char html[] = "\0<a\0 href=no><a href\0=no2><a hr\0ef=no3><a href=\"a\0b\">\0";
	struct buf out = BUF_INIT;
	struct extract *x = extract_new(EXTRACT_HTML, NULL, test_extract_link_cb, &out);

	(void)state;
	buf_appends(&out, "");
	extract_feed(x, html, sizeof(html) - 1);
	extract_finish(x);
	assert_string_equal(out.data,
	    "L a/@href -|a\xef\xbf\xbd"
	    "b;");
	assert_int_equal(extract_count(x), 1);
	extract_free(x);
	buf_free(&out);
}

static void test_extract_css_type(void **state)
{
	static const char css[] = "@import url(a.css);\nb{background:url(\"b.png\")}";
	struct buf out = BUF_INIT;
	struct extract *x = extract_new(EXTRACT_CSS, NULL, test_extract_link_cb, &out);
	size_t i;

	(void)state;
	buf_appends(&out, "");
	for (i = 0; i < sizeof(css) - 1; i++)
		extract_feed(x, css + i, 1);
	extract_finish(x);
	assert_string_equal(out.data, "E css/@import -|a.css;E css/url -|b.png;");
	extract_free(x);
	buf_free(&out);
}

/* Hostile shapes stay within the caps and still find the links around them. */
static void test_extract_hostile(void **state)
{
	struct buf page = BUF_INIT, out = BUF_INIT;
	struct extract *x;
	size_t i;

	(void)state;
	buf_appends(&out, "");
	buf_appends(&page, "<a href=ok1><a href=\"");
	for (i = 0; i < 2 * 1024 * 1024; i++)
		buf_appendc(&page, 'x');
	buf_appends(&page, "\"><a ");
	for (i = 0; i < 100000; i++)
		buf_appends(&page, "x ");
	buf_appends(&page, "href=late><a href=ok2><!--");
	for (i = 0; i < 100000; i++)
		buf_appends(&page, "<a href=no>");
	x = extract_new(EXTRACT_HTML, NULL, test_extract_link_cb, &out);
	extract_feed(x, page.data, page.len);
	extract_finish(x);
	assert_string_equal(out.data, "L a/@href -|ok1;L a/@href -|ok2;");
	extract_free(x);
	buf_free(&page);
	buf_free(&out);
}

struct entity_case {
	const char *in;
	int in_attr;
	const char *want;
};

static const struct entity_case entity_cases[] = {
    {"&amp;", 1, "&"},
    {"&amp", 1, "&"},
    {"&ampx", 1, "&ampx"},
    {"&ampx", 0, "&x"},
    {"&amp=", 1, "&amp="},
    {"&amp;x", 1, "&x"},
    {"&copy=1", 1, "&copy=1"},
    {"&reg_", 1, "\xc2\xae_"},
    {"&notin;", 0, "\xe2\x88\x89"},
    {"&notin", 0, "\xc2\xacin"},
    {"&NotANamedRef;", 0, "&NotANamedRef;"},
    {"&CounterClockwiseContourIntegral;", 0, "\xe2\x88\xb3"},
    {"&#65;&#x41;&#X41", 0, "AAA"},
    {"&#;&#x;&#xg", 0, "&#;&#x;&#xg"},
    {"&#0;", 0, "\xef\xbf\xbd"},
    {"&#xD800;", 0, "\xef\xbf\xbd"},
    {"&#99999999999;", 0, "\xef\xbf\xbd"},
    {"&#x80;&#x9f;&#x81;", 0, "\xe2\x82\xac\xc5\xb8\xc2\x81"},
    {"&", 0, "&"},
    {"&;", 0, "&;"},
    {"&nbsp;&lt;&gt;&quot;&apos;", 0, "\xc2\xa0<>\"'"},
    {"&NewLine;&Tab;", 0, "\n\t"},
    {"&acE;", 0, "\xe2\x88\xbe\xcc\xb3"},
};

/* The page's title as document.title gives it, whatever the chunking. */
static void test_extract_title(void **state)
{
	static const struct {
		const char *html;
		const char *want;
	} cases[] = {
	    {"<title>Hello</title>", "Hello"},
	    {"<html><head><TITLE> Two\n\t words  here </TITLE>", "Two words here"},
	    {"<title>a &amp; b &lt;i&gt; &eacute;&#233;&#x1F600;</title>",
		"a & b <i> \xc3\xa9\xc3\xa9\xf0\x9f\x98\x80"},
	    {"<title><b>not a tag</b></title>", "<b>not a tag</b>"},
	    {"<title>first</title><title>second</title>", "first"},
	    {"<svg><title>icon</title></svg><title>page</title>", "page"},
	    {"<p>no title</p>", ""},
	    {"<title></title><title>late</title>", ""},
	    {"<title>cut by the end", "cut by the end"},
	    {"<title>c\x01tl\x7f"
	     "chars</title>",
		"c tl chars"},
	    {"<!-- <title>comment</title> --><title>real</title>", "real"},
	    {"<script>var t='<title>no</title>';</script><title>yes</title>", "yes"},
	    {"<textarea><title>no</title></textarea><title>yes</title>", "yes"},
	};
	struct buf b = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (size_t chunk = 1; chunk <= 8; chunk += 7) {
			struct extract *x =
			    extract_new(EXTRACT_HTML, NULL, test_extract_link_cb, &b);
			size_t n = strlen(cases[i].html);
			for (size_t off = 0; off < n; off += chunk)
				extract_feed(
				    x, cases[i].html + off, n - off < chunk ? n - off : chunk);
			extract_finish(x);
			assert_string_equal(extract_title(x), cases[i].want);
			/* A reset forgets it. */
			extract_reset(x, NULL);
			assert_string_equal(extract_title(x), "");
			extract_free(x);
		}
	}
	buf_free(&b);
}

/* A long title is cut at EXTRACT_TITLE_MAX source bytes, never inside a
 * character. */
static void test_extract_title_cap(void **state)
{
	struct buf html = BUF_INIT;
	struct extract *x = extract_new(EXTRACT_HTML, NULL, test_extract_link_cb, NULL);
	const char *t;

	(void)state;
	buf_appends(&html, "<title>");
	/* Three-byte characters: the cap falls inside one. */
	while (html.len < EXTRACT_TITLE_MAX + 64)
		buf_appends(&html, "\xe2\x82\xac");
	buf_appends(&html, "</title>");
	extract_feed(x, html.data, html.len);
	extract_finish(x);
	t = extract_title(x);
	assert_true(strlen(t) <= EXTRACT_TITLE_MAX);
	assert_true(strlen(t) >= EXTRACT_TITLE_MAX - 3);
	assert_int_equal(strlen(t) % 3, 0);
	extract_free(x);
	buf_free(&html);
}

static void test_entity_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(entity_cases) / sizeof(entity_cases[0]); i++) {
		struct buf out = BUF_INIT;

		buf_appends(&out, "");
		entity_decode(
		    &out, entity_cases[i].in, strlen(entity_cases[i].in), entity_cases[i].in_attr);
		if (strcmp(out.data, entity_cases[i].want) != 0)
			fail_msg("entity case %zu: %s -> %s", i, entity_cases[i].in, out.data);
		buf_free(&out);
	}
}

struct refresh_case {
	const char *in;
	const char *want; /* NULL: no URL */
};

static const struct refresh_case refresh_cases[] = {
    {"5; url=a", "a"},
    {"5;URL = 'b' x", "b"},
    {"0, c", "c"},
    {" 1.5 url=\"d", "d"},
    {"3 e", "e"},
    {"7", NULL},
    {"x; url=f", NULL},
    {".5;url=g", "g"},
    {"0;urx=h", "urx=h"},
    {"0; ur", "ur"},
    {"0; url", "url"},
    {"0; 'q'", "q"},
    {"0a; url=i", NULL},
    {"", NULL},
    {"0;", NULL},
};

static void test_refresh_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refresh_cases) / sizeof(refresh_cases[0]); i++) {
		const char *url;
		size_t len;
		int rc = extract_refresh_url(
		    refresh_cases[i].in, strlen(refresh_cases[i].in), &url, &len);

		if (!refresh_cases[i].want) {
			if (rc == 0)
				fail_msg("refresh case %zu: %s gave %.*s", i, refresh_cases[i].in,
				    (int)len, url);
			continue;
		}
		assert_int_equal(rc, 0);
		if (strlen(refresh_cases[i].want) != len ||
		    memcmp(url, refresh_cases[i].want, len) != 0)
			fail_msg("refresh case %zu: %s gave %.*s", i, refresh_cases[i].in, (int)len,
			    url);
	}
}

/* The tokenizer's own view: names, flags, raw values, overflow. */
static void test_htmltok_tag_cb(void *arg, const struct htmltok_tag *t)
{
	struct buf *b = arg;
	size_t i;

	buf_appendf(b, "%s%s%s%s", t->end ? "/" : "", t->name, t->self_closing ? "!" : "",
	    t->foreign ? "@" : "");
	for (i = 0; i < t->nattrs; i++)
		buf_appendf(b, " %.*s=%.*s%s", (int)t->attrs[i].name_len, t->attrs[i].name,
		    (int)t->attrs[i].value_len, t->attrs[i].value,
		    t->attrs[i].overflow ? "(over)" : "");
	buf_appendc(b, ';');
}

static void test_htmltok_text_cb(void *arg, const char *data, size_t len)
{
	struct buf *b = arg;

	buf_appends(b, "[");
	buf_append(b, data, len);
	buf_appends(b, "]");
}

static void test_htmltok_basic(void **state)
{
	static const struct htmltok_cbs cbs = {test_htmltok_tag_cb, test_htmltok_text_cb};
	static const char html[] = "<DIV Class=A id='b' x><br/><svg><Rect/></svg></DIV x=1>"
				   "<title>a</b></TITLE><style>s</style >";
	struct buf out = BUF_INIT;
	struct htmltok *t = htmltok_new(&cbs, &out);
	size_t i;

	(void)state;
	buf_appends(&out, "");
	for (i = 0; i < sizeof(html) - 1; i++)
		htmltok_feed(t, html + i, 1);
	htmltok_finish(t);
	assert_string_equal(out.data,
	    "div class=A id=b x=;br!;svg@;rect!@;/svg;/div x=1;"
	    "title;[a][</b][>]/title;style;[s]/style;");
	htmltok_free(t);
	buf_free(&out);
}

static void test_htmltok_caps(void **state)
{
	static const struct htmltok_cbs cbs = {test_htmltok_tag_cb, NULL};
	struct buf page = BUF_INIT, out = BUF_INIT;
	struct htmltok *t = htmltok_new(&cbs, &out);
	size_t i;

	(void)state;
	buf_appends(&out, "");
	buf_appends(&page, "<p a=\"");
	for (i = 0; i < HTMLTOK_VALUE_MAX + 1; i++)
		buf_appendc(&page, 'v');
	buf_appends(&page, "\" b=1>");
	htmltok_feed(t, page.data, page.len);
	htmltok_finish(t);
	assert_string_equal(out.data, "p a=(over) b=1;");
	htmltok_free(t);
	buf_free(&page);
	buf_free(&out);
}

static void test_htmltok_first_cb(void *arg, const struct htmltok_tag *t)
{
	const struct htmltok_attr *a = htmltok_attr(t, "href");

	if (a)
		buf_append(arg, a->value, a->value_len);
}

/* Duplicate attributes are all reported; the lookup returns the first. */
static void test_htmltok_duplicates(void **state)
{
	static const struct htmltok_cbs cbs = {test_htmltok_first_cb, NULL};
	static const char html[] = "<a HREF=one href=two Href=three>";
	struct buf out = BUF_INIT;
	struct htmltok *t = htmltok_new(&cbs, &out);

	(void)state;
	buf_appends(&out, "");
	htmltok_feed(t, html, sizeof(html) - 1);
	htmltok_finish(t);
	assert_string_equal(out.data, "one");
	htmltok_free(t);
	buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_extract_cases),
	    cmocka_unit_test(test_extract_reset),
	    cmocka_unit_test(test_extract_nul),
	    cmocka_unit_test(test_extract_css_type),
	    cmocka_unit_test(test_extract_hostile),
	    cmocka_unit_test(test_extract_title),
	    cmocka_unit_test(test_extract_title_cap),
	    cmocka_unit_test(test_entity_cases),
	    cmocka_unit_test(test_refresh_cases),
	    cmocka_unit_test(test_htmltok_basic),
	    cmocka_unit_test(test_htmltok_caps),
	    cmocka_unit_test(test_htmltok_duplicates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
