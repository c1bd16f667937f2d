/* The control client: one blocking HTTP/1.1 exchange over the job's unix
 * socket per command. The server always closes after its answer, so the
 * answer is read to end of file (capped) and split at its head. */
#include "ops/ctl.h"
#include "crawl/job.h"
#include "lib/nearest.h"
#include "ops/ctlaction.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

/* Largest answer read (a queues report of a very large crawl). */
#define CTL_MAX_ANSWER (512u << 20)
/* How long the crawl may take to answer. */
#define CTL_TIMEOUT_S 60

/* The usage: the actions' lines come from the table of ops/ctlaction.h. */
static void ctl_usage(FILE *f)
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

static int ctl_connect(const char *jobdir, char **err)
{
	struct sockaddr_un sun;
	struct timeval tv = {CTL_TIMEOUT_S, 0};
	char *path = xasprintf("%s/control.sock", jobdir);
	int fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		*err = xasprintf("%s: path too long for a unix socket", path);
		free(path);
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*err = xasprintf("socket: %s", strerror(errno));
		free(path);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		int e = errno;
		close(fd);
		if (e == ENOENT || e == ECONNREFUSED) {
			free(path);
			return CTL_NOT_RUNNING;
		}
		*err = xasprintf("%s: %s", path, strerror(e));
		free(path);
		return -1;
	}
	free(path);
	return fd;
}

static int ctl_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int ctl_request(const char *jobdir, const char *method, const char *target, const char *body,
    int *status, struct buf *out, char **err)
{
	struct buf req = BUF_INIT, ans = BUF_INIT;
	char chunk[65536];
	const char *head_end;
	int fd = ctl_connect(jobdir, err), rc = -1;
	size_t blen = body != NULL ? strlen(body) : 0;

	if (fd < 0)
		return fd;
	buf_appendf(
	    &req, "%s %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n", method, target);
	if (body != NULL)
		buf_appendf(
		    &req, "Content-Type: application/json\r\nContent-Length: %zu\r\n", blen);
	buf_appends(&req, "\r\n");
	if (body != NULL)
		buf_append(&req, body, blen);
	if (ctl_write_all(fd, req.data, req.len) < 0) {
		*err = xasprintf("sending to the control socket: %s", strerror(errno));
		goto out;
	}
	for (;;) {
		ssize_t r = read(fd, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = xasprintf("reading the control socket: %s",
			    errno == EAGAIN ? "no answer in time" : strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		if (ans.len + (size_t)r > CTL_MAX_ANSWER) {
			*err = xstrdup("the crawl's answer is too large");
			goto out;
		}
		buf_append(&ans, chunk, (size_t)r);
	}
	head_end = ans.len ? strstr(ans.data, "\r\n\r\n") : NULL;
	if (ans.len < 12 || strncmp(ans.data, "HTTP/1.", 7) != 0 || head_end == NULL ||
	    sscanf(ans.data + 8, " %3d", status) != 1) {
		*err = xstrdup("malformed answer from the control socket");
		goto out;
	}
	head_end += 4;
	buf_append(out, head_end, ans.len - (size_t)(head_end - ans.data));
	rc = 0;
out:
	close(fd);
	buf_free(&req);
	buf_free(&ans);
	return rc;
}

/* Prints an answer: the body to stdout when it succeeded, the JSON error's
 * message to stderr otherwise. Returns the exit status. */
static int ctl_print(int status, const struct buf *body)
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
static char *ctl_settings_body(int argc, char **argv)
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

void ctl_append_escaped(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~') {
			buf_appendc(b, (char)c);
		} else {
			buf_appendc(b, '%');
			buf_appendc(b, hex[c >> 4]);
			buf_appendc(b, hex[c & 15]);
		}
	}
}

int ctl_run(int argc, char **argv)
{
	const struct ctlaction *act;
	const char *jobdir, *cmd, *method;
	struct buf target = BUF_INIT, body = BUF_INIT;
	char *payload = NULL, *err = NULL;
	int status = 0, rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			ctl_usage(stdout);
			return 0;
		}
	}
	if (argc < 3) {
		ctl_usage(stderr);
		return 2;
	}
	jobdir = argv[1];
	cmd = argv[2];
	if (jobdir[0] == '-') {
		ctl_usage(stderr);
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
		ctl_usage(stderr);
		return 2;
	}
	method = act->method;
	if (act->id == CTLACTION_SETTINGS) {
		if (argc < 4 || (payload = ctl_settings_body(argc - 3, argv + 3)) == NULL) {
			if (argc < 4)
				ctl_usage(stderr);
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
				ctl_usage(stderr);
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
			ctl_usage(stderr);
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
		rc = ctl_print(status, &body);
	}
	free(payload);
	buf_free(&target);
	buf_free(&body);
	return rc;
}
