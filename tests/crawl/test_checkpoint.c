/* Checkpoints over a real LevelDB store in a temporary job directory: names,
 * listing and the `valid` marker; freezing while the store keeps being
 * written and compacted (every checkpoint restores to exactly the state it
 * was taken at); restoring the same checkpoint again after writing to the
 * restored store (copy-on-write); components' JSON round trips and hand
 * edits; refusals with clear messages. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crawl/checkpoint.h"
#include "frontier/frontier.h"
#include "crawl/job.h"
#include "archive/warc.h"
#include "lib/xmalloc.h"

struct test_checkpoint {
	char job[64];
	char store[96];
	struct frontier_options o;
	struct frontier *f;
	uint64_t now;
	unsigned long next;
};

static int test_checkpoint_rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void test_checkpoint_open(struct test_checkpoint *t, int create)
{
	char *err = NULL;

	t->f = frontier_open_opts(t->store, &t->o, create, t->now, &err);
	if (t->f == NULL)
		fail_msg("open: %s", err);
}

static int test_checkpoint_setup(void **state)
{
	struct test_checkpoint *t = calloc(1, sizeof(*t));
	char path[128];

	strcpy(t->job, "/tmp/test_checkpoint.XXXXXX");
	assert_non_null(mkdtemp(t->job));
	snprintf(path, sizeof path, "%s/state", t->job);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/logs", t->job);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(t->store, sizeof t->store, "%s/state/frontier", t->job);
	frontier_options_defaults(&t->o);
	/* A small memtable makes LevelDB flush and compact while the test
	 * writes and checkpoints. */
	t->o.write_buffer_mb = 1;
	t->o.cache_mb = 8;
	t->now = 1000000;
	test_checkpoint_open(t, 1);
	*state = t;
	return 0;
}

