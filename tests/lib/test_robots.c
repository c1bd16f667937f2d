/* Unit tests of src/lib/robots.c: a table of edge cases, the examples of RFC 9309
 * section 5 and its encoding table (section 2.2.2), fetch outcomes, crawl
 * delay, serialization and the size cap. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/buf.h"
#include "lib/robots.h"
#include "lib/xmalloc.h"

struct robots_case {
	const char *name;
	const char *body;
	const char *agent;
	const char *path;
	int allowed;
};

static const struct robots_case robots_cases[] = {
    {"empty file", "", "tern", "/x", 1},
    {"only comments", "# nothing\n   # here\n#User-agent: *\n#Disallow: /\n", "tern", "/x", 1},
    {"global disallow", "User-agent: *\nDisallow: /\n", "tern", "/x", 0},
    {"robots.txt always allowed", "User-agent: *\nDisallow: /\n", "tern", "/robots.txt", 1},
    {"robots.txt with query is a normal path", "User-agent: *\nDisallow: /\n", "tern",
	"/robots.txt?x", 0},
    {"user-agent with version", "User-agent: tern/1.0\nDisallow: /a\n", "tern", "/a", 0},
    {"user-agent case-insensitive", "User-agent: TeRn\nDisallow: /a\n", "tern", "/a/b", 0},
    {"user-agent token prefix", "User-agent: tern bot\nDisallow: /a\n", "tern", "/a", 0},
    {"longer token is another agent", "User-agent: ternbot\nDisallow: /a\n", "tern", "/a", 1},
    {"hyphenated token is another agent", "User-agent: tern-news\nDisallow: /a\n", "tern", "/a", 1},
    {"star with trailing words is global", "User-agent: * everyone\nDisallow: /a\n", "tern", "/a",
	0},
    {"specific group replaces star (star rule)",
	"User-agent: *\nDisallow: /a\n\nUser-agent: tern\nDisallow: /b\n", "tern", "/a", 1},
    {"specific group replaces star (own rule)",
	"User-agent: *\nDisallow: /a\n\nUser-agent: tern\nDisallow: /b\n", "tern", "/b", 0},
    {"other agent falls back to star",
	"User-agent: *\nDisallow: /a\n\nUser-agent: tern\nDisallow: /b\n", "otherbot", "/a", 0},
    {"groups for the same agent merge (first)",
	"User-agent: tern\nDisallow: /a\nUser-agent: x\nDisallow: /c\nUser-agent: tern\nDisallow: /b\n",
	"tern", "/a", 0},
    {"groups for the same agent merge (second)",
	"User-agent: tern\nDisallow: /a\nUser-agent: x\nDisallow: /c\nUser-agent: tern\nDisallow: /b\n",
	"tern", "/b", 0},
    {"groups for the same agent merge (other's rule)",
	"User-agent: tern\nDisallow: /a\nUser-agent: x\nDisallow: /c\nUser-agent: tern\nDisallow: /b\n",
	"tern", "/c", 1},
    {"several user-agent lines share a group", "User-agent: x\nUser-agent: tern\nDisallow: /x\n",
	"tern", "/x", 0},
    {"blank lines inside the user-agent run", "User-agent: tern\n\n\nUser-agent: x\nDisallow: /x\n",
	"tern", "/x", 0},
    {"sitemap does not split a group",
	"User-agent: tern\nSitemap: http://e.com/s.xml\nUser-agent: x\nDisallow: /x\n", "tern",
	"/x", 0},
    {"specific group without rules allows all",
	"User-agent: tern\nCrawl-delay: 1\n\nUser-agent: *\nDisallow: /\n", "tern", "/x", 1},
    {"specific group at end of file allows all", "User-agent: *\nDisallow: /\nUser-agent: tern\n",
	"tern", "/x", 1},
    {"no matching group and no star", "User-agent: x\nDisallow: /\n", "tern", "/x", 1},
    {"rules before any user-agent are ignored", "Disallow: /\nUser-agent: x\nDisallow: /y\n",
	"tern", "/x", 1},
    {"empty disallow means allow", "User-agent: *\nDisallow:\n", "tern", "/x", 1},
    {"empty disallow next to a rule", "User-agent: *\nDisallow:\nDisallow: /p\n", "tern", "/p", 0},
    {"longest match wins (allow)", "User-agent: *\nDisallow: /\nAllow: /p\n", "tern", "/p/q", 1},
    {"longest match wins (disallow)", "User-agent: *\nAllow: /folder/\nDisallow: /folder/page\n",
	"tern", "/folder/page.html", 0},
    {"longest match is by pattern octets, not order",
	"User-agent: *\nDisallow: /folder/page\nAllow: /folder/\n", "tern", "/folder/x", 1},
    {"tie goes to allow", "User-agent: *\nDisallow: /a\nAllow: /a\n", "tern", "/a", 1},
    {"tie goes to allow (wildcards)", "User-agent: *\nDisallow: /a$\nAllow: /a*\n", "tern", "/a",
	1},
    {"dollar anchors the end", "User-agent: *\nDisallow: /*.gif$\n", "tern", "/img/x.gif", 0},
    {"dollar: longer path", "User-agent: *\nDisallow: /*.gif$\n", "tern", "/img/x.gifs", 1},
    {"dollar: query follows", "User-agent: *\nDisallow: /*.gif$\n", "tern", "/x.gif?s=1", 1},
    {"dollar in the middle is literal", "User-agent: *\nDisallow: /a$b\n", "tern", "/a$b/c", 0},
    {"dollar alone matches only the empty path", "User-agent: *\nDisallow: $\n", "tern", "/", 1},
    {"star matches any run", "User-agent: *\nDisallow: /a*b\n", "tern", "/axxxbyy", 0},
    {"star matches nothing", "User-agent: *\nDisallow: /a*b\n", "tern", "/ab", 0},
    {"star needs the rest", "User-agent: *\nDisallow: /a*b\n", "tern", "/axxx", 1},
    {"several stars", "User-agent: *\nDisallow: /*a*b*c$\n", "tern", "/xaybzc", 0},
    {"several stars: order matters", "User-agent: *\nDisallow: /*a*b*c$\n", "tern", "/xcybza", 1},
    {"trailing star is a prefix", "User-agent: *\nDisallow: /private*\n", "tern", "/private/x", 0},
    {"star then dollar", "User-agent: *\nDisallow: /a*$\n", "tern", "/abc", 0},
    {"leading star", "User-agent: *\nDisallow: *secret\n", "tern", "/a/secret/b", 0},
    {"rule without slash never matches", "User-agent: *\nDisallow: private\n", "tern", "/private",
	1},
    {"query is part of the path", "User-agent: *\nDisallow: /ok\n", "tern", "/ok?x=1", 0},
    {"query rule", "User-agent: *\nDisallow: /*?sort=\n", "tern", "/list?sort=asc", 0},
    {"path comparison is case-sensitive", "User-agent: *\nDisallow: /Admin\n", "tern", "/admin", 1},
    {"percent: escaped unreserved in rule", "User-agent: *\nDisallow: /%7Efoo\n", "tern", "/~foo",
	0},
    {"percent: escaped unreserved in path", "User-agent: *\nDisallow: /~foo\n", "tern", "/%7efoo",
	0},
    {"percent: %2F is not a slash", "User-agent: *\nDisallow: /a%2fb\n", "tern", "/a/b", 1},
    {"percent: %2f equals %2F", "User-agent: *\nDisallow: /a%2fb\n", "tern", "/a%2Fb", 0},
    {"percent: raw UTF-8 rule, escaped path", "User-agent: *\nDisallow: /caf\xc3\xa9\n", "tern",
	"/caf%C3%A9", 0},
    {"percent: lowercase hex in path", "User-agent: *\nDisallow: /caf%C3%A9\n", "tern",
	"/caf%c3%a9", 0},
    {"percent: raw space in rule", "User-agent: *\nDisallow: /a b\n", "tern", "/a%20b", 0},
    {"percent: raw pipe in path", "User-agent: *\nDisallow: /a%7Cb\n", "tern", "/a|b", 0},
    {"percent: lone percent", "User-agent: *\nDisallow: /100%\n", "tern", "/100%", 0},
    {"comment after the value", "User-agent: * # all\nDisallow: /a # not /b\n", "tern", "/b", 1},
    {"comment after the value (rule kept)", "User-agent: * # all\nDisallow: /a # not /b\n", "tern",
	"/a", 0},
    {"spaces around the colon", "User-agent :  *  \n  Disallow  :   /a   \n", "tern", "/a", 0},
    {"field names are case-insensitive", "USER-AGENT: *\nDISALLOW: /a\n", "tern", "/a", 0},
    {"line without colon is skipped", "User-agent: *\nDisallow /a\nDisallow: /b\n", "tern", "/a",
	1},
    {"unknown field is skipped", "User-agent: *\nNoindex: /a\nDisallow: /b\n", "tern", "/a", 1},
    {"BOM", "\xef\xbb\xbfUser-agent: *\nDisallow: /\n", "tern", "/x", 0},
    /* A cut BOM is skipped as Google's parser does (any prefix of it). */
    {"BOM cut to two bytes", "\xef\xbbUser-agent: *\nDisallow: /\n", "tern", "/x", 0},
    {"BOM cut to one byte", "\xefUser-agent: *\nDisallow: /\n", "tern", "/x", 0},
    {"BOM prefix then another byte", "\xef\xbb\xefUser-agent: *\nDisallow: /\n", "tern", "/x", 1},
    {"BOM alone on the first line", "\xef\xbb\xbf\nUser-agent: *\nDisallow: /\n", "tern", "/x", 0},
    {"CR line ends", "User-agent: *\rDisallow: /a\rAllow: /a/b\r", "tern", "/a/c", 0},
    {"CRLF line ends", "User-agent: *\r\nDisallow: /a\r\nAllow: /a/b\r\n", "tern", "/a/b", 1},
    {"no final newline", "User-agent: *\nDisallow: /a", "tern", "/a", 0},
    {"HTML is not robots.txt", "<html><body>User-agent: * Disallow: /</body></html>", "tern", "/x",
	1},
    {"agent passed with a version", "User-agent: tern\nDisallow: /a\n", "tern/0.1", "/a", 0},
    {"no agent uses the star group", "User-agent: tern\nDisallow: /a\n", "", "/a", 1},
