/* The WHATWG basic URL parser, cut down to the special schemes http and
 * https, writing the serialized href as it goes instead of building a record
 * and serializing it afterwards: the path is kept in the output buffer as
 * "/seg/seg", so popping a segment for ".." is a truncation. Host parsing is
 * in urlhost.c. See url.h for why this is written by hand. */
#include <stdlib.h>
#include <string.h>
#include "lib/url.h"
#include "lib/urlhost.h"
#include "lib/xmalloc.h"

/* Percent-encode sets of the standard, as bits: a byte is escaped in a
 * component when its bit for that component is set. Every set includes the
 * C0 controls, DEL and all non-ASCII bytes. The path set follows Node 20
 * (ada 2.9), which does not yet escape '^' in paths. */
enum { URL_F = 1, URL_Q = 2, URL_P = 4, URL_U = 8, URL_ALL = 15 };

static const unsigned char url_encode_set[256] = {
    [0x00 ... 0x20] = URL_ALL,
    ['"'] = URL_ALL,
    ['#'] = URL_Q | URL_P | URL_U,
    ['\''] = URL_Q,
    ['/'] = URL_U,
    [':'] = URL_U,
    [';'] = URL_U,
    ['<'] = URL_ALL,
    ['='] = URL_U,
    ['>'] = URL_ALL,
    ['?'] = URL_P | URL_U,
    ['@'] = URL_U,
    ['['] = URL_U,
    ['\\'] = URL_U,
    [']'] = URL_U,
    ['^'] = URL_U,
    ['`'] = URL_F | URL_P | URL_U,
    ['{'] = URL_P | URL_U,
    ['|'] = URL_U,
    ['}'] = URL_P | URL_U,
    [0x7f ... 0xff] = URL_ALL,
};

static const char url_hex[] = "0123456789ABCDEF";

static void url_encode(struct buf *out, const char *s, size_t n, unsigned set)
{
	size_t i;

	buf_reserve(out, n);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (url_encode_set[c] & set) {
			char e[3] = {'%', url_hex[c >> 4], url_hex[c & 15]};

			buf_append(out, e, 3);
		} else {
			buf_appendc(out, (char)c);
		}
	}
}

static int url_is_slash(int c)
{
	return c == '/' || c == '\\';
}

static int url_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c | 0x20 : c;
}

static void url_truncate(struct buf *out, size_t len)
{
	out->len = len;
	if (out->data)
		out->data[len] = '\0';
}

/* "%2e" in any case, at s. */
static int url_is_pct2e(const char *s)
{
	return s[0] == '%' && s[1] == '2' && url_lower((unsigned char)s[2]) == 'e';
}

static int url_is_single_dot(const char *s, size_t n)
{
	return (n == 1 && s[0] == '.') || (n == 3 && url_is_pct2e(s));
}

static int url_is_double_dot(const char *s, size_t n)
{
	if (n == 2)
		return s[0] == '.' && s[1] == '.';
	if (n == 4)
		return (s[0] == '.' && url_is_pct2e(s + 1)) || (url_is_pct2e(s) && s[3] == '.');
	if (n == 6)
		return url_is_pct2e(s) && url_is_pct2e(s + 3);
	return 0;
}

/* Drops the last path segment, if any, of the path starting at path_off. */
static void url_shorten(struct buf *out, size_t path_off)
{
	size_t i = out->len;

	while (i > path_off && out->data[i - 1] != '/')
		i--;
	if (i > path_off)
		url_truncate(out, i - 1);
}

static void url_parse_rest(const char *s, size_t n, size_t i, struct buf *out);

/* Path state, then query and fragment states, from s[i] to the end. */
static void url_parse_path(const char *s, size_t n, size_t i, size_t path_off, struct buf *out)
{
	for (;;) {
		size_t seg = out->len, j = i;
		const char *text;
		size_t tlen;
		int slash;

		while (j < n && !url_is_slash(s[j]) && s[j] != '?' && s[j] != '#')
			j++;
		buf_appendc(out, '/');
		url_encode(out, s + i, j - i, URL_P);
		slash = j < n && url_is_slash(s[j]);
		text = out->data + seg + 1;
		tlen = out->len - seg - 1;
		if (url_is_double_dot(text, tlen)) {
			url_truncate(out, seg);
			url_shorten(out, path_off);
			if (!slash)
				buf_appendc(out, '/');
		} else if (url_is_single_dot(text, tlen)) {
			url_truncate(out, seg);
			if (!slash)
				buf_appendc(out, '/');
		}
		i = j;
		if (!slash)
			break;
		i++;
	}
	url_parse_rest(s, n, i, out);
}

/* Query and fragment states, from s[i] ('?', '#' or the end). */
static void url_parse_rest(const char *s, size_t n, size_t i, struct buf *out)
{
	if (i < n && s[i] == '?') {
		size_t j = ++i;

		while (j < n && s[j] != '#')
			j++;
		buf_appendc(out, '?');
		url_encode(out, s + i, j - i, URL_Q);
		i = j;
	}
	if (i < n && s[i] == '#') {
		buf_appendc(out, '#');
		url_encode(out, s + i + 1, n - i - 1, URL_F);
	}
}

