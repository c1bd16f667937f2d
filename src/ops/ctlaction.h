/* The control actions (doc/formats.md, Control socket): one table that
 * the control socket's dispatch, its 404 text and the replay of actions
 * other cluster nodes pass on (ops/crawlctl.c) and `tern ctl`'s commands,
 * usage and suggestions (ops/ctl.c) all read, so that an action is added
 * in one place. Pure. */
#ifndef TERN_CTLACTION_H
#define TERN_CTLACTION_H
#include <stddef.h>
#include "lib/buf.h"

enum ctlaction_id {
	CTLACTION_STATUS,
	CTLACTION_PAUSE,
	CTLACTION_UNPAUSE,
	CTLACTION_STOP,
	CTLACTION_CHECKPOINT,
	CTLACTION_RECONSIDER_RETIRED,
	CTLACTION_SETTINGS,
	CTLACTION_REPORT,
	CTLACTION_METRICS,
};

struct ctlaction {
	enum ctlaction_id id;
	const char *cmd;    /* `tern ctl JOBDIR CMD` */
	const char *method; /* "GET" or "POST" */
	/* The socket's path; with a trailing '/', a prefix (the report's
	 * name follows). Past its '/', the name under which a cluster node
	 * passes the action on. */
	const char *route;
	int to_peers; /* a cluster node passes it on to every other node */
	/* `tern ctl`'s usage: the command column (NULL: named on the line of
	 * the action before) and what it does. */
	const char *usage, *help;
};

extern const struct ctlaction ctlaction_table[];
extern const size_t ctlaction_count;

/* The action of `tern ctl`'s command cmd, or NULL. */
const struct ctlaction *ctlaction_by_cmd(const char *cmd);
/* The action served at path (a prefix route matches what starts with
 * it), or NULL. */
const struct ctlaction *ctlaction_by_route(const char *path);
/* The action passed on by another cluster node under name, or NULL (also
 * for an action that is not passed on). */
const struct ctlaction *ctlaction_by_peer_name(const char *name);
/* The routes, comma-separated ("/status, /report/..., ..."). */
void ctlaction_routes(struct buf *out);
/* `tern ctl`'s lines for the actions, one per usage entry. */
void ctlaction_usage(struct buf *out);

#endif
