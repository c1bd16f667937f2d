/* Reports and walks of the frontier (qreport.c). */
#ifndef TERN_FRONTIER_QREPORT_H
#define TERN_FRONTIER_QREPORT_H
#include <stdio.h>

#include "frontier/private.h"

/* frontier_report_summary, frontier_report_queues(_fp). */
void qreport_summary(struct frontier *f, struct buf *out);
/* frontier_longest_*, frontier_report_summary_longest. */
struct frontier_longest *qreport_longest_new(void);
void qreport_longest_free(struct frontier_longest *lg);
size_t qreport_longest_step(struct frontier *f, struct frontier_longest *lg, size_t max, int *more);
void qreport_summary_longest(struct frontier *f, struct frontier_longest *lg, struct buf *out);
void qreport_queues(struct frontier *f, struct buf *out, int json);
void qreport_queues_fp(struct frontier *f, FILE *fp, int json);
/* frontier_report_queues_step. */
size_t qreport_queues_step(
    struct frontier *f, struct buf *cursor, size_t max, int json, struct buf *out, int *more);
/* frontier_walk_queues, frontier_queue_get, frontier_queue_head. */
size_t qreport_walk(
    struct frontier *f, const char *after, size_t max, frontier_queue_fn *fn, void *arg, int *more);
int qreport_get(struct frontier *f, const char *key, frontier_queue_fn *fn, void *arg);
int qreport_head(struct frontier *f, const char *key, size_t n, frontier_uri_fn *fn, void *arg);

#endif
