/* The control socket's routes (doc/formats.md, "Control socket"), run inside the crawl's
 * loop by src/net/ctlserver.c for each well-formed request:
 *
 *   GET  /status                 state, reason and counts (JSON)
 *   GET  /report/frontier|queues|hosts|stats|revisits|rules [?format=json|text][&state=S]
 *   GET  /metrics                Prometheus text
 *   POST /pause /unpause /stop /checkpoint /reconsider-retired
 *   POST /settings               {"section.key": value, ...} (or a form body)
 *   POST /listen                 {"listen": "ADDR:PORT"}: the console's TCP
 *                                listener (control.sock only; tern console)
 *
 * Every request first goes through the operator console (ops/console.h):
 * its checks (Host, the token on TCP, the origin of a POST) and its pages
 * under /console/; the routes above are what it hands back. The same
 * routes answer on control.sock and, behind the token, on the console's TCP
 * listener. Errors are JSON objects {"error", "status"} with a 4xx or 5xx
 * status. */
#include <build-config.h>

#include "archive/smallfile.h"
#include "crawl/checkpoint.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "crawl/crawl.h"
#include "crawl/drops.h"
#include "lib/rules.h"
#include "crawl/failures.h"
#include "ops/crawlctl.h"
#include "net/ctlserver.h"
#include "net/dns.h"
#include "crawl/job.h"
#include "frontier/counts.h"
#include "frontier/frontier.h"
#include "frontier/hosts.h"
#include "crawl/report.h"
#include "lib/form.h"
#include "lib/status.h"
#include "lib/urlcreds.h"
#include "lib/xmalloc.h"
#include "ops/console.h"
#include "ops/consoletoken.h"
#include "ops/ctlaction.h"
#include "ops/ctlwalk.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct crawlctl {
	struct crawl *cr;
	struct ctlserver *srv; /* control.sock */
	struct ctlserver *tcp; /* the console's TCP listener, once asked for */
	struct console *console;
	struct consolereq_listener unix_l, tcp_l;
	char token[CONSOLEREQ_TOKEN_LEN + 1];
	char **names; /* console.host-names */
	char url[192];
	uv_timer_t sample;    /* the console's sample, once a second */
	struct ctlwalk *walk; /* GET /report/queues and /report/hosts, in pieces */
};

static enum crawl_state crawlctl_state(const struct crawl *cr)
{
	struct crawl_status cs;

	crawl_status(cr, &cs);
	return cs.state;
}

static double crawlctl_checkpoint_ms(const struct crawl *cr)
{
	struct crawl_status cs;

	crawl_status(cr, &cs);
	return (double)cs.checkpoint_last_us / 1000.0;
}

static void crawlctl_json(struct ctlserver_reply *r, json_t *j)
{
	char *text = j != NULL ? json_dumps(j, JSON_INDENT(2)) : NULL;

	if (text == NULL) {
		ctlserver_reply_error(r, 500, "could not build the answer");
	} else {
		buf_appends(&r->body, text);
		buf_appendc(&r->body, '\n');
		free(text);
	}
	json_decref(j);
}

static void crawlctl_status(struct crawl *cr, struct ctlserver_reply *r)
{
	struct frontier_counts fc;
	struct crawl_status cs;
	const struct crawl_stats *st = crawl_stats(cr);

	json_t *j;

	crawl_status(cr, &cs);
	frontier_counts(crawl_frontier(cr), &fc);
	j = json_pack("{s:s, s:s?, s:b, s:I, s:I, s:I, s:o, s:o, s:i, s:f, s:o}", "state",
	    crawl_state_name(cs.state), "reason", cs.reason, "at_finish", cs.at_finish, "pages",
	    (json_int_t)st->pages, "bytes", (json_int_t)st->bytes, "failures",
	    (json_int_t)st->failures, "failures_by_cause", failures_json(st), "dropped",
	    drops_json(st, crawl_rules(cr)), "in_flight", cs.in_flight, "seconds", cs.seconds,
	    "frontier", counts_json(&fc));
	/* Only retries left: when the next one is (tern(1), STATUS LINE). */
	if (j != NULL && cs.next_fetch_s > 0)
		json_object_set_new(j, "next_fetch_in_seconds", json_real(cs.next_fetch_s));
	crawlctl_json(r, j);
}

