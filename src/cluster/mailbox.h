/* The one meeting point between the crawl's loop and the NATS client's
 * threads (doc/cluster.md, "Threads"): two FIFO lists under one mutex.
 * Commands go from the loop to the client's thread, which waits on a
 * condition variable; events go from any client thread to the loop, woken
 * by a uv_async_t. Items are intrusive (embed a struct mbox_item first);
 * whoever takes an item owns it. Nothing else is shared between threads. */
#ifndef TERN_MAILBOX_H
#define TERN_MAILBOX_H
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct mbox_item {
	struct mbox_item *next;
	int kind;
};

struct mailbox;

/* on_events runs on the loop whenever events were posted (libuv may merge
 * several wake-ups into one call). */
struct mailbox *mailbox_new(uv_loop_t *loop, void (*on_events)(void *ctx), void *ctx);
/* Closes the async handle; the mailbox is freed in its close callback,
 * with any items left in it (freed with free()). */
void mailbox_close(struct mailbox *m);

/* Loop side (and any client thread). Urgent commands (lease writes) are
 * taken before every other one waiting, so that a burst of publications or
 * acknowledgments never delays a renewal. */
void mailbox_to_thread(struct mailbox *m, struct mbox_item *it);
void mailbox_to_thread_urgent(struct mailbox *m, struct mbox_item *it);
/* Takes every event posted so far, oldest first (a NULL-terminated list). */
struct mbox_item *mailbox_take_events(struct mailbox *m);

/* Client side (any thread). */
void mailbox_to_loop(struct mailbox *m, struct mbox_item *it);
/* The oldest command, waiting up to wait_ms for one (0: no wait); NULL
 * if none came (a wake-up for another thread's command returns early). */
struct mbox_item *mailbox_take_command(struct mailbox *m, int64_t wait_ms);
/* From now on urgent commands are taken only by mailbox_take_urgent, on a
 * thread of their own, so that no other command, however long it waits
 * for its answer, delays them; mailbox_take_command takes the others. */
void mailbox_split_urgent(struct mailbox *m);
struct mbox_item *mailbox_take_urgent(struct mailbox *m, int64_t wait_ms);
int mailbox_has_command(struct mailbox *m);

#endif