/* RFC 9309 section 5.1. */
#define RFC_5_1                                                                                    \
	"User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\n"          \
	"User-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\n" \
	"User-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\n"                 \
	"User-Agent: quxbot\n"
    {"RFC 5.1 foobot page", RFC_5_1, "foobot", "/example/page.html", 1},
    {"RFC 5.1 foobot gif", RFC_5_1, "foobot", "/example/allowed.gif", 1},
    {"RFC 5.1 foobot other", RFC_5_1, "foobot", "/example/other", 0},
    {"RFC 5.1 foobot root", RFC_5_1, "foobot", "/", 0},
    {"RFC 5.1 barbot page", RFC_5_1, "barbot", "/example/page.html", 0},
    {"RFC 5.1 bazbot page", RFC_5_1, "bazbot", "/example/page.html", 0},
    {"RFC 5.1 bazbot other", RFC_5_1, "bazbot", "/example/other.gif", 1},
    {"RFC 5.1 quxbot anything", RFC_5_1, "quxbot", "/example/x.gif", 1},
    {"RFC 5.1 star gif", RFC_5_1, "tern", "/a/b.gif", 0},
    {"RFC 5.1 star gif with query", RFC_5_1, "tern", "/a/b.gif?x", 1},
    {"RFC 5.1 star example", RFC_5_1, "tern", "/example/", 0},
    {"RFC 5.1 star publications", RFC_5_1, "tern", "/publications/x", 1},
    {"RFC 5.1 star other", RFC_5_1, "tern", "/other", 1},