static void crawlctl_metrics(struct crawlctl *cc, struct ctlserver_reply *r)
{
	struct crawl *cr = cc->cr;
	const struct crawl_stats *st = crawl_stats(cr);
	struct crawl_status cs;
	static const char *const classes[6] = {"negative", "1xx", "2xx", "3xx", "4xx", "5xx"};
	struct frontier_counts fc;
	struct buf *b = &r->body;
	const struct {
		const char *name;
		uint64_t v;
	} qs[] = {
	    {"in-process", 0},
	    {"ready", 0},
	    {"snoozed", 0},
	    {"inactive", 0},
	    {"ineligible", 0},
	    {"retired", 0},
	    {"exhausted", 0},
	};
	uint64_t qv[7];

	crawl_status(cr, &cs);
	frontier_counts(crawl_frontier(cr), &fc);
	qv[0] = fc.in_process;
	qv[1] = fc.ready;
	qv[2] = fc.snoozed;
	qv[3] = fc.inactive;
	qv[4] = fc.ineligible;
	qv[5] = fc.retired;
	qv[6] = fc.exhausted;
	r->content_type = "text/plain; version=0.0.4";
	buf_appends(b,
	    "# HELP tern_pages_total Final dispositions with an HTTP status.\n"
	    "# TYPE tern_pages_total counter\n");
	buf_appendf(b, "tern_pages_total %llu\n", (unsigned long long)st->pages);
	buf_appends(b,
	    "# HELP tern_bytes_total Entity bytes of those pages.\n"
	    "# TYPE tern_bytes_total counter\n");
	buf_appendf(b, "tern_bytes_total %llu\n", (unsigned long long)st->bytes);
	buf_appends(b,
	    "# HELP tern_responses_total Final dispositions by status class.\n"
	    "# TYPE tern_responses_total counter\n");
	for (int i = 0; i < 6; i++)
		buf_appendf(b, "tern_responses_total{class=\"%s\"} %llu\n", classes[i],
		    (unsigned long long)st->status_class[i]);
	buf_appends(b, "# TYPE tern_failures_total counter\n");
	buf_appendf(b, "tern_failures_total %llu\n", (unsigned long long)st->failures);
	buf_appends(b,
	    "# HELP tern_failures_by_cause_total Final failures by cause (tern(1) FAILURES; "
	    "http counts 4xx and 5xx pages).\n# TYPE tern_failures_by_cause_total counter\n");
	for (int g = 0; g < STATUS_GROUP_COUNT; g++)
		buf_appendf(b, "tern_failures_by_cause_total{cause=\"%s\"} %llu\n",
		    status_group_word(g), (unsigned long long)st->failures_by_cause[g]);
	buf_appends(b, "# TYPE tern_retries_total counter\n");
	buf_appendf(b, "tern_retries_total %llu\n", (unsigned long long)st->retries);
	buf_appends(b, "# TYPE tern_dns_lookups_total counter\n");
	buf_appendf(b, "tern_dns_lookups_total %llu\n", (unsigned long long)st->dns_lookups);
	buf_appends(b, "# TYPE tern_robots_fetches_total counter\n");
	buf_appendf(b, "tern_robots_fetches_total %llu\n", (unsigned long long)st->robots_fetches);
	buf_appends(b, "# TYPE tern_revisits_total counter\n");
	buf_appendf(b, "tern_revisits_total %llu\n", (unsigned long long)st->revisits);
	buf_appends(b, "# TYPE tern_not_modified_total counter\n");
	buf_appendf(b, "tern_not_modified_total %llu\n", (unsigned long long)st->not_modified);
	buf_appends(b, "# TYPE tern_links_scheduled_total counter\n");
	buf_appendf(
	    b, "tern_links_scheduled_total %llu\n", (unsigned long long)st->links_scheduled);
	buf_appends(b,
	    "# HELP tern_dropped_total Links not scheduled, by reason (tern(1), DROPPED "
	    "URIS).\n# TYPE tern_dropped_total counter\n");
	for (int w = SCOPE_WHY_ACCEPT + 1; w < SCOPE_WHY_COUNT; w++)
		buf_appendf(b, "tern_dropped_total{reason=\"%s\"} %llu\n", scope_why_word(w),
		    (unsigned long long)st->dropped[w]);
	if (crawl_rules(cr) != NULL) {
		const struct rules *rl = crawl_rules(cr);

		buf_appends(b,
		    "# HELP tern_rule_decisions_total URIs decided by each [rules] rule.\n"
		    "# TYPE tern_rule_decisions_total counter\n");
		for (size_t i = 0; i < rules_count(rl); i++)
			buf_appendf(b,
			    "tern_rule_decisions_total{rule=\"%s\",decision=\"%s\"} %llu\n",
			    rules_name(rl, i), rules_accepts(rl, i) ? "accept" : "reject",
			    (unsigned long long)rules_hits(rl, i));
	}
	buf_appends(b, "# HELP tern_in_flight Fetches in flight.\n# TYPE tern_in_flight gauge\n");
	buf_appendf(b, "tern_in_flight %d\n", cs.in_flight);
	buf_appends(b, "# HELP tern_queues Frontier queues by state.\n# TYPE tern_queues gauge\n");
	for (int i = 0; i < 7; i++)
		buf_appendf(
		    b, "tern_queues{state=\"%s\"} %llu\n", qs[i].name, (unsigned long long)qv[i]);
	buf_appends(b,
	    "# HELP tern_uris_queued URIs queued (retired and ineligible queues included).\n"
	    "# TYPE tern_uris_queued gauge\n");
	buf_appendf(b, "tern_uris_queued %llu\n", (unsigned long long)fc.queued);
	buf_appends(b, "# TYPE tern_uris_discovered_total counter\n");
	buf_appendf(b, "tern_uris_discovered_total %llu\n", (unsigned long long)fc.discovered);
	buf_appends(b,
	    "# HELP tern_robots_cache_entries Servers whose robots.txt verdict is in memory.\n"
	    "# TYPE tern_robots_cache_entries gauge\n");
	buf_appendf(b, "tern_robots_cache_entries %zu\n", hosts_count(crawl_hosts(cr)));
	buf_appends(b, "# TYPE tern_robots_cache_bytes gauge\n");
	buf_appendf(b, "tern_robots_cache_bytes %zu\n", hosts_memory(crawl_hosts(cr)));
	buf_appends(b,
	    "# HELP tern_dns_cache_entries Names in the DNS cache (answers and failures).\n"
	    "# TYPE tern_dns_cache_entries gauge\n");
	buf_appendf(
	    b, "tern_dns_cache_entries %zu\n", crawl_dns(cr) ? dns_cache_count(crawl_dns(cr)) : 0);
	buf_appends(b,
	    "# HELP tern_store_write_seconds_total Time in the frontier's LevelDB writes, stalls included.\n"
	    "# TYPE tern_store_write_seconds_total counter\n");
	buf_appendf(b, "tern_store_write_seconds_total %.6f\n", (double)cs.store_write_ns / 1e9);
	buf_appends(b,
	    "# HELP tern_store_write_max_seconds The longest single LevelDB write.\n"
	    "# TYPE tern_store_write_max_seconds gauge\n");
	buf_appendf(b, "tern_store_write_max_seconds %.6f\n", (double)cs.store_write_max_ns / 1e9);
	buf_appends(b,
	    "# HELP tern_checkpoints_total Checkpoints taken by this process.\n"
	    "# TYPE tern_checkpoints_total counter\n");
	buf_appendf(b, "tern_checkpoints_total %llu\n", (unsigned long long)cs.checkpoints);
	buf_appends(b,
	    "# HELP tern_checkpoint_seconds_total Time spent taking them (the loop stalls meanwhile).\n"
	    "# TYPE tern_checkpoint_seconds_total counter\n");
	buf_appendf(
	    b, "tern_checkpoint_seconds_total %.6f\n", (double)cs.checkpoint_total_us / 1e6);
	buf_appends(b,
	    "# HELP tern_checkpoint_last_seconds Duration of the latest checkpoint.\n"
	    "# TYPE tern_checkpoint_last_seconds gauge\n");
	buf_appendf(b, "tern_checkpoint_last_seconds %.6f\n", (double)cs.checkpoint_last_us / 1e6);
	buf_appends(b,
	    "# HELP tern_resident_memory_bytes Resident set size.\n"
	    "# TYPE tern_resident_memory_bytes gauge\n");
	buf_appendf(b, "tern_resident_memory_bytes %lld\n", (long long)crawl_rss_kb() * 1024);
	buf_appends(b,
	    "# HELP tern_state The crawl's state (1 for the current one).\n"
	    "# TYPE tern_state gauge\n");
	for (int s = 0; s < CRAWL__NSTATES; s++)
		buf_appendf(b, "tern_state{state=\"%s\"} %d\n",
		    crawl_state_name((enum crawl_state)s), cs.state == (enum crawl_state)s);
	buf_appends(b,
	    "# HELP tern_uptime_seconds Time the job has crawled, over every run "
	    "(the counters above are the job's too).\n"
	    "# TYPE tern_uptime_seconds gauge\n");
	buf_appendf(b, "tern_uptime_seconds %.3f\n", cs.seconds);
	buf_appends(b, "# TYPE tern_control_connections gauge\n");
	buf_appendf(b, "tern_control_connections %u\n",
	    ctlserver_connections(cc->srv) +
		(cc->tcp != NULL ? ctlserver_connections(cc->tcp) : 0));
}

