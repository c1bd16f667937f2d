/* Unit tests of src/crawl/scope.c: every rule of the scope sequence, its order,
 * the three scope modes, prefix list parsing and the calendar pattern. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/buf.h"
#include "crawl/scope.h"
#include "lib/surt.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

struct scope_case {
	const char *name;
	const char *scope;
	const char *seeds[3];
	const char *href;
	const char *hops;
	int is_seed;
	int verdict;
	/* Overrides of the defaults below when non-zero. */
	int max_hops;
	size_t max_uri_length;
	int max_path_repeats;
	size_t max_query_length;
};

#define SEED_WWW                                \
	{                                       \
		"http://www.example.org/", NULL \
	}
#define SEED_DIR                                           \
	{                                                  \
		"http://example.org/docs/index.html", NULL \
	}

static const struct scope_case scope_cases[] = {
    /* Seeds as SURT prefixes. */
    {"seed host", "seeds", SEED_WWW, "http://www.example.org/a/b", "L", 0, SCOPE_ACCEPT, 0, 0, 0,
	0},
    {"seed host over https", "seeds", SEED_WWW, "https://www.example.org/a", "L", 0, SCOPE_ACCEPT,
	0, 0, 0, 0},
    /* Heritrix keeps the ')' of a seed with a path: one host, one port. */
    {"seed host, other port", "seeds", SEED_WWW, "http://www.example.org:8080/a", "L", 0, SCOPE_OUT,
	0, 0, 0, 0},
    {"seed host, subdomain", "seeds", SEED_WWW, "http://img.www.example.org/a", "L", 0, SCOPE_OUT,
	0, 0, 0, 0},
    {"sibling host", "seeds", SEED_WWW, "http://example.org/a", "L", 0, SCOPE_OUT, 0, 0, 0, 0},
    {"other site", "seeds", SEED_WWW, "http://other.net/", "L", 0, SCOPE_OUT, 0, 0, 0, 0},
    {"look-alike label", "seeds", SEED_WWW, "http://www.example.org.evil.net/", "L", 0, SCOPE_OUT,
	0, 0, 0, 0},
    {"seed directory", "seeds", SEED_DIR, "http://example.org/docs/a/b.html", "LL", 0, SCOPE_ACCEPT,
	0, 0, 0, 0},
    {"outside the seed directory", "seeds", SEED_DIR, "http://example.org/blog/", "L", 0, SCOPE_OUT,
	0, 0, 0, 0},
    {"seed directory over https", "seeds", SEED_DIR, "https://example.org/docs/x", "L", 0,
	SCOPE_ACCEPT, 0, 0, 0, 0},
    {"seeds are always accepted", "seeds", SEED_WWW, "http://other.net/", "", 1, SCOPE_ACCEPT, 0, 0,
	0, 0},
    {"seed IP", "seeds", {"http://10.0.0.1/", NULL}, "http://10.0.0.1/a", "L", 0, SCOPE_ACCEPT, 0,
	0, 0, 0},
    {"seed IP is not a prefix of another IP", "seeds", {"http://10.0.0.1/", NULL},
	"http://10.0.0.10/a", "L", 0, SCOPE_OUT, 0, 0, 0, 0},
    {"two seeds", "seeds", {"http://a.example/", "http://b.example/x/", NULL},
	"http://b.example/x/y", "L", 0, SCOPE_ACCEPT, 0, 0, 0, 0},
    {"two seeds, outside both", "seeds", {"http://a.example/", "http://b.example/x/", NULL},
	"http://b.example/y", "L", 0, SCOPE_OUT, 0, 0, 0, 0},
    /* Registered domain of the seeds. */
    {"domain: sibling host", "domain", SEED_WWW, "http://example.org/a", "L", 0, SCOPE_ACCEPT, 0, 0,
	0, 0},
    {"domain: deep subdomain", "domain", SEED_WWW, "https://a.b.example.org/", "L", 0, SCOPE_ACCEPT,
	0, 0, 0, 0},
    {"domain: other domain", "domain", SEED_WWW, "http://example.net/", "L", 0, SCOPE_OUT, 0, 0, 0,
	0},
    {"domain: public suffix aware", "domain", {"http://www.example.co.uk/", NULL},
	"http://shop.example.co.uk/", "L", 0, SCOPE_ACCEPT, 0, 0, 0, 0},
    {"domain: not the whole suffix", "domain", {"http://www.example.co.uk/", NULL},
	"http://other.co.uk/", "L", 0, SCOPE_OUT, 0, 0, 0, 0},
    {"domain: IP seed", "domain", {"http://10.0.0.1:8080/", NULL}, "http://10.0.0.1/x", "L", 0,
	SCOPE_ACCEPT, 0, 0, 0, 0},
    {"domain: IP seed, longer IP", "domain", {"http://10.0.0.1/", NULL}, "http://10.0.0.12/x", "L",
	0, SCOPE_OUT, 0, 0, 0, 0},
    /* Explicit prefix lists; seeds add nothing. */
    {"list: open prefix", "+http://(org,example,", SEED_WWW, "http://cdn.example.org/x", "L", 0,
	SCOPE_ACCEPT, 0, 0, 0, 0},
    {"list: scheme-less prefix matches https", "(org,example,www,)/docs/", SEED_WWW,
	"https://www.example.org/docs/x", "L", 0, SCOPE_ACCEPT, 0, 0, 0, 0},
    {"list: seeds add nothing", "(org,example,www,)/docs/", SEED_WWW, "http://www.example.org/",
	"L", 0, SCOPE_OUT, 0, 0, 0, 0},
    {"list: comma separated", "+http://(org,example,www,)/a/,+http://(net,other,", SEED_WWW,
	"http://x.other.net/", "L", 0, SCOPE_ACCEPT, 0, 0, 0, 0},
    {"list: comma separated, first", "+http://(org,example,www,)/a/, (net,other,", SEED_WWW,
	"http://www.example.org/a/1", "L", 0, SCOPE_ACCEPT, 0, 0, 0, 0},
    {"list: URL entry", "http://example.org/docs/ http://example.net", SEED_WWW,
	"http://sub.example.net/x", "L", 0, SCOPE_ACCEPT, 0, 0, 0, 0},
    {"list: URL entry directory", "http://example.org/docs/ http://example.net", SEED_WWW,
	"http://example.org/other", "L", 0, SCOPE_OUT, 0, 0, 0, 0},
    {"list: uppercase prefix", "+HTTP://(ORG,EXAMPLE,", SEED_WWW, "http://www.example.org/", "L", 0,
	SCOPE_ACCEPT, 0, 0, 0, 0},
    /* Hops. */
    {"20 hops allowed", "seeds", SEED_WWW, "http://www.example.org/a", "LLLLLLLLLLLLLLLLLLLL", 0,
	SCOPE_ACCEPT, 0, 0, 0, 0},
    {"21 hops too many", "seeds", SEED_WWW, "http://www.example.org/a", "LLLLLLLLLLLLLLLLLLLLL", 0,
	SCOPE_TOO_MANY_HOPS, 0, 0, 0, 0},
    {"max-hops 0 allows only seeds", "seeds", SEED_WWW, "http://www.example.org/a", "L", 0,
	SCOPE_TOO_MANY_HOPS, -100, 0, 0, 0},
    {"max-hops negative is no limit", "seeds", SEED_WWW, "http://www.example.org/a",
	"LLLLLLLLLLLLLLLLLLLLLLLLLLLLLL", 0, SCOPE_ACCEPT, -1, 0, 0, 0},
    {"too many hops out of scope stays -4001", "seeds", SEED_WWW, "http://other.net/a",
	"LLLLLLLLLLLLLLLLLLLLL", 0, SCOPE_TOO_MANY_HOPS, 0, 0, 0, 0},
    /* Transitive hops. */
    {"off-site embed", "seeds", SEED_WWW, "http://cdn.net/a.png", "LE", 0, SCOPE_ACCEPT, 0, 0, 0,
	0},
    {"off-site embed of embed", "seeds", SEED_WWW, "http://cdn.net/a.png", "LEE", 0, SCOPE_ACCEPT,
	0, 0, 0, 0},
    {"three trans hops", "seeds", SEED_WWW, "http://cdn.net/a.png", "LERE", 0, SCOPE_OUT, 0, 0, 0,
	0},
    {"off-site redirect", "seeds", SEED_WWW, "http://other.net/", "LR", 0, SCOPE_ACCEPT, 0, 0, 0,
	0},
    {"off-site navigation", "seeds", SEED_WWW, "http://other.net/", "LEL", 0, SCOPE_OUT, 0, 0, 0,
	0},
    {"embed from a seed", "seeds", SEED_WWW, "http://cdn.net/a.css", "E", 0, SCOPE_ACCEPT, 0, 0, 0,
	0},
    {"one speculative hop", "seeds", SEED_WWW, "http://other.net/x.js", "LX", 0, SCOPE_ACCEPT, 0, 0,
	0, 0},
    {"two speculative hops", "seeds", SEED_WWW, "http://other.net/x.js", "LXX", 0, SCOPE_OUT, 0, 0,
	0, 0},
    {"embed past max-hops", "seeds", SEED_WWW, "http://www.example.org/a.png",
	"LLLLLLLLLLLLLLLLLLLLE", 0, SCOPE_ACCEPT, 0, 0, 0, 0},
    {"manifest hop is navigational", "seeds", SEED_WWW, "http://other.net/", "LM", 0, SCOPE_OUT, 0,
	0, 0, 0},
    {"prerequisite", "seeds", SEED_WWW, "http://other.net/robots.txt", "LP", 0, SCOPE_ACCEPT, 0, 0,
	0, 0},
    /* URI length. */
    {"URI at the length limit", "seeds", SEED_WWW, "http://www.example.org/0123456789", "L", 0,
	SCOPE_ACCEPT, 0, 33, 0, 0},
    {"URI over the length limit", "seeds", SEED_WWW, "http://www.example.org/0123456789x", "L", 0,
	SCOPE_TOO_LONG, 0, 33, 0, 0},
    {"long URI refused before scope", "seeds", SEED_WWW, "http://cdn.net/0123456789xyz", "LE", 0,
	SCOPE_TOO_LONG, 0, 20, 0, 0},
    {"not http", "seeds", SEED_WWW, "ftp://www.example.org/", "L", 0, SCOPE_UNFETCHABLE, 0, 0, 0,
	0},
    {"not a URL", "seeds", SEED_WWW, "www.example.org/a", "L", 0, SCOPE_UNFETCHABLE, 0, 0, 0, 0},
    /* Traps. */
    {"two repeats allowed", "seeds", SEED_WWW, "http://www.example.org/a/a/b", "L", 0, SCOPE_ACCEPT,
	0, 0, 0, 0},
    {"three repeats", "seeds", SEED_WWW, "http://www.example.org/a/a/a/", "L", 0, SCOPE_TRAP, 0, 0,
	0, 0},
    {"three repeats, more after", "seeds", SEED_WWW, "http://www.example.org/x/a/a/a/b.html", "L",
	0, SCOPE_TRAP, 0, 0, 0, 0},
    {"last segment has no slash", "seeds", SEED_WWW, "http://www.example.org/a/a/a", "L", 0,
	SCOPE_ACCEPT, 0, 0, 0, 0},
    {"repeats not consecutive", "seeds", SEED_WWW, "http://www.example.org/a/b/a/c/a/", "L", 0,
	SCOPE_ACCEPT, 0, 0, 0, 0},
    {"two-segment unit", "seeds", SEED_WWW, "http://www.example.org/a/b/a/b/a/b/", "L", 0,
	SCOPE_TRAP, 0, 0, 0, 0},
    {"two-segment unit twice", "seeds", SEED_WWW, "http://www.example.org/a/b/a/b/c/", "L", 0,
	SCOPE_ACCEPT, 0, 0, 0, 0},
    {"empty segments", "seeds", SEED_WWW, "http://www.example.org/x////", "L", 0, SCOPE_TRAP, 0, 0,
	0, 0},
    {"repeats in the query do not count", "seeds", SEED_WWW, "http://www.example.org/p?x=/a/a/a/",
	"L", 0, SCOPE_ACCEPT, 0, 0, 0, 0},
    {"trap beats transclusion", "seeds", SEED_WWW, "http://cdn.net/a/a/a/x.png", "LE", 0,
	SCOPE_TRAP, 0, 0, 0, 0},
    {"repeat limit 1", "seeds", SEED_WWW, "http://www.example.org/a/a/", "L", 0, SCOPE_TRAP, 0, 0,
	1, 0},
    {"repeat check off", "seeds", SEED_WWW, "http://www.example.org/a/a/a/a/", "L", 0, SCOPE_ACCEPT,
	0, 0, -1, 0},
    {"query at the limit", "seeds", SEED_WWW, "http://www.example.org/p?0123456789", "L", 0,
	SCOPE_ACCEPT, 0, 0, 0, 10},
    {"query over the limit", "seeds", SEED_WWW, "http://www.example.org/p?0123456789a", "L", 0,
	SCOPE_TRAP, 0, 0, 0, 10},
    {"prerequisite beats trap", "seeds", SEED_WWW, "http://www.example.org/a/a/a/robots.txt", "LP",
	0, SCOPE_ACCEPT, 0, 0, 0, 0},
};

