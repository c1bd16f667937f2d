/* RFC 6265 cookies: parsing, matching, cookies.txt lines, store records. */
#include <libpsl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/buf.h"
#include "lib/cookie.h"
#include "lib/isodate.h"
#include "lib/xmalloc.h"

#define COOKIE_RECORD_VERSION 1
/* Far enough in the future for any date the cookie-date algorithm reads
 * (year 9999), and far from overflowing int64 milliseconds. */
#define COOKIE_MAX_MS 253402300799000LL
#define COOKIE_MIN_MS (-11644473600000LL) /* 1601-01-01, the earliest date */

static int cookie_wsp(char c)
{
	return c == ' ' || c == '\t';
}

static void cookie_trim(const char **s, size_t *n)
{
	while (*n > 0 && cookie_wsp(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && cookie_wsp((*s)[*n - 1]))
		(*n)--;
}

/* A control byte other than a tab: refused in names and values, since a
 * Cookie header carrying it could split the request (RFC 6265bis 5.6). */
static int cookie_has_ctl(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 1;
	}
	return 0;
}

static char *cookie_lower_dup(const char *s, size_t n)
{
	char *d = xstrndup(s, n);
	size_t i;

	for (i = 0; i < n; i++)
		if (d[i] >= 'A' && d[i] <= 'Z')
			d[i] = (char)(d[i] - 'A' + 'a');
	return d;
}

