/* Cost of the reject and accept rules per candidate URI: the rule set of
 * doc/rules-cms.conf (read through the configuration, as a crawl reads it)
 * matched against a mix of a WordPress site's links, with PCRE2's JIT as
 * tern uses it; and the worst case, a pattern that backtracks until
 * PCRE2's match limit stops it. Prints figures; asserts nothing.
 * usage: rulesbench RULES.conf [seconds-per-figure, default 1] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/buf.h"
#include "lib/config.h"
#include "lib/rules.h"
#include "lib/surt.h"
#include "lib/url.h"

static double rulesbench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What the scheduler hands the rules, built once per URI outside the
 * timing. */
struct rulesbench_uri {
	struct rules_uri u;
	struct buf surt;
	struct url_parts p;
};

static void rulesbench_prepare(struct rulesbench_uri *b, const char *uri, const char *hops)
{
	const char *paren;

	memset(b, 0, sizeof *b);
	if (url_split(uri, &b->p) < 0 || surt_from_parts(uri, &b->p, 1, &b->surt) < 0)
		abort();
	paren = strchr(b->surt.data, '(') + 1;
	b->u.uri = uri;
	b->u.len = strlen(uri);
	b->u.surt = paren;
	b->u.surt_len = b->surt.len - (size_t)(paren - b->surt.data);
	b->u.path = uri + b->p.path_off;
	b->u.path_len = b->p.path_len;
	b->u.hops = hops;
}

/* Matches every URI of v in turn for secs seconds: ns per URI and how many
 * were decided by a rule. */
static void rulesbench_run(
    const char *what, struct rules *r, struct rulesbench_uri *v, size_t n, double secs)
{
	double t0 = rulesbench_now(), t;
	unsigned long long k = 0, decided = 0;

	do {
		for (int rep = 0; rep < 100; rep++)
			for (size_t i = 0; i < n; i++, k++)
				decided += rules_match(r, &v[i].u) >= 0;
		t = rulesbench_now() - t0;
	} while (t < secs);
	printf("%-44s %8.0f ns/URI  %3.0f%% decided by a rule  (%llu URIs)\n", what,
	    t * 1e9 / (double)k, 100.0 * (double)decided / (double)k, k);
}

int main(int argc, char **argv)
{
	static const char *const uris[] = {
	    "https://blog.test/2024/05/terns-over-the-sea/",
	    "https://blog.test/2024/05/terns-over-the-sea/?replytocom=4117#respond",
	    "https://blog.test/2024/05/terns-over-the-sea/feed/",
	    "https://blog.test/wp-json/oembed/1.0/embed?url=https%3A%2F%2Fblog.test%2F2024%2F05%2F",
	    "https://blog.test/?p=1821",
	    "https://blog.test/category/birds/page/3/",
	    "https://blog.test/wp-content/uploads/2024/05/tern-1024x768.jpg",
	    "https://blog.test/tag/arctic/",
	    "https://blog.test/wp-login.php?action=logout&_wpnonce=1f2e3d",
	    "https://blog.test/2024/05/",
	    "https://wiki.test/wiki/Arctic_tern",
	    "https://wiki.test/w/index.php?title=Arctic_tern&action=history",
	};
	struct rulesbench_uri v[sizeof uris / sizeof uris[0]], worst;
	struct config *cfg = config_new();
	struct rules *r = rules_new(), *slow = rules_new();
	struct buf text = BUF_INIT, longuri = BUF_INIT;
	double secs = argc > 2 ? atof(argv[2]) : 1.0;
	char chunk[4096], *err = NULL;
	size_t n = sizeof uris / sizeof uris[0], got;
	FILE *fp;

	if (argc < 2 || (fp = fopen(argv[1], "r")) == NULL) {
		fprintf(stderr, "usage: rulesbench RULES.conf [seconds]\n");
		return 2;
	}
	while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_append(&text, chunk, got);
	fclose(fp);
	if (config_load_text(cfg, text.data, text.len, argv[1], &err) < 0) {
		fprintf(stderr, "rulesbench: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < config_rule_count(cfg); i++) {
		int accept;
		const char *rule = config_rule(cfg, i, &accept);

		if (rules_add(r, accept, rule, &err) < 0) {
			fprintf(stderr, "rulesbench: %s\n", err);
			return 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		rulesbench_prepare(&v[i], uris[i], "LL");
	printf("%zu rules from %s\n", rules_count(r), argv[1]);
	rulesbench_run("the rule set, a WordPress and MediaWiki mix", r, v, n, secs);
	/* The worst a pattern can do: exponential backtracking, cut off at
	 * RULES_MATCH_LIMIT steps on every URI. */
	if (rules_add(slow, 0, "slow regex ^https://blog.test/(a|aa)+$", &err) < 0)
		return 1;
	buf_appends(&longuri, "https://blog.test/");
	for (int i = 0; i < 60; i++)
		buf_appendc(&longuri, 'a');
	buf_appendc(&longuri, '!');
	rulesbench_prepare(&worst, longuri.data, "L");
	rulesbench_run("a backtracking pattern at the match limit", slow, &worst, 1, secs);
	printf("match limit reached %llu times\n", (unsigned long long)rules_limit_hits(slow));
	for (size_t i = 0; i < n; i++)
		buf_free(&v[i].surt);
	buf_free(&worst.surt);
	buf_free(&longuri);
	buf_free(&text);
	rules_free(r);
	rules_free(slow);
	config_free(cfg);
	return 0;
}