static struct scope *test_scope_make(const struct scope_case *c)
{
	struct scope_opts o = {
	    .scope = c->scope,
	    .max_hops = c->max_hops == -100 ? 0
		: c->max_hops		    ? c->max_hops
					    : 20,
	    .max_trans_hops = 2,
	    .max_uri_length = c->max_uri_length ? c->max_uri_length : 2083,
	    .max_path_repeats = c->max_path_repeats ? c->max_path_repeats : 2,
	    .max_query_length = c->max_query_length,
	};
	struct scope *s = scope_new(&o);
	size_t i;

	if (s == NULL)
		fail_msg("case \"%s\": scope \"%s\" refused", c->name, c->scope);
	for (i = 0; c->seeds[i] != NULL; i++)
		assert_int_equal(scope_add_seed(s, c->seeds[i]), 0);
	return s;
}

static void test_scope_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(scope_cases) / sizeof(scope_cases[0]); i++) {
		const struct scope_case *c = &scope_cases[i];
		struct scope *s = test_scope_make(c);
		int got = scope_check(s, c->href, c->hops, c->is_seed);

		if (got != c->verdict)
			fail_msg("case \"%s\": %s via %s is %d, expected %d", c->name, c->href,
			    c->hops, got, c->verdict);
		scope_free(s);
	}
}

