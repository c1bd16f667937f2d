/* The console's HTML output of hostile strings: URIs, hosts and log fields
 * with markup, quotes, control bytes, bidirectional overrides and bytes that
 * are not UTF-8 come out as inert, visible, valid UTF-8 text; query
 * components come out percent-encoded; template slots are filled escaped
 * unless the C side built the fragment. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/html.h"
#include "ops/tmpl.h"

struct test_html_case {
	const char *in;
	size_t len; /* 0: strlen(in) */
	const char *want;
};

static const struct test_html_case test_html_cases[] = {
    {"http://example.com/a?b=1", 0, "http://example.com/a?b=1"},
    {"http://x/<script>alert(1)</script>", 0, "http://x/&lt;script&gt;alert(1)&lt;/script&gt;"},
    {"\"><img src=x onerror=alert(1)>", 0, "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"},
    {"a'b\"c&d", 0, "a&#39;b&quot;c&amp;d"},
    {"&lt;", 0, "&amp;lt;"},
    /* C0 controls and DEL as control pictures, NUL included. */
    {"a\0b", 3,
	"a\xe2\x90\x80"
	"b"},
    {"\x01\t\n\r\x1b\x1f\x7f", 0,
	"\xe2\x90\x81\xe2\x90\x89\xe2\x90\x8a\xe2\x90\x8d\xe2\x90\x9b\xe2\x90\x9f\xe2\x90\xa1"},
    /* C1 controls (U+0085, U+009B) and bidi overrides (U+202E, U+2066). */
    {"x\xc2\x85y\xc2\x9bz", 0, "x\xef\xbf\xbdy\xef\xbf\xbdz"},
    {"evil\xe2\x80\xae"
     "gpj.exe",
	0, "evil\xef\xbf\xbdgpj.exe"},
    {"\xe2\x81\xa6"
     "a",
	0,
	"\xef\xbf\xbd"
	"a"},
    /* Well-formed UTF-8 kept: e-acute, CJK, an emoji. */
    {"caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80", 0, "caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80"},
    /* Not UTF-8: Latin-1, overlong '<', a surrogate, past U+10FFFF, cut short. */
    {"caf\xe9", 0, "caf\xef\xbf\xbd"},
    {"\xc0\xbcscript", 0, "\xef\xbf\xbd\xef\xbf\xbdscript"},
    {"\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
    {"\xf4\x90\x80\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
    {"ab\xe4\xb8", 0, "ab\xef\xbf\xbd\xef\xbf\xbd"},
    {"", 0, ""},
};

static void test_html_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof test_html_cases / sizeof test_html_cases[0]; i++) {
		const struct test_html_case *c = &test_html_cases[i];
		struct buf b = BUF_INIT;

		buf_appends(&b, "");
		html_text(&b, c->in, c->len ? c->len : strlen(c->in));
		if (strcmp(b.data, c->want) != 0)
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, b.data, c->want);
		/* Nothing that could open markup or leave an attribute. */
		assert_null(strpbrk(b.data, "<>\"'"));
		buf_free(&b);
	}
}

/* Every byte value, alone and after a lead byte, comes out free of markup
 * characters and raw controls. */
static void test_html_all_bytes(void **state)
{
	(void)state;
	for (int lead = 0; lead < 256; lead++) {
		for (int c = 0; c < 256; c++) {
			char in[2] = {(char)lead, (char)c};
			struct buf b = BUF_INIT;

			buf_appends(&b, "");
			html_text(&b, in, 2);
			assert_null(strpbrk(b.data, "<>\"'"));
			for (size_t k = 0; k < b.len; k++) {
				unsigned char o = (unsigned char)b.data[k];
				assert_true(o >= 0x20 && o != 0x7f);
			}
			buf_free(&b);
		}
	}
}

static void test_html_query(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_appends(&b, "");
	html_querys(&b, "http://a.example:8080/p?q=1&r=\"<x>\" #\xc3\xa9~._-");
	assert_string_equal(b.data,
	    "http%3A%2F%2Fa.example%3A8080%2Fp%3Fq%3D1%26r%3D%22%3Cx%3E%22%20%23%C3%A9~._-");
	buf_reset(&b);
	html_query(&b, "a\0b", 3);
	assert_string_equal(b.data, "a%00b");
	buf_reset(&b);
	html_querys(&b, NULL);
	assert_int_equal(b.len, 0);
	buf_free(&b);
}

static void test_html_tmpl(void **state)
{
	static const char t[] = "<a href=\"/q?key={{key}}\">{{name}}</a>{{rows}}";
	struct buf b = BUF_INIT;
	char *err = NULL;
	struct tmpl_var v[] = {
	    {"key", "a%22b", 1},
	    {"name", "<script>\"x\"</script>", 0},
	    {"rows", "<tr><td>1</td></tr>", 1},
	};

	(void)state;
	assert_int_equal(tmpl_render(t, strlen(t), v, 3, &b, &err), 0);
	assert_string_equal(b.data,
	    "<a href=\"/q?key=a%22b\">&lt;script&gt;&quot;x&quot;"
	    "&lt;/script&gt;</a><tr><td>1</td></tr>");
	buf_reset(&b);
	/* A NULL value renders as nothing. */
	v[1].value = NULL;
	assert_int_equal(tmpl_render("[{{name}}]", 10, v, 3, &b, &err), 0);
	assert_string_equal(b.data, "[]");
	buf_reset(&b);
	/* A slot without a value, a "{{" that opens no slot. */
	assert_int_equal(tmpl_render("x{{nope}}", 9, v, 3, &b, &err), -1);
	assert_non_null(strstr(err, "{{nope}}"));
	free(err);
	err = NULL;
	assert_int_equal(tmpl_render("a {{ b", 6, v, 3, &b, &err), -1);
	assert_non_null(err);
	free(err);
	err = NULL;
	assert_int_equal(tmpl_render("{{Key}}", 7, v, 3, &b, &err), -1);
	free(err);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_html_text),
	    cmocka_unit_test(test_html_all_bytes),
	    cmocka_unit_test(test_html_query),
	    cmocka_unit_test(test_html_tmpl),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
