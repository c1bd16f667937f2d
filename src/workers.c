/* tern crawl --workers N (workers.h): a small supervisor on its own libuv
 * loop. It starts nats-server when it must, then N `tern crawl` (or `tern
 * resume`) children, passes SIGINT/SIGTERM on to them, and once they have
 * all exited stops the server. It makes no crawl decision: the children
 * share the crawl through NATS as any cluster nodes do. Its children die
 * with it (PR_SET_PDEATHSIG), so a supervisor killed with -9 leaves none. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "archive/smallfile.h"
#include "lib/urlcreds.h"
#include "lib/xmalloc.h"
#include "waczcmd.h"
#include "workers.h"

#define WORKERS_READY_MS 10000

/* A child is forked here rather than by uv_spawn, which has no hook between
 * fork and exec: that is where the child asks the kernel to signal it when
 * the supervisor dies (PR_SET_PDEATHSIG), so that kill -9 of the supervisor
 * leaves no worker and no nats-server behind. Its exit is watched through a
 * pidfd on the loop. */
struct workers_child {
	uv_poll_t poll;
	int pidfd;
	pid_t pid;
	struct workers *w;
	int index; /* -1: the server */
	int running;
	int status;
};

/* What the workers' stats.json files add up to (workers_totals). */
struct workers_figures {
	json_int_t pages, bytes, failures;
	double seconds;
};

struct workers {
	uv_loop_t loop;
	const struct workers_opts *o;
	char self[PATH_MAX];
	char *url;
	char *crawl_id;
	unsigned n;
	int port;
	int embedded;
	int wacz;
	struct workers_child server;
	struct workers_child *child;
	unsigned running;
	uv_signal_t sigint, sigterm;
	uv_timer_t wait;
	unsigned waited_ms;
	int signals;
	int status;
	uint64_t started_ms; /* when the workers started */
	int summarized;
	struct workers_figures before; /* a resume's totals at its start */
};

static void workers_close_cb(uv_handle_t *h)
{
	(void)h;
}