void cookie_clear(struct cookie *c)
{
	free(c->name);
	free(c->value);
	free(c->domain);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

void cookie_copy(struct cookie *dst, const struct cookie *src)
{
	*dst = *src;
	dst->name = xstrdup(src->name);
	dst->value = xstrdup(src->value);
	dst->domain = xstrdup(src->domain);
	dst->path = xstrdup(src->path);
}

/* The cookie-date delimiters of section 5.1.1. */
static int cookie_date_delim(unsigned char c)
{
	return c == 0x09 || (c >= 0x20 && c <= 0x2f) || (c >= 0x3b && c <= 0x40) ||
	    (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

static int cookie_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* 1 to max digits at t, then the end of the token or a non-digit: the
 * number in *v and how many digits, or 0. */
static size_t cookie_digits(const char *t, size_t n, size_t min, size_t max, int *v)
{
	size_t i = 0;

	*v = 0;
	while (i < n && i < max && cookie_digit(t[i]))
		*v = *v * 10 + (t[i++] - '0');
	if (i < min || (i < n && cookie_digit(t[i])))
		return 0;
	return i;
}

static int cookie_date_time(const char *t, size_t n, int *h, int *m, int *s)
{
	size_t i, k;

	if ((k = cookie_digits(t, n, 1, 2, h)) == 0 || k >= n || t[k] != ':')
		return -1;
	i = k + 1;
	if ((k = cookie_digits(t + i, n - i, 1, 2, m)) == 0 || i + k >= n || t[i + k] != ':')
		return -1;
	i += k + 1;
	if (cookie_digits(t + i, n - i, 1, 2, s) == 0)
		return -1;
	return 0;
}

int cookie_date_parse(const char *s, size_t n, int64_t *ms)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int have_time = 0, have_day = 0, have_month = 0, have_year = 0;
	int h = 0, mi = 0, se = 0, day = 0, mon = 0, year = 0, v, a, b, c;
	size_t i = 0, j;

	while (i < n) {
		while (i < n && cookie_date_delim((unsigned char)s[i]))
			i++;
		j = i;
		while (j < n && !cookie_date_delim((unsigned char)s[j]))
			j++;
		if (j == i)
			break;
		if (!have_time && cookie_date_time(s + i, j - i, &a, &b, &c) == 0) {
			have_time = 1;
			h = a;
			mi = b;
			se = c;
		} else if (!have_day && cookie_digits(s + i, j - i, 1, 2, &v) > 0) {
			have_day = 1;
			day = v;
		} else if (!have_month && j - i >= 3) {
			int k;
			for (k = 0; k < 12; k++)
				if (strncasecmp(s + i, months + 3 * k, 3) == 0)
					break;
			if (k < 12) {
				have_month = 1;
				mon = k + 1;
			} else if (!have_year && cookie_digits(s + i, j - i, 2, 4, &v) > 0) {
				have_year = 1;
				year = v;
			}
		} else if (!have_year && cookie_digits(s + i, j - i, 2, 4, &v) > 0) {
			have_year = 1;
			year = v;
		}
		i = j;
	}
	if (have_year && year >= 70 && year <= 99)
		year += 1900;
	else if (have_year && year >= 0 && year <= 69)
		year += 2000;
	if (!have_time || !have_day || !have_month || !have_year)
		return -1;
	if (day < 1 || day > mdays[mon - 1] || year < 1601 || h > 23 || mi > 59 || se > 59)
		return -1;
	if (mon == 2 && day == 29 && !((year % 4 == 0 && year % 100 != 0) || year % 400 == 0))
		return -1;
	*ms = (isodate_days(year, mon, day) * 86400 + h * 3600 + mi * 60 + se) * 1000;
	return 0;
}

int cookie_domain_match(const char *host, int host_ip, const char *domain)
{
	size_t hl = strlen(host), dl = strlen(domain);

	if (strcmp(host, domain) == 0)
		return 1;
	if (host_ip || dl == 0 || hl <= dl)
		return 0;
	return host[hl - dl - 1] == '.' && strcmp(host + hl - dl, domain) == 0;
}

int cookie_path_match(const char *path, size_t n, const char *cpath)
{
	size_t cl = strlen(cpath);

	if (n == 0) {
		path = "/";
		n = 1;
	}
	if (n < cl || memcmp(path, cpath, cl) != 0)
		return 0;
	return n == cl || cpath[cl - 1] == '/' || path[cl] == '/';
}

void cookie_default_path(const char *path, size_t n, struct buf *out)
{
	size_t last = n;

	buf_reset(out);
	if (n == 0 || path[0] != '/') {
		buf_appendc(out, '/');
		return;
	}
	while (last > 0 && path[last - 1] != '/')
		last--;
	/* last is one past the rightmost '/'; the first one alone gives "/". */
	if (last <= 1)
		buf_appendc(out, '/');
	else
		buf_append(out, path, last - 1);
}

int cookie_expired(const struct cookie *c, int64_t now_ms)
{
	return c->persistent && c->expires_ms <= now_ms;
}

int cookie_matches(const struct cookie *c, const struct cookie_origin *o, int64_t now_ms)
{
	if (cookie_expired(c, now_ms) || (c->secure && !o->https))
		return 0;
	if (c->host_only ? strcmp(o->host, c->domain) != 0
			 : !cookie_domain_match(o->host, o->host_ip, c->domain))
		return 0;
	return cookie_path_match(o->path, o->path_len, c->path);
}

int cookie_public_suffix(const char *domain)
{
	const psl_ctx_t *psl = psl_builtin();

	/* Without the built-in list every domain is taken for one, so that
	 * no cookie spans a registry by mistake (cookies stay host-only). */
	if (psl == NULL)
		return 1;
	return psl_is_public_suffix2(psl, domain, PSL_TYPE_ANY) != 0;
}

/* Section 5.3 steps 5 and 6: the cookie's domain and host-only flag from
 * its Domain attribute (dom NULL: none). */
static int cookie_set_domain(
    struct cookie *c, char *dom, const struct cookie_origin *o, const char **why)
{
	if (dom != NULL && cookie_public_suffix(dom)) {
		if (strcmp(dom, o->host) != 0) {
			free(dom);
			*why = "its Domain is a public suffix";
			return -1;
		}
		free(dom);
		dom = NULL;
	}
	if (dom != NULL) {
		if (!cookie_domain_match(o->host, o->host_ip, dom)) {
			free(dom);
			*why = "its Domain does not include the host";
			return -1;
		}
		c->domain = dom;
		/* An address names one server: never a family of them. */
		c->host_only = o->host_ip != 0;
	} else {
		c->domain = xstrdup(o->host);
		c->host_only = 1;
	}
	return 0;
}

int cookie_parse(const char *s, size_t n, const struct cookie_origin *o, int64_t now_ms,
    struct cookie *out, const char **why)
{
	const char *nv = s, *eq, *semi;
	size_t nvlen, nl, vl;
	char *dom = NULL, *path = NULL;
	int have_max_age = 0, have_expires = 0;
	int64_t max_age_ms = 0, expires_ms = 0;
	struct buf b;

	memset(out, 0, sizeof(*out));
	if (n > COOKIE_MAX_BYTES) {
		*why = "it is larger than 4096 bytes";
		return -1;
	}
	semi = memchr(s, ';', n);
	nvlen = semi != NULL ? (size_t)(semi - s) : n;
	eq = memchr(nv, '=', nvlen);
	if (eq == NULL) {
		*why = "it has no name=value";
		return -1;
	}
	{
		const char *name = nv, *value = eq + 1;
		nl = (size_t)(eq - nv);
		vl = nvlen - nl - 1;
		cookie_trim(&name, &nl);
		cookie_trim(&value, &vl);
		if (nl == 0) {
			*why = "its name is empty";
			return -1;
		}
		if (cookie_has_ctl(name, nl) || cookie_has_ctl(value, vl)) {
			*why = "it holds a control character";
			return -1;
		}
		out->name = xstrndup(name, nl);
		out->value = xstrndup(value, vl);
	}
	while (semi != NULL) {
		const char *av = semi + 1, *an, *val = "";
		size_t avlen, anl, vlen = 0;

		semi = memchr(av, ';', (size_t)(s + n - av));
		avlen = semi != NULL ? (size_t)(semi - av) : (size_t)(s + n - av);
		an = av;
		eq = memchr(av, '=', avlen);
		anl = eq != NULL ? (size_t)(eq - av) : avlen;
		if (eq != NULL) {
			val = eq + 1;
			vlen = avlen - anl - 1;
		}
		cookie_trim(&an, &anl);
		cookie_trim(&val, &vlen);
		if (anl == 7 && strncasecmp(an, "expires", 7) == 0) {
			int64_t t;
			if (cookie_date_parse(val, vlen, &t) == 0) {
				have_expires = 1;
				expires_ms = t;
			}
		} else if (anl == 7 && strncasecmp(an, "max-age", 7) == 0) {
			size_t i = vlen > 0 && val[0] == '-' ? 1 : 0;
			int64_t d = 0;
			if (vlen == i)
				continue;
			for (; i < vlen && cookie_digit(val[i]); i++)
				if (d < COOKIE_MAX_MS / 1000)
					d = d * 10 + (val[i] - '0');
			if (i < vlen)
				continue;
			have_max_age = 1;
			if (val[0] == '-' || d == 0)
				max_age_ms = COOKIE_MIN_MS;
			else
				max_age_ms = now_ms +
				    (d > (COOKIE_MAX_MS - now_ms) / 1000 ? COOKIE_MAX_MS - now_ms
									 : d * 1000);
		} else if (anl == 6 && strncasecmp(an, "domain", 6) == 0) {
			if (vlen == 0)
				continue;
			if (val[0] == '.') {
				val++;
				vlen--;
			}
			free(dom);
			dom = cookie_lower_dup(val, vlen);
		} else if (anl == 4 && strncasecmp(an, "path", 4) == 0) {
			free(path);
			path = vlen > 0 && val[0] == '/' ? xstrndup(val, vlen) : NULL;
		} else if (anl == 6 && strncasecmp(an, "secure", 6) == 0) {
			out->secure = 1;
		} else if (anl == 8 && strncasecmp(an, "httponly", 8) == 0) {
			out->http_only = 1;
		}
	}
	if (have_max_age) {
		out->persistent = 1;
		out->expires_ms = max_age_ms;
	} else if (have_expires) {
		out->persistent = 1;
		out->expires_ms = expires_ms;
	}
	if (dom != NULL && (dom[0] == '\0' || cookie_has_ctl(dom, strlen(dom)))) {
		free(dom);
		dom = NULL;
	}
	if (cookie_set_domain(out, dom, o, why) < 0) {
		free(path);
		cookie_clear(out);
		return -1;
	}
	if (path == NULL) {
		buf_init(&b);
		cookie_default_path(o->path, o->path_len, &b);
		path = buf_steal(&b);
	} else if (cookie_has_ctl(path, strlen(path))) {
		free(path);
		cookie_clear(out);
		*why = "it holds a control character";
		return -1;
	}
	out->path = path;
	out->created_ms = (uint64_t)(now_ms > 0 ? now_ms : 0);
	return 0;
}

/* Splits a cookies.txt line at its tabs: the number of fields (at most
 * max; max + 1 when there are more). */
static size_t cookie_fields(const char *line, size_t n, const char **f, size_t *fl, size_t max)
{
	size_t k = 0, start = 0, i;

	for (i = 0; i <= n; i++) {
		if (i < n && line[i] != '\t')
			continue;
		if (k == max)
			return max + 1;
		f[k] = line + start;
		fl[k++] = i - start;
		start = i + 1;
	}
	return k;
}

static int cookie_bool_field(const char *f, size_t n, int *v)
{
	if (n == 4 && strncasecmp(f, "true", 4) == 0)
		*v = 1;
	else if (n == 5 && strncasecmp(f, "false", 5) == 0)
		*v = 0;
	else
		return -1;
	return 0;
}

int cookie_from_netscape(
    const char *line, size_t n, int64_t now_ms, struct cookie *out, const char **why)
{
	const char *f[7];
	size_t fl[7], k;
	int sub, secure, http_only = 0;
	int64_t exp = 0;

	memset(out, 0, sizeof(*out));
	while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == '\n'))
		n--;
	if (n >= 10 && memcmp(line, "#HttpOnly_", 10) == 0) {
		http_only = 1;
		line += 10;
		n -= 10;
	} else {
		size_t i = 0;
		while (i < n && cookie_wsp(line[i]))
			i++;
		if (i == n || line[i] == '#')
			return 1;
	}
	if (n > COOKIE_MAX_BYTES) {
		*why = "the line is longer than 4096 bytes";
		return -1;
	}
	k = cookie_fields(line, n, f, fl, 7);
	/* A cookie with an empty value may have lost its last tab. */
	if (k == 6) {
		f[6] = line + n;
		fl[6] = 0;
	} else if (k != 7) {
		*why = "a cookie line has seven tab-separated fields";
		return -1;
	}
	if (fl[0] == 0 || fl[5] == 0) {
		*why = "the domain or the name is empty";
		return -1;
	}
	if (cookie_bool_field(f[1], fl[1], &sub) < 0 ||
	    cookie_bool_field(f[3], fl[3], &secure) < 0) {
		*why = "the second and fourth fields are TRUE or FALSE";
		return -1;
	}
	if (fl[4] == 0 || fl[4] > 18) {
		*why = "the expiry is not a number of seconds";
		return -1;
	}
	for (k = 0; k < fl[4]; k++) {
		if (!cookie_digit(f[4][k])) {
			*why = "the expiry is not a number of seconds";
			return -1;
		}
		exp = exp * 10 + (f[4][k] - '0');
	}
	if (fl[2] == 0 || f[2][0] != '/') {
		*why = "the path does not start with /";
		return -1;
	}
	if (cookie_has_ctl(f[0], fl[0]) || cookie_has_ctl(f[2], fl[2]) ||
	    cookie_has_ctl(f[5], fl[5]) || cookie_has_ctl(f[6], fl[6])) {
		*why = "it holds a control character";
		return -1;
	}
	if (f[0][0] == '.') {
		f[0]++;
		fl[0]--;
		sub = 1;
	}
	out->domain = cookie_lower_dup(f[0], fl[0]);
	if (out->domain[0] == '\0' || (sub && cookie_public_suffix(out->domain))) {
		cookie_clear(out);
		*why = "its domain is a public suffix";
		return -1;
	}
	out->host_only = !sub;
	out->path = xstrndup(f[2], fl[2]);
	out->secure = (unsigned char)secure;
	out->http_only = (unsigned char)http_only;
	if (exp > 0) {
		out->persistent = 1;
		out->expires_ms = exp > COOKIE_MAX_MS / 1000 ? COOKIE_MAX_MS : exp * 1000;
	}
	out->name = xstrndup(f[5], fl[5]);
	out->value = xstrndup(f[6], fl[6]);
	out->created_ms = (uint64_t)(now_ms > 0 ? now_ms : 0);
	return 0;
}

