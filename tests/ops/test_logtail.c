/* Reading a log from its end: newest line first with offsets, a last line
 * still being written left out, pages of a bounded number of bytes that
 * together give every line once, an early stop, a missing file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/buf.h"
#include "ops/logtail.h"

struct test_logtail_seen {
	struct buf lines; /* "off:line\n" in the order given */
	int stop_after;
	int n;
};

static int test_logtail_cb(void *arg, const char *line, size_t len, uint64_t off)
{
	struct test_logtail_seen *s = arg;

	buf_appendf(&s->lines, "%llu:%.*s\n", (unsigned long long)off, (int)len, line);
	return ++s->n == s->stop_after;
}

static void test_logtail_small(void **state)
{
	char path[] = "/tmp/tern-logtail-XXXXXX", *err = NULL;
	int fd = mkstemp(path);
	struct test_logtail_seen s = {BUF_INIT, 0, 0};
	struct logtail_result r;
	static const char text[] = "a\nbb\n\nccc\ndd";

	(void)state;
	assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(logtail_read(path, 0, 1 << 20, test_logtail_cb, &s, &r, &err), 0);
	assert_string_equal(s.lines.data, "6:ccc\n2:bb\n0:a\n");
	assert_int_equal(r.size, strlen(text));
	assert_int_equal(r.next, 0);
	/* Stop after one line, then go on from there. */
	buf_reset(&s.lines);
	s.n = 0;
	s.stop_after = 1;
	assert_int_equal(logtail_read(path, 0, 1 << 20, test_logtail_cb, &s, &r, &err), 0);
	assert_string_equal(s.lines.data, "6:ccc\n");
	assert_int_equal(r.next, 6);
	buf_reset(&s.lines);
	s.n = 0;
	s.stop_after = 0;
	assert_int_equal(logtail_read(path, r.next, 1 << 20, test_logtail_cb, &s, &r, &err), 0);
	assert_string_equal(s.lines.data, "2:bb\n0:a\n");
	unlink(path);
	/* A missing file is empty. */
	buf_reset(&s.lines);
	assert_int_equal(logtail_read(path, 0, 100, test_logtail_cb, &s, &r, &err), 0);
	assert_int_equal(s.lines.len, 0);
	assert_int_equal(r.size, 0);
	buf_free(&s.lines);
}

/* 20,000 lines over several blocks, read in pages of 10 KB: every line
 * comes once, in order from the newest, and each page reads about its
 * bound. */
static void test_logtail_pages(void **state)
{
	char path[] = "/tmp/tern-logtail-XXXXXX", *err = NULL;
	int fd = mkstemp(path);
	FILE *fp = fdopen(fd, "w");
	struct test_logtail_seen s = {BUF_INIT, 0, 0};
	struct logtail_result r;
	uint64_t before = 0;
	int pages = 0, want = 19999;
	const char *p;

	(void)state;
	for (int i = 0; i < 20000; i++)
		fprintf(fp, "line %d %.*s\n", i, i % 97,
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	fclose(fp);
	do {
		assert_int_equal(
		    logtail_read(path, before, 10000, test_logtail_cb, &s, &r, &err), 0);
		assert_true(r.scanned <= 10000 + 4096);
		before = r.next;
		pages++;
	} while (before > 0 && pages < 1000);
	assert_true(pages > 10);
	for (p = s.lines.data; *p; want--) {
		const char *nl = strchr(p, '\n'), *sp = strstr(p, "line ");
		assert_non_null(sp);
		assert_int_equal(atoi(sp + 5), want);
		p = nl + 1;
	}
	assert_int_equal(want, -1);
	buf_free(&s.lines);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_logtail_small),
	    cmocka_unit_test(test_logtail_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
