/* The Feature checklist of the Heritrix frontier reference, item by item, on
 * the real frontier (simulated clock, real LevelDB in a temporary directory,
 * no network). Each case names its item; departures from Heritrix are
 * tested as departures ("departure" in the case name). Items that are not
 * the frontier's, or that tern does not have, are listed with the reason in
 * doc/frontier.md.
 *
 * Most cases are scripts for a small interpreter (test_checklist_run), one
 * step per line, so that each case is a row of a table:
 *
 *   set KEY=VALUE ...     frontier options before open (see
 *                         test_checklist_set); after open, the settings the
 *                         override callback returns for URIs scheduled from
 *                         then on, and for every queue after "settings"
 *   open | reopen | flush | settings
 *   add HOST/PATH [via=HOST/PATH] [hops=LL] [dir=N] [cost=N] [pre=N] [queue=KEY]
 *       [force] [=R]      schedule http://HOST/PATH on queue "HOST," (or KEY);
 *                         =R checks frontier_schedule's result (default 1)
 *   take HOST/PATH [prec=N] [att=N] [ord=N] [dir=N]   next must be this URI
 *   none [wake=+N|wake=max]                         next gives nothing
 *   fin HOST/PATH S|F|D|R|E|L [DELAY]   finish a URI out (success, failed,
 *                         disregard, retry, defer, relocated), default delay 0
 *   drain [HOST/PATH ...] take and finish (success, delay 0) until nothing
 *                         is ready; the URIs must come in this order
 *   tick N                the clock advances N ms
 *   count FIELD N         a frontier_counts field
 *   q KEY FIELD VALUE     a field of the queue's JSON report line
 *   finished 0|1          frontier_is_finished
 *   reconsider N          frontier_reconsider_retired returns N
 *   mayretry HOST/PATH 0|1
 */
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
#include "frontier/frontier.h"
#include "crawl/politeness.h"

#define CK_OUT 32
#define CK_ARGS 64

struct test_checklist {
	char dir[64];
	char path[96];
	struct frontier_options o;
	struct frontier *f;
	uint64_t now;
	struct curi *out[CK_OUT];
	const char *name;
	int line;
	char *script; /* the copy being run, freed at teardown if a step fails */
};

static int test_checklist_rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* Settings per URI: the test's defaults (read live, so "set" after open
 * acts as a mid-crawl settings change), with [override]-like rules by SURT
 * prefix: gov queues at precedence 1, com at 10, floor at 200. */
static void test_checklist_settings_cb(void *ctx, const char *surt, struct policy_settings *out)
{
	struct test_checklist *t = ctx;

	*out = t->o.defaults;
	if (strncmp(surt, "gov", 3) == 0)
		out->queue_base = 1;
	else if (strncmp(surt, "com", 3) == 0)
		out->queue_base = 10;
	else if (strncmp(surt, "floor", 5) == 0)
		out->queue_base = 200;
}

static int test_checklist_setup(void **state)
{
	struct test_checklist *t = calloc(1, sizeof(*t));

	strcpy(t->dir, "/tmp/test_checklist.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/state", t->dir);
	frontier_options_defaults(&t->o);
	t->o.settings_for = test_checklist_settings_cb;
	t->o.settings_ctx = t;
	t->now = 1000000;
	*state = t;
	return 0;
}

static void test_checklist_drop_out(struct test_checklist *t)
{
	size_t i;

	for (i = 0; i < CK_OUT; i++) {
		curi_free(t->out[i]);
		t->out[i] = NULL;
	}
}

static int test_checklist_teardown(void **state)
{
	struct test_checklist *t = *state;

	test_checklist_drop_out(t);
	free(t->script);
	frontier_close(t->f);
	nftw(t->dir, test_checklist_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

#define CK_FAIL(t, ...)                                                                  \
	do {                                                                             \
		char test_checklist_msg_[9000];                                          \
		snprintf(test_checklist_msg_, sizeof(test_checklist_msg_), __VA_ARGS__); \
		fail_msg("%s, line %d: %s", (t)->name, (t)->line, test_checklist_msg_);  \
	} while (0)

static void test_checklist_open(struct test_checklist *t, int create)
{
	char *err = NULL;

	t->f = frontier_open_opts(t->path, &t->o, create, t->now, &err);
	if (t->f == NULL)
		CK_FAIL(t, "open: %s", err);
}

/* "HOST/PATH" as a URI and its queue key "HOST,". */
static void test_checklist_uri(const char *hp, char *uri, size_t un, char *key, size_t kn)
{
	snprintf(uri, un, "http://%s", hp);
	if (key != NULL)
		snprintf(key, kn, "%.*s,", (int)strcspn(hp, "/"), hp);
}

static const char *test_checklist_opt(int argc, char **argv, const char *name)
{
	size_t n = strlen(name);
	int i;

	for (i = 1; i < argc; i++)
		if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
			return argv[i] + n + 1;
	return NULL;
}

static long long test_checklist_num(struct test_checklist *t, const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (*s == '\0' || *end != '\0')
		CK_FAIL(t, "bad number %s", s);
	return v;
}

static void test_checklist_set(struct test_checklist *t, const char *kv)
{
	struct policy_settings *d = &t->o.defaults;
	const char *v = strchr(kv, '=');
	size_t n = v != NULL ? (size_t)(v - kv) : 0;
	static const char *const costs[] = {"zero", "unit", "wag", "anti-calendar"};
	static const char *const uris[] = {"base", "cost", "hops", "preloaded"};
	static const char *const queues[] = {"base", "highest-uri", "success-counts"};
	int i;

	if (v == NULL)
		CK_FAIL(t, "set %s: no value", kv);
	v++;
#define CK_IS(s) (n == strlen(s) && strncmp(kv, s, n) == 0)
	if (CK_IS("hold")) {
		t->o.hold_queues = (int)test_checklist_num(t, v);
	} else if (CK_IS("floor")) {
		t->o.precedence_floor = (int)test_checklist_num(t, v);
	} else if (CK_IS("snooze-deactivate")) {
		t->o.snooze_deactivate_ms = (uint64_t)test_checklist_num(t, v);
	} else if (CK_IS("cold")) {
		t->o.cold_queues = (size_t)test_checklist_num(t, v);
	} else if (CK_IS("balance")) {
		d->balance_replenish = test_checklist_num(t, v);
	} else if (CK_IS("budget")) {
		d->total_budget = test_checklist_num(t, v);
	} else if (CK_IS("penalty")) {
		d->error_penalty = test_checklist_num(t, v);
	} else if (CK_IS("ubase")) {
		d->uri_base = (int)test_checklist_num(t, v);
	} else if (CK_IS("qbase")) {
		d->queue_base = (int)test_checklist_num(t, v);
	} else if (CK_IS("retries")) {
		d->max_retries = (int)test_checklist_num(t, v);
	} else if (CK_IS("retry-delay")) {
		d->retry_delay_ms = test_checklist_num(t, v);
	} else if (CK_IS("counts")) {
		char *end;

		d->nsuccess_counts = 0;
		for (; *v != '\0' && d->nsuccess_counts < POLICY_MAX_COUNTS; v = end) {
			d->success_counts[d->nsuccess_counts++] = strtoll(v, &end, 10);
			if (*end == ',')
				end++;
			else if (*end != '\0')
				CK_FAIL(t, "bad counts");
		}
	} else if (CK_IS("cost")) {
		for (i = 0; i < 4 && strcmp(v, costs[i]) != 0; i++)
			;
		if (i == 4)
			CK_FAIL(t, "cost %s", v);
		d->cost_policy = i;
	} else if (CK_IS("upolicy")) {
		for (i = 0; i < 4 && strcmp(v, uris[i]) != 0; i++)
			;
		if (i == 4)
			CK_FAIL(t, "upolicy %s", v);
		d->uri_policy = i;
	} else if (CK_IS("qpolicy")) {
		for (i = 0; i < 3 && strcmp(v, queues[i]) != 0; i++)
			;
		if (i == 3)
			CK_FAIL(t, "qpolicy %s", v);
		d->queue_policy = i;
	} else {
		CK_FAIL(t, "unknown setting %s", kv);
	}
#undef CK_IS
}

static int test_checklist_out_find(struct test_checklist *t, const char *uri)
{
	int i;

	for (i = 0; i < CK_OUT; i++)
		if (t->out[i] != NULL && strcmp(t->out[i]->uri, uri) == 0)
			return i;
	return -1;
}

static void test_checklist_out_put(struct test_checklist *t, struct curi *c)
{
	int i;

	for (i = 0; i < CK_OUT && t->out[i] != NULL; i++)
		;
	if (i == CK_OUT)
		CK_FAIL(t, "too many URIs out");
	t->out[i] = c;
}

static void test_checklist_add(struct test_checklist *t, int argc, char **argv)
{
	char uri[256], via[256], key[128];
	const char *s;
	struct curi *c;
	int r, want = 1, force = 0, i;

	test_checklist_uri(argv[1], uri, sizeof(uri), key, sizeof(key));
	s = test_checklist_opt(argc, argv, "via");
	if (s != NULL)
		test_checklist_uri(s, via, sizeof(via), NULL, 0);
	c = curi_new(uri, s != NULL ? via : NULL,
	    test_checklist_opt(argc, argv, "hops") != NULL ? test_checklist_opt(argc, argv, "hops")
							   : "",
	    s != NULL ? 0 : CURI_SEED);
	if ((s = test_checklist_opt(argc, argv, "dir")) != NULL)
		c->directive = (int)test_checklist_num(t, s);
	if ((s = test_checklist_opt(argc, argv, "cost")) != NULL)
		c->cost = test_checklist_num(t, s);
	if ((s = test_checklist_opt(argc, argv, "pre")) != NULL)
		c->precedence = (int)test_checklist_num(t, s);
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "force") == 0)
			force = 1;
		else if (argv[i][0] == '=')
			want = (int)test_checklist_num(t, argv[i] + 1);
	}
	if ((s = test_checklist_opt(argc, argv, "queue")) != NULL)
		snprintf(key, sizeof(key), "%s", s);
	r = frontier_schedule(t->f, c, uri, key, key, force);
	curi_free(c);
	if (r != want)
		CK_FAIL(t, "schedule %s: got %d want %d", uri, r, want);
}

