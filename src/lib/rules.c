/* Reject and accept rules (rules.h): parsed and compiled once, when the
 * configuration is read, then matched against every candidate URI in
 * order. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "lib/rules.h"
#include "lib/buf.h"
#include "lib/surt.h"
#include "lib/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum rules_test {
	RULES_REGEX,
	RULES_SURT,
	RULES_HOPS,
	RULES_SEGMENTS,
	RULES_REL,
	RULES_KIND,
};

static const char *const rules_test_names[] = {
    "regex", "surt", "hops", "path-segments", "rel", "kind"};

struct rules_rule {
	char *name;
	char *text; /* as written, trimmed */
	int accept;
	enum rules_test test;
	pcre2_code *re; /* regex, hops */
	char *prefix;	/* surt: scheme-less, lowercased */
	size_t plen;	/* its length */
	long max;	/* path-segments */
	char kinds[3];	/* kind: the last hops that match, NUL-padded */
	uint64_t hits;
};

struct rules {
	struct rules_rule *v;
	size_t n, cap;
	pcre2_match_context *mctx;
	pcre2_match_data *md;
	uint64_t limit_hits;
};

struct rules *rules_new(void)
{
	struct rules *r = xcalloc(1, sizeof *r);

	r->mctx = pcre2_match_context_create(NULL);
	r->md = pcre2_match_data_create(1, NULL);
	if (r->mctx == NULL || r->md == NULL)
		abort();
	pcre2_set_match_limit(r->mctx, RULES_MATCH_LIMIT);
	pcre2_set_depth_limit(r->mctx, RULES_DEPTH_LIMIT);
	return r;
}

static void rules_rule_clear(struct rules_rule *x)
{
	free(x->name);
	free(x->text);
	free(x->prefix);
	pcre2_code_free(x->re);
	memset(x, 0, sizeof *x);
}

void rules_free(struct rules *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->n; i++)
		rules_rule_clear(&r->v[i]);
	free(r->v);
	pcre2_match_data_free(r->md);
	pcre2_match_context_free(r->mctx);
	free(r);
}

/* The next word of *p (up to whitespace), advancing *p past it and the
 * whitespace after it; its length in *n. */
static const char *rules_word(const char **p, size_t *n)
{
	const char *s = *p, *e;

	while (isspace((unsigned char)*s))
		s++;
	for (e = s; *e != '\0' && !isspace((unsigned char)*e); e++)
		;
	*n = (size_t)(e - s);
	while (isspace((unsigned char)*e))
		e++;
	*p = e;
	return s;
}

static int rules_compile(struct rules_rule *x, const char *pat, size_t n, char **err)
{
	int code;
	PCRE2_SIZE off;
	PCRE2_UCHAR msg[256];

	/* Bytes, not UTF-8: a URI is ASCII after resolution, and a stray byte
	 * must not make a match fail with an encoding error. */
	x->re = pcre2_compile((PCRE2_SPTR)pat, n, PCRE2_NEVER_BACKSLASH_C, &code, &off, NULL);
	if (x->re == NULL) {
		pcre2_get_error_message(code, msg, sizeof msg);
		*err = xasprintf("bad regular expression at offset %zu: %s", (size_t)off, msg);
		return -1;
	}
	/* The JIT is an optimisation: without it (a platform it does not
	 * support) the interpreter matches under the same limits. */
	(void)pcre2_jit_compile(x->re, PCRE2_JIT_COMPLETE);
	return 0;
}

