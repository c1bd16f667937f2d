/* Host parsing of the WHATWG URL Standard for special schemes: IPv6 literals,
 * IPv4 in all its historical number forms (127.1, 0x7f.1, 017700000001,
 * 2130706433), and domains (percent-decoded, then UTS#46 to ASCII; an
 * all-ASCII domain is only lower-cased).
 *
 * IDNA goes through libidn2, but only for labels that need it: libidn2
 * applies IDNA2008's stricter rules (it refuses "ab--c" and symbols such as
 * U+2603), while browsers use UTS#46 with CheckHyphens off. So plain ASCII
 * labels of a domain that is not all ASCII are only lower-cased, and a label that libidn2 refuses as
 * nontransitional is retried as transitional, which accepts symbols and
 * emoji the way browsers do. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <idn2.h>
#include "lib/hex.h"
#include "lib/url.h"
#include "lib/urlhost.h"
#include "lib/xmalloc.h"

/* The IPv6 parser of the standard, pointer for pointer. */
static int urlhost_parse_ipv6(const char *s, size_t n, uint16_t addr[8])
{
	size_t i = 0;
	int piece = 0, compress = -1;

	memset(addr, 0, 8 * sizeof(addr[0]));
	if (i < n && s[i] == ':') {
		if (i + 1 >= n || s[i + 1] != ':')
			return URL_EINVAL;
		i += 2;
		compress = ++piece;
	}
	while (i < n) {
		unsigned value = 0;
		int length = 0, h;

		if (piece == 8)
			return URL_EINVAL;
		if (s[i] == ':') {
			if (compress >= 0)
				return URL_EINVAL;
			i++;
			compress = ++piece;
			continue;
		}
		while (length < 4 && i < n && (h = hex_value((unsigned char)s[i])) >= 0) {
			value = value * 16 + (unsigned)h;
			i++;
			length++;
		}
		if (i < n && s[i] == '.') {
			int seen = 0;

			if (length == 0)
				return URL_EINVAL;
			i -= (size_t)length;
			if (piece > 6)
				return URL_EINVAL;
			while (i < n) {
				int v4 = -1;

				if (seen > 0) {
					if (s[i] == '.' && seen < 4)
						i++;
					else
						return URL_EINVAL;
				}
				if (i >= n || s[i] < '0' || s[i] > '9')
					return URL_EINVAL;
				while (i < n && s[i] >= '0' && s[i] <= '9') {
					int d = s[i] - '0';

					if (v4 < 0)
						v4 = d;
					else if (v4 == 0)
						return URL_EINVAL;
					else
						v4 = v4 * 10 + d;
					if (v4 > 255)
						return URL_EINVAL;
					i++;
				}
				addr[piece] = (uint16_t)(addr[piece] * 0x100 + v4);
				seen++;
				if (seen == 2 || seen == 4)
					piece++;
			}
			if (seen != 4)
				return URL_EINVAL;
			break;
		} else if (i < n && s[i] == ':') {
			i++;
			if (i >= n)
				return URL_EINVAL;
		} else if (i < n) {
			return URL_EINVAL;
		}
		addr[piece++] = (uint16_t)value;
	}
	if (compress >= 0) {
		int swaps = piece - compress;

		piece = 7;
		while (piece != 0 && swaps > 0) {
			uint16_t t = addr[piece];

			addr[piece] = addr[compress + swaps - 1];
			addr[compress + swaps - 1] = t;
			piece--;
			swaps--;
		}
	} else if (piece != 8) {
		return URL_EINVAL;
	}
	return 0;
}

/* Compresses the first longest run of two or more zero pieces. */
static void urlhost_write_ipv6(const uint16_t addr[8], struct buf *out)
{
	int best = -1, bestlen = 1, i, ignore0 = 0;

	for (i = 0; i < 8; i++) {
		int j = i;

		while (j < 8 && addr[j] == 0)
			j++;
		if (j - i > bestlen) {
			best = i;
			bestlen = j - i;
		}
		if (j > i)
			i = j - 1;
	}
	buf_appendc(out, '[');
	for (i = 0; i < 8; i++) {
		if (ignore0 && addr[i] == 0)
			continue;
		ignore0 = 0;
		if (i == best) {
			buf_appends(out, i == 0 ? "::" : ":");
			ignore0 = 1;
			continue;
		}
		buf_appendf(out, "%x", addr[i]);
		if (i != 7)
			buf_appendc(out, ':');
	}
	buf_appendc(out, ']');
}

