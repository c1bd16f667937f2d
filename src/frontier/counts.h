/* The frontier's counts as JSON: the one form that the frontier report, the
 * crawl's stats.json, the control socket's /status, the console and the
 * checkpoints' frontier.json all write, so that a count has one name
 * wherever it appears (doc/formats.md, "Reports"). Pure. */
#ifndef TERN_COUNTS_H
#define TERN_COUNTS_H
#include <jansson.h>

struct frontier_counts;

/* {"queues": {"total", "active" (in process, ready or snoozed), "in_process", "ready", "snoozed", "inactive",
 * "ineligible", "retired", "exhausted"}, "uris": {"queued", "in_flight",
 * "discovered", "succeeded", "failed", "disregarded", "in_retired_queues",
 * "in_ineligible_queues", "waiting_revisit"}}; a new reference. */
json_t *counts_json(const struct frontier_counts *c);

#endif