static char *workers_path(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static int workers_write_state(struct workers *w)
{
	char *path = workers_path(w->o->jobdir, "workers.json"), *text, *err = NULL;
	json_t *j = json_object();
	int rc = -1, secret;

	json_object_set_new(j, "workers", json_integer(w->n));
	json_object_set_new(j, "url", json_string(w->embedded ? "" : w->url));
	json_object_set_new(j, "port", json_integer(w->embedded ? w->port : 0));
	json_object_set_new(j, "crawl_id", json_string(w->crawl_id));
	json_object_set_new(j, "wacz", json_boolean(w->wacz));
	text = json_dumps(j, JSON_INDENT(1));
	/* A password or token in the URL is for this user's eyes only (a
	 * replaced file keeps its mode: one that exists is made 0600 first). */
	secret = !w->embedded && urlcreds_has_secret(w->url);
	if (secret)
		chmod(path, SMALLFILE_MODE_SECRET);
	if (text == NULL)
		err = xasprintf("writing %s: cannot encode it", path);
	else
		rc = smallfile_replace(path, text, strlen(text),
		    secret ? SMALLFILE_MODE_SECRET : SMALLFILE_MODE, &err);
	if (rc < 0) {
		fprintf(stderr, "tern: %s\n", err);
		free(err);
	}
	free(text);
	json_decref(j);
	free(path);
	return rc;
}

static int workers_read_state(struct workers *w, unsigned *n)
{
	char *path = workers_path(w->o->jobdir, "workers.json");
	json_error_t e;
	json_t *j = json_load_file(path, 0, &e);
	const char *url, *id;

	if (j == NULL) {
		fprintf(stderr, "tern: %s: %s\n", path, e.text);
		free(path);
		return -1;
	}
	free(path);
	*n = (unsigned)json_integer_value(json_object_get(j, "workers"));
	url = json_string_value(json_object_get(j, "url"));
	id = json_string_value(json_object_get(j, "crawl_id"));
	w->port = (int)json_integer_value(json_object_get(j, "port"));
	w->embedded = url == NULL || *url == '\0';
	w->url = w->embedded ? NULL : xstrdup(url);
	w->crawl_id = xstrdup(id != NULL ? id : "local");
	w->wacz = json_is_true(json_object_get(j, "wacz"));
	json_decref(j);
	return *n > 0 ? 0 : -1;
}

int workers_dir(const char *dir, char **first)
{
	char *path = workers_path(dir, "workers.json");
	struct stat st;
	int is = stat(path, &st) == 0;

	free(path);
	if (is && first != NULL)
		*first = workers_path(dir, "w0");
	return is;
}

/* The job's totals over every run, from the stats.json each worker wrote
 * at its end: their pages, bytes and failures, and the longest time one
 * crawled (they crawl together). */
static void workers_totals(const struct workers *w, struct workers_figures *t)
{
	memset(t, 0, sizeof *t);
	for (unsigned i = 0; i < w->n; i++) {
		char *path = xasprintf("%s/w%u/reports/stats.json", w->o->jobdir, i);
		json_t *j = json_load_file(path, 0, NULL);
		double s = json_number_value(json_object_get(j, "seconds"));
		free(path);
		t->pages += json_integer_value(json_object_get(j, "pages"));
		t->bytes += json_integer_value(json_object_get(j, "bytes"));
		t->failures += json_integer_value(json_object_get(j, "failures"));
		if (s > t->seconds)
			t->seconds = s;
		json_decref(j);
	}
}

static void workers_summary(struct workers *w)
{
	struct workers_figures t;

	workers_totals(w, &t);
	/* A resume that crawled nothing: the job had ended. */
	if (w->o->resume && t.pages == w->before.pages && t.failures == w->before.failures) {
		printf("tern: %u workers: nothing more to crawl; the job has %" JSON_INTEGER_FORMAT
		       " page%s and %" JSON_INTEGER_FORMAT
		       " failure%s (each worker's output in %s/wN.out)\n",
		    w->n, t.pages, t.pages == 1 ? "" : "s", t.failures, t.failures == 1 ? "" : "s",
		    w->o->jobdir);
		return;
	}
	printf("tern: %u workers: %" JSON_INTEGER_FORMAT
	       " page%s (%.1f pages/s), %" JSON_INTEGER_FORMAT " bytes, %" JSON_INTEGER_FORMAT
	       " failure%s in %.1f s crawled%s; job directories "
	       "%s/w0..w%u\n",
	    w->n, t.pages, t.pages == 1 ? "" : "s",
	    t.seconds > 0 ? (double)t.pages / t.seconds : 0.0, t.bytes, t.failures,
	    t.failures == 1 ? "" : "s", t.seconds, w->o->resume ? " by the job, every run" : "",
	    w->o->jobdir, w->n - 1);
}

static void workers_kill(struct workers_child *c, int sig)
{
	/* Not yet reaped while running, so the pid is still this child's. */
	if (c->running)
		kill(c->pid, sig);
}

static void workers_all_done(struct workers *w)
{
	if (w->running == 0 && w->started_ms != 0 && !w->summarized) {
		w->summarized = 1;
		workers_summary(w);
	}
	if (w->server.running) {
		workers_kill(&w->server, SIGTERM);
		return;
	}
	uv_signal_stop(&w->sigint);
	uv_signal_stop(&w->sigterm);
	uv_close((uv_handle_t *)&w->sigint, workers_close_cb);
	uv_close((uv_handle_t *)&w->sigterm, workers_close_cb);
}

static void workers_child_closed(uv_handle_t *h)
{
	struct workers_child *c = h->data;

	close(c->pidfd);
	c->pidfd = -1;
}

static void workers_exit_cb(uv_poll_t *p, int status, int events)
{
	struct workers_child *c = p->data;
	struct workers *w = c->w;
	siginfo_t si;

	(void)status;
	(void)events;
	memset(&si, 0, sizeof si);
	if (waitid((idtype_t)P_PIDFD, (id_t)c->pidfd, &si, WEXITED | WNOHANG) < 0 || si.si_pid == 0)
		return;
	c->running = 0;
	c->status = si.si_code == CLD_EXITED ? si.si_status : 128 + si.si_status;
	uv_poll_stop(p);
	uv_close((uv_handle_t *)p, workers_child_closed);
	if (c->index < 0) {
		if (w->running > 0)
			fprintf(stderr,
			    "tern: nats-server exited (%d) while workers run; see %s/nats/nats.log\n",
			    c->status, w->o->jobdir);
		if (w->running == 0)
			workers_all_done(w);
		return;
	}
	fprintf(stderr, "tern: worker %d exited %d\n", c->index, c->status);
	if (c->status != 0 && w->status == 0)
		w->status = c->status == 1 || c->status == 2 ? c->status : 1;
	if (--w->running == 0)
		workers_all_done(w);
}

static void workers_signal_cb(uv_signal_t *s, int signum)
{
	struct workers *w = s->data;
	unsigned i;

	(void)signum;
	/* The first signal asks every worker to stop as a signal asks one
	 * crawl; the second ends them at once, as for one crawl. */
	w->signals++;
	for (i = 0; i < w->n; i++)
		workers_kill(&w->child[i], w->signals > 1 ? SIGKILL : SIGTERM);
}

/* Starts FILE with ARGS, its output appended to OUT. The child gets DEATHSIG
 * when the supervisor dies, however it dies: a worker SIGKILL (killed with
 * -9, as a crashed node, which a resume recovers from; a SIGTERM would have
 * it wait for a server that goes at the same moment), the server SIGTERM
 * (it closes its store). Returns 0 or a negative errno. */
static int workers_spawn(struct workers *w, struct workers_child *c, const char *file, char **args,
    const char *out, int deathsig)
{
	int fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC), ep[2], err = 0, rc;
	pid_t parent = getpid(), pid;
	sigset_t all;
	ssize_t n;

	if (fd < 0 || null < 0) {
		rc = -errno;
		fprintf(stderr, "tern: %s: %s\n", fd < 0 ? out : "/dev/null", strerror(errno));
		goto out;
	}
	/* The child reports a failed exec through this pipe; a successful one
	 * closes it. */
	if (pipe2(ep, O_CLOEXEC) < 0) {
		rc = -errno;
		goto out;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		/* The supervisor may have died before the request took effect:
		 * then this child's parent is already someone else. */
		if (prctl(PR_SET_PDEATHSIG, deathsig) < 0 || getppid() != parent)
			_exit(127);
		if (dup2(null, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execvp(file, args);
		err = errno;
		n = write(ep[1], &err, sizeof err);
		(void)n;
		_exit(127);
	}
	rc = pid < 0 ? -errno : 0;
	close(ep[1]);
	if (pid > 0) {
		while ((n = read(ep[0], &err, sizeof err)) < 0 && errno == EINTR)
			;
		if (n == (ssize_t)sizeof err) {
			waitpid(pid, NULL, 0);
			rc = -err;
		} else if ((c->pidfd = pidfd_open(pid, 0)) < 0) {
			rc = -errno;
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
	}
	close(ep[0]);
	if (rc == 0) {
		c->pid = pid;
		c->w = w;
		c->poll.data = c;
		uv_poll_init(&w->loop, &c->poll, c->pidfd);
		uv_poll_start(&c->poll, UV_READABLE, workers_exit_cb);
		c->running = 1;
	}
out:
	if (fd >= 0)
		close(fd);
	if (null >= 0)
		close(null);
	return rc;
}

/* The server's ports file (nats-server --ports_file_dir) names its URL. */
static int workers_read_port(struct workers *w)
{
	char *pat = xasprintf("%s/nats/*.ports", w->o->jobdir), *p;
	glob_t g;
	FILE *f;
	char buf[512];
	size_t n = 0;

	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc > 0 &&
	    (f = fopen(g.gl_pathv[0], "r")) != NULL) {
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	if (g.gl_pathc > 0 || n > 0)
		globfree(&g);
	free(pat);
	if ((p = strstr(buf, "nats://127.0.0.1:")) == NULL)
		return 0;
	w->port = atoi(p + strlen("nats://127.0.0.1:"));
	free(w->url);
	w->url = xasprintf("nats://127.0.0.1:%d", w->port);
	return w->port > 0;
}

static void workers_start_children(struct workers *w);

static void workers_wait_cb(uv_timer_t *t)
{
	struct workers *w = t->data;

	if (workers_read_port(w)) {
		uv_timer_stop(t);
		uv_close((uv_handle_t *)t, workers_close_cb);
		workers_start_children(w);
		return;
	}
	w->waited_ms += 50;
	if (!w->server.running || w->waited_ms >= WORKERS_READY_MS) {
		fprintf(stderr, "tern: nats-server did not start; see %s/nats/nats.log\n",
		    w->o->jobdir);
		w->status = 1;
		uv_timer_stop(t);
		uv_close((uv_handle_t *)t, workers_close_cb);
		workers_all_done(w);
	}
}

static int workers_start_server(struct workers *w)
{
	char *dir = workers_path(w->o->jobdir, "nats"), *store = workers_path(dir, "store");
	char *log = workers_path(dir, "nats.log"), *pat = xasprintf("%s/*.ports", dir);
	char port[16];
	char *args[16];
	glob_t g;
	size_t i;
	int rc, k = 0;

	mkdir(dir, 0755);
	/* A ports file left by an earlier run names a dead server. */
	if (glob(pat, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			unlink(g.gl_pathv[i]);
		globfree(&g);
	}
	snprintf(port, sizeof port, "%d", w->port > 0 ? w->port : -1);
	args[k++] = "nats-server";
	args[k++] = "-js";
	args[k++] = "-sd";
	args[k++] = store;
	args[k++] = "-a";
	args[k++] = "127.0.0.1";
	args[k++] = "-p";
	args[k++] = port;
	args[k++] = "--ports_file_dir";
	args[k++] = dir;
	args[k] = NULL;
	w->server.index = -1;
	rc = workers_spawn(w, &w->server, "nats-server", args, log, SIGTERM);
	if (rc != 0)
		fprintf(stderr,
		    "tern: --workers starts nats-server when cluster.url is empty, and %s "
		    "(install the Debian package nats-server, or set cluster.url)\n",
		    rc == -ENOENT ? "it is not on the PATH" : strerror(-rc));
	free(dir);
	free(store);
	free(log);
	free(pat);
	return rc != 0 ? -1 : 0;
}

static void workers_start_children(struct workers *w)
{
	unsigned i;

	if (workers_write_state(w) < 0) {
		w->status = 1;
		workers_all_done(w);
		return;
	}
	{
		char *shown = urlcreds_hide(w->url);
		printf("tern: %u workers share crawl '%s' over NATS at %s; job directories "
		       "%s/w0..w%u, their output in %s/wN.out\n",
		    w->n, w->crawl_id, shown, w->o->jobdir, w->n - 1, w->o->jobdir);
		free(shown);
	}
	fflush(stdout);
	w->started_ms = uv_now(&w->loop);
	if (w->o->resume)
		workers_totals(w, &w->before);
	for (i = 0; i < w->n; i++) {
		const struct workers_opts *o = w->o;
		char **args = xcalloc(18 + 2 * o->nsets + 2 * o->nconfs + o->nseeds, sizeof *args);
		char *job = xasprintf("%s/w%u", o->jobdir, i),
		     *out = xasprintf("%s/w%u.out", o->jobdir, i);
		char *url = xasprintf("cluster.url=%s", w->url),
		     *id = xasprintf("cluster.crawl-id=%s", w->crawl_id);
		size_t k = 0, j;

		args[k++] = w->self;
		if (o->resume) {
			args[k++] = "resume";
			args[k++] = job;
		} else {
			args[k++] = "crawl";
			args[k++] = "-j";
			args[k++] = job;
			for (j = 0; j < o->nconfs; j++) {
				args[k++] = "-c";
				args[k++] = o->confs[j];
			}
			for (j = 0; j < o->nsets; j++) {
				args[k++] = "--set";
				args[k++] = o->sets[j];
			}
			/* After the user's: the workers' server and crawl id win. */
			args[k++] = "--set";
			args[k++] = url;
			args[k++] = "--set";
			args[k++] = id;
			/* warc.wacz packages the whole job once, here. */
			args[k++] = "--set";
			args[k++] = "warc.wacz=false";
			if (i == 0 && o->seedfile != NULL) {
				args[k++] = "-s";
				args[k++] = (char *)o->seedfile;
			}
			for (j = 0; i == 0 && j < o->nseeds; j++)
				args[k++] = o->seeds[j];
		}
		args[k] = NULL;
		w->child[i].index = (int)i;
		if (workers_spawn(w, &w->child[i], w->self, args, out, SIGKILL) == 0) {
			w->running++;
		} else {
			fprintf(stderr, "tern: cannot start worker %u\n", i);
			w->status = 1;
		}
		free(job);
		free(out);
		free(url);
		free(id);
		free(args);
	}
	if (w->running == 0)
		workers_all_done(w);
}

int workers_run(const struct workers_opts *o)
{
	struct workers *w = xcalloc(1, sizeof *w);
	size_t len = sizeof w->self;
	unsigned n = o->n;
	int status;

	w->o = o;
	if (uv_exepath(w->self, &len) != 0) {
		fprintf(stderr, "tern: cannot find its own executable\n");
		free(w);
		return 1;
	}
	if (o->resume) {
		if (workers_read_state(w, &n) < 0) {
			free(w);
			return 2;
		}
	} else {
		if (workers_dir(o->jobdir, NULL)) {
			fprintf(stderr,
			    "tern: %s holds a --workers crawl: continue it with `tern resume %s`\n",
			    o->jobdir, o->jobdir);
			free(w);
			return 2;
		}
		if (mkdir(o->jobdir, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "tern: %s: %s\n", o->jobdir, strerror(errno));
			free(w);
			return 2;
		}
		w->embedded = o->url == NULL || *o->url == '\0';
		w->url = w->embedded ? NULL : xstrdup(o->url);
		w->crawl_id = xstrdup(o->crawl_id != NULL && *o->crawl_id ? o->crawl_id : "local");
		w->wacz = o->wacz;
	}
	/* On resume the count is the one the crawl started with. */
	w->n = n;
	w->child = xcalloc(n, sizeof *w->child);
	uv_loop_init(&w->loop);
	uv_signal_init(&w->loop, &w->sigint);
	uv_signal_init(&w->loop, &w->sigterm);
	w->sigint.data = w->sigterm.data = w;
	uv_signal_start(&w->sigint, workers_signal_cb, SIGINT);
	uv_signal_start(&w->sigterm, workers_signal_cb, SIGTERM);
	if (w->embedded) {
		if (workers_start_server(w) < 0) {
			w->status = 1;
			workers_all_done(w);
		} else {
			uv_timer_init(&w->loop, &w->wait);
			w->wait.data = w;
			uv_timer_start(&w->wait, workers_wait_cb, 50, 50);
		}
	} else {
		workers_start_children(w);
	}
	uv_run(&w->loop, UV_RUN_DEFAULT);
	uv_loop_close(&w->loop);
	status = w->status;
	if (status == 0 && w->wacz)
		status = waczcmd_after_crawl(o->jobdir);
	free(w->child);
	free(w->url);
	free(w->crawl_id);
	free(w);
	return status;
}
