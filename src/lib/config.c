/* Configuration: the key table of config-keys.h, INI files read with inih,
 * --set assignments, and [override "SURT-PREFIX"] sections.
 *
 * inih is used for the file syntax because it is small, well kept and in
 * Debian; it reports the line of the first error, which is all we need to
 * name file, line and key. Values are validated here against the table. */
#include <build-config.h>

#include "lib/config.h"
#include "lib/nearest.h"
#include "lib/proxy.h"
#include "lib/reqheaders.h"
#include "lib/buf.h"
#include "lib/rules.h"
#include "lib/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct config_def {
	const char *section;
	const char *key;
	const char *name; /* "section.key" */
	enum config_type type;
	const char *def;
	int64_t min;
	int64_t max;
	const char *choices;
	int overridable;
};

static const struct config_def config_defs[CK__COUNT] = {
#define X(id, sec, key, type, def, min, max, choices, ovr) \
	{sec, key, sec "." key, type, def, min, max, choices, ovr},
#include "lib/config-keys.h"
#undef X
};

struct config_value {
	int set;   /* meaningful in overrides: the key is given there */
	int64_t i; /* CT_BOOL, CT_INT, CT_ENUM index */
	double d;
	char *s; /* text form for every type, as given or defaulted */
	int64_t *list;
	size_t nlist;
};

struct config_override {
	char *prefix;
	size_t prefix_len;
	struct config_value v[CK__COUNT];
};

/* A reject or accept rule of the [rules] section, as written, in order
 * (lib/rules.h compiles them for the crawl). */
struct config_rule {
	int accept;
	char *text;
};

struct config {
	struct config_value v[CK__COUNT];
	struct config_rule *rules;
	size_t nrules;
	struct config_override *ovr; /* sorted by prefix length, longest first */
	size_t novr;
	unsigned generation;
	int loading;
};

/* Keys read only when the crawl starts (the control routes and the
 * console's settings page tell the operator): a mid-crawl change is kept in
 * tern.conf and takes effect on resume. Prefixes end with '.' for whole
 * sections. Everything else is read as it is used (frontier, politeness,
 * limits, pause-at-finish, per-URI fetch and extract keys). */
static const char *const config_at_start[] = {
    "crawl.user-agent",
    "crawl.max-connections",
    "crawl.scope",
    "crawl.max-hops",
    "crawl.max-trans-hops",
    "crawl.max-uri-length",
    "crawl.max-path-repeats",
    "crawl.max-query-length",
    "crawl.pause-at-start",
    "crawl.mode",
    "frontier.queue-assignment",
    "frontier.ready-order",
    "frontier.host-depth-divisor",
    "robots.policy",
    "dns.",
    "warc.",
    "storage.",
    "canonicalize.",
    "checkpoint.",
    "fetch.connect-timeout-ms",
    "fetch.timeout-seconds",
    "fetch.idle-timeout-seconds",
    "fetch.max-header-bytes",
    "fetch.accept-encoding",
    "fetch.tls-verify",
    "fetch.ca-file",
    "fetch.http2",
    "fetch.allow-private-addresses",
    "fetch.cookie-file",
    "fetch.cookies-per-domain",
    "fetch.cookies-max",
    "fetch.http-proxy",
    "fetch.https-proxy",
    "fetch.no-proxy",
    "fetch.credentials-file",
    "console.",
    "rules.",
};

int config_key_at_start(const char *name)
{
	for (size_t i = 0; i < sizeof config_at_start / sizeof config_at_start[0]; i++) {
		const char *k = config_at_start[i];
		size_t n = strlen(k);
		if (k[n - 1] == '.' ? strncmp(name, k, n) == 0 : strcmp(name, k) == 0)
			return 1;
	}
	return 0;
}

/* Keys a job keeps from its first start to its end, each with the reason:
 * what the store or the cluster already holds was made under them, so a
 * change (mid-crawl, or on resume) is refused and a new job is the way. */
