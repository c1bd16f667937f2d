/* The seeds' hosts as a sorted array, sorted once after the seeds load:
 * asked only for a URI whose address the guard refuses, which is rare, so
 * a binary search over a plain array beats keeping a hash table for a
 * seed list of 100,000 hosts. */
#include <build-config.h>

#include "crawl/seedhosts.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

#include <stdlib.h>
#include <string.h>

struct seedhosts {
	char **host;
	size_t n, cap;
	int sorted; /* host[0..n) sorted and distinct */
};

struct seedhosts *seedhosts_new(void)
{
	struct seedhosts *s = xcalloc(1, sizeof *s);

	s->sorted = 1;
	return s;
}

void seedhosts_free(struct seedhosts *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->host[i]);
	free(s->host);
	free(s);
}

int seedhosts_add_url(struct seedhosts *s, const char *href)
{
	struct url_parts p;
	const char *h;
	size_t len;

	if (url_split(href, &p) < 0 || p.host_len == 0)
		return -1;
	h = href + p.host_off;
	len = p.host_len;
	if (p.host_ip == 6 && len >= 2) {
		h++;
		len -= 2;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->host = xrealloc(s->host, s->cap * sizeof *s->host);
	}
	s->host[s->n++] = xstrndup(h, len);
	s->sorted = 0;
	return 0;
}

static int seedhosts_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts and drops repeats (a site's seed list names its host many times). */
static void seedhosts_sort(struct seedhosts *s)
{
	size_t out = 0;

	if (s->sorted || s->n == 0)
		return;
	qsort(s->host, s->n, sizeof *s->host, seedhosts_cmp);
	for (size_t i = 0; i < s->n; i++) {
		if (out > 0 && strcmp(s->host[out - 1], s->host[i]) == 0)
			free(s->host[i]);
		else
			s->host[out++] = s->host[i];
	}
	s->n = out;
	s->sorted = 1;
}

int seedhosts_has(struct seedhosts *s, const char *host)
{
	if (s->n == 0)
		return 0;
	seedhosts_sort(s);
	return bsearch(&host, s->host, s->n, sizeof *s->host, seedhosts_cmp) != NULL;
}

size_t seedhosts_count(struct seedhosts *s)
{
	seedhosts_sort(s);
	return s->n;
}