static void test_scope_bad_lists(void **state)
{
	static const char *const bad[] = {"ftp://example.org/", "+ftp://(org,example,", "http://(",
	    "+", ",", "(org,example, +https://("};
	struct scope_opts o = {.max_hops = 20, .max_trans_hops = 2};
	char *err = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.scope = bad[i];
		if (scope_new(&o) != NULL)
			fail_msg("scope \"%s\" accepted", bad[i]);
		assert_int_equal(scope_validate(bad[i], &err), -1);
		assert_non_null(err);
		free(err);
		err = NULL;
	}
	assert_int_equal(scope_validate("seeds", &err), 0);
	assert_int_equal(scope_validate("domain", &err), 0);
	assert_int_equal(scope_validate("+http://(org,example, (net,other,)/x/", &err), 0);
	assert_null(err);
}

static void test_scope_seeds(void **state)
{
	struct scope_opts o = {.scope = "seeds", .max_hops = 20, .max_trans_hops = 2};
	struct scope *s = scope_new(&o);
	struct buf b = BUF_INIT;
	int i;

	(void)state;
	assert_int_equal(scope_add_seed(s, "ftp://example.org/"), -1);
	assert_int_equal(scope_add_seed(s, "not a url"), -1);
	assert_int_equal(scope_prefix_count(s), 0);
	/* Duplicates are kept once; many seeds stay fast to check. */
	assert_int_equal(scope_add_seed(s, "http://example.org/"), 0);
	assert_int_equal(scope_add_seed(s, "https://example.org/"), 0);
	assert_int_equal(scope_prefix_count(s), 1);
	for (i = 0; i < 5000; i++) {
		buf_reset(&b);
		buf_appendf(&b, "http://host%d.example.net/dir%d/", i, i);
		assert_int_equal(scope_add_seed(s, b.data), 0);
	}
	assert_int_equal(scope_prefix_count(s), 5001);
	assert_int_equal(
	    scope_check(s, "http://host4999.example.net/dir4999/x", "L", 0), SCOPE_ACCEPT);
	assert_int_equal(
	    scope_check(s, "http://host4999.example.net/dir4998/x", "L", 0), SCOPE_OUT);
	assert_int_equal(scope_check(s, "http://example.org/anything", "L", 0), SCOPE_ACCEPT);
	/* A check with no hop path at all is a seed-level URI: the hop rules
	 * do not apply. */
	assert_int_equal(scope_check(s, "http://other.org/", NULL, 0), SCOPE_OUT);
	buf_free(&b);
	scope_free(s);
}

