/* Growable buffers (src/lib/buf.c): appending, and the printf-free integer
 * formatting checked against snprintf with the same widths. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/buf.h"

static const int64_t test_buf_values[] = {
    0,
    1,
    -1,
    9,
    10,
    -10,
    99,
    100,
    12345,
    -12345,
    999999999,
    1000000000,
    2147483647,
    -2147483648LL,
    4294967296LL,
    9223372036854775807LL,
    -9223372036854775807LL - 1,
};

static void test_buf_ints(void **state)
{
	static const size_t widths[] = {0, 1, 3, 5, 10, 25};

	(void)state;
	for (size_t i = 0; i < sizeof test_buf_values / sizeof test_buf_values[0]; i++) {
		int64_t v = test_buf_values[i];
		for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
			struct buf b = BUF_INIT;
			char want[128];
			int n;

			buf_appends(&b, "<");
			buf_appendint(&b, v, widths[w], ' ');
			buf_appendc(&b, '|');
			buf_appendint(&b, v, widths[w], '0');
			buf_appendc(&b, '|');
			buf_appendu(&b, (uint64_t)v);
			n = snprintf(want, sizeof want, "<%*lld|%0*lld|%llu", (int)widths[w],
			    (long long)v, (int)widths[w], (long long)v, (unsigned long long)v);
			assert_string_equal(b.data, want);
			assert_int_equal(b.len, (size_t)n);
			buf_free(&b);
		}
	}
}

/* buf_appendf formats in place when the piece fits the spare room and
 * again after growing when it does not. */
static void test_buf_appendf(void **state)
{
	struct buf b = BUF_INIT;
	char big[300];

	(void)state;
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	buf_appendf(&b, ":%d", 8080);
	assert_string_equal(b.data, ":8080");
	for (int i = 0; i < 5; i++)
		buf_appendf(&b, "[%s]", big);
	assert_int_equal(b.len, 5 + 5 * (sizeof big + 1));
	assert_int_equal(b.data[b.len], '\0');
	assert_memory_equal(b.data + b.len - 4, "xxx]", 4);
	buf_appendf(&b, "%s", "");
	assert_int_equal(b.len, 5 + 5 * (sizeof big + 1));
	buf_free(&b);
}

/* A pooled buffer keeps its room up to the bound and is freed past it;
 * either way it is empty and usable after. */
static void test_buf_reset_keep(void **state)
{
	struct buf b = BUF_INIT;
	char *room;

	(void)state;
	buf_reset_keep(&b, 64);
	assert_null(b.data);
	buf_appends(&b, "small");
	room = b.data;
	buf_reset_keep(&b, 64);
	assert_ptr_equal(b.data, room);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	buf_reserve(&b, 1000);
	buf_appends(&b, "large");
	buf_reset_keep(&b, 64);
	assert_null(b.data);
	assert_int_equal(b.cap, 0);
	assert_int_equal(b.len, 0);
	buf_appends(&b, "again");
	assert_string_equal(b.data, "again");
	buf_reset_keep(&b, 0);
	assert_null(b.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buf_ints),
	    cmocka_unit_test(test_buf_appendf),
	    cmocka_unit_test(test_buf_reset_keep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
