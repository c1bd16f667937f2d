/* crawl/cookiejar: which cookies a request carries and in what order, the
 * replacement and deletion of a cookie by its namesake, the bounds (per
 * domain, in all, least recently used first) under a flood, and the
 * journal of changes the store is given. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "crawl/cookiejar.h"
#include "lib/buf.h"
#include "lib/cookie.h"

#define NOW 1700000000000LL

/* Sets the cookie a server at host/path would with that header. */
static void test_cookiejar_set(struct cookiejar *j, const char *host, const char *path,
    const char *header, int64_t now, size_t *evicted)
{
	struct cookie_origin o = {host, 0, path, strlen(path), 1};
	struct cookie c;
	const char *why;
	size_t e;

	assert_int_equal(cookie_parse(header, strlen(header), &o, now, &c, &why), 0);
	e = cookiejar_set(j, &c, now);
	if (evicted != NULL)
		*evicted = e;
	cookie_clear(&c);
}

static const char *test_cookiejar_header(
    struct cookiejar *j, const char *host, const char *path, int https, struct buf *b)
{
	struct cookie_origin o = {host, 0, path, strlen(path), https};

	cookiejar_header(j, &o, NOW, b);
	return b->len > 0 ? b->data : "";
}

static void test_cookiejar_matching(void **state)
{
	struct cookiejar *j = cookiejar_new(50, 3000);
	struct buf b = BUF_INIT;
	static const struct {
		const char *host, *path;
		int https;
		const char *want;
	} cases[] = {
	    {"www.example.com", "/a/b/c", 1, "deep=1; a=1; host=1; dom=1; sec=1"},
	    {"www.example.com", "/a/b/c", 0, "deep=1; a=1; host=1; dom=1"},
	    {"www.example.com", "/", 0, "host=1; dom=1"},
	    {"x.www.example.com", "/", 0, "dom=1"},
	    {"example.com", "/a", 0, "a=1; dom=1"},
	    {"other.com", "/", 0, ""},
	    {"ample.com", "/", 0, ""},
	};
	size_t i;

	(void)state;
	test_cookiejar_set(j, "www.example.com", "/", "host=1", NOW - 50, NULL);
	test_cookiejar_set(j, "www.example.com", "/", "dom=1; Domain=example.com", NOW - 40, NULL);
	test_cookiejar_set(j, "www.example.com", "/", "sec=1; Secure", NOW - 30, NULL);
	test_cookiejar_set(
	    j, "www.example.com", "/", "a=1; Path=/a; Domain=example.com", NOW - 20, NULL);
	test_cookiejar_set(j, "www.example.com", "/a/b/x", "deep=1", NOW - 10, NULL);
	assert_int_equal(cookiejar_count(j), 5);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		print_message("%s%s\n", cases[i].host, cases[i].path);
		assert_string_equal(
		    test_cookiejar_header(j, cases[i].host, cases[i].path, cases[i].https, &b),
		    cases[i].want);
	}
	buf_free(&b);
	cookiejar_free(j);
}

struct test_cookiejar_log {
	int puts, dels;
	char last[256];
};

static void test_cookiejar_change_cb(
    void *arg, const char *domain, const char *path, const char *name, const struct cookie *c)
{
	struct test_cookiejar_log *l = arg;

	if (c != NULL) {
		assert_string_equal(c->domain, domain);
		assert_string_equal(c->path, path);
		assert_string_equal(c->name, name);
		l->puts++;
		snprintf(l->last, sizeof l->last, "put %s %s %s=%s", domain, path, name, c->value);
	} else {
		l->dels++;
		snprintf(l->last, sizeof l->last, "del %s %s %s", domain, path, name);
	}
}