static void crawlctl_report(
    struct crawlctl *cc, const struct ctlreq *req, struct ctlserver_reply *r)
{
	struct crawl *cr = cc->cr;
	const char *what = req->path.data + strlen("/report/");
	struct buf fmt = BUF_INIT, state = BUF_INIT;
	char *err = NULL;
	int json = 0;

	if (ctlreq_query_param(req->query.data, "format", &fmt) == 0) {
		if (strcmp(fmt.data != NULL ? fmt.data : "", "json") == 0)
			json = 1;
		else if (fmt.data == NULL || strcmp(fmt.data, "text") != 0) {
			ctlserver_reply_error(r, 400, "format: expected json or text");
			goto out;
		}
	}
	r->content_type = json ? "application/json" : "text/plain; charset=utf-8";
	if (strcmp(what, "frontier") == 0) {
		/* The text form lists the longest queues: a walk over every
		 * queue record, in pieces between loop iterations. */
		if (json || ctlwalk_frontier(cc->walk, r, crawl_report_word(cr)) < 0)
			report_frontier(crawl_frontier(cr), crawl_report_word(cr), json, &r->body);
	} else if (strcmp(what, "queues") == 0) {
		/* Walked between loop iterations, answered when done. */
		int has = ctlreq_query_param(req->query.data, "state", &state) == 0;
		if (ctlwalk_queues(cc->walk, r, has ? (state.data != NULL ? state.data : "") : NULL,
			json, &err) < 0) {
			ctlserver_reply_error(r, 400, err);
			free(err);
		}
	} else if (strcmp(what, "hosts") == 0) {
		/* crawl.log read between loop iterations, answered when done. */
		if (ctlwalk_hosts(cc->walk, r, json, &err) < 0) {
			ctlserver_reply_error(r, 500, err);
			free(err);
		}
	} else if (strcmp(what, "stats") == 0) {
		json_t *j = crawl_stats_json(cr);
		if (json) {
			crawlctl_json(r, j);
		} else {
			report_stats_text(j, &r->body);
			json_decref(j);
		}
	} else if (strcmp(what, "revisits") == 0) {
		/* A walk over every URI record, in pieces. */
		if (ctlwalk_revisits(cc->walk, r, clock_wall_ms(), json) < 0)
			report_revisits(crawl_frontier(cr), clock_wall_ms(), json, &r->body);
	} else if (strcmp(what, "rules") == 0) {
		drops_report(crawl_stats(cr), crawl_rules(cr), json, &r->body);
	} else if (strcmp(what, "cluster") == 0) {
		if (crawl_cluster_report(cr, &r->body, json) < 0)
			ctlserver_reply_error(
			    r, 404, "this crawl is not a cluster node (cluster.url is empty)");
	} else {
		ctlserver_reply_error(r, 404,
		    "no such report (frontier, queues, hosts, stats, revisits, rules, cluster)");
	}
out:
	buf_free(&fmt);
	buf_free(&state);
}