static void cookie_put_varint(struct buf *out, uint64_t v)
{
	while (v >= 0x80) {
		buf_appendc(out, (char)(v | 0x80));
		v >>= 7;
	}
	buf_appendc(out, (char)v);
}

static void cookie_put_str(struct buf *out, const char *s)
{
	size_t n = strlen(s);

	cookie_put_varint(out, n);
	buf_append(out, s, n);
}

void cookie_encode(struct buf *out, const struct cookie *c)
{
	uint64_t e = (uint64_t)c->expires_ms;

	buf_appendc(out, COOKIE_RECORD_VERSION);
	cookie_put_str(out, c->name);
	cookie_put_str(out, c->value);
	cookie_put_str(out, c->domain);
	cookie_put_str(out, c->path);
	/* zigzag: a Max-Age of 0 or less stores a time before the epoch */
	cookie_put_varint(out, (e << 1) ^ (uint64_t)(c->expires_ms >> 63));
	cookie_put_varint(out, c->created_ms);
	buf_appendc(
	    out, (char)(c->persistent | c->host_only << 1 | c->secure << 2 | c->http_only << 3));
}

static int cookie_get_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		unsigned char b = *(*p)++;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
	}
	return -1;
}

static int cookie_get_str(const unsigned char **p, const unsigned char *end, char **s)
{
	uint64_t n;

	if (cookie_get_varint(p, end, &n) < 0 || n > (uint64_t)(end - *p))
		return -1;
	if (memchr(*p, '\0', (size_t)n) != NULL)
		return -1;
	*s = xstrndup((const char *)*p, (size_t)n);
	*p += n;
	return 0;
}

