/* Table tests of the SURT forms (Heritrix's and pywb's), queue keys,
 * registered domains and seed prefixes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lib/surt.h"
#include "lib/url.h"

struct surt_case {
	const char *in;
	int arg;
	const char *want; /* NULL: an error */
};

static const struct surt_case surt_heritrix[] = {
    {"http://www.archive.org:8080/movies/movies.php", 1,
	"http://(org,archive,www,:8080)/movies/movies.php"},
    {"http://127.2.34.5/foo", 1, "http://(127.2.34.5)/foo"},
    {"https://u:p@www.example.com/A?B#c", 1, "https://(com,example,www,@u:p)/a?b"},
    {"http://[::1]:81/", 1, "http://([::1],:81)/"},
    {"http://localhost/", 1, "http://(localhost,)/"},
    {"http://example.com/?", 1, "http://(com,example,)/?"},
    /* pywb's CDX key */
    {"http://www.example.com/foo/?b=2&a=1#x", 0, "com,example)/foo?a=1&b=2"},
    {"http://127.0.0.1:8080/Path/", 0, "1,0,0,127:8080)/path"},
    {"http://example.com/", 0, "com,example)/"},
    {"https://www2.example.com/?", 0, "com,example)/"},
    {"http://u:p@wwwexample.com/A/B/", 0, "com,wwwexample)/a/b"},
    {"http://example.com/x?JSESSIONID=0123456789abcdef0123456789abcdef&a=1", 0,
	"com,example)/x?a=1"},
    /* Python surt keeps the '&' before a stripped id, and the empty
	 * argument sorts first: bug-for-bug. */
    {"http://example.com/x?z=1&CFID=1&CFTOKEN=2", 0, "com,example)/x?&z=1"},
    {"http://example.com/x?b&a=2&a=1", 0, "com,example)/x?a=1&a=2&b"},
    {"http://www.com/", 0, "com)/"},
    {"ftp://x/", 0, NULL},
};

static const struct surt_case surt_keys[] = {
    {"http://www.example.com:8080/a/b", SURT_ASSIGN_AUTHORITY, "com,example,www,#8080"},
    {"https://www.example.com/", SURT_ASSIGN_AUTHORITY, "com,example,www,"},
    {"http://www.example.com/", SURT_ASSIGN_AUTHORITY, "com,example,www,"},
    {"http://192.168.1.1:8080/", SURT_ASSIGN_AUTHORITY, "192.168.1.1#8080"},
    {"http://u:p@h.example/", SURT_ASSIGN_AUTHORITY, "example,h,@u#p"},
    {"http://www.example.com:8080/a", SURT_ASSIGN_HOSTNAME, "www.example.com#8080"},
    {"https://www.example.com/", SURT_ASSIGN_HOSTNAME, "www.example.com#443"},
    {"http://www.example.com/", SURT_ASSIGN_HOSTNAME, "www.example.com"},
    {"http://a.b.bbc.co.uk:81/", SURT_ASSIGN_REGDOMAIN, "uk,co,bbc,"},
    {"http://10.1.2.3/", SURT_ASSIGN_REGDOMAIN, "10.1.2.3"},
    {"http://10.0.0.1:8080/", SURT_ASSIGN_IP, "10.0.0.1#8080"},
    {"http://[::1]:81/", SURT_ASSIGN_IP, "[##1]#81"},
    {"https://h.example/", SURT_ASSIGN_IP, "h.example#443"},
    {"nonsense", SURT_ASSIGN_AUTHORITY, NULL},
};

/* Heritrix's parallelQueues (checklist item 53): the suffix appended to
 * "k" with arg = N queues. Only the first path segment counts. */
static const struct surt_case surt_parallel[] = {
    {"http://h.example/p/1.html", 1, "k"},
    {"http://h.example/p/1.html", 0, "k"},
    {"http://h.example/", 8, "k"},
    {"http://h.example/index.html", 8, "k"},
    {"http://h.example/index.html?a=/b/c", 8, "k"},
    {"http://h.example/p/1.html", 2, "k"},
    {"http://h.example/p/2/3.html", 2, "k"},
    {"http://h.example/i/0.png", 2, "k"},
    {"http://h.example/r/0", 2, "k+1"},
    {"http://h.example/r/0", 3, "k+1"},
    {"http://h.example/i/0.png", 4, "k+3"},
    {"http://h.example/a/", 4, "k+2"},
    {"http://h.example/b/x", 4, "k+3"},
    {"http://h.example/c/x", 4, "k"},
    {"http://h.example//x", 4, "k+1"},
    {"nonsense", 2, NULL},
};

