/* Reads lines "base<TAB>ref" (with \t, \n, \r and \\ escaped, an empty base
 * meaning none) and prints, for each, the href url_resolve gives or ERR.
 * The other half of the differential test is tests/lib/url_diff.mjs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/url.h"

static size_t url_driver_unescape(char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			char c = s[++i];

			s[o++] = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
		} else {
			s[o++] = s[i];
		}
	}
	s[o] = '\0';
	return o;
}

int main(void)
{
	char *line = NULL, *tab;
	size_t cap = 0, blen;
	ssize_t n;
	struct buf out = BUF_INIT;

	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		tab = memchr(line, '\t', (size_t)n);
		if (tab == NULL) {
			fprintf(stderr, "url_driver: line without a tab\n");
			return 2;
		}
		blen = url_driver_unescape(line, (size_t)(tab - line));
		n = (ssize_t)url_driver_unescape(tab + 1, (size_t)(line + n - tab - 1));
		if (url_resolve(blen > 0 ? line : NULL, tab + 1, (size_t)n, &out) == 0)
			printf("%s\n", out.data);
		else
			printf("ERR\n");
	}
	free(line);
	buf_free(&out);
	return 0;
}