/* A JSON value as tern.conf text: strings as they are, numbers and booleans
 * printed; anything else is refused. */
static int crawlctl_value_text(json_t *v, struct buf *out)
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		buf_append(out, json_string_value(v), json_string_length(v));
		return memchr(json_string_value(v), '\n', json_string_length(v)) == NULL &&
			strlen(json_string_value(v)) == json_string_length(v)
		    ? 0
		    : -1;
	case JSON_INTEGER:
		buf_appendf(out, "%lld", (long long)json_integer_value(v));
		return 0;
	case JSON_REAL:
		buf_appendf(out, "%.17g", json_real_value(v));
		return 0;
	case JSON_TRUE:
		buf_appends(out, "true");
		return 0;
	case JSON_FALSE:
		buf_appends(out, "false");
		return 0;
	default:
		return -1;
	}
}

/* Rewrites JOBDIR/tern.conf so that a resume runs with the new settings. */
static void crawlctl_save_config(struct crawl *cr)
{
	char *err = NULL;

	if (job_config_save(crawl_jobdir(cr), crawl_config(cr), &err) < 0) {
		crawl_log_event(cr, "could not rewrite tern.conf after a settings change: %s", err);
		free(err);
	}
}

/* A form body (section.key=value&...) as the JSON object of its pairs,
 * every value a string; NULL for a malformed escape. */
static json_t *crawlctl_form(const struct ctlreq *req)
{
	struct buf n = BUF_INIT, v = BUF_INIT;
	const char *p = req->body.data;
	json_t *j = json_object();
	int rc;

	while ((rc = form_next(&p, &n, &v)) != 0) {
		if (rc < 0 || memchr(n.data, '\0', n.len) != NULL) {
			json_decref(j);
			j = NULL;
			break;
		}
		json_object_set_new(j, n.data, json_stringn(v.data, v.len));
	}
	buf_free(&n);
	buf_free(&v);
	return j;
}

/* -1 with the reason when key is one a job keeps for its life
 * (config_key_for_job) and scratch gives it another value than the crawl's. */
static int crawlctl_for_job(
    struct crawl *cr, const struct config *scratch, const char *key, char **err)
{
	const char *why = config_key_for_job(key);
	int k = config_find(key);