static int rules_surt(struct rules_rule *x, const char *arg, size_t n, char **err)
{
	struct buf b = BUF_INIT;
	const char *p = arg, *paren;
	size_t i;

	if (*p == '+') {
		p++;
		n--;
	}
	if (memchr(p, '(', n) == NULL) {
		/* A URL: its implied prefix, as a seed's. A comma says a SURT
		 * whose '(' was forgotten, not a host name. */
		if (memchr(p, ',', n) != NULL || surt_seed_prefix_plain(p, n, &b) < 0) {
			buf_free(&b);
			*err = xasprintf("\"%.*s\" is neither a SURT prefix such as "
					 "\"+http://(org,example,\" nor a URL",
			    (int)n, arg);
			return -1;
		}
	} else {
		buf_append(&b, p, n);
	}
	paren = strchr(b.data, '(');
	if (paren == NULL || paren[1] == '\0' ||
	    (paren != b.data && strncasecmp(b.data, "http://(", 8) != 0 &&
		strncasecmp(b.data, "https://(", 9) != 0)) {
		*err = xasprintf("\"%.*s\" is not a SURT prefix: expected \"(org,example,\", "
				 "\"http://(org,example,\" or a URL",
		    (int)n, arg);
		buf_free(&b);
		return -1;
	}
	x->prefix = xstrdup(paren + 1);
	x->plen = strlen(x->prefix);
	for (i = 0; i < x->plen; i++)
		x->prefix[i] = (char)tolower((unsigned char)x->prefix[i]);
	buf_free(&b);
	return 0;
}

static int rules_kind(struct rules_rule *x, const char *arg, size_t n, char **err)
{
	static const struct {
		const char *word, *hops;
	} kinds[] = {{"navigation", "LM"}, {"embed", "E"}, {"redirect", "R"}, {"speculative", "X"}};

	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strlen(kinds[i].word) == n && strncmp(arg, kinds[i].word, n) == 0) {
			memcpy(x->kinds, kinds[i].hops, strlen(kinds[i].hops));
			return 0;
		}
	*err = xasprintf(
	    "kind \"%.*s\": expected navigation, embed, redirect or speculative", (int)n, arg);
	return -1;
}

/* Parses "NAME TEST ARGUMENT" into x; 0 or -1 and *err. */
static int rules_parse(struct rules_rule *x, int accept, const char *text, char **err)
{
	const char *p = text, *name, *test, *arg;
	size_t nn, tn, an, i;
	char *end;

	memset(x, 0, sizeof *x);
	x->accept = accept;
	name = rules_word(&p, &nn);
	test = rules_word(&p, &tn);
	arg = p;
	an = strlen(arg);
	while (an > 0 && isspace((unsigned char)arg[an - 1]))
		an--;
	if (nn == 0 || tn == 0 || an == 0) {
		*err = xstrdup("expected NAME TEST ARGUMENT, such as \"replytocom regex "
			       "[?&]replytocom=\" (tests: regex, surt, hops, path-segments, rel, "
			       "kind)");
		return -1;
	}
	if (nn > RULES_NAME_MAX) {
		*err = xasprintf(
		    "rule name \"%.*s\" is longer than %d bytes", (int)nn, name, RULES_NAME_MAX);
		return -1;
	}
	for (i = 0; i < nn; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '.' && name[i] != '_' &&
		    name[i] != '-') {
			*err =
			    xasprintf("rule name \"%.*s\": use letters, digits, '.', '_' and '-'",
				(int)nn, name);
			return -1;
		}
	for (i = 0; i < sizeof rules_test_names / sizeof rules_test_names[0]; i++)
		if (strlen(rules_test_names[i]) == tn &&
		    strncmp(test, rules_test_names[i], tn) == 0)
			break;
	if (i == sizeof rules_test_names / sizeof rules_test_names[0]) {
		*err = xasprintf("rule %.*s: unknown test \"%.*s\" (expected regex, surt, hops, "
				 "path-segments, rel or kind)",
		    (int)nn, name, (int)tn, test);
		return -1;
	}
	x->test = (enum rules_test)i;
	x->name = xstrndup(name, nn);
	switch (x->test) {
	case RULES_REGEX:
	case RULES_HOPS:
		if (rules_compile(x, arg, an, err) < 0)
			goto bad;
		return 0;
	case RULES_SURT:
		if (rules_surt(x, arg, an, err) < 0)
			goto bad;
		return 0;
	case RULES_SEGMENTS:
		errno = 0;
		x->max = strtol(arg, &end, 10);
		if (errno != 0 || end != arg + an || x->max < 0 || !isdigit((unsigned char)*arg)) {
			*err = xasprintf(
			    "path-segments \"%.*s\": expected a number of segments", (int)an, arg);
			goto bad;
		}
		return 0;
	case RULES_REL:
		/* The extractors carry only nofollow of a link's rel. */
		if (an != 8 || strncasecmp(arg, "nofollow", 8) != 0) {
			*err = xasprintf(
			    "rel \"%.*s\": only rel nofollow can be tested", (int)an, arg);
			goto bad;
		}
		return 0;
	case RULES_KIND:
		if (rules_kind(x, arg, an, err) < 0)
			goto bad;
		return 0;
	}
bad : {
	char *e = xasprintf("rule %s: %s", x->name, *err);

	free(*err);
	*err = e;
}
	rules_rule_clear(x);
	return -1;
}