/* RFC 9309 section 5.2. */
#define RFC_5_2 \
	"User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
    {"RFC 5.2 allowed dir", RFC_5_2, "foobot", "/example/page/", 1},
    {"RFC 5.2 longer disallow", RFC_5_2, "foobot", "/example/page/disallowed.gif", 0},
    {"RFC 5.2 sibling", RFC_5_2, "foobot", "/example/page/allowed.gif", 1},
    /* RFC 9309 section 2.2.2, the encoding table, as rule vs path. */
    {"RFC 2.2.2 query", "User-agent: *\nDisallow: /foo/bar?baz=quz\n", "tern", "/foo/bar?baz=quz",
	0},
    {"RFC 2.2.2 UTF-8 rule", "User-agent: *\nDisallow: /foo/bar/\xe3\x83\x84\n", "tern",
	"/foo/bar/%E3%83%84", 0},
    {"RFC 2.2.2 escaped rule", "User-agent: *\nDisallow: /foo/bar/%E3%83%84\n", "tern",
	"/foo/bar/%E3%83%84", 0},
    {"RFC 2.2.2 escaped unreserved", "User-agent: *\nDisallow: /foo/bar/%62%61%7A\n", "tern",
	"/foo/bar/baz", 0},
    /* RFC 9309 section 2.2.3, special characters. */
    {"RFC 2.2.3 dollar exact", "User-agent: *\nDisallow: /this/path/exactly$\n", "tern",
	"/this/path/exactly", 0},
    {"RFC 2.2.3 dollar longer", "User-agent: *\nDisallow: /this/path/exactly$\n", "tern",
	"/this/path/exactly/not", 1},
    {"RFC 2.2.3 star", "User-agent: *\nDisallow: /this/*/exactly\n", "tern",
	"/this/very/long/exactly", 0},
};