static void test_checklist_take(struct test_checklist *t, int argc, char **argv)
{
	static const char *const names[] = {"prec", "att", "ord", "dir"};
	struct curi *c = NULL;
	uint64_t wake = 0;
	char uri[256];
	size_t i;

	test_checklist_uri(argv[1], uri, sizeof(uri), NULL, 0);
	if (frontier_next(t->f, t->now, &c, &wake) != 1)
		CK_FAIL(t, "want %s, nothing ready (wake %lld)", uri,
		    wake == UINT64_MAX ? -1LL : (long long)(wake - t->now));
	test_checklist_out_put(t, c);
	if (strcmp(c->uri, uri) != 0)
		CK_FAIL(t, "want %s, got %s", uri, c->uri);
	for (i = 0; i < 4; i++) {
		const char *s = test_checklist_opt(argc, argv, names[i]);
		long long got = i == 0 ? c->precedence
		    : i == 1	       ? c->attempts
		    : i == 2	       ? (long long)c->ordinal
				       : c->directive;

		if (s != NULL && got != test_checklist_num(t, s))
			CK_FAIL(t, "%s %s: got %lld want %s", uri, names[i], got, s);
	}
}

static void test_checklist_none(struct test_checklist *t, int argc, char **argv)
{
	struct curi *c = NULL;
	uint64_t wake = 0;
	const char *w = test_checklist_opt(argc, argv, "wake");

	if (frontier_next(t->f, t->now, &c, &wake) == 1) {
		test_checklist_out_put(t, c);
		CK_FAIL(t, "want nothing, got %s", c->uri);
	}
	if (w == NULL)
		return;
	if (strcmp(w, "max") == 0) {
		if (wake != UINT64_MAX)
			CK_FAIL(t, "wake: got +%lld want max", (long long)(wake - t->now));
	} else if (w[0] != '+' || wake == UINT64_MAX ||
	    (long long)(wake - t->now) != test_checklist_num(t, w + 1)) {
		CK_FAIL(t, "wake: got %lld want %s",
		    wake == UINT64_MAX ? -1LL : (long long)(wake - t->now), w);
	}
}

static void test_checklist_fin(struct test_checklist *t, int argc, char **argv)
{
	static const char codes[] = "SFDREL";
	const char *p;
	char uri[256];
	int i;

	test_checklist_uri(argv[1], uri, sizeof(uri), NULL, 0);
	i = test_checklist_out_find(t, uri);
	if (i < 0 || argc < 3 || (p = strchr(codes, argv[2][0])) == NULL)
		CK_FAIL(t, "fin %s: not out, or no outcome", uri);
	frontier_finish(t->f, t->out[i], (enum frontier_outcome)(p - codes), t->now,
	    argc > 3 ? (uint64_t)test_checklist_num(t, argv[3]) : 0);
	t->out[i] = NULL;
}

static void test_checklist_drain(struct test_checklist *t, int argc, char **argv)
{
	char got[4096], want[4096];
	struct curi *c = NULL;
	uint64_t wake;
	int i;

	got[0] = want[0] = '\0';
	for (i = 1; i < argc; i++) {
		if (i > 1)
			strcat(want, " ");
		strncat(want, argv[i], sizeof(want) - strlen(want) - 2);
	}
	while (frontier_next(t->f, t->now, &c, &wake) == 1) {
		if (got[0] != '\0')
			strncat(got, " ", sizeof(got) - strlen(got) - 1);
		strncat(got, c->uri + 7, sizeof(got) - strlen(got) - 1);
		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	}
	if (strcmp(got, want) != 0)
		CK_FAIL(t, "drain: got \"%s\" want \"%s\"", got, want);
}

static void test_checklist_count(struct test_checklist *t, const char *field, long long want)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
#define CK_F(x) {#x, offsetof(struct frontier_counts, x)}
	    CK_F(queued),
	    CK_F(in_flight),
	    CK_F(queues_total),
	    CK_F(in_process),
	    CK_F(ready),
	    CK_F(snoozed),
	    CK_F(inactive),
	    CK_F(ineligible),
	    CK_F(retired),
	    CK_F(exhausted),
	    CK_F(succeeded),
	    CK_F(failed),
	    CK_F(disregarded),
	    CK_F(discovered),
	    CK_F(retired_uris),
	    CK_F(ineligible_uris),
