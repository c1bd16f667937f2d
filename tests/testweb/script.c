/* Per-host scripts. A handful of rules at most, so a linear scan is enough;
 * counters are consumed as requests arrive so that "the first C" means the
 * first C the server saw. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "lib/xmalloc.h"
#include "script.h"

enum script_kind {
	SCRIPT_REFUSE_FIRST,
	SCRIPT_RESET_PAGES,
	SCRIPT_FAIL_5XX,
	SCRIPT_KIND_RETRY_AFTER,
	SCRIPT_ROBOTS_5XX,
	SCRIPT_SLOW
};

struct script_rule {
	char *host;
	enum script_kind kind;
	long left; /* -1: forever */
};

struct script {
	struct script_rule *rule;
	size_t n;
};

static const struct {
	const char *name;
	enum script_kind kind;
	long dflt;
	int needs_count;
} script_kinds[] = {
    {"refuse-first", SCRIPT_REFUSE_FIRST, 1, 0},
    {"reset-pages", SCRIPT_RESET_PAGES, 1, 0},
    {"fail-5xx", SCRIPT_FAIL_5XX, 1, 0},
    {"retry-after", SCRIPT_KIND_RETRY_AFTER, 1, 0},
    {"robots-5xx", SCRIPT_ROBOTS_5XX, -1, 0},
    {"slow", SCRIPT_SLOW, 0, 1},
};

struct script *script_new(void)
{
	return xcalloc(1, sizeof(struct script));
}

void script_free(struct script *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->rule[i].host);
	free(s->rule);
	free(s);
}

int script_add(struct script *s, const char *spec, char **err)
{
	const char *eq = strchr(spec, '='), *kind, *colon;
	size_t klen;
	long count = 0;
	int have_count = 0;

	if (!eq || eq == spec) {
		*err = xasprintf("bad --script '%s': expected HOST=KIND[:COUNT]", spec);
		return -1;
	}
	kind = eq + 1;
	colon = strchr(kind, ':');
	klen = colon ? (size_t)(colon - kind) : strlen(kind);
	if (colon) {
		char *end;

		count = strtol(colon + 1, &end, 10);
		if (*end || end == colon + 1 || count < 0 || count > 100000000) {
			*err = xasprintf(
			    "bad --script '%s': COUNT must be a number 0..100000000", spec);
			return -1;
		}
		have_count = 1;
	}
	for (size_t i = 0; i < sizeof(script_kinds) / sizeof(script_kinds[0]); i++) {
		if (strlen(script_kinds[i].name) != klen ||
		    strncmp(script_kinds[i].name, kind, klen) != 0)
			continue;
		if (script_kinds[i].needs_count && !have_count) {
			*err = xasprintf(
			    "bad --script '%s': %s needs :COUNT", spec, script_kinds[i].name);
			return -1;
		}
		s->rule = xrealloc(s->rule, (s->n + 1) * sizeof(*s->rule));
		s->rule[s->n].host = xstrndup(spec, (size_t)(eq - spec));
		s->rule[s->n].kind = script_kinds[i].kind;
		s->rule[s->n].left = have_count ? count : script_kinds[i].dflt;
		s->n++;
		return 0;
	}
	*err = xasprintf(
	    "bad --script '%s': KIND is one of refuse-first, reset-pages, fail-5xx, retry-after, robots-5xx, slow",
	    spec);
	return -1;
}

/* Consumes one unit of a counted rule; true if it applied. */
static int script_take(struct script_rule *r)
{
	if (r->left == 0)
		return 0;
	if (r->left > 0)
		r->left--;
	return 1;
}

enum script_verdict script_check(
    struct script *s, const char *host, int is_robots, int first_on_conn, uint32_t *delay_ms)
{
	enum script_verdict v = SCRIPT_PASS;

	for (size_t i = 0; i < s->n; i++) {
		struct script_rule *r = &s->rule[i];

		if (strcasecmp(r->host, host) != 0)
			continue;
		switch (r->kind) {
		case SCRIPT_SLOW:
			*delay_ms += (uint32_t)r->left;
			break;
		case SCRIPT_REFUSE_FIRST:
			if (v == SCRIPT_PASS && first_on_conn && script_take(r))
				v = SCRIPT_RESET;
			break;
		case SCRIPT_RESET_PAGES:
			if (v == SCRIPT_PASS && !is_robots && script_take(r))
				v = SCRIPT_RESET;
			break;
		case SCRIPT_FAIL_5XX:
			if (v == SCRIPT_PASS && !is_robots && script_take(r))
				v = SCRIPT_503;
			break;
		case SCRIPT_KIND_RETRY_AFTER:
			if (v == SCRIPT_PASS && !is_robots && script_take(r))
				v = SCRIPT_RETRY_AFTER;
			break;
		case SCRIPT_ROBOTS_5XX:
			if (v == SCRIPT_PASS && is_robots && script_take(r))
				v = SCRIPT_ROBOTS_500;
			break;
		}
	}
	return v;
}
