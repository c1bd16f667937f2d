/* The frontier's revisit schedule (src/frontier/due.c) on a simulated clock
 * over a real LevelDB store: URIs finished with a due time wait in the
 * store and come back onto their queues when due, with their history,
 * under the same politeness, one-in-flight, budget and retirement rules
 * as first visits; the schedule survives a reopen; a backlog is released
 * a bounded amount per flush; in cluster mode a URI's record travels to
 * another node and waits there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontier/frontier.h"
#include "lib/history.h"

struct test_due {
	char dir[64];
	char path[96];
	struct frontier_options o;
	struct frontier *f;
	uint64_t now;
};

static int test_due_rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int test_due_setup(void **state)
{
	struct test_due *t = calloc(1, sizeof(*t));

	strcpy(t->dir, "/tmp/test_due.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/state", t->dir);
	frontier_options_defaults(&t->o);
	t->o.hold_queues = 0;
	t->now = 1700000000000ull;
	*state = t;
	return 0;
}

static int test_due_teardown(void **state)
{
	struct test_due *t = *state;

	frontier_close(t->f);
	nftw(t->dir, test_due_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

static void test_due_open(struct test_due *t, int create)
{
	char *err = NULL;

	t->f = frontier_open_opts(t->path, &t->o, create, t->now, &err);
	if (t->f == NULL)
		fail_msg("open: %s", err);
}

static void test_due_flush(struct test_due *t)
{
	char *err = NULL;

	if (frontier_flush(t->f, &err) < 0)
		fail_msg("flush: %s", err);
}

/* Schedules uri on the queue named by its host. */
static void test_due_add(struct test_due *t, const char *uri)
{
	struct curi *c = curi_new(uri, NULL, "", CURI_SEED);
	const char *h = strstr(uri, "://") + 3;
	char host[128];

	snprintf(host, sizeof(host), "%.*s,", (int)strcspn(h, "/"), h);
	assert_int_equal(frontier_schedule(t->f, c, uri, host, host, 1), 1);
	curi_free(c);
}

static struct curi *test_due_take(struct test_due *t)
{
	struct curi *c = NULL;
	uint64_t wake = 0;

	if (frontier_next(t->f, t->now, &c, &wake) != 1)
		fail_msg("nothing ready at %llu (wake %llu)", (unsigned long long)t->now,
		    (unsigned long long)wake);
	return c;
}

/* 1 if nothing is ready now; *wake when something may be. */
static int test_due_none(struct test_due *t, uint64_t *wake)
{
	struct curi *c = NULL;
	uint64_t w;
	int r = frontier_next(t->f, t->now, &c, &w);

	if (r == 1) {
		fail_msg("unexpected %s", c->uri);
		curi_free(c);
	}
	if (wake != NULL)
		*wake = w;
	return r == 0;
}

/* Finishes c with a history noting `digest`, due in `in_ms`. */
static void test_due_finish(
    struct test_due *t, struct curi *c, const char *digest, uint64_t delay_ms, uint64_t in_ms)
{
	if (c->history == NULL)
		c->history = history_new();
	free(c->history->digest);
	c->history->digest = strdup(digest);
	c->history->visits++;
	frontier_finish_revisit(t->f, c, FRONTIER_SUCCESS, t->now, delay_ms, t->now + in_ms);
}

/* A URI comes back when due, keeping what it had, with a new ordinal;
 * before then the frontier says when to wake; counts tell where it is. */
