/* libFuzzer target for src/lib/handoff.c: the input is a message body from
 * the cluster's stream, parsed as url, done and seed records. Every
 * record a parser accepts must write back and parse to the same fields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/handoff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_handoff_url(void *ctx, const struct handoff_url *r)
{
	struct buf *out = ctx;

	if (handoff_append_url(out, r) < 0)
		abort();
}

static void fuzz_handoff_done(void *ctx, const struct handoff_done *d)
{
	struct buf *out = ctx;

	if (handoff_append_done(out, d) < 0)
		abort();
}

static void fuzz_handoff_seed(void *ctx, const char *uri, int guarded)
{
	struct buf *out = ctx;

	if (handoff_append_seed(out, uri, guarded) < 0)
		abort();
}

static void fuzz_handoff_same(void *ctx, const struct handoff_url *r)
{
	(void)ctx;
	if (r->uri[0] == '\0' || (r->via != NULL && r->via[0] == '\0'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1);
	struct buf out = BUF_INIT, again = BUF_INIT;
	char *err = NULL;

	memcpy(copy, data, size);
	if (handoff_parse_urls(copy, size, fuzz_handoff_url, &out, &err) == 0) {
		/* Accepted whole: the writer gives back the same bytes but for
		 * a flags field's leading zeros. */
		char *c2 = malloc(out.len + 1);
		memcpy(c2, out.data ? out.data : "", out.len);
		if (handoff_parse_urls(c2, out.len, fuzz_handoff_url, &again, NULL) < 0 ||
		    again.len != out.len || (out.len && memcmp(again.data, out.data, out.len) != 0))
			abort();
		memcpy(c2, out.data ? out.data : "", out.len);
		handoff_parse_urls(c2, out.len, fuzz_handoff_same, NULL, NULL);
		free(c2);
	}
	free(err);
	err = NULL;
	buf_reset(&out);
	memcpy(copy, data, size);
	if (handoff_parse_done(copy, size, fuzz_handoff_done, &out, &err) == 0 &&
	    (out.len != size || (size && memcmp(out.data, data, size) != 0)))
		abort();
	free(err);
	err = NULL;
	buf_reset(&out);
	memcpy(copy, data, size);
	if (handoff_parse_seeds(copy, size, fuzz_handoff_seed, &out, &err) == 0 &&
	    (out.len != size || (size && memcmp(out.data, data, size) != 0)))
		abort();
	free(err);
	buf_free(&out);
	buf_free(&again);
	free(copy);
	return 0;
}
