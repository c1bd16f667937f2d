/* Partitions: hosts of one registered domain share one; the spread over
 * partitions is even; the target per node covers every partition. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "lib/buf.h"
#include "lib/partition.h"

static void test_partition_same_domain(void **state)
{
	static const struct {
		const char *a, *b;
	} same[] = {
	    {"http://www.example.com/", "https://example.com:8443/x?y"},
	    {"http://a.b.example.co.uk/", "http://example.co.uk/"},
	    {"http://h1.web.test:8080/p/1.html", "http://h1.web.test/"},
	    {"http://127.0.0.1:9/", "http://127.0.0.1/a"},
	    {"http://[::1]/", "http://[::1]:80/b"},
	};
	struct buf s = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof same / sizeof same[0]; i++) {
		int a = partition_of_url(same[i].a, 64, PARTITION_BY_DOMAIN, 0, &s);
		int b = partition_of_url(same[i].b, 64, PARTITION_BY_DOMAIN, 0, &s);
		if (a < 0 || a >= 64 || a != b)
			fail_msg("%s -> %d, %s -> %d", same[i].a, a, same[i].b, b);
	}
	assert_int_equal(partition_of_url("not a url", 64, PARTITION_BY_DOMAIN, 0, &s), -1);
	assert_int_equal(partition_of_url("http://x.example/", 1, PARTITION_BY_DOMAIN, 0, &s), 0);
	/* By queue (surt-authority: host and port; http and https share):
	 * a domain's hosts and a host's ports need not share; the test web's
	 * hosts (one domain, web.test) spread. Parallel sub-queues are not
	 * split (the key is taken before the suffix). */
	assert_int_equal(partition_of_url("http://h1.web.test:81/", 64, PARTITION_BY_QUEUE, 0, &s),
	    partition_of_url("https://h1.web.test:81/a/b", 64, PARTITION_BY_QUEUE, 0, &s));
	assert_int_equal(partition_of_url("http://www.example.com/", 64, PARTITION_BY_QUEUE, 2, &s),
	    partition_of_url("http://img.example.com/", 64, PARTITION_BY_QUEUE, 2, &s));
	{
		unsigned seen = 0, port;
		char u[64];
		for (port = 10000; port < 10040; port++) {
			snprintf(u, sizeof u, "http://127.0.0.1:%u/", port);
			seen |= 1u << (partition_of_url(u, 8, PARTITION_BY_QUEUE, 0, &s) & 31);
		}
		assert_int_equal(seen, 0xff);
	}
	assert_int_equal(partition_of_url("http://h1.web.test/", 64, PARTITION_BY_DOMAIN, 0, &s),
	    partition_of_url("http://h2.web.test/", 64, PARTITION_BY_DOMAIN, 0, &s));
	{
		unsigned seen = 0, h;
		char u[64];
		for (h = 0; h < 40; h++) {
			snprintf(u, sizeof u, "http://h%u.web.test/", h);
			seen |= 1u << (partition_of_url(u, 8, PARTITION_BY_QUEUE, 0, &s) & 31);
		}
		assert_int_equal(seen, 0xff);
	}
	buf_free(&s);
}

/* Distinct registered domains spread evenly over the partitions. */
static void test_partition_spread(void **state)
{
	unsigned count[64] = {0}, i, lo = UINT32_MAX, hi = 0;
	char dom[64];

	(void)state;
	for (i = 0; i < 64000; i++) {
		int n = snprintf(dom, sizeof dom, "site%u.example%u.com", i, i % 7);
		unsigned p = partition_of_key(dom, (size_t)n, 64);
		assert_true(p < 64);
		count[p]++;
	}
	for (i = 0; i < 64; i++) {
		if (count[i] < lo)
			lo = count[i];
		if (count[i] > hi)
			hi = count[i];
	}
	/* 1000 expected per partition; a fair hash stays within +-15 %. */
	if (lo < 850 || hi > 1150)
		fail_msg("uneven spread: %u..%u", lo, hi);
}

/* A key's partition never changes: the nodes of a cluster, of this version
 * and of earlier ones, and a checkpoint's frontier agree on it. */
static void test_partition_pinned(void **state)
{
	static const struct {
		const char *key;
		unsigned p64, p7, p1000;
	} t[] = {
	    {"", 18, 0, 458},
	    {"a", 13, 0, 429},
	    {"foobar", 21, 6, 109},
	    {"http://a/", 42, 4, 314},
	    {"http://example.com/", 18, 3, 202},
	    {"example.co.uk", 51, 6, 515},
	    {"web.test", 47, 6, 199},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		size_t n = strlen(t[i].key);

		assert_int_equal(partition_of_key(t[i].key, n, 64), t[i].p64);
		assert_int_equal(partition_of_key(t[i].key, n, 7), t[i].p7);
		assert_int_equal(partition_of_key(t[i].key, n, 1000), t[i].p1000);
		assert_int_equal(partition_of_key(t[i].key, n, 1), 0);
	}
}

static void test_partition_target_table(void **state)
{
	static const struct {
		unsigned parts, live, want;
	} t[] = {
	    {64, 0, 64},
	    {64, 1, 64},
	    {64, 2, 32},
	    {64, 3, 22},
	    {64, 64, 1},
	    {64, 100, 1},
	    {1, 3, 1},
	    {10, 4, 3},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		unsigned got = partition_target(t[i].parts, t[i].live);
		if (got != t[i].want)
			fail_msg(
			    "%u parts, %u live: %u want %u", t[i].parts, t[i].live, got, t[i].want);
		/* Every partition can be held. */
		assert_true(got * (t[i].live ? t[i].live : 1) >= t[i].parts);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_partition_same_domain),
	    cmocka_unit_test(test_partition_spread),
	    cmocka_unit_test(test_partition_pinned),
	    cmocka_unit_test(test_partition_target_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