static void test_due_cycle(void **state)
{
	struct test_due *t = *state;
	struct frontier_counts n;
	struct curi *a, *b;
	uint64_t wake, ord;

	test_due_open(t, 1);
	test_due_add(t, "http://a/1");
	a = test_due_take(t);
	ord = a->ordinal;
	free(a->hops);
	a->hops = strdup("LLM");
	test_due_finish(t, a, "sha1:AAAA", 0, 10000);
	frontier_counts(t->f, &n);
	assert_int_equal(n.queued, 0);
	assert_int_equal(n.revisits, 1);
	assert_int_equal(n.succeeded, 1);
	assert_true(frontier_next_due(t->f) == t->now + 10000);
	assert_true(test_due_none(t, &wake));
	assert_true(wake == t->now + 10000);
	test_due_flush(t);
	t->now += 9999;
	assert_true(test_due_none(t, &wake));
	assert_true(wake == t->now + 1);
	t->now += 1;
	b = test_due_take(t);
	assert_string_equal(b->uri, "http://a/1");
	assert_string_equal(b->hops, "LLM");
	assert_string_equal(b->queue_key, "a,");
	assert_true(b->ordinal > ord);
	assert_non_null(b->history);
	assert_string_equal(b->history->digest, "sha1:AAAA");
	assert_int_equal(b->history->visits, 1);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 0);
	assert_int_equal(n.in_flight, 1);
	assert_true(frontier_next_due(t->f) == UINT64_MAX);
	test_due_finish(t, b, "sha1:BBBB", 0, 5000);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 1);
	assert_int_equal(n.succeeded, 2);
	/* A URI finished without a due time leaves for good. */
	t->now += 5000;
	b = test_due_take(t);
	assert_string_equal(b->history->digest, "sha1:BBBB");
	frontier_finish(t->f, b, FRONTIER_SUCCESS, t->now, 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 0);
	assert_true(frontier_is_finished(t->f));
	assert_null(frontier_error(t->f));
}

/* Revisits obey the rules of first visits: one URI of a queue out at a
 * time, the politeness snooze of the queue's last fetch, failures and
 * disregards come back too, and a retired queue keeps its revisits. */
static void test_due_rules(void **state)
{
	struct test_due *t = *state;
	struct frontier_counts n;
	struct curi *a, *b;
	uint64_t wake;

	test_due_open(t, 1);
	test_due_add(t, "http://a/1");
	test_due_add(t, "http://a/2");
	a = test_due_take(t);
	test_due_finish(t, a, "sha1:A1", 0, 1000);
	b = test_due_take(t);
	/* Failed: it comes back as well (the rule keeps its interval). */
	b->history = history_new();
	frontier_finish_revisit(t->f, b, FRONTIER_FAILED, t->now, 3000, t->now + 1000);
	t->now += 1000;
	/* Both are due, but the queue snoozes 3 s from its last fetch. */
	assert_true(test_due_none(t, &wake));
	assert_true(wake == t->now + 2000);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 0);
	assert_int_equal(n.queued, 2);
	t->now += 2000;
	a = test_due_take(t);
	assert_string_equal(a->uri, "http://a/1");
	/* One at a time from a queue. */
	assert_true(test_due_none(t, NULL));
	frontier_finish_revisit(t->f, a, FRONTIER_DISREGARD, t->now, 0, t->now + 60000);
	b = test_due_take(t);
	assert_string_equal(b->uri, "http://a/2");
	frontier_finish_revisit(t->f, b, FRONTIER_SUCCESS, t->now, 0, t->now + 60000);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 2);
	assert_int_equal(n.disregarded, 1);
	assert_int_equal(n.failed, 1);
	assert_null(frontier_error(t->f));
}

/* Budgets and retirement count revisits as they count first visits: a
 * queue whose total budget the revisits spend is retired, and what comes
 * due for it afterwards waits there with it, out of the crawl's way, until
 * the operator reconsiders retired queues (Heritrix's retired queues keep
 * receiving URIs the same way). */
static void test_due_budget(void **state)
{
	struct test_due *t = *state;
	struct frontier_counts n;
	struct curi *a;
	uint64_t wake;
	int i;

	t->o.defaults.total_budget = 3;
	test_due_open(t, 1);
	test_due_add(t, "http://a/1");
	test_due_add(t, "http://a/2");
	for (i = 0; i < 3; i++) {
		a = test_due_take(t);
		test_due_finish(t, a, "sha1:A", 0, 1000);
		if (i == 1)
			t->now += 1000;
	}
	/* Three visits at unit cost: the budget is spent. */
	t->now += 1000;
	assert_true(test_due_none(t, &wake));
	frontier_counts(t->f, &n);
	assert_int_equal(n.retired, 1);
	assert_int_equal(n.revisits, 0);
	assert_int_equal(n.retired_uris, 2);
	assert_int_equal(n.queued, 0);
	assert_true(frontier_is_finished(t->f));
	assert_int_equal(frontier_reconsider_retired(t->f), 1);
	frontier_counts(t->f, &n);
	assert_int_equal(n.queued, 2);
	assert_null(frontier_error(t->f));
}

/* The schedule is in the store: a reopen (as after a crash or a resume)
 * finds every waiting URI, its history and the earliest due time. */
