/* The crawl scope; the rules and their order are described in scope.h. */
#include "crawl/scope.h"
#include "lib/buf.h"
#include "lib/hash.h"
#include "lib/surt.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum scope_mode {
	SCOPE_MODE_SEEDS,
	SCOPE_MODE_DOMAIN,
	SCOPE_MODE_LIST,
};

/* Prefixes live in an open-addressing table keyed by their plain FNV-1a
 * hash (lib/hash.h: hash_fnv1a_step, without the finalizer of hash_bytes).
 * FNV-1a extends one byte at a time, so a candidate SURT is checked against
 * every prefix in one pass over it: the hash of each of its own prefixes is
 * looked up as it grows, where a finalizer would cost a pass of its own per
 * prefix. That keeps a check linear in the URI whatever the
 * number of seeds. */
struct scope_entry {
	uint64_t hash;
	char *prefix;
	size_t len;
};

struct scope {
	enum scope_mode mode;
	int max_hops;
	int max_trans_hops;
	int max_path_repeats;
	size_t max_uri_length;
	size_t max_query_length;
	struct scope_entry *tab;
	size_t cap;
	size_t n;
	size_t minlen;
};

static int scope_has(const struct scope *s, uint64_t h, const char *p, size_t len)
{
	size_t i;

	if (s->cap == 0)
		return 0;
	for (i = (size_t)h & (s->cap - 1); s->tab[i].prefix != NULL; i = (i + 1) & (s->cap - 1))
		if (s->tab[i].hash == h && s->tab[i].len == len &&
		    memcmp(s->tab[i].prefix, p, len) == 0)
			return 1;
	return 0;
}

static void scope_insert(struct scope *s, char *prefix, size_t len, uint64_t h)
{
	size_t i;

	for (i = (size_t)h & (s->cap - 1); s->tab[i].prefix != NULL; i = (i + 1) & (s->cap - 1))
		;
	s->tab[i].hash = h;
	s->tab[i].prefix = prefix;
	s->tab[i].len = len;
}

static void scope_put(struct scope *s, const char *p, size_t len)
{
	uint64_t h = HASH_FNV1A_OFFSET;
	size_t i;

	for (i = 0; i < len; i++)
		h = hash_fnv1a_step(h, (unsigned char)p[i]);
	if (scope_has(s, h, p, len))
		return;
	if (2 * (s->n + 1) > s->cap) {
		struct scope_entry *old = s->tab;
		size_t oldcap = s->cap;

		s->cap = s->cap ? s->cap * 2 : 64;
		s->tab = xcalloc(s->cap, sizeof(*s->tab));
		for (i = 0; i < oldcap; i++)
			if (old[i].prefix != NULL)
				scope_insert(s, old[i].prefix, old[i].len, old[i].hash);
		free(old);
	}
	scope_insert(s, xstrndup(p, len), len, h);
	if (s->n == 0 || len < s->minlen)
		s->minlen = len;
	s->n++;
}

/* An authority made only of an IPv4 address or a bracketed IPv6 one. */
static int scope_ip_authority(const char *a)
{
	if (*a == '[')
		return 1;
	if (*a == '\0')
		return 0;
	for (; *a != '\0'; a++)
		if (!isdigit((unsigned char)*a) && *a != '.')
			return 0;
	return 1;
}

