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

	buf_appendf(b, "[%u|%s|%s|%s", r->flags, r->hops, r->uri, r->via ? r->via : "NULL");
	if (r->interval_s != 0 || r->precedence != 0)
		buf_appendf(b, "|%lld:%d", (long long)r->interval_s, r->precedence);
	buf_appendc(b, ']');
}

static void test_handoff_collect_done(void *ctx, const struct handoff_done *d)
{
	struct buf *b = ctx;

	buf_appendf(b, "[%s", d->uri);
	if (d->revisit != NULL) {
		buf_appendc(b, '|');
		buf_append(b, d->revisit, d->revisit_len);
	}
	buf_appendc(b, ']');
}

static void test_handoff_same_revisit(void *ctx, const struct handoff_done *d)
{
	const struct handoff_done *want = ctx;

	assert_string_equal(d->uri, want->uri);
	assert_int_equal(d->revisit_len, want->revisit_len);
	assert_memory_equal(d->revisit, want->revisit, d->revisit_len);
}

static void test_handoff_collect_seed(void *ctx, const char *uri, int guarded)
{
	struct buf *b = ctx;

	buf_appendf(b, "[%s%s]", uri, guarded ? " guarded" : "");
}

static void test_handoff_roundtrip(void **state)
{
	static const struct handoff_url recs[] = {
	    {1 | HANDOFF_FORCE, "", "http://h1.web.test/", NULL, 0, 0},
	    {0, "LLE", "http://h2.web.test/a?b=c%20d", "http://h1.web.test/", 0, 0},
	    {0, "R", "https://x.example/#", "http://y.example/p", 0, 0},
	    {0, "L", "http://h3.web.test/s", "http://h3.web.test/sitemap.xml", 3600, 6},
	    {0, "L", "http://h3.web.test/t", "http://h3.web.test/sitemap.xml", 0, 11},
	};
	struct buf msg = BUF_INIT, got = BUF_INIT;
	char *err = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++)
		assert_int_equal(handoff_append_url(&msg, &recs[i]), 0);
	assert_string_equal(msg.data,
	    "257 - http://h1.web.test/ -\n"
	    "0 LLE http://h2.web.test/a?b=c%20d http://h1.web.test/\n"
	    "0 R https://x.example/# http://y.example/p\n"
	    "0 L http://h3.web.test/s http://h3.web.test/sitemap.xml 3600:6\n"
	    "0 L http://h3.web.test/t http://h3.web.test/sitemap.xml 0:11\n");
	assert_int_equal(
	    handoff_parse_urls(msg.data, msg.len, test_handoff_collect_url, &got, &err), 0);
	assert_string_equal(got.data,
	    "[257||http://h1.web.test/|NULL]"
	    "[0|LLE|http://h2.web.test/a?b=c%20d|http://h1.web.test/]"
	    "[0|R|https://x.example/#|http://y.example/p]"
	    "[0|L|http://h3.web.test/s|http://h3.web.test/sitemap.xml|3600:6]"
	    "[0|L|http://h3.web.test/t|http://h3.web.test/sitemap.xml|0:11]");

	buf_reset(&msg);
	buf_reset(&got);
	{
		struct handoff_done a = {"http://a/", NULL, 0}, b = {"http://b/c", NULL, 0};
		struct handoff_done r1 = {"http://r/", (const unsigned char *)"\x02x", 2};
		struct handoff_done r2 = {"http://r/2", (const unsigned char *)"\x02\x01\xff", 3};
		struct handoff_done r3 = {"http://r/3",
		    (const unsigned char *)"\x02"
					   "abc",
		    4};
		assert_int_equal(handoff_append_done(&msg, &a), 0);
		assert_int_equal(handoff_append_done(&msg, &b), 0);
		assert_int_equal(handoff_append_done(&msg, &r1), 0);
		assert_int_equal(handoff_append_done(&msg, &r2), 0);
		assert_int_equal(handoff_append_done(&msg, &r3), 0);
	}
	assert_string_equal(msg.data,
	    "http://a/\nhttp://b/c\nhttp://r/ Ang=\nhttp://r/2 AgH/\nhttp://r/3 AmFiYw==\n");
	assert_int_equal(
	    handoff_parse_done(msg.data, msg.len, test_handoff_collect_done, &got, &err), 0);
	assert_string_equal(got.data,
	    "[http://a/][http://b/c][http://r/|\x02x]"
	    "[http://r/2|\x02\x01\xff][http://r/3|\x02"
	    "abc]");
	assert_int_equal(handoff_parse_done(msg.data, 0, test_handoff_collect_done, &got, &err), 0);
	/* Every length and byte value goes through base64 and back. */
	for (i = 1; i <= 300; i++) {
		unsigned char raw[300];
		struct handoff_done d = {"http://z/", raw, i};
		size_t k;
		for (k = 0; k < i; k++)
			raw[k] = (unsigned char)(k * 37 + i * 11);
		buf_reset(&msg);
		buf_reset(&got);
		assert_int_equal(handoff_append_done(&msg, &d), 0);
		assert_int_equal(msg.len, 10 + (i + 2) / 3 * 4 + 1);
		assert_int_equal(
		    handoff_parse_done(msg.data, msg.len, test_handoff_same_revisit, &d, &err), 0);
	}
	buf_reset(&msg);
	buf_reset(&got);
	assert_int_equal(handoff_append_seed(&msg, "http://s/", 0), 0);
	assert_int_equal(handoff_append_seed(&msg, "http://www.s/", 1), 0);
	assert_string_equal(msg.data, "http://s/\nhttp://www.s/ guarded\n");
	assert_int_equal(
	    handoff_parse_seeds(msg.data, msg.len, test_handoff_collect_seed, &got, &err), 0);
	assert_string_equal(got.data, "[http://s/][http://www.s/ guarded]");
	buf_free(&msg);
	buf_free(&got);
}