#undef CK_F
	};
	struct frontier_counts n;
	size_t i;

	frontier_counts(t->f, &n);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strcmp(fields[i].name, field) == 0) {
			uint64_t got = *(uint64_t *)((char *)&n + fields[i].off);

			if ((long long)got != want)
				CK_FAIL(t, "count %s: got %llu want %lld", field,
				    (unsigned long long)got, want);
			return;
		}
	}
	CK_FAIL(t, "unknown count %s", field);
}

/* The value of field in the JSON report line of queue key, as text. */
static void test_checklist_qfield(
    struct test_checklist *t, const char *key, const char *field, char *val, size_t cap)
{
	struct buf b = BUF_INIT;
	char pat[160];
	const char *line, *p;
	size_t n;

	frontier_report_queues(t->f, &b, 1);
	snprintf(pat, sizeof(pat), "\"key\":\"%s\",", key);
	line = b.data != NULL ? strstr(b.data, pat) : NULL;
	if (line == NULL) {
		buf_free(&b);
		CK_FAIL(t, "no queue %s", key);
	}
	while (line > b.data && line[-1] != '\n')
		line--;
	snprintf(pat, sizeof(pat), "\"%s\":", field);
	p = strstr(line, pat);
	if (p == NULL || p > strchr(line, '\n')) {
		buf_free(&b);
		CK_FAIL(t, "queue %s has no %s", key, field);
	}
	p += strlen(pat);
	if (*p == '"')
		p++;
	n = strcspn(p, "\",}");
	snprintf(val, cap, "%.*s", (int)n, p);
	buf_free(&b);
}

static void test_checklist_step(struct test_checklist *t, int argc, char **argv)
{
	const char *op = argv[0];
	char *err = NULL;
	int i;

	if (strcmp(op, "set") == 0) {
		for (i = 1; i < argc; i++)
			test_checklist_set(t, argv[i]);
		return;
	}
	if (strcmp(op, "open") == 0) {
		test_checklist_open(t, 1);
		return;
	}
	if (t->f == NULL)
		test_checklist_open(t, 1);
	if (strcmp(op, "add") == 0 && argc >= 2) {
		test_checklist_add(t, argc, argv);
	} else if (strcmp(op, "take") == 0 && argc >= 2) {
		test_checklist_take(t, argc, argv);
	} else if (strcmp(op, "none") == 0) {
		test_checklist_none(t, argc, argv);
	} else if (strcmp(op, "fin") == 0 && argc >= 3) {
		test_checklist_fin(t, argc, argv);
	} else if (strcmp(op, "drain") == 0) {
		test_checklist_drain(t, argc, argv);
	} else if (strcmp(op, "tick") == 0 && argc == 2) {
		t->now += (uint64_t)test_checklist_num(t, argv[1]);
	} else if (strcmp(op, "count") == 0 && argc == 3) {
		test_checklist_count(t, argv[1], test_checklist_num(t, argv[2]));
	} else if (strcmp(op, "q") == 0 && argc == 4) {
		char val[256];

		test_checklist_qfield(t, argv[1], argv[2], val, sizeof(val));
		if (strcmp(val, argv[3]) != 0)
			CK_FAIL(t, "queue %s %s: got %s want %s", argv[1], argv[2], val, argv[3]);
	} else if (strcmp(op, "finished") == 0 && argc == 2) {
		if (frontier_is_finished(t->f) != test_checklist_num(t, argv[1]))
			CK_FAIL(t, "finished: got %d", frontier_is_finished(t->f));
	} else if (strcmp(op, "reconsider") == 0 && argc == 2) {
		int r = frontier_reconsider_retired(t->f);

		if (r != test_checklist_num(t, argv[1]))
			CK_FAIL(t, "reconsider: got %d", r);
	} else if (strcmp(op, "settings") == 0) {
		frontier_settings_changed(t->f);
	} else if (strcmp(op, "flush") == 0) {
		if (frontier_flush(t->f, &err) < 0)
			CK_FAIL(t, "flush: %s", err);
	} else if (strcmp(op, "reopen") == 0) {
		/* The process dies with whatever is out. */
		if (frontier_flush(t->f, &err) < 0)
			CK_FAIL(t, "flush: %s", err);
		test_checklist_drop_out(t);
		frontier_close(t->f);
		t->f = NULL;
		test_checklist_open(t, 0);
	} else if (strcmp(op, "mayretry") == 0 && argc == 3) {
		char uri[256];

		test_checklist_uri(argv[1], uri, sizeof(uri), NULL, 0);
		i = test_checklist_out_find(t, uri);
		if (i < 0)
			CK_FAIL(t, "%s is not out", uri);
		if (frontier_may_retry(t->f, t->out[i]) != test_checklist_num(t, argv[2]))
			CK_FAIL(t, "mayretry %s: got %d", uri, frontier_may_retry(t->f, t->out[i]));
	} else {
		CK_FAIL(t, "bad step %s", op);
	}
	if (frontier_error(t->f) != NULL)
		CK_FAIL(t, "frontier error: %s", frontier_error(t->f));
}

static void test_checklist_run(struct test_checklist *t, const char *name, const char *script)
{
	char *line, *save = NULL;

	t->name = name;
	t->line = 0;
	free(t->script);
	t->script = strdup(script);
	for (line = strtok_r(t->script, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *argv[CK_ARGS], *tok, *s2 = NULL;
		int argc = 0;

		t->line++;
		for (tok = strtok_r(line, " \t", &s2); tok != NULL && argc < CK_ARGS;
		     tok = strtok_r(NULL, " \t", &s2))
			argv[argc++] = tok;
		if (argc > 0 && argv[0][0] != '#')
			test_checklist_step(t, argc, argv);
	}
	free(t->script);
	t->script = NULL;
}

struct test_checklist_case {
	const char *name;
	const char *script;
};

/* Each case runs on a fresh store. */
static void test_checklist_table(void **state, const struct test_checklist_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0) {
			test_checklist_teardown(state);
			test_checklist_setup(state);
		}
		test_checklist_run(*state, cases[i].name, cases[i].script);
	}
}

#define CK_TABLE(state, cases) test_checklist_table(state, cases, sizeof(cases) / sizeof(cases[0]))