static void test_robots_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(robots_cases) / sizeof(robots_cases[0]); i++) {
		const struct robots_case *c = &robots_cases[i];
		struct robots *r = robots_parse(c->body, strlen(c->body), c->agent);
		int got = robots_allowed(r, c->path, strlen(c->path));

		if (got != c->allowed)
			fail_msg("case \"%s\": %s is %d, expected %d", c->name, c->path, got,
			    c->allowed);
		robots_free(r);
	}
}

static void test_robots_nul_bytes(void **state)
{
	static const char body[] = "User-agent: *\n\0\0\0\nDisallow: /a\0b\nDisallow: /c\n";
	struct robots *r = robots_parse(body, sizeof(body) - 1, "tern");

	(void)state;
	assert_int_equal(robots_allowed(r, "/a\0b", 4), 0);
	assert_int_equal(robots_allowed(r, "/a%00b", 6), 0);
	assert_int_equal(robots_allowed(r, "/a", 2), 1);
	assert_int_equal(robots_allowed(r, "/c", 2), 0);
	robots_free(r);
}

static void test_robots_empty_path(void **state)
{
	static const char body[] = "User-agent: *\nDisallow: /$\n";
	struct robots *r = robots_parse(body, strlen(body), "tern");

	(void)state;
	/* An empty path is the root. */
	assert_int_equal(robots_allowed(r, "", 0), 0);
	assert_int_equal(robots_allowed(r, "/a", 2), 1);
	robots_free(r);
}

static void test_robots_long_lines(void **state)
{
	size_t n = 200000;
	struct buf body = BUF_INIT;
	struct buf path = BUF_INIT;
	struct robots *r;
	size_t i;

	(void)state;
	buf_appends(&body, "User-agent: *\nDisallow: /");
	for (i = 0; i < n; i++)
		buf_appendc(&body, 'a');
	buf_appends(&body, "\nDisallow: /short\n");
	r = robots_parse(body.data, body.len, "tern");
	assert_int_equal(robots_rule_count(r), 2);
	buf_appendc(&path, '/');
	for (i = 0; i < n - 1; i++)
		buf_appendc(&path, 'a');
	assert_int_equal(robots_allowed(r, path.data, path.len), 1);
	buf_appends(&path, "ab");
	assert_int_equal(robots_allowed(r, path.data, path.len), 0);
	assert_int_equal(robots_allowed(r, "/short/x", 8), 0);
	robots_free(r);
	buf_free(&body);
	buf_free(&path);
}

/* Resets b to a robots.txt of exactly cut bytes (a rule, then comment lines,
 * the last of them ending at cut), then appends tail. */
static void test_robots_capped_body(struct buf *b, size_t cut, const char *tail)
{
	buf_reset(b);
	buf_appends(b, "User-agent: *\nDisallow: /early\n");
	while (b->len < cut)
		buf_appends(b, "# padding padding padding padding padding padding\n");
	b->len = cut;
	b->data[cut - 1] = '\n';
	b->data[cut] = '\0';
	buf_appends(b, tail);
}

