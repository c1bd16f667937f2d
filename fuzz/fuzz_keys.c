/* libFuzzer target for the frontier store's value decoders (a corrupt or
 * foreign store must give an error, never a crash). The first byte picks
 * the decoder. Beyond memory safety it checks that whatever decodes
 * re-encodes to the same bytes (URI records with their fetch history
 * included). Also feeds politeness_retry_after, the one frontier-side
 * parser of network input, and the revisit key parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "frontier/keys.h"
#include "lib/robots.h"
#include "crawl/politeness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_keys_same(const struct buf *b, const char *v, size_t n)
{
	if (b->len != n || memcmp(b->data, v, n) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *v = (const char *)data + 1;
	size_t n = size - 1;
	struct buf b = BUF_INIT;
	struct keys_qmeta m;
	struct keys_counters c;
	struct curi *cu;
	const char *q;
	size_t ql;
	int d, p;
	uint64_t o;
	char *s;

	if (size == 0)
		return 0;
	switch (data[0] % 7) {
	case 0:
		if (keys_curi_decode(v, n, &cu) == 0) {
			keys_curi_encode(&b, cu);
			curi_free(cu);
		}
		break;
	case 1:
		if (keys_qmeta_decode(v, n, &m) == 0) {
			keys_qmeta_encode(&b, &m);
			keys_qmeta_clear(&m);
		}
		break;
	case 2:
		if (keys_counters_decode(v, n, &c) == 0)
			keys_counters_encode(&b, &c);
		break;
	case 3:
		if (keys_uri_parse(v, n, &q, &ql, &d, &p, &o) == 0) {
			s = strndup(q, ql);
			keys_uri(&b, s, d, p, o);
			free(s);
			fuzz_keys_same(&b, v, n);
		}
		buf_free(&b);
		return 0;
	case 6: {
		uint64_t at;
		struct robots *r = keys_robots_decode(v, n, &at);

		if (r != NULL) {
			keys_robots_encode(&b, at, r);
			robots_free(r);
		}
		break;
	}
	case 5: {
		uint64_t due;

		if (keys_revisit_parse(v, n, &due, &o) == 0) {
			keys_revisit(&b, due, o);
			fuzz_keys_same(&b, v, n);
		}
		buf_free(&b);
		return 0;
	}
	default:
		s = strndup(v, n);
		politeness_retry_after(s, 1700000000, 86400000, &o);
		free(s);
		return 0;
	}
	/* Non-canonical varints may decode; a canonical re-encoding must
	 * decode to the same again. */
	if (b.len > 0) {
		struct buf b2 = BUF_INIT;

		switch (data[0] % 7) {
		case 0:
			if (keys_curi_decode(b.data, b.len, &cu) != 0)
				abort();
			keys_curi_encode(&b2, cu);
			curi_free(cu);
			break;
		case 1:
			if (keys_qmeta_decode(b.data, b.len, &m) != 0)
				abort();
			keys_qmeta_encode(&b2, &m);
			keys_qmeta_clear(&m);
			break;
		case 6: {
			uint64_t at;
			struct robots *r = keys_robots_decode(b.data, b.len, &at);

			if (r == NULL)
				abort();
			keys_robots_encode(&b2, at, r);
			robots_free(r);
			break;
		}
		default:
			if (keys_counters_decode(b.data, b.len, &c) != 0)
				abort();
			keys_counters_encode(&b2, &c);
			break;
		}
		fuzz_keys_same(&b2, b.data, b.len);
		buf_free(&b2);
	}
	buf_free(&b);
	return 0;
}