/* What a seed's redirect target is judged by (crawl/outlinks.c): with no
 * hop path, the prefixes alone; out of them it becomes a seed, whose
 * prefix then takes it in. An http -> https redirect on the seed's host
 * stays in (SURT prefixes take both schemes), bare name -> www. does not
 * under seeds but does under domain; an explicit list never grows. */
static void test_scope_seed_redirect(void **state)
{
	struct scope_opts o = {.scope = "seeds", .max_hops = 20, .max_trans_hops = 2};
	struct scope *s = scope_new(&o);

	(void)state;
	assert_int_equal(scope_seeds_widen(s), 1);
	assert_int_equal(scope_add_seed(s, "http://web.test/"), 0);
	assert_int_equal(scope_check(s, "https://web.test/", "", 0), SCOPE_ACCEPT);
	assert_int_equal(scope_check(s, "http://www.web.test/", "", 0), SCOPE_OUT);
	/* The transclusion rule would take the target itself (hop R), not
	 * its links. */
	assert_int_equal(scope_check(s, "http://www.web.test/", "R", 0), SCOPE_ACCEPT);
	assert_int_equal(scope_check(s, "http://www.web.test/p/1.html", "RL", 0), SCOPE_OUT);
	assert_int_equal(scope_add_seed(s, "http://www.web.test/"), 0);
	assert_int_equal(scope_check(s, "http://www.web.test/p/1.html", "RL", 0), SCOPE_ACCEPT);
	assert_int_equal(scope_check(s, "https://www.web.test:8443/", "", 0), SCOPE_OUT);
	scope_free(s);

	o.scope = "domain";
	s = scope_new(&o);
	assert_int_equal(scope_seeds_widen(s), 1);
	assert_int_equal(scope_add_seed(s, "http://web.test/"), 0);
	assert_int_equal(scope_check(s, "https://www.web.test/", "", 0), SCOPE_ACCEPT);
	assert_int_equal(scope_check(s, "http://web.example/", "", 0), SCOPE_OUT);
	scope_free(s);

	o.scope = "http://(test,web,)/";
	s = scope_new(&o);
	assert_int_equal(scope_seeds_widen(s), 0);
	scope_free(s);
}

