/* crawl.log lines for the console (logline.h). */
#include "ops/logline.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

int logline_parse(const char *line, size_t len, struct logline *out)
{
	const char *p = line, *end = line + len;
	int k = 0;
	long v = 0;
	size_t i;

	while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	while (k < LOGLINE__COUNT) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		out->f[k] = p;
		/* Annotations are the rest of the line: they hold no spaces
		 * when tern writes them, but another writer's might. */
		if (k == LOGLINE_ANNOTATIONS) {
			out->n[k++] = (size_t)(end - p);
			break;
		}
		while (p < end && *p != ' ')
			p++;
		out->n[k] = (size_t)(p - out->f[k]);
		k++;
	}
	if (k < LOGLINE_MIME + 1)
		return -1;
	for (; k < LOGLINE__COUNT; k++) {
		out->f[k] = "";
		out->n[k] = 0;
	}
	i = out->f[LOGLINE_STATUS][0] == '-' ? 1 : 0;
	if (out->n[LOGLINE_STATUS] <= i || out->n[LOGLINE_STATUS] > 7)
		return -1;
	for (; i < out->n[LOGLINE_STATUS]; i++) {
		char c = out->f[LOGLINE_STATUS][i];
		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (c - '0');
	}
	out->status = out->f[LOGLINE_STATUS][0] == '-' ? (int)-v : (int)v;
	return 0;
}

void logline_host(const struct logline *l, const char **host, size_t *len)
{
	const char *u = l->f[LOGLINE_URI], *end = u + l->n[LOGLINE_URI], *s, *h, *at;

	*host = u;
	*len = 0;
	if (l->n[LOGLINE_URI] > 4 && strncasecmp(u, "dns:", 4) == 0) {
		*host = u + 4;
		*len = l->n[LOGLINE_URI] - 4;
		return;
	}
	s = memchr(u, ':', l->n[LOGLINE_URI]);
	if (s == NULL || end - s < 3 || s[1] != '/' || s[2] != '/')
		return;
	h = s + 3;
	for (s = h; s < end && *s != '/' && *s != '?' && *s != '#'; s++)
		;
	at = h;
	for (const char *c = h; c < s; c++)
		if (*c == '@')
			at = c + 1;
	h = at;
	if (h < s && *h == '[') {
		const char *close = memchr(h, ']', (size_t)(s - h));
		*host = h;
		*len = close != NULL ? (size_t)(close - h + 1) : (size_t)(s - h);
		return;
	}
	*host = h;
	*len = (size_t)(s - h);
	for (const char *c = h; c < s; c++) {
		if (*c == ':') {
			*len = (size_t)(c - h);
			break;
		}
	}
}

static int logline_status_match(int status, const char *want)
{
	size_t n = strlen(want);

	if (n == 3 && want[1] == 'x' && want[2] == 'x' && want[0] >= '1' && want[0] <= '9')
		return status / 100 == want[0] - '0';
	return atoi(want) == status &&
	    strspn(want + (want[0] == '-'), "0123456789") == n - (want[0] == '-') &&
	    n > (size_t)(want[0] == '-');
}

int logline_match(const struct logline *l, const struct logline_filter *f)
{
	if (f->status != NULL && *f->status != '\0' && !logline_status_match(l->status, f->status))
		return 0;
	if (f->host != NULL && *f->host != '\0') {
		const char *h;
		size_t n, fn = strlen(f->host);
		logline_host(l, &h, &n);
		if (n < fn || strncasecmp(h + n - fn, f->host, fn) != 0 ||
		    (n > fn && h[n - fn - 1] != '.'))
			return 0;
	}
	if (f->mime != NULL && *f->mime != '\0') {
		size_t fn = strlen(f->mime);
		if (l->n[LOGLINE_MIME] < fn || strncasecmp(l->f[LOGLINE_MIME], f->mime, fn) != 0)
			return 0;
	}
	return 1;
}
