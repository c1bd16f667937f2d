/* Table tests of canon_key: each of Heritrix's default rules alone and
 * together, and each switch of [canonicalize]; the session-id rules also
 * against Heritrix's regular expressions (POSIX regex) on random URIs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>
#include <cmocka.h>
#include "lib/canon.h"
#include "lib/config.h"
#include "lib/url.h"

#define SID32 "0123456789abcdef0123456789ABCDEF"

struct canon_case {
	const char *href;
	unsigned flags;
	const char *want;
};

static const struct canon_case canon_cases[] = {
    /* always: fragment and explicit default port dropped */
    {"http://h/a#frag", 0, "http://h/a"},
    {"http://h:80/a", 0, "http://h/a"},
    {"https://h:443/a", 0, "https://h/a"},
    {"http://h:8080/a", 0, "http://h:8080/a"},
    {"http://User@WWW.h.com/A?#f", 0, "http://User@WWW.h.com/A?"},
    /* LowercaseRule: the whole URI */
    {"http://h/A/B?C=D%2F", CANON_LOWERCASE, "http://h/a/b?c=d%2f"},
    /* StripUserinfoRule */
    {"http://u:p@h/x", CANON_STRIP_USERINFO, "http://h/x"},
    {"http://u@h:81/x", CANON_STRIP_USERINFO, "http://h:81/x"},
    /* StripWWWNRule: only with something after the first '/' */
    {"http://www.example.com/", CANON_STRIP_WWW, "http://www.example.com/"},
    {"http://www.example.com/a", CANON_STRIP_WWW, "http://example.com/a"},
    {"http://www.example.com/?x", CANON_STRIP_WWW, "http://example.com/?x"},
    {"http://www12.example.com/a", CANON_STRIP_WWW, "http://example.com/a"},
    {"https://www.example.com:8443/a", CANON_STRIP_WWW, "https://example.com:8443/a"},
    {"http://wwwx.example.com/a", CANON_STRIP_WWW, "http://wwwx.example.com/a"},
    {"http://www2example.com/a", CANON_STRIP_WWW, "http://www2example.com/a"},
    {"http://u@www.example.com/a", CANON_STRIP_WWW, "http://u@www.example.com/a"},
    {"http://u@www.example.com/a", CANON_STRIP_WWW | CANON_STRIP_USERINFO, "http://example.com/a"},
    /* StripSessionIDs */
    {"http://h/x;jsessionid=" SID32, CANON_STRIP_SESSION_IDS, "http://h/x;"},
    {"http://h/x?jsessionid=" SID32 "&a=b", CANON_STRIP_SESSION_IDS, "http://h/x?a=b"},
    {"http://h/x?a=b&PHPSESSID=" SID32, CANON_STRIP_SESSION_IDS, "http://h/x?a=b&"},
    {"http://h/x?sid=" SID32 "&y=1", CANON_STRIP_SESSION_IDS, "http://h/x?y=1"},
    {"http://h/x?jsessionid=" SID32 "0", CANON_STRIP_SESSION_IDS,
	"http://h/x?jsessionid=" SID32 "0"},
    {"http://h/x?jsessionid=0123456789", CANON_STRIP_SESSION_IDS,
	"http://h/x?jsessionid=0123456789"},
    {"http://h/x?ASPSESSIONIDAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNAM&z", CANON_STRIP_SESSION_IDS,
	"http://h/x?z"},
    {"http://h/x?ASPSESSIONIDAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNA1", CANON_STRIP_SESSION_IDS,
	"http://h/x?ASPSESSIONIDAQBSDSRT=EOHBLBDDPFCLHKPGGKLILNA1"},
    /* the last of two is the one removed, each pattern once */
    {"http://h/?sid=" SID32 "&sid=" SID32, CANON_STRIP_SESSION_IDS, "http://h/?sid=" SID32 "&"},
    /* StripSessionCFIDs */
    {"http://a.b.c/boo?CFID=1169580&CFTOKEN=48630702&dtstamp=22%2F08", CANON_STRIP_CFIDS,
	"http://a.b.c/boo?dtstamp=22%2F08"},
    {"http://a.b.c/boo?CFID=14475712&CFTOKEN=2D89F5AF-3048", CANON_STRIP_CFIDS,
	"http://a.b.c/boo?"},
    {"http://a.b.c/boo?CFID=1&x=1&CFTOKEN=2", CANON_STRIP_CFIDS,
	"http://a.b.c/boo?CFID=1&x=1&CFTOKEN=2"},
    /* FixupQueryString */
    {"http://h/x?", CANON_FIXUP_QUERY, "http://h/x"},
    {"http://h/x?&", CANON_FIXUP_QUERY, "http://h/x"},
    {"http://h/x?&a=1", CANON_FIXUP_QUERY, "http://h/x?a=1"},
    {"http://h/x?a=1&", CANON_FIXUP_QUERY, "http://h/x?a=1"},
    {"http://h/x?a=1&&", CANON_FIXUP_QUERY, "http://h/x?a=1&"},
    {"http://h/x?a?", CANON_FIXUP_QUERY, "http://h/x?a"},
    /* all together, in Heritrix's order */
    {"http://U:P@WWW.Example.com/A?PHPSESSID=" SID32 "#top", CANON_DEFAULT, "http://example.com/a"},
    {"https://www.example.com/?CFID=1&CFTOKEN=2&", CANON_DEFAULT, "https://example.com/"},
    {"http://www.example.com/#x", CANON_DEFAULT, "http://www.example.com/"},
};