/* IP queue assignment once the address is known (item 55): href, then the
 * address, then the key. */
static const struct {
	const char *href, *ip, *want;
} surt_ip_keys[] = {
    {"http://h.example/", "127.0.0.1", "127.0.0.1"},
    {"http://h.example:8080/a", "127.0.0.1", "127.0.0.1#8080"},
    {"https://h.example/", "10.0.0.1", "10.0.0.1"},
    {"http://h.example:81/", "::1", "[##1]#81"},
    {"http://h.example/", "", NULL},
    {"nonsense", "10.0.0.1", NULL},
};

static const struct surt_case surt_domains[] = {
    {"www.bbc.co.uk", 0, "bbc.co.uk"},
    {"foo.github.io", 0, "foo.github.io"},
    {"a.b.blogspot.com", 0, "b.blogspot.com"},
    {"127.0.0.1", 0, "127.0.0.1"},
    {"[::1]", 0, "[::1]"},
    {"co.uk", 0, "co.uk"},
    {"localhost", 0, "localhost"},
    {"www.xn--mnchen-3ya.de", 0, "xn--mnchen-3ya.de"},
    {"a.b.xn--55qx5d.cn", 0, "b.xn--55qx5d.cn"},
    {"", 0, NULL},
};

static const struct surt_case surt_prefixes[] = {
    {"http://example.org/a/b.html", 0, "http://(org,example,)/a/"},
    {"https://www.example.org/", 0, "http://(org,example,www,)/"},
    {"http://example.org/a/b?x=/y", 0, "http://(org,example,)/a/b?x=/"},
    {"http://example.org:8080/A/", 0, "http://(org,example,:8080)/a/"},
};

static const struct surt_case surt_plain[] = {
    {"example.org", 0, "http://(org,example,"},
    {"http://example.org", 0, "http://(org,example,"},
    {"http://example.org/", 0, "http://(org,example,)/"},
    {"https://Example.org/Dir/page", 0, "http://(org,example,)/dir/"},
    {"example.org/a/b", 0, "http://(org,example,)/a/"},
    /* ':' before any '.' reads as a scheme, as in Heritrix. */
    {"localhost:8080/x/", 0, NULL},
    {"http://localhost:8080/x/", 0, "http://(localhost,:8080)/x/"},
    {"mailto:x@example.org", 0, NULL},
};

typedef int (*surt_fn)(const struct surt_case *c, struct buf *out);

static int surt_call_from_url(const struct surt_case *c, struct buf *out)
{
	return surt_from_url(c->in, c->arg, out);
}

static int surt_call_key(const struct surt_case *c, struct buf *out)
{
	return surt_queue_key(c->in, (enum surt_assign)c->arg, out);
}

static int surt_call_parallel(const struct surt_case *c, struct buf *out)
{
	buf_reset(out);
	buf_appends(out, "k");
	return surt_parallel_suffix(c->in, c->arg, out);
}

static int surt_call_domain(const struct surt_case *c, struct buf *out)
{
	return surt_registered_domain(c->in, out);
}

static int surt_call_prefix(const struct surt_case *c, struct buf *out)
{
	return surt_seed_prefix(c->in, out);
}

static int surt_call_plain(const struct surt_case *c, struct buf *out)
{
	return surt_seed_prefix_plain(c->in, strlen(c->in), out);
}

static void surt_run(const struct surt_case *cases, size_t n, surt_fn fn)
{
	struct buf out = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++) {
		int rc = fn(&cases[i], &out);

		if (cases[i].want == NULL ? rc == 0
					  : (rc != 0 || strcmp(out.data, cases[i].want) != 0))
			fail_msg("case %zu: %s (%d): got %d \"%s\", want \"%s\"", i, cases[i].in,
			    cases[i].arg, rc, out.data ? out.data : "",
			    cases[i].want ? cases[i].want : "(error)");
	}
	buf_free(&out);
}

#define SURT_RUN(t, fn) surt_run(t, sizeof(t) / sizeof(t[0]), fn)

static void test_surt_forms(void **state)
{
	(void)state;
	SURT_RUN(surt_heritrix, surt_call_from_url);
}

static void test_surt_queue_keys(void **state)
{
	struct buf out = BUF_INIT;
	size_t i;

	(void)state;
	SURT_RUN(surt_keys, surt_call_key);
	for (i = 0; i < sizeof(surt_ip_keys) / sizeof(surt_ip_keys[0]); i++) {
		int rc = surt_ip_queue_key(surt_ip_keys[i].href, surt_ip_keys[i].ip, &out);

		if (surt_ip_keys[i].want == NULL
			? rc == 0
			: (rc != 0 || strcmp(out.data, surt_ip_keys[i].want) != 0))
			fail_msg("ip key %zu: %s %s: got %d \"%s\"", i, surt_ip_keys[i].href,
			    surt_ip_keys[i].ip, rc, out.data ? out.data : "");
	}
	buf_free(&out);
}

