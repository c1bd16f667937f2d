/* net/httpauth: WWW-Authenticate challenges (several in one value, quoted
 * and bare parameters, schemes tern does not answer), the preference of
 * Digest SHA-256 over MD5 over Basic, and the answers: RFC 7617's Basic
 * example and RFC 7616 3.9.1's Digest examples, MD5 and SHA-256. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "lib/buf.h"
#include "net/httpauth.h"

static void test_httpauth_hash(int sha256, const char *in, size_t len, char *hex)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	EVP_Digest(in, len, d, &n, sha256 ? EVP_sha256() : EVP_md5(), NULL);
	for (unsigned i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
}

static void test_httpauth_parse_table(void **state)
{
	static const struct {
		const char *value;
		int rc;
		enum httpauth_scheme scheme;
		const char *realm, *nonce, *opaque;
	} cases[] = {
	    {"Basic realm=\"WallyWorld\"", 0, HTTPAUTH_BASIC, "WallyWorld", "", ""},
	    {"basic REALM=simple", 0, HTTPAUTH_BASIC, "simple", "", ""},
	    {"Basic realm=\"a \\\"quoted\\\" realm\", charset=\"UTF-8\"", 0, HTTPAUTH_BASIC,
		"a \"quoted\" realm", "", ""},
	    {"Digest realm=\"http-auth@example.org\", qop=\"auth, auth-int\", algorithm=SHA-256, "
	     "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", "
	     "opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\", Digest "
	     "realm=\"http-auth@example.org\", qop=\"auth, auth-int\", algorithm=MD5, "
	     "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", "
	     "opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\"",
		0, HTTPAUTH_DIGEST_SHA256, "http-auth@example.org",
		"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v",
		"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"},
	    {"Basic realm=\"b\", Digest realm=\"d\", nonce=\"n\", qop=\"auth\"", 0,
		HTTPAUTH_DIGEST_MD5, "d", "n", ""},
	    {"Digest realm=\"d\", nonce=\"n\", qop=\"auth-int\", Basic realm=\"b\"", 0,
		HTTPAUTH_BASIC, "b", "", ""},
	    {"Digest realm=\"d\", nonce=\"n\"", 0, HTTPAUTH_NONE, "", "", ""},
	    {"Digest realm=\"d\", nonce=\"n\", qop=auth, algorithm=MD5-sess", 0, HTTPAUTH_NONE, "",
		"", ""},
	    {"Digest realm=\"d\", nonce=\"n\", qop=auth, userhash=true", 0, HTTPAUTH_NONE, "", "",
		""},
	    {"Negotiate, NTLM", 0, HTTPAUTH_NONE, "", "", ""},
	    {"Bearer realm=\"x\", Basic realm=\"y\"", 0, HTTPAUTH_BASIC, "y", "", ""},
	    {"Basic realm=\"unterminated", -1, HTTPAUTH_NONE, "", "", ""},
	    {"", 0, HTTPAUTH_NONE, "", "", ""},
	    {",,, Basic realm=x ,", 0, HTTPAUTH_BASIC, "x", "", ""},
	    {"\"junk\"", -1, HTTPAUTH_NONE, "", "", ""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct httpauth_challenge ch;
		memset(&ch, 0, sizeof ch);
		assert_int_equal(httpauth_parse(cases[i].value, &ch), cases[i].rc);
		assert_int_equal(ch.scheme, cases[i].scheme);
		if (ch.scheme == HTTPAUTH_NONE)
			continue;
		assert_string_equal(ch.realm, cases[i].realm);
		assert_string_equal(ch.nonce, cases[i].nonce);
		assert_string_equal(ch.opaque, cases[i].opaque);
	}
}

/* Two header lines: the better challenge of either is kept. */
static void test_httpauth_two_lines(void **state)
{
	struct httpauth_challenge ch;

	(void)state;
	memset(&ch, 0, sizeof ch);
	assert_int_equal(httpauth_parse("Digest realm=r, nonce=abc, qop=auth", &ch), 0);
	assert_int_equal(httpauth_parse("Basic realm=r", &ch), 0);
	assert_int_equal(ch.scheme, HTTPAUTH_DIGEST_MD5);
}

static void test_httpauth_answers(void **state)
{
	struct httpauth_challenge ch;
	struct buf out = BUF_INIT;
	static const char rfc7616[] =
	    "Digest realm=\"http-auth@example.org\", qop=\"auth, auth-int\", algorithm=%s, "
	    "nonce=\"7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v\", "
	    "opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\"";
	char value[512];

	(void)state;
	/* RFC 7617 2: Aladdin / open sesame. */
	memset(&ch, 0, sizeof ch);
	ch.scheme = HTTPAUTH_BASIC;
	httpauth_answer(&ch, "Aladdin", "open sesame", "/", "", test_httpauth_hash, &out);
	assert_string_equal(out.data, "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==");

	/* RFC 7616 3.9.1: Mufasa / Circle of Life. */
	snprintf(value, sizeof value, rfc7616, "MD5");
	memset(&ch, 0, sizeof ch);
	assert_int_equal(httpauth_parse(value, &ch), 0);
	buf_reset(&out);
	httpauth_answer(&ch, "Mufasa", "Circle of Life", "/dir/index.html",
	    "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", test_httpauth_hash, &out);
	assert_non_null(strstr(out.data, "response=\"8ca523f5e9506fed4657c9700eebdbec\""));
	assert_non_null(
	    strstr(out.data, "opaque=\"FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS\""));
	assert_non_null(strstr(out.data, "nc=00000001"));
	assert_non_null(strstr(out.data, "qop=auth,"));

	snprintf(value, sizeof value, rfc7616, "SHA-256");
	memset(&ch, 0, sizeof ch);
	assert_int_equal(httpauth_parse(value, &ch), 0);
	buf_reset(&out);
	httpauth_answer(&ch, "Mufasa", "Circle of Life", "/dir/index.html",
	    "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", test_httpauth_hash, &out);
	assert_non_null(strstr(out.data,
	    "response=\"753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1\""));
	assert_non_null(strstr(out.data, "algorithm=SHA-256"));
	buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_httpauth_parse_table),
	    cmocka_unit_test(test_httpauth_two_lines),
	    cmocka_unit_test(test_httpauth_answers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
