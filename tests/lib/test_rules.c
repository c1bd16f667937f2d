/* lib/rules: each test matches what tern.conf(5) says it matches, the first
 * matching rule decides, bad rules are refused with a reason, and a
 * pattern that would backtrack for ever is cut off by PCRE2's limit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>
#include "lib/buf.h"
#include "lib/rules.h"
#include "lib/surt.h"
#include "lib/url.h"

/* A candidate as the scheduler builds it. */
struct test_rules_cand {
	struct buf surt;
	struct url_parts p;
	struct rules_uri u;
};

static void test_rules_cand(
    struct test_rules_cand *c, const char *uri, const char *hops, unsigned flags)
{
	const char *paren;

	memset(c, 0, sizeof *c);
	assert_int_equal(url_split(uri, &c->p), 0);
	assert_int_equal(surt_from_parts(uri, &c->p, 1, &c->surt), 0);
	paren = strchr(c->surt.data, '(');
	c->u.uri = uri;
	c->u.len = strlen(uri);
	c->u.surt = paren + 1;
	c->u.surt_len = c->surt.len - (size_t)(paren + 1 - c->surt.data);
	c->u.path = uri + c->p.path_off;
	c->u.path_len = c->p.path_len;
	c->u.hops = hops;
	c->u.flags = flags;
}

/* The index of the rule that decides uri, or -1. */
static int test_rules_decide(struct rules *r, const char *uri, const char *hops, unsigned flags)
{
	struct test_rules_cand c;
	int i;

	test_rules_cand(&c, uri, hops, flags);
	i = rules_match(r, &c.u);
	buf_free(&c.surt);
	return i;
}

static void test_rules_tests(void **state)
{
	static const struct {
		const char *rule, *uri, *hops;
		unsigned flags;
		int match;
	} cases[] = {
	    {"r regex [?&]replytocom=", "http://b.test/p/1/?replytocom=5#respond", "L", 0, 1},
	    {"r regex [?&]replytocom=", "http://b.test/p/1/?reply=5", "L", 0, 0},
	    {"r regex ^https?://[^/]+/wp-json/", "https://b.test/wp-json/wp/v2/posts", "L", 0, 1},
	    {"r regex ^https?://[^/]+/wp-json/", "https://b.test/a/wp-json/", "L", 0, 0},
	    {"r regex (?i)/CALENDAR/", "http://b.test/calendar/2024/", "L", 0, 1},
	    {"r regex /cal/\\d{4}-\\d{2}", "http://b.test/cal/2024-05/", "L", 0, 1},
	    {"r surt +http://(test,b,)/wp-", "https://b.test/wp-login.php", "L", 0, 1},
	    {"r surt (test,b,)/wp-", "http://b.test/wp-content/x.css", "E", 0, 1},
	    {"r surt (test,b,)/wp-", "http://b.test/about/", "L", 0, 0},
	    {"r surt http://(test,b,", "http://www.b.test/", "L", 0, 1},
	    {"r surt http://(test,b,", "http://c.test/", "L", 0, 0},
	    {"r surt http://b.test/docs/", "http://b.test/docs/a.html", "L", 0, 1},
	    {"r surt http://b.test/docs/", "http://b.test/doc.html", "L", 0, 0},
	    {"r hops ^L{3,}$", "http://b.test/x", "LLL", 0, 1},
	    {"r hops ^L{3,}$", "http://b.test/x", "LLE", 0, 0},
	    {"r hops RR", "http://b.test/x", "LRR", 0, 1},
	    {"r path-segments 3", "http://b.test/a/b/c", "L", 0, 0},
	    {"r path-segments 3", "http://b.test/a/b/c/d", "L", 0, 1},
	    {"r path-segments 3", "http://b.test/a/b/c?x=/y/z/w", "L", 0, 0},
	    {"r rel nofollow", "http://b.test/x", "L", RULES_NOFOLLOW, 1},
	    {"r rel nofollow", "http://b.test/x", "L", 0, 0},
	    {"r kind embed", "http://b.test/x.png", "LE", 0, 1},
	    {"r kind embed", "http://b.test/x", "EL", 0, 0},
	    {"r kind navigation", "http://b.test/x", "EL", 0, 1},
	    {"r kind navigation", "http://b.test/x", "LM", 0, 1},
	    {"r kind redirect", "http://b.test/x", "LR", 0, 1},
	    {"r kind speculative", "http://b.test/x", "LX", 0, 1},
	    {"r kind embed", "http://b.test/", "", 0, 0},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct rules *r = rules_new();
		char *err = NULL;

		if (rules_add(r, 0, cases[i].rule, &err) != 0)
			fail_msg("%s: %s", cases[i].rule, err);
		if (test_rules_decide(r, cases[i].uri, cases[i].hops, cases[i].flags) !=
		    (cases[i].match ? 0 : -1))
			fail_msg("%s on %s %s: want %d", cases[i].rule, cases[i].uri, cases[i].hops,
			    cases[i].match);
		rules_free(r);
	}
}

