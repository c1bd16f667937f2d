/* The frontier on a simulated clock over a real LevelDB store in a temporary
 * directory. Tests name the reference's Feature checklist items they check
 * ("item N"); departures from Heritrix are tested as departures. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/config.h"
#include "frontier/frontier.h"
#include "frontier/keys.h"
#include "frontier/seen.h"
#include "frontier/residency.h"
#include <leveldb/c.h>

struct test_frontier {
	char dir[64];
	char path[96];
	struct frontier_options o;
	struct frontier *f;
	uint64_t now;
};

static int test_frontier_rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int test_frontier_setup(void **state)
{
	struct test_frontier *t = calloc(1, sizeof(*t));

	strcpy(t->dir, "/tmp/test_frontier.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/state", t->dir);
	frontier_options_defaults(&t->o);
	t->now = 1000000;
	*state = t;
	return 0;
}

static int test_frontier_teardown(void **state)
{
	struct test_frontier *t = *state;

	frontier_close(t->f);
	nftw(t->dir, test_frontier_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

static void test_frontier_open(struct test_frontier *t, int create)
{
	char *err = NULL;

	t->f = frontier_open_opts(t->path, &t->o, create, t->now, &err);
	if (t->f == NULL)
		fail_msg("open: %s", err);
}

/* Schedules uri on the queue named by its host ("http://HOST/..."). */
static int test_frontier_add(
    struct test_frontier *t, const char *uri, const char *via, const char *hops, int directive)
{
	struct curi *c = curi_new(uri, via, hops, via == NULL ? CURI_SEED : 0);
	char host[128];
	const char *h = strstr(uri, "://") + 3;
	size_t n = strcspn(h, "/");
	int r;

	snprintf(host, sizeof(host), "%.*s,", (int)n, h);
	c->directive = directive;
	r = frontier_schedule(t->f, c, uri, host, host, 0);
	curi_free(c);
	if (r == FRONTIER_HELD_URI) {
		/* Only the store can tell: the flush decides, and the
		 * discovered counter says what it decided. */
		struct frontier_counts before, after;
		char *err = NULL;

		frontier_counts(t->f, &before);
		assert_int_equal(frontier_flush(t->f, &err), 0);
		frontier_counts(t->f, &after);
		r = after.discovered > before.discovered;
	}
	return r;
}

/* The same without judging a held URI at once: 1, 0 or FRONTIER_HELD_URI,
 * the held ones judged together at the next flush. */
static int test_frontier_add_held(struct test_frontier *t, const char *uri)
{
	struct curi *c = curi_new(uri, "http://h0/a", "L", 0);
	char host[128];
	const char *h = strstr(uri, "://") + 3;
	int r;

	snprintf(host, sizeof(host), "%.*s,", (int)strcspn(h, "/"), h);
	r = frontier_schedule(t->f, c, uri, host, host, 0);
	curi_free(c);
	return r;
}

/* A store of two URIs on each of hosts queues, http://hK/a and /b,
 * written, closed and opened again. */