struct scope_plain_case {
	const char *scope;
	const char *seed;
	const char *href;
	int verdict;
};

static void test_scope_plain_seeds(void **state)
{
	static const struct scope_plain_case cases[] = {
	    {"seeds", "example.org", "http://www.example.org/a", SCOPE_ACCEPT},
	    {"seeds", "example.org", "https://example.org:8443/a", SCOPE_ACCEPT},
	    {"seeds", "example.org", "http://example.net/", SCOPE_OUT},
	    {"seeds", "http://example.org/", "http://www.example.org/", SCOPE_OUT},
	    {"seeds", "https://example.org/docs/", "http://example.org/docs/x", SCOPE_ACCEPT},
	    {"seeds", "https://example.org/docs/", "http://example.org/doc", SCOPE_OUT},
	    {"seeds", "10.0.0.1", "http://10.0.0.1:81/", SCOPE_ACCEPT},
	    {"seeds", "10.0.0.1", "http://10.0.0.11/", SCOPE_OUT},
	    {"domain", "www.example.co.uk", "http://shop.example.co.uk/", SCOPE_ACCEPT},
	    {"domain", "https://www.example.co.uk", "http://example.co.uk/", SCOPE_ACCEPT},
	    {"domain", "www.example.co.uk", "http://co.uk/", SCOPE_OUT},
	    {"domain", "http://[::1]:8080/", "http://[::1]:8080/x", SCOPE_ACCEPT},
	    {"(net,other,", "example.org", "http://example.org/", SCOPE_OUT},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scope_opts o = {
		    .scope = cases[i].scope, .max_hops = 20, .max_trans_hops = 2};
		struct scope *s = scope_new(&o);
		int got;

		assert_non_null(s);
		assert_int_equal(scope_add_seed_plain(s, cases[i].seed, strlen(cases[i].seed)), 0);
		got = scope_check(s, cases[i].href, "L", 0);
		scope_free(s);
		if (got != cases[i].verdict)
			fail_msg("%s seed %s: %s is %d, expected %d", cases[i].scope, cases[i].seed,
			    cases[i].href, got, cases[i].verdict);
	}
}

