/* libFuzzer target for CSS link extraction: whole and chunked feeding (chunk
 * sizes derived from the input) must report the same URLs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "crawl/css.h"
#include "lib/buf.h"

static void fuzz_css_cb(void *arg, const char *ref, size_t len, int is_import)
{
	struct buf *b = arg;

	buf_appendf(b, "%d|", is_import);
	buf_append(b, ref, len);
	buf_appendc(b, '\n');
}

static void fuzz_css_run(const uint8_t *data, size_t size, int chunked, struct buf *out)
{
	struct css *c = css_new(fuzz_css_cb, out);
	size_t off = 0, k = 0;

	while (off < size) {
		size_t n = size - off;

		if (chunked) {
			n = 1 + (data[k % size] * 17u + k) % 13;
			if (n > size - off)
				n = size - off;
			k++;
		}
		css_feed(c, (const char *)data + off, n);
		off += n;
	}
	css_finish(c);
	css_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf whole = BUF_INIT, parts = BUF_INIT;

	buf_appends(&whole, "");
	buf_appends(&parts, "");
	fuzz_css_run(data, size, 0, &whole);
	fuzz_css_run(data, size, 1, &parts);
	if (whole.len != parts.len || memcmp(whole.data, parts.data, whole.len) != 0)
		abort();
	buf_free(&whole);
	buf_free(&parts);
	return 0;
}