int scope_add_prefix(struct scope *s, const char *surt_prefix)
{
	struct buf b = BUF_INIT;
	const char *p = surt_prefix;
	size_t i;
	static const char *const ends[] = {")", ":", "@"};

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+')
		p++;
	if (*p == '(')
		buf_appends(&b, "http://");
	else if (strncasecmp(p, "https://", 8) == 0) {
		buf_appends(&b, "http://");
		p += 8;
	}
	buf_appends(&b, p);
	while (b.len > 0 && isspace((unsigned char)b.data[b.len - 1]))
		b.data[--b.len] = '\0';
	for (i = 0; i < b.len; i++)
		b.data[i] = (char)tolower((unsigned char)b.data[i]);
	if (b.len <= 8 || strncmp(b.data, "http://(", 8) != 0) {
		buf_free(&b);
		return -1;
	}
	/* A prefix cut inside an IP address covers that address only. */
	if (strchr(b.data, ')') == NULL && b.data[b.len - 1] != ',' &&
	    scope_ip_authority(b.data + 8)) {
		for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
			size_t base = b.len;

			buf_appends(&b, ends[i]);
			scope_put(s, b.data, b.len);
			b.len = base;
			b.data[base] = '\0';
		}
	} else {
		scope_put(s, b.data, b.len);
	}
	buf_free(&b);
	return 0;
}

/* Calls fn on each entry of a prefix list: entries are separated by
 * whitespace, and by a comma followed (after spaces) by "+", "(" or
 * "http", since commas also occur inside a SURT. */
static int scope_list_each(const char *list, int (*fn)(void *, const char *, size_t), void *arg)
{
	const char *p = list;

	for (;;) {
		const char *start, *q;

		while (isspace((unsigned char)*p) || *p == ',')
			p++;
		if (*p == '\0')
			return 0;
		start = p;
		for (q = p; *q != '\0' && !isspace((unsigned char)*q); q++) {
			const char *r = q + 1;

			if (*q != ',')
				continue;
			while (*r == ' ' || *r == '\t')
				r++;
			if (*r == '+' || *r == '(' || strncasecmp(r, "http", 4) == 0)
				break;
		}
		if (fn(arg, start, (size_t)(q - start)) < 0)
			return -1;
		p = q;
	}
}

static int scope_list_add_cb(void *arg, const char *e, size_t n)
{
	struct scope *s = arg;
	struct buf b = BUF_INIT;
	int rc;

	if (n > 0 && e[n - 1] == ',' && memchr(e, '(', n) == NULL)
		n--;
	if (n == 0)
		return 0;
	if (*e == '+' || *e == '(' || memmem(e, n, "://(", 4) != NULL) {
		char *one = xstrndup(e, n);

		rc = scope_add_prefix(s, one);
		free(one);
		return rc;
	}
	rc = surt_seed_prefix_plain(e, n, &b);
	if (rc == 0)
		rc = scope_add_prefix(s, b.data);
	buf_free(&b);
	return rc < 0 ? -1 : 0;
}

static struct scope *scope_alloc(const struct scope_opts *o)
{
	struct scope *s = xcalloc(1, sizeof(*s));

	s->max_hops = o->max_hops;
	s->max_trans_hops = o->max_trans_hops;
	s->max_path_repeats = o->max_path_repeats;
	s->max_uri_length = o->max_uri_length;
	s->max_query_length = o->max_query_length;
	return s;
}

struct scope *scope_new(const struct scope_opts *o)
{
	const char *mode = o->scope != NULL ? o->scope : "seeds";
	struct scope *s = scope_alloc(o);

	if (strcmp(mode, "seeds") == 0 || *mode == '\0') {
		s->mode = SCOPE_MODE_SEEDS;
	} else if (strcmp(mode, "domain") == 0) {
		s->mode = SCOPE_MODE_DOMAIN;
	} else {
		s->mode = SCOPE_MODE_LIST;
		if (scope_list_each(mode, scope_list_add_cb, s) < 0 || s->n == 0) {
			scope_free(s);
			return NULL;
		}
	}
	return s;
}

struct scope_validate_ctx {
	struct scope *s;
	char *bad;
};

static int scope_validate_cb(void *arg, const char *e, size_t n)
{
	struct scope_validate_ctx *v = arg;

	if (scope_list_add_cb(v->s, e, n) < 0) {
		v->bad = xstrndup(e, n);
		return -1;
	}
	return 0;
}