static int test_checkpoint_teardown(void **state)
{
	struct test_checkpoint *t = *state;

	frontier_close(t->f);
	nftw(t->job, test_checkpoint_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

/* Schedules n new URIs over 50 hosts, flushing every 500 as the crawl loop
 * does once per iteration. */
static void test_checkpoint_fill(struct test_checkpoint *t, unsigned long n)
{
	char uri[128], host[64], *err = NULL;
	struct curi c;

	for (unsigned long i = 0; i < n; i++, t->next++) {
		memset(&c, 0, sizeof c);
		snprintf(host, sizeof host, "com,host%lu,", t->next % 50);
		snprintf(uri, sizeof uri, "http://host%lu.com/some/longer/path/%lu.html?q=%lu",
		    t->next % 50, t->next, t->next * 7919);
		c.uri = uri;
		c.via = (char *)"http://host0.com/";
		c.hops = (char *)"L";
		c.directive = 3;
		c.cost = -1;
		assert_int_equal(frontier_schedule(t->f, &c, uri, host, host, 0), 1);
		if (i % 500 == 499 && frontier_flush(t->f, &err) < 0)
			fail_msg("flush: %s", err);
	}
}

static uint64_t test_checkpoint_queued(struct test_checkpoint *t)
{
	struct frontier_counts c;

	frontier_counts(t->f, &c);
	return c.queued;
}

static void test_checkpoint_take(
    struct test_checkpoint *t, const struct checkpoint_parts *p, char name[CHECKPOINT_NAME_MAX])
{
	struct checkpoint_parts dflt;
	struct checkpoint_timing tm;
	char *err = NULL;

	if (p == NULL) {
		memset(&dflt, 0, sizeof dflt);
		dflt.frontier = t->f;
		p = &dflt;
	}
	if (checkpoint_create(t->job, p, name, &tm, &err) < 0)
		fail_msg("checkpoint: %s", err);
	assert_true(tm.total_us >= tm.mark_us + tm.freeze_us);
	assert_true(tm.attempts >= 1);
}

static void test_checkpoint_restore_ok(
    struct test_checkpoint *t, const char *name, struct checkpoint_restored *r)
{
	char *err = NULL;

	frontier_close(t->f);
	t->f = NULL;
	if (checkpoint_restore(t->job, name, r, &err) < 0)
		fail_msg("restore %s: %s", name, err);
	test_checkpoint_open(t, 0);
}

static void test_checkpoint_names(void **state)
{
	struct test_checkpoint *t = *state;
	char a[CHECKPOINT_NAME_MAX], b[CHECKPOINT_NAME_MAX], c[CHECKPOINT_NAME_MAX], path[256];
	char **names;
	size_t n;
	char *err = NULL;
	struct checkpoint_parts p;

	test_checkpoint_fill(t, 100);
	test_checkpoint_take(t, NULL, a);
	test_checkpoint_take(t, NULL, b);
	assert_int_equal(strncmp(a, "cp00001-", 8), 0);
	assert_int_equal(strncmp(b, "cp00002-", 8), 0);
	assert_int_equal(strlen(a), 22);
	assert_int_equal(checkpoint_list(t->job, &names, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], a);
	assert_string_equal(names[1], b);
	assert_null(names[2]);
	checkpoint_list_free(names);

	/* Without its marker a checkpoint is neither listed nor restorable. */
	snprintf(path, sizeof path, "%s/checkpoints/%s/valid", t->job, b);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(checkpoint_list(t->job, &names, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], a);
	checkpoint_list_free(names);
	frontier_close(t->f);
	t->f = NULL;
	{
		struct checkpoint_restored r;
		assert_int_equal(checkpoint_restore(t->job, b, &r, &err), CHECKPOINT_ENOTFOUND);
		assert_non_null(strstr(err, "not a valid checkpoint"));
		free(err);
		err = NULL;
		/* latest skips it. */
		assert_int_equal(checkpoint_restore(t->job, "latest", &r, &err), 0);
		assert_string_equal(r.name, a);
	}
	test_checkpoint_open(t, 0);

	/* The serial continues after the highest directory, valid or not;
	 * forget-all-but-latest leaves only the new one. */
	memset(&p, 0, sizeof p);
	p.frontier = t->f;
	p.forget_all_but_latest = 1;
	test_checkpoint_take(t, &p, c);
	assert_int_equal(strncmp(c, "cp00003-", 8), 0);
	assert_int_equal(checkpoint_list(t->job, &names, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], c);
	checkpoint_list_free(names);
	snprintf(path, sizeof path, "%s/checkpoints/%s", t->job, a);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof path, "%s/checkpoints/%s", t->job, b);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_checkpoint_bad_names(void **state)
{
	struct test_checkpoint *t = *state;
	static const char *const bad[] = {
	    "../state",
	    "cp1-20260101000000",
	    "cp00001-2026010100000",
	    "cp00001-202601010000000",
	    "cp00001_20260101000000",
	    "",
	    "cp00001-20260101000000/../x",
	    "latest2",
	};
	struct checkpoint_restored r;
	char *err = NULL;

	frontier_close(t->f);
	t->f = NULL;
	assert_int_equal(checkpoint_restore(t->job, "latest", &r, &err), CHECKPOINT_ENOTFOUND);
	assert_non_null(strstr(err, "no valid checkpoint"));
	free(err);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err = NULL;
		assert_int_equal(
		    checkpoint_restore(t->job, bad[i], &r, &err), CHECKPOINT_ENOTFOUND);
		assert_non_null(err);
		free(err);
	}
	/* The live store was left alone. */
	test_checkpoint_open(t, 0);
}

/* Checkpoints taken while URIs keep being added (and LevelDB keeps
 * flushing memtables and compacting) each restore to the exact count of
 * their moment, in any order, and again after the restored store was
 * written to. */
static void test_checkpoint_under_writes(void **state)
{
	struct test_checkpoint *t = *state;
	enum { N = 8 };
	char names[N][CHECKPOINT_NAME_MAX];
	uint64_t queued[N];
	struct checkpoint_restored r;
	int order[] = {3, 0, 7, 5, 3};

	for (int i = 0; i < N; i++) {
		test_checkpoint_fill(t, 6000);
		test_checkpoint_take(t, NULL, names[i]);
		queued[i] = test_checkpoint_queued(t);
		assert_int_equal(queued[i], (uint64_t)(i + 1) * 6000);
	}
	test_checkpoint_fill(t, 3000);
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		int i = order[k];

		test_checkpoint_restore_ok(t, names[i], &r);
		assert_string_equal(r.name, names[i]);
		assert_int_equal(test_checkpoint_queued(t), queued[i]);
		/* Writing to the restored store must not reach the checkpoint:
		 * the URIs scheduled here are new again after the next restore
		 * of the same checkpoint. */
		t->next = (unsigned long)queued[i];
		test_checkpoint_fill(t, 4000);
		assert_int_equal(test_checkpoint_queued(t), queued[i] + 4000);
	}
}