static void test_frontier_two_per_host(struct test_frontier *t, int hosts)
{
	char uri[64], *err = NULL;
	int i;

	test_frontier_open(t, 1);
	for (i = 0; i < 2 * hosts; i++) {
		snprintf(uri, sizeof(uri), "http://h%d/%s", i / 2, i % 2 ? "b" : "a");
		assert_int_equal(test_frontier_add(t, uri, NULL, "", 0), 1);
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
}

/* Takes the next URI, failing if none is ready. */
static struct curi *test_frontier_take(struct test_frontier *t)
{
	struct curi *c = NULL;
	uint64_t wake = 0;

	if (frontier_next(t->f, t->now, &c, &wake) != 1)
		fail_msg("nothing ready at %llu (wake %llu)", (unsigned long long)t->now,
		    (unsigned long long)wake);
	return c;
}

static int test_frontier_none(struct test_frontier *t, uint64_t *wake)
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

/* Fetches everything with no delay, one at a time, and writes the URIs in
 * order into out (space-separated). */
static void test_frontier_drain(struct test_frontier *t, char *out, size_t cap)
{
	struct curi *c = NULL;
	uint64_t wake;

	out[0] = '\0';
	while (frontier_next(t->f, t->now, &c, &wake) == 1) {
		const char *p = strstr(c->uri, "://") + 3;

		if (out[0] != '\0')
			strncat(out, " ", cap - strlen(out) - 1);
		strncat(out, p, cap - strlen(out) - 1);
		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	}
}

/* Items 1, 5, 33, 66: one URI per queue in flight, snooze until exactly
 * finish + delay, finished when all is done. */
static void test_frontier_basic(void **state)
{
	struct test_frontier *t = *state;
	struct frontier_counts n;
	struct curi *a, *b;
	uint64_t wake;

	test_frontier_open(t, 1);
	assert_int_equal(test_frontier_add(t, "http://a/1", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://a/2", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://b/1", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://a/1", NULL, "", 3), 0);
	assert_false(frontier_is_finished(t->f));
	frontier_counts(t->f, &n);
	assert_int_equal(n.queued, 3);
	assert_int_equal(n.queues_total, 2);
	assert_int_equal(n.inactive, 2); /* item 2: new queues start inactive */
	assert_int_equal(n.discovered, 3);
	a = test_frontier_take(t);
	b = test_frontier_take(t);
	assert_string_equal(a->uri, "http://a/1");
	assert_string_equal(a->queue_key, "a,");
	assert_string_equal(b->uri, "http://b/1");
	assert_true(a->ordinal == 1); /* item 7 */
	assert_true(b->ordinal == 3);
	assert_true(test_frontier_none(t, &wake)); /* a is busy */
	assert_true(wake == UINT64_MAX);
	frontier_counts(t->f, &n);
	assert_int_equal(n.in_process, 2);
	assert_int_equal(n.in_flight, 2);
	frontier_finish(t->f, a, FRONTIER_SUCCESS, t->now, 3000);
	frontier_finish(t->f, b, FRONTIER_SUCCESS, t->now, 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.snoozed, 1);
	assert_int_equal(n.exhausted, 1); /* departure: detected at once */
	assert_true(test_frontier_none(t, &wake));
	assert_true(wake == t->now + 3000);
	t->now += 2999;
	assert_true(test_frontier_none(t, NULL));
	t->now += 1;
	a = test_frontier_take(t);
	assert_string_equal(a->uri, "http://a/2");
	assert_false(frontier_is_finished(t->f));
	frontier_finish(t->f, a, FRONTIER_SUCCESS, t->now, 3000);
	assert_true(frontier_is_finished(t->f));
	frontier_counts(t->f, &n);
	assert_int_equal(n.queued, 0);
	assert_int_equal(n.succeeded, 3);
	assert_int_equal(n.exhausted, 2);
	assert_null(frontier_error(t->f));
}

/* A companion's batch (the WARC dedup index's in a crawl) rides in the
 * frontier's writes: one LevelDB write carries both, wherever it comes
 * from, and the companion hears that it was written. */
struct test_companion {
	leveldb_writebatch_t *wb;
	int pending, written;
};

static void *test_companion_batch(void *arg)
{
	struct test_companion *c = arg;

	return c->pending ? c->wb : NULL;
}

static void test_companion_written(void *arg)
{
	struct test_companion *c = arg;

	leveldb_writebatch_clear(c->wb);
	c->pending = 0;
	c->written++;
}

static void test_frontier_companion(void **state)
{
	struct test_frontier *t = *state;
	struct test_companion c = {leveldb_writebatch_create(), 0, 0};
	struct frontier_companion fc = {&c, test_companion_batch, test_companion_written};
	leveldb_readoptions_t *ro = leveldb_readoptions_create();
	char *err = NULL, *v;
	size_t vl;

	test_frontier_open(t, 1);
	frontier_set_companion(t->f, &fc);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_int_equal(c.written, 0); /* nothing to write */
	/* Alone: the companion's entry is enough for a write. */
	leveldb_writebatch_put(c.wb, "dedup:x", 7, "1", 1);
	c.pending = 1;
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_int_equal(c.written, 1);
	v = leveldb_get(frontier_db(t->f), ro, "dedup:x", 7, &vl, &err);
	assert_non_null(v);
	assert_memory_equal(v, "1", 1);
	leveldb_free(v);
	/* With the frontier's own changes, in the same write. */
	leveldb_writebatch_put(c.wb, "dedup:y", 7, "2", 1);
	c.pending = 1;
	assert_int_equal(test_frontier_add(t, "http://a/1", NULL, "", 3), 1);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_int_equal(c.written, 2);
	assert_int_equal(c.pending, 0);
	v = leveldb_get(frontier_db(t->f), ro, "dedup:y", 7, &vl, &err);
	assert_non_null(v);
	leveldb_free(v);
	{
		struct curi *a = test_frontier_take(t);

		assert_string_equal(a->uri, "http://a/1");
		frontier_finish(t->f, a, FRONTIER_SUCCESS, t->now, 0);
	}
	leveldb_readoptions_destroy(ro);
	frontier_close(t->f);
	t->f = NULL;
	leveldb_writebatch_destroy(c.wb);
}

/* Item 6: within a queue, directive, then URI precedence, then ordinal. */
static void test_frontier_queue_order(void **state)
{
	struct test_frontier *t = *state;
	char got[512];

	t->o.defaults.cost_policy = POLICY_COST_WAG;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/q?x=1", "http://a/q", "L", 3); /* cost 3 */
	test_frontier_add(t, "http://a/p?x=1", "http://a/", "L", 3);  /* cost 2 */
	test_frontier_add(t, "http://a/n1", "http://a/", "L", 3);     /* cost 1 */
	test_frontier_add(t, "http://a/n2", "http://a/", "L", 3);
	test_frontier_add(t, "http://a/redir", "http://a/", "R", 2);
	test_frontier_add(t, "http://a/robots.txt", "http://a/", "P", 0);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/robots.txt a/redir a/n1 a/n2 a/p?x=1 a/q?x=1");
}

/* Heads finished, deferred and prerequisites scheduled between two store
 * writes (delay 0): the queue's order holds without a write in between. */
static void test_frontier_unwritten_heads(void **state)
{
	struct test_frontier *t = *state;
	struct curi *c;
	char got[512], *err = NULL;

	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	test_frontier_add(t, "http://a/3", NULL, "", 3);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/1");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/2");
	frontier_finish(t->f, c, FRONTIER_DEFER, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/2");
	test_frontier_add(t, "http://a/robots.txt", "http://a/2", "P", 0);
	frontier_finish(t->f, c, FRONTIER_DEFER, t->now, 0);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/robots.txt a/2 a/3");
}

/* Items 8, 36, 37: a retried URI stays at the head, attempts+1, the queue
 * waits the retry delay; a deferral costs nothing and keeps attempts. */
static void test_frontier_retry_defer(void **state)
{
	struct test_frontier *t = *state;
	struct curi *c;
	uint64_t wake;

	t->o.defaults.retry_delay_ms = 900000;
	t->o.defaults.max_retries = 3;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	c = test_frontier_take(t);
	assert_true(frontier_may_retry(t->f, c));
	frontier_finish(t->f, c, FRONTIER_DEFER, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/1");
	assert_int_equal(c->attempts, 0);
	frontier_finish(t->f, c, FRONTIER_RETRY, t->now, 0);
	/* 900 s is past snooze-deactivate-ms: the queue went inactive keeping
	 * its wake time, and activating it serves the rest of the snooze. */
	assert_true(test_frontier_none(t, &wake));
	assert_true(wake == t->now + 900000);
	t->now += 900000;
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/1");
	assert_int_equal(c->attempts, 1);
	assert_true(frontier_may_retry(t->f, c));
	/* A delay from the caller (back-off, Retry-After) replaces it. */
	frontier_finish(t->f, c, FRONTIER_RETRY, t->now, 5000);
	t->now += 4999;
	assert_true(test_frontier_none(t, &wake));
	assert_true(wake == t->now + 1);
	t->now += 1;
	c = test_frontier_take(t);
	assert_int_equal(c->attempts, 2);
	assert_false(frontier_may_retry(t->f, c)); /* 3 attempts is the most */
	frontier_finish(t->f, c, FRONTIER_FAILED, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/2");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_true(frontier_is_finished(t->f));
}

/* Items 9, 11, 12, 13: with unit cost and a balance of N, a session emits
 * N+1 URIs, then the queue goes to the tail of its bucket; alone, it is
 * re-activated at once. */
static void test_frontier_session_budget(void **state)
{
	struct test_frontier *t = *state;
	char got[512];

	t->o.defaults.balance_replenish = 2;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://b/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	test_frontier_add(t, "http://a/3", NULL, "", 3);
	test_frontier_add(t, "http://a/4", NULL, "", 3);
	test_frontier_add(t, "http://b/2", NULL, "", 3);
	test_frontier_add(t, "http://a/5", NULL, "", 3);
	test_frontier_add(t, "http://a/6", NULL, "", 3);
	test_frontier_add(t, "http://a/7", NULL, "", 3);
	test_frontier_add(t, "http://a/8", NULL, "", 3);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/1 a/2 a/3 b/1 b/2 a/4 a/5 a/6 a/7 a/8");
}

/* Item 10: a balance of 0 disables rotation. */
static void test_frontier_no_rotation(void **state)
{
	struct test_frontier *t = *state;
	char got[512];

	t->o.defaults.balance_replenish = 0;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://b/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	test_frontier_add(t, "http://a/3", NULL, "", 3);
	test_frontier_add(t, "http://a/4", NULL, "", 3);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/1 a/2 a/3 a/4 b/1");
}

static int64_t test_frontier_budget;

static void test_frontier_budget_cb(void *ctx, const char *surt, struct policy_settings *out)
{
	policy_settings_defaults(out);
	out->total_budget = test_frontier_budget;
}

/* Items 14, 15, 16: retirement at the total budget, retired URIs not
 * counted and not keeping the crawl running; raising the budget and
 * reconsidering brings them back. */
static void test_frontier_total_budget(void **state)
{
	struct test_frontier *t = *state;
	struct frontier_counts n;
	char got[512];

	test_frontier_budget = 2;
	t->o.settings_for = test_frontier_budget_cb;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	test_frontier_add(t, "http://a/3", NULL, "", 3);
	test_frontier_add(t, "http://a/4", NULL, "", 3);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/1 a/2");
	assert_true(frontier_is_finished(t->f));
	frontier_counts(t->f, &n);
	assert_int_equal(n.retired, 1);
	assert_int_equal(n.retired_uris, 2);
	assert_int_equal(n.queued, 0);
	test_frontier_add(t, "http://a/5", NULL, "", 3);
	frontier_counts(t->f, &n);
	assert_int_equal(n.retired_uris, 3);
	assert_int_equal(n.queued, 0);
	assert_true(frontier_is_finished(t->f));
	/* Reconsidered with the same budget: re-retired at the first poll. */
	assert_int_equal(frontier_reconsider_retired(t->f), 1);
	frontier_counts(t->f, &n);
	assert_int_equal(n.queued, 3);
	assert_false(frontier_is_finished(t->f));
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "");
	assert_true(frontier_is_finished(t->f));
	test_frontier_budget = 4;
	frontier_settings_changed(t->f);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/3 a/4");
	frontier_counts(t->f, &n);
	assert_int_equal(n.retired_uris, 1);
}

static void test_frontier_prec_cb(void *ctx, const char *surt, struct policy_settings *out)
{
	policy_settings_defaults(out);
	if (strncmp(surt, "gov", 3) == 0)
		out->queue_base = 1;
	else if (strncmp(surt, "com", 3) == 0)
		out->queue_base = 10;
	else if (strncmp(surt, "floor", 5) == 0)
		out->queue_base = 200;
}

/* Items 4, 22, 25 and the .gov-before-.com example: activation takes the
 * lowest precedence first, FIFO within one; queues at or past the floor
 * never give out URIs and, unlike Heritrix, do not keep the crawl running. */
static void test_frontier_precedence(void **state)
{
	struct test_frontier *t = *state;
	struct frontier_counts n;
	char got[512];

	t->o.settings_for = test_frontier_prec_cb;
	t->o.precedence_floor = 200;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://com1/1", NULL, "", 3);
	test_frontier_add(t, "http://floor1/1", NULL, "", 3);
	test_frontier_add(t, "http://com2/1", NULL, "", 3);
	test_frontier_add(t, "http://gov1/1", NULL, "", 3);
	test_frontier_add(t, "http://other/1", NULL, "", 3);
	test_frontier_add(t, "http://gov2/1", NULL, "", 3);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "gov1/1 gov2/1 other/1 com1/1 com2/1");
	frontier_counts(t->f, &n);
	assert_int_equal(n.ineligible, 1);
	assert_int_equal(n.ineligible_uris, 1);
	assert_int_equal(n.queued, 1);
	assert_true(frontier_is_finished(t->f));
}

/* Item 26: after a completion, a queue yields to a strictly better waiting
 * queue (tern re-evaluates after every completion). */
static void test_frontier_yield(void **state)
{
	struct test_frontier *t = *state;
	struct curi *c;
	char got[512];

	t->o.settings_for = test_frontier_prec_cb;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://com1/1", NULL, "", 3);
	test_frontier_add(t, "http://com1/2", NULL, "", 3);
	c = test_frontier_take(t);
	test_frontier_add(t, "http://gov1/1", NULL, "", 3);
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "gov1/1 com1/2");
}

/* Items 23 and 27: highest-uri queue precedence follows the best URI
 * enqueued, live. */
static void test_frontier_highest_uri(void **state)
{
	struct test_frontier *t = *state;
	char got[512];

	t->o.defaults.queue_policy = POLICY_QUEUE_HIGHEST_URI;
	t->o.defaults.uri_policy = POLICY_URI_HOPS;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://deep/1", "http://x/", "LLLL", 3);
	test_frontier_add(t, "http://shallow/1", "http://x/", "L", 3);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "shallow/1 deep/1");
}

/* The iudex mode: ready queues best-first by their best URI precedence,
 * discounted by the URIs given out since activation (divisor 1 here). */
static void test_frontier_best_first(void **state)
{
	struct test_frontier *t = *state;
	char got[512];
	int i;

	t->o.hold_queues = 0;
	t->o.best_first = 1;
	t->o.host_depth_divisor = 1;
	t->o.defaults.uri_policy = POLICY_URI_HOPS;
	test_frontier_open(t, 1);
	for (i = 1; i <= 5; i++) {
		char a[32], b[32];

		snprintf(a, sizeof(a), "http://a/%d", i);
		snprintf(b, sizeof(b), "http://b/%d", i);
		test_frontier_add(t, a, "http://x/", "", 3);
		test_frontier_add(t, b, "http://x/", "LL", 3);
	}
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/1 a/2 b/1 a/3 b/2 a/4 b/3 a/5 b/4 b/5");
}

/* The same web in FIFO order alternates. */
static void test_frontier_fifo_ready(void **state)
{
	struct test_frontier *t = *state;
	char got[512];

	t->o.hold_queues = 0;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://b/1", NULL, "LL", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	test_frontier_add(t, "http://b/2", NULL, "LL", 3);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/1 b/1 a/2 b/2");
}

/* Item 21: preloaded URI precedence is base + the preloaded value, falling
 * back to the cost policy when there is none. */
static void test_frontier_preloaded(void **state)
{
	struct test_frontier *t = *state;
	char got[512], *err = NULL;

	t->o.defaults.uri_policy = POLICY_URI_PRELOADED;
	test_frontier_open(t, 1);
	assert_int_equal(frontier_preload(t->f, "http://a/1", 5), 0);
	assert_int_equal(frontier_preload(t->f, "http://a/2", 1), 0);
	assert_true(frontier_preload(t->f, "http://a/4", 0) < 0);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	test_frontier_add(t, "http://a/1", NULL, "", 3); /* 1 + 5 */
	test_frontier_add(t, "http://a/2", NULL, "", 3); /* 1 + 1 */
	test_frontier_add(t, "http://a/3", NULL, "", 3); /* cost 1 */
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/3 a/2 a/1");
}

/* Item 27: an enqueue that improves an inactive queue's precedence refiles
 * it at the new precedence. */
static void test_frontier_refile(void **state)
{
	struct test_frontier *t = *state;
	char got[512];

	t->o.defaults.queue_policy = POLICY_QUEUE_HIGHEST_URI;
	t->o.defaults.uri_policy = POLICY_URI_HOPS;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://x/deep", "http://s/", "LLLL", 3); /* 3 + 5 */
	test_frontier_add(t, "http://y/mid", "http://s/", "LL", 3);    /* 3 + 3 */
	test_frontier_add(t, "http://x/top", "http://s/", "", 3);      /* x: 3 + 1 */
	test_frontier_drain(t, got, sizeof(got));
	/* Once its best URI is gone, x falls back to 3 + 5 and yields to y. */
	assert_string_equal(got, "x/top y/mid x/deep");
}

/* Items 24 and 26: success-counts demotes a queue after its successes, and
 * the demoted queue yields to a better waiting one. */
static void test_frontier_success_counts(void **state)
{
	struct test_frontier *t = *state;
	char got[512];

	t->o.defaults.queue_policy = POLICY_QUEUE_SUCCESS_COUNTS;
	t->o.defaults.success_counts[0] = 2;
	t->o.defaults.nsuccess_counts = 1;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	test_frontier_add(t, "http://a/3", NULL, "", 3);
	test_frontier_add(t, "http://b/1", NULL, "", 3);
	test_frontier_add(t, "http://b/2", NULL, "", 3);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/1 a/2 b/1 b/2 a/3");
}

/* Item 11: a snooze and wake do not replenish the session balance. */
static void test_frontier_no_replenish_on_wake(void **state)
{
	struct test_frontier *t = *state;
	struct buf b = BUF_INIT;
	struct curi *c;
	int i;

	t->o.defaults.balance_replenish = 5;
	test_frontier_open(t, 1);
	for (i = 1; i <= 4; i++) {
		char u[32];

		snprintf(u, sizeof(u), "http://a/%d", i);
		test_frontier_add(t, u, NULL, "", 3);
	}
	for (i = 0; i < 3; i++) {
		c = test_frontier_take(t);
		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 100);
		t->now += 100;
	}
	frontier_report_queues(t->f, &b, 1);
	assert_non_null(strstr(b.data, "\"session_balance\":2,"));
	buf_free(&b);
}