/* Items 1-8: scheduling, queue states and order within a queue. */
static void test_checklist_scheduling(void **state)
{
	static const struct test_checklist_case cases[] = {
	    {"item 1: each new URI once, into the one queue named for it",
		"add a/1\nadd a/1 =0\nadd b/1\nadd a/2\n"
		"count discovered 3\ncount queued 3\ncount queues_total 2\n"
		"drain a/1 a/2 b/1\ncount succeeded 3\n"},
	    {"item 1: a forced URI is scheduled again though seen",
		"add a/1\ndrain a/1\nadd a/1 =0\nadd a/1 force\ndrain a/1\ncount discovered 1\n"},
	    {"item 60: a forced URI bypasses the seen set but is recorded in it",
		"add a/1 force\nadd a/1 =0\ncount discovered 1\nadd a/1 force\ncount queued 2\n"
		"drain a/1 a/1\n"},
	    {"item 2: a new queue is inactive, never ready",
		"add a/1\ncount inactive 1\ncount ready 0\nq a, state INACTIVE\n"},
	    {"item 2: an exhausted queue that receives a URI is inactive again",
		"add a/1\ndrain a/1\ncount exhausted 1\nadd a/2\ncount inactive 1\n"
		"q a, state INACTIVE\ndrain a/2\n"},
	    {"item 2, departure: hold-queues = false starts new queues ready",
		"set hold=0\nadd a/1\nadd b/1\ncount ready 2\ncount inactive 0\n"},
	    {"item 3: one activation per empty poll, none while a queue is ready",
		"add a/1\nadd a/2\nadd b/1\nadd b/2\n"
		"take a/1\ncount inactive 1\ntake b/1\ncount inactive 0\n"
		"fin a/1 S\ncount ready 1\nadd c/1\n"
		"take a/2\ncount inactive 1\nq c, state INACTIVE\n"
		"take c/1\ncount inactive 0\nnone\nfin b/1 S\nfin a/2 S\nfin c/1 S\ndrain b/2\n"},
	    {"item 4: activation lowest precedence first, FIFO within one",
		"add com1/1\nadd x1/1\nadd gov1/1\nadd com2/1\nadd x2/1\nadd gov2/1\n"
		"drain gov1/1 gov2/1 x1/1 x2/1 com1/1 com2/1\n"},
	    {"item 5: at most one URI of a queue in process",
		"add a/1\nadd a/2\nadd a/3\ntake a/1\nnone wake=max\ncount in_process 1\n"
		"fin a/1 S\ntake a/2\nnone\nfin a/2 S 10\nnone wake=+10\ntick 10\ntake a/3\n"
		"none wake=max\nfin a/3 S\n"},
	    {"item 6: directive, then URI precedence, then ordinal",
		"add a/n1 cost=5\nadd a/n2 cost=1\nadd a/r cost=9 dir=2\nadd a/p cost=9 dir=0\n"
		"add a/n3 cost=1\nadd a/h cost=20 dir=1\n"
		"drain a/p a/h a/r a/n2 a/n3 a/n1\n"},
	    {"item 6, departure: URI precedence sorts up to 255 (Heritrix 127), clipped above",
		"add a/300 cost=300\nadd a/200 cost=200\nadd a/256 cost=256\nadd a/150 cost=150\n"
		"take a/150 prec=150\nfin a/150 S\ntake a/200 prec=200\nfin a/200 S\n"
		"drain a/300 a/256\n"},
	    {"item 7: ordinals from 1, increasing, kept by retries and recovery",
		"set retry-delay=1\nadd a/1\nadd b/1\nadd a/2\n"
		"take a/1 ord=1\ntake b/1 ord=2\nfin a/1 R\ntick 1\ntake a/1 ord=1 att=1\n"
		"reopen\nadd a/3\ntake a/1 ord=1 att=1\nfin a/1 S\ntake b/1 ord=2\n"
		"fin b/1 S\ntake a/2 ord=3\nfin a/2 S\ntake a/3 ord=4\n"},
	    {"item 8: a retried or deferred URI stays at the head",
		"set retry-delay=5\nadd a/1\nadd a/2\nadd a/0 cost=1\n"
		"take a/1\nfin a/1 E\ntake a/1 att=0\nfin a/1 R\ntick 5\ntake a/1 att=1\n"
		"fin a/1 R\ntick 5\ntake a/1 att=2\nfin a/1 S\ndrain a/2 a/0\n"},
	};

	CK_TABLE(state, cases);
}

/* Items 9-17: session balance, total budget, retirement and charges. */
static void test_checklist_budgets(void **state)
{
	static const struct test_checklist_case cases[] = {
	    {"item 9: balance 1 emits 2 per session",
		"set balance=1\nadd a/1\nadd a/2\nadd a/3\nadd b/1\nadd b/2\nadd b/3\n"
		"drain a/1 a/2 b/1 b/2 a/3 b/3\n"},
	    {"item 9: balance 3 emits 4 per session",
		"set balance=3\nadd a/1\nadd a/2\nadd a/3\nadd a/4\nadd a/5\nadd b/1\n"
		"drain a/1 a/2 a/3 a/4 b/1 a/5\n"},
	    {"item 9: errors spend the balance too",
		"set balance=3 penalty=2\nadd a/1\nadd a/2\nadd a/3\nadd b/1\n"
		"take a/1\nfin a/1 F\ntake a/2\nfin a/2 S\ndrain b/1 a/3\n"},
	    {"item 10: balance 0 disables rotation",
		"set balance=0\nadd a/1\nadd a/2\nadd a/3\nadd b/1\ndrain a/1 a/2 a/3 b/1\n"},
	    {"item 10: a negative balance disables rotation",
		"set balance=-5\nadd a/1\nadd a/2\nadd a/3\nadd b/1\ndrain a/1 a/2 a/3 b/1\n"},
	    {"item 11: snooze and wake do not replenish",
		"set balance=5\nadd a/1\nadd a/2\nadd a/3\nadd a/4\n"
		"take a/1\nq a, session_balance 5\nfin a/1 S 100\nq a, session_balance 4\n"
		"tick 100\ntake a/2\nfin a/2 S 100\ntick 100\ntake a/3\nfin a/3 S 100\n"
		"q a, session_balance 2\n"},
	    {"item 11: deactivation then activation replenishes",
		"set balance=1\nadd a/1\nadd a/2\nadd a/3\nadd b/1\n"
		"take a/1\nfin a/1 S\ntake a/2\nfin a/2 S\nq a, session_balance -1\n"
		"take b/1\nq a, state INACTIVE\nfin b/1 S\ntake a/3\nq a, session_balance 1\n"},
	    {"item 12: a spent queue goes to the tail of its bucket",
		"set balance=1\nadd a/1\nadd a/2\nadd a/3\nadd b/1\nadd c/1\nadd c/2\nadd c/3\n"
		"drain a/1 a/2 b/1 c/1 c/2 a/3 c/3\n"},
	    {"item 13: alone, a spent queue is re-activated at once, fresh",
		"set balance=1\nadd a/1\nadd a/2\nadd a/3\nadd a/4\nadd a/5\n"
		"take a/1\nfin a/1 S\ntake a/2\nfin a/2 S\ntake a/3\nq a, session_balance 1\n"
		"fin a/3 S\ndrain a/4 a/5\n"},
	    {"item 14: budget -1 never retires",
		"set budget=-1\nadd a/1\nadd a/2\nadd a/3\ndrain a/1 a/2 a/3\ncount retired 0\n"},
	    {"item 14: budget 0 retires before any fetch",
		"set budget=0\nadd a/1\nadd a/2\ndrain\ncount retired 1\nq a, state RETIRED\n"
		"finished 1\n"},
	    {"item 14: budget 1 fetches exactly 1",
		"set budget=1\nadd a/1\nadd a/2\ndrain a/1\ncount retired 1\n"},
	    {"item 14: budget 3 fetches exactly 3",
		"set budget=3\nadd a/1\nadd a/2\nadd a/3\nadd a/4\nadd a/5\ndrain a/1 a/2 a/3\n"
		"q a, spend 3\nq a, size 2\n"},
	    {"item 14: cost 2 and budget 3 fetch 2 (spend 4 >= 3 at the next poll)",
		"set budget=3\nadd a/1 cost=2\nadd a/2 cost=2\nadd a/3 cost=2\ndrain a/1 a/2\n"},
	    {"item 15: retiring uncounts; later URIs are stored, not counted",
		"set budget=1\nadd a/1\nadd a/2\nadd a/3\nadd b/1\ncount queued 4\n"
		"drain a/1 b/1\ncount queued 0\ncount retired_uris 2\nadd a/4\n"
		"count queued 0\ncount retired_uris 3\nq a, size 3\nfinished 1\n"},
	    {"item 16: reconsider moves every retired queue back, counted",
		"set budget=1\nadd a/1\nadd a/2\nadd b/1\nadd b/2\nadd c/1\n"
		"drain a/1 b/1 c/1\ncount retired 2\ncount queued 0\n"
		"reconsider 2\ncount retired 0\ncount inactive 2\ncount queued 2\n"
		"finished 0\n# judged again with the same budget: retired at the first poll\n"
		"drain\ncount retired 2\nreconsider 2\nset budget=2\nsettings\n"
		"drain a/2 b/2\nreconsider 0\n"},
	    {"item 16: a settings change re-judges retired queues",
		"set budget=1\nadd a/1\nadd a/2\ndrain a/1\nset budget=5\nsettings\n"
		"count retired 0\ndrain a/2\n"},
	    {"item 17: success charges the cost",
		"set upolicy=base\n"
		"add a/1 cost=3\nadd a/2\ntake a/1\nfin a/1 S\nq a, spend 3\nq a, last_cost 3\n"},
	    {"item 17: final failure charges cost + penalty",
		"set upolicy=base\n"
		"set penalty=100\nadd a/1 cost=3\nadd a/2\ntake a/1\nfin a/1 F\nq a, spend 103\n"
		"q a, errors 1\nq a, last_cost 3\ncount failed 1\n"},
	    {"item 17: disregarded charges nothing",
		"set upolicy=base\n"
		"add a/1 cost=3\nadd a/2\ntake a/1\nfin a/1 D\nq a, spend 0\nq a, last_cost 0\n"
		"count disregarded 1\n"},
	    {"item 17: a retry charges the cost each time",
		"set retry-delay=1\nadd a/1 cost=3\ntake a/1\nfin a/1 R\ntick 1\ntake a/1\n"
		"fin a/1 R\nq a, spend 6\ntick 1\ntake a/1\nfin a/1 S\nq a, spend 9\n"},
	    {"item 17: a deferral charges nothing",
		"set upolicy=base\n"
		"add a/1 cost=3\ntake a/1\nfin a/1 E\nq a, spend 0\ntake a/1\nfin a/1 S\n"
		"q a, spend 3\n"},
	    {"item 17: a penalty alone can retire (budget 100)",
		"set budget=100\nadd a/1\nadd a/2\ntake a/1\nfin a/1 F\ndrain\ncount retired 1\n"},
	};

	CK_TABLE(state, cases);
}