static const struct {
	const char *name;
	const char *why;
} config_for_job[] = {
    {"crawl.mode", "the store holds its URIs for a crawl of this mode"},
    {"frontier.queue-assignment", "the store's queues are keyed by it"},
    {"canonicalize.", "the seen set holds every URI in its canonical form"},
    {"cluster.crawl-id", "it names the crawl this job belongs to"},
    {"cluster.partitions", "every node of the crawl maps hosts to partitions by it"},
};

const char *config_key_for_job(const char *name)
{
	for (size_t i = 0; i < sizeof config_for_job / sizeof config_for_job[0]; i++) {
		const char *k = config_for_job[i].name;
		size_t n = strlen(k);
		if (k[n - 1] == '.' ? strncmp(name, k, n) == 0 : strcmp(name, k) == 0)
			return config_for_job[i].why;
	}
	return NULL;
}

int config_find(const char *name)
{
	for (int k = 0; k < CK__COUNT; k++)
		if (strcmp(config_defs[k].name, name) == 0)
			return k;
	return -1;
}

const char *config_name(enum config_key k)
{
	return config_defs[k].name;
}

enum config_type config_type(enum config_key k)
{
	return config_defs[k].type;
}

const char *config_choices(enum config_key k)
{
	return config_defs[k].choices;
}

const char *config_text(const struct config *c, enum config_key k)
{
	return c->v[k].s;
}

static void config_value_clear(struct config_value *v)
{
	free(v->s);
	free(v->list);
	memset(v, 0, sizeof *v);
}

static char *config_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int config_parse_int(const char *s, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

static int config_enum_index(const char *choices, const char *s)
{
	size_t n = strlen(s);
	int idx = 0;
	const char *p = choices;

	while (*p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && strncmp(p, s, n) == 0)
			return idx;
		idx++;
		if (bar == NULL)
			break;
		p = bar + 1;
	}
	return -1;
}

/* The string keys whose text has a form of its own, checked as it is
 * read so that an error names the file and line (or the --set). */
static int config_check_str(enum config_key k, const char *text, const char **what)
{
	switch (k) {
	case CK_FETCH_ACCEPT_LANGUAGE:
		return reqheaders_check_value(text, what);
	case CK_FETCH_FROM:
		return reqheaders_check_from(text, what);
	case CK_CRAWL_USER_AGENT:
		return reqheaders_check_agent(text, what);
	case CK_FETCH_EXTRA_HEADERS:
		return reqheaders_check_extra(text, what);
	case CK_FETCH_HTTP_PROXY:
	case CK_FETCH_HTTPS_PROXY:
		return proxy_check_setting(text, what);
	default:
		return 0;
	}
}

/* Parses text into v for key k; on error sets *what to a description of the
 * expected value. */
static int config_parse_value(
    enum config_key k, const char *text, struct config_value *v, const char **what)
{
	const struct config_def *d = &config_defs[k];
	struct config_value nv;
	static char expect[160];

