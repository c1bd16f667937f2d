/* Driver for the robots.txt differential test (tests/lib/robots_diff.mjs): reads
 * cases from stdin and prints tern's verdicts.
 *
 * Input, repeated: "C <agent-len> <body-len> <path-count>\n", the agent, the
 * body, then per path "<len>\n" and the path bytes.
 * Output per case: "<crawl-delay-ms> <verdicts>\n", one '1' (allowed) or '0'
 * per path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/robots.h"
#include "lib/xmalloc.h"

static int robots_driver_number(const char **p, const char *end, char stop, size_t *out)
{
	size_t v = 0;
	int digits = 0;

	while (*p < end && **p >= '0' && **p <= '9') {
		v = v * 10 + (size_t)(**p - '0');
		(*p)++;
		digits++;
	}
	if (digits == 0 || *p >= end || **p != stop)
		return -1;
	(*p)++;
	*out = v;
	return 0;
}

int main(void)
{
	struct buf in = BUF_INIT;
	char chunk[65536];
	size_t n;
	const char *p, *end;

	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		buf_append(&in, chunk, n);
	p = in.data;
	end = in.data + in.len;
	while (p < end) {
		size_t alen, blen, npaths, i;
		char *agent;
		struct robots *r;

		if (end - p < 2 || p[0] != 'C' || p[1] != ' ')
			goto bad;
		p += 2;
		if (robots_driver_number(&p, end, ' ', &alen) < 0 ||
		    robots_driver_number(&p, end, ' ', &blen) < 0 ||
		    robots_driver_number(&p, end, '\n', &npaths) < 0 ||
		    (size_t)(end - p) < alen + blen)
			goto bad;
		agent = xstrndup(p, alen);
		p += alen;
		r = robots_parse(p, blen, agent);
		p += blen;
		printf("%lld ", (long long)robots_crawl_delay_ms(r));
		for (i = 0; i < npaths; i++) {
			size_t plen;

			if (robots_driver_number(&p, end, '\n', &plen) < 0 ||
			    (size_t)(end - p) < plen) {
				robots_free(r);
				free(agent);
				goto bad;
			}
			putchar(robots_allowed(r, p, plen) ? '1' : '0');
			p += plen;
		}
		putchar('\n');
		robots_free(r);
		free(agent);
	}
	buf_free(&in);
	return 0;
bad:
	fprintf(stderr, "robots_driver: malformed input at byte %zu\n", (size_t)(p - in.data));
	buf_free(&in);
	return 2;
}
