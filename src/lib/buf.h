/* A growable byte buffer, always NUL-terminated so that text can be used as a
 * C string without a copy. */
#ifndef TERN_BUF_H
#define TERN_BUF_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct buf {
	char *data;
	size_t len;
	size_t cap;
};

#define BUF_INIT           \
	{                  \
		NULL, 0, 0 \
	}

void buf_init(struct buf *b);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
/* Empties b, keeping its room for the next use unless that grew past max
 * bytes (then it is freed): pooled buffers stay small. */
void buf_reset_keep(struct buf *b, size_t max);
void buf_reserve(struct buf *b, size_t extra);
void buf_appends(struct buf *b, const char *s);

/* buf_append and buf_appendc are inline: appending a few bytes (or one) is
 * the inner loop of the tokenizers and the URL code, where a call per byte
 * showed in the crawl's profile. */
static inline void buf_append(struct buf *b, const void *data, size_t len)
{
	if (b->cap - b->len <= len)
		buf_reserve(b, len);
	if (len > 0)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

static inline void buf_appendc(struct buf *b, char c)
{
	if (b->cap - b->len <= 1)
		buf_reserve(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void buf_appendf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Decimal integers without printf, for hot paths: buf_appendu as "%llu";
 * buf_appendint as "%*lld" (pad ' ') or "%0*lld" (pad '0') with width. */
void buf_appendu(struct buf *b, uint64_t v);
/* The same digits written to out (room for 20, no NUL); returns how many. */
size_t buf_digits(char *out, uint64_t v);
void buf_appendint(struct buf *b, int64_t v, size_t width, char pad);
/* Hands the bytes to the caller (who frees them) and leaves b empty. */
char *buf_steal(struct buf *b);
/* Drops the first n bytes. */
void buf_consume(struct buf *b, size_t n);

#endif
