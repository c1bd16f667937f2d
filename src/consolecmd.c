/* `tern console JOBDIR [--listen ADDR:PORT]`. When the job's crawl answers
 * on control.sock, it is asked (POST /listen) to open the console's TCP
 * listener in its own loop, and the URL it answers is printed: the crawl
 * serves the console, this process ends. When no crawl answers, this
 * process serves the console itself, offline: it opens the job's store (as
 * `tern report` does, which holds the job's lock until it ends) and the
 * logs, and answers the same pages with the job as it was left, actions
 * refused, until SIGINT or SIGTERM. Offline there is no control.sock: `tern
 * ctl` and `tern report` keep saying that no crawl runs. */
#include "consolecmd.h"
#include "archive/crawllog.h"
#include "crawl/drops.h"
#include "crawl/job.h"
#include "frontier/frontier.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "lib/xmalloc.h"
#include "net/ctlserver.h"
#include "ops/console.h"
#include "ops/consoletoken.h"
#include "ops/ctl.h"

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#define CONSOLECMD_USAGE "usage: tern console JOBDIR [--listen ADDR:PORT]\n"

struct consolecmd {
	uv_loop_t loop;
	char *jobdir;
	struct frontier *frontier;
	struct console *console;
	struct ctlserver *srv;
	struct consolereq_listener l;
	char **names;
	char reason[160];
	char dropped[512]; /* the links not followed, from stats.json (crawl/drops.h) */
	uv_signal_t sigint, sigterm;
	/* The figures of the crawl's last reports/stats.json. */
	uint64_t pages, bytes, failures;
	double seconds;
};

/* The offline console bound beyond loopback: said on the terminal and in
 * the job's logs/tern.log, as a crawl says it. */
static void consolecmd_warn_clear(const char *jobdir, const char *bound)
{
	char *path = xasprintf("%s/logs/tern.log", jobdir), t[32];
	FILE *fp = fopen(path, "a");

	fprintf(stderr, "tern: " CONSOLE_CLEAR_WARNING "\n", bound);
	if (fp != NULL) {
		crawllog_iso_time(clock_wall_ms(), t);
		fprintf(fp, "%s " CONSOLE_CLEAR_WARNING "\n", t, bound);
		fclose(fp);
	}
	free(path);
}

/* Asks the running crawl to listen at addr (NULL: where its console is
 * already, else on loopback): 0 printed, CTL_NOT_RUNNING, or the exit
 * status of a failure. */
static int consolecmd_live(const char *jobdir, const char *addr)
{
	json_t *req = addr != NULL ? json_pack("{s:s}", "listen", addr) : json_object(), *ans;
	char *body = json_dumps(req, JSON_COMPACT), *err = NULL;
	struct buf out = BUF_INIT;
	int status = 0, rc;

	rc = ctl_request(jobdir, "POST", "/listen", body, &status, &out, &err);
	free(body);
	json_decref(req);
	if (rc == CTL_NOT_RUNNING) {
		buf_free(&out);
		return CTL_NOT_RUNNING;
	}
	if (rc < 0) {
		fprintf(stderr, "tern: console: %s\n", err);
		free(err);
		buf_free(&out);
		return 1;
	}
	ans = json_loadb(out.data, out.len, 0, NULL);
	if (status == 200 && json_string_value(json_object_get(ans, "url")) != NULL) {
		const char *bound = json_string_value(json_object_get(ans, "address"));
		const char *moved = json_string_value(json_object_get(ans, "moved_from"));

		if (moved != NULL)
			fprintf(stderr,
			    "tern: console: moved from %s to %s (pages open at the old "
			    "address stop answering)\n",
			    moved, bound != NULL ? bound : "");
		/* The crawl said so in its tern.log and on its terminal. */
		if (json_is_false(json_object_get(ans, "loopback")))
			fprintf(stderr, "tern: " CONSOLE_CLEAR_WARNING "\n",
			    bound != NULL ? bound : "");
		printf("%s\n", json_string_value(json_object_get(ans, "url")));
		rc = 0;
	} else {
		const char *msg = json_string_value(json_object_get(ans, "error"));
		fprintf(stderr, "tern: console: %s\n", msg != NULL ? msg : "the crawl refused");
		rc = status >= 400 && status < 500 ? 2 : 1;
	}
	json_decref(ans);
	buf_free(&out);
	return rc;
}

static void consolecmd_view_cb(void *ctx, struct console_view *v)
{
	struct consolecmd *cc = ctx;

	memset(v, 0, sizeof *v);
	v->state = "OFFLINE";
	v->reason = cc->reason;
	v->pages = cc->pages;
	v->bytes = cc->bytes;
	v->failures = cc->failures;
	v->seconds = cc->seconds;
	snprintf(v->dropped, sizeof v->dropped, "%s", cc->dropped);
	frontier_counts(cc->frontier, &v->fc);
}

static void consolecmd_handle_cb(void *ctx, const struct ctlreq *req, struct ctlserver_reply *r)
{
	struct consolecmd *cc = ctx;

	console_handle(cc->console, &cc->l, req, NULL, NULL, r);
}

static void consolecmd_closed_cb(uv_handle_t *h)
{
	(void)h;
}

static void consolecmd_signal_cb(uv_signal_t *s, int signum)
{
	struct consolecmd *cc = s->data;

	(void)signum;
	console_free(cc->console);
	cc->console = NULL;
	ctlserver_close(cc->srv);
	uv_close((uv_handle_t *)&cc->sigint, consolecmd_closed_cb);
	uv_close((uv_handle_t *)&cc->sigterm, consolecmd_closed_cb);
}

