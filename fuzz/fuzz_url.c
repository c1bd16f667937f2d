/* libFuzzer target for url_resolve: the first byte picks a base (or none),
 * the rest is the link. Beyond memory safety it checks what callers rely
 * on: an accepted href splits, and resolves to itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/url.h"

static const char *const fuzz_url_bases[] = {
    NULL,
    "http://example.com/a/b/c?q=1#f",
    "https://u:p@[::1]:8443/d/",
    "http://h",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf out = BUF_INIT, again = BUF_INIT;
	struct url_parts p;
	const char *base;

	if (size == 0)
		return 0;
	base = fuzz_url_bases[data[0] % 4];
	if (url_resolve(base, (const char *)data + 1, size - 1, &out) == 0) {
		if (url_split(out.data, &p) != 0)
			abort();
		if (url_resolve(NULL, out.data, out.len, &again) != 0 ||
		    strcmp(again.data, out.data) != 0)
			abort();
	} else if (out.len != 0) {
		abort();
	}
	buf_free(&out);
	buf_free(&again);
	return 0;
}