/* Items 18-27: cost and precedence policies as the frontier applies them. */
static void test_checklist_precedence(void **state)
{
	static const struct test_checklist_case cases[] = {
	    {"item 18: zero cost charges 0",
		"set cost=zero\nadd a/1\nadd a/2\ntake a/1\nfin a/1 S\nq a, spend 0\n"},
	    {"item 18: unit cost charges 1",
		"set cost=unit\nadd a/1\nadd a/2\ntake a/1\nfin a/1 S\nq a, spend 1\n"},
	    {"item 18: wag: 1, +1 query, +1 more when the via is the same page",
		"set cost=wag\nadd a/p via=x/ hops=L\nadd a/q?x=1 via=x/ hops=L\n"
		"add a/r?x=1 via=a/r?x=0 hops=L\n"
		"take a/p\nfin a/p S\nq a, last_cost 1\ntake a/q?x=1\nfin a/q?x=1 S\n"
		"q a, last_cost 2\ntake a/r?x=1\nfin a/r?x=1 S\nq a, last_cost 3\n"},
	    {"item 18: anti-calendar: 1, +1 on a calendar-ish URI",
		"set cost=anti-calendar\nadd a/news\nadd a/calendar/2024/01\n"
		"take a/news\nfin a/news S\nq a, last_cost 1\ntake a/calendar/2024/01\n"
		"fin a/calendar/2024/01 S\nq a, last_cost 2\n"},
	    {"item 19: cost URI precedence (default) = cost",
		"set cost=wag\nadd a/1?q via=a/1 hops=L\nadd a/2 via=x/ hops=L\n"
		"take a/2 prec=1\nfin a/2 S\ntake a/1?q prec=3\n"},
	    {"item 19: base URI precedence = base (default 1)",
		"set upolicy=base\nadd a/1 cost=7\ntake a/1 prec=1\nset ubase=4\nadd b/1 cost=7\n"
		"take b/1 prec=4\n"},
	    {"item 20: hops = base + number of L hops",
		"set upolicy=hops\nadd a/1 via=x/ hops=LLEL\nadd a/2 via=x/ hops=RL\nadd a/3\n"
		"take a/3 prec=1\nfin a/3 S\ntake a/2 prec=2\nfin a/2 S\ntake a/1 prec=4\n"},
	    {"item 21: preloaded = base + value, else the default policy",
		"set upolicy=preloaded cost=wag\nadd a/1 pre=3\nadd a/2?x via=a/2 hops=L\n"
		"add a/3 pre=1\n"
		"take a/3 prec=2\nfin a/3 S\ntake a/2?x prec=3\nfin a/2?x S\ntake a/1 prec=4\n"},
	    {"item 22: base queue precedence 3 by default",
		"add a/1\nq a, precedence 3\nset qbase=7\nadd b/1\nq b, precedence 7\n"},
	    {"item 23: highest-uri = base + the best URI enqueued, live",
		"set qpolicy=highest-uri upolicy=hops\nadd a/1 via=x/ hops=LLL\nq a, precedence 7\n"
		"add a/2 via=x/ hops=L\nq a, precedence 5\ntake a/2\nfin a/2 S 10\n"
		"q a, precedence 7\n"},
	    {"item 23: highest-uri of an emptied queue is base + 0",
		"set qpolicy=highest-uri upolicy=hops\nadd a/1 via=x/ hops=LL\ntake a/1\n"
		"fin a/1 S\nq a, precedence 3\n"},
	    {"item 24: success-counts with small counts (2,3): 3, 4 after 2, 5 after 5",
		"set qpolicy=success-counts counts=2,3 hold=0\n"
		"add a/1\nadd a/2\nadd a/3\nadd a/4\nadd a/5\nadd a/6\n"
		"take a/1\nfin a/1 S\nq a, precedence 3\ntake a/2\nfin a/2 S\nq a, precedence 4\n"
		"take a/3\nfin a/3 S\ntake a/4\nfin a/4 S\nq a, precedence 4\ntake a/5\nfin a/5 S\n"
		"q a, precedence 5\n"},
	    {"item 24, departure: re-evaluated after a delayed completion too",
		"set qpolicy=success-counts counts=1\nadd a/1\nadd a/2\ntake a/1\nfin a/1 S 3000\n"
		"q a, precedence 4\n"},
	    {"item 25: at or past the floor: never emitted, ineligible",
		"set floor=200\nadd floor1/1\nadd x/1\ncount ineligible 1\ncount inactive 1\n"
		"drain x/1\nq floor1, state INELIGIBLE\ncount ineligible_uris 1\n"},
	    {"item 25: just under the floor is eligible",
		"set floor=201\nadd floor1/1\ndrain floor1/1\n"},
	    {"item 25, departure: ineligible queues do not keep the crawl running",
		"set floor=200\nadd floor1/1\ncount queued 1\nfinished 1\n"},
	    {"item 26: after a zero-delay completion, yield to a strictly better queue",
		"add com1/1\nadd com1/2\ntake com1/1\nadd gov1/1\nfin com1/1 S\n"
		"q com1, state INACTIVE\ndrain gov1/1 com1/2\n"},
	    {"item 26: equal precedence does not yield",
		"add x1/1\nadd x1/2\ntake x1/1\nadd x2/1\nfin x1/1 S\nq x1, state READY\n"
		"drain x1/2 x2/1\n"},
	    {"item 26, departure: a queue waking from a snooze yields too",
		"add com1/1\nadd com1/2\ntake com1/1\nfin com1/1 S 100\nadd gov1/1\n"
		"tick 100\ndrain gov1/1 com1/2\n"},
	    {"item 27: an enqueue that improves an inactive queue refiles it",
		"set qpolicy=highest-uri upolicy=hops\nadd x/1 via=s/ hops=LLLL\n"
		"add y/1 via=s/ hops=LL\nadd x/0\nq x, precedence 4\ncount inactive 2\n"
		"drain x/0 y/1 x/1\n"},
	    {"item 27, departure: an improvement while in flight neither files the queue "
	     "nor lets it out twice",
		"set qpolicy=highest-uri upolicy=hops\nadd x/1 via=s/ hops=LLLL\nadd x/2 via=s/ hops=LLLL\n"
		"take x/1\nadd x/0\ncount inactive 0\ncount in_process 1\nnone wake=max\n"
		"fin x/1 S\ndrain x/0 x/2\n"},
	};

	CK_TABLE(state, cases);
}