int scope_validate(const char *scope, char **err)
{
	struct scope_opts o = {0};
	struct scope_validate_ctx v = {NULL, NULL};
	int rc = 0;

	if (scope == NULL || *scope == '\0' || strcmp(scope, "seeds") == 0 ||
	    strcmp(scope, "domain") == 0)
		return 0;
	v.s = scope_alloc(&o);
	if (scope_list_each(scope, scope_validate_cb, &v) < 0) {
		*err = xasprintf("crawl.scope: \"%s\" is neither a SURT prefix such as "
				 "\"+http://(org,example,\" nor an http(s) URL",
		    v.bad);
		rc = -1;
	} else if (v.s->n == 0) {
		*err = xstrdup(
		    "crawl.scope: expected \"seeds\", \"domain\" or a list of SURT prefixes");
		rc = -1;
	}
	free(v.bad);
	scope_free(v.s);
	return rc;
}

int scope_add_seed(struct scope *s, const char *href)
{
	struct buf b = BUF_INIT;
	struct buf host = BUF_INIT;
	struct url_parts p;
	int rc = -1;

	if (url_split(href, &p) != 0)
		return -1;
	switch (s->mode) {
	case SCOPE_MODE_SEEDS:
		if (surt_seed_prefix(href, &b) == 0)
			rc = scope_add_prefix(s, b.data);
		break;
	case SCOPE_MODE_DOMAIN:
		buf_append(&host, href + p.host_off, p.host_len);
		if (surt_registered_domain(host.data, &b) == 0) {
			buf_reset(&host);
			buf_append(&host, b.data, b.len);
			if (surt_seed_prefix_plain(host.data, host.len, &b) == 0)
				rc = scope_add_prefix(s, b.data);
		}
		/* A host with no registered domain (an IPv6 literal) stands
		 * for itself. */
		if (rc < 0 && surt_seed_prefix(href, &b) == 0)
			rc = scope_add_prefix(s, b.data);
		break;
	case SCOPE_MODE_LIST:
		rc = 0;
		break;
	}
	buf_free(&b);
	buf_free(&host);
	return rc;
}

int scope_add_seed_plain(struct scope *s, const char *seed, size_t len)
{
	struct buf b = BUF_INIT;
	struct buf href = BUF_INIT;
	int rc = -1;

	if (s->mode == SCOPE_MODE_LIST)
		return 0;
	if (s->mode == SCOPE_MODE_DOMAIN) {
		/* The registered domain does not depend on how the seed was
		 * written: go through its href. */
		if (memmem(seed, len, "://", 3) == NULL)
			buf_appends(&href, "http://");
		buf_append(&href, seed, len);
		if (strchr(strstr(href.data, "://") + 3, '/') == NULL)
			buf_appendc(&href, '/');
		rc = scope_add_seed(s, href.data);
	} else if (surt_seed_prefix_plain(seed, len, &b) == 0) {
		rc = scope_add_prefix(s, b.data);
	}
	buf_free(&b);
	buf_free(&href);
	return rc;
}

static int scope_prefixed(const struct scope *s, const char *surt, size_t len)
{
	uint64_t h = HASH_FNV1A_OFFSET;
	size_t i;

	for (i = 0; i < len && s->n > 0; i++) {
		h = hash_fnv1a_step(h, (unsigned char)surt[i]);
		if (i + 1 >= s->minlen && scope_has(s, h, surt, i + 1))
			return 1;
	}
	return 0;
}

/* Trailing non-navigational hops, Heritrix's TransclusionDecideRule: at
 * least one, at most max_trans_hops, and at most one speculative 'X'. */
static int scope_transcluded(const struct scope *s, const char *hops, size_t n)
{
	int count = 0;
	int spec = 0;

	while (n > 0 && hops[n - 1] != 'L' && hops[n - 1] != 'M') {
		if (hops[n - 1] == 'X')
			spec++;
		count++;
		n--;
	}
	return count > 0 && spec <= 1 && count <= s->max_trans_hops;
}

