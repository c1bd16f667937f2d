/* Hiding the secrets of server URLs (urlcreds.h). */
#include "lib/urlcreds.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

#include <string.h>

/* The user information of the URL in [s, e): its start and length, or -1
 * when the URL has none (no '@' before the first '/' after the scheme). */
static long urlcreds_userinfo(const char *s, const char *e, const char **ui)
{
	const char *p = s, *at = NULL, *end;
	const char *scheme = NULL;

	for (const char *q = s; q + 2 < e; q++)
		if (q[0] == ':' && q[1] == '/' && q[2] == '/') {
			scheme = q;
			break;
		}
	if (scheme != NULL)
		p = scheme + 3;
	end = p;
	while (end < e && *end != '/' && *end != '?' && *end != '#')
		end++;
	/* The last '@' of the authority ends the user information: a
	 * password may hold an '@' of its own. */
	for (const char *q = p; q < end; q++)
		if (*q == '@')
			at = q;
	if (at == NULL)
		return -1;
	*ui = p;
	return (long)(at - p);
}

/* One URL of the list, [s, e), into out with its secret hidden; 1 when it
 * had one. */
static int urlcreds_one(const char *s, const char *e, struct buf *out)
{
	const char *ui, *colon;
	long n = urlcreds_userinfo(s, e, &ui);

	if (n < 0) {
		if (out != NULL)
			buf_append(out, s, (size_t)(e - s));
		return 0;
	}
	if (out == NULL)
		return 1;
	buf_append(out, s, (size_t)(ui - s));
	colon = memchr(ui, ':', (size_t)n);
	if (colon != NULL) /* user:password: the user stays, to say who */
		buf_append(out, ui, (size_t)(colon - ui + 1));
	buf_appends(out, "***");
	buf_append(out, ui + n, (size_t)(e - (ui + n)));
	return 1;
}

static int urlcreds_walk(const char *urls, struct buf *out)
{
	const char *s = urls;
	int any = 0;

	for (;;) {
		const char *e = s + strcspn(s, ",");
		any |= urlcreds_one(s, e, out);
		if (*e == '\0')
			break;
		if (out != NULL)
			buf_append(out, ",", 1);
		s = e + 1;
	}
	return any;
}

char *urlcreds_hide(const char *urls)
{
	struct buf out = BUF_INIT;

	urlcreds_walk(urls, &out);
	if (out.data == NULL)
		return xstrdup("");
	return out.data;
}

int urlcreds_has_secret(const char *urls)
{
	return urlcreds_walk(urls, NULL);
}
