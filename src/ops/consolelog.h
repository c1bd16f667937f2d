/* The console's crawl.log views: the log page (newest lines first, filtered
 * by status, host and MIME, a page of lines at a time with a link to older
 * ones) and the rows a queue's page shows. JOBDIR/logs/crawl.log is read from
 * its end with a bound on the bytes per request (ops/logtail.h), so a log
 * of any size costs a page the same. */
#ifndef TERN_CONSOLELOG_H
#define TERN_CONSOLELOG_H
#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "ops/logline.h"
#include "ops/consoleview.h"

/* Bytes of crawl.log read per request at most. */
#define CONSOLELOG_SCAN_BYTES (4u << 20)

struct consolelog_result {
	size_t rows;	  /* lines shown */
	uint64_t next;	  /* offset to read older lines before; 0: none */
	uint64_t size;	  /* crawl.log's size */
	uint64_t scanned; /* bytes read */
};

/* Appends up to max_rows table rows (<tr>...</tr>) of the lines that pass
 * f, newest first, ending before offset before (0: the end). The
 * annotations column is included when annotations is set. -1 and *err on a
 * read error. */
int consolelog_rows(const char *jobdir, const struct logline_filter *f, uint64_t before,
    size_t max_rows, int annotations, struct buf *rows, struct consolelog_result *res, char **err);
/* The log page. */
void consolelog_page(const struct consoleview_rq *q);

#endif
