/* Reports, live or offline. The frontier writes its own summary and queue
 * lines (src/frontier/frontier.c, src/frontier/wq.c); this file chooses the status word,
 * filters queue lines by state (their state word comes first, in text and in
 * JSON), wraps JSON lines into arrays, reads crawl.log for the hosts report,
 * and runs `tern report`: through the control socket when a crawl answers
 * there, else by opening the job's store itself. */
#include "crawl/report.h"
#include "lib/config.h"
#include "ops/ctl.h"
#include "frontier/frontier.h"
#include "crawl/hostsreport.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

static const char *const report_states[] = {
	"IN-PROCESS", "READY", "SNOOZED", "INACTIVE", "INELIGIBLE", "RETIRED", "EXHAUSTED",
};

void report_frontier(struct frontier *f, const char *word, int json, struct buf *out)
{
	struct frontier_counts n;
	json_t *j;
	char *text;

	if (!json) {
		struct buf b = BUF_INIT;
		const char *dash;

		frontier_report_summary(f, &b);
		/* The frontier names its own state (RUN or EMPTY); the crawl
		 * knows better (paused, held at finish, not running). */
		dash = b.data != NULL ? strstr(b.data, " - ") : NULL;
		if (dash != NULL && word != NULL) {
			buf_appends(out, word);
			buf_appends(out, dash);
		} else if (b.data != NULL) {
			buf_append(out, b.data, b.len);
		}
		buf_free(&b);
		return;
	}
	frontier_counts(f, &n);
	j = json_pack("{s:s, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}, "
	    "s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}}",
	    "state", word != NULL ? word : (frontier_is_finished(f) ? "EMPTY" : "RUN"),
	    "queues",
	    "total", (json_int_t)n.queues_total,
	    "active", (json_int_t)(n.in_process + n.ready + n.snoozed),
	    "in_process", (json_int_t)n.in_process,
	    "ready", (json_int_t)n.ready,
	    "snoozed", (json_int_t)n.snoozed,
	    "inactive", (json_int_t)n.inactive,
	    "ineligible", (json_int_t)n.ineligible,
	    "retired", (json_int_t)n.retired,
	    "exhausted", (json_int_t)n.exhausted,
	    "uris",
	    "queued", (json_int_t)n.queued,
	    "in_flight", (json_int_t)n.in_flight,
	    "discovered", (json_int_t)n.discovered,
	    "succeeded", (json_int_t)n.succeeded,
	    "failed", (json_int_t)n.failed,
	    "disregarded", (json_int_t)n.disregarded,
	    "in_retired_queues", (json_int_t)n.retired_uris,
	    "in_ineligible_queues", (json_int_t)n.ineligible_uris);
	text = j != NULL ? json_dumps(j, JSON_INDENT(2)) : NULL;
	if (text != NULL) {
		buf_appends(out, text);
		buf_appendc(out, '\n');
		free(text);
	}
	json_decref(j);
}

int report_queues(struct frontier *f, const char *state, int json, struct buf *out, char **err)
{
	struct buf all = BUF_INIT, want = BUF_INIT;
	const char *p, *end;
	size_t n = 0;

	if (state != NULL && *state != '\0') {
		size_t i;
		for (i = 0; i < sizeof report_states / sizeof report_states[0]; i++)
			if (strcasecmp(state, report_states[i]) == 0)
				break;
		if (i == sizeof report_states / sizeof report_states[0]) {
			*err = xasprintf("unknown queue state '%s' (in-process, ready, snoozed, "
			    "inactive, ineligible, retired, exhausted)", state);
			return -1;
		}
		if (json)
			buf_appendf(&want, "{\"state\":\"%s\"", report_states[i]);
		else
			buf_appendf(&want, "%s ", report_states[i]);
	}
	frontier_report_queues(f, &all, json);
	if (json)
		buf_appends(out, "[");
	for (p = all.data; p != NULL && p < all.data + all.len; p = end + 1) {
		end = memchr(p, '\n', (size_t)(all.data + all.len - p));
		if (end == NULL)
			end = all.data + all.len;
		if (want.len > 0 && ((size_t)(end - p) < want.len || memcmp(p, want.data, want.len) != 0))
			continue;
		if (json)
			buf_appends(out, n ? ",\n" : "\n");
		buf_append(out, p, (size_t)(end - p));
		if (!json)
			buf_appendc(out, '\n');
		n++;
	}
	if (json)
		buf_appends(out, "\n]\n");
	buf_free(&all);
	buf_free(&want);
	return 0;
}