static void test_due_reopen(void **state)
{
	struct test_due *t = *state;
	struct frontier_counts n;
	struct curi *a;
	uint64_t due;

	test_due_open(t, 1);
	test_due_add(t, "http://a/1");
	test_due_add(t, "http://b/1");
	a = test_due_take(t);
	test_due_finish(t, a, "sha1:A", 0, 7000);
	a = test_due_take(t);
	test_due_finish(t, a, "sha1:B", 0, 3000);
	due = t->now + 3000;
	test_due_flush(t);
	frontier_close(t->f);
	t->f = NULL;
	test_due_open(t, 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 2);
	assert_true(frontier_next_due(t->f) == due);
	t->now += 3000;
	a = test_due_take(t);
	assert_string_equal(a->uri, "http://b/1");
	assert_string_equal(a->history->digest, "sha1:B");
	frontier_finish_revisit(t->f, a, FRONTIER_SUCCESS, t->now, 0, t->now + 100000);
	t->now += 4000;
	a = test_due_take(t);
	assert_string_equal(a->uri, "http://a/1");
	/* A URI out at the close is still queued after the reopen, not lost
	 * from the cycle: it is fetched again. */
	test_due_flush(t);
	frontier_close(t->f);
	t->f = NULL;
	curi_free(a);
	test_due_open(t, 0);
	a = test_due_take(t);
	assert_string_equal(a->uri, "http://a/1");
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 1);
	frontier_finish_revisit(t->f, a, FRONTIER_SUCCESS, t->now, 0, t->now + 100000);
	assert_null(frontier_error(t->f));
}

/* A backlog of due URIs goes back to the queues at most DUE_PER_FLUSH
 * (1024) per flush, all of them in the end, each once. */
static void test_due_count_cb(void *arg, const struct curi *c, int waiting)
{
	(void)c;
	*(int *)arg += waiting;
}

static void test_due_backlog(void **state)
{
	struct test_due *t = *state;
	struct frontier_counts n;
	enum { N = 3000 };
	char uri[64];
	uint64_t times[3], counts[3];
	int i, taken = 0;

	test_due_open(t, 1);
	for (i = 0; i < N; i++) {
		struct curi *c;

		snprintf(uri, sizeof(uri), "http://h%d/p", i);
		test_due_add(t, uri);
		c = test_due_take(t);
		test_due_finish(t, c, "sha1:X", 0, 1000 + (uint64_t)(i % 3) * 1000);
	}
	test_due_flush(t);
	times[0] = t->now + 1000;
	times[1] = t->now + 2000;
	times[2] = t->now + 3600000;
	frontier_due_counts(t->f, times, counts, 3);
	assert_int_equal(counts[0], 0);
	assert_int_equal(counts[1], N / 3);
	assert_int_equal(counts[2], N);
	/* The same walked in pieces (a live revisits report): every waiting
	 * URI once, and the same counts, whatever the piece. */
	{
		static const size_t pieces[] = {1, 7, 1000, 5000};
		for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
			struct frontier_uri_walk *w = frontier_uri_walk_new(times, 3);
			size_t seen = 0, steps = 0;
			int more = 1, waiting = 0;
			uint64_t wc[3];

			while (more) {
				seen += frontier_uri_walk_step(
				    t->f, w, pieces[p], test_due_count_cb, &waiting, &more);
				steps++;
			}
			frontier_uri_walk_counts(w, wc);
			assert_int_equal(seen, N);
			assert_int_equal(waiting, N);
			assert_true(steps >= N / pieces[p]);
			assert_memory_equal(wc, counts, sizeof wc);
			frontier_uri_walk_free(w);
		}
	}
	t->now += 3000;
	{
		struct curi *c = test_due_take(t);

		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
		taken++;
	}
	frontier_counts(t->f, &n);
	assert_true(n.revisits >= N - 1024 && n.revisits < N);
	while (n.revisits > 0 || n.queued > 0) {
		struct curi *c = NULL;
		uint64_t wake;

		test_due_flush(t);
		while (frontier_next(t->f, t->now, &c, &wake) == 1) {
			frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
			taken++;
		}
		frontier_counts(t->f, &n);
		assert_true(wake == t->now || n.revisits == 0);
	}
	assert_int_equal(taken, N);
	assert_true(frontier_is_finished(t->f));
	assert_null(frontier_error(t->f));
}