	memset(&nv, 0, sizeof nv);
	switch (d->type) {
	case CT_BOOL:
		if (strcmp(text, "true") == 0 || strcmp(text, "yes") == 0 ||
		    strcmp(text, "on") == 0 || strcmp(text, "1") == 0)
			nv.i = 1;
		else if (strcmp(text, "false") == 0 || strcmp(text, "no") == 0 ||
		    strcmp(text, "off") == 0 || strcmp(text, "0") == 0)
			nv.i = 0;
		else {
			*what = "expected true or false";
			return -1;
		}
		break;
	case CT_INT:
		if (config_parse_int(text, &nv.i) < 0 || nv.i < d->min || nv.i > d->max) {
			if (d->max == INT64_MAX)
				snprintf(expect, sizeof expect,
				    "expected an integer of at least %lld", (long long)d->min);
			else
				snprintf(expect, sizeof expect,
				    "expected an integer from %lld to %lld", (long long)d->min,
				    (long long)d->max);
			*what = expect;
			return -1;
		}
		break;
	case CT_DOUBLE: {
		char *end;
		errno = 0;
		nv.d = strtod(text, &end);
		if (errno != 0 || end == text || *end != '\0' || !isfinite(nv.d) ||
		    nv.d < (double)d->min || nv.d > (double)d->max) {
			snprintf(expect, sizeof expect, "expected a number from %lld to %lld",
			    (long long)d->min, (long long)d->max);
			*what = expect;
			return -1;
		}
		break;
	}
	case CT_STR:
		if (config_check_str(k, text, what) < 0)
			return -1;
		break;
	case CT_ENUM:
		nv.i = config_enum_index(d->choices, text);
		if (nv.i < 0) {
			snprintf(expect, sizeof expect, "expected one of %s", d->choices);
			*what = expect;
			return -1;
		}
		break;
	case CT_INTLIST: {
		char *copy = xstrdup(text), *save = NULL, *tok;
		for (tok = strtok_r(copy, ",", &save); tok != NULL;
		     tok = strtok_r(NULL, ",", &save)) {
			int64_t x;
			tok = config_trim(tok);
			if (config_parse_int(tok, &x) < 0 || x < d->min || x > d->max) {
				free(copy);
				free(nv.list);
				snprintf(expect, sizeof expect,
				    "expected a comma-separated list of integers of at least %lld",
				    (long long)d->min);
				*what = expect;
				return -1;
			}
			nv.list = xrealloc(nv.list, (nv.nlist + 1) * sizeof *nv.list);
			nv.list[nv.nlist++] = x;
		}
		free(copy);
		if (nv.nlist == 0) {
			*what = "expected a comma-separated list of integers";
			return -1;
		}
		break;
	}
	}
	nv.s = xstrdup(text);
	nv.set = 1;
	config_value_clear(v);
	*v = nv;
	return 0;
}

struct config *config_new(void)
{
	struct config *c = xcalloc(1, sizeof *c);
	const char *what;

	for (int k = 0; k < CK__COUNT; k++) {
		if (config_parse_value(k, config_defs[k].def, &c->v[k], &what) < 0) {
			fprintf(stderr, "tern: bad built-in default for %s: %s\n",
			    config_defs[k].name, what);
			abort();
		}
		c->v[k].set = 0;
	}
	return c;
}

void config_free(struct config *c)
{
	if (c == NULL)
		return;
	for (int k = 0; k < CK__COUNT; k++)
		config_value_clear(&c->v[k]);
	for (size_t i = 0; i < c->novr; i++) {
		for (int k = 0; k < CK__COUNT; k++)
			config_value_clear(&c->ovr[i].v[k]);
		free(c->ovr[i].prefix);
	}
	free(c->ovr);
	for (size_t i = 0; i < c->nrules; i++)
		free(c->rules[i].text);
	free(c->rules);
	free(c);
}

unsigned config_generation(const struct config *c)
{
	return c->generation;
}

size_t config_override_count(const struct config *c)
{
	return c->novr;
}

static struct config_override *config_override_get(struct config *c, const char *prefix)
{
	size_t len, i;
	struct config_override *o;

	/* Overrides match the scheme-less SURT ("gov,nasa,www,)/path"), so that
	 * http and https URIs of a site share them; a prefix written with its
	 * scheme, as in Heritrix ("http://(gov,"), means the same. */
	if (strncmp(prefix, "http://(", 8) == 0)
		prefix += 8;
	else if (strncmp(prefix, "https://(", 9) == 0)
		prefix += 9;
	len = strlen(prefix);

