/* lib/cookie: RFC 6265's Set-Cookie parsing and storage model, its
 * cookie-date algorithm, domain and path matching, cookies.txt lines and
 * the store's records, table by table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/cookie.h"

#define NOW 1700000000000LL
#define ANY (-7) /* expiry not checked */

struct test_cookie_case {
	const char *header, *host, *path;
	int https, rc;
	const char *name, *value, *domain, *cpath;
	int host_only, secure, http_only, persistent;
	int64_t expires;
};

#define REFUSE(h, host)                                                    \
	{                                                                  \
		h, host, "/", 0, -1, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0 \
	}
static const struct test_cookie_case test_cookie_cases[] = {
    {"a=b", "www.example.com", "/dir/page", 0, 0, "a", "b", "www.example.com", "/dir", 1, 0, 0, 0,
	0},
    {" a = b c ; Path=/x; Secure; HttpOnly", "www.example.com", "/", 1, 0, "a", "b c",
	"www.example.com", "/x", 1, 1, 1, 0, 0},
    {"a=", "h.test", "/", 0, 0, "a", "", "h.test", "/", 1, 0, 0, 0, 0},
    {"a=b=c", "h.test", "/", 0, 0, "a", "b=c", "h.test", "/", 1, 0, 0, 0, 0},
    {"a=b; Domain=.Example.COM", "www.example.com", "/", 0, 0, "a", "b", "example.com", "/", 0, 0,
	0, 0, 0},
    {"a=b; Domain=example.com", "example.com", "/", 0, 0, "a", "b", "example.com", "/", 0, 0, 0, 0,
	0},
    /* The last Domain wins. */
    {"a=b;Domain=.example.com;Domain=www.example.com", "www.example.com", "/", 0, 0, "a", "b",
	"www.example.com", "/", 0, 0, 0, 0, 0},
    /* An empty Domain is ignored: host-only. */
    {"a=b; Domain=", "www.example.com", "/", 0, 0, "a", "b", "www.example.com", "/", 1, 0, 0, 0, 0},
    /* Public suffixes, ICANN's and private registries'. */
    REFUSE("a=b; Domain=com", "www.example.com"),
    REFUSE("a=b; Domain=.co.uk", "www.example.co.uk"),
    REFUSE("a=b; Domain=github.io", "x.github.io"),
    /* A public suffix naming the host itself: host-only (section 5.3). */
    {"a=b; Domain=github.io", "github.io", "/", 0, 0, "a", "b", "github.io", "/", 1, 0, 0, 0, 0},
    REFUSE("a=b; Domain=other.com", "www.example.com"),
    REFUSE("a=b; Domain=ww.example.com", "www.example.com"),
    REFUSE("a=b; Domain=example.com", "192.0.2.1"),
    REFUSE("a=b; Domain=2.1", "192.0.2.1"),
    {"a=b; Domain=192.0.2.1", "192.0.2.1", "/", 0, 0, "a", "b", "192.0.2.1", "/", 1, 0, 0, 0, 0},
    REFUSE("noequals", "h.test"),
    REFUSE("=b", "h.test"),
    REFUSE(" =b", "h.test"),
    REFUSE("a=b\001c", "h.test"),
    REFUSE("a\177=b", "h.test"),
    {"a=b; Max-Age=60", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0, 0, 1, NOW + 60000},
    {"a=b; Max-Age=0", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0, 0, 1, -11644473600000LL},
    {"a=b; Max-Age=-5", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0, 0, 1,
	-11644473600000LL},
    {"a=b; Max-Age=12x", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0, 0, 0, 0},
    {"a=b; Max-Age=", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0, 0, 0, 0},
    {"a=b; Max-Age=99999999999999999999", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0, 0, 1,
	ANY},
    {"a=b; Expires=Wed, 09 Jun 2021 10:18:14 GMT", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1,
	0, 0, 1, 1623233894000LL},
    /* Max-Age wins over Expires, in either order. */
    {"a=b; Max-Age=60; Expires=Wed, 09 Jun 2021 10:18:14 GMT", "h.test", "/", 0, 0, "a", "b",
	"h.test", "/", 1, 0, 0, 1, NOW + 60000},
    {"a=b; expires=bogus", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0, 0, 0, 0},
    {"a=b; Path=relative", "h.test", "/x/y/z", 0, 0, "a", "b", "h.test", "/x/y", 1, 0, 0, 0, 0},
    {"a=b; Path=", "h.test", "/x/", 0, 0, "a", "b", "h.test", "/x", 1, 0, 0, 0, 0},
    {"a=b; Path=/p;path=/q", "h.test", "/", 0, 0, "a", "b", "h.test", "/q", 1, 0, 0, 0, 0},
    /* SameSite is ignored, like any unknown attribute. */
    {"a=b; SameSite=Strict; Priority=High; x", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0,
	0, 0, 0},
    {"a=b;;;", "h.test", "/", 0, 0, "a", "b", "h.test", "/", 1, 0, 0, 0, 0},
};

