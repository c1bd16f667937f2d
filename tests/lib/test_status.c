/* lib/status: the named results are a table a person can trust: Heritrix's
 * codes are unique and each has a message and a name; every cause has a
 * unique word of the characters crawl.log's annotations allow, a message,
 * a code from the list (or 0, for HTTP statuses) and a group; every group
 * has a word, a label, and the settings that change it where there are any. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "lib/status.h"

static const int test_status_codes[] = {
#define STATUS_X(name, code, msg) (code),
    STATUS_CODES(STATUS_X)
#undef STATUS_X
};
#define TEST_STATUS_NCODES (sizeof test_status_codes / sizeof test_status_codes[0])

static int test_status_is_code(int code)
{
	for (size_t i = 0; i < TEST_STATUS_NCODES; i++)
		if (test_status_codes[i] == code)
			return 1;
	return 0;
}

static void test_status_codes_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < TEST_STATUS_NCODES; i++) {
		for (size_t j = i + 1; j < TEST_STATUS_NCODES; j++)
			assert_int_not_equal(test_status_codes[i], test_status_codes[j]);
		assert_non_null(status_message(test_status_codes[i]));
		assert_true(strlen(status_message(test_status_codes[i])) > 0);
		assert_non_null(status_name(test_status_codes[i]));
	}
	/* Heritrix's numbers, as crawl.log tools read them. */
	assert_int_equal(STATUS_DNS_SUCCESS, 1);
	assert_int_equal(STATUS_DNS_FAILED, -1);
	assert_int_equal(STATUS_CONNECT_FAILED, -2);
	assert_int_equal(STATUS_CONNECT_LOST, -3);
	assert_int_equal(STATUS_TIMEOUT, -4);
	assert_int_equal(STATUS_DNS_PREREQ, -6);
	assert_int_equal(STATUS_UNFETCHABLE, -7);
	assert_int_equal(STATUS_TOO_MANY_RETRIES, -8);
	assert_int_equal(STATUS_ROBOTS_PREREQ, -61);
	assert_int_equal(STATUS_DEEMED_NOT_FOUND, -404);
	assert_int_equal(STATUS_TOO_MANY_HOPS, -4001);
	assert_int_equal(STATUS_OUT_OF_SCOPE, -5000);
	assert_int_equal(STATUS_ROBOTS_PRECLUDED, -9998);
	assert_string_equal(status_name(-2), "CONNECT_FAILED");
	assert_string_equal(status_message(404), "HTTP status");
	assert_null(status_message(-12345));
	assert_null(status_message(0));
}

static void test_status_causes_table(void **state)
{
	(void)state;
	assert_string_equal(status_cause_word(CAUSE_NONE), "");
	for (int c = 1; c < CAUSE_COUNT; c++) {
		const char *w = status_cause_word(c);
		int code = status_cause_code(c);

		assert_true(strlen(w) > 0);
		/* One annotation of a comma-joined, space-free column. */
		assert_int_equal(strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789-:"), strlen(w));
		for (int d = c + 1; d < CAUSE_COUNT; d++)
			assert_string_not_equal(w, status_cause_word(d));
		assert_true(strlen(status_cause_message(c)) > 0);
		assert_non_null(status_cause_settings(c));
		assert_true(code == 0 || test_status_is_code(code));
		assert_true(code <= 0);
		assert_true((unsigned)status_cause_group(c) < STATUS_GROUP_COUNT);
	}
	assert_int_equal(status_cause_code(CAUSE_CONNECT_REFUSED), -2);
	assert_string_equal(status_cause_word(CAUSE_CONNECT_REFUSED), "connection-refused");
	assert_string_equal(status_cause_word(CAUSE_TLS_SELF_SIGNED), "tls-verify:self-signed");
	assert_int_equal(status_cause_group(CAUSE_TLS_SELF_SIGNED), STATUS_GROUP_TLS);
	assert_int_equal(status_cause_group(CAUSE_PRIVATE_ADDRESS), STATUS_GROUP_PRIVATE);
	assert_int_equal(status_cause_code(CAUSE_ROBOTS_UNAVAILABLE), -9998);
}

static void test_status_groups_table(void **state)
{
	int used[STATUS_GROUP_COUNT] = {0};

	(void)state;
	for (int g = 0; g < STATUS_GROUP_COUNT; g++) {
		assert_true(strlen(status_group_word(g)) > 0);
		assert_true(strlen(status_group_label(g)) > 0);
		assert_non_null(status_group_settings(g));
		for (int h = g + 1; h < STATUS_GROUP_COUNT; h++)
			assert_string_not_equal(status_group_word(g), status_group_word(h));
	}
	/* Every group but the catch-all has a cause in it. */
	for (int c = 1; c < CAUSE_COUNT; c++)
		used[status_cause_group(c)] = 1;
	for (int g = 0; g < STATUS_GROUP_COUNT; g++)
		assert_true(used[g]);
	/* The groups a person can change name their settings. */
	assert_string_equal(
	    status_group_settings(STATUS_GROUP_PRIVATE), "fetch.allow-private-addresses");
	assert_non_null(strstr(status_group_settings(STATUS_GROUP_TLS), "fetch.ca-file"));
	assert_non_null(strstr(status_group_settings(STATUS_GROUP_ROBOTS), "robots.policy"));
}

static void test_status_cause_of(void **state)
{
	static const struct {
		int code;
		enum status_cause want;
	} cases[] = {
	    {200, CAUSE_NONE},
	    {301, CAUSE_NONE},
	    {304, CAUSE_NONE},
	    {404, CAUSE_HTTP_ERROR},
	    {503, CAUSE_HTTP_ERROR},
	    {-1, CAUSE_DNS_FAILED},
	    {-6, CAUSE_DNS_FAILED},
	    {-2, CAUSE_CONNECT_FAILED},
	    {-3, CAUSE_CONNECTION_LOST},
	    {-4, CAUSE_HEAD_TIMEOUT},
	    {-7, CAUSE_BAD_URL},
	    {-9998, CAUSE_ROBOTS_DISALLOWED},
	    {1, CAUSE_NONE},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum status_cause c = status_cause_of(cases[i].code);

		assert_int_equal(c, cases[i].want);
		/* The implied cause is logged with the very code it came from. */
		if (cases[i].code < 0 && cases[i].code != STATUS_DNS_FAILED)
			assert_int_equal(status_cause_code(c), cases[i].code);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_status_codes_unique),
	    cmocka_unit_test(test_status_causes_table),
	    cmocka_unit_test(test_status_groups_table),
	    cmocka_unit_test(test_status_cause_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