int cookie_decode(const char *v, size_t n, struct cookie *out)
{
	const unsigned char *p = (const unsigned char *)v, *end = p + n;
	uint64_t e, cr;
	unsigned flags;

	memset(out, 0, sizeof(*out));
	if (n < 1 || *p++ != COOKIE_RECORD_VERSION)
		return -1;
	if (cookie_get_str(&p, end, &out->name) < 0 || cookie_get_str(&p, end, &out->value) < 0 ||
	    cookie_get_str(&p, end, &out->domain) < 0 || cookie_get_str(&p, end, &out->path) < 0 ||
	    cookie_get_varint(&p, end, &e) < 0 || cookie_get_varint(&p, end, &cr) < 0 ||
	    p + 1 != end || (*p & ~0xfu) != 0 || out->name[0] == '\0' || out->domain[0] == '\0' ||
	    out->path[0] != '/')
		goto bad;
	flags = *p;
	out->expires_ms = (int64_t)(e >> 1) ^ -(int64_t)(e & 1);
	out->created_ms = cr;
	out->persistent = flags & 1;
	out->host_only = (flags >> 1) & 1;
	out->secure = (flags >> 2) & 1;
	out->http_only = (flags >> 3) & 1;
	return 0;
bad:
	cookie_clear(out);
	return -1;
}
