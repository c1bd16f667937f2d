/* Every entry of web-platform-tests' url/resources/urltestdata.json (the
 * URL Standard's own conformance data; tests/wpt/README says which version)
 * run through url_resolve. tern resolves only http and https, so:
 * - an entry whose href is http(s) must give exactly that href;
 * - an entry that fails, or whose href has another scheme, must give an
 *   error (a crawler fetches neither);
 * - a base that is not http(s) is passed as no base: such a base can only
 *   lead to an http(s) result when the input is absolute, and tern never
 *   resolves against another scheme (a fetched page is always http(s)).
 * Entries tern deliberately answers otherwise are listed below with their
 * reason; a listed entry that starts passing fails the test too, so the
 * list cannot go stale. Replacing the data file with a newer one shows the
 * next change of the standard here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>
#include "lib/url.h"

struct urltestdata_departure {
	const char *input;
	const char *reason;
};

/* Inputs tern answers differently from the standard, on purpose (src/lib/url.h
 * lists the choices). */
static const struct urltestdata_departure urltestdata_departures[] = {
    {NULL, NULL},
};

static int urltestdata_is_http(const char *s)
{
	return strncmp(s, "http:", 5) == 0 || strncmp(s, "https:", 6) == 0;
}

static const char *urltestdata_departure(const char *input, size_t len)
{
	const struct urltestdata_departure *d;

	for (d = urltestdata_departures; d->input != NULL; d++)
		if (strlen(d->input) == len && memcmp(d->input, input, len) == 0)
			return d->reason;
	return NULL;
}

/* Prints a string with control bytes escaped, so that a failing entry can
 * be found in the data file and pasted into the departures. */
static void urltestdata_print(const char *label, const char *s, size_t n)
{
	size_t i;

	fprintf(stderr, "  %s: \"", label);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
			fprintf(stderr, "\\x%02x", c);
		else
			fputc(c, stderr);
	}
	fprintf(stderr, "\"\n");
}

/* Runs one entry into out: 1 if tern's answer is the standard's, else 0. */
static int urltestdata_run(json_t *entry, struct buf *basebuf, struct buf *out, int *rc)
{
	json_t *jinput = json_object_get(entry, "input");
	json_t *jbase = json_object_get(entry, "base");
	json_t *jhref = json_object_get(entry, "href");
	const char *base = NULL, *want = NULL;

	if (json_is_string(jbase) && urltestdata_is_http(json_string_value(jbase))) {
		/* The data's http(s) bases are canonical hrefs; going through
		 * url_resolve checks that rather than assuming it. */
		if (url_resolve(
			NULL, json_string_value(jbase), json_string_length(jbase), basebuf) < 0) {
			*rc = URL_EINVAL;
			buf_reset(out);
			return 0;
		}
		base = basebuf->data;
	}
	if (!json_is_true(json_object_get(entry, "failure")) && json_is_string(jhref) &&
	    urltestdata_is_http(json_string_value(jhref)))
		want = json_string_value(jhref);
	*rc = url_resolve(base, json_string_value(jinput), json_string_length(jinput), out);
	if (want == NULL)
		return *rc < 0;
	return *rc == 0 && strcmp(out->data, want) == 0;
}

static void test_urltestdata_all(void **state)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	json_error_t jerr;
	json_t *root, *entry;
	struct buf basebuf = BUF_INIT, out = BUF_INIT;
	size_t i, entries = 0, passed = 0, departed = 0, wrong = 0;
	const struct urltestdata_departure *d;

	(void)state;
	snprintf(path, sizeof(path), "%s/tests/wpt/urltestdata.json", top ? top : ".");
	root = json_load_file(path, JSON_ALLOW_NUL, &jerr);
	if (root == NULL)
		fail_msg("%s: %s (line %d)", path, jerr.text, jerr.line);
	assert_true(json_is_array(root));
	json_array_foreach(root, i, entry)
	{
		json_t *jinput = json_object_get(entry, "input");
		const char *reason;
		int ok, rc;

		if (!json_is_object(entry))
			continue; /* a comment line of the data */
		assert_true(json_is_string(jinput));
		entries++;
		ok = urltestdata_run(entry, &basebuf, &out, &rc);
		reason =
		    urltestdata_departure(json_string_value(jinput), json_string_length(jinput));
		if (ok && reason == NULL) {
			passed++;
			continue;
		}
		if (!ok && reason != NULL) {
			departed++;
			continue;
		}
		wrong++;
		fprintf(stderr, "urltestdata entry %zu %s:\n", i,
		    ok ? "passes but is listed as a departure" : "differs from the standard");
		urltestdata_print("input", json_string_value(jinput), json_string_length(jinput));
		if (json_is_string(json_object_get(entry, "base")))
			urltestdata_print("base", json_string_value(json_object_get(entry, "base")),
			    strlen(json_string_value(json_object_get(entry, "base"))));
		if (json_is_true(json_object_get(entry, "failure")))
			fprintf(stderr, "  want: failure\n");
		else
			urltestdata_print("want", json_string_value(json_object_get(entry, "href")),
			    strlen(json_string_value(json_object_get(entry, "href"))));
		if (rc == 0)
			urltestdata_print("got", out.data, out.len);
		else
			fprintf(stderr, "  got: error %d\n", rc);
	}
	for (d = urltestdata_departures; d->input != NULL; d++)
		;
	fprintf(stderr,
	    "urltestdata: %zu entries, %zu as the standard, %zu listed departures "
	    "(of %zu listed), %zu wrong\n",
	    entries, passed, departed, (size_t)(d - urltestdata_departures), wrong);
	json_decref(root);
	buf_free(&basebuf);
	buf_free(&out);
	assert_int_equal(wrong, 0);
	assert_int_equal(departed, (size_t)(d - urltestdata_departures));
	assert_true(entries > 800);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_urltestdata_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
