/* Capped inflate (zinflate.h). */
#include <stdint.h>
#include <string.h>
#include <zlib.h>
#include "lib/zinflate.h"

#define ZINFLATE_CHUNK 16384

int zinflate_is_zlib(const void *b, size_t n)
{
	const unsigned char *p = b;

	return n >= 2 && (p[0] & 0x0f) == 8 && ((p[0] << 8) | p[1]) % 31 == 0;
}

enum zinflate_result zinflate_capped(
    const void *data, size_t len, int window, size_t max, struct buf *out)
{
	enum zinflate_result res = ZINFLATE_CUT;
	char chunk[ZINFLATE_CHUNK];
	z_stream z;
	int zr;

	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, window) != Z_OK)
		return ZINFLATE_CORRUPT;
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	do {
		size_t n;

		z.next_out = (unsigned char *)chunk;
		z.avail_out = sizeof chunk;
		zr = inflate(&z, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
			res = ZINFLATE_CORRUPT;
			break;
		}
		n = sizeof chunk - z.avail_out;
		if (out->len >= max)
			n = 0;
		else if (n > max - out->len)
			n = max - out->len;
		buf_append(out, chunk, n);
		if (zr == Z_STREAM_END)
			res = ZINFLATE_END;
		else if (out->len >= max)
			res = ZINFLATE_CAPPED;
		/* A full output buffer may mean more output is pending. */
	} while (zr == Z_OK && out->len < max && (z.avail_in > 0 || z.avail_out == 0));
	inflateEnd(&z);
	return res;
}