	for (i = 0; i < c->novr; i++)
		if (strcmp(c->ovr[i].prefix, prefix) == 0)
			return &c->ovr[i];
	/* Keep the array sorted longest prefix first so that lookups stop at the
	 * first override that sets the key. */
	c->ovr = xrealloc(c->ovr, (c->novr + 1) * sizeof *c->ovr);
	for (i = 0; i < c->novr && c->ovr[i].prefix_len >= len; i++)
		;
	memmove(&c->ovr[i + 1], &c->ovr[i], (c->novr - i) * sizeof *c->ovr);
	c->novr++;
	o = &c->ovr[i];
	memset(o, 0, sizeof *o);
	o->prefix = xstrdup(prefix);
	o->prefix_len = len;
	return o;
}

size_t config_rule_count(const struct config *c)
{
	return c->nrules;
}

const char *config_rule(const struct config *c, size_t i, int *accept)
{
	*accept = c->rules[i].accept;
	return c->rules[i].text;
}

/* The length of a rule's name, its first word. */
static size_t config_rule_name(const char *text, const char **name)
{
	while (isspace((unsigned char)*text))
		text++;
	*name = text;
	return strcspn(text, " \t\r\n\f\v");
}

/* Appends a rule ("rules.reject" or "rules.accept" = "NAME TEST ARGUMENT"),
 * checked as the crawl will compile it, its name unused so far. */
static int config_rule_add(
    struct config *c, int accept, const char *text, const char *origin, char **err)
{
	const char *name, *other;
	size_t n = config_rule_name(text, &name);
	char *why = NULL;

	/* The job's tern.conf keeps the rule for the resume, where a space
	 * before '#' or ';' would start a comment (inih's inline comments). */
	for (const char *p = text; *p != '\0'; p++)
		if ((*p == '#' || *p == ';') && p > text && isspace((unsigned char)p[-1])) {
			*err = xasprintf("%s: rules.%s: a space before '%c' starts a comment in "
					 "tern.conf: write [%c] in a pattern",
			    origin, accept ? "accept" : "reject", *p, *p);
			return -1;
		}
	if (rules_check(text, &why) < 0) {
		*err = xasprintf("%s: rules.%s: %s", origin, accept ? "accept" : "reject", why);
		free(why);
		return -1;
	}
	for (size_t i = 0; i < c->nrules; i++)
		if (config_rule_name(c->rules[i].text, &other) == n &&
		    strncmp(other, name, n) == 0) {
			*err = xasprintf("%s: rules.%s: rule %.*s: a rule of that name comes "
					 "earlier (each rule's name counts what it decided)",
			    origin, accept ? "accept" : "reject", (int)n, name);
			return -1;
		}
	c->rules = xrealloc(c->rules, (c->nrules + 1) * sizeof *c->rules);
	c->rules[c->nrules].accept = accept;
	c->rules[c->nrules].text = xstrdup(text);
	c->nrules++;
	if (!c->loading)
		c->generation++;
	return 0;
}

/* "unknown key", with the nearest key's name when one is near enough to
 * be the one meant (tern.conf(5) lists them all). */
static void config_unknown(const char *origin, const char *name, char **err)
{
	const char *names[CK__COUNT], *near;

	for (int k = 0; k < CK__COUNT; k++)
		names[k] = config_defs[k].name;
	near = nearest_word(name, names, CK__COUNT);
	if (near != NULL)
		*err = xasprintf("%s: %s: unknown key; did you mean %s?", origin, name, near);
	else
		*err = xasprintf("%s: %s: unknown key (tern.conf(5) lists them)", origin, name);
}

