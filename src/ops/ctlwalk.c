/* The live reports walked in pieces (ctlwalk.h). Each request has its
 * walk: for queues a cursor (the last queue key given) and the state
 * filter, for hosts an offset into crawl.log (read up to its size when
 * asked) and the hosts met so far; and the reply it fills. One idle
 * handle, running while any walk is under way, gives every walk its share
 * of the step per loop iteration; a walk that ends sends its reply. A
 * client gone (or the server closing) cancels its walk, which is freed by
 * the next step rather than inside the callback. */
#include "ops/ctlwalk.h"
#include "crawl/hostsreport.h"
#include "crawl/report.h"
#include "crawl/revisitreport.h"
#include "frontier/frontier.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct ctlwalk_walk {
	struct ctlwalk *w;
	struct ctlserver_defer *d; /* NULL once cancelled */
	int json;
	/* Queues. */
	struct buf want, cursor, lines;
	size_t kept;
	/* Frontier: the longest queues so far, the state word. */
	struct frontier_longest *longest;
	char *word;
	/* Revisits: every URI record, and the report built from them. */
	struct frontier_uri_walk *uris;
	struct revisitreport *revisits;
	uint64_t now_ms;
	/* Hosts. */
	struct hostsreport *hosts;
	int fd;
	uint64_t off, end;
	struct ctlwalk_walk *next;
};

struct ctlwalk {
	struct frontier *f;
	char *log; /* JOBDIR/logs/crawl.log */
	char *chunk;
	uv_idle_t idle;
	int idle_on, closing;
	struct ctlwalk_walk *walks;
};

static void ctlwalk_walk_free(struct ctlwalk_walk *k)
{
	buf_free(&k->want);
	buf_free(&k->cursor);
	buf_free(&k->lines);
	if (k->hosts != NULL)
		hostsreport_free(k->hosts);
	frontier_longest_free(k->longest);
	frontier_uri_walk_free(k->uris);
	if (k->revisits != NULL)
		revisitreport_free(k->revisits);
	free(k->word);
	if (k->fd >= 0)
		close(k->fd);
	free(k);
}

static void ctlwalk_cancel_cb(void *arg)
{
	struct ctlwalk_walk *k = arg;

	k->d = NULL;
}

/* A piece of the queues: 1 when the walk is over. */
static int ctlwalk_queues_step(struct ctlwalk_walk *k, size_t max)
{
	struct ctlserver_reply *r = ctlserver_defer_reply(k->d);
	int more = 0;

	buf_reset(&k->lines);
	frontier_report_queues_step(k->w->f, &k->cursor, max, k->json, &k->lines, &more);
	report_queues_pick(&k->want, k->json, &k->lines, &r->body, &k->kept);
	if (more)
		return 0;
	report_queues_end(k->json, &r->body);
	return 1;
}

/* A piece of the frontier's longest queues: 1 when the walk is over. */
static int ctlwalk_frontier_step(struct ctlwalk_walk *k, size_t max)
{
	struct buf b = BUF_INIT;
	int more = 0;

	frontier_longest_step(k->w->f, k->longest, max, &more);
	if (more)
		return 0;
	frontier_report_summary_longest(k->w->f, k->longest, &b);
	report_frontier_word(&b, k->word, &ctlserver_defer_reply(k->d)->body);
	buf_free(&b);
	return 1;
}

/* A piece of the URI records: 1 when the walk is over. */
static int ctlwalk_revisits_step(struct ctlwalk_walk *k, size_t max)
{
	uint64_t counts[3];
	int more = 0;

	frontier_uri_walk_step(k->w->f, k->uris, max, report_revisits_add, k->revisits, &more);
	if (more)
		return 0;
	frontier_uri_walk_counts(k->uris, counts);
	report_revisits_write(
	    k->w->f, k->revisits, counts, k->now_ms, k->json, &ctlserver_defer_reply(k->d)->body);
	return 1;
}

/* A piece of crawl.log: 1 when the walk is over (its size when asked
 * reached, or nothing more to read). */
static int ctlwalk_hosts_step(struct ctlwalk_walk *k, size_t max)
{
	char *chunk = k->w->chunk;
	size_t want = max, used = 0;
	ssize_t got;

	if (k->off < k->end) {
		if ((uint64_t)want > k->end - k->off)
			want = (size_t)(k->end - k->off);
		got = pread(k->fd, chunk, want, (off_t)k->off);
		if (got > 0) {
			while (used < (size_t)got) {
				char *nl = memchr(chunk + used, '\n', (size_t)got - used);
				if (nl == NULL)
					break;
				hostsreport_add_line(
				    k->hosts, chunk + used, (size_t)(nl - (chunk + used)));
				used = (size_t)(nl - chunk) + 1;
			}
			/* A whole piece without a newline is not a crawl.log
			 * line, and a torn last line is not one yet: skipped. */
			if (used == 0)
				used = (size_t)got;
			k->off += used;
			if (k->off < k->end)
				return 0;
		}
	}
	hostsreport_write(k->hosts, k->json, &ctlserver_defer_reply(k->d)->body);
	return 1;
}

