/* `tern report JOBDIR [frontier|queues|hosts|stats|revisits]`: through the control
 * socket when a crawl answers there (the same builders, live), else by
 * opening the job's store and logs itself (src/crawl/report.c). */
#include "reportcmd.h"
#include "cluster/cluster.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "ops/ctl.h"
#include "frontier/frontier.h"
#include "crawl/clusternode.h"
#include "crawl/drops.h"
#include "crawl/failures.h"
#include "crawl/job.h"
#include "crawl/jobtotals.h"
#include "crawl/report.h"
#include "lib/rules.h"
#include "lib/nearest.h"
#include "lib/xmalloc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Heritrix's word for the frontier of a job no crawl runs: FINISH once it
 * finished or is at a limit of the job (a resume would not start it),
 * else HOLD (stopped or killed: a resume continues it). */
static const char *reportcmd_word(struct frontier *f, const struct config *cfg)
{
	struct jobtotals t;
	char *err = NULL;

	if (jobtotals_load(f, &t, &err) < 0) {
		free(err);
		return "HOLD";
	}
	return t.finished_ms != 0 || jobtotals_limit(cfg, &t.stats, t.elapsed_ms) != NULL ? "FINISH"
											  : "HOLD";
}

/* The job's counts as its store has them, over those of the last
 * stats.json: after a kill, stats.json is the previous run's. The rules
 * are the job's (its tern.conf, cfg), their counts the store's. */
static void reportcmd_totals(struct frontier *f, const struct config *cfg, json_t *j)
{
	static const char *const classes[6] = {"negative", "1xx", "2xx", "3xx", "4xx", "5xx"};
	struct jobtotals t;
	struct rules *rules;
	char *err = NULL;
	json_t *st;

	if (jobtotals_load(f, &t, &err) != 1) {
		free(err);
		return;
	}
	json_object_set_new(j, "pages", json_integer((json_int_t)t.stats.pages));
	json_object_set_new(j, "bytes", json_integer((json_int_t)t.stats.bytes));
	json_object_set_new(j, "failures", json_integer((json_int_t)t.stats.failures));
	json_object_set_new(j, "dns_lookups", json_integer((json_int_t)t.stats.dns_lookups));
	json_object_set_new(j, "robots_fetches", json_integer((json_int_t)t.stats.robots_fetches));
	json_object_set_new(j, "retries", json_integer((json_int_t)t.stats.retries));
	json_object_set_new(j, "revisits", json_integer((json_int_t)t.stats.revisits));
	json_object_set_new(j, "not_modified", json_integer((json_int_t)t.stats.not_modified));
	json_object_set_new(j, "seconds", json_real((double)t.elapsed_ms / 1000.0));
	json_object_set_new(j, "pages_per_second",
	    json_real(
		t.elapsed_ms > 0 ? (double)t.stats.pages * 1000.0 / (double)t.elapsed_ms : 0.0));
	st = json_object();
	for (int i = 0; i < 6; i++)
		json_object_set_new(
		    st, classes[i], json_integer((json_int_t)t.stats.status_class[i]));
	json_object_set_new(j, "statuses", st);
	json_object_set_new(j, "failures_by_cause", failures_json(&t.stats));
	rules = drops_rules_new(cfg);
	if (drops_load(f, rules, &err) < 0)
		free(err);
	json_object_set_new(j, "dropped", drops_json(&t.stats, rules));
	rules_free(rules);
}

/* Offline: the job's store and files, with no crawl running. */
static int reportcmd_offline(const char *jobdir, const char *what, const char *state, int json)
{
	struct config *cfg = config_new();
	struct frontier *f = NULL;
	struct buf out = BUF_INIT;
	char *err = NULL, *path;
	int rc = 0;

	if (strcmp(what, "hosts") == 0) {
		rc = report_hosts(jobdir, json, &out, &err) < 0 ? 1 : 0;
		goto done;
	}
	path = xasprintf("%s/tern.conf", jobdir);
	if (job_config_load(cfg, path, &err) < 0) {
		free(path);
		rc = 1;
		goto done;
	}
	free(path);
	if (strcmp(what, "cluster") == 0) {
		/* The node is not running: the cluster is read from NATS. */
		struct natsio_auth auth;
		clusternode_auth(cfg, &auth);
		if (config_str(cfg, CK_CLUSTER_URL)[0] == '\0') {
			err = xstrdup("this job is not a cluster node (cluster.url is empty)");
			rc = 2;
		} else if (cluster_report_offline(config_str(cfg, CK_CLUSTER_URL), &auth,
			       config_str(cfg, CK_CLUSTER_CRAWL_ID),
			       (unsigned)config_int(cfg, CK_CLUSTER_PARTITIONS), &out, json,
			       &err) < 0) {
			rc = 1;
		}
		goto done;
	}
	if (job_check_unlocked(jobdir, &err) < 0) {
		rc = 1;
		goto done;
	}
	path = xasprintf("%s/state/frontier", jobdir);
	f = frontier_open(path, cfg, 0, clock_wall_ms(), &err);
	free(path);
	if (f == NULL) {
		char *e = xasprintf("cannot open the job's store: %s", err);
		free(err);
		err = e;
		rc = 1;
		goto done;
	}
	if (strcmp(what, "frontier") == 0) {
		report_frontier(f, reportcmd_word(f, cfg), json, &out);
	} else if (strcmp(what, "revisits") == 0) {
		report_revisits(f, clock_wall_ms(), json, &out);
	} else if (strcmp(what, "rules") == 0) {
		/* The job's rules (its tern.conf), their counts and the drops
		 * by reason from the store. */
		struct rules *rules = drops_rules_new(cfg);
		struct jobtotals t;

		if (jobtotals_load(f, &t, &err) < 0 || drops_load(f, rules, &err) < 0)
			rc = 1;
		else
			drops_report(&t.stats, rules, json, &out);
		rules_free(rules);
	} else if (strcmp(what, "queues") == 0) {
		rc = report_queues(f, state, json, &out, &err) < 0 ? 2 : 0;
	} else {
		/* stats: the last stats.json the crawl wrote, with the store's
		 * current frontier counts. */
		struct buf fb = BUF_INIT;
		json_t *j, *fj;
		char *text;

		path = xasprintf("%s/reports/stats.json", jobdir);
		j = json_load_file(path, 0, NULL);
		free(path);
		if (j == NULL || !json_is_object(j)) {
			json_decref(j);
			j = json_object();
		}
		reportcmd_totals(f, cfg, j);
		report_frontier(f, reportcmd_word(f, cfg), 1, &fb);
		fj = json_loadb(fb.data, fb.len, 0, NULL);
		buf_free(&fb);
		if (fj != NULL)
			json_object_set_new(j, "frontier", fj);
		json_object_set_new(j, "offline", json_true());
		text = json ? json_dumps(j, JSON_INDENT(2)) : NULL;
		if (text != NULL) {
			buf_appends(&out, text);
			buf_appendc(&out, '\n');
			free(text);
		} else if (!json) {
			report_stats_text(j, &out);
		}
		json_decref(j);
	}
done:
	if (rc == 0)
		fwrite(out.data, 1, out.len, stdout);
	else
		fprintf(stderr, "tern: report: %s\n", err != NULL ? err : "failed");
	free(err);
	buf_free(&out);
	frontier_close(f);
	config_free(cfg);
	return rc;
}