static void test_handoff_refuses(void **state)
{
	static const struct handoff_url bad[] = {
	    {0, "L", "http://a b/", NULL, 0, 0},
	    {0, "L", "", NULL, 0, 0},
	    {0, "L1", "http://a/", NULL, 0, 0},
	    {0, "L", "http://a/", "http://\x01/", 0, 0},
	    {0x10000, "L", "http://a/", NULL, 0, 0},
	    {0, "L", "http://\xc3\xa9/", NULL, 0, 0},
	    {0, "L", "http://a/", NULL, -1, 0},
	    {0, "L", "http://a/", NULL, 0, -1},
	    {0, "L", "http://a/", NULL, HANDOFF_INTERVAL_MAX + 1, 0},
	};
	static const struct {
		const char *in;
		const char *why;
	} urls[] = {
	    {"0 L http://a/ -", "record 1: no newline at its end"},
	    {"0 L http://a/\n", "record 1: fewer than 4 fields"},
	    {"0 L http://a/ - x\n", "record 1: bad hint"},
	    {"0 L http://a/ - 1:2 x\n", "record 1: more than 5 fields"},
	    {"0 L http://a/ - 0:0\n", "record 1: bad hint"},
	    {"0 L http://a/ - 01:2\n", "record 1: bad hint"},
	    {"0 L http://a/ - 1:\n", "record 1: bad hint"},
	    {"0 L http://a/ - :1\n", "record 1: bad hint"},
	    {"0 L http://a/ - 1:-2\n", "record 1: bad hint"},
	    {"0 L http://a/ - 1:2000000\n", "record 1: bad hint"},
	    {"0 L http://a/ - 99999999999:1\n", "record 1: bad hint"},
	    {"0 L http://a/ - \n", "record 1: bad hint"},
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
	{
		struct handoff_done d = {"a b", NULL, 0};
		assert_int_equal(handoff_append_done(&msg, &d), -1);
		d.uri = "http://a/";
		d.revisit = (const unsigned char *)"";
		assert_int_equal(handoff_append_done(&msg, &d), -1);
	}
	assert_int_equal(handoff_append_seed(&msg, "a b", 0), -1);
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
		if (i == 19)
			assert_string_equal(got.data, "[0|L|http://a/|NULL]");
		else
			assert_true(got.len == 0);
		free(err);
		free(copy);
	}
	{
		char in[] = "http://a/\nhttp://b\x7f/\n", *err = NULL;
		buf_reset(&got);
		assert_int_equal(
		    handoff_parse_done(in, strlen(in), test_handoff_collect_done, &got, &err), -1);
		assert_string_equal(err, "record 2: bad URI");
		assert_string_equal(got.data, "[http://a/]");
		free(err);
	}
	{
		static const char *bad_done[] = {
		    "http://a/ \n",
		    "http://a/ Ang\n",
		    "http://a/ Anh=\n",
		    "http://a/ A=ng\n",
		    "http://a/ Ang= x\n",
		    "http://a/ ====\n",
		    "http://a/ An\x01=\n",
		};
		for (i = 0; i < sizeof bad_done / sizeof bad_done[0]; i++) {
			char *copy = strdup(bad_done[i]), *err = NULL;
			buf_reset(&got);
			if (handoff_parse_done(
				copy, strlen(copy), test_handoff_collect_done, &got, &err) != -1 ||
			    err == NULL || strcmp(err, "record 1: bad revisit record") != 0)
				fail_msg("\"%s\": %s", bad_done[i], err ? err : "accepted");
			assert_true(got.len == 0);
			free(err);
			free(copy);
		}
	}
	{
		static const char *const bad_seed[] = {
		    "http://a/ Ang=\n",
		    "http://a/ guarded \n",
		    "http://a/ guardedx\n",
		    "http://a/  guarded\n",
		    " guarded\n",
		    "http://a/ GUARDED\n",
		};
		for (i = 0; i < sizeof bad_seed / sizeof bad_seed[0]; i++) {
			char *copy = strdup(bad_seed[i]), *err = NULL;
			buf_reset(&got);
			if (handoff_parse_seeds(
				copy, strlen(copy), test_handoff_collect_seed, &got, &err) != -1)
				fail_msg("\"%s\": accepted", bad_seed[i]);
			assert_true(got.len == 0);
			free(err);
			free(copy);
		}
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
