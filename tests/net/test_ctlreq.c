/* Control socket request parsing: a table of requests, each fed whole and
 * one byte at a time, with the verdict, the status of a refusal and the
 * parts of an accepted request; then the query-string lookup. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/ctlreq.h"

struct test_ctlreq_case {
	const char *in;
	enum ctlreq_result want;
	int status; /* for errors */
	const char *method, *path, *query, *body;
};

static const struct test_ctlreq_case test_ctlreq_cases[] = {
    {"GET /status HTTP/1.1\r\nHost: x\r\n\r\n", CTLREQ_DONE, 0, "GET", "/status", "", ""},
    {"GET /report/queues?state=retired&format=json HTTP/1.1\r\n\r\n", CTLREQ_DONE, 0, "GET",
	"/report/queues", "state=retired&format=json", ""},
    {"POST /settings HTTP/1.1\r\nContent-Length: 5\r\n\r\n{\"a\"}", CTLREQ_DONE, 0, "POST",
	"/settings", "", "{\"a\"}"},
    {"POST /settings HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
	CTLREQ_DONE, 0, "POST", "/settings", "", "{}"},
    {"POST /pause HTTP/1.0\r\n\r\n", CTLREQ_DONE, 0, "POST", "/pause", "", ""},
    /* Bytes after the first request are left alone. */
    {"GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n", CTLREQ_DONE, 0, "GET", "/a", "", ""},
    /* A method the routes do not know parses; the route answers 405. */
    {"OPTIONS /status HTTP/1.1\r\n\r\n", CTLREQ_DONE, 0, "", "/status", "", ""},
    /* Incomplete. */
    {"GET /status HTTP/1.1\r\nHost: x\r\n", CTLREQ_MORE, 0, NULL, NULL, NULL, NULL},
    {"POST /settings HTTP/1.1\r\nContent-Length: 10\r\n\r\n{}", CTLREQ_MORE, 0, NULL, NULL, NULL,
	NULL},
    /* Refused. */
    {"GARBAGE\r\n\r\n", CTLREQ_ERROR, 400, NULL, NULL, NULL, NULL},
    {"GET /status HTTP/9.9\r\n\r\n", CTLREQ_ERROR, 400, NULL, NULL, NULL, NULL},
    {"GET /status HTTP/1.1\r\nBad Header\r\n\r\n", CTLREQ_ERROR, 400, NULL, NULL, NULL, NULL},
    {"GET /status HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", CTLREQ_ERROR, 400,
	NULL, NULL, NULL, NULL},
    {"POST /settings HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", CTLREQ_ERROR, 413, NULL, NULL,
	NULL, NULL},
};

static void test_ctlreq_check(
    const struct test_ctlreq_case *c, struct ctlreq_parser *p, enum ctlreq_result r)
{
	const struct ctlreq *q;

	assert_int_equal(r, c->want);
	if (r == CTLREQ_ERROR) {
		assert_int_equal(ctlreq_error_status(p), c->status);
		assert_true(strlen(ctlreq_error_message(p)) > 0);
	}
	if (r != CTLREQ_DONE)
		return;
	q = ctlreq_request(p);
	assert_string_equal(q->method, c->method);
	assert_string_equal(q->path.data, c->path);
	assert_string_equal(q->query.data, c->query);
	assert_int_equal(q->body.len, strlen(c->body));
	assert_memory_equal(q->body.data, c->body, q->body.len);
}

static void test_ctlreq_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof test_ctlreq_cases / sizeof test_ctlreq_cases[0]; i++) {
		const struct test_ctlreq_case *c = &test_ctlreq_cases[i];
		struct ctlreq_parser *p = ctlreq_parser_new();
		enum ctlreq_result r = CTLREQ_MORE;

		test_ctlreq_check(c, p, ctlreq_feed(p, c->in, strlen(c->in)));
		/* The verdict sticks. */
		assert_int_equal(ctlreq_feed(p, "x", 1), c->want);
		ctlreq_parser_free(p);

		p = ctlreq_parser_new();
		for (size_t k = 0; c->in[k] != '\0' && r == CTLREQ_MORE; k++)
			r = ctlreq_feed(p, c->in + k, 1);
		test_ctlreq_check(c, p, r);
		ctlreq_parser_free(p);
	}
}

/* Caps: an endless head is refused at CTLREQ_MAX_HEAD bytes (431) even when
 * it never ends a line; a long target gets 414; a chunked body past the cap
 * gets 413. */
