/* lib/nearest: the distance counts edits (a swap of neighbours is one), and
 * the word suggested is the one a person meant, or none. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "lib/nearest.h"

static void test_nearest_distance(void **state)
{
	static const struct {
		const char *a, *b;
		size_t d;
	} cases[] = {
	    {"", "", 0},
	    {"abc", "", 3},
	    {"", "abc", 3},
	    {"kitten", "sitting", 3},
	    {"crawl.max-page", "crawl.max-pages", 1},
	    {"paues", "pause", 1}, /* a transposition is one edit */
	    {"Status", "status", 0},
	    {"stats", "status", 1},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(nearest_distance(cases[i].a, cases[i].b), cases[i].d);
		assert_int_equal(nearest_distance(cases[i].b, cases[i].a), cases[i].d);
	}
}

static void test_nearest_word(void **state)
{
	static const char *const keys[] = {"crawl.max-pages", "crawl.max-bytes", "crawl.max-hops",
	    "politeness.min-delay-ms", "fetch.max-length-bytes", "crawl.scope"};
	static const char *const cmds[] = {"crawl", "resume", "report", "ctl", "fetch", "wacz",
	    "console", "warc-index", "precedence-load"};
	static const struct {
		const char *word;
		const char *const *words;
		size_t n;
		const char *want;
	} cases[] = {
	    {"crawl.max-page", keys, 6, "crawl.max-pages"},
	    {"crawl.maxpages", keys, 6, "crawl.max-pages"},
	    {"politeness.min-delay", keys, 6, "politeness.min-delay-ms"}, /* a prefix */
	    {"min-delay-ms", keys, 6, "politeness.min-delay-ms"},	  /* no section */
	    {"crawl.skope", keys, 6, "crawl.scope"},
	    {"crawl.zzzzzzzz", keys, 6, NULL},
	    {"resum", cmds, 9, "resume"},
	    {"crwal", cmds, 9, "crawl"},
	    {"wazc", cmds, 9, "wacz"},
	    {"x", cmds, 9, NULL},
	    {"", cmds, 9, NULL},
	    {"frobnicate", cmds, 9, NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = nearest_word(cases[i].word, cases[i].words, cases[i].n);
		if (cases[i].want == NULL)
			assert_null(got);
		else
			assert_string_equal(got != NULL ? got : "(none)", cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nearest_distance),
	    cmocka_unit_test(test_nearest_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