static void test_robots_size_cap(void **state)
{
	struct buf b = BUF_INIT;
	struct robots *r;

	(void)state;
	/* Rules past the cap are not read. */
	test_robots_capped_body(&b, ROBOTS_MAX_BODY, "Disallow: /late\n");
	r = robots_parse(b.data, b.len, "tern");
	assert_int_equal(robots_allowed(r, "/early", 6), 0);
	assert_int_equal(robots_allowed(r, "/late", 5), 1);
	robots_free(r);

	/* A line cut by the cap is dropped, not applied as "/pri". */
	test_robots_capped_body(&b, ROBOTS_MAX_BODY - 14, "Disallow: /private-area\n");
	r = robots_parse(b.data, b.len, "tern");
	assert_int_equal(robots_rule_count(r), 1);
	assert_int_equal(robots_allowed(r, "/pri", 4), 1);
	assert_int_equal(robots_allowed(r, "/early", 6), 0);
	robots_free(r);
	/* Moved inside the cap, the same line is a rule. */
	test_robots_capped_body(&b, ROBOTS_MAX_BODY - 40, "Disallow: /private-area\n");
	r = robots_parse(b.data, b.len, "tern");
	assert_int_equal(robots_allowed(r, "/private-area", 13), 0);
	robots_free(r);

	/* A line that ends exactly at the cap is kept. */
	test_robots_capped_body(&b, ROBOTS_MAX_BODY - 13, "Disallow: /z\nDisallow: /after\n");
	r = robots_parse(b.data, b.len, "tern");
	assert_int_equal(robots_allowed(r, "/z", 2), 0);
	assert_int_equal(robots_allowed(r, "/after", 6), 1);
	robots_free(r);
	buf_free(&b);
}

struct robots_delay_case {
	const char *body;
	int64_t ms;
};

static void test_robots_crawl_delay(void **state)
{
	static const struct robots_delay_case cases[] = {
	    {"User-agent: *\nDisallow: /\n", -1},
	    {"User-agent: *\nCrawl-delay: 5\n", 5000},
	    {"User-agent: *\nCrawl-delay: 0.5\n", 500},
	    {"User-agent: *\nCrawl-delay: .25\n", 250},
	    {"User-agent: *\nCrawl-delay: 10.\n", 10000},
	    {"User-agent: *\nCrawl-delay: 1.0005\n", 1001},
	    {"User-agent: *\nCrawl-delay: 0\n", 0},
	    {"User-agent: *\nCrawl-delay: abc\n", -1},
	    {"User-agent: *\nCrawl-delay: 5s\n", -1},
	    {"User-agent: *\nCrawl-delay: -3\n", -1},
	    {"User-agent: *\nCrawl-delay:\n", -1},
	    {"User-agent: *\nCrawl-delay: 99999999999999999999999\n", ROBOTS_MAX_CRAWL_DELAY_MS},
	    {"User-agent: *\nCrawl-delay: 86401\n", ROBOTS_MAX_CRAWL_DELAY_MS},
	    {"Crawl-delay: 7\nUser-agent: *\n", -1},
	    {"User-agent: *\nCrawl-delay: 5\nUser-agent: tern\nCrawl-delay: 2\n", 2000},
	    {"User-agent: *\nCrawl-delay: 5\nUser-agent: tern\nDisallow: /x\n", -1},
	    {"User-agent: tern\nCrawl-delay: 1\nUser-agent: x\nCrawl-delay: 9\n"
	     "User-agent: tern\nCrawl-delay: 3\n",
		3000},
	    {"User-agent: x\nCrawl-delay: 9\n", -1},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct robots *r = robots_parse(cases[i].body, strlen(cases[i].body), "tern");

		if (robots_crawl_delay_ms(r) != cases[i].ms)
			fail_msg("delay case %zu: %lld, expected %lld", i,
			    (long long)robots_crawl_delay_ms(r), (long long)cases[i].ms);
		robots_free(r);
	}
}

struct robots_fetch_case {
	int status;
	int server_error_allow;
	int allowed;
};