static void test_canon_table(void **state)
{
	struct buf out = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(canon_cases) / sizeof(canon_cases[0]); i++) {
		const struct canon_case *c = &canon_cases[i];

		if (canon_key(c->href, c->flags, &out) != 0 || strcmp(out.data, c->want) != 0)
			fail_msg("case %zu: %s flags %u: got \"%s\", want \"%s\"", i, c->href,
			    c->flags, out.data ? out.data : "", c->want);
	}
	buf_free(&out);
}

static void test_canon_invalid(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	assert_int_equal(canon_key("ftp://h/", CANON_DEFAULT, &out), URL_EINVAL);
	assert_int_equal(canon_key("http://h", CANON_DEFAULT, &out), URL_EINVAL);
	assert_int_equal(canon_key("", CANON_DEFAULT, &out), URL_EINVAL);
	buf_free(&out);
}

/* Keys of URIs that url_resolve wrote from links that differ only in ways
 * the rules ignore are equal. */
static void test_canon_equivalent(void **state)
{
	static const char *const links[] = {
	    "http://WWW.Example.COM:80/Index.html#top",
	    "HTTP://user:pw@example.com/index.HTML?",
	    "http://www3.example.com/index.html?&",
	};
	struct buf href = BUF_INIT, key = BUF_INIT, first = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(url_resolve(NULL, links[i], strlen(links[i]), &href), 0);
		assert_int_equal(canon_key(href.data, CANON_DEFAULT, &key), 0);
		if (i == 0)
			buf_appends(&first, key.data);
		assert_string_equal(key.data, first.data);
	}
	assert_string_equal(first.data, "http://example.com/index.html");
	buf_free(&href);
	buf_free(&key);
	buf_free(&first);
}

static void test_canon_flags(void **state)
{
	struct config *c = config_new();
	char *err = NULL;

	(void)state;
	assert_int_equal(canon_flags(c), CANON_DEFAULT);
	assert_int_equal(config_set(c, "canonicalize.strip-www=false", &err), 0);
	assert_int_equal(config_set(c, "canonicalize.lowercase=false", &err), 0);
	assert_int_equal(canon_flags(c), CANON_DEFAULT & ~(CANON_STRIP_WWW | CANON_LOWERCASE));
	config_free(c);
	free(err);
}

/* Heritrix's StripSessionIDs and StripSessionCFIDs patterns, "^(.+)ID(&(.*))?$"
 * replaced by "$1$3", applied in canon_key's order. POSIX gives the first
 * group the longest match that lets the whole match, as Java's greedy
 * "(.+)" does. */
