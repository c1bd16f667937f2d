/* Allocation that cannot fail: tern aborts on out-of-memory rather than
 * threading ENOMEM through every caller, as tmux and redis do. */
#ifndef TERN_XMALLOC_H
#define TERN_XMALLOC_H
#include <stddef.h>
#include <stdarg.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

#endif
