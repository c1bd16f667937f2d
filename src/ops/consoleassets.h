/* The operator console's static files, embedded at build time by
 * scripts/gen-assets from src/ops/console/ into the generated
 * consoleassets.c: page templates (*.html, filled by ops/tmpl), the script
 * and the style sheet. Every asset the console serves comes from here. */
#ifndef TERN_CONSOLEASSETS_H
#define TERN_CONSOLEASSETS_H
#include <stddef.h>

struct consoleasset {
	const char *name;	   /* the file's name in src/ops/console/ */
	const char *type;	   /* its Content-Type */
	const unsigned char *data; /* len bytes, then a NUL */
	size_t len;
	const char *etag; /* a strong ETag, quotes included */
};

extern const struct consoleasset consoleassets[];
extern const size_t consoleassets_count;

#endif
