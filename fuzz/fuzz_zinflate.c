/* libFuzzer target for the capped streaming inflate (lib/zinflate.h):
 * hostile gzip, zlib and raw deflate, in every wrapping and tail rule,
 * must give a result, never a crash, a leak or output past a cap. Beyond
 * memory safety it checks that with zinflate_keep_before_error the output
 * and the result do not depend on how the input is cut into reads, that
 * the counts agree with what was handed out and taken, and that the
 * whole-buffer zinflate_capped gives a prefix of the streaming output.
 * The first byte picks the wrapping, the tail rule and the read size, the
 * second the output cap. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/buf.h"
#include "lib/zinflate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_zinflate_tally {
	uint64_t n;
	uint64_t hash;
	struct buf *keep; /* the output, when wanted */
};

static int fuzz_zinflate_cb(void *arg, const char *data, size_t len)
{
	struct fuzz_zinflate_tally *t = arg;

	if (len == 0)
		abort();
	t->n += len;
	for (size_t i = 0; i < len; i++)
		t->hash = (t->hash ^ (unsigned char)data[i]) * 1099511628211ull;
	if (t->keep != NULL)
		buf_append(t->keep, data, len);
	return 0;
}

/* Feeds data in reads of chunk bytes; the result after finish. */
static enum zinflate_result fuzz_zinflate_run(const uint8_t *data, size_t size, size_t chunk,
    enum zinflate_wrap wrap, enum zinflate_tail tail, const struct zinflate_caps *caps,
    struct fuzz_zinflate_tally *t)
{
	struct zinflate *z = zinflate_new(wrap, tail, caps);
	enum zinflate_result r = ZINFLATE_MORE;
	size_t at = 0, used;

	zinflate_keep_before_error(z);
	while (at < size) {
		size_t k = size - at < chunk ? size - at : chunk;

		r = zinflate_feed(z, data + at, k, &used, fuzz_zinflate_cb, t);
		if (used > k || (r == ZINFLATE_MORE && used != k))
			abort();
		at += used;
		if (r != ZINFLATE_MORE && r != ZINFLATE_END)
			break;
		if (r == ZINFLATE_END && tail == ZINFLATE_ONE)
			break;
	}
	if (r == ZINFLATE_MORE || r == ZINFLATE_END)
		r = zinflate_finish(z);
	if (zinflate_out_bytes(z) != t->n || zinflate_in_bytes(z) > size)
		abort();
	if (caps->max_out != 0 && t->n > caps->max_out)
		abort();
	if (r != ZINFLATE_CORRUPT && zinflate_error(z) != NULL)
		abort();
	zinflate_free(z);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_zinflate_tally whole = {0, 14695981039346656037ull, NULL};
	struct fuzz_zinflate_tally cut = whole;
	struct zinflate_caps caps = {0, 0, 0};
	enum zinflate_wrap wrap;
	enum zinflate_tail tail;
	enum zinflate_result rw, rc;
	struct buf all = BUF_INIT, capped = BUF_INIT;
	size_t chunk;

	if (size < 2)
		return 0;
	wrap = (enum zinflate_wrap)(data[0] % 5);
	tail = (enum zinflate_tail)(data[0] / 5 % 3);
	chunk = (size_t)(data[0] / 15) + 1;
	/* No cap, or a small one (bytes, or a ratio past a small floor). */
	if (data[1] & 0x80)
		caps.max_ratio = (unsigned)(data[1] & 0x1f) + 1, caps.ratio_floor = 256;
	else if (data[1] != 0)
		caps.max_out = (uint64_t)data[1] * 37;
	data += 2;
	size -= 2;
	whole.keep = &all;
	rw = fuzz_zinflate_run(data, size, size > 0 ? size : 1, wrap, tail, &caps, &whole);
	rc = fuzz_zinflate_run(data, size, chunk, wrap, tail, &caps, &cut);
	/* With MEMBERS_LENIENT, a member starts after an end when a read
	 * starts with 1f (zinflate.h): the reads may tell. The ratio is judged
	 * after each chunk of output, against the input taken by then, which
	 * the reads change too. */
	if (tail != ZINFLATE_MEMBERS_LENIENT && caps.max_ratio == 0 &&
	    (rw != rc || whole.n != cut.n || whole.hash != cut.hash))
		abort();
	/* zinflate_capped reads one stream and drops what came in the call
	 * that found an error, so it gives a prefix of what the stream gives. */
	zinflate_capped(data, size, wrap, caps.max_out ? caps.max_out : SIZE_MAX, &capped);
	if (caps.max_ratio == 0 &&
	    (capped.len > all.len || (capped.len > 0 && memcmp(capped.data, all.data, capped.len))))
		abort();
	buf_free(&all);
	buf_free(&capped);
	return 0;
}
