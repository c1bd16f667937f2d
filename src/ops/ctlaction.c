/* The table of control actions (ctlaction.h). */
#include "ops/ctlaction.h"

#include <string.h>

/* In `tern ctl`'s order. The column of the usage is 28 wide. */
const struct ctlaction ctlaction_table[] = {
    {CTLACTION_STATUS, "status", "GET", "/status", 0, "status",
	"the crawl's state and counts (JSON)"},
    {CTLACTION_PAUSE, "pause", "POST", "/pause", 1, "pause | unpause | stop",
	"hold, resume, or end the crawl"},
    {CTLACTION_UNPAUSE, "unpause", "POST", "/unpause", 1, NULL, NULL},
    {CTLACTION_STOP, "stop", "POST", "/stop", 1, NULL, NULL},
    {CTLACTION_CHECKPOINT, "checkpoint", "POST", "/checkpoint", 1, "checkpoint",
	"write a checkpoint"},
    {CTLACTION_RECONSIDER_RETIRED, "reconsider-retired", "POST", "/reconsider-retired", 1,
	"reconsider-retired", "move retired queues back to inactive"},
    {CTLACTION_SETTINGS, "set", "POST", "/settings", 1, "set KEY=VALUE...",
	"change settings mid-crawl (tern.conf(5) keys)"},
    {CTLACTION_REPORT, "report", "GET", "/report/", 0,
	"report [frontier|queues|hosts|stats|revisits] [--json] [--state STATE]",
	"a report of the running crawl"},
    {CTLACTION_METRICS, "metrics", "GET", "/metrics", 0, "metrics", "Prometheus text"},
};
const size_t ctlaction_count = sizeof ctlaction_table / sizeof ctlaction_table[0];

/* Whether route is a prefix (ends with '/'). */
static int ctlaction_is_prefix(const char *route)
{
	size_t n = strlen(route);

	return n > 1 && route[n - 1] == '/';
}

const struct ctlaction *ctlaction_by_cmd(const char *cmd)
{
	for (size_t i = 0; i < ctlaction_count; i++)
		if (strcmp(ctlaction_table[i].cmd, cmd) == 0)
			return &ctlaction_table[i];
	return NULL;
}

const struct ctlaction *ctlaction_by_route(const char *path)
{
	for (size_t i = 0; i < ctlaction_count; i++) {
		const char *r = ctlaction_table[i].route;

		if (ctlaction_is_prefix(r) ? strncmp(path, r, strlen(r)) == 0
					   : strcmp(path, r) == 0)
			return &ctlaction_table[i];
	}
	return NULL;
}

const struct ctlaction *ctlaction_by_peer_name(const char *name)
{
	for (size_t i = 0; i < ctlaction_count; i++)
		if (ctlaction_table[i].to_peers && strcmp(ctlaction_table[i].route + 1, name) == 0)
			return &ctlaction_table[i];
	return NULL;
}

void ctlaction_routes(struct buf *out)
{
	for (size_t i = 0; i < ctlaction_count; i++) {
		const char *r = ctlaction_table[i].route;

		buf_appendf(
		    out, "%s%s%s", i > 0 ? ", " : "", r, ctlaction_is_prefix(r) ? "..." : "");
	}
}

void ctlaction_usage(struct buf *out)
{
	for (size_t i = 0; i < ctlaction_count; i++) {
		const struct ctlaction *a = &ctlaction_table[i];

		if (a->usage == NULL)
			continue;
		/* A command too wide for its column gets the line above. */
		if (strlen(a->usage) > 26)
			buf_appendf(out, "  %s\n  %-26s  %s\n", a->usage, "", a->help);
		else
			buf_appendf(out, "  %-26s  %s\n", a->usage, a->help);
	}
}