static void test_robots_from_fetch(void **state)
{
	static const struct robots_fetch_case cases[] = {
	    {200, 0, 0},
	    {204, 0, 0},
	    {301, 0, 1},
	    {400, 0, 1},
	    {401, 0, 1},
	    {403, 0, 1},
	    {404, 0, 1},
	    {410, 0, 1},
	    {429, 0, 0},
	    {429, 1, 1},
	    {500, 0, 0},
	    {503, 0, 0},
	    {503, 1, 1},
	    {-2, 0, 0},
	    {-4, 0, 0},
	    {-4, 1, 1},
	    {-404, 0, 1},
	    {0, 0, 0},
	    {100, 0, 0},
	    {600, 0, 0},
	};
	static const char body[] = "User-agent: *\nDisallow: /x\n";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct robots *r = robots_from_fetch(
		    cases[i].status, body, strlen(body), "tern", cases[i].server_error_allow);

		if (robots_allowed(r, "/x", 2) != cases[i].allowed)
			fail_msg("status %d (server_error_allow %d): expected %d", cases[i].status,
			    cases[i].server_error_allow, cases[i].allowed);
		/* /robots.txt stays fetchable whatever happened. */
		assert_int_equal(robots_allowed(r, "/robots.txt", 11), 1);
		/* Only the parsed body's rules distinguish paths. */
		assert_int_equal(robots_allowed(r, "/y", 2),
		    cases[i].status == 200 || cases[i].status == 204 || cases[i].allowed);
		/* A verdict that read no file says so, for crawl.log's cause. */
		assert_int_equal(robots_is_unavailable(r), !robots_allowed(r, "/y", 2));
		robots_free(r);
	}
	{
		static const char all[] = "User-agent: *\nDisallow: /\n";
		struct robots *r = robots_from_fetch(200, all, strlen(all), "tern", 0);

		assert_int_equal(robots_allowed(r, "/y", 2), 0);
		assert_int_equal(robots_is_unavailable(r), 0);
		robots_free(r);
	}
}

static void test_robots_agent_token(void **state)
{
	char out[16];

	(void)state;
	robots_agent_token("tern/0.1.0 (+https://example.org/bot)", out, sizeof(out));
	assert_string_equal(out, "tern");
	robots_agent_token("  Mozilla/5.0 (compatible; tern/1)", out, sizeof(out));
	assert_string_equal(out, "Mozilla");
	robots_agent_token("my_crawler-2 x", out, sizeof(out));
	assert_string_equal(out, "my_crawler-2");
	robots_agent_token("averyveryverylongproducttoken/1", out, sizeof(out));
	assert_string_equal(out, "averyveryverylo");
	robots_agent_token("/1.0", out, sizeof(out));
	assert_string_equal(out, "");
	robots_agent_token("", out, sizeof(out));
	assert_string_equal(out, "");
	robots_agent_token("tern", out, 1);
	assert_string_equal(out, "");
}

static void test_robots_dedup_and_size(void **state)
{
	static const char small[] = "User-agent: *\nDisallow: /a\n";
	static const char dup[] =
	    "User-agent: *\nDisallow: /a\nDisallow: /a\nAllow: /a\nDisallow: /%61\n";
	struct robots *a = robots_parse(small, strlen(small), "tern");
	struct robots *b = robots_parse(dup, strlen(dup), "tern");
	struct robots *none = robots_allow_all();

	(void)state;
	assert_int_equal(robots_rule_count(a), 1);
	/* "/%61" normalises to "/a"; of the four rules only the allow of "/a" remains. */
	assert_int_equal(robots_rule_count(b), 1);
	assert_int_equal(robots_allowed(b, "/a", 2), 1);
	assert_true(robots_size(a) > robots_size(none));
	assert_int_equal(robots_rule_count(none), 0);
	robots_free(a);
	robots_free(b);
	robots_free(none);
}

static const char *const robots_probe_paths[] = {
    "/",
    "/a",
    "/a/b",
    "/x.gif",
    "/x.gif?q",
    "/private/1",
    "/p?sort=1",
    "/%7Ea",
    "/~a",
    "/a%2Fb",
    "/b",
    "/example/",
    "/robots.txt",
    "/caf%C3%A9",
    "",
    "/Private",
    "/a/b/c.gif",
};

static void test_robots_roundtrip_one(const char *body, int status)
{
	struct robots *r = robots_from_fetch(status, body, strlen(body), "tern", 0);
	struct buf s = BUF_INIT;
	struct robots *back;
	size_t i;

	assert_int_equal(robots_serialize(r, &s), 0);
	back = robots_deserialize(s.data, s.len);
	assert_non_null(back);
	assert_int_equal(robots_crawl_delay_ms(back), robots_crawl_delay_ms(r));
	assert_int_equal(robots_rule_count(back), robots_rule_count(r));
	assert_int_equal(robots_size(back), robots_size(r));
	for (i = 0; i < sizeof(robots_probe_paths) / sizeof(robots_probe_paths[0]); i++) {
		const char *p = robots_probe_paths[i];

		assert_int_equal(
		    robots_allowed(back, p, strlen(p)), robots_allowed(r, p, strlen(p)));
	}
	/* Every strict prefix is corrupt, and so is any trailing byte. */
	for (i = 0; i < s.len; i++)
		assert_null(robots_deserialize(s.data, i));
	buf_appendc(&s, 'x');
	assert_null(robots_deserialize(s.data, s.len));
	/* Single bit flips never crash and, when accepted, give a usable object. */
	for (i = 0; i + 1 < s.len; i++) {
		struct robots *f;

		s.data[i] ^= 0x10;
		f = robots_deserialize(s.data, s.len - 1);
		if (f != NULL) {
			(void)robots_allowed(f, "/a/b", 4);
			robots_free(f);
		}
		s.data[i] ^= 0x10;
	}
	robots_free(back);
	robots_free(r);
	buf_free(&s);
}