static void ctlwalk_idle_cb(uv_idle_t *h)
{
	struct ctlwalk *w = h->data;
	size_t n = 0;

	for (struct ctlwalk_walk *k = w->walks; k != NULL; k = k->next)
		n++;
	for (struct ctlwalk_walk **pp = &w->walks; *pp != NULL;) {
		struct ctlwalk_walk *k = *pp;
		int over = 1;

		if (k->d != NULL) {
			size_t share = CTLWALK_STEP / n > 0 ? CTLWALK_STEP / n : 1;
			if (k->hosts != NULL)
				over = ctlwalk_hosts_step(
				    k, CTLWALK_LOG_STEP / n > 4096 ? CTLWALK_LOG_STEP / n : 4096);
			else if (k->longest != NULL)
				over = ctlwalk_frontier_step(k, share);
			else if (k->uris != NULL)
				over = ctlwalk_revisits_step(k, share);
			else
				over = ctlwalk_queues_step(k, share);
			if (over)
				ctlserver_defer_send(k->d);
			else
				ctlserver_defer_progress(k->d);
		}
		if (over) {
			*pp = k->next;
			ctlwalk_walk_free(k);
		} else {
			pp = &k->next;
		}
	}
	if (w->walks == NULL) {
		uv_idle_stop(&w->idle);
		w->idle_on = 0;
	}
}

struct ctlwalk *ctlwalk_new(uv_loop_t *loop, struct frontier *f, const char *jobdir)
{
	struct ctlwalk *w = xcalloc(1, sizeof *w);

	w->f = f;
	w->log = xasprintf("%s/logs/crawl.log", jobdir);
	uv_idle_init(loop, &w->idle);
	w->idle.data = w;
	return w;
}

static void ctlwalk_closed_cb(uv_handle_t *h)
{
	struct ctlwalk *w = h->data;

	while (w->walks != NULL) {
		struct ctlwalk_walk *k = w->walks;
		w->walks = k->next;
		ctlwalk_walk_free(k);
	}
	free(w->chunk);
	free(w->log);
	free(w);
}

void ctlwalk_free(struct ctlwalk *w)
{
	if (w == NULL)
		return;
	w->closing = 1;
	/* The walks' replies belong to the servers, which cancelled them
	 * (503) when they closed: nothing is sent from here. */
	for (struct ctlwalk_walk *k = w->walks; k != NULL; k = k->next)
		k->d = NULL;
	uv_close((uv_handle_t *)&w->idle, ctlwalk_closed_cb);
}

static struct ctlwalk_walk *ctlwalk_add(struct ctlwalk *w, int json)
{
	struct ctlwalk_walk *k = xcalloc(1, sizeof *k);

	k->w = w;
	k->json = json;
	k->fd = -1;
	return k;
}

static void ctlwalk_begin(struct ctlwalk *w, struct ctlwalk_walk *k, struct ctlserver_reply *reply)
{
	k->d = ctlserver_defer(reply, ctlwalk_cancel_cb, k);
	k->next = w->walks;
	w->walks = k;
	if (!w->idle_on) {
		uv_idle_start(&w->idle, ctlwalk_idle_cb);
		w->idle_on = 1;
	}
}

int ctlwalk_queues(
    struct ctlwalk *w, struct ctlserver_reply *reply, const char *state, int json, char **err)
{
	struct ctlwalk_walk *k;

	if (w->closing) {
		*err = xstrdup("the crawl is ending");
		return -1;
	}
	k = ctlwalk_add(w, json);
	if (report_queues_want(state, json, &k->want, err) < 0) {
		ctlwalk_walk_free(k);
		return -1;
	}
	report_queues_begin(json, &reply->body);
	ctlwalk_begin(w, k, reply);
	return 0;
}

int ctlwalk_frontier(struct ctlwalk *w, struct ctlserver_reply *reply, const char *word)
{
	struct ctlwalk_walk *k;

	if (w->closing)
		return -1;
	k = ctlwalk_add(w, 0);
	k->longest = frontier_longest_new();
	k->word = word != NULL ? xstrdup(word) : NULL;
	ctlwalk_begin(w, k, reply);
	return 0;
}

int ctlwalk_revisits(struct ctlwalk *w, struct ctlserver_reply *reply, uint64_t now_ms, int json)
{
	struct ctlwalk_walk *k;
	uint64_t times[3];

	if (w->closing)
		return -1;
	k = ctlwalk_add(w, json);
	report_revisits_times(now_ms, times);
	k->uris = frontier_uri_walk_new(times, 3);
	k->revisits = revisitreport_new();
	k->now_ms = now_ms;
	ctlwalk_begin(w, k, reply);
	return 0;
}

int ctlwalk_hosts(struct ctlwalk *w, struct ctlserver_reply *reply, int json, char **err)
{
	struct ctlwalk_walk *k;
	struct stat st;

	if (w->closing) {
		*err = xstrdup("the crawl is ending");
		return -1;
	}
	k = ctlwalk_add(w, json);
	k->fd = open(w->log, O_RDONLY | O_CLOEXEC);
	if (k->fd < 0 || fstat(k->fd, &st) != 0) {
		*err = xasprintf("%s: %s", w->log, strerror(errno));
		ctlwalk_walk_free(k);
		return -1;
	}
	k->end = (uint64_t)st.st_size;
	k->hosts = hostsreport_new();
	if (w->chunk == NULL)
		w->chunk = xmalloc(CTLWALK_LOG_STEP);
	ctlwalk_begin(w, k, reply);
	return 0;
}
