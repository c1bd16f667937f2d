/* application/x-www-form-urlencoded text: query strings of the control
 * socket and the console, and form bodies posted to them. Pure: no I/O. */
#ifndef TERN_FORM_H
#define TERN_FORM_H

#include "lib/buf.h"

/* The next name=value pair of s at *p, its name and value percent-decoded
 * ('+' is a space) into name and value (replacing their contents); empty
 * pairs ("a=1&&b=2") are skipped and a pair without '=' has an empty value.
 * 1 and *p past the pair; 0 at the end; -1 for a pair holding a malformed
 * escape (*p is past it too, so the caller may go on; name and value hold
 * what decoded). */
int form_next(const char **p, struct buf *name, struct buf *value);
/* The first pair named name in s: 0 and its value appended to out; -1 if
 * there is none or its escapes are malformed. */
int form_get(const char *s, const char *name, struct buf *out);

#endif
