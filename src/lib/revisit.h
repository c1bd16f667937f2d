/* When to visit a URI again in a continuous crawl: the adaptive interval
 * rule, its seeding from a sitemap's <changefreq> and <lastmod>, a
 * sitemap <priority> as a URI precedence, and the change-rate estimate
 * the revisits report shows. Pure arithmetic on seconds and milliseconds.
 *
 * The rule is Heritrix 1's (AdaptiveRevisitFrontier with its
 * WaitEvaluator, Sigurdsson 2005): every URI carries a wait interval,
 * `initial` after its first visit; after each later visit it is divided by
 * `changed-factor` when the content changed and multiplied by
 * `unchanged-factor` when it did not, then clamped to [min, max]; a visit
 * that tells nothing about change (a failure, an error status) keeps it.
 * So a page is visited about as often as it changes, within the bounds:
 * a multiplicative search for each page's change interval. Cho and
 * Garcia-Molina ("Effective page refresh policies for Web crawlers", ACM
 * TODS 28(4), 2003) show why the bounds matter: pages that change faster
 * than they can be fetched are best visited less, not more (the min
 * bound), and their estimator of a page's change rate from n visits at
 * interval I with X changes seen, r = -ln((n - X + 0.5) / (n + 0.5)) / I
 * ("Estimating frequency of change", ACM TOIT 3(3), 2003), is what the
 * report gives per host. */
#ifndef TERN_REVISIT_H
#define TERN_REVISIT_H
#include <stdint.h>
#include "lib/sitemap.h"

struct revisit_rule {
	int64_t initial_s;	 /* revisit.initial-interval-seconds */
	int64_t min_s;		 /* revisit.min-interval-seconds */
	int64_t max_s;		 /* revisit.max-interval-seconds */
	double changed_factor;	 /* revisit.changed-factor (>= 1) */
	double unchanged_factor; /* revisit.unchanged-factor (>= 1) */
};

/* What a visit learnt about the content. */
enum revisit_change {
	REVISIT_UNKNOWN,  /* nothing: a failure, an error status, a first visit */
	REVISIT_CHANGED,  /* a new payload digest */
	REVISIT_UNCHANGED /* 304 Not Modified, or the same payload digest */
};

/* The defaults of tern.conf(5) and Heritrix's factors: 1 day,
 * 1 hour, 30 days, 1.5, 1.5. */
void revisit_defaults(struct revisit_rule *r);

/* Clamps s to [min, max] (max wins if min > max, as in politeness). */
int64_t revisit_clamp(const struct revisit_rule *r, int64_t s);

/* The interval after a visit: prev_s is the interval the URI had (0: it
 * has none yet, which gives `initial`, clamped). */
int64_t revisit_interval(const struct revisit_rule *r, int64_t prev_s, enum revisit_change c);

/* The first interval of a URI a sitemap lists: its <changefreq> as an
 * interval (always: min; hourly 3600; daily 86400; weekly 604800;
 * monthly 2592000; yearly 31536000; never: max), or without one, when it
 * has a <lastmod> at or before now, the time since that change (a page
 * unchanged for long is likely to stay so), else `initial`; clamped. */
int64_t revisit_seed(const struct revisit_rule *r, enum sitemap_changefreq cf, int has_lastmod,
    int64_t lastmod_ms, int64_t now_ms);

/* Whether a sitemap's <lastmod> says the page changed after the capture
 * made at last_visit_ms, so that its revisit is due now. */
int revisit_lastmod_newer(int has_lastmod, int64_t lastmod_ms, int64_t last_visit_ms);

/* A URI precedence for a sitemap <priority> (0.0-1.0, the protocol's
 * default 0.5 when absent: negative): base for 1.0, base + 10 for 0.0, in
 * steps of 0.1 (lower precedence goes first; Heritrix's scale). */
int revisit_priority_precedence(double priority, int base);

/* Cho and Garcia-Molina's estimate of changes per second from n visits
 * that told change or not, x of them changes, at a mean interval of
 * interval_s seconds; 0 when n or the interval is 0. */
double revisit_change_rate(uint64_t n, uint64_t x, double interval_s);

#endif
