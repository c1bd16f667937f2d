/* The operator console (doc/architecture.md, "Operator console"): the pages
 * of one job, rendered in the loop that serves them (a running crawl's, or
 * `tern console`'s own when the crawl is not running). A request reaches
 * console_answer once ops/consolereq has checked its Host, token and origin
 * and chosen its page; control routes (the actions) are not the console's:
 * its script posts them to the control socket's own handler.
 *
 * The console reads the crawl through the figures its owner gives it
 * (console_view_fn), the frontier, the configuration and the job directory.
 * Its one piece of state is a ring of samples taken once a second for the
 * charts' last hour (the long view comes from logs/progress.log). */
#ifndef TERN_CONSOLE_H
#define TERN_CONSOLE_H
#include <stdint.h>
#include <uv.h>

#include "frontier/frontier.h"
#include "ops/consolereq.h"
#include "net/ctlserver.h"

struct config;

/* Said on the terminal and in logs/tern.log when the console's TCP listener
 * (%s: its address) is bound beyond loopback: the console speaks plain
 * HTTP, so its token travels in clear to anyone on the path. */
#define CONSOLE_CLEAR_WARNING                                                            \
	"warning: the console listens on %s, beyond loopback, "                          \
	"over plain HTTP: its token travels in clear; listen on 127.0.0.1 and reach it " \
	"through an SSH tunnel instead (tern(1), console)"

/* The crawl's figures at this moment. */
struct console_view {
	const char *state;  /* RUNNING ... FINISHED; OFFLINE when no crawl runs */
	const char *reason; /* may be NULL */
	uint64_t pages, bytes, failures, in_flight;
	double seconds; /* since the crawl (or this resume) started */
	long rss_kb;	/* the crawl's resident memory; 0 when unknown */
	/* Links not followed, by rule and by reason ("982 by rule replytocom,
	 * 40 out of scope (crawl.scope)"; crawl/drops.h), "" when none. */
	char dropped[512];
	struct frontier_counts fc;
};
typedef void console_view_fn(void *ctx, struct console_view *out);

struct console_opts {
	uv_loop_t *loop; /* where pages that wait for work run it */
	const char *jobdir;
	struct config *cfg; /* the crawl's live configuration */
	struct frontier *frontier;
	console_view_fn *view;
	void *ctx;
	int live;	   /* a crawl runs: actions apply, pages refresh */
	const char *token; /* the job's token: the owner's buffer, kept by the
				 * console for its life ("" until the owner has one) */
};

struct console;

struct console *console_new(const struct console_opts *o);
/* Answers the requests still waiting with 503 and frees; the loop must run
 * once more to close the console's handles. */
void console_free(struct console *c);
/* Takes the charts' sample of this second (the owner's timer calls it). */
void console_sample(struct console *c, uint64_t now_ms);
/* One request arriving at listener l, for a ctlserver handler: the
 * console's checks (ops/consolereq.h), then its page, or the control route
 * handed to control(ctx, ...) (NULL when no crawl runs: 503). */
void console_handle(struct console *c, const struct consolereq_listener *l,
    const struct ctlreq *req, ctlserver_handler control, void *ctx, struct ctlserver_reply *reply);
/* Answers r (any kind but CONSOLEREQ_CONTROL), arrived on the TCP listener
 * when tcp, into reply. */
void console_answer(
    struct console *c, const struct consolereq *r, int tcp, struct ctlserver_reply *reply);

#endif
