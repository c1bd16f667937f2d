/* Form-encoded pairs (form.h). */
#include "lib/form.h"
#include "lib/hex.h"

#include <string.h>

/* Decodes [s, end) into out; -1 if an escape is malformed (decoding goes
 * on past it, keeping the '%'). */
static int form_decode(const char *s, const char *end, struct buf *out)
{
	int rc = 0;

	for (; s < end; s++) {
		if (*s == '%') {
			int hi = end - s > 2 ? hex_value((unsigned char)s[1]) : -1;
			int lo = end - s > 2 ? hex_value((unsigned char)s[2]) : -1;

			if (hi < 0 || lo < 0) {
				rc = -1;
				buf_appendc(out, '%');
				continue;
			}
			buf_appendc(out, (char)(hi * 16 + lo));
			s += 2;
		} else {
			buf_appendc(out, *s == '+' ? ' ' : *s);
		}
	}
	return rc;
}

int form_next(const char **p, struct buf *name, struct buf *value)
{
	const char *s = *p, *end, *eq;
	int rc;

	while (*s == '&')
		s++;
	if (*s == '\0') {
		*p = s;
		return 0;
	}
	end = strchr(s, '&');
	if (end == NULL)
		end = s + strlen(s);
	eq = memchr(s, '=', (size_t)(end - s));
	buf_reset(name);
	buf_reset(value);
	buf_append(name, "", 0);
	buf_append(value, "", 0);
	rc = form_decode(s, eq != NULL ? eq : end, name);
	if (eq != NULL && form_decode(eq + 1, end, value) < 0)
		rc = -1;
	*p = end;
	return rc < 0 ? -1 : 1;
}

int form_get(const char *s, const char *name, struct buf *out)
{
	struct buf n = BUF_INIT, v = BUF_INIT;
	int rc, found = -1;

	while (s != NULL && (rc = form_next(&s, &n, &v)) != 0) {
		if (n.len == strlen(name) && memcmp(n.data, name, n.len) == 0) {
			if (rc > 0) {
				buf_append(out, v.data, v.len);
				found = 0;
			}
			break;
		}
	}
	buf_free(&n);
	buf_free(&v);
	return found;
}