static void test_cookiejar_replace(void **state)
{
	struct cookiejar *j = cookiejar_new(50, 3000);
	struct test_cookiejar_log l;
	struct buf b = BUF_INIT;
	struct cookie c;
	struct cookie_origin o = {"h.test", 0, "/", 1, 0};
	const char *why;
	uint64_t news;

	(void)state;
	test_cookiejar_set(j, "h.test", "/", "a=1", NOW - 100, NULL);
	test_cookiejar_set(j, "h.test", "/", "b=1", NOW - 50, NULL);
	/* A new value keeps the old creation time, so a's order holds. */
	test_cookiejar_set(j, "h.test", "/", "a=2", NOW, NULL);
	assert_string_equal(test_cookiejar_header(j, "h.test", "/", 0, &b), "a=2; b=1");
	memset(&l, 0, sizeof l);
	cookiejar_drain(j, test_cookiejar_change_cb, &l);
	assert_int_equal(l.puts, 3);
	assert_int_equal(l.dels, 0);
	/* The same cookie again changes nothing: no news, nothing to store. */
	news = cookiejar_news(j);
	test_cookiejar_set(j, "h.test", "/", "b=1", NOW + 10, NULL);
	assert_true(cookiejar_news(j) == news);
	memset(&l, 0, sizeof l);
	cookiejar_drain(j, test_cookiejar_change_cb, &l);
	assert_int_equal(l.puts + l.dels, 0);
	/* A new expiry is stored but is no news; a new value is. */
	test_cookiejar_set(j, "h.test", "/", "b=1; Max-Age=100", NOW, NULL);
	assert_true(cookiejar_news(j) == news);
	test_cookiejar_set(j, "h.test", "/", "b=2; Max-Age=100", NOW, NULL);
	assert_true(cookiejar_news(j) == news + 1);
	test_cookiejar_set(j, "h.test", "/", "b=1", NOW, NULL);
	memset(&l, 0, sizeof l);
	cookiejar_drain(j, test_cookiejar_change_cb, &l);
	assert_int_equal(l.puts, 3);
	/* Max-Age=0 deletes. */
	test_cookiejar_set(j, "h.test", "/", "a=x; Max-Age=0", NOW, NULL);
	assert_int_equal(cookiejar_count(j), 1);
	assert_string_equal(test_cookiejar_header(j, "h.test", "/", 0, &b), "b=1");
	memset(&l, 0, sizeof l);
	cookiejar_drain(j, test_cookiejar_change_cb, &l);
	assert_int_equal(l.dels, 1);
	assert_string_equal(l.last, "del h.test / a");
	/* A cookie past its expiry leaves when a request meets it. */
	test_cookiejar_set(j, "h.test", "/", "c=1; Max-Age=1", NOW - 5000, NULL);
	assert_int_equal(cookiejar_count(j), 2);
	assert_string_equal(test_cookiejar_header(j, "h.test", "/", 0, &b), "b=1");
	assert_int_equal(cookiejar_count(j), 1);
	memset(&l, 0, sizeof l);
	cookiejar_drain(j, test_cookiejar_change_cb, &l);
	assert_string_equal(l.last, "del h.test / c");
	/* A stored record already expired is forgotten by the store. */
	assert_int_equal(cookie_parse("d=1; Max-Age=1", 14, &o, NOW - 5000, &c, &why), 0);
	cookiejar_load(j, &c, NOW);
	cookie_clear(&c);
	assert_int_equal(cookiejar_count(j), 1);
	memset(&l, 0, sizeof l);
	cookiejar_drain(j, test_cookiejar_change_cb, &l);
	assert_int_equal(l.dels, 1);
	/* A live one loaded is not a change. */
	assert_int_equal(cookie_parse("e=1", 3, &o, NOW, &c, &why), 0);
	cookiejar_load(j, &c, NOW);
	memset(&l, 0, sizeof l);
	cookiejar_drain(j, test_cookiejar_change_cb, &l);
	assert_int_equal(l.puts + l.dels, 0);
	assert_int_equal(cookiejar_count(j), 2);
	buf_free(&b);
	cookiejar_free(j);
}

