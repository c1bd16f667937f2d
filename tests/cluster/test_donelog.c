/* Each URI's last done record (src/cluster/donelog.c): what a compaction
 * keeps and what a replay re-creates revisits from. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cluster/donelog.h"

static void test_donelog_add(struct donelog *d, const char *uri, const char *rev)
{
	struct handoff_done r = {uri, (const unsigned char *)rev, rev != NULL ? strlen(rev) : 0};

	donelog_add(d, (uint64_t)uri[7], &r);
}

/* A compaction: every URI once, its last record, in the order of those
 * last records. */
static void test_donelog_plain(void **state)
{
	struct donelog *d = donelog_new(1);
	const char *text;
	size_t len;

	(void)state;
	test_donelog_add(d, "http://a/", NULL);
	test_donelog_add(d, "http://b/",
	    "\x02"
	    "b1");
	test_donelog_add(d, "http://c/", NULL);
	test_donelog_add(d, "http://b/",
	    "\x02"
	    "b2");
	test_donelog_add(d, "http://a/", NULL);
	assert_true(donelog_has(d, 'a'));
	assert_false(donelog_has(d, 'z'));
	assert_int_equal(donelog_count(d), 3);
	text = donelog_finish(d, &len);
	assert_int_equal(len, strlen(text));
	/* "\x02b2" in base64 is "AmIy". */
	assert_string_equal(text, "http://c/\nhttp://b/ AmIy\nhttp://a/\n");
	assert_int_equal(donelog_count(d), 3);
	donelog_free(d);
}

/* A replay: only URIs whose last record has a revisit. */
static void test_donelog_revisits(void **state)
{
	struct donelog *d = donelog_new(0);
	const char *text;
	size_t len;

	(void)state;
	test_donelog_add(d, "http://a/",
	    "\x02"
	    "a1");
	test_donelog_add(d, "http://b/", NULL);
	test_donelog_add(d, "http://a/",
	    "\x02"
	    "a2");
	test_donelog_add(d, "http://c/",
	    "\x02"
	    "c1");
	test_donelog_add(d, "http://c/", NULL);
	text = donelog_finish(d, &len);
	assert_string_equal(text, "http://a/ AmEy\n");
	donelog_free(d);
	d = donelog_new(0);
	text = donelog_finish(d, &len);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	donelog_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_donelog_plain),
	    cmocka_unit_test(test_donelog_revisits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