	if (why == NULL || k < 0 ||
	    strcmp(config_text(scratch, k), config_text(crawl_config(cr), k)) == 0)
		return 0;
	*err = xasprintf("%s cannot change for a job (%s): it stays %s; a new job (tern crawl) "
			 "can use another value",
	    key, why, config_text(crawl_config(cr), k));
	return -1;
}

/* Applies the settings object j (taken), or says why not. A cluster node
 * passes settings asked here (from NULL) on to every other node, as JSON;
 * from names the node that passed them on. */
static void crawlctl_settings_apply(
    struct crawl *cr, json_t *j, json_error_t *jerr, const char *from, struct ctlserver_reply *r)
{
	int local = from == NULL;
	json_t *v, *applied;
	struct config *scratch;
	struct buf a = BUF_INIT;
	const char *key;
	char *err = NULL;
	int pass;

	if (j == NULL || !json_is_object(j) || json_object_size(j) == 0) {
		buf_appendf(&a,
		    "expected a JSON object of settings such as "
		    "{\"frontier.queue-total-budget\": 500}, or a form body "
		    "frontier.queue-total-budget=500%s%s",
		    j == NULL ? ": " : "", j == NULL ? jerr->text : "");
		ctlserver_reply_error(r, 400, a.data);
		buf_free(&a);
		json_decref(j);
		return;
	}
	/* Pass 0 checks every assignment on a scratch configuration, so that
	 * a bad one changes nothing; pass 1 applies them. The scratch has the
	 * crawl's rules, so that a rule's name used twice is refused there. */
	scratch = config_new();
	config_format_rules(crawl_config(cr), &a);
	if (a.len > 0 && config_load_text(scratch, a.data, a.len, "tern.conf", &err) < 0) {
		free(err);
		err = NULL;
	}
	applied = json_object();
	for (pass = 0; pass < 2; pass++) {
		json_object_foreach(j, key, v)
		{
			buf_reset(&a);
			if (crawlctl_value_text(v, &a) < 0) {
				err = xasprintf("%s: expected a string, number or boolean", key);
			} else if (config_set_key(pass == 0 ? scratch : crawl_config(cr), key,
				       a.data != NULL ? a.data : "", "setting", &err) == 0) {
				if (pass == 0 && crawlctl_for_job(cr, scratch, key, &err) < 0)
					break;
				/* Another node may steer what takes effect now; what
				 * a node reads at start (its files, its NATS server)
				 * and [cluster] stay its own operator's (doc/cluster.md,
				 * "Who can steer a crawl"). */
				if (pass == 0 && !local &&
				    (strncmp(key, "cluster.", 8) == 0 ||
					config_key_at_start(key))) {
					err = xasprintf(
					    "%s: not taken from another node (each node's "
					    "[cluster] and settings read at start are its own)",
					    key);
					break;
				}
				if (pass == 1) {
					json_object_set_new(applied, key,
					    json_string(
						config_key_at_start(key) ? "on resume" : "now"));
					/* A URL's password or token is not logged. */
					char *shown = urlcreds_hide(a.data != NULL ? a.data : "");
					crawl_log_event(cr, "setting changed: %s=%s%s%s%s", key,
					    strcmp(key, "cluster.url") == 0
						? shown
						: (a.data != NULL ? a.data : ""),
					    local ? "" : " (from node ", local ? "" : from,
					    local ? "" : ")");
					free(shown);
				}
				continue;
			}
			break;
		}
		if (err != NULL)
			break;
	}
	config_free(scratch);
	buf_free(&a);
	if (err != NULL) {
		ctlserver_reply_error(r, 400, err);
		free(err);
		json_decref(applied);
		json_decref(j);
		return;
	}
	crawlctl_save_config(cr);
	crawl_settings_changed(cr);
	if (local) {
		char *text = json_dumps(j, JSON_COMPACT);
		if (text != NULL)
			crawl_pass_control(cr, "settings", text);
		free(text);
	}
	json_decref(j);
	crawlctl_json(r,
	    json_pack(
		"{s:o, s:s}", "applied", applied, "state", crawl_state_name(crawlctl_state(cr))));
}

static void crawlctl_settings(struct crawl *cr, const struct ctlreq *req, struct ctlserver_reply *r)
{
	const char *ct = ctlreq_header(req, CTLREQ_H_CONTENT_TYPE);
	int form = ct != NULL && strncasecmp(ct, "application/x-www-form-urlencoded", 33) == 0;
	json_error_t jerr;
	json_t *j = form ? crawlctl_form(req) : json_loadb(req->body.data, req->body.len, 0, &jerr);

	if (form && j == NULL)
		snprintf(jerr.text, sizeof jerr.text, "malformed %%-escape in the form");
	crawlctl_settings_apply(cr, j, &jerr, NULL, r);
}