/* Items 33, 36, 37, 66, 72, 75 and departures of the lifecycle. */
static void test_checklist_lifecycle(void **state)
{
	static const struct test_checklist_case cases[] = {
	    {"item 33: eligible exactly at finish + delay",
		"add a/1\nadd a/2\ntake a/1\nfin a/1 S 3000\ncount snoozed 1\nnone wake=+3000\n"
		"tick 2999\nnone wake=+1\ntick 1\ntake a/2\n"},
	    {"item 33: snoozed queues wake in wake-time order",
		"set hold=0\nadd a/1\nadd a/2\nadd b/1\nadd b/2\nadd c/1\nadd c/2\n"
		"take a/1\ntake b/1\ntake c/1\nfin a/1 S 300\nfin b/1 S 100\nfin c/1 S 200\n"
		"tick 1000\ndrain b/2 c/2 a/2\n"},
	    {"item 33: a queue emptied during its snooze keeps it for a new URI",
		"add a/1\ntake a/1\nfin a/1 S 3000\ncount exhausted 1\nadd a/2\ntick 10\n"
		"none wake=+2990\ntick 2990\ntake a/2\n"},
	    {"item 33: the same without hold-queues",
		"set hold=0\nadd a/1\ntake a/1\nfin a/1 S 3000\nadd a/2\nnone wake=+3000\n"
		"tick 3000\ntake a/2\n"},
	    {"item 33, departure: a snooze past snooze-deactivate-ms leaves the working set",
		"set snooze-deactivate=1000\nadd a/1\nadd a/2\ntake a/1\nfin a/1 S 5000\n"
		"count snoozed 0\ncount inactive 1\nnone wake=+5000\ntick 5000\ntake a/2\n"},
	    {"item 36: a retry waits retry-delay; a deferral does not wait",
		"set retry-delay=900000\nadd a/1\ntake a/1\nfin a/1 E\ntake a/1\nfin a/1 R\n"
		"none wake=+900000\ntick 900000\ntake a/1 att=1\n"},
	    {"item 36: the caller's delay (back-off, Retry-After) replaces retry-delay",
		"set retry-delay=900000\nadd a/1\ntake a/1\nfin a/1 R 7000\nnone wake=+7000\n"},
	    {"item 37: final once attempts reach max-retries",
		"set retries=3 retry-delay=1\nadd a/1\ntake a/1 att=0\nmayretry a/1 1\nfin a/1 R\n"
		"tick 1\ntake a/1 att=1\nmayretry a/1 1\nfin a/1 R\ntick 1\ntake a/1 att=2\n"
		"mayretry a/1 0\nfin a/1 F\ncount failed 1\nfinished 1\n"},
	    {"item 37, departure: deferrals are not attempts",
		"set retries=2\nadd a/1\ntake a/1\nfin a/1 E\ntake a/1\nfin a/1 E\n"
		"take a/1 att=0\nmayretry a/1 1\n"},
	    {"item 66: in-process URIs count as queued until finished",
		"add a/1\nadd b/1\ntake a/1\ncount queued 2\ncount in_flight 1\nfinished 0\n"
		"fin a/1 S\ncount queued 1\ntake b/1\nfinished 0\nfin b/1 S\ncount queued 0\n"
		"finished 1\n"},
	    {"item 66: snoozed and inactive queues keep the crawl running",
		"add a/1\nadd a/2\ntake a/1\nfin a/1 S 100\nfinished 0\ntick 100\ntake a/2\n"
		"fin a/2 S 100\nfinished 1\nadd b/1\nfinished 0\n"},
	    {"item 66, departure: retired and ineligible queues do not keep it running",
		"set budget=0 floor=200\nadd a/1\nadd floor1/1\ndrain\nfinished 1\n"
		"count retired_uris 1\ncount ineligible_uris 1\n"},
	    {"item 72: after a restart in-process and ready queues are ready, inactive "
	     "and retired keep their state, in-flight URIs come again",
		"set budget=1\nadd a/1\nadd a/2\nadd b/1\nadd c/1\nadd r/1\nadd r/2\n"
		"drain a/1 b/1 c/1 r/1\nadd a/3\nadd c/2\nadd d/1\ncount retired 2\n"
		"set budget=-1\nsettings\ncount retired 0\ndrain c/2 d/1 a/2 a/3 r/2\n"
		"add e/1\nadd e/2\n"
		"add f/1\nadd f/2\nadd g/1\ntake e/1\ntake f/1\nfin f/1 S\nq f, state READY\n"
		"reopen\ncount in_process 0\ncount ready 2\ncount inactive 1\n"
		"drain e/1 f/2 e/2 g/1\n"},
	    {"item 72, departure: a snooze survives a restart",
		"add a/1\nadd a/2\ntake a/1\nfin a/1 S 5000\nreopen\ncount snoozed 1\n"
		"none wake=+5000\ntick 5000\ntake a/2\n"},
	    {"item 72: a retired queue stays retired after a restart",
		"set budget=1\nadd a/1\nadd a/2\ndrain a/1\nreopen\ncount retired 1\n"
		"count retired_uris 1\nfinished 1\n"},
	};

	CK_TABLE(state, cases);
}

/* Items 28-30, 32 and 34: the politeness arithmetic's delays, applied by the
 * frontier: the queue is eligible again exactly that long after finishing. */
