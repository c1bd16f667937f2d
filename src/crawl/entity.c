/* Character reference decoding. The named table is the WHATWG list, kept
 * as data in src/crawl/entities.json and turned into entity-table.h by
 * scripts/gen-entities, sorted bytewise for binary search.
 * The full table is kept rather than a common subset because a rare name
 * inside a URL ("&lang=", "&not_x") decodes differently otherwise, and the
 * differential test against parse5 would rightly flag it. */
#include <string.h>
#include <stdint.h>
#include "lib/hex.h"
#include "crawl/entity.h"

struct entity_name {
	const char *name;  /* without '&', with ';' when the name has one */
	const char *value; /* UTF-8 */
};

/* entity_table and ENTITY_NAME_MAX. */
#include "crawl/entity-table.h"

#define ENTITY_COUNT (sizeof(entity_table) / sizeof(entity_table[0]))

/* Windows-1252 meanings of references to C1 controls 0x80-0x9F, per the
 * "numeric character reference end state"; 0 keeps the code point. */
static const uint16_t entity_c1[32] = {
    0x20AC,
    0,
    0x201A,
    0x0192,
    0x201E,
    0x2026,
    0x2020,
    0x2021,
    0x02C6,
    0x2030,
    0x0160,
    0x2039,
    0x0152,
    0,
    0x017D,
    0,
    0,
    0x2018,
    0x2019,
    0x201C,
    0x201D,
    0x2022,
    0x2013,
    0x2014,
    0x02DC,
    0x2122,
    0x0161,
    0x203A,
    0x0153,
    0,
    0x017E,
    0x0178,
};

static int entity_isalnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static size_t entity_utf8(uint32_t cp, char out[8])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* Exact lookup of a name of n bytes; NULL when absent. */
static const struct entity_name *entity_find(const char *name, size_t n)
{
	size_t lo = 0, hi = ENTITY_COUNT;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *m = entity_table[mid].name;
		size_t ml = strlen(m);
		int c = memcmp(name, m, n < ml ? n : ml);

		if (c == 0)
			c = n < ml ? -1 : n > ml ? 1 : 0;
		if (c == 0)
			return &entity_table[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static size_t entity_numeric(const char *s, size_t len, char out[8], size_t *outlen)
{
	size_t i = 2, start;
	uint32_t cp = 0;
	int hex = 0;

	if (i < len && (s[i] == 'x' || s[i] == 'X')) {
		hex = 1;
		i++;
	}
	start = i;
	for (; i < len; i++) {
		int d = hex ? hex_value((unsigned char)s[i])
			    : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
		if (d < 0)
			break;
		/* Saturate: anything past U+10FFFF becomes U+FFFD anyway. */
		if (cp <= 0x10FFFF)
			cp = cp * (hex ? 16 : 10) + (uint32_t)d;
	}
	if (i == start)
		return 0;
	if (i < len && s[i] == ';')
		i++;
	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	else if (cp >= 0x80 && cp <= 0x9F && entity_c1[cp - 0x80])
		cp = entity_c1[cp - 0x80];
	*outlen = entity_utf8(cp, out);
	return i;
}

size_t entity_ref(const char *s, size_t len, int in_attr, char out[8], size_t *outlen)
{
	char name[ENTITY_NAME_MAX + 1];
	const struct entity_name *e;
	size_t run = 0, n;

	if (len < 2 || s[0] != '&')
		return 0;
	if (s[1] == '#')
		return entity_numeric(s, len, out, outlen);
	while (1 + run < len && run < ENTITY_NAME_MAX && entity_isalnum((unsigned char)s[1 + run]))
		run++;
	if (run == 0)
		return 0;
	memcpy(name, s + 1, run);
	if (1 + run < len && s[1 + run] == ';' && run < ENTITY_NAME_MAX) {
		name[run] = ';';
		e = entity_find(name, run + 1);
		if (e) {
			*outlen = strlen(e->value);
			memcpy(out, e->value, *outlen);
			return run + 2;
		}
	}
	/* Names with ';' only match the whole run, so what is left is the
	 * longest legacy (semicolon-less) name that prefixes the run. */
	for (n = run; n >= 2; n--) {
		e = entity_find(name, n);
		if (!e)
			continue;
		if (in_attr && 1 + n < len &&
		    (s[1 + n] == '=' || entity_isalnum((unsigned char)s[1 + n])))
			return 0;
		*outlen = strlen(e->value);
		memcpy(out, e->value, *outlen);
		return n + 1;
	}
	return 0;
}

void entity_decode(struct buf *out, const char *s, size_t len, int in_attr)
{
	size_t i = 0;

	buf_reserve(out, len);
	while (i < len) {
		size_t j = i;
		char rep[8];
		size_t rlen, used;

		while (j < len && s[j] != '&' && s[j] != '\0')
			j++;
		buf_append(out, s + i, j - i);
		if (j == len)
			break;
		if (s[j] == '\0') {
			buf_append(out, "\xEF\xBF\xBD", 3);
			i = j + 1;
			continue;
		}
		used = entity_ref(s + j, len - j, in_attr, rep, &rlen);
		if (used == 0) {
			buf_appendc(out, '&');
			i = j + 1;
		} else {
			buf_append(out, rep, rlen);
			i = j + used;
		}
	}
}