static int scope_seg_eq(const char *path, const size_t *off, const size_t *len, size_t a, size_t b)
{
	return len[a] == len[b] && memcmp(path + off[a], path + off[b], len[a]) == 0;
}

/* A unit of 1..SCOPE_MAX_REPEAT_UNIT '/'-terminated segments occurring more
 * than max_path_repeats times in a row: PathologicalPathDecideRule's
 * ".*?/(.*?/)\1{N,}.*" applied to the path. For a unit of k segments,
 * k * N consecutive positions i where segment i equals segment i + k mean
 * N + 1 occurrences in a row. */
static int scope_pathological(const struct scope *s, const char *path, size_t plen)
{
	size_t stack_off[128], stack_len[128];
	size_t *off = stack_off, *len = stack_len;
	size_t nseg = 0, cap = 128, i, k;
	size_t start = 1;
	int trap = 0;

	if (s->max_path_repeats <= 0 || plen == 0)
		return 0;
	for (i = 1; i < plen; i++) {
		if (path[i] != '/')
			continue;
		if (nseg == cap) {
			cap *= 2;
			if (off == stack_off) {
				off = xmalloc(cap * sizeof(*off));
				len = xmalloc(cap * sizeof(*len));
				memcpy(off, stack_off, sizeof(stack_off));
				memcpy(len, stack_len, sizeof(stack_len));
			} else {
				off = xrealloc(off, cap * sizeof(*off));
				len = xrealloc(len, cap * sizeof(*len));
			}
		}
		off[nseg] = start;
		len[nseg] = i - start;
		nseg++;
		start = i + 1;
	}
	for (k = 1; k <= SCOPE_MAX_REPEAT_UNIT && !trap; k++) {
		size_t need = k * (size_t)s->max_path_repeats;
		size_t run = 0;

		for (i = 0; i + k < nseg; i++) {
			run = scope_seg_eq(path, off, len, i, i + k) ? run + 1 : 0;
			if (run >= need) {
				trap = 1;
				break;
			}
		}
	}
	if (off != stack_off) {
		free(off);
		free(len);
	}
	return trap;
}

int scope_check(const struct scope *s, const char *href, const char *hops, int is_seed)
{
	struct url_parts p;
	struct buf surt = BUF_INIT;
	size_t len;
	int verdict;

	if (is_seed)
		return SCOPE_ACCEPT;
	len = strlen(href);
	if (s->max_uri_length > 0 && len > s->max_uri_length)
		return SCOPE_TOO_LONG;
	if (url_split(href, &p) != 0 || surt_from_parts(href, &p, 1, &surt) != 0) {
		buf_free(&surt);
		return SCOPE_UNFETCHABLE;
	}
	verdict = scope_check_parsed(s, href, len, &p, surt.data, surt.len, hops);
	buf_free(&surt);
	return verdict;
}

static const struct {
	const char *word, *label, *setting;
} scope_whys[SCOPE_WHY_COUNT] = {
    [SCOPE_WHY_ACCEPT] = {"", "", ""},
    [SCOPE_WHY_OUT] = {"out_of_scope", "out of scope", "crawl.scope"},
    [SCOPE_WHY_HOPS] = {"too_many_hops", "too many hops", "crawl.max-hops"},
    [SCOPE_WHY_PATH_REPEATS] = {"path_repeats", "path repeats", "crawl.max-path-repeats"},
    [SCOPE_WHY_QUERY_LENGTH] = {"query_too_long", "query too long", "crawl.max-query-length"},
    [SCOPE_WHY_URI_LENGTH] = {"uri_too_long", "URI too long", "crawl.max-uri-length"},
    [SCOPE_WHY_RULE] = {"rules", "by rules", "[rules]"},
    [SCOPE_WHY_NOFOLLOW] = {"meta_nofollow", "meta robots nofollow", "robots.policy"},
};