static void test_canon_regex_strip(const char *in, struct buf *out)
{
	static const char *const pat[] = {
	    "^(.+)((jsessionid|phpsessid)=[0-9a-z]{32})(&(.*))?$",
	    "^(.+)(sid=[0-9a-z]{32})(&(.*))?$",
	    "^(.+)(aspsessionid[a-z]{8}=[a-z]{24})(&(.*))?$",
	    "^(.+)(cfid=[^&]+&cftoken=[^&]+)(&(.*))?$",
	};
	char *cur = strdup(in);

	for (size_t k = 0; k < 4; k++) {
		regex_t re;
		regmatch_t m[6];
		int last = k == 0 ? 5 : 4;

		assert_int_equal(regcomp(&re, pat[k], REG_EXTENDED | REG_ICASE), 0);
		if (regexec(&re, cur, 6, m, 0) == 0) {
			struct buf b = BUF_INIT;

			buf_append(&b, cur, (size_t)m[1].rm_eo);
			if (m[last].rm_so >= 0)
				buf_append(&b, cur + m[last].rm_so,
				    (size_t)(m[last].rm_eo - m[last].rm_so));
			free(cur);
			cur = strdup(b.data ? b.data : "");
			buf_free(&b);
		}
		regfree(&re);
	}
	buf_reset(out);
	buf_appends(out, cur);
	free(cur);
}

/* Random URIs made of the pieces the patterns look for: canon_key's scans
 * (which only look before an '=') strip exactly what the expressions do. */
static void test_canon_session_random(void **state)
{
	static const char *const piece[] = {
	    "jsessionid=",
	    "JSESSIONID=",
	    "phpsessid=",
	    "sid=",
	    "SID=",
	    "ASPSESSIONIDABCDEFGH=",
	    "aspsessionidxyzw",
	    "cfid=",
	    "CFID=12",
	    "&cftoken=",
	    "&CFTOKEN=9",
	    SID32,
	    "0123456789abcdef",
	    "ABCDEFGHIJKLMNOPQRSTUVWX",
	    "abcdefghijklmnopqrstuvwx",
	    "&",
	    "&",
	    "?",
	    ";",
	    "=",
	    "a=b",
	    "x",
	    "1",
	    "/p",
	    "jsessionid=" SID32,
	    "phpsessid=" SID32,
	    "sid=" SID32,
	    "ASPSESSIONIDABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX",
	    "cfid=1&cftoken=2",
	};
	struct buf got = BUF_INIT, want = BUF_INIT, href = BUF_INIT;
	unsigned seed = 7;
	int i, j, n, stripped = 0;

	(void)state;
	for (i = 0; i < 4000; i++) {
		buf_reset(&href);
		buf_appends(&href, "http://h/");
		seed = seed * 1103515245u + 12345u;
		n = 1 + (int)((seed >> 16) % 9);
		for (j = 0; j < n; j++) {
			seed = seed * 1103515245u + 12345u;
			buf_appends(
			    &href, piece[(seed >> 16) % (sizeof(piece) / sizeof(piece[0]))]);
		}
		assert_int_equal(
		    canon_key(href.data, CANON_STRIP_SESSION_IDS | CANON_STRIP_CFIDS, &got), 0);
		test_canon_regex_strip(href.data, &want);
		if (strcmp(got.data, want.data) != 0)
			fail_msg(
			    "%s: canon_key %s, expressions %s", href.data, got.data, want.data);
		stripped += strcmp(got.data, href.data) != 0;
	}
	/* The pieces do make ids: a good share of the URIs lost one. */
	if (stripped < 1000)
		fail_msg("only %d of 4000 URIs lost an id", stripped);
	buf_free(&got);
	buf_free(&want);
	buf_free(&href);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_canon_table),
	    cmocka_unit_test(test_canon_invalid),
	    cmocka_unit_test(test_canon_equivalent),
	    cmocka_unit_test(test_canon_flags),
	    cmocka_unit_test(test_canon_session_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