/* The configuration path: [override] sections give .gov queues precedence 1
 * and .com 10; a mid-crawl change of the total budget (config generation)
 * re-judges retired queues by itself. */
static void test_frontier_config(void **state)
{
	struct test_frontier *t = *state;
	struct config *cfg = config_new();
	const char *conf = "[frontier]\nqueue-total-budget = 1\n"
			   "[override \"gov,\"]\nfrontier.queue-base-precedence = 1\n"
			   "[override \"com,\"]\nfrontier.queue-base-precedence = 10\n";
	char got[512], *err = NULL;
	struct curi *c;
	int i;

	if (config_load_text(cfg, conf, strlen(conf), "tern.conf", &err) < 0)
		fail_msg("%s", err);
	t->f = frontier_open(t->path, cfg, 1, t->now, &err);
	assert_non_null(t->f);
	for (i = 0; i < 2; i++) {
		static const char *const uris[][2] = {
		    {"http://b.com/1", "com,b,"},
		    {"http://b.com/2", "com,b,"},
		    {"http://a.gov/1", "gov,a,"},
		    {"http://a.gov/2", "gov,a,"},
		};
		int j;

		for (j = 0; j < 4; j++) {
			if (j % 2 != i)
				continue;
			c = curi_new(uris[j][0], NULL, "", CURI_SEED);
			assert_int_equal(
			    frontier_schedule(t->f, c, uris[j][0], uris[j][1], uris[j][1], 0), 1);
			curi_free(c);
		}
	}
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a.gov/1 b.com/1");
	assert_true(frontier_is_finished(t->f));
	assert_int_equal(config_set(cfg, "frontier.queue-total-budget=5", &err), 0);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a.gov/2 b.com/2");
	frontier_close(t->f);
	t->f = NULL;
	config_free(cfg);
}

