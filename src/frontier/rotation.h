/* Rotation (rotation.c): the poll that hands out the next URI (activation,
 * session balance, total budget), and completion (charges, snoozes). */
#ifndef TERN_FRONTIER_ROTATION_H
#define TERN_FRONTIER_ROTATION_H
#include "frontier/private.h"

/* frontier_next after the settings check (now is already f->now). */
int rotation_next(struct frontier *f, uint64_t now, struct curi **out, uint64_t *wake_ms);
/* frontier_finish (and frontier_finish_revisit: due_ms > 0 parks the URI
 * in the revisit schedule), frontier_may_retry, frontier_note_connect. */
void rotation_finish(struct frontier *f, struct curi *c, enum frontier_outcome o, uint64_t now,
    uint64_t delay_ms, uint64_t due_ms);
int rotation_may_retry(struct frontier *f, const struct curi *c);
unsigned rotation_note_connect(struct frontier *f, const struct curi *c, int failed);

#endif
