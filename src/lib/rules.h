/* Reject and accept rules: an ordered list of tests of a candidate URI (a
 * link, an embed, a redirect target, a sitemap's URL) of which the first
 * that matches decides whether the crawl schedules it; when none matches,
 * the scope (crawl.scope and the crawl.max-* keys) decides. Pure: no I/O.
 *
 * A rule is written "NAME TEST ARGUMENT" (tern.conf(5), RULES):
 *   regex PCRE2            the URI (as fetched, no fragment) contains a match
 *   surt PREFIX            its SURT starts with PREFIX ("+http://(org,example,",
 *                          "(org,example,)/wp-", or a URL for its implied
 *                          prefix); http and https alike
 *   hops PCRE2             its hop path from the seed ("LLLE") contains a match
 *   path-segments N        its path has more than N segments ('/'s)
 *   rel nofollow           the link carried rel=nofollow (<a>, <area>, <link>)
 *   kind navigation|embed|redirect|speculative
 *                          the kind of its last hop (L or M, E, R, X)
 * Regular expressions are PCRE2's (closer to the Java syntax of Heritrix's
 * MatchesRegexDecideRule than POSIX's, with \d, lazy quantifiers and
 * (?i)), compiled once with its JIT and matched under a match and depth
 * limit, so that no pattern can cost more than a bounded amount per URI: a
 * match that reaches the limit counts as no match (and is counted). Unlike
 * Heritrix's matches(), a pattern need only match part of the string;
 * anchor it with ^ and $ to match the whole. */
#ifndef TERN_RULES_H
#define TERN_RULES_H
#include <stddef.h>
#include <stdint.h>

/* A rule's name: letters, digits, '.', '_' and '-', up to this long. */
#define RULES_NAME_MAX 64
/* PCRE2's match limit (backtracking steps) and depth limit per match. */
#define RULES_MATCH_LIMIT 100000
#define RULES_DEPTH_LIMIT 1000

enum { RULES_NOFOLLOW = 1 /* the link carried rel=nofollow */ };

/* What the rules look at. */
struct rules_uri {
	const char *uri; /* absolute, without its fragment */
	size_t len;
	/* Its SURT without the scheme and '(' ("org,example,www,)/path?q"),
	 * lowercased as surt_from_parts writes it. */
	const char *surt;
	size_t surt_len;
	const char *path; /* its path ("/a/b"), not the query */
	size_t path_len;
	const char *hops; /* its hop path from the seed, "" for a seed */
	unsigned flags;	  /* RULES_NOFOLLOW */
};

struct rules;

struct rules *rules_new(void);
void rules_free(struct rules *r);
/* Appends the rule "NAME TEST ARGUMENT" (accept or reject), compiled. 0, or
 * -1 with a message in *err (caller frees) that says what is wrong with it:
 * an unknown test, a bad pattern (with its offset), a name used twice. */
int rules_add(struct rules *r, int accept, const char *text, char **err);
/* The same check as rules_add, for a rule on its own (a configuration
 * being read): 0 or -1 and *err. */
int rules_check(const char *text, char **err);
size_t rules_count(const struct rules *r);
/* The index of the first rule that matches u, or -1. */
int rules_match(struct rules *r, const struct rules_uri *u);
/* The rule at i: its name, its decision (1 accept), and how many URIs it
 * has decided (rules_hit adds one). */
const char *rules_name(const struct rules *r, size_t i);
/* Its text as written, "NAME TEST ARGUMENT" (trimmed). */
const char *rules_text(const struct rules *r, size_t i);
int rules_accepts(const struct rules *r, size_t i);
uint64_t rules_hits(const struct rules *r, size_t i);
void rules_hit(struct rules *r, size_t i);
/* Sets the count of the rule named name (counts kept across runs); 0, or
 * -1 when no rule has that name. */
int rules_set_hits(struct rules *r, const char *name, uint64_t n);
/* Matches cut short by PCRE2's limits, which counted as no match. */
uint64_t rules_limit_hits(const struct rules *r);

#endif
