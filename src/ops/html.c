/* HTML escaping for the console (html.h says what and why). The UTF-8
 * decoder is written here rather than taken from a library because it is a
 * few lines and the console needs its own verdict on every code point. */
#include "ops/html.h"

#include <stdint.h>

/* U+FFFD, the replacement character. */
static const char html_replacement[] = "\xef\xbf\xbd";

/* Decodes one UTF-8 sequence at s (n bytes available): its code point and
 * length, or -1 for a byte that does not start a well-formed sequence
 * (overlong forms, surrogates and code points past U+10FFFF included), in
 * which case the caller consumes that one byte. */
static int32_t html_decode(const unsigned char *s, size_t n, size_t *len)
{
	uint32_t cp;
	size_t need, i;

	if (s[0] < 0x80) {
		*len = 1;
		return s[0];
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 1;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 2;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 3;
		cp = s[0] & 0x07;
	} else {
		return -1;
	}
	if (n < need + 1)
		return -1;
	for (i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = need + 1;
	return (int32_t)cp;
}

/* Code points shown as U+FFFD: C1 controls, and the bidirectional marks,
 * embeddings, overrides and isolates that reorder the text around them. */
static int html_hidden(int32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x061c;
}

void html_text(struct buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	buf_reserve(out, len);
	while (p < end) {
		size_t n;
		int32_t cp = html_decode(p, (size_t)(end - p), &n);

		if (cp < 0) {
			buf_appends(out, html_replacement);
			p++;
			continue;
		}
		switch (cp) {
		case '&':
			buf_appends(out, "&amp;");
			break;
		case '<':
			buf_appends(out, "&lt;");
			break;
		case '>':
			buf_appends(out, "&gt;");
			break;
		case '"':
			buf_appends(out, "&quot;");
			break;
		case '\'':
			buf_appends(out, "&#39;");
			break;
		default:
			if (cp < 0x20 || cp == 0x7f) {
				/* U+2400 + c, or U+2421 for DEL: E2 90 80+c / E2 90 A1. */
				char pic[3] = {
				    (char)0xe2, (char)0x90, (char)(cp == 0x7f ? 0xa1 : 0x80 + cp)};
				buf_append(out, pic, 3);
			} else if (html_hidden(cp)) {
				buf_appends(out, html_replacement);
			} else {
				buf_append(out, p, n);
			}
		}
		p += n;
	}
}

void html_texts(struct buf *out, const char *s)
{
	if (s != NULL)
		html_text(out, s, strlen(s));
}

void html_query(struct buf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~') {
			buf_appendc(out, (char)c);
		} else {
			char e[3] = {'%', hex[c >> 4], hex[c & 15]};
			buf_append(out, e, 3);
		}
	}
}

void html_querys(struct buf *out, const char *s)
{
	if (s != NULL)
		html_query(out, s, strlen(s));
}
