/* Stream records (writer and strict parsers) and fingerprint sets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lib/buf.h"
#include "lib/handoff.h"

static void test_handoff_collect_url(void *ctx, const struct handoff_url *r)
{
	struct buf *b = ctx;

	buf_appendf(b, "[%u|%s|%s|%s]", r->flags, r->hops, r->uri, r->via ? r->via : "NULL");
}

static void test_handoff_collect_done(void *ctx, const char *uri)
{
	struct buf *b = ctx;

	buf_appendf(b, "[%s]", uri);
}

static void test_handoff_roundtrip(void **state)
{
	static const struct handoff_url recs[] = {
	    {1 | HANDOFF_FORCE, "", "http://h1.web.test/", NULL},
	    {0, "LLE", "http://h2.web.test/a?b=c%20d", "http://h1.web.test/"},
	    {0, "R", "https://x.example/#", "http://y.example/p"},
	};
	struct buf msg = BUF_INIT, got = BUF_INIT;
	char *err = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++)
		assert_int_equal(handoff_append_url(&msg, &recs[i]), 0);
	assert_string_equal(msg.data,
	    "257 - http://h1.web.test/ -\n"
	    "0 LLE http://h2.web.test/a?b=c%20d http://h1.web.test/\n"
	    "0 R https://x.example/# http://y.example/p\n");
	assert_int_equal(
	    handoff_parse_urls(msg.data, msg.len, test_handoff_collect_url, &got, &err), 0);
	assert_string_equal(got.data,
	    "[257||http://h1.web.test/|NULL]"
	    "[0|LLE|http://h2.web.test/a?b=c%20d|http://h1.web.test/]"
	    "[0|R|https://x.example/#|http://y.example/p]");

	buf_reset(&msg);
	buf_reset(&got);
	assert_int_equal(handoff_append_done(&msg, "http://a/"), 0);
	assert_int_equal(handoff_append_done(&msg, "http://b/c"), 0);
	assert_int_equal(
	    handoff_parse_done(msg.data, msg.len, test_handoff_collect_done, &got, &err), 0);
	assert_string_equal(got.data, "[http://a/][http://b/c]");
	assert_int_equal(handoff_parse_done(msg.data, 0, test_handoff_collect_done, &got, &err), 0);
	buf_free(&msg);
	buf_free(&got);
}

static void test_handoff_refuses(void **state)
{
	static const struct handoff_url bad[] = {
	    {0, "L", "http://a b/", NULL},
	    {0, "L", "", NULL},
	    {0, "L1", "http://a/", NULL},
	    {0, "L", "http://a/", "http://\x01/"},
	    {0x10000, "L", "http://a/", NULL},
	    {0, "L", "http://\xc3\xa9/", NULL},
	};
	static const struct {
		const char *in;
		const char *why;
	} urls[] = {
	    {"0 L http://a/ -", "record 1: no newline at its end"},
	    {"0 L http://a/\n", "record 1: fewer than 4 fields"},
	    {"0 L http://a/ - x\n", "record 1: more than 4 fields"},
	    {"x L http://a/ -\n", "record 1: bad flags"},
	    {"65536 L http://a/ -\n", "record 1: bad flags"},
	    {"1x L http://a/ -\n", "record 1: bad flags"},
	    {"0  http://a/ -\n", "record 1: bad hop path"},
	    {"0 Lx http://a/ -\n", "record 1: bad hop path"},
	    {"0 L  -\n", "record 1: bad URI"},
	    {"0 L http://a/ \n", "record 1: bad via"},
	    {"0 L http://a/ -\n0 L http://\x7f/ -\n", "record 2: bad URI"},
	    {"0 L http://a/ -\r\n", "record 1: bad via"},
	};
	struct buf msg = BUF_INIT, got = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (handoff_append_url(&msg, &bad[i]) != -1)
			fail_msg("bad record %zu written", i);
	assert_int_equal(handoff_append_done(&msg, "a b"), -1);
	assert_int_equal(msg.len, 0);
	for (i = 0; i < sizeof urls / sizeof urls[0]; i++) {
		char *copy = strdup(urls[i].in), *err = NULL;
		buf_reset(&got);
		if (handoff_parse_urls(copy, strlen(copy), test_handoff_collect_url, &got, &err) !=
			-1 ||
		    err == NULL || strcmp(err, urls[i].why) != 0)
			fail_msg(
			    "\"%s\": %s, want %s", urls[i].in, err ? err : "accepted", urls[i].why);
		/* Nothing of a bad record or after it reaches the caller. */
		if (i == 10)
			assert_string_equal(got.data, "[0|L|http://a/|NULL]");
		else
			assert_true(got.len == 0);
		free(err);
		free(copy);
	}
	{
		char in[] = "http://a/\nhttp://b c/\n", *err = NULL;
		buf_reset(&got);
		assert_int_equal(
		    handoff_parse_done(in, strlen(in), test_handoff_collect_done, &got, &err), -1);
		assert_string_equal(err, "record 2: bad URI");
		assert_string_equal(got.data, "[http://a/]");
		free(err);
	}
	buf_free(&msg);
	buf_free(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_handoff_roundtrip),
	    cmocka_unit_test(test_handoff_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
