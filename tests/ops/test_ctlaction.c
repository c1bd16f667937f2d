/* The table of control actions (ops/ctlaction.h): each is found by its
 * command, its route and, when passed on, its name among cluster peers;
 * the 404 text and the usage list them all. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "lib/buf.h"
#include "ops/ctlaction.h"

static void test_ctlaction_lookups(void **state)
{
	static const struct {
		const char *cmd, *path, *peer; /* peer: NULL when not passed on */
		enum ctlaction_id id;
	} t[] = {
	    {"status", "/status", NULL, CTLACTION_STATUS},
	    {"pause", "/pause", "pause", CTLACTION_PAUSE},
	    {"unpause", "/unpause", "unpause", CTLACTION_UNPAUSE},
	    {"stop", "/stop", "stop", CTLACTION_STOP},
	    {"checkpoint", "/checkpoint", "checkpoint", CTLACTION_CHECKPOINT},
	    {"reconsider-retired", "/reconsider-retired", "reconsider-retired",
		CTLACTION_RECONSIDER_RETIRED},
	    {"set", "/settings", "settings", CTLACTION_SETTINGS},
	    {"report", "/report/queues", NULL, CTLACTION_REPORT},
	    {"metrics", "/metrics", NULL, CTLACTION_METRICS},
	};
	size_t i;

	(void)state;
	assert_int_equal(ctlaction_count, sizeof t / sizeof t[0]);
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		const struct ctlaction *a = ctlaction_by_cmd(t[i].cmd);

		assert_non_null(a);
		assert_int_equal(a->id, t[i].id);
		assert_ptr_equal(ctlaction_by_route(t[i].path), a);
		if (t[i].peer != NULL)
			assert_ptr_equal(ctlaction_by_peer_name(t[i].peer), a);
		else
			assert_null(ctlaction_by_peer_name(a->route + 1));
	}
	assert_null(ctlaction_by_cmd("settings"));
	assert_null(ctlaction_by_cmd("paus"));
	assert_null(ctlaction_by_route("/report"));
	assert_null(ctlaction_by_route("/pause/"));
	assert_null(ctlaction_by_route("/"));
	assert_null(ctlaction_by_peer_name("status"));
	assert_null(ctlaction_by_peer_name("set"));
}

static void test_ctlaction_text(void **state)
{
	struct buf b = BUF_INIT;
	size_t i;

	(void)state;
	ctlaction_routes(&b);
	assert_string_equal(b.data,
	    "/status, /pause, /unpause, /stop, /checkpoint, "
	    "/reconsider-retired, /settings, /report/..., /metrics");
	buf_reset(&b);
	ctlaction_usage(&b);
	for (i = 0; i < ctlaction_count; i++)
		assert_non_null(strstr(b.data, ctlaction_table[i].cmd));
	assert_non_null(strstr(b.data,
	    "  pause | unpause | stop      hold, resume, or end the "
	    "crawl\n"));
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ctlaction_lookups),
	    cmocka_unit_test(test_ctlaction_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