/* The last statistics the crawl wrote, for the overview's figures. */
static void consolecmd_stats(struct consolecmd *cc)
{
	char *path = xasprintf("%s/reports/stats.json", cc->jobdir);
	json_t *j = json_load_file(path, 0, NULL);
	const char *state = json_string_value(json_object_get(j, "state"));
	const char *why = json_string_value(json_object_get(j, "reason"));

	cc->pages = (uint64_t)json_integer_value(json_object_get(j, "pages"));
	cc->bytes = (uint64_t)json_integer_value(json_object_get(j, "bytes"));
	cc->failures = (uint64_t)json_integer_value(json_object_get(j, "failures"));
	cc->seconds = json_number_value(json_object_get(j, "seconds"));
	{
		struct buf d = BUF_INIT;

		drops_brief_json(json_object_get(j, "dropped"), &d);
		snprintf(cc->dropped, sizeof cc->dropped, "%s", d.len > 0 ? d.data : "");
		buf_free(&d);
	}
	snprintf(cc->reason, sizeof cc->reason, "no crawl runs%s%s%s%s",
	    state ? "; it was left " : "", state ? state : "", why && *why ? ": " : "",
	    why && *why ? why : "");
	json_decref(j);
	free(path);
}

static int consolecmd_offline(const char *jobdir, const char *addr)
{
	struct consolecmd cc;
	struct config *cfg = config_new();
	struct console_opts co;
	char token[CONSOLEREQ_TOKEN_LEN + 1], bound[64], *err = NULL, *path;
	int rc = 1;

	memset(&cc, 0, sizeof cc);
	cc.jobdir = xstrdup(jobdir);
	path = xasprintf("%s/tern.conf", jobdir);
	if (job_config_load(cfg, path, &err) < 0) {
		free(path);
		fprintf(stderr, "tern: console: %s\n", err);
		free(err);
		config_free(cfg);
		free(cc.jobdir);
		return 2;
	}
	free(path);
	if (consoletoken_get(jobdir, token, &err) < 0)
		goto fail;
	path = xasprintf("%s/state/frontier", jobdir);
	cc.frontier = frontier_open(path, cfg, 0, clock_wall_ms(), &err);
	free(path);
	if (cc.frontier == NULL)
		goto fail;
	consolecmd_stats(&cc);
	uv_loop_init(&cc.loop);
	memset(&co, 0, sizeof co);
	co.loop = &cc.loop;
	co.jobdir = jobdir;
	co.cfg = cfg;
	co.frontier = cc.frontier;
	co.view = consolecmd_view_cb;
	co.ctx = &cc;
	co.token = token;
	cc.console = console_new(&co);
	cc.names = config_names(cfg, CK_CONSOLE_HOST_NAMES, &cc.l.nnames);
	cc.l.names = (const char *const *)cc.names;
	cc.l.tcp = 1;
	cc.l.token = token;
	cc.srv = ctlserver_start_tcp(&cc.loop, addr, consolecmd_handle_cb, &cc, &err);
	if (cc.srv == NULL) {
		console_free(cc.console);
		uv_run(&cc.loop, UV_RUN_DEFAULT);
		uv_loop_close(&cc.loop);
		goto fail;
	}
	cc.l.port = ctlserver_port(cc.srv);
	ctlserver_address(cc.srv, bound, sizeof bound);
	if (!ctlserver_loopback(cc.srv))
		consolecmd_warn_clear(jobdir, bound);
	printf("http://%s/console/?token=%s\n", bound, token);
	printf("(offline: no crawl runs in %s; this console serves the job as it was left "
	       "until interrupted)\n",
	    jobdir);
	fflush(stdout);
	uv_signal_init(&cc.loop, &cc.sigint);
	uv_signal_init(&cc.loop, &cc.sigterm);
	cc.sigint.data = cc.sigterm.data = &cc;
	uv_signal_start(&cc.sigint, consolecmd_signal_cb, SIGINT);
	uv_signal_start(&cc.sigterm, consolecmd_signal_cb, SIGTERM);
	uv_run(&cc.loop, UV_RUN_DEFAULT);
	uv_loop_close(&cc.loop);
	rc = 0;
fail:
	if (err != NULL) {
		fprintf(stderr, "tern: console: %s\n", err);
		free(err);
	}
	frontier_close(cc.frontier);
	config_names_free(cc.names);
	config_free(cfg);
	free(cc.jobdir);
	return rc;
}

static const char consolecmd_help[] =
    "The operator web console of the job: prints its URL, with the job's token.\n"
    "\n"
    "  --listen ADDR:PORT   where it listens (default 127.0.0.1:0, a free port)\n"
    "  -h, --help           this help\n";

int consolecmd_run(int argc, char **argv)
{
	const char *jobdir = NULL, *addr = NULL;
	char *err = NULL;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--listen") == 0 && i + 1 < argc) {
			addr = argv[++i];
		} else if (strncmp(argv[i], "--listen=", 9) == 0) {
			addr = argv[i] + 9;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(CONSOLECMD_USAGE, stdout);
			fputs(consolecmd_help, stdout);
			return 0;
		} else if (argv[i][0] == '-' || jobdir != NULL) {
			fputs(CONSOLECMD_USAGE, stderr);
			return 2;
		} else {
			jobdir = argv[i];
		}
	}
	if (jobdir == NULL) {
		fputs(CONSOLECMD_USAGE, stderr);
		return 2;
	}
	if (job_check_dir(jobdir, &err) < 0) {
		fprintf(stderr, "tern: console: %s\n", err);
		free(err);
		return 2;
	}
	rc = consolecmd_live(jobdir, addr);
	if (rc == CTL_NOT_RUNNING)
		rc = consolecmd_offline(jobdir, addr != NULL ? addr : "127.0.0.1:0");
	return rc;
}
