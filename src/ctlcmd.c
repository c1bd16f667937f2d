/* `tern ctl JOBDIR COMMAND [ARGS]`: the command line of the control
 * client (ops/ctl.h sends the request) and the exit status, chosen here
 * (tern(1), EXIT STATUS): 1 when no crawl answers or it refused the action
 * in its state, 2 for a usage error or any other refusal. */
#include "ctlcmd.h"
#include "crawl/job.h"
#include "lib/buf.h"
#include "lib/nearest.h"
#include "lib/xmalloc.h"
#include "ops/ctl.h"
#include "ops/ctlaction.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The usage: the actions' lines come from the table of ops/ctlaction.h. */
static void ctlcmd_usage(FILE *f)
{
	struct buf b = BUF_INIT;

	buf_appends(&b,
	    "usage: tern ctl JOBDIR COMMAND\n"
	    "Control the crawl running in JOBDIR through its control socket.\n"
	    "\n");
	ctlaction_usage(&b);
	buf_appends(&b,
	    "\n"
	    "  --json                      with report: JSON instead of text\n"
	    "  --state STATE               with report queues: only queues in STATE\n"
	    "  -h, --help                  this help\n");
	fwrite(b.data, 1, b.len, f);
	buf_free(&b);
}

/* Prints an answer: the body to stdout when it succeeded, the JSON error's
 * message to stderr otherwise. Returns the exit status. */
static int ctlcmd_print(int status, const struct buf *body)
{
	if (status >= 200 && status < 300) {
		fwrite(body->data, 1, body->len, stdout);
		if (body->len > 0 && body->data[body->len - 1] != '\n')
			putchar('\n');
		return 0;
	}
	{
		json_t *j = json_loadb(body->data, body->len, 0, NULL);
		const char *msg = j != NULL ? json_string_value(json_object_get(j, "error")) : NULL;
		/* The crawl's own words; the HTTP status only when it said none. */
		if (msg != NULL)
			fprintf(stderr, "tern: ctl: %s\n", msg);
		else
			fprintf(stderr, "tern: ctl: the crawl answered %d: %.*s\n", status,
			    (int)body->len, body->data != NULL ? body->data : "");
		json_decref(j);
	}
	return status == 501 || status == 409 ? 1 : 2;
}

/* KEY=VALUE arguments as the JSON object /settings takes (values as text:
 * the crawl parses them as tern.conf would). */
static char *ctlcmd_settings_body(int argc, char **argv)
{
	json_t *o = json_object();
	char *text;

	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char *key;
		if (eq == NULL || eq == argv[i]) {
			fprintf(stderr, "tern: ctl set: expected KEY=VALUE, got '%s'\n", argv[i]);
			json_decref(o);
			return NULL;
		}
		key = xstrndup(argv[i], (size_t)(eq - argv[i]));
		json_object_set_new(o, key, json_string(eq + 1));
		free(key);
	}
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return text;
}

int ctlcmd_run(int argc, char **argv)
{
	const struct ctlaction *act;
	const char *jobdir, *cmd, *method;
	struct buf target = BUF_INIT, body = BUF_INIT;
	char *payload = NULL, *err = NULL;
	int status = 0, rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			ctlcmd_usage(stdout);
			return 0;
		}
	}
	if (argc < 3) {
		ctlcmd_usage(stderr);
		return 2;
	}
	jobdir = argv[1];
	cmd = argv[2];
	if (jobdir[0] == '-') {
		ctlcmd_usage(stderr);
		return 2;
	}
	act = ctlaction_by_cmd(cmd);
	if (act == NULL) {
		const char *cmds[16], *near;
		size_t n = 0;

		for (size_t i = 0; i < ctlaction_count && n < sizeof cmds / sizeof cmds[0]; i++)
			cmds[n++] = ctlaction_table[i].cmd;
		near = nearest_word(cmd, cmds, n);
		if (near != NULL) {
			fprintf(stderr, "tern: ctl: unknown command '%s'; did you mean '%s'?\n",
			    cmd, near);
			return 2;
		}
		fprintf(stderr, "tern: ctl: unknown command '%s'\n", cmd);
		ctlcmd_usage(stderr);
		return 2;
	}
	method = act->method;
	if (act->id == CTLACTION_SETTINGS) {
		if (argc < 4 || (payload = ctlcmd_settings_body(argc - 3, argv + 3)) == NULL) {
			if (argc < 4)
				ctlcmd_usage(stderr);
			return 2;
		}
		buf_appends(&target, act->route);
	} else if (act->id == CTLACTION_REPORT) {
		const char *what = "frontier", *state = NULL;
		int json = 0;
		for (int i = 3; i < argc; i++) {
			if (strcmp(argv[i], "--json") == 0)
				json = 1;
			else if (strcmp(argv[i], "--state") == 0 && i + 1 < argc)
				state = argv[++i];
			else if (argv[i][0] != '-')
				what = argv[i];
			else {
				ctlcmd_usage(stderr);
				return 2;
			}
		}
		buf_appends(&target, act->route);
		ctl_append_escaped(&target, what);
		buf_appendf(&target, "?format=%s", json ? "json" : "text");
		if (state != NULL) {
			buf_appends(&target, "&state=");
			ctl_append_escaped(&target, state);
		}
	} else {
		/* An action takes no arguments; a read ignores them. */
		if (strcmp(act->method, "POST") == 0 && argc != 3) {
			ctlcmd_usage(stderr);
			return 2;
		}
		buf_appends(&target, act->route);
	}
	if (job_check_dir(jobdir, &err) < 0) {
		fprintf(stderr, "tern: ctl: %s\n", err);
		free(err);
		free(payload);
		buf_free(&target);
		return 2;
	}
	rc = ctl_request(jobdir, method, target.data, payload, &status, &body, &err);
	if (rc == CTL_NOT_RUNNING) {
		fprintf(
		    stderr, "tern: ctl: no crawl is running in %s (no control socket)\n", jobdir);
		rc = 1;
	} else if (rc < 0) {
		fprintf(stderr, "tern: ctl: %s\n", err);
		free(err);
		rc = 1;
	} else {
		rc = ctlcmd_print(status, &body);
	}
	free(payload);
	buf_free(&target);
	buf_free(&body);
	return rc;
}
