/* The string hash (lib/hash.h): FNV-1a gives the published test vectors,
 * and hash_bytes keeps the values it had as the cluster's fingerprint
 * (cluster/fpset.h), which travel in the cluster stream: a change here
 * would make nodes of two versions disagree on which URIs were handed off. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "lib/hash.h"

static const struct {
	const char *s;
	uint64_t fnv1a, bytes;
} hash_table[] = {
    {"", 0xcbf29ce484222325ULL, 0xefd01f60ba992926ULL},
    {"a", 0xaf63dc4c8601ec8cULL, 0x82a2a958a9bece5bULL},
    {"foobar", 0x85944171f73967e8ULL, 0x2c22194922d1672bULL},
    {"http://a/", 0x80f62ee31b629023ULL, 0x6cc71899db7cbb12ULL},
    {"http://example.com/", 0x32522fc5fdfe06f1ULL, 0x22e692fac52b31ebULL},
    {"example.co.uk", 0xf499928389d0529bULL, 0x188e2b7e014d05b6ULL},
    {"web.test", 0xe2f132e89b8b890dULL, 0xdea1bf012aab003dULL},
};

static void test_hash_values(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof hash_table / sizeof hash_table[0]; i++) {
		const char *s = hash_table[i].s;
		size_t n = strlen(s);

		if (hash_fnv1a(s, n) != hash_table[i].fnv1a)
			fail_msg(
			    "hash_fnv1a(\"%s\") = %#llx", s, (unsigned long long)hash_fnv1a(s, n));
		if (hash_bytes(s, n) != hash_table[i].bytes)
			fail_msg(
			    "hash_bytes(\"%s\") = %#llx", s, (unsigned long long)hash_bytes(s, n));
		assert_true(hash_bytes(s, n) == hash_fmix64(hash_fnv1a(s, n)));
	}
}

/* Stepping byte by byte (the scope's prefixes) is the same FNV-1a. */
static void test_hash_steps(void **state)
{
	const char *s = "http://(com,example,)/a/b";
	uint64_t h = HASH_FNV1A_OFFSET;
	size_t i;

	(void)state;
	for (i = 0; i < strlen(s); i++) {
		h = hash_fnv1a_step(h, (unsigned char)s[i]);
		assert_true(h == hash_fnv1a(s, i + 1));
	}
	/* Bytes are taken unsigned: a high byte differs from its signed value. */
	assert_true(hash_fnv1a("\xff", 1) == ((HASH_FNV1A_OFFSET ^ 0xffu) * HASH_FNV1A_PRIME));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hash_values),
	    cmocka_unit_test(test_hash_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
