/* The configuration loader: defaults, INI text, --set, overrides and the
 * error messages that must name file, line and key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/config.h"

static int test_config_load(struct config *c, const char *text, char **err)
{
	return config_load_text(c, text, strlen(text), "tern.conf", err);
}

static void test_config_defaults(void **state)
{
	struct config *c = config_new();
	size_t n;
	const int64_t *l;

	(void)state;
	assert_int_equal(config_int(c, CK_CRAWL_MAX_CONNECTIONS), 256);
	assert_int_equal(config_int(c, CK_FRONTIER_QUEUE_TOTAL_BUDGET), -1);
	assert_true(config_bool(c, CK_FRONTIER_HOLD_QUEUES));
	assert_true(config_double(c, CK_POLITENESS_DELAY_FACTOR) == 5.0);
	assert_string_equal(config_str(c, CK_FRONTIER_COST_POLICY), "unit");
	assert_int_equal(config_enum(c, CK_FRONTIER_COST_POLICY), 1);
	assert_int_equal(config_enum(c, CK_FRONTIER_QUEUE_ASSIGNMENT), 0);
	l = config_intlist(c, CK_FRONTIER_SUCCESS_INCREMENT_COUNTS, &n);
	assert_int_equal(n, 2);
	assert_int_equal(l[0], 100);
	assert_int_equal(l[1], 1000);
	assert_string_equal(config_name(CK_POLITENESS_MIN_DELAY_MS), "politeness.min-delay-ms");
	assert_int_equal(config_find("fetch.tls-verify"), CK_FETCH_TLS_VERIFY);
	assert_int_equal(config_find("fetch.nope"), -1);
	config_free(c);
}

struct test_config_bad {
	const char *text;
	const char *message; /* expected, after the file name */
};

static const struct test_config_bad test_config_bad_table[] = {
    {"[crawl]\nmax-hops = x\n", ":2: crawl.max-hops: expected an integer from 0 to 10000, got 'x'"},
    {"[crawl]\n\n# c\nmax-hops = 100001\n", ":4: crawl.max-hops: expected an integer"},
    {"[fetch]\ntls-verify = maybe\n", ":2: fetch.tls-verify: expected true or false"},
    {"[frontier]\ncost-policy = dear\n",
	":2: frontier.cost-policy: expected one of zero|unit|wag|anti-calendar"},
    {"[frontier]\nsuccess-increment-counts = 100,x\n",
	":2: frontier.success-increment-counts: expected a comma-separated list"},
    {"[politeness]\ndelay-factor = -1\n", ":2: politeness.delay-factor: expected a number"},
    {"[politeness]\ndelay-factor = nan\n", ":2: politeness.delay-factor: expected a number"},
    /* A section header is judged on its own line, keys under it or not. */
    {"[bogus]\na = 1\n", ":1: [bogus]: unknown section"},
    {"[crawl]\nmax-hops = 3\n[bogus]\na = 1\n", ":3: [bogus]: unknown section"},
    {"[crawl]\nmax-hops = 3\n\n  [bogus]  # later\n", ":4: [bogus]: unknown section"},
    {"\xef\xbb\xbf[bogus]\n", ":1: [bogus]: unknown section"},
    {"[crawl\nmax-hops = 3\n", ":1: expected [section] or key = value"},
    {"# top\nmax-hops = 3\n", ":2: max-hops: a key before any [section]"},
    {"[crawl]\nmax-hopz = 1\n", ":2: crawl.max-hopz: unknown key"},
    {"[crawl]\nmax-hops 3\n", ":2: expected [section] or key = value"},
    {"[override com,]\nfrontier.queue-base-precedence = 1\n",
	":1: [override com,]: expected [override \"SURT-PREFIX\"]"},
    {"[crawl]\n[override \"\"]\n", ":2: [override \"\"]: expected [override \"SURT-PREFIX\"]"},
    {"[override \"com,\"]\nqueue-base-precedence = 1\n",
	":2: queue-base-precedence: keys in an override section are written fully qualified"},
    {"[override \"com,\"]\ncrawl.max-connections = 1\n",
	":2: crawl.max-connections: not a per-URI or per-queue key"},
    {"[override \"com,\"]\nfrontier.queue-base-precedence = 0\n",
	":2: frontier.queue-base-precedence: expected an integer from 1 to 255"},
    /* Reject and accept rules name their own line. */
    {"[rules]\nreject = cal regex /cal/\nreject = loop regex (a\n",
	":3: rules.reject: rule loop: bad regular expression at offset 2"},
    {"[rules]\nreject = cal regex /cal/\naccept = cal surt (test,\n",
	":3: rules.accept: rule cal: a rule of that name comes earlier"},
    {"[rules]\ndeny = cal regex /cal/\n", ":2: rules.deny: unknown key"},
    {"[rules]\nreject = x kind image\n", ":2: rules.reject: rule x: kind \"image\""},
    {"[override \"com,\"]\nrules.reject = x regex y\n",
	":2: rules.reject: rules are not set by SURT prefix"},
};

