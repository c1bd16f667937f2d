/* Stream records: writer and strict parsers. */
#include <stdlib.h>
#include <string.h>
#include "lib/handoff.h"
#include "lib/xmalloc.h"

static int handoff_uri_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= 0x20 || c >= 0x7f)
			return 0;
	}
	return 1;
}

static int handoff_hops_ok(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < 'A' || s[i] > 'Z')
			return 0;
	return 1;
}

int handoff_append_url(struct buf *msg, const struct handoff_url *r)
{
	size_t hl = r->hops != NULL ? strlen(r->hops) : 0;
	size_t ul = strlen(r->uri);
	size_t vl = r->via != NULL ? strlen(r->via) : 0;

	if (r->flags > HANDOFF_FLAGS_MAX || !handoff_hops_ok(r->hops != NULL ? r->hops : "", hl) ||
	    !handoff_uri_ok(r->uri, ul) || (r->via != NULL && !handoff_uri_ok(r->via, vl)))
		return -1;
	buf_appendu(msg, r->flags);
	buf_appendc(msg, ' ');
	if (hl > 0)
		buf_append(msg, r->hops, hl);
	else
		buf_appendc(msg, '-');
	buf_appendc(msg, ' ');
	buf_append(msg, r->uri, ul);
	buf_appendc(msg, ' ');
	if (r->via != NULL)
		buf_append(msg, r->via, vl);
	else
		buf_appendc(msg, '-');
	buf_appendc(msg, '\n');
	return 0;
}

int handoff_append_done(struct buf *msg, const char *uri)
{
	size_t ul = strlen(uri);

	if (!handoff_uri_ok(uri, ul))
		return -1;
	buf_append(msg, uri, ul);
	buf_appendc(msg, '\n');
	return 0;
}

static int handoff_fail(char **err, size_t line, const char *why)
{
	if (err != NULL)
		*err = xasprintf("record %zu: %s", line, why);
	return -1;
}

/* Splits data[0..len) into newline-terminated lines: the next one in
 * [*line, *line + *n), NUL-terminated in place. 1, 0 at the end, -1 for a
 * last line without its newline. */
static int handoff_line(char **p, char *end, char **line, size_t *n)
{
	char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	if (nl == NULL)
		return -1;
	*line = *p;
	*n = (size_t)(nl - *p);
	*nl = '\0';
	*p = nl + 1;
	return 1;
}

int handoff_parse_urls(char *data, size_t len, void (*fn)(void *ctx, const struct handoff_url *r),
    void *ctx, char **err)
{
	char *p = data, *end = data + len, *line, *f[4];
	size_t n, lineno = 0, k;
	int rc;

	while ((rc = handoff_line(&p, end, &line, &n)) == 1) {
		struct handoff_url r;
		char *q = line, *sp;
		unsigned long flags;

		lineno++;
		for (k = 0; k < 4; k++) {
			f[k] = q;
			sp = k < 3 ? memchr(q, ' ', (size_t)(line + n - q)) : NULL;
			if (k < 3) {
				if (sp == NULL)
					return handoff_fail(err, lineno, "fewer than 4 fields");
				*sp = '\0';
				q = sp + 1;
			}
		}
		if (memchr(f[3], ' ', strlen(f[3])) != NULL)
			return handoff_fail(err, lineno, "more than 4 fields");
		if (f[0][0] < '0' || f[0][0] > '9' || strlen(f[0]) > 5)
			return handoff_fail(err, lineno, "bad flags");
		flags = strtoul(f[0], &sp, 10);
		if (*sp != '\0' || flags > HANDOFF_FLAGS_MAX)
			return handoff_fail(err, lineno, "bad flags");
		if (f[1][0] == '\0' ||
		    (strcmp(f[1], "-") != 0 && !handoff_hops_ok(f[1], strlen(f[1]))))
			return handoff_fail(err, lineno, "bad hop path");
		if (!handoff_uri_ok(f[2], strlen(f[2])))
			return handoff_fail(err, lineno, "bad URI");
		if (!handoff_uri_ok(f[3], strlen(f[3])))
			return handoff_fail(err, lineno, "bad via");
		r.flags = (unsigned)flags;
		r.hops = strcmp(f[1], "-") == 0 ? "" : f[1];
		r.uri = f[2];
		r.via = strcmp(f[3], "-") == 0 ? NULL : f[3];
		fn(ctx, &r);
	}
	return rc < 0 ? handoff_fail(err, lineno + 1, "no newline at its end") : 0;
}

int handoff_parse_done(
    char *data, size_t len, void (*fn)(void *ctx, const char *uri), void *ctx, char **err)
{
	char *p = data, *end = data + len, *line;
	size_t n, lineno = 0;
	int rc;

	while ((rc = handoff_line(&p, end, &line, &n)) == 1) {
		lineno++;
		if (!handoff_uri_ok(line, n))
			return handoff_fail(err, lineno, "bad URI");
		fn(ctx, line);
	}
	return rc < 0 ? handoff_fail(err, lineno + 1, "no newline at its end") : 0;
}