/* Item 17: a final failure charges cost + penalty; with a total budget of
 * 100 one failure retires the queue. */
static void test_frontier_failure_charge(void **state)
{
	struct test_frontier *t = *state;
	struct frontier_counts n;
	struct curi *c;

	test_frontier_budget = 100;
	t->o.settings_for = test_frontier_budget_cb;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	c = test_frontier_take(t);
	frontier_finish(t->f, c, FRONTIER_FAILED, t->now, 0);
	assert_true(test_frontier_none(t, NULL));
	frontier_counts(t->f, &n);
	assert_int_equal(n.failed, 1);
	assert_int_equal(n.retired, 1);
}

/* hold-queues = false: new queues start ready. */
static void test_frontier_no_hold(void **state)
{
	struct test_frontier *t = *state;
	struct frontier_counts n;

	t->o.hold_queues = 0;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://b/1", NULL, "", 3);
	frontier_counts(t->f, &n);
	assert_int_equal(n.ready, 2);
	assert_int_equal(n.inactive, 0);
}

/* Item 33 with snooze-deactivate (Heritrix 1): a long snooze leaves the
 * working set but keeps its wake time. */
static void test_frontier_long_snooze(void **state)
{
	struct test_frontier *t = *state;
	struct frontier_counts n;
	struct curi *c;

	t->o.snooze_deactivate_ms = 10000;
	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	c = test_frontier_take(t);
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 60000);
	frontier_counts(t->f, &n);
	assert_int_equal(n.snoozed, 0);
	assert_int_equal(n.inactive, 1);
	assert_true(test_frontier_none(t, NULL));
	frontier_counts(t->f, &n);
	assert_int_equal(n.snoozed, 1); /* activated, serving the rest */
	t->now += 59999;
	assert_true(test_frontier_none(t, NULL));
	t->now += 1;
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/2");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
}

/* Crash recovery: URIs in flight were never deleted, so reopening hands
 * them out again; the seen set survives (checked against the store). */
static void test_frontier_recovery(void **state)
{
	struct test_frontier *t = *state;
	struct frontier_counts n;
	struct curi *c;
	char *err = NULL;

	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	test_frontier_add(t, "http://b/1", NULL, "", 3);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/1");
	assert_int_equal(frontier_flush(t->f, &err), 0);
	curi_free(c); /* the crawler died with it in flight */
	frontier_close(t->f);
	t->f = NULL;
	t->now += 5000;
	test_frontier_open(t, 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.queued, 3);
	assert_int_equal(n.ready, 1);
	assert_int_equal(n.inactive, 1);
	assert_int_equal(test_frontier_add(t, "http://a/1", NULL, "", 3), 0);
	assert_int_equal(test_frontier_add(t, "http://b/1", NULL, "", 3), 0);
	assert_int_equal(test_frontier_add(t, "http://b/2", NULL, "", 3), 1);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/1");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	frontier_close(t->f);
	t->f = NULL;
	/* create=1 refuses an existing store. */
	assert_null(frontier_open_opts(t->path, &t->o, 1, t->now, &err));
	assert_non_null(strstr(err, "exists"));
	free(err);
}

/* URIs only the store can judge are held, not read one by one: after a
 * reopen a memory set far smaller than the crawl holds only some old URIs,
 * so most old ones are held. A batch
 * larger than the hold is checked when it fills; duplicates within a batch
 * are discovered once; new URIs among held ones keep their discovery order;
 * the frontier is not finished while a URI is held. */
static void test_frontier_held(void **state)
{
	struct test_frontier *t = *state;
	enum { N = 6000 };
	struct frontier_counts n;
	struct curi *c;
	char uri[64], *err = NULL;
	int i, r, held = 0;

	t->o.seen_memory = 64 << 10;
	test_frontier_open(t, 1);
	for (i = 0; i < N; i++) {
		snprintf(uri, sizeof(uri), "http://h/%d", i);
		c = curi_new(uri, NULL, "", CURI_SEED);
		assert_int_equal(frontier_schedule(t->f, c, uri, "h,", "h,", 0), 1);
		curi_free(c);
	}
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	for (i = 0; i < N; i++) {
		snprintf(uri, sizeof(uri), "http://h/%d", i % 2 == 0 ? i : N - 1 - i);
		c = curi_new(uri, NULL, "", CURI_SEED);
		r = frontier_schedule(t->f, c, uri, "h,", "h,", 0);
		assert_true(r == 0 || r == FRONTIER_HELD_URI);
		held += r == FRONTIER_HELD_URI;
		curi_free(c);
	}
	assert_true(held > N / 2);
	frontier_counts(t->f, &n);
	assert_int_equal(n.discovered, N);
	/* Two copies of a new URI, between old ones that are held. */
	for (i = 0; i < 3; i++) {
		snprintf(uri, sizeof(uri), i == 1 ? "http://h/new" : "http://h/%d", i);
		c = curi_new(uri, NULL, "", CURI_SEED);
		r = frontier_schedule(t->f, c, uri, "h,", "h,", 0);
		curi_free(c);
		if (i == 1) {
			assert_true(r == 1);
			c = curi_new(uri, NULL, "", CURI_SEED);
			assert_int_equal(frontier_schedule(t->f, c, uri, "h,", "h,", 0), 0);
			curi_free(c);
		}
	}
	c = curi_new("http://h/0", NULL, "", CURI_SEED);
	r = frontier_schedule(t->f, c, "http://h/0", "h,", "h,", 0);
	assert_true(r == 0 || r == FRONTIER_HELD_URI);
	curi_free(c);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.discovered, N + 1);
	assert_int_equal(n.queued, N + 1);
	for (i = 0; i < N + 1; i++) {
		c = test_frontier_take(t);
		if (i < N) {
			snprintf(uri, sizeof(uri), "http://h/%d", i);
			assert_string_equal(c->uri, uri);
		} else {
			assert_string_equal(c->uri, "http://h/new");
		}
		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	}
	assert_true(frontier_is_finished(t->f));
	/* A held URI that turns out new: the frontier is not finished until
	 * the flush has judged it. A URI removed from memory's answers by a
	 * reopen is judged by the store; a Bloom false positive would be the
	 * same path, and the counts above prove nothing is lost on it. */
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	c = curi_new("http://h/5", NULL, "", CURI_SEED);
	assert_int_equal(
	    frontier_schedule(t->f, c, "http://h/5", "h,", "h,", 0), FRONTIER_HELD_URI);
	curi_free(c);
	assert_false(frontier_is_finished(t->f));
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_true(frontier_is_finished(t->f));
}

/* Held URIs of many sites in one sorted pass: a run of one site's costs
 * iterator steps, one alone on its site a seek; either way an old URI is
 * dropped and a new one (on an old site or a new one) discovered once. */