static void test_config_bad_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof test_config_bad_table / sizeof test_config_bad_table[0];
	     i++) {
		const struct test_config_bad *t = &test_config_bad_table[i];
		char *err = NULL;
		struct config *c = config_new();
		assert_int_equal(test_config_load(c, t->text, &err), -1);
		assert_non_null(err);
		if (strncmp(err, "tern.conf:", 10) != 0 || strstr(err, t->message) == NULL)
			fail_msg(
			    "case %zu: got \"%s\", wanted \"tern.conf%s\"", i, err, t->message);
		free(err);
		config_free(c);
	}
}

/* Lines longer than inih's buffer, and text without a final newline, are
 * read as a file of the same bytes would be. */
static void test_config_text_edges(void **state)
{
	struct buf b = BUF_INIT;
	struct config *c = config_new();
	char *err = NULL;

	(void)state;
	assert_int_equal(test_config_load(c, "[crawl]\nmax-hops = 7", &err), 0);
	assert_int_equal(config_int(c, CK_CRAWL_MAX_HOPS), 7);
	buf_appends(&b, "[crawl]\nuser-agent = ");
	for (int i = 0; i < 20000; i++)
		buf_appendc(&b, 'a');
	buf_appends(&b, "\n");
	assert_int_equal(config_load_text(c, b.data, b.len, "long.conf", &err), -1);
	assert_non_null(strstr(err, "long.conf:"));
	free(err);
	buf_free(&b);
	config_free(c);
}

static void test_config_file_and_overrides(void **state)
{
	const char *text = "# a job\n"
			   "[crawl]\n"
			   "max-connections = 17   # inline comment\n"
			   "user-agent = bot/1 (+http://example.org/bot#about)\n"
			   "[frontier]\n"
			   "queue-base-precedence = 5\n"
			   "[override \"gov,\"]\n"
			   "frontier.queue-base-precedence = 1\n"
			   "[override \"gov,nasa,\"]\n"
			   "politeness.min-delay-ms = 10\n"
			   "[override \"com,\"]\n"
			   "frontier.queue-base-precedence = 10\n"
			   /* Longer than inih's 50-byte section buffer: kept whole. */
			   "[override \"org,example,www,)/a/rather/long/path/to/one/part/\"]\n"
			   "frontier.queue-base-precedence = 7\n";
	char *err = NULL;
	struct config *c = config_new();
	unsigned gen;

	(void)state;
	assert_int_equal(test_config_load(c, text, &err), 0);
	assert_int_equal(config_int(c, CK_CRAWL_MAX_CONNECTIONS), 17);
	assert_string_equal(
	    config_str(c, CK_CRAWL_USER_AGENT), "bot/1 (+http://example.org/bot#about)");
	assert_int_equal(config_override_count(c), 4);
	assert_int_equal(
	    config_int_for(c, "gov,nasa,www,)/", CK_FRONTIER_QUEUE_BASE_PRECEDENCE), 1);
	assert_int_equal(config_int_for(c, "gov,nasa,www,)/", CK_POLITENESS_MIN_DELAY_MS), 10);
	assert_int_equal(config_int_for(c, "gov,irs,)/", CK_POLITENESS_MIN_DELAY_MS), 3000);
	assert_int_equal(
	    config_int_for(c, "com,example,)/", CK_FRONTIER_QUEUE_BASE_PRECEDENCE), 10);
	assert_int_equal(config_int_for(c, "org,example,)/", CK_FRONTIER_QUEUE_BASE_PRECEDENCE), 5);
	assert_int_equal(config_int_for(c, "org,example,www,)/a/rather/long/path/to/one/part/x",
			     CK_FRONTIER_QUEUE_BASE_PRECEDENCE),
	    7);
	assert_int_equal(config_int_for(c, "org,example,www,)/a/rather/long/path/to/one/",
			     CK_FRONTIER_QUEUE_BASE_PRECEDENCE),
	    5);
	assert_int_equal(config_int_for(c, NULL, CK_FRONTIER_QUEUE_BASE_PRECEDENCE), 5);

	gen = config_generation(c);
	assert_int_equal(config_set(c, "frontier.queue-total-budget = 500", &err), 0);
	assert_int_equal(config_int(c, CK_FRONTIER_QUEUE_TOTAL_BUDGET), 500);
	assert_true(config_generation(c) > gen);
	assert_int_equal(config_set(c, "frontier.queue-total-budget", &err), -1);
	assert_string_equal(err, "--set frontier.queue-total-budget: expected section.key=value");
	free(err);
	config_free(c);
}

