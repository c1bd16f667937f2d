/* The frontier's counts as JSON (counts.h). */
#include "frontier/counts.h"
#include "frontier/frontier.h"

json_t *counts_json(const struct frontier_counts *c)
{
	return json_pack("{s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}, "
			 "s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}}",
	    "queues", "total", (json_int_t)c->queues_total, "active",
	    (json_int_t)(c->in_process + c->ready + c->snoozed), "in_process",
	    (json_int_t)c->in_process, "ready", (json_int_t)c->ready, "snoozed",
	    (json_int_t)c->snoozed, "inactive", (json_int_t)c->inactive, "ineligible",
	    (json_int_t)c->ineligible, "retired", (json_int_t)c->retired, "exhausted",
	    (json_int_t)c->exhausted, "uris", "queued", (json_int_t)c->queued, "in_flight",
	    (json_int_t)c->in_flight, "discovered", (json_int_t)c->discovered, "succeeded",
	    (json_int_t)c->succeeded, "failed", (json_int_t)c->failed, "disregarded",
	    (json_int_t)c->disregarded, "in_retired_queues", (json_int_t)c->retired_uris,
	    "in_ineligible_queues", (json_int_t)c->ineligible_uris, "waiting_revisit",
	    (json_int_t)c->revisits);
}
