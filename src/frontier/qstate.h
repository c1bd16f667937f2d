/* The queue state machine (qstate.c): qstate_set is the one place where a
 * queue's state changes; the rest decides which state a queue goes to and
 * counts queues by state. */
#ifndef TERN_FRONTIER_QSTATE_H
#define TERN_FRONTIER_QSTATE_H
#include "frontier/private.h"

/* Settings for a URI or queue whose SURT is surt (NULL: the defaults). */
void qstate_settings_for(struct frontier *f, const char *surt, struct policy_settings *s);
/* The queue's settings, from the SURT of the last URI placed on it. */
const struct policy_settings *qstate_settings(struct frontier *f, struct wq *q);
/* The lowest inactive bucket holding a queue, or 256 if none. */
int qstate_best_inactive(const struct frontier *f);
/* Inactive queues below the precedence floor. */
uint64_t qstate_eligible_inactive(const struct frontier *f);
/* The READY queue to poll next (FIFO head, or the best-first heap's top). */
struct wq *qstate_ready_head(const struct frontier *f);
size_t qstate_nready(const struct frontier *f);
/* Moves q to state (enum wq_state). */
void qstate_set(struct frontier *f, struct wq *q, int state);
/* Re-evaluates the queue's precedence (refiling an inactive queue). */
void qstate_reevaluate(struct frontier *f, struct wq *q);
/* A queue with nothing in flight and no delay to serve: EXHAUSTED, INACTIVE
 * or READY. */
void qstate_reenqueue(struct frontier *f, struct wq *q);
/* Snoozed queues whose wake time has come: reenqueued. */
void qstate_wake(struct frontier *f, uint64_t now);
/* A queue that was in the working set at the last write (reopening the
 * store): its in-flight URI is still at its head, so it is READY again
 * (SNOOZED for what is left of its wake time; EXHAUSTED if empty). */
void qstate_restore(struct frontier *f, struct wq *q);
/* frontier_reconsider_retired. */
int qstate_reconsider_retired(struct frontier *f);
/* frontier_counts and frontier_is_finished. */
void qstate_counts(const struct frontier *f, struct frontier_counts *out);
int qstate_is_finished(const struct frontier *f);

#endif