static void test_cookie_parse_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof test_cookie_cases / sizeof test_cookie_cases[0]; i++) {
		const struct test_cookie_case *t = &test_cookie_cases[i];
		struct cookie_origin o = {t->host, t->host[0] >= '0' && t->host[0] <= '9', t->path,
		    strlen(t->path), t->https};
		struct cookie c;
		const char *why = NULL;
		int rc = cookie_parse(t->header, strlen(t->header), &o, NOW, &c, &why);

		print_message("%s\n", t->header);
		assert_int_equal(rc, t->rc);
		if (rc < 0) {
			assert_non_null(why);
			continue;
		}
		assert_string_equal(c.name, t->name);
		assert_string_equal(c.value, t->value);
		assert_string_equal(c.domain, t->domain);
		assert_string_equal(c.path, t->cpath);
		assert_int_equal(c.host_only, t->host_only);
		assert_int_equal(c.secure, t->secure);
		assert_int_equal(c.http_only, t->http_only);
		assert_int_equal(c.persistent, t->persistent);
		if (t->persistent && t->expires != ANY)
			assert_true(c.expires_ms == t->expires);
		cookie_clear(&c);
	}
}

static void test_cookie_parse_size(void **state)
{
	struct cookie_origin o = {"h.test", 0, "/", 1, 0};
	char big[COOKIE_MAX_BYTES + 2];
	struct cookie c;
	const char *why;

	(void)state;
	memset(big, 'v', sizeof big);
	big[0] = 'n';
	big[1] = '=';
	assert_int_equal(cookie_parse(big, COOKIE_MAX_BYTES, &o, NOW, &c, &why), 0);
	assert_int_equal(strlen(c.value), COOKIE_MAX_BYTES - 2);
	cookie_clear(&c);
	assert_int_equal(cookie_parse(big, COOKIE_MAX_BYTES + 1, &o, NOW, &c, &why), -1);
	assert_non_null(strstr(why, "4096"));
}

static const struct {
	const char *s;
	int rc;
	int64_t ms;
} test_cookie_dates[] = {
    {"Wed, 09 Jun 2021 10:18:14 GMT", 0, 1623233894000LL},
    {"Wednesday, 09-Jun-21 10:18:14 GMT", 0, 1623233894000LL},
    {"Wed Jun  9 10:18:14 2021", 0, 1623233894000LL},
    {"09 JUNE 2021 10:18:14", 0, 1623233894000LL},
    {"Sun, 06 Nov 1994 08:49:37 GMT", 0, 784111777000LL},
    {"Thu, 01 Jan 1970 00:00:00 GMT", 0, 0},
    {"9 jun 69 1:2:3", 0, 3137965323000LL},
    {"Feb 29 2020 00:00:00", 0, 1582934400000LL},
    {"Jan 01 1601 00:00:00", 0, -11644473600000LL},
    {"Feb 29 2021 00:00:00", -1, 0},
    {"Feb 30 2020 00:00:00", -1, 0},
    {"Jan 01 1600 00:00:00", -1, 0},
    {"Jun 2021 10:18:14", -1, 0},
    {"09 Jun 2021 24:00:00", -1, 0},
    {"09 Jun 2021", -1, 0},
    {"09 Jun 10:18:14", -1, 0},
    {"09 Xyz 2021 10:18:14", -1, 0},
    {"", -1, 0},
    {"123 Jun 2021 10:18:14", -1, 0},
};

