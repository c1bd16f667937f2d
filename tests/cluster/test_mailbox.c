/* The mailbox between the loop and the NATS client's threads
 * (src/cluster/mailbox.c): urgent commands (lease writes) are taken first;
 * once split, only their own thread takes them, so that a thread busy with,
 * or waiting for, ordinary commands never holds them up. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <uv.h>
#include "cluster/mailbox.h"
#include "lib/xmalloc.h"

static void on_events(void *ctx)
{
	(void)ctx;
}

static struct mbox_item *item(int kind)
{
	struct mbox_item *it = xcalloc(1, sizeof *it);

	it->kind = kind;
	return it;
}

static int take_kind(struct mbox_item *it)
{
	int k = it != NULL ? it->kind : 0;

	free(it);
	return k;
}

static void test_mailbox_urgent_first(void **state)
{
	uv_loop_t loop;
	struct mailbox *m;

	(void)state;
	assert_int_equal(uv_loop_init(&loop), 0);
	m = mailbox_new(&loop, on_events, NULL);
	mailbox_to_thread(m, item(1));
	mailbox_to_thread(m, item(2));
	mailbox_to_thread_urgent(m, item(3));
	assert_int_equal(take_kind(mailbox_take_command(m, 0)), 3);
	assert_int_equal(take_kind(mailbox_take_command(m, 0)), 1);
	assert_int_equal(take_kind(mailbox_take_command(m, 0)), 2);
	assert_int_equal(take_kind(mailbox_take_command(m, 0)), 0);
	/* Split: each side takes only its own. */
	mailbox_split_urgent(m);
	mailbox_to_thread(m, item(1));
	mailbox_to_thread_urgent(m, item(3));
	assert_int_equal(take_kind(mailbox_take_command(m, 0)), 1);
	assert_int_equal(take_kind(mailbox_take_command(m, 0)), 0);
	assert_int_equal(take_kind(mailbox_take_urgent(m, 0)), 3);
	assert_int_equal(take_kind(mailbox_take_urgent(m, 0)), 0);
	/* Left in it when closed: freed with it. */
	mailbox_to_thread(m, item(1));
	mailbox_to_thread_urgent(m, item(3));
	mailbox_close(m);
	uv_run(&loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(&loop), 0);
}

struct waiter {
	struct mailbox *m;
	int kind;
};

/* An ordinary command's thread, waiting for one. */
static void waiter_main(void *arg)
{
	struct waiter *w = arg;

	while (w->kind == 0)
		w->kind = take_kind(mailbox_take_command(w->m, 100));
}

static void test_mailbox_split_threads(void **state)
{
	uv_loop_t loop;
	uv_thread_t t;
	struct waiter w;

	(void)state;
	assert_int_equal(uv_loop_init(&loop), 0);
	w.m = mailbox_new(&loop, on_events, NULL);
	w.kind = 0;
	mailbox_split_urgent(w.m);
	assert_int_equal(uv_thread_create(&t, waiter_main, &w), 0);
	/* The waiting thread is woken by the urgent command but leaves it
	 * to the urgent side. */
	mailbox_to_thread_urgent(w.m, item(3));
	assert_int_equal(take_kind(mailbox_take_urgent(w.m, 5000)), 3);
	mailbox_to_thread(w.m, item(1));
	uv_thread_join(&t);
	assert_int_equal(w.kind, 1);
	mailbox_close(w.m);
	uv_run(&loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_loop_close(&loop), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mailbox_urgent_first),
	    cmocka_unit_test(test_mailbox_split_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