static void crawlctl_action(struct crawl *cr, enum ctlaction_id what, struct ctlserver_reply *r)
{
	const char *why = NULL;
	int rc = 0, moved = -1;

	if (what == CTLACTION_PAUSE) {
		rc = crawl_pause(cr, &why);
	} else if (what == CTLACTION_UNPAUSE) {
		rc = crawl_unpause(cr, &why);
	} else if (what == CTLACTION_STOP) {
		rc = crawl_stop(cr, "stopped by the operator", &why);
	} else if (what == CTLACTION_CHECKPOINT) {
		char name[CHECKPOINT_NAME_MAX], *err = NULL;
		if (crawl_checkpoint(cr, name, sizeof name, &err) < 0) {
			ctlserver_reply_error(r, 500, err);
			free(err);
			return;
		}
		crawlctl_json(r,
		    json_pack("{s:s, s:s, s:f}", "state", crawl_state_name(crawlctl_state(cr)),
			"checkpoint", name, "ms", (double)crawlctl_checkpoint_ms(cr)));
		return;
	} else {
		moved = frontier_reconsider_retired(crawl_frontier(cr));
		if (moved < 0) {
			ctlserver_reply_error(r, 500,
			    frontier_error(crawl_frontier(cr)) ? frontier_error(crawl_frontier(cr))
							       : "frontier store error");
			return;
		}
		crawl_log_event(cr, "reconsider-retired: %d queues back to inactive", moved);
		crawl_settings_changed(cr);
	}
	if (rc < 0) {
		ctlserver_reply_error(r, 409, why);
		return;
	}
	if (moved >= 0)
		crawlctl_json(r,
		    json_pack("{s:s, s:i}", "state", crawl_state_name(crawlctl_state(cr)),
			"reconsidered", moved));
	else
		crawlctl_json(r,
		    json_pack(
			"{s:s, s:s?}", "state", crawl_state_name(crawlctl_state(cr)), "note", why));
}

static void crawlctl_routes(void *ctx, const struct ctlreq *req, struct ctlserver_reply *r)
{
	struct crawlctl *cc = ctx;
	struct crawl *cr = cc->cr;
	const struct ctlaction *a = ctlaction_by_route(req->path.data);

	if (crawlctl_state(cr) == CRAWL_FINISHED) {
		ctlserver_reply_error(r, 503, "the crawl has ended");
		return;
	}
	if (a == NULL) {
		struct buf msg = BUF_INIT;

		buf_appends(&msg, "no such resource (see doc/formats.md, Control socket: ");
		ctlaction_routes(&msg);
		buf_appends(&msg, ")");
		ctlserver_reply_error(r, 404, msg.data);
		buf_free(&msg);
		return;
	}
	if (strcmp(req->method, a->method) != 0) {
		ctlserver_reply_error(
		    r, 405, strcmp(a->method, "GET") == 0 ? "use GET" : "use POST");
		return;
	}
	switch (a->id) {
	case CTLACTION_STATUS:
		crawlctl_status(cr, r);
		break;
	case CTLACTION_METRICS:
		crawlctl_metrics(cc, r);
		break;
	case CTLACTION_REPORT:
		crawlctl_report(cc, req, r);
		break;
	case CTLACTION_SETTINGS:
		/* Passed on to the other nodes by crawlctl_settings_apply,
		 * with the settings that take effect now. */
		crawlctl_settings(cr, req, r);
		break;
	default:
		crawlctl_action(cr, a->id, r);
		/* A cluster node passes what the operator asked on to every
		 * other node. */
		if (a->to_peers && (r->status == 0 || r->status == 200))
			crawl_pass_control(cr, a->route + 1, NULL);
		break;
	}
}

/* The console's view of the crawl. */
static void crawlctl_view_cb(void *ctx, struct console_view *v)
{
	struct crawlctl *cc = ctx;
	const struct crawl_stats *st = crawl_stats(cc->cr);
	struct crawl_status cs;

	crawl_status(cc->cr, &cs);
	memset(v, 0, sizeof *v);
	v->state = crawl_state_name(cs.state);
	v->reason = cs.reason;
	v->pages = st->pages;
	v->bytes = st->bytes;
	v->failures = st->failures;
	v->in_flight = cs.in_flight > 0 ? (uint64_t)cs.in_flight : 0;
	v->seconds = cs.seconds;
	v->rss_kb = crawl_rss_kb();
	frontier_counts(crawl_frontier(cc->cr), &v->fc);
	{
		struct buf d = BUF_INIT;

		drops_brief(st, crawl_rules(cc->cr), &d);
		snprintf(v->dropped, sizeof v->dropped, "%s", d.len > 0 ? d.data : "");
		buf_free(&d);
	}
}

