/* Tests of src/archive/smallfile.c in a temporary directory: the bytes,
 * the mode (asked for, less the umask; kept on a replace), no temporary
 * file left behind on success or failure, create never replacing, the
 * stream form, and errors that name the path. */
#include <build-config.h>

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "archive/smallfile.h"
#include "lib/xmalloc.h"

static char dir[] = "/tmp/tern-smallfile-XXXXXX";

static int setup(void **state)
{
	(void)state;
	umask(022);
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	int rc = system(cmd);

	(void)state;
	free(cmd);
	return rc == 0 ? 0 : -1;
}

static char *path_of(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void assert_content(const char *path, const char *want)
{
	char got[256];
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(got, 1, sizeof got - 1, fp);
	fclose(fp);
	got[n] = '\0';
	assert_string_equal(got, want);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_mode & 07777;
}

/* Nothing in the directory but the files named (a temporary file left
 * behind is a failure). */
static void assert_only(const char *const *names, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t seen = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		int known = 0;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			known |= strcmp(e->d_name, names[i]) == 0;
		if (!known)
			fail_msg("unexpected file %s", e->d_name);
		seen++;
	}
	closedir(d);
	assert_int_equal(seen, n);
}

static void test_replace(void **state)
{
	char *p = path_of("tern.conf"), *err = NULL;
	static const char *const only[] = {"tern.conf"};

	(void)state;
	assert_int_equal(smallfile_replace(p, "a = 1\n", 6, SMALLFILE_MODE, &err), 0);
	assert_content(p, "a = 1\n");
	assert_int_equal(mode_of(p), 0644);
	/* The operator made it private: a rewrite keeps it so. */
	assert_int_equal(chmod(p, 0600), 0);
	assert_int_equal(smallfile_replace(p, "a = 2\n", 6, SMALLFILE_MODE, &err), 0);
	assert_content(p, "a = 2\n");
	assert_int_equal(mode_of(p), 0600);
	assert_int_equal(smallfile_replace(p, "", 0, SMALLFILE_MODE, &err), 0);
	assert_content(p, "");
	assert_only(only, 1);
	unlink(p);
	free(p);
}

static void test_umask(void **state)
{
	char *p = path_of("private"), *err = NULL;

	(void)state;
	umask(077);
	assert_int_equal(smallfile_replace(p, "x", 1, SMALLFILE_MODE, &err), 0);
	umask(022);
	assert_int_equal(mode_of(p), 0600);
	unlink(p);
	free(p);
}

static void test_create(void **state)
{
	char *p = path_of("console.token"), *err = NULL;
	static const char *const only[] = {"console.token"};

	(void)state;
	assert_int_equal(smallfile_create(p, "one\n", 4, SMALLFILE_MODE_SECRET, &err), 0);
	assert_int_equal(mode_of(p), 0600);
	/* Made by another process first: kept, and said so. */
	assert_int_equal(smallfile_create(p, "two\n", 4, SMALLFILE_MODE_SECRET, &err), 1);
	assert_content(p, "one\n");
	assert_only(only, 1);
	unlink(p);
	free(p);
}

static void test_stream(void **state)
{
	char *p = path_of("queues.txt"), *err = NULL;
	struct smallfile *sf;
	static const char *const only[] = {"queues.txt"};

	(void)state;
	sf = smallfile_open(p, SMALLFILE_MODE, &err);
	assert_non_null(sf);
	for (int i = 0; i < 3; i++)
		fprintf(smallfile_fp(sf), "line %d\n", i);
	/* Nothing shows before the commit. */
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(smallfile_commit(sf, &err), 0);
	assert_content(p, "line 0\nline 1\nline 2\n");
	sf = smallfile_open(p, SMALLFILE_MODE, &err);
	assert_non_null(sf);
	fputs("dropped\n", smallfile_fp(sf));
	smallfile_abort(sf);
	assert_content(p, "line 0\nline 1\nline 2\n");
	assert_only(only, 1);
	unlink(p);
	free(p);
}

static void test_errors(void **state)
{
	char *p = path_of("no/such/dir/file"), *err = NULL;

	(void)state;
	assert_int_equal(smallfile_replace(p, "x", 1, SMALLFILE_MODE, &err), -1);
	assert_non_null(err);
	assert_non_null(strstr(err, p));
	free(err);
	err = NULL;
	assert_null(smallfile_open(p, SMALLFILE_MODE, &err));
	assert_non_null(strstr(err, "No such file"));
	free(err);
	free(p);
	/* A directory in the way of the rename: the file fails, nothing is
	 * left behind. */
	p = path_of("adir");
	assert_int_equal(mkdir(p, 0755), 0);
	{
		char *inner = path_of("adir/x");
		static const char *const only[] = {"adir"};

		assert_int_equal(smallfile_replace(inner, "x", 1, SMALLFILE_MODE, &err), 0);
		err = NULL;
		assert_int_equal(smallfile_replace(p, "x", 1, SMALLFILE_MODE, &err), -1);
		assert_non_null(err);
		free(err);
		unlink(inner);
		free(inner);
		assert_only(only, 1);
	}
	rmdir(p);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_replace),
	    cmocka_unit_test(test_umask),
	    cmocka_unit_test(test_create),
	    cmocka_unit_test(test_stream),
	    cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