static void test_checklist_politeness(void **state)
{
	static const struct {
		const char *why;
		int defaults;
		int64_t min, max, respect_s;
		int fetched;
		uint64_t duration;
		int64_t crawl_delay;
		uint64_t want;
	} rows[] = {
	    {"34: defaults, fast fetch waits the minimum", 1, 0, 0, 0, 1, 10, -1, 3000},
	    {"28: factor x duration", 1, 0, 0, 0, 1, 2000, -1, 10000},
	    {"28: capped at max", 1, 0, 0, 0, 1, 60000, -1, 30000},
	    {"28: min > max: max wins", 0, 5000, 2000, 300, 1, 10, -1, 2000},
	    {"29: crawl-delay raises past max", 1, 0, 0, 0, 1, 10, 45000, 45000},
	    {"29: crawl-delay up to respect", 0, 3000, 30000, 20, 1, 10, 45000, 20000},
	    {"29: respect 0 ignores crawl-delay", 0, 3000, 30000, 0, 1, 10, 45000, 3000},
	    {"30: nothing fetched: no delay", 1, 0, 0, 0, 0, 2000, 45000, 0},
	};
	struct test_checklist *t = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct politeness_params p;
		struct curi *c = NULL;
		uint64_t d, wake;
		char uri[64], key[32];

		politeness_defaults(&p);
		if (!rows[i].defaults) {
			p.min_delay_ms = rows[i].min;
			p.max_delay_ms = rows[i].max;
			p.respect_crawl_delay_s = rows[i].respect_s;
		}
		d = politeness_delay(&p, rows[i].fetched, rows[i].duration, rows[i].crawl_delay);
		if (d != rows[i].want)
			fail_msg("%s: delay %llu want %llu", rows[i].why, (unsigned long long)d,
			    (unsigned long long)rows[i].want);
		if (t->f == NULL)
			test_checklist_open(t, 1);
		for (int k = 0; k < 2; k++) {
			struct curi *s;

			snprintf(uri, sizeof(uri), "http://h%zu/%d", i, k);
			snprintf(key, sizeof(key), "h%zu,", i);
			s = curi_new(uri, NULL, "", CURI_SEED);
			assert_int_equal(frontier_schedule(t->f, s, uri, key, key, 0), 1);
			curi_free(s);
		}
		assert_int_equal(frontier_next(t->f, t->now, &c, &wake), 1);
		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, d);
		if (d > 0) {
			assert_int_equal(frontier_next(t->f, t->now + d - 1, &c, &wake), 0);
			if (wake != t->now + d)
				fail_msg(
				    "%s: wakes at +%lld", rows[i].why, (long long)(wake - t->now));
		}
		t->now += d;
		assert_int_equal(frontier_next(t->f, t->now, &c, &wake), 1);
		snprintf(uri, sizeof(uri), "http://h%zu/1", i);
		assert_string_equal(c->uri, uri);
		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
		assert_true(frontier_is_finished(t->f));
	}
}

/* Item 32, departure: the bandwidth cap debits the current fetch, so a big
 * fetch delays the host's next one at once (Heritrix: the one after). */
static void test_checklist_bandwidth(void **state)
{
	struct test_checklist *t = *state;
	uint64_t next = 0, d;

	/* 1024 KB/s = 1048.576 bytes/ms: 1 MiB debits 1000 ms. */
	d = politeness_bandwidth(1024, &next, t->now, 1048576);
	assert_int_equal(d, 1000);
	test_checklist_run(t, "item 32 departure", "add a/1\nadd a/2\ntake a/1\n");
	frontier_finish(t->f, t->out[0], FRONTIER_SUCCESS, t->now, d);
	t->out[0] = NULL;
	test_checklist_run(t, "item 32 departure", "none wake=+1000\ntick 1000\ntake a/2\n");
	assert_int_equal(politeness_bandwidth(0, &next, t->now, 1048576), 0);
}

/* Item 24 with Heritrix's own counts (base 3, "100,1000"): 3 for 0-99
 * successes, 4 for 100-1099, 5 for 1100-2099, 6 at 2100. */