static void test_scope_long_paths(void **state)
{
	struct scope_opts o = {
	    .scope = "seeds", .max_hops = 20, .max_trans_hops = 2, .max_path_repeats = 2};
	struct scope *s = scope_new(&o);
	struct buf b = BUF_INIT;
	int i;

	(void)state;
	assert_int_equal(scope_add_seed(s, "http://example.org/"), 0);
	/* Thousands of distinct segments: no trap, and no limit on length. */
	buf_appends(&b, "http://example.org/");
	for (i = 0; i < 3000; i++)
		buf_appendf(&b, "s%d/", i);
	assert_int_equal(scope_check(s, b.data, "L", 0), SCOPE_ACCEPT);
	/* The same with a unit of 8 segments repeated three times at the end. */
	for (i = 0; i < 3; i++)
		buf_appends(&b, "a/b/c/d/e/f/g/h/");
	assert_int_equal(scope_check(s, b.data, "L", 0), SCOPE_TRAP);
	buf_free(&b);
	scope_free(s);
}

/* Each refusal has its reason, and the reason names the setting that
 * changes it (tern(1), DROPPED URIS). */
static void test_scope_why(void **state)
{
	static const struct {
		const char *href, *hops;
		enum scope_why want;
		int verdict;
	} cases[] = {
	    {"http://example.org/a", "L", SCOPE_WHY_ACCEPT, SCOPE_ACCEPT},
	    {"http://other.org/a", "L", SCOPE_WHY_OUT, SCOPE_OUT},
	    {"http://example.org/a", "LLLL", SCOPE_WHY_HOPS, SCOPE_TOO_MANY_HOPS},
	    {"http://other.org/a.png", "LLLE", SCOPE_WHY_ACCEPT, SCOPE_ACCEPT},
	    {"http://example.org/a/a/a/", "L", SCOPE_WHY_PATH_REPEATS, SCOPE_TRAP},
	    {"http://example.org/a?q=0123456789", "L", SCOPE_WHY_QUERY_LENGTH, SCOPE_TRAP},
	    {"http://example.org/0123456789012345678901234567890123456789", "L",
		SCOPE_WHY_URI_LENGTH, SCOPE_TOO_LONG},
	};
	struct scope_opts o = {.scope = "seeds",
	    .max_hops = 3,
	    .max_trans_hops = 2,
	    .max_uri_length = 50,
	    .max_path_repeats = 2,
	    .max_query_length = 8};
	struct scope *s = scope_new(&o);

	(void)state;
	assert_int_equal(scope_add_seed(s, "http://example.org/"), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct url_parts p;
		struct buf surt = BUF_INIT;
		const char *h = cases[i].href;

		assert_int_equal(url_split(h, &p), 0);
		assert_int_equal(surt_from_parts(h, &p, 1, &surt), 0);
		assert_int_equal(
		    scope_judge_parsed(s, h, strlen(h), &p, surt.data, surt.len, cases[i].hops),
		    cases[i].want);
		assert_int_equal(scope_check(s, h, cases[i].hops, 0), cases[i].verdict);
		buf_free(&surt);
	}
	for (int w = SCOPE_WHY_ACCEPT + 1; w < SCOPE_WHY_COUNT; w++) {
		assert_true(strlen(scope_why_word(w)) > 0);
		assert_true(strlen(scope_why_label(w)) > 0);
		assert_true(strlen(scope_why_setting(w)) > 0);
	}
	assert_string_equal(scope_why_setting(SCOPE_WHY_HOPS), "crawl.max-hops");
	scope_free(s);
}

static void test_scope_calendar(void **state)
{
	static const struct {
		const char *href;
		int like;
	} cases[] = {
	    {"http://example.org/calendar/", 1},
	    {"http://example.org/Events?id=1", 1},
	    {"http://example.org/x?yr=2001", 1},
	    {"http://example.org/archive/2019/03/", 1},
	    {"http://example.org/a-1999-b", 1},
	    {"http://example.org/p?d=20230", 0},
	    {"http://example.org/p/120011", 0},
	    {"http://example.org/index.html", 0},
	    {"http://example.org/agenda?jour=3", 1},
	    {"http://example.org/today", 1},
	    {"http://example.org/x/2020", 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (scope_calendar_like(cases[i].href) != cases[i].like)
			fail_msg("%s: expected %d", cases[i].href, cases[i].like);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scope_table),
	    cmocka_unit_test(test_scope_bad_lists),
	    cmocka_unit_test(test_scope_seeds),
	    cmocka_unit_test(test_scope_seed_redirect),
	    cmocka_unit_test(test_scope_long_paths),
	    cmocka_unit_test(test_scope_plain_seeds),
	    cmocka_unit_test(test_scope_calendar),
	    cmocka_unit_test(test_scope_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