/* Keys read only at start, whole sections by prefix; the rest apply now. */
static void test_config_at_start(void **state)
{
	static const struct {
		const char *key;
		int at_start;
	} t[] = {
	    {"crawl.max-connections", 1},
	    {"warc.prefix", 1},
	    {"console.listen", 1},
	    {"fetch.tls-verify", 1},
	    {"crawl.max-pages", 0},
	    {"frontier.queue-total-budget", 0},
	    {"fetch.max-length-bytes", 0},
	    {"fetch.cookie-file", 1},
	    {"fetch.cookies-max", 1},
	    {"fetch.cookies", 0},
	    {"warc", 0},
	    {"crawl.max-connectionsx", 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (config_key_at_start(t[i].key) != t[i].at_start)
			fail_msg("%s: expected %d", t[i].key, t[i].at_start);
}

static void test_config_write_roundtrip(void **state)
{
	struct config *c = config_new(), *d = config_new();
	struct buf text = BUF_INIT;
	char *err = NULL;

	(void)state;
	assert_int_equal(config_set(c, "politeness.min-delay-ms=0", &err), 0);
	assert_int_equal(config_set(c, "dns.servers=127.0.0.1:5353", &err), 0);
	config_format(c, &text);
	assert_int_equal(config_load_text(d, text.data, text.len, "tern.conf", &err), 0);
	assert_int_equal(config_int(d, CK_POLITENESS_MIN_DELAY_MS), 0);
	assert_string_equal(config_str(d, CK_DNS_SERVERS), "127.0.0.1:5353");
	assert_string_equal(config_str(d, CK_CRAWL_USER_AGENT), config_str(c, CK_CRAWL_USER_AGENT));
	buf_free(&text);
	config_free(d);
	/* Rules keep their order and text, from a file and from --set. */
	d = config_new();
	assert_int_equal(test_config_load(c,
			     "[rules]\nreject = replytocom regex [?&]replytocom= # WordPress\n"
			     "accept = partner surt +http://(org,partner,\n",
			     &err),
	    0);
	assert_int_equal(config_set(c, "rules.reject=deep hops ^L{5,}", &err), 0);
	assert_int_equal(config_set(c, "rules.reject=hash regex /a #b", &err), -1);
	assert_non_null(strstr(err, "a space before '#' starts a comment"));
	free(err);
	assert_int_equal(config_set(c, "rules.reject=deep hops L", &err), -1);
	assert_non_null(strstr(err, "--set: rules.reject: rule deep:"));
	free(err);
	assert_int_equal(config_key_at_start("rules.reject"), 1);
	config_format(c, &text);
	assert_int_equal(config_load_text(d, text.data, text.len, "tern.conf", &err), 0);
	{
		static const char *const want[] = {"replytocom regex [?&]replytocom=",
		    "partner surt +http://(org,partner,", "deep hops ^L{5,}"};
		int accept;

		assert_int_equal(config_rule_count(d), 3);
		for (size_t i = 0; i < 3; i++) {
			assert_string_equal(config_rule(d, i, &accept), want[i]);
			assert_int_equal(accept, i == 1);
		}
	}
	buf_free(&text);
	config_free(c);
	config_free(d);
}

/* A list of names: commas and spaces separate, runs of them count once. */
static void test_config_names(void **state)
{
	static const struct {
		const char *value;
		size_t n;
		const char *names[3];
	} cases[] = {
	    {"", 0, {NULL}},
	    {"crawl.example", 1, {"crawl.example"}},
	    {"a.test, b.test", 2, {"a.test", "b.test"}},
	    {" ,a.test,,  b.test c.test , ", 3, {"a.test", "b.test", "c.test"}},
	};
	struct config *c = config_new();
	char *err = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char set[128];
		char **v;
		size_t n = 99;

		snprintf(set, sizeof set, "console.host-names=%s", cases[i].value);
		assert_int_equal(config_set(c, set, &err), 0);
		v = config_names(c, CK_CONSOLE_HOST_NAMES, &n);
		assert_int_equal(n, cases[i].n);
		for (size_t j = 0; j < n; j++)
			assert_string_equal(v[j], cases[i].names[j]);
		assert_null(v[n]);
		config_names_free(v);
	}
	config_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_config_defaults),
	    cmocka_unit_test(test_config_bad_files),
	    cmocka_unit_test(test_config_text_edges),
	    cmocka_unit_test(test_config_file_and_overrides),
	    cmocka_unit_test(test_config_at_start),
	    cmocka_unit_test(test_config_names),
	    cmocka_unit_test(test_config_write_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
