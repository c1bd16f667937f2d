/* Tests of src/archive/capture.c: a body stays in memory up to its bound
 * and moves whole to a spill file past it, reads back the same, a reset
 * closes the file; a spill file that cannot be made and a write that
 * stops short (a file size limit standing in for a full disk) end in the
 * named code with errno kept. */
#include <build-config.h>

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "archive/capture.h"

static char dir[] = "/tmp/tern-capture-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	/* Spill files have no name: the directory is empty again. */
	return rmdir(dir);
}

/* The spill file's bytes, from its start. */
static void assert_spilled(int fd, const char *want, size_t n)
{
	char got[64];

	assert_true(n <= sizeof got);
	assert_int_equal(pread(fd, got, sizeof got, 0), (ssize_t)n);
	assert_memory_equal(got, want, n);
}

static void test_memory_then_spill(void **state)
{
	struct capture *c = capture_new(dir, 8);

	(void)state;
	/* Up to the bound, exactly, the body is in memory. */
	assert_int_equal(capture_append(c, "abcd", 4), 0);
	assert_int_equal(capture_append(c, "efgh", 4), 0);
	assert_int_equal(capture_fd(c), -1);
	assert_int_equal(capture_len(c), 8);
	assert_memory_equal(capture_mem(c)->data, "abcdefgh", 8);

	/* One byte past it and all of it moves to the file. */
	assert_int_equal(capture_append(c, "ij", 2), 0);
	assert_true(capture_fd(c) >= 0);
	assert_int_equal(capture_len(c), 10);
	assert_int_equal(capture_mem(c)->len, 0);
	assert_int_equal(capture_append(c, "klm", 3), 0);
	assert_int_equal(capture_len(c), 13);
	assert_spilled(capture_fd(c), "abcdefghijklm", 13);

	/* A reset closes the file; the next body starts in memory. */
	capture_reset(c, 0);
	assert_int_equal(capture_fd(c), -1);
	assert_int_equal(capture_len(c), 0);
	assert_int_equal(capture_append(c, "xyz", 3), 0);
	assert_int_equal(capture_fd(c), -1);
	assert_memory_equal(capture_mem(c)->data, "xyz", 3);
	capture_reset(c, 1024);
	assert_int_equal(capture_len(c), 0);
	capture_free(c);
}

/* A large first append goes straight to the file. */
static void test_first_append_past_bound(void **state)
{
	struct capture *c = capture_new(dir, 4);

	(void)state;
	assert_int_equal(capture_append(c, "0123456789", 10), 0);
	assert_true(capture_fd(c) >= 0);
	assert_int_equal(capture_len(c), 10);
	assert_spilled(capture_fd(c), "0123456789", 10);
	capture_free(c);
}

static void test_no_spill_dir(void **state)
{
	struct capture *c = capture_new("/nonexistent/tern-capture", 4);

	(void)state;
	assert_int_equal(capture_append(c, "ab", 2), 0);
	errno = 0;
	assert_int_equal(capture_append(c, "cdef", 4), CAPTURE_ESPILL);
	assert_int_equal(errno, ENOENT);
	/* What was in memory is still there. */
	assert_int_equal(capture_fd(c), -1);
	assert_memory_equal(capture_mem(c)->data, "ab", 2);
	capture_free(c);

	c = capture_new(NULL, 4);
	assert_int_equal(capture_append(c, "abcdef", 6), CAPTURE_ESPILL);
	capture_free(c);
}

/* A file size limit makes the kernel write part of a buffer and then
 * refuse, as a disk that fills up mid-write does: every byte it took is
 * counted and the error is the kernel's, not a stale one. */
static void test_short_write_fails(void **state)
{
	struct rlimit old, lim;
	struct capture *c = capture_new(dir, 4);
	char big[100];
	int rc, saved;

	(void)state;
	memset(big, 'x', sizeof big);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = 50;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	errno = 0;
	rc = capture_append(c, big, sizeof big);
	saved = errno;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(rc, CAPTURE_EWRITE);
	assert_int_equal(saved, EFBIG);
	assert_int_equal(capture_len(c), 50);
	capture_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_memory_then_spill),
	    cmocka_unit_test(test_first_append_past_bound),
	    cmocka_unit_test(test_no_spill_dir),
	    cmocka_unit_test(test_short_write_fails),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
