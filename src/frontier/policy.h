/* Heritrix's cost, URI precedence and queue precedence policies, pure. The
 * enum orders follow the choices of the configuration keys
 * frontier.cost-policy, frontier.uri-precedence-policy and
 * frontier.queue-precedence-policy, so config_enum values can be passed as
 * they are. */
#ifndef TERN_POLICY_H
#define TERN_POLICY_H
#include <stddef.h>
#include <stdint.h>

enum policy_cost { POLICY_COST_ZERO, POLICY_COST_UNIT, POLICY_COST_WAG, POLICY_COST_ANTI_CALENDAR };
enum policy_uri { POLICY_URI_BASE, POLICY_URI_COST, POLICY_URI_HOPS, POLICY_URI_PRELOADED };
enum policy_queue { POLICY_QUEUE_BASE, POLICY_QUEUE_HIGHEST_URI, POLICY_QUEUE_SUCCESS_COUNTS };

#define POLICY_MAX_COUNTS 8

/* The per-URI and per-queue settings (the overridable [frontier] keys), as
 * plain values so that the policies and their tests need no configuration. */
struct policy_settings {
	int64_t balance_replenish; /* frontier.balance-replenish-amount */
	int64_t total_budget;	   /* frontier.queue-total-budget, -1 none */
	int64_t error_penalty;	   /* frontier.error-penalty-amount */
	int cost_policy;	   /* enum policy_cost */
	int uri_policy;		   /* enum policy_uri */
	int uri_base;		   /* frontier.uri-base-precedence */
	int queue_policy;	   /* enum policy_queue */
	int queue_base;		   /* frontier.queue-base-precedence */
	int64_t success_counts[POLICY_MAX_COUNTS];
	size_t nsuccess_counts;
	int max_retries;	/* frontier.max-retries */
	int64_t retry_delay_ms; /* frontier.retry-delay-seconds x 1000 */
};

/* The defaults of tern.conf(5). */
void policy_settings_defaults(struct policy_settings *s);

/* Cost of fetching uri (reached from via, NULL for seeds):
 * zero 0; unit 1; wag 1, +1 with a query string, +1 more when via starts
 * with the URI's part before '?'; anti-calendar 1, +1 when the URI looks
 * like a calendar (Heritrix's regex, matched by hand in linear time). */
int64_t policy_cost(int policy, const char *uri, const char *via);
/* 1 if uri matches AntiCalendarCostAssignmentPolicy's pattern. */
int policy_calendarish(const char *uri);

/* URI precedence: base = base; cost = the cost itself (Heritrix's default);
 * hops = base + number of 'L' hops; preloaded = base + preloaded when
 * preloaded > 0, else the cost policy's value. */
int policy_uri_precedence(int policy, int base, int64_t cost, const char *hops, int preloaded);

/* Queue precedence: base = base; highest-uri = base + the lowest URI
 * precedence enqueued (min_uri < 0: empty, base + 0); success-counts =
 * base, one worse after counts[0] successes, then after each further
 * counts[i] (the last count repeating). Clipped to 1..255. */
int policy_queue_precedence(
    int policy, int base, int min_uri, uint64_t successes, const int64_t *counts, size_t ncounts);

#endif