/* The sub-queue of a URI with first segment "sI" among n. */
static int test_surt_bucket(int i, int n)
{
	struct buf out = BUF_INIT;
	char href[64];
	int k = 0;

	snprintf(href, sizeof(href), "http://h.example/s%d/x.html", i);
	assert_int_equal(surt_parallel_suffix(href, n, &out), 0);
	if (out.len > 0)
		k = atoi(out.data + 1);
	buf_free(&out);
	return k;
}

/* Item 53: the table, then what makes the hash consistent: going from n
 * to n + 1 sub-queues moves a segment only into the new one (about 1/(n+1)
 * of them), and the segments spread evenly. */
static void test_surt_parallel_queues(void **state)
{
	int count[5] = {0}, moved = 0, i, n;

	(void)state;
	SURT_RUN(surt_parallel, surt_call_parallel);
	for (n = 2; n < 5; n++) {
		moved = 0;
		for (i = 0; i < 2000; i++) {
			int a = test_surt_bucket(i, n), b = test_surt_bucket(i, n + 1);

			assert_true(a >= 0 && a < n);
			if (a != b) {
				assert_int_equal(b, n);
				moved++;
			}
		}
		assert_in_range(moved, 2000 / (n + 1) - 150, 2000 / (n + 1) + 150);
	}
	for (i = 0; i < 2000; i++)
		count[test_surt_bucket(i, 4)]++;
	for (i = 0; i < 4; i++)
		assert_in_range(count[i], 400, 600);
	assert_int_equal(count[4], 0);
}

static void test_surt_domains(void **state)
{
	(void)state;
	SURT_RUN(surt_domains, surt_call_domain);
}

static void test_surt_seed_prefixes(void **state)
{
	(void)state;
	SURT_RUN(surt_prefixes, surt_call_prefix);
	SURT_RUN(surt_plain, surt_call_plain);
}

/* A URI is in scope of its own seed's prefix, http and https alike. */
static void test_surt_prefix_covers_seed(void **state)
{
	struct buf prefix = BUF_INIT, s = BUF_INIT;

	(void)state;
	assert_int_equal(surt_seed_prefix("https://example.org/a/b.html", &prefix), 0);
	assert_int_equal(surt_from_url("http://example.org/a/c/d.html", 1, &s), 0);
	assert_memory_equal(s.data, prefix.data, prefix.len);
	buf_free(&prefix);
	buf_free(&s);
}

/* Override keys: Heritrix's SURT without scheme, so http and https share. */
static void test_surt_override_keys(void **state)
{
	static const char *const cases[][2] = {
	    {"http://h1.web.test:8080/p/1.html", "test,web,h1,:8080)/p/1.html"},
	    {"https://www.Example.org/a?b", "org,example,www,)/a?b"},
	    {"http://www.example.org/a?b", "org,example,www,)/a?b"},
	    {"http://127.0.0.1:8080/x", "127.0.0.1:8080)/x"},
	};
	struct buf b = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(surt_override_key(cases[i][0], &b), 0);
		assert_string_equal(b.data, cases[i][1]);
	}
	buf_free(&b);
}

static void test_surt_queue_host(void **state)
{
	static const char *const cases[][2] = {
	    {"org,example,www,", "www.example.org"},
	    {"org,example,www,#8080+2", "www.example.org"},
	    {"org,example,www,@user", "www.example.org"},
	    {"org,example,", "example.org"},
	    {"www.example.org#443", "www.example.org"},
	    {"10.1.2.3#8080", "10.1.2.3"},
	    {"[::1]#8080", "[::1]"},
	    {"localhost", "localhost"},
	    {"", ""},
	};
	struct buf b = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		surt_queue_host(cases[i][0], &b);
		assert_string_equal(b.data, cases[i][1]);
	}
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_surt_forms),
	    cmocka_unit_test(test_surt_override_keys),
	    cmocka_unit_test(test_surt_queue_keys),
	    cmocka_unit_test(test_surt_queue_host),
	    cmocka_unit_test(test_surt_parallel_queues),
	    cmocka_unit_test(test_surt_domains),
	    cmocka_unit_test(test_surt_seed_prefixes),
	    cmocka_unit_test(test_surt_prefix_covers_seed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
