/* robots.txt per RFC 9309; the choices the RFC leaves open are listed in
 * robots.h. */
/* memmem and qsort_r come from _GNU_SOURCE, set for the whole build. */
#include "lib/hex.h"
#include "lib/robots.h"
#include "lib/status.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum robots_mode {
	ROBOTS_MODE_RULES = 0,
	ROBOTS_MODE_DISALLOW_ALL = 1,
};

struct robots_rule {
	const char *pat;
	uint32_t len;
	uint8_t allow;
	/* No '*' and no trailing '$': matching is a prefix comparison. */
	uint8_t plain;
};

/* One allocation: the struct, then the rules sorted by decreasing pattern
 * length (allow first on ties, so the first match is the verdict), then the
 * normalised patterns they point into. */
struct robots {
	int mode;
	int64_t delay_ms;
	size_t nrules;
	size_t pool_len;
	struct robots_rule *rules;
};

/* A rule while parsing: its pattern lives at off in the side's pool, which
 * may still move as it grows. */
struct robots_pending {
	size_t off;
	uint32_t len;
	uint8_t allow;
};

/* The rules and delay gathered for one candidate group: the groups naming our
 * agent, or the '*' groups. */
struct robots_side {
	struct robots_pending *v;
	size_t n;
	size_t cap;
	struct buf pool;
	int64_t delay_ms;
};

struct robots_parser {
	const char *agent;
	size_t agent_len;
	int in_ua_run;
	int group_started;
	int group_specific;
	int group_global;
	int any_specific;
	struct robots_side spec;
	struct robots_side glob;
};

static int robots_is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

static int robots_is_unreserved(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == '-' || c == '.' || c == '_' || c == '~';
}

/* Bytes RFC 3986 does not allow anywhere in a URI; both sides escape them so
 * that a rule written with a raw byte matches the escaped URI and back. */
static int robots_must_escape(unsigned char c)
{
	if (c <= 0x20 || c >= 0x7f)
		return 1;
	return c == '"' || c == '<' || c == '>' || c == '[' || c == '\\' || c == ']' || c == '^' ||
	    c == '`' || c == '{' || c == '|' || c == '}';
}

/* Writes the normalised form of s into out, which holds at least 3 * n bytes;
 * returns its length. */
static size_t robots_normalise_to(const char *s, size_t n, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int hi, lo;

		if (c == '%' && i + 2 < n && (hi = hex_value((unsigned char)s[i + 1])) >= 0 &&
		    (lo = hex_value((unsigned char)s[i + 2])) >= 0) {
			unsigned char v = (unsigned char)(hi << 4 | lo);

			i += 2;
			if (robots_is_unreserved(v)) {
				out[o++] = (char)v;
				continue;
			}
			c = v;
		} else if (!robots_must_escape(c)) {
			out[o++] = (char)c;
			continue;
		}
		out[o++] = '%';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	return o;
}

static size_t robots_token_len(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '-' || c == '_'))
			break;
	}
	return i;
}

void robots_agent_token(const char *user_agent, char *out, size_t outlen)
{
	size_t n;

	if (outlen == 0)
		return;
	if (user_agent == NULL)
		user_agent = "";
	while (robots_is_ws((unsigned char)*user_agent))
		user_agent++;
	n = robots_token_len(user_agent, strlen(user_agent));
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, user_agent, n);
	out[n] = '\0';
}

static void robots_side_add(struct robots_side *sd, int allow, const char *v, size_t n)
{
	struct robots_pending *pr;

	if (sd->n == sd->cap) {
		sd->cap = sd->cap ? sd->cap * 2 : 16;
		sd->v = xrealloc(sd->v, sd->cap * sizeof(*sd->v));
	}
	pr = &sd->v[sd->n++];
	buf_reserve(&sd->pool, 3 * n);
	pr->off = sd->pool.len;
	pr->len = (uint32_t)robots_normalise_to(v, n, sd->pool.data + sd->pool.len);
	pr->allow = (uint8_t)(allow != 0);
	sd->pool.len += pr->len;
	sd->pool.data[sd->pool.len] = '\0';
}