/* Sets name=value globally, or in the override for prefix when not NULL. */
static int config_assign(struct config *c, const char *prefix, const char *name, const char *value,
    const char *origin, char **err)
{
	int k = config_find(name);
	const char *what = NULL;
	struct config_value *slot;

	if (k < 0 && strncmp(name, "rules.", 6) == 0) {
		if (prefix != NULL) {
			*err = xasprintf("%s: %s: rules are not set by SURT prefix: a rule "
					 "tests the SURT itself (surt TEST, tern.conf(5) RULES)",
			    origin, name);
			return -1;
		}
		if (strcmp(name + 6, "reject") == 0 || strcmp(name + 6, "accept") == 0)
			return config_rule_add(c, name[6] == 'a', value, origin, err);
		*err = xasprintf(
		    "%s: %s: unknown key (a rule is written reject = ... or accept = ...)", origin,
		    name);
		return -1;
	}
	if (k < 0) {
		config_unknown(origin, name, err);
		return -1;
	}
	if (prefix != NULL && !config_defs[k].overridable) {
		*err = xasprintf(
		    "%s: %s: not a per-URI or per-queue key, so it cannot be overridden by SURT prefix",
		    origin, name);
		return -1;
	}
	slot = prefix != NULL ? &config_override_get(c, prefix)->v[k] : &c->v[k];
	if (config_parse_value(k, value, slot, &what) < 0) {
		*err = xasprintf("%s: %s: %s, got '%s'", origin, name, what, value);
		return -1;
	}
	if (!c->loading)
		c->generation++;
	return 0;
}

int config_set_key(
    struct config *c, const char *name, const char *value, const char *origin, char **err)
{
	return config_assign(c, NULL, name, value, origin, err);
}

int config_set(struct config *c, const char *assignment, char **err)
{
	const char *eq = strchr(assignment, '=');
	char *name, *value;
	int rc;

	if (eq == NULL) {
		*err = xasprintf("--set %s: expected section.key=value", assignment);
		return -1;
	}
	name = xstrndup(assignment, (size_t)(eq - assignment));
	value = xstrdup(eq + 1);
	rc = config_assign(c, NULL, config_trim(name), config_trim(value), "--set", err);
	free(name);
	free(value);
	return rc;
}

struct config_load_ctx {
	struct config *c;
	const char *path;
	const char *text, *end; /* what is left to read */
	int lines;		/* lines read so far: the handler's line number */
	char *section;		/* the current section header's name, whole */
	char *prefix;		/* its SURT prefix when it is an override, else NULL */
	char *err;
};

/* Judges a section header where it stands, so that an error names its own
 * line (not the first key under it) and a section with no keys is judged
 * too, and keeps the whole name: inih cuts section names at 49 bytes,
 * shorter than many override prefixes. The line is taken apart as inih
 * does: leading space skipped, the name runs to the first ']' or to an
 * inline comment (a '#' or ';' after a space). 0, or -1 with x->err set. */
