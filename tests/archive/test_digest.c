/* SHA-1 in the sha1:BASE32 form of WARC and crawl.log, against known vectors
 * (the empty payload's digest is the one every empty WARC payload carries). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "archive/digest.h"
#include <stdlib.h>
#include "lib/xmalloc.h"

static const struct {
	const char *in;
	const char *out;
} digest_vectors[] = {
    {"", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"},
    {"abc", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5"},
    {"The quick brown fox jumps over the lazy dog", "sha1:F7KODRT2FUUPZ3MET3Q3W5XHHENZH2YS"},
};

static void test_digest_vectors(void **state)
{
	char out[DIGEST_STRLEN];

	for (size_t i = 0; i < sizeof digest_vectors / sizeof digest_vectors[0]; i++) {
		digest_of(digest_vectors[i].in, strlen(digest_vectors[i].in), out);
		assert_string_equal(out, digest_vectors[i].out);
		assert_int_equal(strlen(out), DIGEST_STRLEN - 1);
	}
}

/* Any split of the input gives the same digest, and final leaves the context
 * ready for the next message. */
static void test_digest_streaming(void **state)
{
	const char *s = digest_vectors[2].in;
	size_t n = strlen(s);
	struct digest *d = digest_new();
	char out[DIGEST_STRLEN];

	for (size_t cut = 0; cut <= n; cut++) {
		digest_update(d, s, cut);
		digest_update(d, s + cut, n - cut);
		digest_final(d, out);
		assert_string_equal(out, digest_vectors[2].out);
	}
	digest_update(d, "garbage", 7);
	digest_reset(d);
	digest_update(d, "abc", 3);
	digest_final(d, out);
	assert_string_equal(out, digest_vectors[1].out);
	digest_free(d);
}

static void test_digest_million(void **state)
{
	char *a = xmalloc(1000000);
	char out[DIGEST_STRLEN];

	memset(a, 'a', 1000000);
	digest_of(a, 1000000, out);
	assert_string_equal(out, "sha1:GSVJOPGUYTNKJ5Q65MV5XLJHGFSTIALP");
	free(a);
}

static void test_digest_base32(void **state)
{
	unsigned char zero[20] = {0}, ones[20];
	char out[33];

	digest_base32(zero, out);
	assert_string_equal(out, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
	memset(ones, 0xff, sizeof ones);
	digest_base32(ones, out);
	assert_string_equal(out, "77777777777777777777777777777777");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_digest_vectors),
	    cmocka_unit_test(test_digest_streaming),
	    cmocka_unit_test(test_digest_million),
	    cmocka_unit_test(test_digest_base32),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
