/* Counts of what the crawl declined to schedule (drops.h): their JSON,
 * their summary line, and the record of the rule counts in the store. */
#include "crawl/drops.h"
#include "crawl/stats.h"
#include "frontier/frontier.h"
#include "lib/config.h"
#include "lib/rules.h"
#include "lib/xmalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define DROPS_KEY "rules"

struct rules *drops_rules_new(const struct config *cfg)
{
	size_t n = config_rule_count(cfg);
	struct rules *r;

	if (n == 0)
		return NULL;
	r = rules_new();
	for (size_t i = 0; i < n; i++) {
		int accept;
		const char *text = config_rule(cfg, i, &accept);
		char *err = NULL;

		if (rules_add(r, accept, text, &err) < 0) {
			fprintf(stderr, "tern: rules.%s: %s: left out\n",
			    accept ? "accept" : "reject", err);
			free(err);
		}
	}
	return r;
}

/* The record is text, a line per rule: "NAME COUNT". */
int drops_load(struct frontier *f, struct rules *r, char **err)
{
	struct buf v = BUF_INIT;
	int rc = frontier_meta_get(f, DROPS_KEY, &v);
	const char *p, *end;

	if (rc < 0) {
		*err = xstrdup(frontier_error(f));
		buf_free(&v);
		return -1;
	}
	p = v.data;
	end = v.data + v.len;
	while (rc == 1 && r != NULL && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *sp;
		char *line;

		if (nl == NULL)
			nl = end;
		line = xstrndup(p, (size_t)(nl - p));
		sp = strchr(line, ' ');
		if (sp != NULL) {
			line[sp - line] = '\0';
			rules_set_hits(r, line, strtoull(sp + 1, NULL, 10));
		}
		free(line);
		p = nl + 1;
	}
	buf_free(&v);
	return 0;
}

void drops_save(struct frontier *f, const struct rules *r, uint64_t *saved)
{
	struct buf v = BUF_INIT;
	uint64_t sum = 0;
	size_t i, n = r != NULL ? rules_count(r) : 0;

	for (i = 0; i < n; i++)
		sum += rules_hits(r, i);
	if (n == 0 || sum == *saved)
		return;
	for (i = 0; i < n; i++)
		buf_appendf(&v, "%s %" PRIu64 "\n", rules_name(r, i), rules_hits(r, i));
	frontier_meta_put(f, DROPS_KEY, v.data, v.len);
	buf_free(&v);
	*saved = sum;
}

json_t *drops_json(const struct crawl_stats *st, const struct rules *r)
{
	json_t *j = json_object(), *by = json_object();
	size_t n = r != NULL ? rules_count(r) : 0;

	for (int w = SCOPE_WHY_ACCEPT + 1; w < SCOPE_WHY_COUNT; w++)
		json_object_set_new(j, scope_why_word(w), json_integer((json_int_t)st->dropped[w]));
	for (size_t i = 0; i < n; i++)
		json_object_set_new(by, rules_name(r, i),
		    json_pack("{s:s, s:I}", "decision", rules_accepts(r, i) ? "accept" : "reject",
			"count", (json_int_t)rules_hits(r, i)));
	json_object_set_new(j, "by_rule", by);
	json_object_set_new(
	    j, "rule_limit_hits", json_integer(r != NULL ? (json_int_t)rules_limit_hits(r) : 0));
	return j;
}