static void test_cookie_date_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof test_cookie_dates / sizeof test_cookie_dates[0]; i++) {
		int64_t ms = 42;
		int rc =
		    cookie_date_parse(test_cookie_dates[i].s, strlen(test_cookie_dates[i].s), &ms);

		print_message("%s\n", test_cookie_dates[i].s);
		assert_int_equal(rc, test_cookie_dates[i].rc);
		if (rc == 0)
			assert_true(ms == test_cookie_dates[i].ms);
	}
}

static void test_cookie_matching(void **state)
{
	static const struct {
		const char *host;
		int ip;
		const char *domain;
		int match;
	} dm[] = {
	    {"example.com", 0, "example.com", 1},
	    {"www.example.com", 0, "example.com", 1},
	    {"wwwexample.com", 0, "example.com", 0},
	    {"example.com", 0, "www.example.com", 0},
	    {"192.0.2.1", 1, "2.1", 0},
	    {"192.0.2.1", 1, "192.0.2.1", 1},
	};
	static const struct {
		const char *path, *cpath;
		int match;
	} pm[] = {
	    {"/", "/", 1},
	    {"/a/b", "/a", 1},
	    {"/a", "/a", 1},
	    {"/ab", "/a", 0},
	    {"/a/", "/a/", 1},
	    {"/a/b", "/a/", 1},
	    {"/", "/a", 0},
	    {"", "/", 1},
	};
	static const struct {
		const char *path, *def;
	} dp[] = {
	    {"", "/"},
	    {"x", "/"},
	    {"/", "/"},
	    {"/a", "/"},
	    {"/a/", "/a"},
	    {"/a/b/c", "/a/b"},
	};
	struct buf b = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof dm / sizeof dm[0]; i++)
		assert_int_equal(
		    cookie_domain_match(dm[i].host, dm[i].ip, dm[i].domain), dm[i].match);
	for (i = 0; i < sizeof pm / sizeof pm[0]; i++)
		assert_int_equal(
		    cookie_path_match(pm[i].path, strlen(pm[i].path), pm[i].cpath), pm[i].match);
	for (i = 0; i < sizeof dp / sizeof dp[0]; i++) {
		cookie_default_path(dp[i].path, strlen(dp[i].path), &b);
		assert_string_equal(b.data, dp[i].def);
	}
	buf_free(&b);
}

static void test_cookie_matches(void **state)
{
	struct cookie c = {
	    (char *)"n", (char *)"v", (char *)"example.com", (char *)"/a", 0, 0, 0, 0, 0, 0};
	struct cookie_origin o = {"www.example.com", 0, "/a/b", 4, 0};

	(void)state;
	assert_true(cookie_matches(&c, &o, NOW));
	c.host_only = 1;
	assert_false(cookie_matches(&c, &o, NOW));
	o.host = "example.com";
	assert_true(cookie_matches(&c, &o, NOW));
	c.secure = 1;
	assert_false(cookie_matches(&c, &o, NOW));
	o.https = 1;
	assert_true(cookie_matches(&c, &o, NOW));
	c.persistent = 1;
	c.expires_ms = NOW;
	assert_false(cookie_matches(&c, &o, NOW));
	c.expires_ms = NOW + 1;
	assert_true(cookie_matches(&c, &o, NOW));
	o.path = "/b";
	o.path_len = 2;
	assert_false(cookie_matches(&c, &o, NOW));
}

