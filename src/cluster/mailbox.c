/* The mailbox between the loop and the NATS client's threads. */
#include <errno.h>
#include <stdlib.h>
#include "cluster/mailbox.h"
#include "lib/xmalloc.h"

struct mbox_list {
	struct mbox_item *head, *tail;
};

struct mailbox {
	uv_mutex_t lock;
	uv_cond_t cond;
	struct mbox_list urgent, cmds, events;
	int split; /* urgent commands have a thread of their own */
	uv_async_t async;
	void (*on_events)(void *ctx);
	void *ctx;
};

static void mailbox_push(struct mbox_list *l, struct mbox_item *it)
{
	it->next = NULL;
	if (l->tail != NULL)
		l->tail->next = it;
	else
		l->head = it;
	l->tail = it;
}

static void mailbox_async_cb(uv_async_t *a)
{
	struct mailbox *m = a->data;

	m->on_events(m->ctx);
}

struct mailbox *mailbox_new(uv_loop_t *loop, void (*on_events)(void *ctx), void *ctx)
{
	struct mailbox *m = xcalloc(1, sizeof *m);

	if (uv_mutex_init(&m->lock) != 0 || uv_cond_init(&m->cond) != 0)
		abort();
	m->on_events = on_events;
	m->ctx = ctx;
	m->async.data = m;
	if (uv_async_init(loop, &m->async, mailbox_async_cb) != 0)
		abort();
	return m;
}

static void mailbox_free_list(struct mbox_item *it)
{
	while (it != NULL) {
		struct mbox_item *next = it->next;
		free(it);
		it = next;
	}
}

static void mailbox_closed_cb(uv_handle_t *h)
{
	struct mailbox *m = h->data;

	mailbox_free_list(m->urgent.head);
	mailbox_free_list(m->cmds.head);
	mailbox_free_list(m->events.head);
	uv_cond_destroy(&m->cond);
	uv_mutex_destroy(&m->lock);
	free(m);
}

void mailbox_close(struct mailbox *m)
{
	uv_close((uv_handle_t *)&m->async, mailbox_closed_cb);
}

void mailbox_to_thread(struct mailbox *m, struct mbox_item *it)
{
	uv_mutex_lock(&m->lock);
	mailbox_push(&m->cmds, it);
	uv_cond_broadcast(&m->cond);
	uv_mutex_unlock(&m->lock);
}

void mailbox_to_thread_urgent(struct mailbox *m, struct mbox_item *it)
{
	uv_mutex_lock(&m->lock);
	mailbox_push(&m->urgent, it);
	uv_cond_broadcast(&m->cond);
	uv_mutex_unlock(&m->lock);
}

static struct mbox_item *mailbox_pop(struct mbox_list *l)
{
	struct mbox_item *it = l->head;

	if (it != NULL) {
		l->head = it->next;
		if (l->head == NULL)
			l->tail = NULL;
		it->next = NULL;
	}
	return it;
}

struct mbox_item *mailbox_take_events(struct mailbox *m)
{
	struct mbox_item *it;

	uv_mutex_lock(&m->lock);
	it = m->events.head;
	m->events.head = m->events.tail = NULL;
	uv_mutex_unlock(&m->lock);
	return it;
}

void mailbox_to_loop(struct mailbox *m, struct mbox_item *it)
{
	int wake;

	uv_mutex_lock(&m->lock);
	wake = m->events.head == NULL;
	mailbox_push(&m->events, it);
	uv_mutex_unlock(&m->lock);
	/* One wake-up per batch: the loop takes the whole list at once. */
	if (wake)
		uv_async_send(&m->async);
}

struct mbox_item *mailbox_take_command(struct mailbox *m, int64_t wait_ms)
{
	struct mbox_item *it;

	uv_mutex_lock(&m->lock);
	if ((m->split || m->urgent.head == NULL) && m->cmds.head == NULL && wait_ms > 0)
		uv_cond_timedwait(&m->cond, &m->lock, (uint64_t)wait_ms * 1000000u);
	it = m->split ? NULL : mailbox_pop(&m->urgent);
	if (it == NULL)
		it = mailbox_pop(&m->cmds);
	uv_mutex_unlock(&m->lock);
	return it;
}

void mailbox_split_urgent(struct mailbox *m)
{
	uv_mutex_lock(&m->lock);
	m->split = 1;
	uv_mutex_unlock(&m->lock);
}

struct mbox_item *mailbox_take_urgent(struct mailbox *m, int64_t wait_ms)
{
	struct mbox_item *it;

	uv_mutex_lock(&m->lock);
	if (m->urgent.head == NULL && wait_ms > 0)
		uv_cond_timedwait(&m->cond, &m->lock, (uint64_t)wait_ms * 1000000u);
	it = mailbox_pop(&m->urgent);
	uv_mutex_unlock(&m->lock);
	return it;
}

int mailbox_has_command(struct mailbox *m)
{
	int has;

	uv_mutex_lock(&m->lock);
	has = m->urgent.head != NULL || m->cmds.head != NULL;
	uv_mutex_unlock(&m->lock);
	return has;
}
