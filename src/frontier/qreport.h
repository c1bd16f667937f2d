/* Reports and walks of the frontier (qreport.c). */
#ifndef TERN_FRONTIER_QREPORT_H
#define TERN_FRONTIER_QREPORT_H
#include <stdio.h>

#include "frontier/private.h"

/* frontier_report_summary, frontier_report_queues(_fp). */
void qreport_summary(struct frontier *f, struct buf *out);
void qreport_queues(struct frontier *f, struct buf *out, int json);
void qreport_queues_fp(struct frontier *f, FILE *fp, int json);

#endif
