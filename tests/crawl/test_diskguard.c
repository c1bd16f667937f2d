/* Table test of src/crawl/diskguard.c: pause below the low mark, resume
 * only above the high one (no flapping in between), a failed write pauses
 * whatever the figures, 0 turns the watch off. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "crawl/diskguard.h"

static void test_judge(void **state)
{
	static const struct {
		int paused;
		uint64_t free_mb;
		int enospc;
		uint64_t below, above;
		enum diskguard_verdict want;
	} t[] = {
	    {0, 5000, 0, 1024, 2048, DISKGUARD_KEEP},
	    {0, 1024, 0, 1024, 2048, DISKGUARD_KEEP},
	    {0, 1023, 0, 1024, 2048, DISKGUARD_PAUSE},
	    {0, 0, 0, 1024, 2048, DISKGUARD_PAUSE},
	    /* Between the marks: a running crawl runs, a paused one waits. */
	    {0, 1500, 0, 1024, 2048, DISKGUARD_KEEP},
	    {1, 1500, 0, 1024, 2048, DISKGUARD_KEEP},
	    {1, 2048, 0, 1024, 2048, DISKGUARD_KEEP},
	    {1, 2049, 0, 1024, 2048, DISKGUARD_RESUME},
	    {1, 1000, 0, 1024, 2048, DISKGUARD_KEEP},
	    /* A write that failed for want of space. */
	    {0, 5000, 1, 1024, 2048, DISKGUARD_PAUSE},
	    {1, 5000, 1, 1024, 2048, DISKGUARD_KEEP},
	    {0, 5000, 1, 0, 2048, DISKGUARD_PAUSE},
	    /* The watch off: only a failed write pauses; space brings it back. */
	    {0, 0, 0, 0, 2048, DISKGUARD_KEEP},
	    {1, 3000, 0, 0, 2048, DISKGUARD_RESUME},
	    /* A high mark under the low one is raised to it. */
	    {1, 1000, 0, 1024, 100, DISKGUARD_KEEP},
	    {1, 1025, 0, 1024, 100, DISKGUARD_RESUME},
	};

	(void)state;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (diskguard_judge(t[i].paused, t[i].free_mb, t[i].enospc, t[i].below,
			t[i].above) != t[i].want)
			fail_msg("row %zu", i);
	assert_int_equal(diskguard_resume_mb(1024, 2048), 2048);
	assert_int_equal(diskguard_resume_mb(1024, 100), 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_judge)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
