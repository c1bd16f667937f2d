/* Table tests of url_resolve, url_split and url_request_target: every rule
 * of the WHATWG parser that matters for http(s) links, with the answers of
 * the URL Standard (checked against Node's URL). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lib/url.h"

#define B "http://example.com/a/b/c?q=1#f"

struct url_case {
	const char *base;
	const char *ref;
	const char *want; /* href, or NULL when rc is an error */
	int rc;
};

static const struct url_case url_cases[] = {
    /* relative forms */
    {B, "d", "http://example.com/a/b/d", 0},
    {B, "./d", "http://example.com/a/b/d", 0},
    {B, "../d/./e", "http://example.com/a/d/e", 0},
    {B, "../../../../../d", "http://example.com/d", 0},
    {B, "/d", "http://example.com/d", 0},
    {B, "//other.org/x", "http://other.org/x", 0},
    {B, "?x=1", "http://example.com/a/b/c?x=1", 0},
    {B, "#g", "http://example.com/a/b/c?q=1#g", 0},
    {B, "", "http://example.com/a/b/c?q=1", 0},
    {B, ".", "http://example.com/a/b/", 0},
    {B, "..", "http://example.com/a/", 0},
    {B, "./", "http://example.com/a/b/", 0},
    {B, "g;x=1/../y", "http://example.com/a/b/y", 0},
    {B, "g?y/./x", "http://example.com/a/b/g?y/./x", 0},
    {B, "g#s/../x", "http://example.com/a/b/g#s/../x", 0},
    {"http://h", "x", "http://h/x", 0},
    {"http://h/", "..", "http://h/", 0},
    /* backslashes are slashes in http(s) */
    {B, "\\\\evil.com/x", "http://evil.com/x", 0},
    {B, "/\\evil.com/x", "http://evil.com/x", 0},
    {B, "\\x\\y", "http://example.com/x/y", 0},
    {B, "..\\..\\z", "http://example.com/z", 0},
    /* scheme-relative and same-scheme relative */
    {B, "http:foo", "http://example.com/a/b/foo", 0},
    {B, "http:/foo", "http://example.com/foo", 0},
    {B, "http:?x", "http://example.com/a/b/c?x", 0},
    {B, "http://x/y", "http://x/y", 0},
    {B, "https:foo", "https://foo/", 0},
    {B, "https:/foo/bar", "https://foo/bar", 0},
    {NULL, "http:foo", "http://foo/", 0},
    {NULL, "http:///x/y", "http://x/y", 0},
    {B, "HTTP://EXAMPLE.org:80/%7euser/%41", "http://example.org/%7euser/%41", 0},
    /* dot segments, including percent-encoded ones */
    {NULL, "http://h/a/./b/../c", "http://h/a/c", 0},
    {NULL, "http://h/a/%2e/b", "http://h/a/b", 0},
    {NULL, "http://h/a/%2E%2e/b", "http://h/b", 0},
    {NULL, "http://h/a/.%2e/b", "http://h/b", 0},
    {NULL, "http://h/a/%2e./b", "http://h/b", 0},
    {NULL, "http://h/a/b/..", "http://h/a/", 0},
    {NULL, "http://h/a/b/.", "http://h/a/b/", 0},
    {NULL, "http://h/..a/...", "http://h/..a/...", 0},
    {NULL, "http://h/%2e%2f", "http://h/%2e%2f", 0},
    /* percent-encoding per component */
    {NULL, "http://h/p a\"<>`{}^|", "http://h/p%20a%22%3C%3E%60%7B%7D^|", 0},
    {NULL, "http://h/?q a\"'<>`{}", "http://h/?q%20a%22%27%3C%3E`{}", 0},
    {NULL, "http://h/#f a\"'<>`{}", "http://h/#f%20a%22'%3C%3E%60{}", 0},
    {NULL, "http://h/\xc3\xa9?\xc3\xa9#\xc3\xa9", "http://h/%C3%A9?%C3%A9#%C3%A9", 0},
    {NULL, "http://h/%zz%", "http://h/%zz%", 0},
    {NULL, "http://h/\x01\x7f", "http://h/%01%7F", 0},
    {NULL, "http://h/\xff", "http://h/%FF", 0},
    {NULL, "http://u s:p@ss@h/", "http://u%20s:p%40ss@h/", 0},
    {NULL, "http://a@b@c/", "http://a%40b@c/", 0},
    {NULL, "http://a:b:c@h/", "http://a:b%3Ac@h/", 0},
    {NULL, "http://:@h/", "http://h/", 0},
    {NULL, "http://:p@h/", "http://:p@h/", 0},
    {NULL, "http://u:@h/", "http://u@h/", 0},
    {NULL, "http://x;y=z[]@h/", "http://x%3By%3Dz%5B%5D@h/", 0},
    {NULL, "http://@/", NULL, URL_EINVAL},
    {NULL, "http://u@/", NULL, URL_EINVAL},
    /* IPv4 number forms */
    {NULL, "http://127.1/", "http://127.0.0.1/", 0},
    {NULL, "http://0x7f.1/", "http://127.0.0.1/", 0},
    {NULL, "http://2130706433/", "http://127.0.0.1/", 0},
    {NULL, "http://0177.0.0.1/", "http://127.0.0.1/", 0},
    {NULL, "http://0x7F000001/", "http://127.0.0.1/", 0},
    {NULL, "http://1.2.3/", "http://1.2.0.3/", 0},
    {NULL, "http://1.2.3.4./", "http://1.2.3.4/", 0},
    {NULL, "http://4294967295/", "http://255.255.255.255/", 0},
    {NULL, "http://0x/", "http://0.0.0.0/", 0},
    {NULL, "http://4294967296/", NULL, URL_EINVAL},
    {NULL, "http://1.2.3.4.5/", NULL, URL_EINVAL},
    {NULL, "http://256.1.1.1/", NULL, URL_EINVAL},
    {NULL, "http://1.256.1/", NULL, URL_EINVAL},
    {NULL, "http://1.65535/", "http://1.0.255.255/", 0},
    {NULL, "http://1.2.65536/", NULL, URL_EINVAL},
    {NULL, "http://09.1/", NULL, URL_EINVAL},
    {NULL, "http://1..2/", NULL, URL_EINVAL},
    {NULL, "http://0xg.1/", NULL, URL_EINVAL},
    {NULL, "http://1.0xg/", "http://1.0xg/", 0},
    {NULL, "http://99999999999999999999999/", NULL, URL_EINVAL},
    {NULL, "http://a.1/", NULL, URL_EINVAL},
    {NULL, "http://1.a/", "http://1.a/", 0},
    /* IPv6 */
    {NULL, "http://[::1]/", "http://[::1]/", 0},
    {NULL, "http://[0:0:0:0:0:0:0:1]:8080/", "http://[::1]:8080/", 0},
    {NULL, "http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/", 0},
    {NULL, "http://[1:0:0:2::3:0]/", "http://[1::2:0:0:3:0]/", 0},
    {NULL, "http://[::FFFF:1.2.3.4]/", "http://[::ffff:102:304]/", 0},
    {NULL, "http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8]/", 0},
    {NULL, "http://[0::0]/", "http://[::]/", 0},
    {NULL, "http://[1::2::3]/", NULL, URL_EINVAL},
    {NULL, "http://[1:2:3:4:5:6:7:8:9]/", NULL, URL_EINVAL},
    {NULL, "http://[::1.2.3]/", NULL, URL_EINVAL},
    {NULL, "http://[::1.2.3.04]/", NULL, URL_EINVAL},
    {NULL, "http://[gg::]/", NULL, URL_EINVAL},
    {NULL, "http://[::1/", NULL, URL_EINVAL},
    {NULL, "http://::1/", NULL, URL_EINVAL},
    /* IDNA and host code points */
    {NULL, "http://M\xc3\xbcnchen.DE/", "http://xn--mnchen-3ya.de/", 0},
    {NULL, "http://fa\xc3\x9f.de/", "http://xn--fa-hia.de/", 0},
    {NULL, "http://\xe2\x98\x83.net/", "http://xn--n3h.net/", 0},
    {NULL,
	"http://a\xe3\x80\x82"
	"b.c/",
	"http://a.b.c/", 0},
    {NULL, "http://\xef\xbc\xa1.com/", "http://a.com/", 0},
    {NULL, "http://XN--MNCHEN-3YA.de/", "http://xn--mnchen-3ya.de/", 0},
    {NULL, "http://ab--c.example/", "http://ab--c.example/", 0},
    {NULL, "http://a_b.example/", "http://a_b.example/", 0},
    {NULL, "http://ex%41mple.com/", "http://example.com/", 0},
    /* An all-ASCII domain is kept, lower-cased, even when IDNA would refuse
	 * one of its labels (whatwg/url, 2026-06-25); a domain with non-ASCII
	 * code points still goes through IDNA and fails with it. */
    {NULL, "http://xn--abc.com/", "http://xn--abc.com/", 0},
    {NULL, "http://a.b.c.xn--pokxncvks", "http://a.b.c.xn--pokxncvks/", 0},
    {NULL, "http://10.0.0.XN--pokxncvks", "http://10.0.0.xn--pokxncvks/", 0},
    {NULL, "https://xn--/", "https://xn--/", 0},
    {NULL, "https://%78n--/", "https://xn--/", 0},
    {NULL, "http://xn--abc.m\xc3\xbcnchen.de/", NULL, URL_EINVAL},
    {NULL, "http://xn--/\xc3\xbc", "http://xn--/%C3%BC", 0},
    {NULL, "http://x\xe2\x80\x8dy.com/", NULL, URL_EINVAL},
    {NULL, "http://\xff.com/", NULL, URL_EINVAL},
    {NULL, "http://ex%zzample.com/", NULL, URL_EINVAL},
    {NULL, "http://a<b/", NULL, URL_EINVAL},
    {NULL, "http://a%00b/", NULL, URL_EINVAL},
    {NULL, "http://a b/", NULL, URL_EINVAL},
    {NULL, "http://a^b/", NULL, URL_EINVAL},
    {NULL, "http://%2e/", "http://./", 0},
    {NULL, "http:///", NULL, URL_EINVAL},
    {NULL, "http://", NULL, URL_EINVAL},
    {NULL, "http:", NULL, URL_EINVAL},
    /* ports */
    {NULL, "http://h:80/", "http://h/", 0},
    {NULL, "https://h:443/", "https://h/", 0},
    {NULL, "https://h:80/", "https://h:80/", 0},
    {NULL, "http://h:00080/", "http://h/", 0},
    {NULL, "http://h:0/", "http://h:0/", 0},
    {NULL, "http://h:/", "http://h/", 0},
    {NULL, "http://h:65535", "http://h:65535/", 0},
    {NULL, "http://h:65536/", NULL, URL_EINVAL},
    {NULL, "http://h:1a/", NULL, URL_EINVAL},
    {NULL, "http://h:-1/", NULL, URL_EINVAL},
    {NULL, "http://h:99999999999999999999/", NULL, URL_EINVAL},
    /* whitespace and controls */
    {B, "  \t\n/x y \r\n ", "http://example.com/x%20y", 0},
    {B, "\x01\x1f /x\x01", "http://example.com/x", 0},
    {B, "/a\tb\nc\rd", "http://example.com/abcd", 0},
    {B, "ht\ttp://x/", "http://x/", 0},
    {B, " \t ", "http://example.com/a/b/c?q=1", 0},
    /* schemes a crawler does not fetch */
    {B, "javascript:alert(1)", NULL, URL_ESCHEME},
    {B, "mailto:a@b", NULL, URL_ESCHEME},
    {B, "data:text/html,x", NULL, URL_ESCHEME},
    {B, "ftp://x/", NULL, URL_ESCHEME},
    {B, "c:/x", NULL, URL_ESCHEME},
    {B, "1a:b", "http://example.com/a/b/1a:b", 0},
    {NULL, "relative", NULL, URL_EINVAL},
    {NULL, "", NULL, URL_EINVAL},
    /* a base that is not http(s) cannot resolve relative links */
    {"mailto:x@y", "a", NULL, URL_EINVAL},
    {"not a url", "http://ok/", "http://ok/", 0},
    {"https://h/a", "http:x", "http://x/", 0},
    {"https://u:p@h:8443/a/b?c", "d", "https://u:p@h:8443/a/d", 0},
};

