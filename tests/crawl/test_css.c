/* Table tests of the CSS link extractor, each case fed in one chunk, byte by
 * byte and in chunks of 3, which must agree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include "crawl/css.h"
#include "lib/buf.h"

static void test_css_cb(void *arg, const char *ref, size_t len, int is_import)
{
	struct buf *b = arg;

	buf_appendf(b, "%s%.*s;", is_import ? "@" : "", (int)len, ref);
}

struct css_case {
	const char *in;
	const char *want;
};

static const struct css_case css_cases[] = {
    {"a{background:url(x.png)}", "x.png;"},
    {"a{b:url( x.png )}", "x.png;"},
    {"a{b:URL(\"q.png\")} c{d:url( 'r.png' )}", "q.png;r.png;"},
    {"a{b:url()} c{d:url('')}", ""},
    {"a{b:url(bad url)} c{d:url(ok)}", "ok;"},
    {"a{b:url(ba\"d)} c{d:url(ba(d)}", ""},
    {"a{b:url(es\\63 ape)}", "escape;"},
    {"a{b:url(\"es\\63 ape\")}", "escape;"},
    {"a{b:url(\"a\\\"b\")}", "a\"b;"},
    {"a{b:url(\"con\\\ntinued\")}", "continued;"},
    {"a{b:url(\"bad\nstring)} c{d:url(ok)}", "ok;"},
    {"a{b:url(\"bad\nstring\")} c{d:url(inside-a-string)}", ""},
    {"a{b:url(\"\\0\")}", "\xef\xbf\xbd;"},
    {"a{b:url(\\0)}", "\xef\xbf\xbd;"},
    {"a{b:url(\\110000 x)}", "\xef\xbf\xbdx;"},
    {"a{b:url(x\\)y)}", "x)y;"},
    {"a{b:url(bad\\\n)} c{d:url(ok)}", "ok;"},
    {"/* url(no) */ a{b:url(y)} /* unterminated url(no)", "y;"},
    {"a{content:\"url(no)\"} b{c:xurl(no)} d{e:-url(no)} #url(no) 5url(no)", ""},
    {"@import \"i.css\";", "@i.css;"},
    {"@import 'i.css' screen;", "@i.css;"},
    {"@IMPORT url(i.css);", "@i.css;"},
    {"@import /* c */ \"i.css\";", "@i.css;"},
    {"@import\"i.css\";", "@i.css;"},
    {"@imports \"no.css\"; @media \"no\"; x \"no\"", ""},
    {"@import x \"no.css\";", ""},
    {"@import @\"no.css\"; @import #'no.css'", ""},
    {"a{b:url(unterminated", "unterminated;"},
    {"a{b:url(\"unterminated", "unterminated;"},
    {"@import \"unterminated", "@unterminated;"},
    {"a{b:url(\\41", "A;"},
    {"a{b:url(x\r\n)}", "x;"},
    {"a{b:url(\"\\41\r\nB\")}", "AB;"},
    {"a{b:url(\"x\\", "x;"},
    {"a{b:url(x\\", "x\xef\xbf\xbd;"},
    /* escapes in names count: these spell url( and @import */
    {"a{b:u\\72l(esc1)} c{d:\\75 RL(esc2)}", "esc1;esc2;"},
    {"@im\\70 ort 'esc3';", "@esc3;"},
    {"a{b:u\\\nrl(no)}", ""},
};

static void test_css_run(const char *in, size_t len, size_t chunk, struct buf *out)
{
	struct css *c = css_new(test_css_cb, out);
	size_t off, n;

	for (off = 0; off < len; off += n) {
		n = chunk && chunk < len - off ? chunk : len - off;
		css_feed(c, in + off, n);
	}
	css_finish(c);
	css_free(c);
}

static void test_css_cases(void **state)
{
	static const size_t chunks[] = {0, 1, 3};
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(css_cases) / sizeof(css_cases[0]); i++) {
		for (k = 0; k < 3; k++) {
			struct buf out = BUF_INIT;

			buf_appends(&out, "");
			test_css_run(css_cases[i].in, strlen(css_cases[i].in), chunks[k], &out);
			if (strcmp(out.data, css_cases[i].want) != 0)
				fail_msg("case %zu (chunk %zu): %s\n got  %s\n want %s", i,
				    chunks[k], css_cases[i].in, out.data, css_cases[i].want);
			buf_free(&out);
		}
	}
}

static void test_css_nul(void **state)
{
	static const char in[] = "a{b:url(x\0y)} c{d:url(\"p\0q\")}";
	struct buf out = BUF_INIT;

	(void)state;
	buf_appends(&out, "");
	test_css_run(in, sizeof(in) - 1, 0, &out);
	assert_string_equal(out.data, "x\xef\xbf\xbdy;p\xef\xbf\xbdq;");
	buf_free(&out);
}

/* A URL past CSS_URL_MAX is dropped whole, and the next one still found. */
static void test_css_cap(void **state)
{
	struct buf in = BUF_INIT, out = BUF_INIT;
	size_t i;

	(void)state;
	buf_appends(&out, "");
	buf_appends(&in, "a{b:url(");
	for (i = 0; i < CSS_URL_MAX + 1; i++)
		buf_appendc(&in, 'x');
	buf_appends(&in, ")} c{d:url(\"");
	for (i = 0; i < CSS_URL_MAX; i++)
		buf_appendc(&in, 'y');
	buf_appends(&in, "\")} e{f:url(ok)}");
	test_css_run(in.data, in.len, 0, &out);
	assert_int_equal(out.len, CSS_URL_MAX + 1 + 3);
	assert_string_equal(out.data + CSS_URL_MAX + 1, "ok;");
	buf_free(&in);
	buf_free(&out);
}

/* The extractor is reusable after finish and after reset. */
static void test_css_reuse(void **state)
{
	struct buf out = BUF_INIT;
	struct css *c = css_new(test_css_cb, &out);

	(void)state;
	buf_appends(&out, "");
	css_feed(c, "a{b:url(one", 11);
	css_finish(c);
	css_feed(c, "a{b:url(two", 11);
	css_reset(c);
	css_feed(c, ")} c{d:url(three)}", 18);
	css_finish(c);
	assert_string_equal(out.data, "one;three;");
	css_free(c);
	buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_css_cases),
	    cmocka_unit_test(test_css_nul),
	    cmocka_unit_test(test_css_cap),
	    cmocka_unit_test(test_css_reuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
