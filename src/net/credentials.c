/* The credentials file's lines and their lookup (credentials.h). */
#include <build-config.h>

#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/xmalloc.h"
#include "net/credentials.h"

struct credentials {
	struct credential *v;
	size_t n;
};

size_t credentials_count(const struct credentials *c)
{
	return c != NULL ? c->n : 0;
}

static void credentials_wipe(char *s)
{
	/* A password is not left in freed memory. */
	if (s != NULL) {
		volatile char *p = s;
		while (*p != '\0')
			*p++ = '\0';
	}
	free(s);
}

void credentials_free(struct credentials *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].where);
		free(c->v[i].realm);
		free(c->v[i].user);
		credentials_wipe(c->v[i].password);
	}
	free(c->v);
	free(c);
}

/* The next field of a line at *p (up to e): bare or quoted. 1 with the
 * field in out, 0 at the end of the line (or a comment), -1 on a bad
 * quote. */
static int credentials_field(const char **p, const char *e, struct buf *out)
{
	const char *s = *p;

	buf_reset(out);
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (s == e || *s == '#') {
		*p = e;
		return 0;
	}
	if (*s == '"') {
		for (s++; s < e && *s != '"'; s++) {
			if (*s == '\\' && s + 1 < e && (s[1] == '"' || s[1] == '\\'))
				s++;
			buf_appendc(out, *s);
		}
		if (s == e)
			return -1;
		s++;
		if (s < e && *s != ' ' && *s != '\t')
			return -1;
	} else {
		while (s < e && *s != ' ' && *s != '\t') {
			if (*s == '"')
				return -1;
			buf_appendc(out, *s++);
		}
	}
	buf_appendc(out, '\0');
	out->len--;
	*p = s;
	return 1;
}

int credentials_parse(
    const char *text, size_t len, const char *origin, struct credentials **out, char **err)
{
	struct credentials *c = xcalloc(1, sizeof *c);
	const char *p = text, *end = text + len;
	struct buf f[6];
	int line = 0, rc = 0;

	for (int i = 0; i < 6; i++)
		buf_init(&f[i]);
	*out = NULL;
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end, *q = p;
		int n = 0, r;

		line++;
		if (e > p && e[-1] == '\r')
			e--;
		while (n < 6 && (r = credentials_field(&q, e, &f[n])) == 1)
			n++;
		if (n < 6 && r < 0) {
			*err = xasprintf("%s:%d: unbalanced double quote", origin, line);
			rc = -1;
		} else if (n != 0 && n != 5) {
			*err = xasprintf(
			    "%s:%d: expected KIND WHERE REALM USER PASSWORD (%d fields found)",
			    origin, line, n);
			rc = -1;
		} else if (n == 5) {
			struct credential cr;

			memset(&cr, 0, sizeof cr);
			if (strcmp(f[0].data, "http") == 0) {
				cr.kind = CREDENTIAL_HTTP;
			} else if (strcmp(f[0].data, "proxy") == 0) {
				cr.kind = CREDENTIAL_PROXY;
			} else {
				*err = xasprintf("%s:%d: KIND is http or proxy", origin, line);
				rc = -1;
				break;
			}
			if (f[3].len == 0 || strchr(f[3].data, ':') != NULL ||
			    strpbrk(f[3].data, "\r\n") != NULL) {
				*err = xasprintf(
				    "%s:%d: a user cannot be empty nor hold ':' (RFC 7617)", origin,
				    line);
				rc = -1;
				break;
			}
			{
				const char *w = f[1].data;
				/* A prefix written with its scheme, as in
				 * [override] sections, means the same. */
				if (strncmp(w, "http://(", 8) == 0)
					w += 8;
				else if (strncmp(w, "https://(", 9) == 0)
					w += 9;
				cr.where = xstrdup(w);
			}
			cr.realm = xstrdup(f[2].data);
			cr.user = xstrdup(f[3].data);
			cr.password = xstrdup(f[4].data);
			c->v = xrealloc(c->v, (c->n + 1) * sizeof *c->v);
			c->v[c->n++] = cr;
		}
		p = nl ? nl + 1 : end;
	}
	for (int i = 0; i < 6; i++) {
		if (f[i].data != NULL)
			memset(f[i].data, 0, f[i].cap);
		buf_free(&f[i]);
	}
	if (rc < 0) {
		credentials_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

const struct credential *credentials_proxy(const struct credentials *c, const char *hostport)
{
	for (size_t i = 0; c != NULL && i < c->n; i++)
		if (c->v[i].kind == CREDENTIAL_PROXY && strcmp(c->v[i].where, hostport) == 0)
			return &c->v[i];
	return NULL;
}

const struct credential *credentials_http(
    const struct credentials *c, const char *surt, const char *realm)
{
	const struct credential *best = NULL;
	size_t best_len = 0;
	int best_exact = 0;

	for (size_t i = 0; c != NULL && i < c->n; i++) {
		const struct credential *cr = &c->v[i];
		size_t n = strlen(cr->where);
		int exact;

		if (cr->kind != CREDENTIAL_HTTP || strncmp(surt, cr->where, n) != 0)
			continue;
		exact = realm != NULL && strcmp(cr->realm, realm) == 0;
		if (!exact && strcmp(cr->realm, "*") != 0)
			continue;
		if (best == NULL || n > best_len || (n == best_len && exact && !best_exact)) {
			best = cr;
			best_len = n;
			best_exact = exact;
		}
	}
	return best;
}