#define REPORTCMD_USAGE                                                                   \
	"usage: tern report JOBDIR [frontier|queues|hosts|stats|revisits|rules|cluster] " \
	"[--json]\n                          [--state STATE]\n"

static const char reportcmd_usage[] = REPORTCMD_USAGE;

/* The reports, as the usage names them. */
static const char *const reportcmd_kinds[] = {
    "frontier", "queues", "hosts", "stats", "revisits", "rules", "cluster"};
#define REPORTCMD_NKINDS (sizeof reportcmd_kinds / sizeof reportcmd_kinds[0])

static int reportcmd_known(const char *what)
{
	for (size_t i = 0; i < REPORTCMD_NKINDS; i++)
		if (strcmp(what, reportcmd_kinds[i]) == 0)
			return 1;
	return 0;
}

static const char reportcmd_help[] =
    REPORTCMD_USAGE "A report of the job: live from its running crawl, else from its store.\n"
		    "\n"
		    "  --json               JSON instead of text\n"
		    "  --state STATE        queues: only those in STATE (ready, retired, ...)\n"
		    "  -h, --help           this help\n";

int reportcmd_run(int argc, char **argv)
{
	const char *jobdir = NULL, *what = "frontier", *state = NULL;
	struct buf target = BUF_INIT, body = BUF_INIT;
	char *err = NULL;
	int json = 0, status = 0, rc, nargs = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (strcmp(argv[i], "--state") == 0 && i + 1 < argc) {
			state = argv[++i];
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(reportcmd_help, stdout);
			return 0;
		} else if (argv[i][0] == '-' || nargs == 2) {
			nargs = 3;
			break;
		} else if (nargs++ == 0) {
			jobdir = argv[i];
		} else {
			what = argv[i];
		}
	}
	if (jobdir == NULL || nargs > 2) {
		fputs(reportcmd_usage, stderr);
		return 2;
	}
	if (!reportcmd_known(what)) {
		const char *near = nearest_word(what, reportcmd_kinds, REPORTCMD_NKINDS);
		fprintf(stderr, "tern: report: unknown report '%s'%s%s%s\n%s", what,
		    near != NULL ? "; did you mean '" : "", near != NULL ? near : "",
		    near != NULL ? "'?" : "", reportcmd_usage);
		return 2;
	}
	if (job_check_dir(jobdir, &err) < 0) {
		fprintf(stderr, "tern: report: %s\n", err);
		free(err);
		return 2;
	}
	/* what is one of the names above; the state is the operator's. */
	buf_appendf(&target, "/report/%s?format=%s", what, json ? "json" : "text");
	if (state != NULL) {
		buf_appends(&target, "&state=");
		ctl_append_escaped(&target, state);
	}
	rc = ctl_request(jobdir, "GET", target.data, NULL, &status, &body, &err);
	if (rc == CTL_NOT_RUNNING) {
		rc = reportcmd_offline(jobdir, what, state, json);
	} else if (rc < 0) {
		fprintf(stderr, "tern: report: %s\n", err);
		free(err);
		rc = 1;
	} else if (status != 200) {
		json_t *j = json_loadb(body.data, body.len, 0, NULL);
		const char *msg = j != NULL ? json_string_value(json_object_get(j, "error")) : NULL;
		fprintf(stderr, "tern: report: %s\n", msg != NULL ? msg : "the crawl refused");
		json_decref(j);
		rc = status >= 400 && status < 500 ? 2 : 1;
	} else {
		fwrite(body.data, 1, body.len, stdout);
		rc = 0;
	}
	buf_free(&target);
	buf_free(&body);
	return rc;
}