/* Authority state and host state, with the scheme already chosen: from the
 * slashes after "http:" to the end of the input. */
static int url_parse_authority(const char *s, size_t n, size_t i, int https, struct buf *out)
{
	size_t end, at = (size_t)-1, hs, hp, k, colon = (size_t)-1, ustart;
	int brackets = 0, ip;
	long port = 0;

	buf_appends(out, https ? "https://" : "http://");
	while (i < n && url_is_slash(s[i]))
		i++;
	for (end = i; end < n && !url_is_slash(s[end]) && s[end] != '?' && s[end] != '#'; end++)
		if (s[end] == '@')
			at = end;
	hs = i;
	if (at != (size_t)-1) {
		if (at + 1 == end)
			return URL_EINVAL;
		for (k = i; k < at; k++)
			if (s[k] == ':') {
				colon = k;
				break;
			}
		ustart = out->len;
		url_encode(out, s + i, (colon != (size_t)-1 ? colon : at) - i, URL_U);
		if (colon != (size_t)-1 && at - colon > 1) {
			buf_appendc(out, ':');
			url_encode(out, s + colon + 1, at - colon - 1, URL_U);
		}
		if (out->len > ustart)
			buf_appendc(out, '@');
		hs = at + 1;
	}
	for (hp = hs; hp < end; hp++) {
		if (s[hp] == '[')
			brackets = 1;
		else if (s[hp] == ']')
			brackets = 0;
		else if (s[hp] == ':' && !brackets)
			break;
	}
	if (hp == hs || urlhost_parse(s + hs, hp - hs, out, &ip) < 0)
		return URL_EINVAL;
	if (hp < end) {
		size_t digits = 0;

		for (k = hp + 1; k < end; k++) {
			if (s[k] < '0' || s[k] > '9')
				return URL_EINVAL;
			port = port * 10 + (s[k] - '0');
			if (port > 65535)
				return URL_EINVAL;
			digits++;
		}
		if (digits > 0 && port != (https ? 443 : 80))
			url_append_port(out, (int)port);
	}
	i = end;
	if (i < n && url_is_slash(s[i]))
		i++;
	url_parse_path(s, n, i, out->len, out);
	return 0;
}

/* Relative state: s has no scheme, or the base's scheme. */
static int url_parse_relative(
    const char *s, size_t n, size_t i, const char *bh, const struct url_parts *bp, struct buf *out)
{
	size_t path_end = bp->path_off + bp->path_len;
	size_t query_end = bp->has_query ? bp->query_off + bp->query_len : path_end;

	if (i < n && url_is_slash(s[i])) {
		if (i + 1 < n && url_is_slash(s[i + 1]))
			return url_parse_authority(s, n, i + 2, bp->https, out);
		buf_append(out, bh, bp->path_off);
		url_parse_path(s, n, i + 1, bp->path_off, out);
		return 0;
	}
	if (i >= n) {
		buf_append(out, bh, query_end);
	} else if (s[i] == '?') {
		buf_append(out, bh, path_end);
		url_parse_rest(s, n, i, out);
	} else if (s[i] == '#') {
		buf_append(out, bh, query_end);
		url_parse_rest(s, n, i, out);
	} else {
		buf_append(out, bh, path_end);
		url_shorten(out, bp->path_off);
		url_parse_path(s, n, i, bp->path_off, out);
	}
	return 0;
}

/* Scheme state: an http(s) scheme equal to the base's makes the rest
 * relative ("http:foo"); any other scheme is refused. */