const char *scope_why_word(enum scope_why w)
{
	return scope_whys[w].word;
}

const char *scope_why_label(enum scope_why w)
{
	return scope_whys[w].label;
}

const char *scope_why_setting(enum scope_why w)
{
	return scope_whys[w].setting;
}

int scope_check_parsed(const struct scope *s, const char *href, size_t len,
    const struct url_parts *p, const char *surt, size_t surt_len, const char *hops)
{
	switch (scope_judge_parsed(s, href, len, p, surt, surt_len, hops)) {
	case SCOPE_WHY_ACCEPT:
		return SCOPE_ACCEPT;
	case SCOPE_WHY_HOPS:
		return SCOPE_TOO_MANY_HOPS;
	case SCOPE_WHY_PATH_REPEATS:
	case SCOPE_WHY_QUERY_LENGTH:
		return SCOPE_TRAP;
	case SCOPE_WHY_URI_LENGTH:
		return SCOPE_TOO_LONG;
	default:
		return SCOPE_OUT;
	}
}

enum scope_why scope_judge_parsed(const struct scope *s, const char *href, size_t len,
    const struct url_parts *p, const char *surt, size_t surt_len, const char *hops)
{
	char stack[512], *http = stack;
	size_t nhops = hops != NULL ? strlen(hops) : 0;
	enum scope_why verdict = SCOPE_WHY_OUT;

	if (s->max_uri_length > 0 && len > s->max_uri_length)
		return SCOPE_WHY_URI_LENGTH;
	/* Compare as http, as Heritrix does. */
	if (surt_len >= 8 && strncmp(surt, "https://", 8) == 0) {
		if (surt_len > sizeof(stack))
			http = xmalloc(surt_len);
		memcpy(http, "http", 4);
		memcpy(http + 4, surt + 5, surt_len - 5);
		surt = http;
		surt_len--;
	}
	if (scope_prefixed(s, surt, surt_len))
		verdict = SCOPE_WHY_ACCEPT;
	if (http != stack)
		free(http);
	if (s->max_hops >= 0 && nhops > (size_t)s->max_hops)
		verdict = SCOPE_WHY_HOPS;
	if (scope_transcluded(s, hops, nhops))
		verdict = SCOPE_WHY_ACCEPT;
	if (scope_pathological(s, href + p->path_off, p->path_len))
		verdict = SCOPE_WHY_PATH_REPEATS;
	else if (s->max_query_length > 0 && p->has_query && p->query_len > s->max_query_length)
		verdict = SCOPE_WHY_QUERY_LENGTH;
	if (nhops > 0 && hops[nhops - 1] == 'P')
		verdict = SCOPE_WHY_ACCEPT;
	return verdict;
}

static int scope_word_at(const char *s, const char *w)
{
	return strncasecmp(s, w, strlen(w)) == 0;
}

int scope_calendar_like(const char *href)
{
	static const char *const words[] = {"calendar", "year", "month", "day", "date", "viewcal",
	    "event", "yr=", "calendrier", "jour"};
	const char *p;
	size_t i;

	for (p = href; *p != '\0'; p++) {
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (tolower((unsigned char)*p) == words[i][0] && scope_word_at(p, words[i]))
				return 1;
		/* \D19\d\d\D or \D20\d\d\D */
		if (p != href && !isdigit((unsigned char)p[-1]) &&
		    (strncmp(p, "19", 2) == 0 || strncmp(p, "20", 2) == 0) &&
		    isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[3]) && p[4] != '\0' &&
		    !isdigit((unsigned char)p[4]))
			return 1;
	}
	return 0;
}

int scope_seeds_widen(const struct scope *s)
{
	return s->mode != SCOPE_MODE_LIST;
}

size_t scope_prefix_count(const struct scope *s)
{
	return s->n;
}

void scope_free(struct scope *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->cap; i++)
		free(s->tab[i].prefix);
	free(s->tab);
	free(s);
}