static void test_frontier_held_sites(void **state)
{
	struct test_frontier *t = *state;
	enum { N = 3000 };
	struct frontier_counts n;
	struct buf b = BUF_INIT;
	char uri[64], *err = NULL, *p;
	int i, fresh = 0, held = 0;
	unsigned long long reads = 0, steps = 0;

	t->o.seen_memory = 64 << 10;
	test_frontier_two_per_host(t, N / 2);
	/* Each old URI again, held for the flush: site by site from the top
	 * (runs of two), one of each site alone among them, and new URIs on
	 * old and new sites. */
	for (i = 0; i < N; i++) {
		snprintf(uri, sizeof(uri), "http://h%d/%s", i / 2, i % 2 ? "b" : "a");
		held += test_frontier_add_held(t, uri) == FRONTIER_HELD_URI;
		if (i % 2 == 1) {
			snprintf(uri, sizeof(uri), "http://h%d/a", (N - 1 - i) / 2);
			held += test_frontier_add_held(t, uri) == FRONTIER_HELD_URI;
		}
		if (i % 7 == 0) {
			snprintf(uri, sizeof(uri), i % 14 == 0 ? "http://h%d/new" : "http://n%d/",
			    i / 2);
			assert_true(test_frontier_add_held(t, uri) != 0);
			fresh++;
		}
		if (i % 200 == 199)
			assert_int_equal(frontier_flush(t->f, &err), 0);
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_true(held > N / 2);
	frontier_counts(t->f, &n);
	assert_int_equal(n.discovered, N + fresh);
	assert_int_equal(n.queued, N + fresh);
	frontier_report_summary(t->f, &b);
	p = strstr(b.data, "sorted checks (");
	assert_non_null(p);
	assert_int_equal(
	    sscanf(p, "sorted checks (%llu store seeks, %llu merge steps", &reads, &steps), 2);
	if (reads < N / 4 || steps < N / 8)
		fail_msg("%s", b.data);
	buf_free(&b);
}

/* Within its budget the seen set's memory set answers every test, new or
 * old, with nothing held for the store, also after a reopen (it is loaded
 * from the store); frontier_seen names the plain duplicates a caller may
 * skip, and only those. */
static void test_frontier_seen_memory(void **state)
{
	struct test_frontier *t = *state;
	enum { N = 6000 };
	struct frontier_counts n;
	struct buf b = BUF_INIT;
	struct curi *c;
	char uri[64], *err = NULL;
	int i;

	test_frontier_open(t, 1);
	for (i = 0; i < N; i++) {
		snprintf(uri, sizeof(uri), "http://h/%d", i);
		assert_false(frontier_seen(t->f, uri, strlen(uri)));
		c = curi_new(uri, NULL, "", CURI_SEED);
		assert_int_equal(frontier_schedule(t->f, c, uri, "h,", "h,", 0), 1);
		curi_free(c);
		/* Known at once, before the batch is written. */
		assert_true(frontier_seen(t->f, uri, strlen(uri)));
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	for (i = 0; i < N; i++) {
		snprintf(uri, sizeof(uri), "http://h/%d", i);
		assert_true(frontier_seen(t->f, uri, strlen(uri)));
		c = curi_new(uri, NULL, "", CURI_SEED);
		assert_int_equal(frontier_schedule(t->f, c, uri, "h,", "h,", 0), 0);
		curi_free(c);
	}
	assert_false(frontier_seen(t->f, "http://h/new", 12));
	assert_false(frontier_seen(t->f, "http://h/1", 9));
	c = curi_new("http://h/new", NULL, "", CURI_SEED);
	assert_int_equal(frontier_schedule(t->f, c, "http://h/new", "h,", "h,", 0), 1);
	curi_free(c);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.discovered, N + 1);
	frontier_report_summary(t->f, &b);
	if (strstr(b.data, "(complete; 0 dropped") == NULL ||
	    strstr(b.data, " 0 held for 0 sorted checks") == NULL)
		fail_msg("summary: %s", b.data);
	buf_free(&b);
}

/* A reopened store whose seen keys are read a few per flush: until all
 * are, a URI memory does not hold is held for the store, never taken as
 * new (none is queued twice); once they are, the memory set is complete
 * again and answers alone. */
static void test_frontier_seen_lazy_load(void **state)
{
	struct test_frontier *t = *state;
	enum { N = 3000 };
	struct frontier_counts n;
	struct buf b = BUF_INIT;
	struct curi *c;
	char uri[64], *err = NULL;
	int i, flushes = 0, held_old = 0, held_new = 0;

	seen_load_batches(100, 250);
	test_frontier_open(t, 1);
	for (i = 0; i < N; i++) {
		snprintf(uri, sizeof(uri), "http://h/%d", i);
		c = curi_new(uri, NULL, "", CURI_SEED);
		assert_int_equal(frontier_schedule(t->f, c, uri, "h,", "h,", 0), 1);
		curi_free(c);
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	/* Every old URI once, and a new one every tenth, a flush every 100
	 * schedules: the load advances 250 keys a flush meanwhile. */
	for (i = 0; i < N; i++) {
		int r;

		snprintf(uri, sizeof(uri), "http://h/%d", i);
		c = curi_new(uri, NULL, "", CURI_SEED);
		r = frontier_schedule(t->f, c, uri, "h,", "h,", 0);
		curi_free(c);
		assert_true(r == 0 || r == FRONTIER_HELD_URI);
		held_old += r == FRONTIER_HELD_URI;
		if (i % 10 == 0) {
			snprintf(uri, sizeof(uri), "http://h/new/%d", i);
			c = curi_new(uri, NULL, "", CURI_SEED);
			r = frontier_schedule(t->f, c, uri, "h,", "h,", 0);
			curi_free(c);
			assert_true(r == 1 || r == FRONTIER_HELD_URI);
			held_new += r == FRONTIER_HELD_URI;
		}
		if (i % 100 == 99) {
			assert_int_equal(frontier_flush(t->f, &err), 0);
			flushes++;
		}
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.discovered, N + N / 10);
	/* While loading, old and new alike went to the store. */
	assert_true(held_old > 100 && held_new > 10);
	/* 100 + 31 x 250 keys read: the load is over, the set complete. */
	assert_true(flushes >= 12);
	c = curi_new("http://h/last", NULL, "", CURI_SEED);
	assert_int_equal(frontier_schedule(t->f, c, "http://h/last", "h,", "h,", 0), 1);
	curi_free(c);
	assert_true(frontier_seen(t->f, "http://h/7", 10));
	frontier_report_summary(t->f, &b);
	if (strstr(b.data, "(complete; 0 dropped") == NULL)
		fail_msg("summary: %s", b.data);
	buf_free(&b);
	seen_load_batches(0, 0);
}

/* A reopened store's queue keys are read a few per flush as well: until
 * all are, a queue not resident is looked up in the store, never taken as
 * new, so an old queue keeps its record (its URIs and counts) and only
 * the queues that are new are counted new. */
static void test_frontier_queue_keys_lazy_load(void **state)
{
	struct test_frontier *t = *state;
	enum { N = 3000 };
	struct frontier_counts n;
	char uri[64], *err = NULL;
	int i;

	residency_load_batches(100, 250);
	test_frontier_two_per_host(t, N);
	/* A URI for every old queue, a new queue every tenth, a flush every
	 * 100: the load reads 250 queue keys a flush meanwhile. */
	for (i = 0; i < N; i++) {
		snprintf(uri, sizeof(uri), "http://h%d/c", i);
		assert_int_equal(test_frontier_add(t, uri, "http://h0/a", "L", 0), 1);
		if (i % 10 == 0) {
			snprintf(uri, sizeof(uri), "http://new%d/", i);
			assert_int_equal(test_frontier_add(t, uri, "http://h0/a", "L", 0), 1);
		}
		if (i % 100 == 99)
			assert_int_equal(frontier_flush(t->f, &err), 0);
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.queues_total, N + N / 10);
	assert_int_equal(n.queued, 3 * N + N / 10);
	/* The load is over (100 + 30 x 250 keys): a queue the filter does
	 * not know is new without a read, and one it knows is found. */
	assert_int_equal(test_frontier_add(t, "http://later/", "http://h0/a", "L", 0), 1);
	assert_int_equal(test_frontier_add(t, "http://h7/d", "http://h0/a", "L", 0), 1);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_counts(t->f, &n);
	assert_int_equal(n.queues_total, N + N / 10 + 1);
	assert_int_equal(n.queued, 3 * N + N / 10 + 2);
	residency_load_batches(0, 0);
}

/* The read-ahead of a queue's next URIs (frontier/ahead.h) hands out what
 * the store would: a URI enqueued ahead of the ones read ahead (a higher
 * directive) comes first, a retried or deferred URI comes again, one
 * enqueued behind them waits its turn, in both cases with and without a
 * write in between; every URI comes out once, in key order. */
static void test_frontier_ahead(void **state)
{
	struct test_frontier *t = *state;
	struct curi *c;
	char uri[64], *err = NULL;
	int i, next = 0;

	t->o.hold_queues = 0;
	test_frontier_open(t, 1);
	for (i = 0; i < 40; i++) {
		snprintf(uri, sizeof(uri), "http://a/%d", i);
		assert_int_equal(test_frontier_add(t, uri, "http://a/", "L", CURI_NORMAL), 1);
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	/* The first take reads the head and the URIs after it. */
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/0");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	next = 1;
	/* A MEDIUM URI sorts ahead of every NORMAL one: it is next, written
	 * or not. */
	assert_int_equal(
	    test_frontier_add(t, "http://a/embed1", "http://a/", "LE", CURI_MEDIUM), 1);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/embed1");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_int_equal(
	    test_frontier_add(t, "http://a/embed2", "http://a/", "LE", CURI_MEDIUM), 1);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/embed2");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	/* Retried and deferred URIs come again. */
	c = test_frontier_take(t);
	snprintf(uri, sizeof(uri), "http://a/%d", next);
	assert_string_equal(c->uri, uri);
	frontier_finish(t->f, c, FRONTIER_RETRY, t->now, 0);
	t->now += 1000000;
	c = test_frontier_take(t);
	assert_string_equal(c->uri, uri);
	assert_int_equal(c->attempts, 1);
	frontier_finish(t->f, c, FRONTIER_DEFER, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, uri);
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	next++;
	/* A NORMAL URI sorts after all the others: it waits. */
	assert_int_equal(test_frontier_add(t, "http://a/last", "http://a/", "L", CURI_NORMAL), 1);
	for (; next < 40; next++) {
		c = test_frontier_take(t);
		snprintf(uri, sizeof(uri), "http://a/%d", next);
		assert_string_equal(c->uri, uri);
		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
		if (next % 7 == 0)
			assert_int_equal(frontier_flush(t->f, &err), 0);
	}
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/last");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_true(frontier_is_finished(t->f));
}

/* Queues that exist are found again after a reopen (residency_load), and
 * one never created costs no store read: scheduling to an old queue keeps
 * its counts, to a new one starts them. */
static int test_frontier_size_cb(void *arg, const struct frontier_queue_info *q)
{
	*(uint64_t *)arg = q->size;
	return 1;
}

static void test_frontier_queue_keys(void **state)
{
	struct test_frontier *t = *state;
	char uri[64], key[32];
	uint64_t size;
	int i;

	t->o.cold_queues = 16;
	test_frontier_open(t, 1);
	for (i = 0; i < 300; i++) {
		snprintf(uri, sizeof(uri), "http://h%d/a", i);
		assert_int_equal(test_frontier_add(t, uri, NULL, "", CURI_NORMAL), 1);
	}
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	for (i = 0; i < 300; i++) {
		snprintf(uri, sizeof(uri), "http://h%d/b", i);
		assert_int_equal(test_frontier_add(t, uri, NULL, "", CURI_NORMAL), 1);
	}
	assert_int_equal(test_frontier_add(t, "http://new/a", NULL, "", CURI_NORMAL), 1);
	for (i = 0; i < 300; i += 37) {
		snprintf(key, sizeof(key), "h%d,", i);
		size = 0;
		assert_int_equal(frontier_queue_get(t->f, key, test_frontier_size_cb, &size), 1);
		assert_int_equal(size, 2);
	}
	size = 0;
	assert_int_equal(frontier_queue_get(t->f, "new,", test_frontier_size_cb, &size), 1);
	assert_int_equal(size, 1);
}

/* The head bound (keys.h) never hides a URI: one enqueued ahead of the URI
 * out, though behind the last head deleted, is the next one out, also after
 * the queue has left memory and come back. */
static void test_frontier_head_bound(void **state)
{
	struct test_frontier *t = *state;
	struct curi *c;
	char *err = NULL;
	int i;

	t->o.cold_queues = 0;
	test_frontier_open(t, 1);
	assert_int_equal(test_frontier_add(t, "http://a/1", NULL, "", 0), 1);
	assert_int_equal(test_frontier_add(t, "http://a/2", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://a/4", NULL, "", 3), 1);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/1");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/2");
	assert_int_equal(test_frontier_add(t, "http://a/3", NULL, "", 1), 1);
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(frontier_flush(t->f, &err), 0);
		frontier_close(t->f);
		t->f = NULL;
		test_frontier_open(t, 0);
	}
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/3");
	/* A retry keeps its URI at the head, ahead of the bound's successor. */
	frontier_finish(t->f, c, FRONTIER_RETRY, t->now, 1);
	t->now += 10;
	assert_int_equal(frontier_flush(t->f, &err), 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/3");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/4");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_true(frontier_is_finished(t->f));
}

/* Puts the store's next ordinal just before a time segment's end, as if
 * 2^KEYS_SEGMENT_SHIFT URIs had been scheduled, so that the next few land
 * in two segments. */
static void test_frontier_near_segment_end(struct test_frontier *t, uint64_t left)
{
	struct keys_counters c;
	struct buf k = BUF_INIT, v = BUF_INIT;
	leveldb_writeoptions_t *wo = leveldb_writeoptions_create();
	char *err = NULL;

	/* Through the frontier's own counters, then written over. */
	assert_int_equal(frontier_flush(t->f, &err), 0);
	memset(&c, 0, sizeof(c));
	c.next_ordinal = (1ull << KEYS_SEGMENT_SHIFT) - 1 - left;
	keys_meta(&k);
	keys_counters_encode(&v, &c);
	leveldb_put(frontier_db(t->f), wo, k.data, k.len, v.data, v.len, &err);
	assert_null(err);
	leveldb_writeoptions_destroy(wo);
	buf_free(&k);
	buf_free(&v);
}

/* URI keys in time segment seg. */
static int test_frontier_in_segment(struct test_frontier *t, uint32_t seg)
{
	leveldb_readoptions_t *ro = leveldb_readoptions_create();
	leveldb_iterator_t *it = leveldb_create_iterator(frontier_db(t->f), ro);
	struct buf start = BUF_INIT;
	int n = 0;

	buf_appendc(&start, KEYS_URI);
	for (leveldb_iter_seek(it, start.data, start.len); leveldb_iter_valid(it);
	     leveldb_iter_next(it)) {
		size_t kl;
		const unsigned char *k = (const unsigned char *)leveldb_iter_key(it, &kl);

		if (kl < 5 || k[0] != KEYS_URI)
			break;
		n += ((uint32_t)k[1] << 24 | (uint32_t)k[2] << 16 | (uint32_t)k[3] << 8 | k[4]) ==
		    seg;
	}
	leveldb_iter_destroy(it);
	leveldb_readoptions_destroy(ro);
	buf_free(&start);
	return n;
}

static int test_frontier_match_all(void *ctx, const char *uri)
{
	(void)ctx;
	(void)uri;
	return 1;
}

static void test_frontier_head_cb(void *arg, const struct curi *c)
{
	const char *p = strstr(c->uri, "://") + 3;

	strcat(arg, p);
	strcat(arg, " ");
}

/* A queue whose URIs are in two time segments hands them out in its order
 * (directive, precedence, ordinal) all the same: the head is the least of
 * the segments' first URIs, the read-ahead stops before the other
 * segment's first, a URI enqueued ahead of what was read ahead goes first,
 * and a reopen, the report of a queue's next URIs and a cluster drop see
 * every segment. */
static void test_frontier_segments(void **state)
{
	struct test_frontier *t = *state;
	struct curi *c;
	char got[256], *err = NULL;

	t->o.hold_queues = 0;
	test_frontier_open(t, 1);
	test_frontier_near_segment_end(t, 3);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	/* a/1..a/3 in the first segment, a/4 on in the next. */
	assert_int_equal(test_frontier_add(t, "http://a/1", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://a/2", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://a/3", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://a/4", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://a/5", NULL, "", 1), 1);
	assert_int_equal(test_frontier_add(t, "http://a/6", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://b/1", NULL, "", 3), 1);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_int_equal(test_frontier_in_segment(t, 0), 3);
	assert_int_equal(test_frontier_in_segment(t, 1), 4);
	got[0] = '\0';
	assert_int_equal(frontier_queue_head(t->f, "a,", 4, test_frontier_head_cb, got), 4);
	assert_string_equal(got, "a/5 a/1 a/2 a/3 ");
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/5");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://b/1");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/1");
	/* Read ahead: a/2 and a/3; a/0 goes before them. */
	assert_int_equal(test_frontier_add(t, "http://a/0", NULL, "", 0), 1);
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/0");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://a/2");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "a/3 a/4 a/6");
	assert_true(frontier_is_finished(t->f));

	/* A URI enqueued ahead of the one out, alone in a later segment and
	 * written before that one finishes, is the next head. */
	test_frontier_near_segment_end(t, 2);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	assert_int_equal(test_frontier_add(t, "http://d/1", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://d/2", NULL, "", 3), 1);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://d/1");
	assert_int_equal(test_frontier_add(t, "http://d/0", NULL, "", 0), 1);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "d/0 d/2");
	assert_true(frontier_is_finished(t->f));

	/* A queue of one directive and precedence across two segments: its
	 * lowest segment alone is sought, until it is empty. */
	test_frontier_near_segment_end(t, 2);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	assert_int_equal(test_frontier_add(t, "http://e/1", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://e/2", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://e/3", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://e/4", NULL, "", 3), 1);
	c = test_frontier_take(t);
	assert_string_equal(c->uri, "http://e/1");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "e/2 e/3 e/4");
	assert_true(frontier_is_finished(t->f));

	/* Dropped from both segments. */
	test_frontier_near_segment_end(t, 1);
	frontier_close(t->f);
	t->f = NULL;
	test_frontier_open(t, 0);
	assert_int_equal(test_frontier_add(t, "http://c/1", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://c/2", NULL, "", 3), 1);
	assert_int_equal(test_frontier_add(t, "http://c/3", NULL, "", 3), 1);
	assert_int_equal(frontier_drop_where(t->f, test_frontier_match_all, NULL, &err), 3);
	assert_true(test_frontier_none(t, NULL));
	assert_int_equal(test_frontier_add(t, "http://c/4", NULL, "", 3), 1);
	test_frontier_drain(t, got, sizeof(got));
	assert_string_equal(got, "c/4");
}

/* A store of another layout is refused, and left as it was. */
static void test_frontier_layout(void **state)
{
	struct test_frontier *t = *state;
	struct buf k = BUF_INIT;
	leveldb_writeoptions_t *wo = leveldb_writeoptions_create();
	char *err = NULL;
	int i;

	test_frontier_open(t, 1);
	keys_meta_named(&k, "layout");
	leveldb_delete(frontier_db(t->f), wo, k.data, k.len, &err);
	assert_null(err);
	leveldb_writeoptions_destroy(wo);
	buf_free(&k);
	frontier_close(t->f);
	t->f = NULL;
	for (i = 0; i < 2; i++) {
		t->f = frontier_open_opts(t->path, &t->o, 0, t->now, &err);
		assert_null(t->f);
		assert_non_null(strstr(err, "has layout 1 and this tern reads layout 2"));
		free(err);
		err = NULL;
	}
}

/* Many URIs over many queues, with flushes and evictions of cold queues
 * between: every URI is handed out exactly once. */
static void test_frontier_many(void **state)
{
	struct test_frontier *t = *state;
	enum { HOSTS = 300, PER = 20 };
	static unsigned char seen[HOSTS][PER];
	struct curi *c;
	uint64_t wake;
	int h, i, k, total = 0;
	char uri[64], *err = NULL;

	t->o.cold_queues = 16;
	t->o.defaults.balance_replenish = 3;
	test_frontier_open(t, 1);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < PER; i++) {
		for (h = 0; h < HOSTS; h++) {
			snprintf(uri, sizeof(uri), "http://h%d/%d", h, i);
			assert_int_equal(test_frontier_add(t, uri, NULL, "", 3), 1);
		}
		assert_int_equal(frontier_flush(t->f, &err), 0);
	}
	for (k = 0; k < 1000000; k++) {
		int got = 0;

		while (frontier_next(t->f, t->now, &c, &wake) == 1) {
			assert_int_equal(sscanf(c->uri, "http://h%d/%d", &h, &i), 2);
			assert_int_equal(seen[h][i], 0);
			seen[h][i] = 1;
			total++;
			got++;
			frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 1000 + (h % 7));
			if (got % 50 == 0)
				assert_int_equal(frontier_flush(t->f, &err), 0);
		}
		assert_int_equal(frontier_flush(t->f, &err), 0);
		if (wake == UINT64_MAX)
			break;
		if (wake > t->now)
			t->now = wake;
	}
	assert_int_equal(total, HOSTS * PER);
	assert_true(frontier_is_finished(t->f));
}

static void test_frontier_reports(void **state)
{
	struct test_frontier *t = *state;
	struct buf b = BUF_INIT;
	struct curi *c;

	test_frontier_open(t, 1);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://b/\"q\"", NULL, "", 3);
	c = test_frontier_take(t);
	frontier_report_summary(t->f, &b);
	assert_non_null(strstr(b.data,
	    "RUN - 2 URI queues: 1 active (1 in-process; 0 ready; "
	    "0 snoozed); 1 inactive; 0 ineligible; 0 retired; 0 exhausted"));
	buf_reset(&b);
	frontier_report_queues(t->f, &b, 0);
	assert_non_null(strstr(b.data, "IN-PROCESS a, 3 1 1 "));
	assert_non_null(strstr(b.data, "INACTIVE b, 3 1 1 "));
	buf_reset(&b);
	frontier_report_queues(t->f, &b, 1);
	assert_non_null(strstr(b.data, "{\"state\":\"INACTIVE\",\"key\":\"b,\""));
	assert_non_null(strstr(b.data, "\"last_queued\":\"http://b/\\\"q\\\"\"}"));
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	buf_free(&b);
}

struct test_frontier_walked {
	char keys[4096];
	int n, stop_at;
	char state[16];
	uint64_t size;
};

static int test_frontier_walk_cb(void *arg, const struct frontier_queue_info *q)
{
	struct test_frontier_walked *w = arg;

	strncat(w->keys, q->key, sizeof(w->keys) - strlen(w->keys) - 1);
	strncat(w->keys, " ", sizeof(w->keys) - strlen(w->keys) - 1);
	snprintf(w->state, sizeof(w->state), "%s", q->state);
	w->size = q->size;
	return ++w->n == w->stop_at;
}

static void test_frontier_uri_cb(void *arg, const struct curi *c)
{
	strcat(arg, c->uri);
	strcat(arg, " ");
}

/* The console's walks: pieces of at most max queues in key order that
 * together give every queue once (resuming after the last key given), a
 * walk stopped by its callback, one queue by key, and a queue's next URIs
 * in the order they are handed out. */
static void test_frontier_walks(void **state)
{
	struct test_frontier *t = *state;
	struct test_frontier_walked w;
	char uri[64], after[64] = "", heads[512] = "", *err = NULL;
	struct curi *c;
	int more = 1, pieces = 0, h;

	test_frontier_open(t, 1);
	for (h = 0; h < 25; h++) {
		for (int i = 0; i <= h % 3; i++) {
			snprintf(uri, sizeof(uri), "http://h%02d/%d", h, i);
			assert_int_equal(test_frontier_add(t, uri, NULL, "", 3), 1);
		}
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	memset(&w, 0, sizeof(w));
	while (more) {
		size_t n = frontier_walk_queues(t->f, after, 7, test_frontier_walk_cb, &w, &more);
		assert_true(n <= 7);
		assert_true(more || n <= 7);
		if (n > 0) {
			/* The last key given is where the next piece starts. */
			char *end = w.keys + strlen(w.keys) - 1, *p = end;
			while (p > w.keys && p[-1] != ' ')
				p--;
			snprintf(after, sizeof(after), "%.*s", (int)(end - p), p);
		}
		pieces++;
	}
	assert_int_equal(pieces, 4);
	assert_int_equal(w.n, 25);
	assert_string_equal(w.keys,
	    "h00, h01, h02, h03, h04, h05, h06, h07, h08, h09, h10, h11, "
	    "h12, h13, h14, h15, h16, h17, h18, h19, h20, h21, h22, h23, h24, ");
	/* Stopped by the callback: more says what is left. */
	memset(&w, 0, sizeof(w));
	w.stop_at = 3;
	assert_int_equal(frontier_walk_queues(t->f, "", 100, test_frontier_walk_cb, &w, &more), 3);
	assert_int_equal(more, 1);
	memset(&w, 0, sizeof(w));
	w.stop_at = 1;
	assert_int_equal(
	    frontier_walk_queues(t->f, "h23,", 100, test_frontier_walk_cb, &w, &more), 1);
	assert_string_equal(w.keys, "h24, ");
	assert_int_equal(more, 0);
	/* One queue, resident (in process) or not. */
	c = test_frontier_take(t);
	memset(&w, 0, sizeof(w));
	assert_int_equal(frontier_queue_get(t->f, c->queue_key, test_frontier_walk_cb, &w), 1);
	assert_string_equal(w.state, "IN-PROCESS");
	memset(&w, 0, sizeof(w));
	assert_int_equal(frontier_queue_get(t->f, "h05,", test_frontier_walk_cb, &w), 1);
	assert_string_equal(w.keys, "h05, ");
	assert_int_equal(w.size, 3);
	assert_int_equal(frontier_queue_get(t->f, "nope,", test_frontier_walk_cb, &w), 0);
	/* Next URIs: the one handed out first, then in order. */
	assert_int_equal(frontier_queue_head(t->f, "h05,", 2, test_frontier_uri_cb, heads), 2);
	assert_string_equal(heads, "http://h05/0 http://h05/1 ");
	heads[0] = '\0';
	assert_int_equal(
	    frontier_queue_head(t->f, c->queue_key, 10, test_frontier_uri_cb, heads), 1);
	assert_string_equal(heads, "http://h00/0 ");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	heads[0] = '\0';
	assert_int_equal(frontier_queue_head(t->f, "h00,", 10, test_frontier_uri_cb, heads), 0);
	assert_int_equal(frontier_queue_head(t->f, "nope,", 10, test_frontier_uri_cb, heads), 0);
}

static void test_frontier_bad_input(void **state)
{
	struct test_frontier *t = *state;
	struct curi *c = curi_new("http://a/", NULL, "", 0);

	test_frontier_open(t, 1);
	assert_true(frontier_schedule(t->f, c, "http://a/", "", NULL, 0) < 0);
	assert_true(frontier_schedule(t->f, c, "http://a/", NULL, NULL, 0) < 0);
	assert_true(frontier_schedule(t->f, c, NULL, "a,", NULL, 0) < 0);
	/* A URI the frontier never handed out is refused with an error. */
	c->queue_key = strdup("a,");
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	assert_non_null(frontier_error(t->f));
}

struct test_frontier_hook {
	int calls;
	int refuse;
};

static int test_frontier_prewrite_cb(void *arg, char **err)
{
	struct test_frontier_hook *h = arg;

	h->calls++;
	if (h->refuse) {
		if (err != NULL)
			*err = strdup("outputs not written");
		return -1;
	}
	return 0;
}

/* Every write of the batch, whoever asks for it (here a queues report from
 * a control request, between two flushes of the loop), first lets the crawl
 * flush its records; a refusing hook holds the batch back. */
static void test_frontier_prewrite(void **state)
{
	struct test_frontier *t = *state;
	struct test_frontier_hook h = {0, 0};
	struct buf b = BUF_INIT;
	struct curi *c;
	char *err = NULL;

	test_frontier_open(t, 1);
	frontier_set_prewrite(t->f, test_frontier_prewrite_cb, &h);
	test_frontier_add(t, "http://a/1", NULL, "", 3);
	test_frontier_add(t, "http://a/2", NULL, "", 3);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_int_equal(h.calls, 1);
	c = test_frontier_take(t);
	frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	h.calls = 0;
	frontier_report_queues(t->f, &b, 0);
	assert_int_equal(h.calls, 1);
	assert_int_equal(frontier_flush(t->f, &err), 0);
	assert_int_equal(h.calls, 1); /* nothing left to write */
	test_frontier_add(t, "http://a/3", NULL, "", 3);
	h.refuse = 1;
	assert_int_equal(frontier_flush(t->f, &err), -1);
	assert_string_equal(err, "outputs not written");
	free(err);
	err = NULL;
	h.refuse = 0;
	assert_int_equal(frontier_flush(t->f, &err), 0);
	buf_free(&b);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, test_frontier_setup, test_frontier_teardown)
	const struct CMUnitTest tests[] = {
	    T(test_frontier_basic),
	    T(test_frontier_companion),
	    T(test_frontier_queue_order),
	    T(test_frontier_unwritten_heads),
	    T(test_frontier_retry_defer),
	    T(test_frontier_session_budget),
	    T(test_frontier_no_rotation),
	    T(test_frontier_total_budget),
	    T(test_frontier_precedence),
	    T(test_frontier_yield),
	    T(test_frontier_highest_uri),
	    T(test_frontier_best_first),
	    T(test_frontier_fifo_ready),
	    T(test_frontier_preloaded),
	    T(test_frontier_refile),
	    T(test_frontier_success_counts),
	    T(test_frontier_no_replenish_on_wake),
	    T(test_frontier_config),
	    T(test_frontier_failure_charge),
	    T(test_frontier_no_hold),
	    T(test_frontier_long_snooze),
	    T(test_frontier_recovery),
	    T(test_frontier_held),
	    T(test_frontier_held_sites),
	    T(test_frontier_seen_memory),
	    T(test_frontier_seen_lazy_load),
	    T(test_frontier_queue_keys_lazy_load),
	    T(test_frontier_ahead),
	    T(test_frontier_queue_keys),
	    T(test_frontier_head_bound),
	    T(test_frontier_segments),
	    T(test_frontier_layout),
	    T(test_frontier_many),
	    T(test_frontier_reports),
	    T(test_frontier_walks),
	    T(test_frontier_bad_input),
	    T(test_frontier_prewrite),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