static void test_rules_first_decides(void **state)
{
	struct rules *r = rules_new();
	char *err = NULL;

	(void)state;
	assert_int_equal(rules_add(r, 1, "keep-feed surt (test,b,)/feed/main", &err), 0);
	assert_int_equal(rules_add(r, 0, "feeds regex /feed/", &err), 0);
	assert_int_equal(rules_add(r, 0, "deep hops LLLL", &err), 0);
	assert_int_equal(rules_count(r), 3);
	assert_int_equal(test_rules_decide(r, "http://b.test/feed/main", "LLLLL", 0), 0);
	assert_true(rules_accepts(r, 0));
	assert_int_equal(test_rules_decide(r, "http://b.test/p/feed/", "LLLLL", 0), 1);
	assert_false(rules_accepts(r, 1));
	assert_int_equal(test_rules_decide(r, "http://b.test/p/", "LLLLL", 0), 2);
	assert_int_equal(test_rules_decide(r, "http://b.test/p/", "LL", 0), -1);
	assert_string_equal(rules_name(r, 1), "feeds");
	assert_string_equal(rules_text(r, 1), "feeds regex /feed/");
	rules_hit(r, 1);
	rules_hit(r, 1);
	assert_int_equal(rules_hits(r, 1), 2);
	assert_int_equal(rules_set_hits(r, "deep", 40), 0);
	assert_int_equal(rules_hits(r, 2), 40);
	assert_int_equal(rules_set_hits(r, "gone", 1), -1);
	/* A name counts one rule's decisions: it is used once. */
	assert_int_equal(rules_add(r, 0, "feeds regex x", &err), -1);
	assert_non_null(strstr(err, "feeds"));
	free(err);
	rules_free(r);
}

static void test_rules_bad(void **state)
{
	static const struct {
		const char *rule, *says;
	} cases[] = {
	    {"", "expected NAME TEST ARGUMENT"},
	    {"lonely", "expected NAME TEST ARGUMENT"},
	    {"x regex", "expected NAME TEST ARGUMENT"},
	    {"x glob *.png", "unknown test \"glob\""},
	    {"x regex a(b", "rule x: bad regular expression at offset 3"},
	    {"x hops [L", "bad regular expression"},
	    {"x surt org,example", "neither a SURT prefix"},
	    {"x surt ftp://(org,", "not a SURT prefix"},
	    {"x path-segments many", "expected a number"},
	    {"x path-segments -1", "expected a number"},
	    {"x rel noopener", "only rel nofollow"},
	    {"x kind image", "expected navigation, embed"},
	    {"bad/name regex x", "use letters, digits"},
	    {"a123456789a123456789a123456789a123456789a123456789a123456789abcde regex x",
		"longer than 64"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *err = NULL;

		if (rules_check(cases[i].rule, &err) != -1)
			fail_msg("%s: accepted", cases[i].rule);
		if (strstr(err, cases[i].says) == NULL)
			fail_msg("%s: %s, want %s", cases[i].rule, err, cases[i].says);
		free(err);
	}
	{
		char *err = NULL;

		assert_int_equal(rules_check("ok regex [?&]p=\\d+$", &err), 0);
	}
}

/* (a+)+$ on a long run of a's followed by b backtracks exponentially: the
 * limit makes it a bounded no-match, counted. */
static void test_rules_limit(void **state)
{
	struct rules *r = rules_new();
	char uri[200];
	char *err = NULL;

	(void)state;
	memcpy(uri, "http://b.test/", 14);
	memset(uri + 14, 'a', 60);
	strcpy(uri + 74, "!");
	assert_int_equal(rules_add(r, 0, "slow regex ^http://b.test/(a|aa)+$", &err), 0);
	assert_int_equal(test_rules_decide(r, uri, "L", 0), -1);
	assert_int_equal(rules_limit_hits(r), 1);
	rules_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rules_tests),
	    cmocka_unit_test(test_rules_first_decides),
	    cmocka_unit_test(test_rules_bad),
	    cmocka_unit_test(test_rules_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
