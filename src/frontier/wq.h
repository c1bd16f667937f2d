/* One work queue (a host or other class key) while it is in memory, and the
 * hash table that finds resident queues by key. The frontier owns the state
 * machine; this file only holds the object, its intrusive list links and the
 * table. */
#ifndef TERN_WQ_H
#define TERN_WQ_H
#include <stddef.h>
#include <stdint.h>
#include "lib/buf.h"
#include "frontier/keys.h"
#include "frontier/policy.h"
#include "frontier/wheel.h"

struct frontier_queue_info;

/* Queue states as Heritrix's (reference section 4). WQ_NONE: placed in no
 * structure yet (just created or just loaded). Ineligible is INACTIVE at a
 * precedence at or past the floor. */
enum wq_state {
	WQ_NONE,
	WQ_EXHAUSTED,
	WQ_INACTIVE,
	WQ_READY,
	WQ_IN_PROCESS,
	WQ_SNOOZED,
	WQ_RETIRED,
	WQ__COUNT
};

struct wq_list {
	struct wq *head, *tail;
	size_t n;
};

struct wq_link {
	struct wq *next, *prev;
};

struct wq {
	char *key;
	struct keys_qmeta m;	  /* what the store keeps */
	struct policy_settings s; /* settings from m.surt */
	unsigned s_gen;		  /* settings generation s was resolved at */
	struct wheel_entry wheel; /* SNOOZED */
	struct wq_link ready;	  /* READY list */
	struct wq_link cold;	  /* resident but outside the working set */
	size_t heap_idx;	  /* READY in best-first order */
	double prio;		  /* its key there: lower goes first */
	uint64_t rseq;		  /* FIFO among equal keys */
	uint64_t session_taken;	  /* URIs given out since activation */
	struct wq *next_dirty;
	struct wq *hnext;
	struct buf out_key;	      /* store key of the URI in flight */
	struct buf ahead;	      /* the next URIs, read with the head (ahead.h) */
	size_t ahead_off, ahead_last; /* its front record, its last record */
	unsigned dirty : 1;	      /* metadata to write at the next flush */
	unsigned batch_puts : 1;      /* URI keys put in the unwritten batch */
	unsigned seek_out : 1;	      /* URIs before out_key were deleted in the unwritten batch */
	unsigned skip_out : 1;	      /* and out_key too */
	unsigned out : 1;	      /* a URI is in flight */
	unsigned on_cold : 1;
};

struct wq_table;

/* A binary min-heap of queues by (prio, rseq). */
struct wq_heap {
	struct wq **a;
	size_t n, cap;
};

const char *wq_state_name(int state);
/* 1 for READY, IN-PROCESS and SNOOZED: the in-memory working set. */
int wq_state_working(int state);
/* One line of the queues report (doc/formats.md, "Reports"), or a JSON object:
 * state word, key, precedence, size, enqueues, session balance,
 * last(average) cost, last dequeue, wake in, spend/budget, errors, last
 * peeked and last queued URI. */
void wq_report_line(const char *key, const struct keys_qmeta *m, const struct policy_settings *s,
    int floor, uint64_t now, struct buf *out, int json);
/* The same fields as values (the strings point into key and m). */
void wq_info(const char *key, const struct keys_qmeta *m, const struct policy_settings *s,
    int floor, uint64_t now, struct frontier_queue_info *out);
struct wq *wq_new(const char *key);
void wq_free(struct wq *q);

struct wq_table *wq_table_new(void);
/* Frees the table and every queue in it. */
void wq_table_free(struct wq_table *t);
struct wq *wq_table_get(const struct wq_table *t, const char *key);
void wq_table_put(struct wq_table *t, struct wq *q);
void wq_table_remove(struct wq_table *t, struct wq *q);

/* Intrusive FIFO lists over one of the queue's links (ready or cold). */
void wq_list_append(struct wq_list *l, struct wq *q, size_t link_offset);
void wq_list_unlink(struct wq_list *l, struct wq *q, size_t link_offset);

void wq_heap_push(struct wq_heap *h, struct wq *q);
void wq_heap_remove(struct wq_heap *h, struct wq *q);
void wq_heap_free(struct wq_heap *h);

#endif