static void test_robots_sitemaps_cb(void *arg, const char *url, size_t n)
{
	struct buf *b = arg;

	buf_append(b, url, n);
	buf_appendc(b, '|');
}

/* Sitemap: records, wherever they stand (before, inside and between
 * groups), any case, comments and white space around the URL dropped. */
static void test_robots_sitemaps(void **state)
{
	static const struct {
		const char *body, *want;
	} t[] = {
	    {"Sitemap: http://a/s.xml\n", "http://a/s.xml|"},
	    {"\xEF\xBB\xBFsitemap:http://a/1.xml\r\nUser-agent: *\nSITEMAP :  http://a/2.xml.gz  # gz\r"
	     "Disallow: /x\n\tSitemap:\thttp://a/3.xml\nSitemaps: http://a/no\nSitemap:\n"
	     "# Sitemap: http://a/commented\nSitemap: http://a/last",
		"http://a/1.xml|http://a/2.xml.gz|http://a/3.xml|http://a/last|"},
	    {"User-agent: *\nDisallow: /\n", ""},
	    {"Sitemap http://a/nocolon\n", ""},
	    {"", ""},
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct buf b = BUF_INIT;

		robots_sitemaps(t[i].body, strlen(t[i].body), test_robots_sitemaps_cb, &b);
		if (strcmp(b.data != NULL ? b.data : "", t[i].want) != 0)
			fail_msg(
			    "case %zu: got %s want %s", i, b.data != NULL ? b.data : "", t[i].want);
		buf_free(&b);
	}
	robots_sitemaps(NULL, 5, test_robots_sitemaps_cb, NULL);
}

static void test_robots_serialize(void **state)
{
	(void)state;
	test_robots_roundtrip_one("", 200);
	test_robots_roundtrip_one("User-agent: *\nDisallow: /\nAllow: /a\nCrawl-delay: 2.5\n", 200);
	test_robots_roundtrip_one(RFC_5_1, 200);
	test_robots_roundtrip_one("User-agent: tern\nDisallow: /*.gif$\nDisallow: /private\n"
				  "Allow: /private/ok\nDisallow: /%7Ea\n",
	    200);
	test_robots_roundtrip_one("", 503);
	test_robots_roundtrip_one("", 404);
	assert_null(robots_deserialize(NULL, 0));
	assert_null(robots_deserialize("TRB2\0\0\0\0\0\0\0\0\0\0\0\0\0", 17));
	/* Mode 2 does not exist. */
	assert_null(robots_deserialize("TRB1\2\377\377\377\377\377\377\377\377\0\0\0\0", 17));
	/* A delay below -1. */
	assert_null(robots_deserialize("TRB1\0\376\377\377\377\377\377\377\377\0\0\0\0", 17));
	/* A rule count larger than the data. */
	assert_null(robots_deserialize("TRB1\0\377\377\377\377\377\377\377\377\1\0\0\0", 17));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_robots_table),
	    cmocka_unit_test(test_robots_nul_bytes),
	    cmocka_unit_test(test_robots_empty_path),
	    cmocka_unit_test(test_robots_long_lines),
	    cmocka_unit_test(test_robots_size_cap),
	    cmocka_unit_test(test_robots_crawl_delay),
	    cmocka_unit_test(test_robots_from_fetch),
	    cmocka_unit_test(test_robots_agent_token),
	    cmocka_unit_test(test_robots_dedup_and_size),
	    cmocka_unit_test(test_robots_serialize),
	    cmocka_unit_test(test_robots_sitemaps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
