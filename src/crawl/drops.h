/* What the crawl declined to schedule: candidate URIs refused by a reject
 * rule or by the scope, counted by reason (crawl_stats.dropped) and by
 * rule (lib/rules.h), so that an operator can see what a rule or a setting
 * cost (tern(1), DROPPED URIS). The counts by reason travel with the job's
 * totals (crawl/jobtotals.h); the counts by rule are a record of their own
 * in the frontier's store ("rules"), written in the same batches, so both
 * survive a kill, a checkpoint and a resume. */
#ifndef TERN_DROPS_H
#define TERN_DROPS_H
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "lib/buf.h"

struct config;
struct crawl_stats;
struct frontier;
struct rules;

/* The configuration's [rules] compiled, or NULL when it has none. They
 * were checked when the configuration was read; one that no longer
 * compiles (a different PCRE2) is said on stderr and left out. */
struct rules *drops_rules_new(const struct config *cfg);
/* The rule counts of the store into r (rules of other names, from an
 * earlier configuration, are left out). 0, or -1 and *err on a store
 * error. */
int drops_load(struct frontier *f, struct rules *r, char **err);
/* Puts r's counts into the frontier's pending batch when they changed
 * since *saved (their sum), which it updates. */
void drops_save(struct frontier *f, const struct rules *r, uint64_t *saved);
/* {"out_of_scope": N, ..., "rules": {"NAME": {"decision": "reject",
 * "count": N}, ...}, "rule_limit_hits": N}; r may be NULL. */
json_t *drops_json(const struct crawl_stats *st, const struct rules *r);
/* The rules report (tern report JOBDIR rules): each rule with its
 * decision, count and text, then the URIs dropped by reason with the
 * setting behind each; JSON: {"rules": [{"name", "decision", "count",
 * "rule"}...], "dropped": drops_json}. r may be NULL. */
void drops_report(const struct crawl_stats *st, const struct rules *r, int json, struct buf *out);
/* The end summary's line, "tern: dropped: 982 by rule replytocom, 40 out
 * of scope (crawl.scope)", nothing when nothing was dropped; and a second
 * line naming crawl.scope when more links were out of scope than were
 * followed. */
void drops_print(const struct crawl_stats *st, const struct rules *r, FILE *out);
/* The same figures as "982 by rule replytocom, 40 out of scope
 * (crawl.scope)" ("" when none), appended to out, for the console. */
void drops_brief(const struct crawl_stats *st, const struct rules *r, struct buf *out);
/* The same from drops_json's object (a stats.json's "dropped"; NULL or
 * another type: nothing). */
void drops_brief_json(const json_t *dropped, struct buf *out);

#endif