static void robots_side_free(struct robots_side *sd)
{
	free(sd->v);
	buf_free(&sd->pool);
}

/* A plain decimal number of seconds ("5", "0.5", "10."); anything else is
 * ignored rather than guessed at. */
static int robots_parse_delay(const char *v, size_t n, int64_t *ms)
{
	int64_t secs = 0;
	int64_t frac = 0;
	int digits = 0;
	int fdigits = 0;
	size_t i = 0;

	for (; i < n && v[i] >= '0' && v[i] <= '9'; i++, digits++)
		if (secs <= ROBOTS_MAX_CRAWL_DELAY_MS / 1000)
			secs = secs * 10 + (v[i] - '0');
	if (i < n && v[i] == '.') {
		for (i++; i < n && v[i] >= '0' && v[i] <= '9'; i++, fdigits++) {
			if (fdigits < 3)
				frac = frac * 10 + (v[i] - '0');
			else if (fdigits == 3 && v[i] >= '5')
				frac++;
		}
	}
	if (i != n || digits + fdigits == 0)
		return -1;
	for (; fdigits < 3; fdigits++)
		frac *= 10;
	if (secs > ROBOTS_MAX_CRAWL_DELAY_MS / 1000)
		*ms = ROBOTS_MAX_CRAWL_DELAY_MS;
	else
		*ms = secs * 1000 + frac;
	if (*ms > ROBOTS_MAX_CRAWL_DELAY_MS)
		*ms = ROBOTS_MAX_CRAWL_DELAY_MS;
	return 0;
}

static void robots_parse_agent(struct robots_parser *p, const char *v, size_t n)
{
	size_t t;

	if (!p->in_ua_run) {
		p->group_specific = 0;
		p->group_global = 0;
	}
	p->in_ua_run = 1;
	p->group_started = 1;
	if (n >= 1 && v[0] == '*' && (n == 1 || robots_is_ws((unsigned char)v[1]))) {
		p->group_global = 1;
		return;
	}
	t = robots_token_len(v, n);
	if (t > 0 && t == p->agent_len && strncasecmp(v, p->agent, t) == 0) {
		p->group_specific = 1;
		p->any_specific = 1;
	}
}

enum robots_key {
	ROBOTS_KEY_OTHER,
	ROBOTS_KEY_USER_AGENT,
	ROBOTS_KEY_ALLOW,
	ROBOTS_KEY_DISALLOW,
	ROBOTS_KEY_CRAWL_DELAY,
};

static enum robots_key robots_key(const char *k, size_t n)
{
	static const struct {
		const char *name;
		enum robots_key key;
	} keys[] = {
	    {"user-agent", ROBOTS_KEY_USER_AGENT},
	    {"allow", ROBOTS_KEY_ALLOW},
	    {"disallow", ROBOTS_KEY_DISALLOW},
	    {"crawl-delay", ROBOTS_KEY_CRAWL_DELAY},
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].name) == n && strncasecmp(k, keys[i].name, n) == 0)
			return keys[i].key;
	return ROBOTS_KEY_OTHER;
}

static void robots_parse_line(struct robots_parser *p, const char *line, size_t n)
{
	const char *hash = memchr(line, '#', n);
	const char *colon;
	const char *k, *v;
	size_t kn, vn;
	enum robots_key key;
	int64_t ms;

	if (hash != NULL)
		n = (size_t)(hash - line);
	colon = memchr(line, ':', n);
	if (colon == NULL)
		return;
	k = line;
	kn = (size_t)(colon - line);
	v = colon + 1;
	vn = n - kn - 1;
	while (kn > 0 && robots_is_ws((unsigned char)*k))
		k++, kn--;
	while (kn > 0 && robots_is_ws((unsigned char)k[kn - 1]))
		kn--;
	while (vn > 0 && robots_is_ws((unsigned char)*v))
		v++, vn--;
	while (vn > 0 && robots_is_ws((unsigned char)v[vn - 1]))
		vn--;

	key = robots_key(k, kn);
	if (key == ROBOTS_KEY_OTHER)
		return;
	if (key == ROBOTS_KEY_USER_AGENT) {
		robots_parse_agent(p, v, vn);
		return;
	}
	p->in_ua_run = 0;
	/* Rules before the first user-agent line belong to no group. */
	if (!p->group_started)
		return;
	if (key == ROBOTS_KEY_CRAWL_DELAY) {
		if (robots_parse_delay(v, vn, &ms) < 0)
			return;
		if (p->group_specific)
			p->spec.delay_ms = ms;
		if (p->group_global)
			p->glob.delay_ms = ms;
		return;
	}
	/* An empty value ("Disallow:") is no rule: it allows what nothing else
	 * forbids. */
	if (vn == 0)
		return;
	if (p->group_specific)
		robots_side_add(&p->spec, key == ROBOTS_KEY_ALLOW, v, vn);
	if (p->group_global)
		robots_side_add(&p->glob, key == ROBOTS_KEY_ALLOW, v, vn);
}