/* One part of a dotted IPv4 form: decimal, octal (leading 0) or hex (0x).
 * Values are clamped just above 2^32 so that hostile digit strings cannot
 * overflow; anything that large fails the range checks anyway. */
static int urlhost_ipv4_number(const char *s, size_t n, uint64_t *v)
{
	unsigned radix = 10;
	uint64_t x = 0;
	size_t i;

	if (n == 0)
		return URL_EINVAL;
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		radix = 16;
		s += 2;
		n -= 2;
	} else if (n >= 2 && s[0] == '0') {
		radix = 8;
		s++;
		n--;
	}
	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i], d;

		if (radix == 16)
			d = hex_value(c);
		else
			d = c >= '0' && c <= '9' && (unsigned)(c - '0') < radix ? c - '0' : -1;
		if (d < 0)
			return URL_EINVAL;
		x = x * radix + (unsigned)d;
		if (x > 0x100000000ULL)
			x = 0x100000001ULL;
	}
	*v = x;
	return 0;
}

/* The standard's "ends in a number" check, which decides that a host is to
 * be read as IPv4 (and then must be a valid one). */
static int urlhost_ends_in_number(const char *s, size_t n)
{
	size_t end = n, start, i;

	if (end > 0 && s[end - 1] == '.')
		end--;
	start = end;
	while (start > 0 && s[start - 1] != '.')
		start--;
	if (start == end)
		return 0;
	for (i = start; i < end && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == end)
		return 1;
	if (end - start >= 2 && s[start] == '0' && (s[start + 1] == 'x' || s[start + 1] == 'X')) {
		for (i = start + 2; i < end && hex_value((unsigned char)s[i]) >= 0; i++)
			;
		return i == end;
	}
	return 0;
}

static int urlhost_parse_ipv4(const char *s, size_t n, struct buf *out)
{
	uint64_t nums[4], v;
	size_t count = 0, i = 0, end = n;

	if (end > 0 && s[end - 1] == '.' && end > 1)
		end--;
	while (i <= end) {
		size_t j = i;

		while (j < end && s[j] != '.')
			j++;
		if (count == 4)
			return URL_EINVAL;
		if (urlhost_ipv4_number(s + i, j - i, &nums[count]) < 0)
			return URL_EINVAL;
		count++;
		i = j + 1;
	}
	for (i = 0; i + 1 < count; i++)
		if (nums[i] > 255)
			return URL_EINVAL;
	if (nums[count - 1] >= (1ULL << (8 * (5 - count))))
		return URL_EINVAL;
	v = nums[count - 1];
	for (i = 0; i + 1 < count; i++)
		v += nums[i] << (8 * (3 - i));
	/* Every link to a numeric host comes here: no printf. */
	for (i = 0; i < 4; i++) {
		if (i > 0)
			buf_appendc(out, '.');
		buf_appendu(out, (v >> (8 * (3 - i))) & 255);
	}
	return 0;
}

/* Forbidden domain code points: what may not appear in an ASCII host. */
static int urlhost_forbidden(int c)
{
	return c <= 0x20 || c == 0x7f || c == '#' || c == '%' || c == '/' || c == ':' || c == '<' ||
	    c == '>' || c == '?' || c == '@' || c == '[' || c == '\\' || c == ']' || c == '^' ||
	    c == '|';
}

/* Length of a UTS#46 label separator at s (the full stop and its
 * ideographic, fullwidth and halfwidth forms), or 0. */
static size_t urlhost_dot_len(const unsigned char *s, size_t n)
{
	if (s[0] == '.')
		return 1;
	if (n >= 3 &&
	    ((s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x82) ||
		(s[0] == 0xef && s[1] == 0xbc && s[2] == 0x8e) ||
		(s[0] == 0xef && s[1] == 0xbd && s[2] == 0xa1)))
		return 3;
	return 0;
}

static int urlhost_label_to_ascii(const char *label, size_t n, struct buf *out)
{
	char stack[256], *copy = n < sizeof(stack) ? stack : xmalloc(n + 1);
	char *res = NULL;
	int rc;

	memcpy(copy, label, n);
	copy[n] = '\0';
	rc = idn2_to_ascii_8z(copy, &res, IDN2_NONTRANSITIONAL);
	/* Transitional processing differs from nontransitional only on the
	 * four deviation characters (sharp s, final sigma, ZWJ, ZWNJ), so the
	 * retry for symbols is safe on labels without them. */
	if (rc == IDN2_DISALLOWED && strstr(copy, "\xc3\x9f") == NULL &&
	    strstr(copy, "\xcf\x82") == NULL && strstr(copy, "\xe2\x80\x8c") == NULL &&
	    strstr(copy, "\xe2\x80\x8d") == NULL)
		rc = idn2_to_ascii_8z(copy, &res, IDN2_TRANSITIONAL);
	if (copy != stack)
		free(copy);
	if (rc != IDN2_OK)
		return URL_EINVAL;
	buf_appends(out, res);
	idn2_free(res);
	return 0;
}

