/* libFuzzer target for canon_key and the SURT functions, fed with hrefs
 * that url_resolve accepted (that is their input contract); the first byte
 * picks the canonicalization flags. Every function must accept every such
 * href. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/canon.h"
#include "lib/surt.h"
#include "lib/url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf href = BUF_INIT, out = BUF_INIT, host = BUF_INIT;
	struct url_parts p;
	int how;

	if (size == 0)
		return 0;
	/* Plain seeds as an operator would type them, straight from the bytes. */
	surt_seed_prefix_plain((const char *)data + 1, size - 1, &out);
	if (url_resolve("http://example.com/", (const char *)data + 1, size - 1, &href) == 0) {
		if (canon_key(href.data, data[0] & CANON_DEFAULT, &out) != 0 ||
		    surt_from_url(href.data, 1, &out) != 0 ||
		    surt_from_url(href.data, 0, &out) != 0 ||
		    surt_seed_prefix(href.data, &out) != 0)
			abort();
		for (how = SURT_ASSIGN_AUTHORITY; how <= SURT_ASSIGN_IP; how++)
			if (surt_queue_key(href.data, (enum surt_assign)how, &out) != 0)
				abort();
		if (url_split(href.data, &p) != 0)
			abort();
		buf_append(&host, href.data + p.host_off, p.host_len);
		if (surt_registered_domain(host.data, &out) != 0)
			abort();
	}
	buf_free(&href);
	buf_free(&out);
	buf_free(&host);
	return 0;
}