static int test_due_host_a(void *ctx, const char *uri)
{
	(void)ctx;
	return strncmp(uri, "http://a/", 9) == 0;
}

/* Cluster mode (doc/cluster.md, "Continuous crawls"): a URI's record goes
 * to the stream with its history and due time and nothing of this node's
 * queue key; decoded strictly; a partition given up drops its waiting URIs;
 * a record received puts the URI back in the schedule, marked seen, due
 * when it says. */
static void test_due_cluster(void **state)
{
	struct test_due *t = *state;
	struct frontier_counts n;
	struct curi *a, *b, *got, *plain;
	struct buf rec = BUF_INIT, bad = BUF_INIT;
	char *err = NULL;

	test_due_open(t, 1);
	test_due_add(t, "http://a/1");
	test_due_add(t, "http://b/1");
	a = test_due_take(t);
	b = test_due_take(t);
	a->history = history_new();
	a->history->digest = strdup("sha1:AAAA");
	a->history->etag = strdup("\"e1\"");
	a->history->visits = 3;
	a->history->interval_s = 10;
	a->history->due_ms = (int64_t)t->now + 10000;
	frontier_revisit_encode(a, &rec);
	plain = curi_dup(a);
	history_free(plain->history);
	plain->history = NULL;
	frontier_revisit_encode(plain, &bad);
	curi_free(plain);
	assert_int_equal(
	    frontier_revisit_decode((const unsigned char *)bad.data, bad.len, &got), -1);
	assert_null(got);
	assert_int_equal(
	    frontier_revisit_decode((const unsigned char *)rec.data, rec.len - 1, &got), -1);
	buf_reset(&bad);
	buf_append(&bad, rec.data, rec.len);
	buf_appendc(&bad, 0);
	assert_int_equal(
	    frontier_revisit_decode((const unsigned char *)bad.data, bad.len, &got), -1);
	test_due_finish(t, a, "sha1:AAAA", 0, 10000);
	test_due_finish(t, b, "sha1:BBBB", 0, 10000);
	test_due_flush(t);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 2);

	/* Given up: a's waiting URI leaves, b's stays. */
	assert_int_equal(frontier_drop_where(t->f, test_due_host_a, NULL, &err), 1);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 1);

	/* Taken over: a waits again with its history, seen, due as sent. */
	assert_int_equal(
	    frontier_revisit_decode((const unsigned char *)rec.data, rec.len, &got), 0);
	assert_null(got->queue_key);
	assert_string_equal(got->uri, "http://a/1");
	assert_int_equal(frontier_wait_revisit(t->f, got, "http://a/1", "a,"), 0);
	curi_free(got);
	test_due_flush(t);
	frontier_counts(t->f, &n);
	assert_int_equal(n.revisits, 2);
	assert_true(frontier_seen(t->f, "http://a/1", strlen("http://a/1")));
	assert_true(test_due_none(t, NULL));
	t->now += 10000;
	a = test_due_take(t);
	b = test_due_take(t);
	if (strcmp(a->uri, "http://a/1") != 0) {
		got = a;
		a = b;
		b = got;
	}
	assert_string_equal(a->uri, "http://a/1");
	assert_string_equal(a->queue_key, "a,");
	assert_string_equal(a->history->digest, "sha1:AAAA");
	assert_string_equal(a->history->etag, "\"e1\"");
	assert_int_equal(a->history->visits, 3);
	frontier_finish(t->f, a, FRONTIER_SUCCESS, t->now, 0);
	frontier_finish(t->f, b, FRONTIER_SUCCESS, t->now, 0);
	assert_null(frontier_error(t->f));
	buf_free(&rec);
	buf_free(&bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_due_cycle, test_due_setup, test_due_teardown),
	    cmocka_unit_test_setup_teardown(test_due_rules, test_due_setup, test_due_teardown),
	    cmocka_unit_test_setup_teardown(test_due_reopen, test_due_setup, test_due_teardown),
	    cmocka_unit_test_setup_teardown(test_due_budget, test_due_setup, test_due_teardown),
	    cmocka_unit_test_setup_teardown(test_due_backlog, test_due_setup, test_due_teardown),
	    cmocka_unit_test_setup_teardown(test_due_cluster, test_due_setup, test_due_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