static int urlhost_domain(const char *s, size_t n, struct buf *out)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t start = out->len, i = 0, k;
	int simple = 1;

	/* An all-ASCII domain is only lower-cased, even when a label starts
	 * with "xn--" and is not valid Punycode or decodes to something UTS#46
	 * refuses: since the standard's 2026-06-25 change (whatwg/url "Add
	 * Unicode ToASCII fallback for ASCII domains") a ToASCII failure on an
	 * ASCII domain is only a validation error, because sites such as
	 * xn--8i7caa.famitei.net exist. */
	for (k = 0; k < n; k++)
		if (u[k] >= 0x80)
			simple = 0;
	if (simple) {
		for (k = 0; k < n; k++)
			buf_appendc(out, (char)(u[k] >= 'A' && u[k] <= 'Z' ? u[k] | 0x20 : u[k]));
	} else {
		while (i <= n) {
			size_t j = i, dot = 0, ascii = 1;

			while (j < n && (dot = urlhost_dot_len(u + j, n - j)) == 0) {
				if (u[j] >= 0x80)
					ascii = 0;
				j++;
			}
			if (ascii &&
			    !(j - i >= 4 && (u[i] | 0x20) == 'x' && (u[i + 1] | 0x20) == 'n' &&
				u[i + 2] == '-' && u[i + 3] == '-')) {
				for (k = i; k < j; k++)
					buf_appendc(out,
					    (char)(u[k] >= 'A' && u[k] <= 'Z' ? u[k] | 0x20
									      : u[k]));
			} else if (urlhost_label_to_ascii(s + i, j - i, out) < 0) {
				return URL_EINVAL;
			}
			if (j >= n)
				break;
			buf_appendc(out, '.');
			i = j + dot;
		}
	}
	if (out->len == start)
		return URL_EINVAL;
	for (k = start; k < out->len; k++)
		if (urlhost_forbidden((unsigned char)out->data[k]))
			return URL_EINVAL;
	return 0;
}

int urlhost_parse(const char *host, size_t len, struct buf *out, int *ip)
{
	size_t start = out->len, i, n = 0;
	char stack[512], *dec;
	uint16_t addr[8];
	int rc, hi, lo;

	*ip = 0;
	if (len > 0 && host[0] == '[') {
		if (len < 2 || host[len - 1] != ']' ||
		    urlhost_parse_ipv6(host + 1, len - 2, addr) < 0)
			return URL_EINVAL;
		urlhost_write_ipv6(addr, out);
		*ip = 6;
		return 0;
	}
	if (len == 0)
		return URL_EINVAL;
	dec = len < sizeof(stack) ? stack : xmalloc(len);
	for (i = 0; i < len; i++) {
		if (host[i] == '%' && i + 2 < len &&
		    (hi = hex_value((unsigned char)host[i + 1])) >= 0 &&
		    (lo = hex_value((unsigned char)host[i + 2])) >= 0) {
			dec[n++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			dec[n++] = host[i];
		}
	}
	rc = urlhost_domain(dec, n, out);
	if (dec != stack)
		free(dec);
	if (rc < 0) {
		out->len = start;
		if (out->data)
			out->data[start] = '\0';
		return rc;
	}
	if (urlhost_ends_in_number(out->data + start, out->len - start)) {
		char tmp[256];
		size_t hl = out->len - start;

		/* Long digit strings cannot be valid IPv4 anyway (parts are
		 * capped at four), but bound the copy. */
		if (hl >= sizeof(tmp)) {
			char *t = xstrndup(out->data + start, hl);

			out->len = start;
			rc = urlhost_parse_ipv4(t, hl, out);
			free(t);
		} else {
			memcpy(tmp, out->data + start, hl);
			out->len = start;
			rc = urlhost_parse_ipv4(tmp, hl, out);
		}
		if (rc < 0) {
			out->len = start;
			if (out->data)
				out->data[start] = '\0';
			return rc;
		}
		*ip = 4;
	}
	return 0;
}
