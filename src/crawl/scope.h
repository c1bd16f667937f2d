/* The crawl scope: which discovered URIs the crawl goes on to fetch. Pure: no
 * I/O.
 *
 * The decision follows Heritrix's default scope, a DecideRuleSequence in
 * which the last rule that applies wins:
 *   1. reject (SCOPE_OUT);
 *   2. accept if the URI's SURT starts with a scope prefix (http and https
 *      alike, as Heritrix's SurtPrefixedDecideRule forces both to http);
 *   3. reject (SCOPE_TOO_MANY_HOPS) if the hop path is longer than max_hops;
 *   4. accept if the trailing run of non-navigational hops (the hops since the
 *      last 'L' or 'M': embeds, redirects, speculative 'X' at most once) is
 *      1..max_trans_hops (TransclusionDecideRule), so a page's embeds are
 *      fetched even off-site or one hop past max_hops;
 *   5. reject (SCOPE_TRAP) a path where one segment, or a run of up to
 *      SCOPE_MAX_REPEAT_UNIT segments, occurs more than max_path_repeats times
 *      in a row ("/a/a/a/" with the default 2), as PathologicalPathDecideRule
 *      does, or a query longer than max_query_length;
 *   6. accept a prerequisite (last hop 'P').
 * Before the sequence: seeds are always accepted; a URI longer than
 * max_uri_length, or that is not an http(s) URL, is SCOPE_UNFETCHABLE (-7),
 * as Heritrix refuses such URIs when it parses them.
 *
 * Heritrix's TransclusionDecideRule does not look at the via either; within
 * a crawl that only fetches what its scope accepts, every via was itself
 * accepted, so the trailing-run count is the whole condition.
 *
 * Logging: like Heritrix, a candidate refused here is not a fetch and gets no
 * crawl.log line; the caller counts refusals by verdict for reports. The
 * verdicts are Heritrix fetch status codes (lib/status.h: -5000 out of
 * scope, -4001 too many hops, -7 unfetchable) so that a caller that does log them, or re-checks
 * scope on queued URIs after a scope change (where Heritrix logs -5000), uses
 * the same numbers; traps are -5001 ("blocked by user setting"), Heritrix's
 * nearest code, since it has none for trap defences.
 *
 * Deliberate difference from Heritrix: a prefix that ends inside an IP
 * address ("http://(10.0.0.1" from the seed http://10.0.0.1/) only matches
 * that address, not 10.0.0.10. */
#ifndef TERN_SCOPE_H
#define TERN_SCOPE_H
#include <stddef.h>

#include "lib/status.h"

enum scope_verdict {
	SCOPE_ACCEPT = 0,
	SCOPE_OUT = STATUS_OUT_OF_SCOPE,
	SCOPE_TOO_MANY_HOPS = STATUS_TOO_MANY_HOPS,
	SCOPE_TOO_LONG = STATUS_UNFETCHABLE,
	SCOPE_UNFETCHABLE = STATUS_UNFETCHABLE,
	SCOPE_TRAP = STATUS_BLOCKED_BY_USER,
};

/* Why a candidate URI was not scheduled, for the counts of the reports
 * (tern(1), DROPPED URIS): each has a word (stats.json), a label and the
 * setting that changes it. SCOPE_WHY_RULE is a reject rule's (lib/rules.h),
 * decided before the scope; SCOPE_WHY_NOFOLLOW a link dropped by the page's
 * <meta name=robots content=nofollow>. */
enum scope_why {
	SCOPE_WHY_ACCEPT = 0,
	SCOPE_WHY_OUT,
	SCOPE_WHY_HOPS,
	SCOPE_WHY_PATH_REPEATS,
	SCOPE_WHY_QUERY_LENGTH,
	SCOPE_WHY_URI_LENGTH,
	SCOPE_WHY_RULE,
	SCOPE_WHY_NOFOLLOW,
	SCOPE_WHY_COUNT
};
/* "out_of_scope", "too_many_hops", "path_repeats", "query_too_long",
 * "uri_too_long", "rules", "meta_nofollow" ("" for SCOPE_WHY_ACCEPT). */
const char *scope_why_word(enum scope_why w);
/* "out of scope", "too many hops", ... */
const char *scope_why_label(enum scope_why w);
/* The setting that changes it: "crawl.scope", "crawl.max-hops", ... */
const char *scope_why_setting(enum scope_why w);

/* Longest run of path segments checked for repetition ("/a/b/a/b/a/b/" is a
 * unit of 2); it bounds the trap check to linear time. */
#define SCOPE_MAX_REPEAT_UNIT 8

struct scope_opts {
	/* crawl.scope: "seeds" (each seed's implied SURT prefix, Heritrix's
	 * seeds-as-surt-prefixes), "domain" (the registered domain of each
	 * seed, subdomains included), or a list of SURT prefixes and URLs
	 * separated by whitespace, or by commas before "+", "(" or "http":
	 * "+http://(org,example,", "(org,example,www,)/docs/" (scheme-less:
	 * http and https) or "http://example.org/docs/" (its implied prefix). */
	const char *scope;
	int max_hops; /* negative: no limit */
	int max_trans_hops;
	size_t max_uri_length;	 /* 0: no limit */
	int max_path_repeats;	 /* Heritrix default 2; 0 or negative: off */
	size_t max_query_length; /* 0: no limit */
};

/* NULL if o->scope is not "seeds", "domain" or a valid prefix list;
 * scope_validate says why. */
struct scope *scope_new(const struct scope_opts *o);
/* 0, or -1 with a message in *err (caller frees). */
int scope_validate(const char *scope, char **err);
/* href is an absolute http(s) URL; adds its prefix under "seeds" and
 * "domain", nothing under an explicit list. 0, or -1 if href is not an
 * http(s) URL. */
int scope_add_seed(struct scope *s, const char *href);
/* The same for a seed as the operator wrote it ("example.org",
 * "http://example.org", "https://example.org/docs/"): under "seeds", a seed
 * with no path and no trailing slash gives the open prefix that also covers
 * subdomains, as Heritrix's seeds file does. 0 or -1. */
int scope_add_seed_plain(struct scope *s, const char *seed, size_t len);
/* Adds a SURT prefix ("http://(org,example," or "(org,example,"). 0 or -1. */
int scope_add_prefix(struct scope *s, const char *surt_prefix);
/* href: absolute URL; hops: its hop path from the seed ("" or NULL for a
 * seed, "LLE"...). Returns a scope_verdict. */
int scope_check(const struct scope *s, const char *href, const char *hops, int is_seed);
struct url_parts;
/* The same for an href of len bytes already split (p from url_split) with
 * its Heritrix SURT (surt_from_parts, with scheme): the scheduler computes
 * them once for every key of a link. */
int scope_check_parsed(const struct scope *s, const char *href, size_t len,
    const struct url_parts *p, const char *surt, size_t surt_len, const char *hops);
/* The same decision, with its reason: SCOPE_WHY_ACCEPT or the rule of the
 * sequence that refused the URI last. */
enum scope_why scope_judge_parsed(const struct scope *s, const char *href, size_t len,
    const struct url_parts *p, const char *surt, size_t surt_len, const char *hops);
/* 1 if href looks like a calendar or date page (Heritrix's
 * AntiCalendarCostAssignmentPolicy pattern), for the anti-calendar cost. */
int scope_calendar_like(const char *href);
size_t scope_prefix_count(const struct scope *s);
/* 1 if a seed adds to the scope ("seeds" and "domain"), 0 under an
 * explicit list. */
int scope_seeds_widen(const struct scope *s);
void scope_free(struct scope *s);

#endif
