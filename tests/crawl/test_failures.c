/* crawl/failures: what is said and counted when fetches fail. A host's
 * first failure of each kind is said once (per port; a DNS failure per
 * name), a seed's retries each while nothing was fetched, an HTTP error
 * only for a seed; the message names the cause, what happens next and the
 * settings; the terminal gets a bounded number of lines, tern.log all;
 * final failures are counted by group, and the crawl has failed for good
 * when it saw failures and no page answered 2xx or 304. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "crawl/failures.h"
#include "crawl/stats.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"
#include <stdio.h>

struct test_said {
	char *last;
	int n, terminal;
};

static void test_failures_say(void *ctx, const char *msg, int terminal)
{
	struct test_said *s = ctx;

	free(s->last);
	s->last = xstrdup(msg);
	s->n++;
	s->terminal += terminal;
}

static struct failures_event test_failures_ev(const char *host, int port, enum status_cause c)
{
	struct failures_event ev;

	memset(&ev, 0, sizeof ev);
	ev.host = host;
	ev.port = port;
	ev.uri = "http://x/";
	ev.cause = c;
	ev.attempt = 1;
	ev.max_attempts = 30;
	ev.retry_ms = 900000;
	ev.retry_setting = "frontier.retry-delay-seconds";
	return ev;
}

static void test_failures_once_per_host_and_kind(void **state)
{
	struct crawl_stats st;
	struct test_said said = {NULL, 0, 0};
	struct failures_env env = {&st, &said, test_failures_say};
	struct failures *fl;
	struct failures_event ev;

	(void)state;
	memset(&st, 0, sizeof st);
	st.pages = 1; /* something was fetched: seeds are said once too */
	fl = failures_new(&env);
	ev = test_failures_ev("a.test", 80, CAUSE_CONNECT_REFUSED);
	failures_note(fl, &ev);
	assert_int_equal(said.n, 1);
	assert_non_null(
	    strstr(said.last, "a.test:80: connection refused (http://x/); attempt 2 of 30 at "));
	assert_non_null(strstr(said.last,
	    ", in 15 min; see frontier.retry-delay-seconds, "
	    "frontier.max-retries"));
	/* The same kind for the same host: quiet, even for another cause. */
	failures_note(fl, &ev);
	ev.cause = CAUSE_CONNECT_TIMEOUT;
	failures_note(fl, &ev);
	assert_int_equal(said.n, 1);
	/* Another kind, another port, another host: each said. */
	ev.cause = CAUSE_TLS_SELF_SIGNED;
	failures_note(fl, &ev);
	assert_int_equal(said.n, 2);
	assert_non_null(strstr(said.last, "certificate verify failed (self-signed)"));
	assert_non_null(strstr(said.last, "see fetch.tls-verify, fetch.ca-file"));
	ev.cause = CAUSE_CONNECT_REFUSED;
	ev.port = 8080;
	failures_note(fl, &ev);
	ev.host = "b.test";
	failures_note(fl, &ev);
	assert_int_equal(said.n, 4);
	/* DNS failures are the name's, whatever the port. */
	ev = test_failures_ev("c.test", 80, CAUSE_DNS_TIMEOUT);
	failures_note(fl, &ev);
	ev.port = 443;
	failures_note(fl, &ev);
	assert_int_equal(said.n, 5);
	assert_non_null(strstr(said.last, "c.test: no DNS answer in time"));
	/* A final failure says how it ended. */
	ev = test_failures_ev("d.test", 80, CAUSE_CONNECT_REFUSED);
	ev.final = 1;
	ev.attempt = 3;
	failures_note(fl, &ev);
	assert_non_null(strstr(said.last, "; gave up after 3 attempts; see "));
	ev = test_failures_ev("e.test", 80, CAUSE_ROBOTS_DISALLOWED);
	ev.final = 1;
	failures_note(fl, &ev);
	assert_non_null(strstr(said.last,
	    "robots.txt disallows it (http://x/); not fetched; "
	    "see robots.policy"));
	/* HTTP errors only for seeds. */
	ev = test_failures_ev("f.test", 80, CAUSE_HTTP_ERROR);
	ev.status = 404;
	ev.final = 1;
	failures_note(fl, &ev);
	assert_int_equal(said.n, 7);
	ev.seed = 1;
	failures_note(fl, &ev);
	assert_int_equal(said.n, 8);
	assert_string_equal(said.last, "f.test:80: HTTP error status 404 (seed http://x/)");
	failures_free(fl);
	free(said.last);
}