static const struct {
	const char *line;
	int rc;
	const char *domain, *path, *name, *value;
	int host_only, secure, http_only, persistent;
	int64_t expires;
} test_cookie_lines[] = {
#define BAD(l)                                               \
	{                                                    \
		l, -1, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0 \
	}
#define SKIP(l)                                             \
	{                                                   \
		l, 1, NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0 \
	}
    {".example.com\tTRUE\t/\tFALSE\t0\tsid\tabc", 0, "example.com", "/", "sid", "abc", 0, 0, 0, 0,
	0},
    {"www.example.com\tFALSE\t/p\tTRUE\t2000000000\tn\tv w\r\n", 0, "www.example.com", "/p", "n",
	"v w", 1, 1, 0, 1, 2000000000000LL},
    {"example.com\tTRUE\t/\tFALSE\t0\ts\tv", 0, "example.com", "/", "s", "v", 0, 0, 0, 0, 0},
    {"#HttpOnly_.Example.com\ttrue\t/\tfalse\t0\ts\tv", 0, "example.com", "/", "s", "v", 0, 0, 1, 0,
	0},
    {"example.com\tFALSE\t/\tFALSE\t0\tname", 0, "example.com", "/", "name", "", 1, 0, 0, 0, 0},
    {"example.com\tFALSE\t/\tFALSE\t0\tname\t", 0, "example.com", "/", "name", "", 1, 0, 0, 0, 0},
    SKIP("# Netscape HTTP Cookie File"),
    SKIP(""),
    SKIP("  \t\n"),
    BAD("example.com\tMAYBE\t/\tFALSE\t0\tn\tv"),
    BAD("example.com\tTRUE\t/\tFALSE\tabc\tn\tv"),
    BAD("example.com\tTRUE\t/\tFALSE\t\tn\tv"),
    BAD("example.com\tTRUE\t/\tFALSE\t0\tn\tv\textra"),
    BAD("example.com\tTRUE\t/\tFALSE\t0"),
    BAD("example.com TRUE / FALSE 0 n v"),
    BAD(".com\tTRUE\t/\tFALSE\t0\tn\tv"),
    BAD("example.com\tTRUE\tnoslash\tFALSE\t0\tn\tv"),
    BAD("\tTRUE\t/\tFALSE\t0\tn\tv"),
    BAD("example.com\tTRUE\t/\tFALSE\t0\t\tv"),
    BAD("example.com\tTRUE\t/\tFALSE\t0\tn\tv\001"),
};

static void test_cookie_netscape_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof test_cookie_lines / sizeof test_cookie_lines[0]; i++) {
		struct cookie c;
		const char *why = NULL;
		int rc = cookie_from_netscape(
		    test_cookie_lines[i].line, strlen(test_cookie_lines[i].line), NOW, &c, &why);

		print_message("%s\n", test_cookie_lines[i].line);
		assert_int_equal(rc, test_cookie_lines[i].rc);
		if (rc < 0)
			assert_non_null(why);
		if (rc != 0)
			continue;
		assert_string_equal(c.domain, test_cookie_lines[i].domain);
		assert_string_equal(c.path, test_cookie_lines[i].path);
		assert_string_equal(c.name, test_cookie_lines[i].name);
		assert_string_equal(c.value, test_cookie_lines[i].value);
		assert_int_equal(c.host_only, test_cookie_lines[i].host_only);
		assert_int_equal(c.secure, test_cookie_lines[i].secure);
		assert_int_equal(c.http_only, test_cookie_lines[i].http_only);
		assert_int_equal(c.persistent, test_cookie_lines[i].persistent);
		if (c.persistent)
			assert_true(c.expires_ms == test_cookie_lines[i].expires);
		cookie_clear(&c);
	}
}

static void test_cookie_record(void **state)
{
	struct cookie c = {(char *)"n", (char *)"v;x", (char *)"example.com", (char *)"/a", -5000,
	    NOW, 1, 0, 1, 1};
	struct cookie d;
	struct buf b = BUF_INIT;
	size_t i;

	(void)state;
	cookie_encode(&b, &c);
	assert_int_equal(cookie_decode(b.data, b.len, &d), 0);
	assert_string_equal(d.name, "n");
	assert_string_equal(d.value, "v;x");
	assert_string_equal(d.domain, "example.com");
	assert_string_equal(d.path, "/a");
	assert_true(d.expires_ms == -5000);
	assert_true(d.created_ms == (uint64_t)NOW);
	assert_int_equal(d.persistent, 1);
	assert_int_equal(d.host_only, 0);
	assert_int_equal(d.secure, 1);
	assert_int_equal(d.http_only, 1);
	cookie_clear(&d);
	/* Every cut of a record, and a byte more, is refused. */
	for (i = 0; i < b.len; i++)
		assert_int_equal(cookie_decode(b.data, i, &d), -1);
	buf_appendc(&b, 0);
	assert_int_equal(cookie_decode(b.data, b.len, &d), -1);
	b.data[0] = 9;
	assert_int_equal(cookie_decode(b.data, b.len - 1, &d), -1);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cookie_parse_table),
	    cmocka_unit_test(test_cookie_parse_size),
	    cmocka_unit_test(test_cookie_date_table),
	    cmocka_unit_test(test_cookie_matching),
	    cmocka_unit_test(test_cookie_matches),
	    cmocka_unit_test(test_cookie_netscape_table),
	    cmocka_unit_test(test_cookie_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