static int robots_pending_cmp(const void *a, const void *b, void *pool)
{
	const struct robots_pending *x = a, *y = b;
	const char *base = pool;

	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	if (x->allow != y->allow)
		return x->allow > y->allow ? -1 : 1;
	return memcmp(base + x->off, base + y->off, x->len);
}

/* Sorts, drops duplicates (a pattern both allowed and disallowed keeps only
 * its allow, which wins the tie anyway) and packs into one allocation. */
static struct robots *robots_build(
    int mode, int64_t delay_ms, struct robots_pending *v, size_t n, const char *pool)
{
	struct robots *r;
	size_t keep = 0;
	size_t bytes = 0;
	size_t i;
	char *dst;

	if (n > 1)
		qsort_r(v, n, sizeof(*v), robots_pending_cmp, (void *)pool);
	for (i = 0; i < n; i++) {
		if (keep > 0 && v[keep - 1].len == v[i].len &&
		    memcmp(pool + v[keep - 1].off, pool + v[i].off, v[i].len) == 0)
			continue;
		v[keep++] = v[i];
		bytes += v[i].len;
	}
	r = xmalloc(sizeof(*r) + keep * sizeof(struct robots_rule) + bytes + 1);
	r->mode = mode;
	r->delay_ms = delay_ms;
	r->nrules = keep;
	r->pool_len = bytes;
	r->rules = (struct robots_rule *)(r + 1);
	dst = (char *)(r->rules + keep);
	for (i = 0; i < keep; i++) {
		struct robots_rule *rr = &r->rules[i];

		memcpy(dst, pool + v[i].off, v[i].len);
		rr->pat = dst;
		rr->len = v[i].len;
		rr->allow = v[i].allow;
		rr->plain = memchr(dst, '*', v[i].len) == NULL &&
		    (v[i].len == 0 || dst[v[i].len - 1] != '$');
		dst += v[i].len;
	}
	*dst = '\0';
	return r;
}

struct robots *robots_parse(const char *body, size_t len, const char *agent)
{
	struct robots_parser p;
	struct robots_side *use;
	struct robots *r;
	size_t i = 0;

	memset(&p, 0, sizeof(p));
	p.spec.delay_ms = -1;
	p.glob.delay_ms = -1;
	p.agent = agent != NULL ? agent : "";
	p.agent_len = robots_token_len(p.agent, strlen(p.agent));
	if (body == NULL)
		len = 0;
	if (len > ROBOTS_MAX_BODY) {
		/* A line cut by the limit is dropped, not applied half-read. */
		char next = body[ROBOTS_MAX_BODY];

		len = ROBOTS_MAX_BODY;
		if (next != '\n' && next != '\r')
			while (len > 0 && body[len - 1] != '\n' && body[len - 1] != '\r')
				len--;
	}
	/* A UTF-8 byte-order mark, or any prefix of one (files cut or
	 * re-encoded by hand carry "EF BB" or "EF" alone), is skipped as
	 * Google's parser does, so that the first line is not lost. */
	while (i < len && i < 3 && body[i] == "\xEF\xBB\xBF"[i])
		i++;
	while (i < len) {
		size_t start = i;

		while (i < len && body[i] != '\n' && body[i] != '\r')
			i++;
		robots_parse_line(&p, body + start, i - start);
		i++;
	}
	use = p.any_specific ? &p.spec : &p.glob;
	r = robots_build(ROBOTS_MODE_RULES, use->delay_ms, use->v, use->n, use->pool.data);
	robots_side_free(&p.spec);
	robots_side_free(&p.glob);
	return r;
}

