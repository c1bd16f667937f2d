/* A growable byte buffer, always NUL-terminated so that text can be used as a
 * C string without a copy. */
#ifndef TERN_BUF_H
#define TERN_BUF_H
#include <stddef.h>

struct buf {
	char *data;
	size_t len;
	size_t cap;
};

#define BUF_INIT { NULL, 0, 0 }

void buf_init(struct buf *b);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
void buf_reserve(struct buf *b, size_t extra);
void buf_append(struct buf *b, const void *data, size_t len);
void buf_appends(struct buf *b, const char *s);
void buf_appendc(struct buf *b, char c);
void buf_appendf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the bytes to the caller (who frees them) and leaves b empty. */
char *buf_steal(struct buf *b);
/* Drops the first n bytes. */
void buf_consume(struct buf *b, size_t n);

#endif