static void crawlctl_sample_cb(uv_timer_t *t)
{
	struct crawlctl *cc = t->data;

	console_sample(cc->console, clock_wall_ms());
}

static void crawlctl_tcp_cb(void *ctx, const struct ctlreq *req, struct ctlserver_reply *r);

/* 1 if the listener bound at `bound` already answers what addr asks for:
 * the same address, or the same host with port 0 (any port). */
static int crawlctl_listen_same(const char *bound, const char *addr)
{
	const char *bc = strrchr(bound, ':'), *ac = strrchr(addr, ':');

	if (strcmp(bound, addr) == 0)
		return 1;
	return bc != NULL && ac != NULL && bc - bound == ac - addr &&
	    strncmp(bound, addr, (size_t)(bc - bound)) == 0 && strcmp(ac, ":0") == 0;
}

/* Opens the console's TCP listener at addr (NULL: the one open, else
 * 127.0.0.1:0). A listener already open elsewhere is replaced once the new
 * one is bound, and *moved (may be NULL; cap 64) gets its old address;
 * cc->url says where the console is. */
static int crawlctl_listen(struct crawlctl *cc, const char *addr, char *moved, char **err)
{
	struct ctlserver *tcp;
	char bound[64], old[64] = "";

	if (moved != NULL)
		moved[0] = '\0';
	if (cc->tcp != NULL) {
		ctlserver_address(cc->tcp, old, sizeof old);
		if (addr == NULL || crawlctl_listen_same(old, addr))
			return 0;
	}
	if (addr == NULL)
		addr = "127.0.0.1:0";
	if (cc->token[0] == '\0' && consoletoken_get(crawl_jobdir(cc->cr), cc->token, err) < 0)
		return -1;
	tcp = ctlserver_start_tcp(crawl_loop(cc->cr), addr, crawlctl_tcp_cb, cc, err);
	if (tcp == NULL)
		return -1;
	/* Pages open at the old address stop answering: the operator asked
	 * for the console elsewhere. */
	if (cc->tcp != NULL)
		ctlserver_close(cc->tcp);
	cc->tcp = tcp;
	ctlserver_address(cc->tcp, bound, sizeof bound);
	cc->tcp_l.port = ctlserver_port(cc->tcp);
	snprintf(cc->url, sizeof cc->url, "http://%s/console/?token=%s", bound, cc->token);
	if (old[0] != '\0') {
		crawl_log_event(cc->cr, "console moved from %s to %s", old, bound);
		if (moved != NULL)
			snprintf(moved, 64, "%s", old);
	} else {
		crawl_log_event(cc->cr, "console listening on %s", bound);
	}
	if (!ctlserver_loopback(cc->tcp)) {
		crawl_log_event(cc->cr, CONSOLE_CLEAR_WARNING, bound);
		fprintf(stderr, "tern: " CONSOLE_CLEAR_WARNING "\n", bound);
	}
	return 0;
}

/* POST /listen {"listen": "ADDR:PORT"} or {} (the listener open, or a
 * new one on loopback), control.sock only. The answer names the console's
 * URL and address, and "moved_from" when it left another address. */
static void crawlctl_listen_route(
    struct crawlctl *cc, const struct ctlreq *req, struct ctlserver_reply *r)
{
	json_t *j = json_loadb(req->body.data, req->body.len, 0, NULL), *ans;
	json_t *given = json_object_get(j, "listen");
	const char *addr = json_string_value(given);
	char *err = NULL, bound[64], moved[64];

	if (strcmp(req->method, "POST") != 0) {
		ctlserver_reply_error(r, 405, "use POST");
	} else if (!json_is_object(j) || (given != NULL && addr == NULL)) {
		ctlserver_reply_error(r, 400, "expected {\"listen\": \"127.0.0.1:PORT\"} or {}");
	} else if (crawlctl_listen(cc, addr, moved, &err) < 0) {
		ctlserver_reply_error(r, 400, err);
		free(err);
	} else {
		ctlserver_address(cc->tcp, bound, sizeof bound);
		ans = json_pack("{s:s, s:s, s:b}", "url", cc->url, "address", bound, "loopback",
		    ctlserver_loopback(cc->tcp));
		if (moved[0] != '\0')
			json_object_set_new(ans, "moved_from", json_string(moved));
		crawlctl_json(r, ans);
	}
	json_decref(j);
}

static void crawlctl_unix_cb(void *ctx, const struct ctlreq *req, struct ctlserver_reply *r)
{
	struct crawlctl *cc = ctx;

	if (strcmp(req->path.data, "/listen") == 0) {
		crawlctl_listen_route(cc, req, r);
		return;
	}
	console_handle(cc->console, &cc->unix_l, req, crawlctl_routes, cc, r);
}

