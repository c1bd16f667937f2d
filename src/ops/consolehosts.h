/* The console's hosts page: the hosts report (crawl/hostsreport.h) as a
 * table, CONSOLEREQ_PAGE_ROWS rows a page, sorted by URIs, bytes, failures
 * or name, each host linking to its crawl.log lines. The report is built
 * from crawl.log once and then fed only the lines written since, so a page
 * costs the new lines, not the whole log; they are read
 * CONSOLEHOSTS_STEP bytes per loop iteration while the request waits, at
 * most CONSOLEHOSTS_BATCH per request (the page then says how much is
 * left, and the next request goes on). */
#ifndef TERN_CONSOLEHOSTS_H
#define TERN_CONSOLEHOSTS_H
#include <uv.h>

#include "ops/consoleview.h"

#define CONSOLEHOSTS_STEP (1u << 20)
#define CONSOLEHOSTS_BATCH (64u << 20)

struct consolehosts;

struct consolehosts *consolehosts_new(uv_loop_t *loop, const char *jobdir);
/* Answers waiting requests with 503 and frees; the loop must run once more
 * to close the handle. */
void consolehosts_free(struct consolehosts *ch);
void consolehosts_page(struct consolehosts *ch, const struct consoleview_rq *q);

#endif