static void test_checkpoint_components(void **state)
{
	struct test_checkpoint *t = *state;
	struct crawl_stats s, *rs;
	struct checkpoint_parts p;
	struct checkpoint_restored r;
	struct warc_opts wo;
	struct warc_writer *w;
	char name[CHECKPOINT_NAME_MAX], path[256], *err = NULL;
	FILE *fp;

	memset(&s, 0, sizeof s);
	s.pages = 1234;
	s.bytes = 5678901234ULL;
	s.failures = 7;
	s.retries = 3;
	s.status_class[2] = 1200;
	s.status_class[4] = 34;
	memset(&wo, 0, sizeof wo);
	snprintf(path, sizeof path, "%s/warcs", t->job);
	wo.dir = path;
	wo.prefix = "T";
	wo.max_size = 1 << 20;
	wo.software = "tern/test";
	wo.hostname = "h";
	wo.first_serial = 42;
	w = warc_open(&wo, &err);
	assert_non_null(w);
	snprintf(path, sizeof path, "%s/logs/crawl.log", t->job);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("0123456789\n", fp);
	fclose(fp);

	memset(&p, 0, sizeof p);
	p.frontier = t->f;
	p.warc = w;
	p.stats = &s;
	test_checkpoint_take(t, &p, name);
	warc_close(w);
	test_checkpoint_restore_ok(t, name, &r);
	assert_true(r.have_stats);
	rs = &r.stats;
	assert_int_equal(rs->pages, 1234);
	assert_int_equal(rs->bytes, 5678901234ULL);
	assert_int_equal(rs->failures, 7);
	assert_int_equal(rs->retries, 3);
	assert_int_equal(rs->status_class[2], 1200);
	assert_int_equal(rs->status_class[4], 34);
	assert_int_equal(r.warc_next_serial, 42);
	assert_int_equal(r.crawl_log_bytes, 11);

	/* Hand edits are taken; a wrong type is refused with the file named,
	 * and the live store stays as it was. */
	snprintf(path, sizeof path, "%s/checkpoints/%s/crawl.json", t->job, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("{\"pages\": 99, \"statuses\": {\"2xx\": 98}}\n", fp);
	fclose(fp);
	test_checkpoint_restore_ok(t, name, &r);
	assert_int_equal(r.stats.pages, 99);
	assert_int_equal(r.stats.status_class[2], 98);
	assert_int_equal(r.stats.bytes, 0);
	fp = fopen(path, "w");
	fputs("{\"pages\": \"many\"}\n", fp);
	fclose(fp);
	frontier_close(t->f);
	t->f = NULL;
	assert_int_equal(checkpoint_restore(t->job, name, &r, &err), CHECKPOINT_EFAIL);
	assert_non_null(strstr(err, "crawl.json"));
	free(err);
	err = NULL;
	fp = fopen(path, "w");
	fputs("{\"pages\": 1,,}\n", fp);
	fclose(fp);
	assert_int_equal(checkpoint_restore(t->job, name, &r, &err), CHECKPOINT_EFAIL);
	assert_non_null(strstr(err, "crawl.json:1"));
	free(err);
	test_checkpoint_open(t, 0);
}

/* A frozen store that is not the checkpoint's (its marker names another)
 * is refused rather than resumed. */
static void test_checkpoint_marker(void **state)
{
	struct test_checkpoint *t = *state;
	char a[CHECKPOINT_NAME_MAX], b[CHECKPOINT_NAME_MAX], pa[256], pb[256];
	struct checkpoint_restored r;
	char *err = NULL;

	test_checkpoint_fill(t, 100);
	test_checkpoint_take(t, NULL, a);
	test_checkpoint_fill(t, 100);
	test_checkpoint_take(t, NULL, b);
	frontier_close(t->f);
	t->f = NULL;
	snprintf(pa, sizeof pa, "%s/checkpoints/%s/frontier", t->job, a);
	snprintf(pb, sizeof pb, "%s/checkpoints/%s/frontier.x", t->job, a);
	assert_int_equal(rename(pa, pb), 0);
	snprintf(pb, sizeof pb, "%s/checkpoints/%s/frontier", t->job, b);
	{
		char *cmd = xasprintf("cp -r %s %s", pb, pa);
		assert_int_equal(system(cmd), 0);
		free(cmd);
	}
	assert_int_equal(checkpoint_restore(t->job, a, &r, &err), CHECKPOINT_EFAIL);
	assert_non_null(strstr(err, "not the one"));
	free(err);
	test_checkpoint_open(t, 0);
	assert_int_equal(test_checkpoint_queued(t), 200);
}

/* job_log_repair: a log cut mid-line by a kill is cut back to its last
 * newline before the crawl appends again. */
static void test_checkpoint_log_repair(void **state)
{
	struct test_checkpoint *t = *state;
	static const struct {
		const char *in;
		const char *out;
		long removed;
	} cases[] = {
	    {"a\nb\nc", "a\nb\n", 1},
	    {"a\nb\n", "a\nb\n", 0},
	    {"abc", "", 3},
	    {"", "", 0},
	    {"\n", "\n", 0},
	};
	char path[256], got[64];
	struct buf big = BUF_INIT;
	FILE *fp;
	size_t n;

	snprintf(path, sizeof path, "%s/logs/crawl.log", t->job);
	assert_int_equal(job_log_repair(path), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fp = fopen(path, "w");
		fputs(cases[i].in, fp);
		fclose(fp);
		assert_int_equal(job_log_repair(path), cases[i].removed);
		fp = fopen(path, "r");
		n = fread(got, 1, sizeof got - 1, fp);
		fclose(fp);
		got[n] = '\0';
		assert_string_equal(got, cases[i].out);
	}
	/* A cut line longer than the backwards read's chunk. */
	buf_appends(&big, "first line\n");
	for (int i = 0; i < 10000; i++)
		buf_appendc(&big, 'x');
	fp = fopen(path, "w");
	fwrite(big.data, 1, big.len, fp);
	fclose(fp);
	assert_int_equal(job_log_repair(path), 10000);
	fp = fopen(path, "r");
	n = fread(got, 1, sizeof got - 1, fp);
	fclose(fp);
	got[n] = '\0';
	assert_string_equal(got, "first line\n");
	buf_free(&big);
}

static void test_checkpoint_due(void **state)
{
	(void)state;
	assert_false(checkpoint_due(0, 10ULL * 60000, 0));
	assert_false(checkpoint_due(1000, 1000 + 5 * 60000 - 1, 5));
	assert_true(checkpoint_due(1000, 1000 + 5 * 60000, 5));
	assert_false(checkpoint_due(2000, 1000, 5));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, test_checkpoint_setup, test_checkpoint_teardown)
	const struct CMUnitTest tests[] = {
	    T(test_checkpoint_names),
	    T(test_checkpoint_bad_names),
	    T(test_checkpoint_under_writes),
	    T(test_checkpoint_components),
	    T(test_checkpoint_marker),
	    T(test_checkpoint_log_repair),
	    T(test_checkpoint_due),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
