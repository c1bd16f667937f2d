/* Heritrix's default canonicalization rules, each a regular expression in
 * Heritrix, written here as plain scans that give the same result: "^(.+)X"
 * with a greedy group means "the last place where X matches", which is what
 * canon_find_last looks for. All scans are linear in the length of the URI. */
#include <string.h>
#include <strings.h>
#include "lib/canon.h"
#include "lib/config.h"
#include "lib/url.h"

unsigned canon_flags(const struct config *cfg)
{
	unsigned f = 0;

	if (config_bool(cfg, CK_CANON_LOWERCASE))
		f |= CANON_LOWERCASE;
	if (config_bool(cfg, CK_CANON_STRIP_USERINFO))
		f |= CANON_STRIP_USERINFO;
	if (config_bool(cfg, CK_CANON_STRIP_WWW))
		f |= CANON_STRIP_WWW;
	if (config_bool(cfg, CK_CANON_STRIP_SESSION_IDS))
		f |= CANON_STRIP_SESSION_IDS;
	if (config_bool(cfg, CK_CANON_STRIP_CFIDS))
		f |= CANON_STRIP_CFIDS;
	if (config_bool(cfg, CK_CANON_FIXUP_QUERY))
		f |= CANON_FIXUP_QUERY;
	return f;
}