static int url_parse(
    const char *s, size_t n, const char *bh, const struct url_parts *bp, struct buf *out)
{
	size_t k = 0;
	int https;

	if (n > 0 && ((s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z')) {
		k = 1;
		while (k < n &&
		    (((s[k] | 0x20) >= 'a' && (s[k] | 0x20) <= 'z') ||
			(s[k] >= '0' && s[k] <= '9') || s[k] == '+' || s[k] == '-' || s[k] == '.'))
			k++;
		if (k >= n || s[k] != ':')
			k = 0;
	}
	if (k > 0) {
		if (k == 4 && strncasecmp(s, "http", 4) == 0)
			https = 0;
		else if (k == 5 && strncasecmp(s, "https", 5) == 0)
			https = 1;
		else
			return URL_ESCHEME;
		if (bp != NULL && bp->https == https)
			return url_parse_relative(s, n, k + 1, bh, bp, out);
		return url_parse_authority(s, n, k + 1, https, out);
	}
	if (bp == NULL)
		return URL_EINVAL;
	return url_parse_relative(s, n, 0, bh, bp, out);
}

/* Strips leading and trailing C0 controls and spaces and removes every tab
 * and newline, as the standard does before parsing. Copies at most
 * URL_MAX_LEN + 1 bytes so that a huge data: URL costs nothing. */
static size_t url_clean(const char *ref, size_t len, char *dst)
{
	size_t b = 0, e = len, n = 0, i;

	while (b < e && (unsigned char)ref[b] <= 0x20)
		b++;
	while (e > b && (unsigned char)ref[e - 1] <= 0x20)
		e--;
	for (i = b; i < e && n <= URL_MAX_LEN; i++)
		if (ref[i] != '\t' && ref[i] != '\n' && ref[i] != '\r')
			dst[n++] = ref[i];
	return n;
}

int url_resolve_parsed(
    const char *base, const struct url_parts *bp, const char *ref, size_t len, struct buf *out)
{
	char stack[1024], *s;
	size_t n, cap = len < URL_MAX_LEN ? len + 1 : URL_MAX_LEN + 2;
	int rc;

	buf_reset(out);
	s = cap <= sizeof(stack) ? stack : xmalloc(cap);
	n = url_clean(ref, len, s);
	/* Parsing sees at most URL_MAX_LEN + 1 bytes: enough to reject a
	 * non-http scheme, and anything longer is refused below. */
	rc = url_parse(s, n, base, bp, out);
	if (rc == 0 && (n > URL_MAX_LEN || out->len > URL_MAX_LEN))
		rc = URL_ETOOLONG;
	if (s != stack)
		free(s);
	if (rc < 0)
		url_truncate(out, 0);
	return rc;
}

int url_resolve(const char *base, const char *ref, size_t len, struct buf *out)
{
	struct buf b = BUF_INIT;
	struct url_parts bp;
	int rc;

	if (base == NULL)
		return url_resolve_parsed(NULL, NULL, ref, len, out);
	rc = url_resolve_parsed(NULL, NULL, base, strlen(base), &b);
	if (rc == 0 && url_split(b.data, &bp) == 0)
		rc = url_resolve_parsed(b.data, &bp, ref, len, out);
	else
		rc = url_resolve_parsed(NULL, NULL, ref, len, out);
	buf_free(&b);
	return rc;
}

void url_append_port(struct buf *out, int port)
{
	buf_appendc(out, ':');
	buf_appendu(out, (uint64_t)(port < 0 ? 0 : port));
}

int url_split(const char *href, struct url_parts *p)
{
	const char *s = href, *a, *e, *h, *q;
	size_t k;

	memset(p, 0, sizeof(*p));
	if (strncmp(s, "http://", 7) == 0) {
		p->scheme_len = 4;
	} else if (strncmp(s, "https://", 8) == 0) {
		p->scheme_len = 5;
		p->https = 1;
	} else {
		return URL_EINVAL;
	}
	a = s + p->scheme_len + 3;
	e = a + strcspn(a, "/?#");
	if (*e != '/')
		return URL_EINVAL;
	p->user_off = (size_t)(a - s);
	for (h = e; h > a && h[-1] != '@'; h--)
		;
	if (h > a)
		p->user_len = (size_t)(h - 1 - a);
	p->host_off = (size_t)(h - s);
	if (*h == '[') {
		q = memchr(h, ']', (size_t)(e - h));
		if (q == NULL)
			return URL_EINVAL;
		q++;
		p->host_ip = 6;
	} else {
		q = memchr(h, ':', (size_t)(e - h));
		if (q == NULL)
			q = e;
	}
	p->host_len = (size_t)(q - h);
	if (p->host_len == 0)
		return URL_EINVAL;
	p->port = p->https ? 443 : 80;
	if (q < e) {
		long port = 0;

		if (*q != ':' || q + 1 == e || e - q > 6)
			return URL_EINVAL;
		for (q++; q < e; q++) {
			if (*q < '0' || *q > '9')
				return URL_EINVAL;
			port = port * 10 + (*q - '0');
		}
		if (port > 65535)
			return URL_EINVAL;
		p->port = (int)port;
		p->has_port = 1;
	}
	if (p->host_ip == 0) {
		int dots = 0, digits = 1;

		for (k = 0; k < p->host_len; k++) {
			char c = s[p->host_off + k];

			if (c == '.')
				dots++;
			else if (c < '0' || c > '9')
				digits = 0;
		}
		if (digits && dots == 3)
			p->host_ip = 4;
	}
	p->path_off = (size_t)(e - s);
	p->path_len = strcspn(e, "?#");
	q = e + p->path_len;
	if (*q == '?') {
		p->has_query = 1;
		p->query_off = (size_t)(q + 1 - s);
		p->query_len = strcspn(q + 1, "#");
		q += 1 + p->query_len;
	}
	if (*q == '#') {
		p->has_frag = 1;
		p->frag_off = (size_t)(q + 1 - s);
		p->frag_len = strlen(q + 1);
	}
	return 0;
}

void url_request_target(const char *href, const struct url_parts *p, struct buf *out)
{
	buf_reset(out);
	buf_append(out, href + p->path_off, p->path_len);
	if (p->has_query) {
		buf_appendc(out, '?');
		buf_append(out, href + p->query_off, p->query_len);
	}
}