static void test_url_table(void **state)
{
	struct buf out = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(url_cases) / sizeof(url_cases[0]); i++) {
		const struct url_case *c = &url_cases[i];
		int rc = url_resolve(c->base, c->ref, strlen(c->ref), &out);

		if (rc != c->rc || (c->want && strcmp(out.data, c->want) != 0) ||
		    (!c->want && out.len != 0))
			fail_msg("case %zu: base %s ref \"%s\": got %d \"%s\", want %d \"%s\"", i,
			    c->base ? c->base : "(none)", c->ref, rc, out.data ? out.data : "",
			    c->rc, c->want ? c->want : "");
	}
	buf_free(&out);
}

static void test_url_not_nul_terminated(void **state)
{
	struct buf out = BUF_INIT;
	const char raw[] = "/a/b/EXTRA";

	(void)state;
	assert_int_equal(url_resolve(B, raw, 4, &out), 0);
	assert_string_equal(out.data, "http://example.com/a/b");
	buf_free(&out);
}

static void test_url_too_long(void **state)
{
	struct buf out = BUF_INIT;
	size_t n = URL_MAX_LEN + 100, i;
	char *s = malloc(n);

	(void)state;
	memcpy(s, "http://h/", 9);
	for (i = 9; i < n; i++)
		s[i] = 'a';
	assert_int_equal(url_resolve(NULL, s, n, &out), URL_ETOOLONG);
	assert_int_equal(out.len, 0);
	/* Within the input cap, but three times longer once encoded. */
	for (i = 9; i < URL_MAX_LEN / 2; i++)
		s[i] = '"';
	assert_int_equal(url_resolve(NULL, s, URL_MAX_LEN / 2, &out), URL_ETOOLONG);
	/* A huge data: URL is refused for its scheme, not its length. */
	memcpy(s, "data:text/plain,", 16);
	assert_int_equal(url_resolve(NULL, s, n, &out), URL_ESCHEME);
	free(s);
	buf_free(&out);
}

