/* lib/reqheaders: the checks of fetch.accept-language, fetch.from and
 * fetch.extra-headers, the lines built from them for a URI (overrides
 * included), and their place in a request head. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "lib/buf.h"
#include "lib/config.h"
#include "lib/reqheaders.h"

static void test_reqheaders_extra_checks(void **state)
{
	static const struct {
		const char *text;
		int ok;
		const char *why; /* a word of the message */
	} cases[] = {
	    {"", 1, NULL},
	    {"X-A: 1", 1, NULL},
	    {"X-A: 1 | X-B: two words", 1, NULL},
	    {"Accept: text/html;q=0.9, */*", 1, NULL},
	    {"X-Empty:", 1, NULL},
	    {"Host: evil.example", 0, "Host"},
	    {"X-A: 1 | content-length: 5", 0, "Content-Length"},
	    {"Transfer-Encoding: chunked", 0, "Transfer-Encoding"},
	    {"CONNECTION: close", 0, "Connection"},
	    {"User-Agent: x", 0, "crawl.user-agent"},
	    {"Authorization: Basic eA==", 0, "credentials-file"},
	    {"Cookie: a=1", 1, NULL},
	    {"X-A: 1\r\nHost: x", 0, "control"},
	    {"X-A: 1\nX-B: 2", 0, "control"},
	    {"X-A 1", 0, "Name: value"},
	    {"X A: 1", 0, "Name: value"},
	    {": 1", 0, "Name: value"},
	    {"X-A: 1 || X-B: 2", 0, "empty"},
	    {"X-A: 1 |", 1, NULL},
	    {"(x): 1", 0, "Name: value"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *why = NULL;
		int rc = reqheaders_check_extra(cases[i].text, &why);
		if (cases[i].ok) {
			assert_int_equal(rc, 0);
		} else {
			assert_int_equal(rc, -1);
			assert_non_null(strstr(why, cases[i].why));
		}
	}
}

static void test_reqheaders_from(void **state)
{
	const char *why;

	(void)state;
	assert_int_equal(reqheaders_check_from("", &why), 0);
	assert_int_equal(reqheaders_check_from("crawl@example.org", &why), 0);
	assert_int_equal(reqheaders_check_from("crawl", &why), -1);
	assert_int_equal(reqheaders_check_from("@example.org", &why), -1);
	assert_int_equal(reqheaders_check_from("a @b", &why), -1);
	assert_int_equal(reqheaders_check_from("a@b\r\nX: 1", &why), -1);
	assert_int_equal(reqheaders_check_value("da, en-gb;q=0.8, en;q=0.7", &why), 0);
	assert_int_equal(reqheaders_check_value("en\r", &why), -1);
}

/* As a visit builds them (src/crawl/visithttp.c). */
static void test_reqheaders_for(const struct config *c, const char *surt, struct buf *out)
{
	reqheaders_build(config_str_for(c, surt, CK_FETCH_ACCEPT_LANGUAGE),
	    config_str(c, CK_FETCH_FROM), config_str_for(c, surt, CK_FETCH_EXTRA_HEADERS), out);
}

/* The settings as tern.conf gives them: checked as read, built per SURT. */
static void test_reqheaders_lines(void **state)
{
	static const char conf[] = "[fetch]\n"
				   "accept-language = da, en;q=0.7\n"
				   "from = crawl@example.org\n"
				   "extra-headers = X-A: 1 |  X-B :2\n";
	struct config *c = config_new();
	struct buf out = BUF_INIT;
	char *err = NULL;

	(void)state;
	/* "X-B :2": a blank before the colon is not a token's. */
	assert_int_equal(config_load_text(c, conf, strlen(conf), "t.conf", &err), -1);
	assert_non_null(strstr(err, "t.conf:4: fetch.extra-headers"));
	free(err);
	err = NULL;
	config_free(c);

	c = config_new();
	{
		static const char ok[] = "[fetch]\n"
					 "accept-language = da, en;q=0.7\n"
					 "from = crawl@example.org\n"
					 "extra-headers = X-A: 1 |  X-B:  2 \n"
					 "[override \"org,example,)/private\"]\n"
					 "fetch.extra-headers = X-Private: yes\n"
					 "fetch.accept-language = fr\n";
		assert_int_equal(config_load_text(c, ok, strlen(ok), "t.conf", &err), 0);
	}
	test_reqheaders_for(c, "com,example,)/", &out);
	assert_string_equal(out.data,
	    "Accept-Language: da, en;q=0.7\r\nFrom: crawl@example.org\r\n"
	    "X-A: 1\r\nX-B: 2\r\n");
	buf_reset(&out);
	test_reqheaders_for(c, "org,example,)/private/x", &out);
	assert_string_equal(
	    out.data, "Accept-Language: fr\r\nFrom: crawl@example.org\r\nX-Private: yes\r\n");
	assert_int_equal(config_set(c, "fetch.extra-headers=Host: x", &err), -1);
	assert_non_null(strstr(err, "--set: fetch.extra-headers: Host cannot be set"));
	free(err);
	assert_int_equal(config_set(c, "fetch.from=nobody", &err), -1);
	free(err);
	buf_free(&out);
	config_free(c);
}

static void test_reqheaders_insert(void **state)
{
	struct buf h = BUF_INIT;

	(void)state;
	buf_appends(&h, "GET / HTTP/1.1\r\nHost: a\r\n\r\n");
	reqheaders_insert(&h, "X-A: 1\r\n", 8);
	assert_string_equal(h.data, "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n\r\n");
	reqheaders_insert(&h, "", 0);
	assert_int_equal(h.len, strlen("GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n\r\n"));
	buf_free(&h);
	/* The operator's Accept replaces tern's; Accept-Encoding stays. */
	buf_appends(&h,
	    "GET /accept: HTTP/1.1\r\nHost: a\r\nAccept: text/html\r\n"
	    "Accept-Encoding: gzip\r\naccept: x\r\nConnection: keep-alive\r\n\r\n");
	reqheaders_insert(&h, "X-B: 2\r\nACCEPT: */*\r\n", strlen("X-B: 2\r\nACCEPT: */*\r\n"));
	assert_string_equal(h.data,
	    "GET /accept: HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n"
	    "Connection: keep-alive\r\nX-B: 2\r\nACCEPT: */*\r\n\r\n");
	buf_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reqheaders_extra_checks),
	    cmocka_unit_test(test_reqheaders_from),
	    cmocka_unit_test(test_reqheaders_lines),
	    cmocka_unit_test(test_reqheaders_insert),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