static void test_checklist_success_counts(void **state)
{
	static const struct {
		int successes;
		const char *want;
	} marks[] = {
	    {0, "3"},
	    {99, "3"},
	    {100, "4"},
	    {1099, "4"},
	    {1100, "5"},
	    {2099, "5"},
	    {2100, "6"},
	};
	struct test_checklist *t = *state;
	char uri[64], val[32], *err = NULL;
	size_t m = 0;
	int i;

	t->name = "item 24";
	t->o.hold_queues = 0;
	t->o.defaults.queue_policy = POLICY_QUEUE_SUCCESS_COUNTS;
	test_checklist_open(t, 1);
	for (i = 0; i <= 2101; i++) {
		struct curi *c;

		snprintf(uri, sizeof(uri), "http://a/%d", i);
		c = curi_new(uri, NULL, "", CURI_SEED);
		assert_int_equal(frontier_schedule(t->f, c, uri, "a,", "a,", 0), 1);
		curi_free(c);
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	for (i = 0; m < sizeof(marks) / sizeof(marks[0]); i++) {
		struct curi *c = NULL;
		uint64_t wake;

		if (i == marks[m].successes) {
			test_checklist_qfield(t, "a,", "precedence", val, sizeof(val));
			if (strcmp(val, marks[m].want) != 0)
				fail_msg("item 24: %d successes: precedence %s want %s", i, val,
				    marks[m].want);
			m++;
		}
		assert_int_equal(frontier_next(t->f, t->now, &c, &wake), 1);
		frontier_finish(t->f, c, FRONTIER_SUCCESS, t->now, 0);
	}
}

/* Item 61, departure: the already-seen set is exact (Heritrix keeps 64-bit
 * fingerprints, whose collisions drop new URIs). Enough URIs to make the
 * Bloom layer answer "maybe" many times: none is lost, none repeated. */
static void test_checklist_seen_exact(void **state)
{
	struct test_checklist *t = *state;
	char uri[64], key[16], *err = NULL;
	int i, pass, r, held = 0;

	t->o.hold_queues = 0;
	/* A memory set far smaller than the 45,000 URIs: the Bloom filter
	 * and the store judge most old ones. */
	t->o.seen_memory = 64 << 10;
	test_checklist_open(t, 1);
	for (pass = 0; pass < 3; pass++) {
		for (i = 0; i < 30000; i++) {
			struct curi *c;
			int want = pass == 0 || (pass == 2 && i % 2 == 1);

			/* Pass 2 alternates old URIs with new ones. */
			if (pass == 2 && i % 2 == 1)
				snprintf(uri, sizeof(uri), "http://h%d/new/%d", i % 97, i);
			else
				snprintf(uri, sizeof(uri), "http://h%d/p/%d", i % 97, i);
			c = curi_new(uri, NULL, "", CURI_SEED);
			snprintf(key, sizeof(key), "h%d,", i % 97);
			/* A URI the store must judge is held until the flush,
			 * where the counts below check the verdicts. */
			r = frontier_schedule(t->f, c, c->uri, key, NULL, 0);
			if (r != want && r != FRONTIER_HELD_URI)
				fail_msg("item 61: pass %d URI %s", pass, c->uri);
			held += r == FRONTIER_HELD_URI;
			curi_free(c);
			if (i % 1000 == 999)
				assert_int_equal(frontier_flush(t->f, &err), 0);
		}
	}
	assert_int_equal(frontier_flush(t->f, &err), 0);
	/* The memory set cannot hold 30,000 URIs: the store judged some. */
	assert_true(held > 0);
	test_checklist_count(t, "discovered", 45000);
	test_checklist_count(t, "queued", 45000);
}

/* Items 75 and 76: the one-line status and the per-queue line; the
 * departure: ineligible queues are not counted as exhausted. */
static void test_checklist_reports(void **state)
{
	struct test_checklist *t = *state;
	struct buf b = BUF_INIT;
	const char *line;

	test_checklist_run(t, "items 75, 76",
	    "set floor=200 budget=1 penalty=5\nadd a/1\nadd a/2\nadd b/1\nadd b/2\nadd c/1\n"
	    "add floor1/1\nadd d/1\nadd d/2\ntake a/1\nfin a/1 F\ntake b/1\nfin b/1 S 5000\n"
	    "take c/1\nfin c/1 S\ntake d/1\n");
	/* a: retired (spent 6 >= 1); b: snoozed; c: exhausted; d: in process;
	 * floor1: ineligible. */
	frontier_report_summary(t->f, &b);
	assert_non_null(strstr(b.data,
	    "RUN - 5 URI queues: 2 active (1 in-process; 0 ready; "
	    "1 snoozed); 0 inactive; 1 ineligible; 1 retired; 1 exhausted\n"));
	buf_reset(&b);
	frontier_report_queues(t->f, &b, 0);
	/* state key precedence size enqueues balance lastcost(avg) lastdequeue
	 * (UTC) wake (a wait) spend/budget errors lastpeeked lastqueued */
	line = strstr(b.data,
	    "SNOOZED b, 3 1 2 2999 1(1.00) 1970-01-01T00:16:40Z 5s 1/1 0 http://b/1 "
	    "http://b/2\n");
	if (line == NULL)
		fail_msg("items 75, 76: %s", b.data);
	assert_non_null(strstr(b.data,
	    "RETIRED a, 3 1 2 3000 1(6.00) 1970-01-01T00:16:40Z - 6/1 1 "
	    "http://a/1 http://a/2\n"));
	assert_non_null(strstr(b.data,
	    "INELIGIBLE floor1, 200 1 1 3000 0(0.00) - - 0/1 0 - "
	    "http://floor1/1\n"));
	assert_non_null(strstr(b.data, "EXHAUSTED c, 3 0 1 "));
	buf_free(&b);
}

/* Item 77: at most 2000 queues per category in the summary. */
static void test_checklist_report_cap(void **state)
{
	struct test_checklist *t = *state;
	struct buf b = BUF_INIT;
	const char *p;
	int i, lines = 0;

	t->o.hold_queues = 0;
	test_checklist_open(t, 1);
	for (i = 0; i < 2010; i++) {
		char uri[64], key[32];
		struct curi *c;

		snprintf(uri, sizeof(uri), "http://q%d/", i);
		snprintf(key, sizeof(key), "q%d,", i);
		c = curi_new(uri, NULL, "", CURI_SEED);
		assert_int_equal(frontier_schedule(t->f, c, uri, key, key, 0), 1);
		curi_free(c);
	}
	frontier_report_summary(t->f, &b);
	p = strstr(b.data, "ready queues (first 2000):\n");
	assert_non_null(p);
	for (p = strchr(p, '\n') + 1; strncmp(p, "  q", 3) == 0; p = strchr(p, '\n') + 1)
		lines++;
	assert_int_equal(lines, 2000);
	buf_free(&b);
}

/* Item 55, the frontier's side: the crawl loop schedules a URI that came up
 * on its host name queue again (force) on its IP queue, then finishes it
 * as relocated: gone from the old queue with no politeness delay, no
 * charge and no count, fetched once from the new one. */
static void test_checklist_relocation(void **state)
{
	struct test_checklist *t = *state;

	test_checklist_run(t, "item 55",
	    "set hold=0\nadd a/1\nadd a/2\ntake a/1\nadd a/1 queue=ip, force\n"
	    "count queued 3\nfin a/1 L\ncount queued 2\ncount discovered 2\n"
	    "count disregarded 0\ncount succeeded 0\ncount failed 0\n"
	    "q a, state READY\nq a, size 1\nq a, spend 0\nq ip, size 1\n"
	    "take a/1\ntake a/2\nfin a/1 S\nfin a/2 S\ncount queued 0\n"
	    "count succeeded 2\ncount disregarded 0\nnone wake=max\nfinished 1\n");
}

/* Item 77: the summary lists the 20 longest queues, longest first, read
 * from the store for queues that are not in memory (2 resident queues
 * besides the working set here, 60 queues). */
static void test_checklist_longest(void **state)
{
	struct test_checklist *t = *state;
	struct buf b = BUF_INIT;
	const char *p;
	char want[64], uri[64], key[32], *err = NULL;
	int i, j, lines = 0;
	long long last = -1;

	t->o.hold_queues = 1;
	t->o.cold_queues = 2;
	test_checklist_open(t, 1);
	/* Queue qI gets (I * 37) % 60 + 1 URIs: every size from 1 to 60 once. */
	for (i = 0; i < 60; i++) {
		for (j = 0; j < (i * 37) % 60 + 1; j++) {
			struct curi *c;

			snprintf(uri, sizeof(uri), "http://q%d/%d", i, j);
			snprintf(key, sizeof(key), "q%d,", i);
			c = curi_new(uri, NULL, "", CURI_SEED);
			assert_int_equal(frontier_schedule(t->f, c, uri, key, key, 0), 1);
			curi_free(c);
		}
		if (frontier_flush(t->f, &err) < 0)
			fail_msg("item 77: flush: %s", err);
	}
	frontier_report_summary(t->f, &b);
	p = strstr(b.data, "\n 20 longest queues:\n");
	if (p == NULL)
		fail_msg("item 77: no longest queues in %s", b.data);
	for (p = strchr(p + 1, '\n') + 1; strncmp(p, "  ", 2) == 0; p = strchr(p, '\n') + 1) {
		char state_word[32], qkey[32];
		long long prec, size;

		assert_int_equal(
		    sscanf(p, "  %31s %31s %lld %lld", state_word, qkey, &prec, &size), 4);
		/* 60, 59, ... 41, each on the queue I with (I * 37) % 60 + 1 = size. */
		for (i = 0; i < 60 && (i * 37) % 60 + 1 != size; i++)
			;
		snprintf(want, sizeof(want), "q%d,", i);
		assert_string_equal(qkey, want);
		assert_int_equal(size, 60 - lines);
		assert_true(last < 0 || size < last);
		last = size;
		lines++;
	}
	assert_int_equal(lines, 20);
	buf_free(&b);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, test_checklist_setup, test_checklist_teardown)
	const struct CMUnitTest tests[] = {
	    T(test_checklist_scheduling),
	    T(test_checklist_budgets),
	    T(test_checklist_precedence),
	    T(test_checklist_lifecycle),
	    T(test_checklist_politeness),
	    T(test_checklist_bandwidth),
	    T(test_checklist_success_counts),
	    T(test_checklist_seen_exact),
	    T(test_checklist_reports),
	    T(test_checklist_report_cap),
	    T(test_checklist_relocation),
	    T(test_checklist_longest),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