static void test_url_split(void **state)
{
	struct url_parts p;
	const char *h = "https://u:p@[::1]:8443/a/b?x=1#frag";
	const char *h2 = "http://1.2.3.4/";
	struct buf t = BUF_INIT;

	(void)state;
	assert_int_equal(url_split(h, &p), 0);
	assert_int_equal(p.scheme_len, 5);
	assert_int_equal(p.https, 1);
	assert_int_equal(p.user_len, 3);
	assert_memory_equal(h + p.user_off, "u:p", 3);
	assert_int_equal(p.host_len, 5);
	assert_memory_equal(h + p.host_off, "[::1]", 5);
	assert_int_equal(p.host_ip, 6);
	assert_int_equal(p.port, 8443);
	assert_int_equal(p.has_port, 1);
	assert_memory_equal(h + p.path_off, "/a/b", p.path_len);
	assert_int_equal(p.has_query, 1);
	assert_memory_equal(h + p.query_off, "x=1", p.query_len);
	assert_int_equal(p.has_frag, 1);
	assert_memory_equal(h + p.frag_off, "frag", p.frag_len);
	url_request_target(h, &p, &t);
	assert_string_equal(t.data, "/a/b?x=1");

	assert_int_equal(url_split(h2, &p), 0);
	assert_int_equal(p.host_ip, 4);
	assert_int_equal(p.port, 80);
	assert_int_equal(p.has_port, 0);
	assert_int_equal(p.user_len, 0);
	assert_int_equal(p.has_query, 0);
	assert_int_equal(p.has_frag, 0);
	url_request_target(h2, &p, &t);
	assert_string_equal(t.data, "/");

	assert_int_equal(url_split("http://h/?#", &p), 0);
	assert_int_equal(p.has_query, 1);
	assert_int_equal(p.query_len, 0);
	url_request_target("http://h/?#", &p, &t);
	assert_string_equal(t.data, "/?");

	assert_int_equal(url_split("ftp://h/", &p), URL_EINVAL);
	assert_int_equal(url_split("http://h", &p), URL_EINVAL);
	assert_int_equal(url_split("http:///", &p), URL_EINVAL);
	assert_int_equal(url_split("http://h:99999/", &p), URL_EINVAL);
	assert_int_equal(url_split("http://h:8x/", &p), URL_EINVAL);
	buf_free(&t);
}

