/* Page templates of the operator console: HTML with named slots {{name}}.
 * The C code that renders a page fills each slot either with text, escaped
 * here by html_text, or with a fragment it built itself from escaped pieces
 * (html.h); the template never decides which, so a template edit cannot
 * turn crawl data into markup. Pure: no I/O.
 *
 * Written here because what is needed is a slot filler of a few lines, not
 * a template language (no loops or conditionals: tables are built in C). */
#ifndef TERN_TMPL_H
#define TERN_TMPL_H
#include <stddef.h>

#include "lib/buf.h"

struct tmpl_var {
	const char *name;
	const char *value; /* NUL-terminated; NULL renders as nothing */
	int html;	   /* 1: a fragment built from escaped pieces; 0: text */
};

/* Appends template t (len bytes) to out with every {{name}} replaced by its
 * variable. A slot names [a-z0-9-] characters. -1 and *err (naming the slot)
 * when a slot has no variable or "{{" does not open a slot; out then holds
 * a partial page the caller drops. */
int tmpl_render(const char *t, size_t len, const struct tmpl_var *vars, size_t nvars,
    struct buf *out, char **err);

#endif
