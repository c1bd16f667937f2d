/* Streaming CSS link extractor: url(...) tokens, url("...") functions and
 * @import strings, tokenized as CSS Syntax Level 3 does (comments, strings
 * with escapes, bad strings and bad urls are skipped), for text/css bodies,
 * <style> contents and style="" attributes. Input can arrive in any chunks;
 * memory is one capped buffer for the URL being read; time is linear. */
#ifndef TERN_CSS_H
#define TERN_CSS_H
#include <stddef.h>

/* Longest URL kept; longer ones are dropped, not truncated. */
#define CSS_URL_MAX 8192

/* ref is the decoded reference (escapes resolved, surrounding whitespace
 * trimmed, never empty); is_import is set for @import targets. */
typedef void (*css_cb)(void *arg, const char *ref, size_t len, int is_import);

struct css;

struct css *css_new(css_cb cb, void *arg);
void css_feed(struct css *c, const char *data, size_t len);
/* Reports a URL cut off by the end of input, as CSS does at EOF, then
 * resets the extractor for reuse. */
void css_finish(struct css *c);
/* Forgets any partial state without reporting it. */
void css_reset(struct css *c);
void css_free(struct css *c);

#endif