int report_hosts(const char *jobdir, int json, struct buf *out, char **err)
{
	char *path = xasprintf("%s/logs/crawl.log", jobdir), *line = NULL;
	struct hostsreport *h;
	size_t cap = 0;
	ssize_t len;
	FILE *fp = fopen(path, "r");

	if (fp == NULL) {
		if (err != NULL)
			*err = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	h = hostsreport_new();
	while ((len = getline(&line, &cap, fp)) > 0)
		hostsreport_add_line(h, line, (size_t)len);
	free(line);
	fclose(fp);
	hostsreport_write(h, json, out);
	hostsreport_free(h);
	return 0;
}

/* Offline: the job's store and files, with no crawl running. */
static int report_offline(const char *jobdir, const char *what, const char *state, int json)
{
	struct config *cfg = config_new();
	struct frontier *f = NULL;
	struct buf out = BUF_INIT;
	struct timeval tv;
	char *err = NULL, *path;
	int rc = 0;

	if (strcmp(what, "hosts") == 0) {
		rc = report_hosts(jobdir, json, &out, &err) < 0 ? 1 : 0;
		goto done;
	}
	path = xasprintf("%s/tern.conf", jobdir);
	if (config_load_file(cfg, path, &err) < 0) {
		free(path);
		rc = 1;
		goto done;
	}
	free(path);
	gettimeofday(&tv, NULL);
	path = xasprintf("%s/state/frontier", jobdir);
	f = frontier_open(path, cfg, 0,
	    (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000, &err);
	free(path);
	if (f == NULL) {
		char *e = xasprintf("cannot open the job's store (is its crawl running without a "
		    "control socket?): %s", err);
		free(err);
		err = e;
		rc = 1;
		goto done;
	}
	if (strcmp(what, "frontier") == 0) {
		report_frontier(f, "HOLD", json, &out);
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
		report_frontier(f, "HOLD", 1, &fb);
		fj = json_loadb(fb.data, fb.len, 0, NULL);
		buf_free(&fb);
		if (fj != NULL)
			json_object_set_new(j, "frontier", fj);
		json_object_set_new(j, "offline", json_true());
		text = json_dumps(j, JSON_INDENT(2));
		if (text != NULL) {
			buf_appends(&out, text);
			buf_appendc(&out, '\n');
			free(text);
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

int report_run(int argc, char **argv)
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
			printf("usage: tern report JOBDIR [frontier|queues|hosts|stats] [--json] [--state STATE]\n");
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
	if (jobdir == NULL || nargs > 2 || (strcmp(what, "frontier") != 0 &&
	    strcmp(what, "queues") != 0 && strcmp(what, "hosts") != 0 &&
	    strcmp(what, "stats") != 0)) {
		fprintf(stderr, "usage: tern report JOBDIR [frontier|queues|hosts|stats] [--json] [--state STATE]\n");
		return 2;
	}
	buf_appendf(&target, "/report/%s?format=%s", what, json ? "json" : "text");
	if (state != NULL)
		buf_appendf(&target, "&state=%s", state);
	rc = ctl_request(jobdir, "GET", target.data, NULL, &status, &body, &err);
	if (rc == CTL_NOT_RUNNING) {
		rc = report_offline(jobdir, what, state, json);
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
