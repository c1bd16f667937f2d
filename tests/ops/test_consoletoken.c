/* JOBDIR/console.token: made once (0600, 64 hex digits) and then the same
 * on every call; a file others can read, a file that is not a token, and a
 * job directory that cannot take the file are refused with a message. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ops/consoletoken.h"

static void test_consoletoken_file(void **state)
{
	char dir[] = "/tmp/tern-token-XXXXXX", path[64], a[CONSOLEREQ_TOKEN_LEN + 1],
	     b[CONSOLEREQ_TOKEN_LEN + 1], c[CONSOLEREQ_TOKEN_LEN + 1], *err = NULL;
	struct stat st;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/console.token", dir);
	assert_int_equal(consoletoken_get(dir, a, &err), 0);
	assert_int_equal(strlen(a), CONSOLEREQ_TOKEN_LEN);
	assert_int_equal(strspn(a, "0123456789abcdef"), CONSOLEREQ_TOKEN_LEN);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(st.st_size, CONSOLEREQ_TOKEN_LEN + 1);
	assert_int_equal(consoletoken_get(dir, b, &err), 0);
	assert_string_equal(a, b);

	/* Another job gets another token. */
	unlink(path);
	assert_int_equal(consoletoken_get(dir, c, &err), 0);
	assert_string_not_equal(a, c);

	/* Readable by others: refused, left alone. */
	chmod(path, 0644);
	assert_int_equal(consoletoken_get(dir, b, &err), -1);
	assert_non_null(strstr(err, "chmod 600"));
	free(err);
	err = NULL;

	/* Not a token. */
	unlink(path);
	fp = fopen(path, "w");
	fputs("not a token\n", fp);
	fclose(fp);
	chmod(path, 0600);
	assert_int_equal(consoletoken_get(dir, b, &err), -1);
	assert_non_null(strstr(err, "does not hold a token"));
	free(err);
	err = NULL;
	unlink(path);

	/* A directory that does not exist. */
	rmdir(dir);
	assert_int_equal(consoletoken_get(dir, b, &err), -1);
	assert_non_null(err);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_consoletoken_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