int rules_check(const char *text, char **err)
{
	struct rules_rule x;

	if (rules_parse(&x, 0, text, err) < 0)
		return -1;
	rules_rule_clear(&x);
	return 0;
}

int rules_add(struct rules *r, int accept, const char *text, char **err)
{
	struct rules_rule x;

	if (rules_parse(&x, accept, text, err) < 0)
		return -1;
	while (isspace((unsigned char)*text))
		text++;
	x.text = xstrdup(text);
	while (*x.text != '\0' && isspace((unsigned char)x.text[strlen(x.text) - 1]))
		x.text[strlen(x.text) - 1] = '\0';
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].name, x.name) == 0) {
			*err = xasprintf("rule %s: a rule of that name comes earlier (names count "
					 "what each rule decided, so each is used once)",
			    x.name);
			rules_rule_clear(&x);
			return -1;
		}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->v = xrealloc(r->v, r->cap * sizeof *r->v);
	}
	r->v[r->n++] = x;
	return 0;
}

size_t rules_count(const struct rules *r)
{
	return r->n;
}

static int rules_regex(struct rules *r, const pcre2_code *re, const char *s, size_t n)
{
	int rc = pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, r->md, r->mctx);

	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT)
		r->limit_hits++;
	return 0;
}

static int rules_one(struct rules *r, const struct rules_rule *x, const struct rules_uri *u)
{
	size_t i, segs = 0, nh;

	switch (x->test) {
	case RULES_REGEX:
		return rules_regex(r, x->re, u->uri, u->len);
	case RULES_HOPS:
		return rules_regex(r, x->re, u->hops != NULL ? u->hops : "",
		    u->hops != NULL ? strlen(u->hops) : 0);
	case RULES_SURT:
		return u->surt_len >= x->plen && memcmp(u->surt, x->prefix, x->plen) == 0;
	case RULES_SEGMENTS:
		for (i = 0; i < u->path_len; i++)
			segs += u->path[i] == '/';
		return segs > (size_t)x->max;
	case RULES_REL:
		return (u->flags & RULES_NOFOLLOW) != 0;
	case RULES_KIND:
		nh = u->hops != NULL ? strlen(u->hops) : 0;
		return nh > 0 && memchr(x->kinds, u->hops[nh - 1], strnlen(x->kinds, 3)) != NULL;
	}
	return 0;
}

int rules_match(struct rules *r, const struct rules_uri *u)
{
	for (size_t i = 0; i < r->n; i++)
		if (rules_one(r, &r->v[i], u))
			return (int)i;
	return -1;
}

const char *rules_name(const struct rules *r, size_t i)
{
	return r->v[i].name;
}

const char *rules_text(const struct rules *r, size_t i)
{
	return r->v[i].text;
}

int rules_accepts(const struct rules *r, size_t i)
{
	return r->v[i].accept;
}

uint64_t rules_hits(const struct rules *r, size_t i)
{
	return r->v[i].hits;
}

void rules_hit(struct rules *r, size_t i)
{
	r->v[i].hits++;
}

int rules_set_hits(struct rules *r, const char *name, uint64_t n)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].name, name) == 0) {
			r->v[i].hits = n;
			return 0;
		}
	return -1;
}

uint64_t rules_limit_hits(const struct rules *r)
{
	return r->limit_hits;
}
