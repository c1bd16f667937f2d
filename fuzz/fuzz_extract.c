/* libFuzzer target for HTML link extraction. The input is fed once whole and
 * once in chunks whose sizes derive from the input itself; both runs must
 * report exactly the same links, so a chunking bug is a crash, not just a
 * memory error. The first byte picks options (forms, a small max-outlinks). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "crawl/extract.h"
#include "lib/buf.h"

static void fuzz_extract_cb(void *arg, const struct extract_link *l)
{
	struct buf *b = arg;

	buf_appendf(b, "%c%s|%s|", l->hop, l->context, l->base ? l->base : "");
	buf_append(b, l->ref, l->len);
	buf_appendf(b, "|%u\n", l->flags);
}

static void fuzz_extract_run(
    const uint8_t *data, size_t size, const struct extract_opts *o, int chunked, struct buf *out)
{
	struct extract *x = extract_new(EXTRACT_HTML, o, fuzz_extract_cb, out);
	size_t off = 0, k = 0;

	while (off < size) {
		size_t n = size - off;

		if (chunked) {
			n = 1 + (data[k % size] * 31u + k) % 23;
			if (n > size - off)
				n = size - off;
			k++;
		}
		extract_feed(x, (const char *)data + off, n);
		off += n;
	}
	extract_finish(x);
	buf_appendf(out, "#%u %zu %zu\n", extract_meta(x), extract_count(x), extract_dropped(x));
	extract_free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct extract_opts o = {0, 0};
	struct buf whole = BUF_INIT, parts = BUF_INIT;

	if (size) {
		o.forms = data[0] & 1;
		o.max_outlinks = data[0] & 2 ? (data[0] >> 2) : 0;
	}
	fuzz_extract_run(data, size, &o, 0, &whole);
	fuzz_extract_run(data, size, &o, 1, &parts);
	if (whole.len != parts.len || memcmp(whole.data, parts.data, whole.len) != 0)
		abort();
	buf_free(&whole);
	buf_free(&parts);
	return 0;
}
