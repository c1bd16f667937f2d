/* HTML character references (WHATWG "character reference state"): numeric
 * references with the spec's replacement rules and the complete named table
 * of 2231 entries, so that decoded attribute values match what browsers and
 * parse5 see. Pure logic, no allocation except into the caller's buffer. */
#ifndef TERN_ENTITY_H
#define TERN_ENTITY_H
#include <stddef.h>
#include "lib/buf.h"

/* Decodes the one reference starting at s[0] == '&'. On success writes the
 * UTF-8 replacement (at most 8 bytes) to out, its length to *outlen, and
 * returns how many input bytes it replaces; returns 0 when s does not start
 * a reference that is decoded there (the '&' is then literal). in_attr
 * applies the attribute-value rule: a legacy name without ';' followed by
 * '=' or an alphanumeric is not decoded. */
size_t entity_ref(const char *s, size_t len, int in_attr, char out[8], size_t *outlen);

/* Appends s to out with every character reference decoded and NUL bytes
 * replaced by U+FFFD, as the tokenizer does for attribute values. */
void entity_decode(struct buf *out, const char *s, size_t len, int in_attr);

#endif