/* What url_resolve writes, url_resolve reads back unchanged. */
static void test_url_idempotent(void **state)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(url_cases) / sizeof(url_cases[0]); i++) {
		if (url_cases[i].want == NULL)
			continue;
		if (url_resolve(NULL, url_cases[i].want, strlen(url_cases[i].want), &a) != 0 ||
		    strcmp(a.data, url_cases[i].want) != 0)
			fail_msg("%s reads back as %s", url_cases[i].want, a.data ? a.data : "");
		assert_int_equal(url_resolve_parsed(NULL, NULL, a.data, a.len, &b), 0);
		assert_string_equal(b.data, a.data);
	}
	buf_free(&a);
	buf_free(&b);
}

static void test_url_resolve_parsed(void **state)
{
	struct buf out = BUF_INIT;
	struct url_parts bp;
	const char *base = "http://example.com/a/b/c?q=1#f";

	(void)state;
	assert_int_equal(url_split(base, &bp), 0);
	assert_int_equal(url_resolve_parsed(base, &bp, "../x", 4, &out), 0);
	assert_string_equal(out.data, "http://example.com/a/x");
	assert_int_equal(url_resolve_parsed(base, &bp, "#z", 2, &out), 0);
	assert_string_equal(out.data, "http://example.com/a/b/c?q=1#z");
	buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_url_table),
	    cmocka_unit_test(test_url_not_nul_terminated),
	    cmocka_unit_test(test_url_too_long),
	    cmocka_unit_test(test_url_split),
	    cmocka_unit_test(test_url_idempotent),
	    cmocka_unit_test(test_url_resolve_parsed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