void drops_report(const struct crawl_stats *st, const struct rules *r, int json, struct buf *out)
{
	size_t n = r != NULL ? rules_count(r) : 0;

	if (json) {
		json_t *j = json_object(), *a = json_array();
		char *text;

		for (size_t i = 0; i < n; i++)
			json_array_append_new(a,
			    json_pack("{s:s, s:s, s:I, s:s}", "name", rules_name(r, i), "decision",
				rules_accepts(r, i) ? "accept" : "reject", "count",
				(json_int_t)rules_hits(r, i), "rule", rules_text(r, i)));
		json_object_set_new(j, "rules", a);
		json_object_set_new(j, "dropped", drops_json(st, r));
		text = json_dumps(j, JSON_INDENT(2));
		if (text != NULL) {
			buf_appends(out, text);
			buf_appendc(out, '\n');
		}
		free(text);
		json_decref(j);
		return;
	}
	if (n == 0)
		buf_appends(out, "no [rules] (tern.conf(5))\n");
	else
		buf_appendf(out, "%-24s %-8s %12s  %s\n", "RULE", "DECISION", "URIS", "TEST");
	for (size_t i = 0; i < n; i++) {
		const char *t = rules_text(r, i) + strlen(rules_name(r, i));

		while (*t == ' ' || *t == '\t')
			t++;
		buf_appendf(out, "%-24s %-8s %12" PRIu64 "  %s\n", rules_name(r, i),
		    rules_accepts(r, i) ? "accept" : "reject", rules_hits(r, i), t);
	}
	if (r != NULL && rules_limit_hits(r) > 0)
		buf_appendf(out,
		    "%" PRIu64 " matches cut short by PCRE2's match limit (no match)\n",
		    rules_limit_hits(r));
	buf_appends(out, "\nlinks not followed, by reason:\n");
	for (int w = SCOPE_WHY_ACCEPT + 1; w < SCOPE_WHY_COUNT; w++)
		buf_appendf(out, "  %-22s %12" PRIu64 "  %s\n", scope_why_label(w), st->dropped[w],
		    scope_why_setting(w));
}

void drops_brief_json(const json_t *dropped, struct buf *out)
{
	const char *name;
	json_t *v;
	size_t start = out->len;

	if (!json_is_object(dropped))
		return;
	/* By rule first, in their order: what the operator wrote; then what
	 * the settings refused, each with the setting that changes it. */
	json_object_foreach(json_object_get(dropped, "by_rule"), name, v)
	{
		json_int_t n = json_integer_value(json_object_get(v, "count"));
		const char *d = json_string_value(json_object_get(v, "decision"));

		if (n > 0 && d != NULL && strcmp(d, "reject") == 0)
			buf_appendf(out, "%s%" JSON_INTEGER_FORMAT " by rule %s",
			    out->len > start ? ", " : "", n, name);
	}
	for (int w = SCOPE_WHY_ACCEPT + 1; w < SCOPE_WHY_COUNT; w++) {
		json_int_t n = json_integer_value(json_object_get(dropped, scope_why_word(w)));

		if (w != SCOPE_WHY_RULE && n > 0)
			buf_appendf(out, "%s%" JSON_INTEGER_FORMAT " %s (%s)",
			    out->len > start ? ", " : "", n, scope_why_label(w),
			    scope_why_setting(w));
	}
}

void drops_brief(const struct crawl_stats *st, const struct rules *r, struct buf *out)
{
	json_t *j = drops_json(st, r);

	drops_brief_json(j, out);
	json_decref(j);
}

void drops_print(const struct crawl_stats *st, const struct rules *r, FILE *out)
{
	struct buf b = BUF_INIT;

	drops_brief(st, r, &b);
	if (b.len > 0)
		fprintf(out, "tern: dropped (links not followed): %s\n", b.data);
	buf_free(&b);
	/* A scope narrower than the site (a seed that redirects to another
	 * host, a seed deep in a path) shows as more links refused than
	 * followed: say which setting widens it. */
	if (st->dropped[SCOPE_WHY_OUT] > st->links_scheduled)
		fprintf(out,
		    "tern: more links were out of scope (%" PRIu64 ") than followed (%" PRIu64 "): "
		    "crawl.scope=domain takes each seed's whole registered domain, or list "
		    "SURT prefixes (tern.conf(5))\n",
		    st->dropped[SCOPE_WHY_OUT], st->links_scheduled);
}