static int config_ini_header(struct config_load_ctx *x, const char *line)
{
	const char *p = line, *e;
	char *name;
	int found = 0;

	if (x->lines == 1 && strncmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	while (*p != '\0' && isspace((unsigned char)*p))
		p++;
	if (*p != '[')
		return 0;
	for (e = p + 1; *e != '\0' && *e != ']'; e++)
		if ((*e == '#' || *e == ';') && isspace((unsigned char)e[-1]))
			break;
	if (*e != ']') {
		x->err = xasprintf("%s:%d: expected [section] or key = value", x->path, x->lines);
		return -1;
	}
	name = xstrndup(p + 1, (size_t)(e - p - 1));
	free(x->section);
	free(x->prefix);
	x->section = name;
	x->prefix = NULL;
	if (strncmp(name, "override", 8) == 0 && isspace((unsigned char)name[8])) {
		const char *q = strchr(name, '"');
		const char *qe = q ? strrchr(q + 1, '"') : NULL;

		if (q == NULL || qe == NULL || qe == q + 1 || qe[1] != '\0') {
			x->err = xasprintf("%s:%d: [%s]: expected [override \"SURT-PREFIX\"]",
			    x->path, x->lines, name);
			return -1;
		}
		x->prefix = xstrndup(q + 1, (size_t)(qe - q - 1));
		return 0;
	}
	for (int k = 0; k < CK__COUNT; k++)
		if (strcmp(config_defs[k].section, name) == 0)
			found = 1;
	if (strcmp(name, "rules") == 0)
		found = 1;
	if (!found) {
		const char *sections[CK__COUNT], *near;
		size_t n = 0;
		for (int k = 0; k < CK__COUNT; k++)
			if (n == 0 || strcmp(sections[n - 1], config_defs[k].section) != 0)
				sections[n++] = config_defs[k].section;
		near = nearest_word(name, sections, n);
		x->err = xasprintf("%s:%d: [%s]: unknown section%s%s%s", x->path, x->lines, name,
		    near != NULL ? "; did you mean [" : "", near != NULL ? near : "",
		    near != NULL ? "]?" : "");
		return -1;
	}
	return 0;
}

/* inih as packaged by Debian has no line number in the handler; handing it
 * the lines ourselves lets the handler name the line it is judging. Works
 * as fgets on the text: up to a newline (kept) or num - 1 bytes. */
static char *config_ini_reader(char *str, int num, void *stream)
{
	struct config_load_ctx *x = stream;
	size_t n = 0, max;
	const char *nl;

	if (x->text >= x->end || num < 2)
		return NULL;
	max = (size_t)num - 1;
	if ((size_t)(x->end - x->text) < max)
		max = (size_t)(x->end - x->text);
	nl = memchr(x->text, '\n', max);
	n = nl != NULL ? (size_t)(nl - x->text) + 1 : max;
	memcpy(str, x->text, n);
	str[n] = '\0';
	x->text += n;
	x->lines++;
	/* A bad header ends the reading: inih sees the end of the text. */
	if (x->err == NULL && config_ini_header(x, str) < 0)
		return NULL;
	return str;
}

/* inih calls this once per name=value; the section is the reader's, already
 * judged (inih's own copy may be cut short). */
static int config_ini_cb(void *user, const char *section, const char *name, const char *value)
{
	struct config_load_ctx *x = user;
	char origin[512], full[256], *val;
	int rc;

	(void)section;
	snprintf(origin, sizeof origin, "%s:%d", x->path, x->lines);
	if (x->section == NULL) {
		x->err = xasprintf("%s: %s: a key before any [section]", origin, name);
		return 0;
	}
	if (x->prefix != NULL) {
		if (strchr(name, '.') == NULL) {
			x->err = xasprintf(
			    "%s: %s: keys in an override section are written fully qualified (section.key)",
			    origin, name);
			return 0;
		}
		snprintf(full, sizeof full, "%s", name);
	} else {
		snprintf(full, sizeof full, "%s.%s", x->section, name);
	}
	val = xstrdup(value ? value : "");
	rc = config_assign(x->c, x->prefix, full, config_trim(val), origin, &x->err);
	free(val);
	if (rc < 0)
		return 0;
	return 1;
}

int config_load_text(struct config *c, const char *text, size_t len, const char *origin, char **err)
{
	struct config_load_ctx x;
	int rc;

	memset(&x, 0, sizeof x);
	x.c = c;
	x.path = origin;
	x.text = text != NULL ? text : "";
	x.end = x.text + (text != NULL ? len : 0);
	/* Settings of Debian's inih: '#' and ';' comments, also after a value
	 * when preceded by a space; no continuation lines, which would turn an
	 * indented typo into part of the previous value; long lines allowed. */
	ini_allow_multiline = false;
	ini_inline_comment_prefixes = "#;";
	ini_use_stack = false;
	ini_max_line = 16384;
	ini_stop_on_first_error = true;
	c->loading = 1;
	rc = ini_parse_stream(config_ini_reader, &x, config_ini_cb, &x);
	c->loading = 0;
	free(x.section);
	free(x.prefix);
	if (x.err != NULL) {
		*err = x.err;
		return -1;
	}
	if (rc != 0) {
		*err = xasprintf("%s:%d: expected [section] or key = value", origin, rc);
		return -1;
	}
	return 0;
}

/* The value a URI or queue with this SURT sees: the longest override prefix
 * that sets the key, else the global value. */
static const struct config_value *config_lookup(
    const struct config *c, const char *surt, enum config_key k)
{
	if (surt != NULL && c->novr > 0 && config_defs[k].overridable) {
		for (size_t i = 0; i < c->novr; i++) {
			const struct config_override *o = &c->ovr[i];
			if (o->v[k].set && strncmp(surt, o->prefix, o->prefix_len) == 0)
				return &o->v[k];
		}
	}
	return &c->v[k];
}

int config_bool_for(const struct config *c, const char *surt, enum config_key k)
{
	return (int)config_lookup(c, surt, k)->i;
}

int64_t config_int_for(const struct config *c, const char *surt, enum config_key k)
{
	return config_lookup(c, surt, k)->i;
}

double config_double_for(const struct config *c, const char *surt, enum config_key k)
{
	return config_lookup(c, surt, k)->d;
}

const char *config_str_for(const struct config *c, const char *surt, enum config_key k)
{
	return config_lookup(c, surt, k)->s;
}

int config_enum_for(const struct config *c, const char *surt, enum config_key k)
{
	return (int)config_lookup(c, surt, k)->i;
}

const int64_t *config_intlist_for(
    const struct config *c, const char *surt, enum config_key k, size_t *n)
{
	const struct config_value *v = config_lookup(c, surt, k);
	*n = v->nlist;
	return v->list;
}

int config_bool(const struct config *c, enum config_key k)
{
	return (int)c->v[k].i;
}

int64_t config_int(const struct config *c, enum config_key k)
{
	return c->v[k].i;
}

double config_double(const struct config *c, enum config_key k)
{
	return c->v[k].d;
}

const char *config_str(const struct config *c, enum config_key k)
{
	return c->v[k].s;
}

int config_enum(const struct config *c, enum config_key k)
{
	return (int)c->v[k].i;
}

const int64_t *config_intlist(const struct config *c, enum config_key k, size_t *n)
{
	*n = c->v[k].nlist;
	return c->v[k].list;
}

char **config_names(const struct config *c, enum config_key k, size_t *n)
{
	const char *list = config_str(c, k);
	char **v = xcalloc(strlen(list) / 2 + 2, sizeof *v);

	*n = 0;
	while (*list != '\0') {
		size_t len = strcspn(list, ", ");

		if (len > 0)
			v[(*n)++] = xstrndup(list, len);
		list += len;
		list += strspn(list, ", ");
	}
	return v;
}

void config_names_free(char **names)
{
	for (char **p = names; p != NULL && *p != NULL; p++)
		free(*p);
	free(names);
}

void config_format(const struct config *c, struct buf *out)
{
	const char *section = NULL;

	buf_appends(out, "# The effective configuration of this job: every key with its value.\n");
	for (int k = 0; k < CK__COUNT; k++) {
		const struct config_def *d = &config_defs[k];
		if (section == NULL || strcmp(section, d->section) != 0) {
			buf_appendf(out, "%s[%s]\n", section ? "\n" : "", d->section);
			section = d->section;
		}
		buf_appendf(out, "%s = %s\n", d->key, c->v[k].s);
	}
	config_format_rules(c, out);
	config_format_overrides(c, out);
}

void config_format_rules(const struct config *c, struct buf *out)
{
	if (c->nrules > 0)
		buf_appends(out, "\n[rules]\n");
	for (size_t i = 0; i < c->nrules; i++)
		buf_appendf(
		    out, "%s = %s\n", c->rules[i].accept ? "accept" : "reject", c->rules[i].text);
}

void config_format_overrides(const struct config *c, struct buf *out)
{
	for (size_t i = 0; i < c->novr; i++) {
		buf_appendf(out, "\n[override \"%s\"]\n", c->ovr[i].prefix);
		for (int k = 0; k < CK__COUNT; k++)
			if (c->ovr[i].v[k].set)
				buf_appendf(
				    out, "%s = %s\n", config_defs[k].name, c->ovr[i].v[k].s);
	}
}