static void crawlctl_tcp_cb(void *ctx, const struct ctlreq *req, struct ctlserver_reply *r)
{
	struct crawlctl *cc = ctx;

	console_handle(cc->console, &cc->tcp_l, req, crawlctl_routes, cc, r);
}

/* An operator action another cluster node passed on: applied as if asked
 * here (settings: only those that take effect now), the answer (for that
 * node's operator) dropped; tern.log says which node it came from and
 * what became of it. */
static void crawlctl_remote(void *arg, const char *node, const char *action, const char *body)
{
	struct crawlctl *cc = arg;
	const struct ctlaction *a;
	struct ctlserver_reply r;

	memset(&r, 0, sizeof r);
	a = ctlaction_by_peer_name(action);
	if (a == NULL) {
		crawl_log_event(
		    cc->cr, "cluster: unknown action '%s' from node %s ignored", action, node);
		return;
	}
	if (a->id == CTLACTION_SETTINGS) {
		json_error_t jerr;
		crawlctl_settings_apply(cc->cr, json_loads(body, 0, &jerr), &jerr, node, &r);
	} else {
		crawlctl_action(cc->cr, a->id, &r);
	}
	if (r.status != 0 && r.status != 200)
		crawl_log_event(cc->cr, "cluster: %s from node %s refused: %s", action, node,
		    r.body.data != NULL ? r.body.data : "refused");
	else
		crawl_log_event(cc->cr, "cluster: %s from node %s applied", action, node);
	buf_free(&r.body);
}

struct crawlctl *crawlctl_start(struct crawl *cr, char **err)
{
	struct crawlctl *cc = xcalloc(1, sizeof *cc);
	char *path = xasprintf("%s/control.sock", crawl_jobdir(cr));

	struct console_opts co;
	const char *listen;

	cc->cr = cr;
	cc->srv = ctlserver_start(crawl_loop(cr), path, crawlctl_unix_cb, cc, err);
	free(path);
	if (cc->srv == NULL) {
		free(cc);
		return NULL;
	}
	crawl_on_control(cr, crawlctl_remote, cc);
	/* The job's token, made now so that it is there for the console's
	 * listener; without it only the listener is refused (crawlctl_listen
	 * says why). */
	{
		char *e = NULL;
		if (consoletoken_get(crawl_jobdir(cr), cc->token, &e) < 0) {
			cc->token[0] = '\0';
			free(e);
		}
	}
	cc->names = config_names(crawl_config(cr), CK_CONSOLE_HOST_NAMES, &cc->unix_l.nnames);
	cc->unix_l.names = (const char *const *)cc->names;
	cc->unix_l.token = cc->token;
	cc->tcp_l = cc->unix_l;
	cc->tcp_l.tcp = 1;
	memset(&co, 0, sizeof co);
	co.loop = crawl_loop(cr);
	co.jobdir = crawl_jobdir(cr);
	co.cfg = crawl_config(cr);
	co.frontier = crawl_frontier(cr);
	co.view = crawlctl_view_cb;
	co.ctx = cc;
	co.live = 1;
	co.token = cc->token;
	cc->console = console_new(&co);
	cc->walk = ctlwalk_new(crawl_loop(cr), crawl_frontier(cr), crawl_jobdir(cr));
	uv_timer_init(crawl_loop(cr), &cc->sample);
	cc->sample.data = cc;
	uv_timer_start(&cc->sample, crawlctl_sample_cb, 0, 1000);
	uv_unref((uv_handle_t *)&cc->sample);
	listen = config_str(crawl_config(cr), CK_CONSOLE_LISTEN);
	if (*listen != '\0') {
		char *e = NULL;
		if (crawlctl_listen(cc, listen, NULL, &e) < 0) {
			*err = xasprintf("console.listen: %s", e);
			free(e);
			crawlctl_close(cc);
			return NULL;
		}
		fprintf(stderr, "tern: console: %s\n", cc->url);
	}
	return cc;
}

const char *crawlctl_console_url(const struct crawlctl *cc)
{
	return cc->tcp != NULL ? cc->url : NULL;
}

static void crawlctl_closed_cb(uv_handle_t *h)
{
	struct crawlctl *cc = h->data;

	config_names_free(cc->names);
	free(cc);
}

void crawlctl_close(struct crawlctl *cc)
{
	if (cc == NULL)
		return;
	crawl_on_control(cc->cr, NULL, NULL);
	/* The console first: requests waiting for it get their 503 while
	 * their connections are still there. */
	console_free(cc->console);
	ctlserver_close(cc->srv);
	if (cc->tcp != NULL)
		ctlserver_close(cc->tcp);
	/* After the servers: their closing has cancelled every walk. */
	ctlwalk_free(cc->walk);
	uv_close((uv_handle_t *)&cc->sample, crawlctl_closed_cb);
}
