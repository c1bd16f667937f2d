/* The nearest of a list of words to a word typed wrong, so that an unknown
 * key, command or report kind can suggest the one meant, as git does
 * ("crawl.max-page: unknown key; did you mean crawl.max-pages?"). */
#ifndef TERN_NEAREST_H
#define TERN_NEAREST_H
#include <stddef.h>

/* The Damerau-Levenshtein (optimal string alignment) distance between a and
 * b, counted in bytes and without regard to ASCII case. */
size_t nearest_distance(const char *a, const char *b);
/* The word of words[0..n) nearest to word, or NULL when none is near enough
 * to be the one meant: at most a third of the word's length away (and at
 * least one edit), or word is a prefix of it, or it ends with word (a key
 * given without its section). The first of equally near words wins. */
const char *nearest_word(const char *word, const char *const *words, size_t n);

#endif
