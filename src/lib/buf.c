#include "lib/buf.h"
#include "lib/xmalloc.h"

#include <stdlib.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

void buf_reset_keep(struct buf *b, size_t max)
{
	if (b->cap > max)
		buf_free(b);
	buf_reset(b);
}

void buf_reserve(struct buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	size_t cap;

	if (need <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void buf_appends(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

/* One vsnprintf into the spare room suffices for the short pieces this
 * mostly formats; only a piece that does not fit is formatted twice. */
void buf_appendf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;
	size_t room;

	buf_reserve(b, 64);
	room = b->cap - b->len;
	va_start(ap, fmt);
	n = vsnprintf(b->data + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		buf_reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

size_t buf_digits(char *out, uint64_t v)
{
	char tmp[20];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	memcpy(out, tmp + i, sizeof(tmp) - i);
	return sizeof(tmp) - i;
}

void buf_appendu(struct buf *b, uint64_t v)
{
	char tmp[20];

	buf_append(b, tmp, buf_digits(tmp, v));
}

void buf_appendint(struct buf *b, int64_t v, size_t width, char pad)
{
	char tmp[20];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n = buf_digits(tmp, u), digits = n + (v < 0);

	buf_reserve(b, digits > width ? digits : width);
	/* As printf: spaces go before the sign, zeros after it. */
	if (pad != '0')
		for (; width > digits; width--)
			b->data[b->len++] = pad;
	if (v < 0)
		b->data[b->len++] = '-';
	for (; width > digits; width--)
		b->data[b->len++] = '0';
	buf_append(b, tmp, n);
}

char *buf_steal(struct buf *b)
{
	char *p = b->data;
	if (p == NULL)
		p = xstrdup("");
	buf_init(b);
	return p;
}

void buf_consume(struct buf *b, size_t n)
{
	if (n >= b->len) {
		buf_reset(b);
		return;
	}
	memmove(b->data, b->data + n, b->len - n);
	b->len -= n;
	b->data[b->len] = '\0';
}