static void test_cookiejar_bounds(void **state)
{
	struct cookiejar *j = cookiejar_new(3, 5);
	struct buf b = BUF_INIT;
	char h[64];
	size_t ev = 0;

	(void)state;
	test_cookiejar_set(j, "a.test", "/", "a1=1", NOW - 3, &ev);
	test_cookiejar_set(j, "a.test", "/", "a2=1", NOW - 2, &ev);
	test_cookiejar_set(j, "a.test", "/", "a3=1", NOW - 1, &ev);
	assert_int_equal(ev, 0);
	/* All three sent, then a1 set again: a2 is the least recently used. */
	test_cookiejar_header(j, "a.test", "/", 0, &b);
	test_cookiejar_set(j, "a.test", "/", "a1=2", NOW, &ev);
	test_cookiejar_set(j, "a.test", "/", "a4=1", NOW, &ev);
	assert_int_equal(ev, 1);
	assert_int_equal(cookiejar_count(j), 3);
	assert_string_equal(test_cookiejar_header(j, "a.test", "/", 0, &b), "a1=2; a3=1; a4=1");
	/* Past the total, the least recently used of any domain goes. */
	test_cookiejar_set(j, "b.test", "/", "b1=1", NOW, &ev);
	test_cookiejar_set(j, "b.test", "/", "b2=1", NOW, &ev);
	assert_int_equal(ev, 0);
	test_cookiejar_set(j, "c.test", "/", "c1=1", NOW, &ev);
	assert_int_equal(ev, 1);
	assert_int_equal(cookiejar_count(j), 5);
	assert_string_equal(test_cookiejar_header(j, "a.test", "/", 0, &b), "a3=1; a4=1");
	/* Many domains, each one cookie: still five, and the domains of the
	 * evicted ones are gone from memory too. */
	for (int i = 0; i < 1000; i++) {
		snprintf(h, sizeof h, "x=%d", i);
		char host[32];
		snprintf(host, sizeof host, "h%d.test", i);
		test_cookiejar_set(j, host, "/", h, NOW, NULL);
	}
	assert_int_equal(cookiejar_count(j), 5);
	assert_string_equal(test_cookiejar_header(j, "h999.test", "/", 0, &b), "x=999");
	assert_string_equal(test_cookiejar_header(j, "h0.test", "/", 0, &b), "");
	cookiejar_drain(j, NULL, NULL);
	buf_free(&b);
	cookiejar_free(j);
}

/* What a hostile server can make the jar hold: at most total cookies of
 * at most 4096 bytes, however many it sends. */
static void test_cookiejar_flood(void **state)
{
	struct cookiejar *j = cookiejar_new(50, 3000);
	struct cookie_origin o = {"flood.test", 0, "/", 1, 0};
	struct buf line = BUF_INIT, b = BUF_INIT;
	size_t i, refused = 0;

	(void)state;
	for (i = 0; i < 20000; i++) {
		struct cookie c;
		const char *why;
		char host[32];

		buf_reset(&line);
		buf_appendf(&line, "n%zu=", i);
		while (line.len < (i % 2 ? 4096 : 5000))
			buf_appendc(&line, 'v');
		snprintf(host, sizeof host, "s%zu.flood.test", i % 400);
		o.host = i % 3 ? host : "flood.test";
		buf_appends(&line, i % 3 ? "" : "; Domain=flood.test");
		if (cookie_parse(line.data, line.len, &o, NOW, &c, &why) < 0) {
			refused++;
			continue;
		}
		cookiejar_set(j, &c, NOW);
		cookie_clear(&c);
		if (i % 1000 == 0)
			cookiejar_drain(j, NULL, NULL);
	}
	assert_true(refused >= 10000);
	assert_true(cookiejar_count(j) <= 3000);
	assert_true(cookiejar_bytes(j) <= 3000 * (COOKIE_MAX_BYTES + 64));
	/* The header a request carries is cut at its bound. */
	o.host = "s1.flood.test";
	assert_true(cookiejar_header(j, &o, NOW, &b) > 0);
	assert_true(b.len <= COOKIEJAR_MAX_HEADER);
	buf_free(&line);
	buf_free(&b);
	cookiejar_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cookiejar_matching),
	    cmocka_unit_test(test_cookiejar_replace),
	    cmocka_unit_test(test_cookiejar_bounds),
	    cmocka_unit_test(test_cookiejar_flood),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
