/* cluster/nkey: a user seed gives its public key (the pair below made by
 * tests/cluster/nkey.mjs from node's Ed25519); damaged seeds and other kinds of
 * key are refused with a message. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/nkey.h"

static void test_nkey_pair(void **state)
{
	char pub[64], *err = NULL;

	(void)state;
	assert_int_equal(nkey_public("SUADIF5DRMROC7XAJDRMBHI5WTFAOMLE2HZRKVBSMIUMEQMY3FAIDOCGHU\n",
			     pub, sizeof pub, &err),
	    0);
	assert_string_equal(pub, "UDX7VRLZEG342BNOVTZWHJ2RRKT6HCGB5GG7ISZIBDY4MIJUIJA6OQG3");
}

static void test_nkey_refused(void **state)
{
	static const char *bad[] = {
	    "", "SUADIF5DRMROC7XAJDRMBHI5WTFAOMLE2HZRKVBSMIUMEQMY3FAIDOCGXU", /* checksum */
	    "SUADIF5DRMROC7XAJDRMBHI5WTFAOMLE2HZRKVBSMIUMEQMY3FAIDOC",	      /* short */
	    "UDX7VRLZEG342BNOVTZWHJ2RRKT6HCGB5GG7ISZIBDY4MIJUIJA6OQG3",	      /* a public key */
	    "suadif5drmroc7xajdrmbhi5wtfaomle2hzrkvbsmiumeqmy3faidocghu",     /* lower case */
	};
	char pub[64];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *err = NULL;
		assert_int_equal(nkey_public(bad[i], pub, sizeof pub, &err), -1);
		assert_non_null(err);
		free(err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nkey_pair),
	    cmocka_unit_test(test_nkey_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
