/* Slot filling for the console's page templates (tmpl.h). */
#include "ops/tmpl.h"
#include "ops/html.h"
#include "lib/xmalloc.h"

#include <string.h>

static int tmpl_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

static const struct tmpl_var *tmpl_find(
    const struct tmpl_var *vars, size_t n, const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(vars[i].name) == len && memcmp(vars[i].name, name, len) == 0)
			return &vars[i];
	return NULL;
}

int tmpl_render(const char *t, size_t len, const struct tmpl_var *vars, size_t nvars,
    struct buf *out, char **err)
{
	const char *p = t, *end = t + len;

	while (p < end) {
		const char *open = memmem(p, (size_t)(end - p), "{{", 2), *name, *q;
		const struct tmpl_var *v;

		if (open == NULL) {
			buf_append(out, p, (size_t)(end - p));
			break;
		}
		buf_append(out, p, (size_t)(open - p));
		name = q = open + 2;
		while (q < end && tmpl_name_char(*q))
			q++;
		if (q == name || end - q < 2 || q[0] != '}' || q[1] != '}') {
			*err = xasprintf("template: \"{{\" at byte %zu does not open a {{slot}}",
			    (size_t)(open - t));
			return -1;
		}
		v = tmpl_find(vars, nvars, name, (size_t)(q - name));
		if (v == NULL) {
			*err = xasprintf("template: no value for {{%.*s}}", (int)(q - name), name);
			return -1;
		}
		if (v->html)
			buf_appends(out, v->value != NULL ? v->value : "");
		else
			html_texts(out, v->value);
		p = q + 2;
	}
	return 0;
}