void robots_sitemaps(
    const char *body, size_t len, void (*cb)(void *arg, const char *url, size_t n), void *arg)
{
	size_t i = 0;

	if (body == NULL)
		return;
	if (len > ROBOTS_MAX_BODY)
		len = ROBOTS_MAX_BODY;
	while (i < len && i < 3 && body[i] == "\xEF\xBB\xBF"[i])
		i++;
	while (i < len) {
		size_t k = i, end, v, e;

		while (i < len && body[i] != '\n' && body[i] != '\r')
			i++;
		end = i++;
		while (k < end && robots_is_ws((unsigned char)body[k]))
			k++;
		if (end - k < 8 || strncasecmp(body + k, "sitemap", 7) != 0)
			continue;
		v = k + 7;
		while (v < end && robots_is_ws((unsigned char)body[v]))
			v++;
		if (v == end || body[v] != ':')
			continue;
		v++;
		while (v < end && robots_is_ws((unsigned char)body[v]))
			v++;
		/* A URL holds no white space: the value ends at the first, so
		 * a trailing "# comment" goes with it. */
		for (e = v; e < end && !robots_is_ws((unsigned char)body[e]); e++)
			;
		if (e > v)
			cb(arg, body + v, e - v);
	}
}

struct robots *robots_allow_all(void)
{
	return robots_build(ROBOTS_MODE_RULES, -1, NULL, 0, NULL);
}

struct robots *robots_disallow_all(void)
{
	return robots_build(ROBOTS_MODE_DISALLOW_ALL, -1, NULL, 0, NULL);
}

int robots_is_unavailable(const struct robots *r)
{
	return r->mode == ROBOTS_MODE_DISALLOW_ALL;
}

struct robots *robots_from_fetch(
    int status, const char *body, size_t len, const char *agent, int server_error_allow)
{
	if (status >= 200 && status < 300)
		return robots_parse(body, len, agent);
	/* 429 asks the crawler to back off: treating it as "no robots.txt"
	 * would answer a rate limit with a full-speed crawl. -404 is Heritrix's
	 * "deemed not found". */
	if ((status >= 300 && status < 500 && status != 429) || status == STATUS_DEEMED_NOT_FOUND)
		return robots_allow_all();
	return server_error_allow ? robots_allow_all() : robots_disallow_all();
}

/* Leftmost-first matching of the '*'-separated pieces is exact for patterns
 * whose only wildcard is '*', and linear in the path per pattern. */
static int robots_match(const struct robots_rule *r, const char *p, size_t n)
{
	const char *pat = r->pat;
	size_t m = r->len;
	int anchored = 0;
	const char *star;
	size_t seg, pos, i;

	if (r->plain)
		return m <= n && memcmp(pat, p, m) == 0;
	if (m > 0 && pat[m - 1] == '$') {
		anchored = 1;
		m--;
	}
	star = memchr(pat, '*', m);
	seg = star != NULL ? (size_t)(star - pat) : m;
	if (seg > n || memcmp(pat, p, seg) != 0)
		return 0;
	if (star == NULL)
		return !anchored || seg == n;
	pos = seg;
	i = seg + 1;
	for (;;) {
		const char *next = memchr(pat + i, '*', m - i);
		size_t sl = next != NULL ? (size_t)(next - (pat + i)) : m - i;
		const char *found;

		if (next == NULL) {
			if (anchored)
				return n - pos >= sl && memcmp(p + n - sl, pat + i, sl) == 0;
			return sl == 0 || memmem(p + pos, n - pos, pat + i, sl) != NULL;
		}
		if (sl > 0) {
			found = memmem(p + pos, n - pos, pat + i, sl);
			if (found == NULL)
				return 0;
			pos = (size_t)(found - p) + sl;
		}
		i += sl + 1;
	}
}

