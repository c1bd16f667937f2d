/* The console's queue pages. The list shows the queues report as a table,
 * CONSOLEREQ_PAGE_ROWS rows a page, filtered by state, in key order or
 * sorted by size, spend or errors; a queue's page shows its Heritrix fields,
 * its next URIs and its recent crawl.log lines.
 *
 * However many queues there are, a request costs the loop a bounded amount
 * per wakeup: in key order a page reads at most CONSOLEQUEUES_SCAN records
 * (from the key after the previous page's last, so paging never re-reads);
 * a sorted view must see every queue, so its walk goes
 * CONSOLEQUEUES_STEP records per loop iteration, keeping only the rows up
 * to the page asked for, and the answer waits (ctlserver_defer) until the
 * walk is done. A finished walk is kept a few seconds for the next pages. */
#ifndef TERN_CONSOLEQUEUES_H
#define TERN_CONSOLEQUEUES_H
#include <uv.h>

#include "ops/consoleview.h"

struct frontier;

/* Records read per request in key order, and per loop iteration in a
 * sorted walk. */
#define CONSOLEQUEUES_SCAN 5000
#define CONSOLEQUEUES_STEP 2000

struct consolequeues;

struct consolequeues *consolequeues_new(uv_loop_t *loop, struct frontier *f);
/* Cancels walks under way (their requests get 503) and frees; the loop
 * must run once more to close the handle, after which it is freed. */
void consolequeues_free(struct consolequeues *cq);
void consolequeues_list(struct consolequeues *cq, const struct consoleview_rq *q);
void consolequeues_detail(struct consolequeues *cq, const struct consoleview_rq *q);

#endif
