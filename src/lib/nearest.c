/* The nearest word to a word typed wrong (nearest.h). */
#include "lib/nearest.h"
#include "lib/xmalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longer words are not compared: a name is never this long, and the cost
 * of the table is the product of the two lengths. */
#define NEAREST_MAX_LEN 256

size_t nearest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *d, cols, best;

	if (la > NEAREST_MAX_LEN || lb > NEAREST_MAX_LEN)
		return la > lb ? la : lb;
	/* Three rows of the table: two back for a transposition. */
	cols = lb + 1;
	d = xcalloc(3 * cols, sizeof *d);
	for (size_t j = 0; j <= lb; j++)
		d[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = d + (i % 3) * cols, *prev = d + ((i - 1) % 3) * cols,
		       *prev2 = d + ((i + 1) % 3) * cols;
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb, v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	best = d[(la % 3) * cols + lb];
	free(d);
	return best;
}

/* 1 if w ends with ".word" or "-word": a key named without its section. */
static int nearest_suffix(const char *w, const char *word)
{
	size_t lw = strlen(w), l = strlen(word);

	return l > 0 && lw > l && strcasecmp(w + lw - l, word) == 0 &&
	    (w[lw - l - 1] == '.' || w[lw - l - 1] == '-');
}

const char *nearest_word(const char *word, const char *const *words, size_t n)
{
	size_t len = strlen(word), limit = len / 3, best_d = (size_t)-1;
	const char *best = NULL;

	if (limit < 1)
		limit = 1;
	if (len == 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d = nearest_distance(word, words[i]);
		if (d > limit && strncasecmp(words[i], word, len) != 0 &&
		    !nearest_suffix(words[i], word))
			continue;
		/* A prefix or a suffix match ranks after every close edit. */
		if (d > limit)
			d = limit + 1 + d;
		if (d < best_d) {
			best_d = d;
			best = words[i];
		}
	}
	return best;
}