static void test_ctlreq_caps(void **state)
{
	struct ctlreq_parser *p;
	char *big = malloc(CTLREQ_MAX_BODY + 64);
	enum ctlreq_result r = CTLREQ_MORE;
	size_t fed = 0;

	(void)state;
	p = ctlreq_parser_new();
	r = ctlreq_feed(p, "GET /status HTTP/1.1\r\nX-A: ", 27);
	assert_int_equal(r, CTLREQ_MORE);
	memset(big, 'a', 1000);
	while (r == CTLREQ_MORE && fed < 100000) {
		r = ctlreq_feed(p, big, 1000);
		fed += 1000;
	}
	assert_int_equal(r, CTLREQ_ERROR);
	assert_int_equal(ctlreq_error_status(p), 431);
	assert_true(fed <= CTLREQ_MAX_HEAD + 1000);
	ctlreq_parser_free(p);

	p = ctlreq_parser_new();
	ctlreq_feed(p, "GET /", 5);
	memset(big, 'b', CTLREQ_MAX_TARGET + 10);
	r = ctlreq_feed(p, big, CTLREQ_MAX_TARGET + 10);
	assert_int_equal(r, CTLREQ_ERROR);
	assert_int_equal(ctlreq_error_status(p), 414);
	ctlreq_parser_free(p);

	p = ctlreq_parser_new();
	r = ctlreq_feed(p, "POST /settings HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 55);
	assert_int_equal(r, CTLREQ_MORE);
	fed = 0;
	while (r == CTLREQ_MORE && fed < 4 * CTLREQ_MAX_BODY) {
		char hdr[16];
		memset(big, 'c', 4096);
		r = ctlreq_feed(p, hdr, (size_t)snprintf(hdr, sizeof hdr, "1000\r\n"));
		if (r == CTLREQ_MORE)
			r = ctlreq_feed(p, big, 4096);
		if (r == CTLREQ_MORE)
			r = ctlreq_feed(p, "\r\n", 2);
		fed += 4096;
	}
	assert_int_equal(r, CTLREQ_ERROR);
	assert_int_equal(ctlreq_error_status(p), 413);
	ctlreq_parser_free(p);
	free(big);
}

static void test_ctlreq_query(void **state)
{
	static const struct {
		const char *q, *name;
		int rc;
		const char *want;
	} cases[] = {
	    {"state=retired&format=json", "state", 0, "retired"},
	    {"state=retired&format=json", "format", 0, "json"},
	    {"state=retired", "format", -1, NULL},
	    {"states=x&state=y", "state", 0, "y"},
	    {"state=RE%54IRED", "state", 0, "RETIRED"},
	    {"state=a+b", "state", 0, "a b"},
	    {"state=%4", "state", -1, NULL},
	    {"state=%zz", "state", -1, NULL},
	    {"state", "state", 0, ""},
	    {"", "state", -1, NULL},
	    {"a=%zz&state=ok", "state", 0, "ok"},
	    {"&&state=x&&", "state", 0, "x"},
	    {"st%61te=y", "state", 0, "y"},
	    {"state%00x=1", "state", -1, NULL},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf v = BUF_INIT;
		int rc = ctlreq_query_param(cases[i].q, cases[i].name, &v);
		assert_int_equal(rc, cases[i].rc);
		if (rc == 0)
			assert_string_equal(v.data != NULL ? v.data : "", cases[i].want);
		buf_free(&v);
	}
}

/* The headers the routes read: kept as sent (without the surrounding
 * blanks), NULL when absent, and a repeated one refused. */
static void test_ctlreq_headers(void **state)
{
	static const char ok[] =
	    "POST /pause HTTP/1.1\r\nHOST:  127.0.0.1:8080 \r\n"
	    "Origin: http://127.0.0.1:8080\r\nauthorization: Bearer abc\r\n"
	    "Sec-Fetch-Site: same-origin\r\nX-Other: y\r\nContent-Type: application/json\r\n"
	    "Content-Length: 0\r\n\r\n";
	static const char dup[] = "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n";
	static const char none[] = "GET / HTTP/1.0\r\n\r\n";
	struct ctlreq_parser *p;
	const struct ctlreq *r;
	enum ctlreq_result rc = CTLREQ_MORE;

	(void)state;
	p = ctlreq_parser_new();
	for (size_t k = 0; ok[k] != '\0' && rc == CTLREQ_MORE; k++)
		rc = ctlreq_feed(p, ok + k, 1);
	assert_int_equal(rc, CTLREQ_DONE);
	r = ctlreq_request(p);
	assert_string_equal(ctlreq_header(r, CTLREQ_H_HOST), "127.0.0.1:8080");
	assert_string_equal(ctlreq_header(r, CTLREQ_H_ORIGIN), "http://127.0.0.1:8080");
	assert_string_equal(ctlreq_header(r, CTLREQ_H_AUTHORIZATION), "Bearer abc");
	assert_string_equal(ctlreq_header(r, CTLREQ_H_FETCH_SITE), "same-origin");
	assert_string_equal(ctlreq_header(r, CTLREQ_H_CONTENT_TYPE), "application/json");
	ctlreq_parser_free(p);

	p = ctlreq_parser_new();
	assert_int_equal(ctlreq_feed(p, dup, strlen(dup)), CTLREQ_ERROR);
	assert_int_equal(ctlreq_error_status(p), 400);
	ctlreq_parser_free(p);

	p = ctlreq_parser_new();
	assert_int_equal(ctlreq_feed(p, none, strlen(none)), CTLREQ_DONE);
	r = ctlreq_request(p);
	for (int h = 0; h < CTLREQ_H__COUNT; h++)
		assert_null(ctlreq_header(r, (enum ctlreq_header)h));
	ctlreq_parser_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ctlreq_table),
	    cmocka_unit_test(test_ctlreq_caps),
	    cmocka_unit_test(test_ctlreq_query),
	    cmocka_unit_test(test_ctlreq_headers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