static void test_failures_seed_retries_while_nothing_fetched(void **state)
{
	struct crawl_stats st;
	struct test_said said = {NULL, 0, 0};
	struct failures_env env = {&st, &said, test_failures_say};
	struct failures *fl;
	struct failures_event ev;

	(void)state;
	memset(&st, 0, sizeof st);
	fl = failures_new(&env);
	ev = test_failures_ev("a.test", 80, CAUSE_CONNECT_REFUSED);
	ev.seed = 1;
	for (int i = 1; i <= 3; i++) {
		ev.attempt = i;
		failures_note(fl, &ev);
		assert_int_equal(said.n, i);
	}
	assert_non_null(strstr(said.last, "attempt 4 of 30"));
	/* Once a page came, a seed's retries are quiet again. */
	st.pages = 1;
	ev.attempt = 4;
	failures_note(fl, &ev);
	assert_int_equal(said.n, 3);
	/* The retry's own setting is named when the settings do not. */
	ev = test_failures_ev("b.test", 80, CAUSE_TLS_SELF_SIGNED);
	failures_note(fl, &ev);
	assert_non_null(
	    strstr(said.last, "in 15 min (frontier.retry-delay-seconds); see fetch.tls-verify"));
	failures_free(fl);
	free(said.last);
}

static void test_failures_terminal_bounded(void **state)
{
	struct crawl_stats st;
	struct test_said said = {NULL, 0, 0};
	struct failures_env env = {&st, &said, test_failures_say};
	struct failures *fl;
	char host[32];

	(void)state;
	memset(&st, 0, sizeof st);
	st.pages = 1;
	fl = failures_new(&env);
	for (int i = 0; i < 100; i++) {
		struct failures_event ev;

		snprintf(host, sizeof host, "h%d.test", i);
		ev = test_failures_ev(host, 80, CAUSE_CONNECT_REFUSED);
		failures_note(fl, &ev);
	}
	/* 100 hosts said, plus one line saying the rest go to tern.log. */
	assert_int_equal(said.n, 101);
	assert_int_equal(said.terminal, 41);
	failures_free(fl);
	free(said.last);
}

static void test_failures_counts(void **state)
{
	struct crawl_stats st, back;
	struct test_said said = {NULL, 0, 0};
	struct failures_env env = {&st, &said, test_failures_say};
	struct failures *fl;
	struct buf b = BUF_INIT;
	json_t *j;

	(void)state;
	memset(&st, 0, sizeof st);
	fl = failures_new(&env);
	assert_int_equal(failures_all_failed(fl), 0);
	failures_disposed(fl, 200, CAUSE_NONE);
	failures_disposed(fl, 301, CAUSE_NONE);
	assert_int_equal(failures_all_failed(fl), 0);
	failures_disposed(fl, -61, CAUSE_CONNECT_REFUSED);
	failures_disposed(fl, -2, CAUSE_TLS_SELF_SIGNED);
	failures_disposed(fl, -9998, CAUSE_ROBOTS_UNAVAILABLE);
	failures_disposed(fl, -7, CAUSE_PRIVATE_ADDRESS);
	failures_disposed(fl, 404, CAUSE_HTTP_ERROR);
	failures_disposed(fl, 503, CAUSE_NONE);
	failures_disposed(fl, -4, CAUSE_NONE);
	assert_int_equal(st.failures_by_cause[STATUS_GROUP_CONNECT], 1);
	assert_int_equal(st.failures_by_cause[STATUS_GROUP_TLS], 1);
	assert_int_equal(st.failures_by_cause[STATUS_GROUP_ROBOTS], 1);
	assert_int_equal(st.failures_by_cause[STATUS_GROUP_PRIVATE], 1);
	assert_int_equal(st.failures_by_cause[STATUS_GROUP_HTTP], 2);
	assert_int_equal(st.failures_by_cause[STATUS_GROUP_TIMEOUT], 1);
	/* Failures and no 2xx page: the seeds failed for good. */
	assert_int_equal(failures_all_failed(fl), 1);
	st.status_class[2] = 1;
	assert_int_equal(failures_all_failed(fl), 0);
	st.status_class[2] = 0;
	st.not_modified = 1;
	assert_int_equal(failures_all_failed(fl), 0);
	failures_brief(&st, &b);
	assert_string_equal(b.data, "robots 1, private 1, connect 1, tls 1, timeout 1, http 2");
	buf_free(&b);
	/* stats.json and checkpoints carry every group, and read back. */
	j = failures_json(&st);
	assert_int_equal(json_object_size(j), STATUS_GROUP_COUNT);
	memset(&back, 0, sizeof back);
	failures_from_json(&back, j);
	assert_memory_equal(
	    back.failures_by_cause, st.failures_by_cause, sizeof st.failures_by_cause);
	json_decref(j);
	/* An older checkpoint without them reads as none. */
	failures_from_json(&back, NULL);
	assert_int_equal(back.failures_by_cause[STATUS_GROUP_HTTP], 0);
	failures_free(fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_failures_once_per_host_and_kind),
	    cmocka_unit_test(test_failures_seed_retries_while_nothing_fetched),
	    cmocka_unit_test(test_failures_terminal_bounded),
	    cmocka_unit_test(test_failures_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