int robots_allowed(const struct robots *r, const char *path_query, size_t len)
{
	char stack[1536];
	char *norm = stack;
	size_t n, i;
	int verdict = 1;

	if (len == 11 && memcmp(path_query, "/robots.txt", 11) == 0)
		return 1;
	if (r->mode == ROBOTS_MODE_DISALLOW_ALL)
		return 0;
	if (r->nrules == 0)
		return 1;
	if (len == 0) {
		path_query = "/";
		len = 1;
	}
	if (len > sizeof(stack) / 3) {
		if (len > SIZE_MAX / 3)
			return 0;
		norm = xmalloc(len * 3);
	}
	n = robots_normalise_to(path_query, len, norm);
	for (i = 0; i < r->nrules; i++) {
		if (robots_match(&r->rules[i], norm, n)) {
			verdict = r->rules[i].allow;
			break;
		}
	}
	if (norm != stack)
		free(norm);
	return verdict;
}

int64_t robots_crawl_delay_ms(const struct robots *r)
{
	return r->delay_ms;
}

size_t robots_size(const struct robots *r)
{
	return sizeof(*r) + r->nrules * sizeof(struct robots_rule) + r->pool_len + 1;
}

size_t robots_rule_count(const struct robots *r)
{
	return r->nrules;
}

void robots_free(struct robots *r)
{
	free(r);
}

/* Serialized form, little-endian: "TRB1", mode (1 byte), crawl delay in ms
 * (8 bytes, two's complement), rule count (4 bytes), then per rule: allow
 * (1 byte), pattern length (4 bytes), the normalised pattern. */
static const char robots_magic[4] = {'T', 'R', 'B', '1'};

static void robots_put_le(struct buf *out, uint64_t v, int bytes)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < bytes; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	buf_append(out, b, (size_t)bytes);
}

static uint64_t robots_get_le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int robots_serialize(const struct robots *r, struct buf *out)
{
	size_t i;

	buf_append(out, robots_magic, sizeof(robots_magic));
	buf_appendc(out, (char)r->mode);
	robots_put_le(out, (uint64_t)r->delay_ms, 8);
	robots_put_le(out, (uint64_t)r->nrules, 4);
	for (i = 0; i < r->nrules; i++) {
		buf_appendc(out, (char)r->rules[i].allow);
		robots_put_le(out, r->rules[i].len, 4);
		buf_append(out, r->rules[i].pat, r->rules[i].len);
	}
	return 0;
}

struct robots *robots_deserialize(const char *data, size_t len)
{
	const unsigned char *p = (const unsigned char *)data;
	struct robots_pending *v = NULL;
	struct robots *r = NULL;
	size_t off = sizeof(robots_magic) + 1 + 8 + 4;
	uint64_t n, i;
	int64_t delay;
	int mode;

	if (data == NULL || len < off || memcmp(p, robots_magic, sizeof(robots_magic)) != 0)
		return NULL;
	mode = p[4];
	delay = (int64_t)robots_get_le(p + 5, 8);
	n = robots_get_le(p + 13, 4);
	if (mode > ROBOTS_MODE_DISALLOW_ALL || delay < -1 || delay > ROBOTS_MAX_CRAWL_DELAY_MS ||
	    n > (len - off) / 5 || (mode == ROBOTS_MODE_DISALLOW_ALL && n > 0))
		return NULL;
	v = xmalloc((n > 0 ? n : 1) * sizeof(*v));
	for (i = 0; i < n; i++) {
		uint64_t plen;

		if (len - off < 5 || p[off] > 1)
			goto out;
		plen = robots_get_le(p + off + 1, 4);
		off += 5;
		if (plen == 0 || plen > len - off)
			goto out;
		v[i].allow = p[off - 5];
		v[i].off = off;
		v[i].len = (uint32_t)plen;
		off += plen;
	}
	if (off == len)
		r = robots_build(mode, delay, v, (size_t)n, data);
out:
	free(v);
	return r;
}
