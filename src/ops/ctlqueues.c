/* The queues report walked in pieces (ctlqueues.h). Each request has its
 * walk: a cursor (the last queue key given), the filter, and the reply it
 * fills. One idle handle, running while any walk is under way, gives every
 * walk its share of CTLQUEUES_STEP records per loop iteration; a walk that
 * ends sends its reply. A client gone (or the server closing) cancels its
 * walk, which is freed by the next step rather than inside the callback. */
#include "ops/ctlqueues.h"
#include "crawl/report.h"
#include "frontier/frontier.h"
#include "lib/xmalloc.h"

#include <stdlib.h>
#include <string.h>

struct ctlqueues_walk {
	struct ctlqueues *q;
	struct ctlserver_defer *d; /* NULL once cancelled */
	struct buf want, cursor, lines;
	size_t kept;
	int json;
	struct ctlqueues_walk *next;
};

struct ctlqueues {
	struct frontier *f;
	uv_idle_t idle;
	int idle_on, closing;
	struct ctlqueues_walk *walks;
};

static void ctlqueues_walk_free(struct ctlqueues_walk *w)
{
	buf_free(&w->want);
	buf_free(&w->cursor);
	buf_free(&w->lines);
	free(w);
}

static void ctlqueues_cancel_cb(void *arg)
{
	struct ctlqueues_walk *w = arg;

	w->d = NULL;
}

/* One walk's piece: 1 when it is over (answered or cancelled). */
static int ctlqueues_step(struct ctlqueues_walk *w, size_t max)
{
	struct ctlserver_reply *r;
	int more = 0;

	if (w->d == NULL)
		return 1;
	r = ctlserver_defer_reply(w->d);
	buf_reset(&w->lines);
	frontier_report_queues_step(w->q->f, &w->cursor, max, w->json, &w->lines, &more);
	report_queues_pick(&w->want, w->json, &w->lines, &r->body, &w->kept);
	if (more) {
		ctlserver_defer_progress(w->d);
		return 0;
	}
	report_queues_end(w->json, &r->body);
	ctlserver_defer_send(w->d);
	w->d = NULL;
	return 1;
}

static void ctlqueues_idle_cb(uv_idle_t *h)
{
	struct ctlqueues *q = h->data;
	size_t n = 0, share;

	for (struct ctlqueues_walk *w = q->walks; w != NULL; w = w->next)
		n++;
	share = n > 0 ? CTLQUEUES_STEP / n : 0;
	if (share == 0)
		share = 1;
	for (struct ctlqueues_walk **pp = &q->walks; *pp != NULL;) {
		struct ctlqueues_walk *w = *pp;
		if (ctlqueues_step(w, share)) {
			*pp = w->next;
			ctlqueues_walk_free(w);
		} else {
			pp = &w->next;
		}
	}
	if (q->walks == NULL) {
		uv_idle_stop(&q->idle);
		q->idle_on = 0;
	}
}

struct ctlqueues *ctlqueues_new(uv_loop_t *loop, struct frontier *f)
{
	struct ctlqueues *q = xcalloc(1, sizeof *q);

	q->f = f;
	uv_idle_init(loop, &q->idle);
	q->idle.data = q;
	return q;
}

static void ctlqueues_closed_cb(uv_handle_t *h)
{
	struct ctlqueues *q = h->data;

	while (q->walks != NULL) {
		struct ctlqueues_walk *w = q->walks;
		q->walks = w->next;
		ctlqueues_walk_free(w);
	}
	free(q);
}

void ctlqueues_free(struct ctlqueues *q)
{
	if (q == NULL)
		return;
	q->closing = 1;
	/* The walks' replies belong to the server, which cancels them (503)
	 * when it closes: nothing is sent from here. */
	for (struct ctlqueues_walk *w = q->walks; w != NULL; w = w->next)
		w->d = NULL;
	uv_close((uv_handle_t *)&q->idle, ctlqueues_closed_cb);
}

int ctlqueues_start(struct ctlqueues *q, struct ctlserver_reply *reply, const char *state,
    int json, char **err)
{
	struct ctlqueues_walk *w;

	if (q->closing) {
		*err = xstrdup("the crawl is ending");
		return -1;
	}
	w = xcalloc(1, sizeof *w);
	if (report_queues_want(state, json, &w->want, err) < 0) {
		ctlqueues_walk_free(w);
		return -1;
	}
	w->q = q;
	w->json = json;
	report_queues_begin(json, &reply->body);
	w->d = ctlserver_defer(reply, ctlqueues_cancel_cb, w);
	w->next = q->walks;
	q->walks = w;
	if (!q->idle_on) {
		uv_idle_start(&q->idle, ctlqueues_idle_cb);
		q->idle_on = 1;
	}
	return 0;
}