static int canon_is_alpha(int c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

static int canon_is_alnum(int c)
{
	return canon_is_alpha(c) || (c >= '0' && c <= '9');
}

/* Counts exactly n characters of a class at s, within len. */
static int canon_run(const char *s, size_t len, size_t n, int (*cls)(int))
{
	size_t i;

	if (len < n)
		return 0;
	for (i = 0; i < n; i++)
		if (!cls((unsigned char)s[i]))
			return 0;
	return 1;
}

static int canon_prefix(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len >= n && strncasecmp(s, word, n) == 0;
}

/* Length of a session id at s that Heritrix's pattern number which matches
 * (up to, not including, the '&' or the end that must follow), or 0. */
static size_t canon_session_id(const char *s, size_t len, int which)
{
	static const char first[] = "jsac";
	size_t n = 0;
	int c = s[0] | 0x20;

	/* Almost every position fails on its first letter: test it first. */
	if (c != first[which] && !(which == 0 && c == 'p'))
		return 0;
	switch (which) {
	case 0: /* (jsessionid|phpsessid)=[0-9a-zA-Z]{32} */
		if (canon_prefix(s, len, "jsessionid="))
			n = 11;
		else if (canon_prefix(s, len, "phpsessid="))
			n = 10;
		else
			return 0;
		if (!canon_run(s + n, len - n, 32, canon_is_alnum))
			return 0;
		n += 32;
		break;
	case 1: /* sid=[0-9a-zA-Z]{32} */
		if (!canon_prefix(s, len, "sid=") || !canon_run(s + 4, len - 4, 32, canon_is_alnum))
			return 0;
		n = 36;
		break;
	case 2: /* ASPSESSIONID[a-zA-Z]{8}=[a-zA-Z]{24} */
		if (!canon_prefix(s, len, "aspsessionid") ||
		    !canon_run(s + 12, len - 12, 8, canon_is_alpha) || len < 21 || s[20] != '=' ||
		    !canon_run(s + 21, len - 21, 24, canon_is_alpha))
			return 0;
		n = 45;
		break;
	default: /* cfid=[^&]+&cftoken=[^&]+ (a jsession= after it is
			 * inside the second [^&]+, so it changes nothing) */
		if (!canon_prefix(s, len, "cfid="))
			return 0;
		n = 5;
		while (n < len && s[n] != '&')
			n++;
		if (n == 5 || !canon_prefix(s + n, len - n, "&cftoken="))
			return 0;
		n += 9;
		if (n >= len || s[n] == '&')
			return 0;
		while (n < len && s[n] != '&')
			n++;
		break;
	}
	if (n < len && s[n] != '&')
		return 0;
	return n;
}

/* "^(.+)(?:ID)(?:&(.*))?$" -> "$1$2": removes the last matching id and the
 * '&' after it. Every id pattern has its '=' at a fixed distance from its
 * start (one of two for jsessionid= and phpsessid=), so only the places
 * that distance before an '=' can start one: walking the '='s from the end
 * meets those places from the last one down, as the greedy "^(.+)" does,
 * and a URI without '=' costs one scan. */
static void canon_strip_last(struct buf *b, int which)
{
	/* Distance from an id's start to its '=': the larger start first. */
	static const size_t eq_at[4][2] = {{9, 10}, {3, 3}, {20, 20}, {4, 4}};
	size_t e, i, n, k;

	for (e = b->len; e-- > 1;) {
		if (b->data[e] != '=')
			continue;
		for (k = 0; k < 2; k++) {
			if (e < eq_at[which][k] + 1)
				continue;
			i = e - eq_at[which][k];
			n = canon_session_id(b->data + i, b->len - i, which);
			if (n == 0)
				continue;
			if (i + n < b->len)
				n++;
			memmove(b->data + i, b->data + i + n, b->len - i - n + 1);
			b->len -= n;
			return;
		}
	}
}

static void canon_cut(struct buf *b, size_t at, size_t n)
{
	memmove(b->data + at, b->data + at + n, b->len - at - n + 1);
	b->len -= n;
}

/* FixupQueryString, on the last '?'. */
static void canon_fixup_query(struct buf *b)
{
	char *q = strrchr(b->data, '?');
	size_t i;

	if (q == NULL || q == b->data)
		return;
	i = (size_t)(q - b->data);
	if (i == b->len - 1)
		canon_cut(b, i, 1);
	else if (b->data[i + 1] == '&')
		canon_cut(b, i + 2 == b->len ? i : i + 1, i + 2 == b->len ? 2 : 1);
	else if (b->data[b->len - 1] == '&')
		canon_cut(b, b->len - 1, 1);
}

int canon_key(const char *href, unsigned flags, struct buf *out)
{
	struct url_parts p;

	if (url_split(href, &p) < 0) {
		buf_reset(out);
		return URL_EINVAL;
	}
	return canon_key_parts(href, &p, flags, out);
}

int canon_key_parts(const char *href, const struct url_parts *pp, unsigned flags, struct buf *out)
{
	const struct url_parts p = *pp;
	size_t i, auth;

	buf_reset(out);
	buf_append(out, href, p.scheme_len + 3);
	auth = out->len;
	if (p.user_len > 0 && !(flags & CANON_STRIP_USERINFO)) {
		buf_append(out, href + p.user_off, p.user_len);
		buf_appendc(out, '@');
	}
	buf_append(out, href + p.host_off, p.host_len);
	if (p.has_port && p.port != (p.https ? 443 : 80))
		url_append_port(out, p.port);
	buf_append(out, href + p.path_off, p.path_len);
	if (p.has_query) {
		buf_appendc(out, '?');
		buf_append(out, href + p.query_off, p.query_len);
	}
	if (flags & CANON_LOWERCASE)
		for (i = 0; i < out->len; i++)
			if (out->data[i] >= 'A' && out->data[i] <= 'Z')
				out->data[i] |= 0x20;
	/* StripWWWNRule: "www", digits, '.', then anything up to a '/' that
	 * has at least one character after it. With the userinfo kept the
	 * host does not follow "://", so (as in Heritrix) there is no match. */
	if ((flags & CANON_STRIP_WWW) && strncasecmp(out->data + auth, "www", 3) == 0) {
		size_t d = auth + 3;
		char *slash;

		while (d < out->len && out->data[d] >= '0' && out->data[d] <= '9')
			d++;
		slash = strchr(out->data + auth, '/');
		if (d < out->len && out->data[d] == '.' && slash != NULL && slash > out->data + d &&
		    slash[1] != '\0')
			canon_cut(out, auth, d + 1 - auth);
	}
	if ((flags & (CANON_STRIP_SESSION_IDS | CANON_STRIP_CFIDS)) &&
	    memchr(out->data, '=', out->len) != NULL) {
		if (flags & CANON_STRIP_SESSION_IDS)
			for (i = 0; i < 3; i++)
				canon_strip_last(out, (int)i);
		if (flags & CANON_STRIP_CFIDS)
			canon_strip_last(out, 3);
	}
	if (flags & CANON_FIXUP_QUERY)
		canon_fixup_query(out);
	return 0;
}
