/* A bounded, content-addressed cache of raw deflate encodings, and the
 * assembly of a gzip member from cached and stored pieces.
 *
 * Each cached piece is a raw deflate stream of its bytes ended by a sync
 * flush: non-final blocks, byte-aligned, with no back-reference before its
 * own start, so pieces compressed independently can be concatenated in any
 * order. Literal bytes between pieces become stored blocks, and an empty
 * final stored block ends the stream. The trailer's CRC is one pass over the
 * whole body.
 *
 * The table is direct-mapped (a colliding piece replaces the occupant) and
 * holds at most GZCACHE_MAX_BYTES of plain plus compressed bytes: the plain
 * bytes are kept so that a hit is an exact match, never a CRC guess. It is
 * process-wide, as the web is. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "lib/xmalloc.h"
#include "gzcache.h"

#define GZCACHE_SLOTS 16384
#define GZCACHE_MAX_BYTES (64u << 20)
/* A stored block holds at most this many bytes. */
#define GZCACHE_STORED_MAX 65535

struct gzcache_slot {
	uint32_t crc;
	size_t len; /* plain bytes; 0: empty slot */
	char *plain;
	char *z; /* raw deflate, sync-flushed */
	size_t zlen;
};

static struct gzcache_slot gzcache_slot[GZCACHE_SLOTS];
static size_t gzcache_bytes;
static z_stream gzcache_z;
static int gzcache_z_ready;

/* Raw deflate of in[0..len) at level 1, ended by a sync flush, into out. */
static void gzcache_deflate(const char *in, size_t len, struct buf *out)
{
	size_t bound;

	if (!gzcache_z_ready) {
		if (deflateInit2(&gzcache_z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			abort();
		gzcache_z_ready = 1;
	} else if (deflateReset(&gzcache_z) != Z_OK) {
		abort();
	}
	bound = deflateBound(&gzcache_z, (uLong)len) + 16;
	buf_reserve(out, bound);
	gzcache_z.next_in = (Bytef *)(uintptr_t)in;
	gzcache_z.avail_in = (uInt)len;
	gzcache_z.next_out = (Bytef *)out->data + out->len;
	gzcache_z.avail_out = (uInt)bound;
	if (deflate(&gzcache_z, Z_SYNC_FLUSH) != Z_OK || gzcache_z.avail_in != 0 ||
	    gzcache_z.avail_out == 0)
		abort();
	out->len += bound - gzcache_z.avail_out;
	out->data[out->len] = '\0';
}

/* Appends the encoding of in[0..len), from the cache or made and cached. */
static void gzcache_piece(const char *in, size_t len, struct buf *out)
{
	uint32_t crc = (uint32_t)crc32(0, (const Bytef *)in, (uInt)len);
	struct gzcache_slot *s = &gzcache_slot[(crc ^ (uint32_t)len * 0x9e3779b1u) % GZCACHE_SLOTS];
	size_t start = out->len;

	if (s->len == len && s->crc == crc && memcmp(s->plain, in, len) == 0) {
		buf_append(out, s->z, s->zlen);
		return;
	}
	gzcache_deflate(in, len, out);
	if (s->len) {
		gzcache_bytes -= s->len + s->zlen;
		free(s->plain);
		free(s->z);
		s->len = 0;
	}
	if (gzcache_bytes + len + (out->len - start) > GZCACHE_MAX_BYTES)
		return;
	s->crc = crc;
	s->len = len;
	s->plain = xmalloc(len);
	memcpy(s->plain, in, len);
	s->zlen = out->len - start;
	s->z = xmalloc(s->zlen);
	memcpy(s->z, out->data + start, s->zlen);
	gzcache_bytes += s->len + s->zlen;
}

/* Appends in[0..len) as stored blocks; final marks the last one. */
static void gzcache_stored(const char *in, size_t len, int final, struct buf *out)
{
	do {
		size_t n = len < GZCACHE_STORED_MAX ? len : GZCACHE_STORED_MAX;
		unsigned char h[5];

		h[0] = final && n == len ? 1 : 0;
		h[1] = (unsigned char)(n & 0xff);
		h[2] = (unsigned char)(n >> 8);
		h[3] = (unsigned char)(~n & 0xff);
		h[4] = (unsigned char)((~n >> 8) & 0xff);
		buf_append(out, h, sizeof(h));
		buf_append(out, in, n);
		in += n;
		len -= n;
	} while (len > 0);
}

static void gzcache_le32(uint32_t v, struct buf *out)
{
	unsigned char b[4] = {v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24};

	buf_append(out, b, sizeof(b));
}

void gzcache_encode(const struct web_reply *wr, struct buf *out)
{
	/* Header: no name, no time, XFL 4 (fastest), OS 3 (Unix), as zlib writes it. */
	static const unsigned char head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 3};
	const char *body = wr->body.data;
	size_t len = wr->body.len, at = 0;

	buf_append(out, head, sizeof(head));
	if (wr->nspan == 0 && len > 0) {
		gzcache_piece(body, len, out);
		at = len;
	}
	for (size_t i = 0; i < wr->nspan; i++) {
		const struct web_span *sp = &wr->span[i];

		if (sp->at > at)
			gzcache_stored(body + at, sp->at - at, 0, out);
		gzcache_piece(body + sp->at, sp->len, out);
		at = sp->at + sp->len;
	}
	gzcache_stored(body + at, len - at, 1, out);
	gzcache_le32((uint32_t)crc32(0, (const Bytef *)body, (uInt)len), out);
	gzcache_le32((uint32_t)len, out);
}
