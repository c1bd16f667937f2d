/* Streamed bodies. The bomb is one precomputed deflate block of 1 MiB of
 * zeros ending in a full flush (byte aligned, no back-references across
 * it), so repeating it N times is a valid stream of N MiB; the gzip trailer's
 * CRC comes from crc32_combine, never from the decoded bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <brotli/encode.h>
#include <zstd.h>
#include "lib/xmalloc.h"
#include "body.h"

#define BODY_MIB (1024 * 1024)
#define BODY_CHUNK 8192

enum body_kind { BODY_FILLER, BODY_ENDLESS, BODY_BOMB };

struct body {
	enum body_kind kind;
	uint64_t total;
	uint64_t done;
};

static const char body_text[] =
    "The arctic tern flies from pole to pole every year, following the summer. ";

/* The repeated bomb block, the final empty block and the CRC of one block. */
static unsigned char *body_bomb_block;
static size_t body_bomb_block_len;
static unsigned char body_bomb_tail[16];
static size_t body_bomb_tail_len;
static uLong body_bomb_crc;

static void body_bomb_init(void)
{
	unsigned char *zeros, *out;
	size_t cap = BODY_MIB;
	z_stream z;

	if (body_bomb_block)
		return;
	zeros = xcalloc(1, BODY_MIB);
	out = xmalloc(cap);
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = zeros;
	z.avail_in = BODY_MIB;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FULL_FLUSH) != Z_OK || z.avail_in != 0)
		abort();
	body_bomb_block_len = cap - z.avail_out;
	body_bomb_block = xrealloc(out, body_bomb_block_len);
	z.next_out = body_bomb_tail;
	z.avail_out = sizeof(body_bomb_tail);
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	body_bomb_tail_len = sizeof(body_bomb_tail) - z.avail_out;
	deflateEnd(&z);
	body_bomb_crc = crc32(crc32(0, NULL, 0), zeros, BODY_MIB);
	free(zeros);
}

static struct body *body_new(enum body_kind kind, uint64_t total)
{
	struct body *b = xcalloc(1, sizeof(*b));

	b->kind = kind;
	b->total = total;
	return b;
}

struct body *body_new_filler(uint64_t bytes)
{
	return body_new(BODY_FILLER, bytes);
}

struct body *body_new_endless(void)
{
	return body_new(BODY_ENDLESS, UINT64_MAX);
}

struct body *body_new_bomb(uint32_t mb)
{
	body_bomb_init();
	return body_new(
	    BODY_BOMB, 10 + (uint64_t)mb * body_bomb_block_len + body_bomb_tail_len + 8);
}

uint64_t body_length(const struct body *b)
{
	return b->total;
}

void body_free(struct body *b)
{
	free(b);
}

/* Copies filler text as if it were an infinite repetition of body_text. */
static void body_fill(uint64_t offset, char *out, size_t n)
{
	size_t tl = sizeof(body_text) - 1;

	for (size_t i = 0; i < n; i++)
		out[i] = body_text[(offset + i) % tl];
}

static size_t body_next_endless(struct body *b, char *out, size_t cap)
{
	int head;

	if (cap < BODY_CHUNK + 16)
		return 0;
	head = snprintf(out, cap, "%x\r\n", BODY_CHUNK);
	body_fill(b->done, out + head, BODY_CHUNK);
	memcpy(out + head + BODY_CHUNK, "\r\n", 2);
	b->done += BODY_CHUNK;
	return (size_t)head + BODY_CHUNK + 2;
}

/* The byte at wire offset `off` of the bomb, computed from its layout:
 * 10-byte header, N blocks, tail, 8-byte trailer. */
static size_t body_next_bomb(struct body *b, char *out, size_t cap)
{
	uint64_t blocks_end = 10 + (b->total - 10 - body_bomb_tail_len - 8);
	uint64_t mb = (blocks_end - 10) / body_bomb_block_len;
	size_t n = 0;

	while (n < cap && b->done < b->total) {
		uint64_t off = b->done;
		const unsigned char *src;
		size_t avail;
		unsigned char trailer[8];

		if (off < 10) {
			static const unsigned char head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};

			src = head + off;
			avail = 10 - (size_t)off;
		} else if (off < blocks_end) {
			size_t in = (size_t)((off - 10) % body_bomb_block_len);

			src = body_bomb_block + in;
			avail = body_bomb_block_len - in;
		} else if (off < blocks_end + body_bomb_tail_len) {
			src = body_bomb_tail + (off - blocks_end);
			avail = body_bomb_tail_len - (size_t)(off - blocks_end);
		} else {
			uLong crc = crc32(0, NULL, 0);
			uint32_t isize = (uint32_t)(mb * BODY_MIB);
			size_t in = (size_t)(off - blocks_end - body_bomb_tail_len);

			for (uint64_t i = 0; i < mb; i++)
				crc = crc32_combine(crc, body_bomb_crc, BODY_MIB);
			for (int i = 0; i < 4; i++) {
				trailer[i] = (unsigned char)(crc >> (8 * i));
				trailer[4 + i] = (unsigned char)(isize >> (8 * i));
			}
			src = trailer + in;
			avail = 8 - in;
		}
		if (avail > cap - n)
			avail = cap - n;
		memcpy(out + n, src, avail);
		n += avail;
		b->done += avail;
	}
	return n;
}

size_t body_next(struct body *b, char *out, size_t cap)
{
	size_t n;

	switch (b->kind) {
	case BODY_ENDLESS:
		return body_next_endless(b, out, cap);
	case BODY_BOMB:
		return body_next_bomb(b, out, cap);
	case BODY_FILLER:
		n = b->total - b->done < cap ? (size_t)(b->total - b->done) : cap;
		body_fill(b->done, out, n);
		b->done += n;
		return n;
	}
	return 0;
}

void body_gzip(const void *in, size_t len, struct buf *out)
{
	z_stream z;
	size_t bound;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	bound = deflateBound(&z, (uLong)len) + 32;
	buf_reserve(out, bound);
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out->data + out->len;
	z.avail_out = (uInt)bound;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	out->len += bound - z.avail_out;
	out->data[out->len] = '\0';
	deflateEnd(&z);
}

void body_br(const void *in, size_t len, struct buf *out)
{
	size_t n = BrotliEncoderMaxCompressedSize(len);

	buf_reserve(out, n + 1);
	if (!BrotliEncoderCompress(
		5, 22, BROTLI_MODE_TEXT, len, in, &n, (uint8_t *)out->data + out->len))
		abort();
	out->len += n;
	out->data[out->len] = '\0';
}

void body_zstd(const void *in, size_t len, struct buf *out)
{
	size_t n = ZSTD_compressBound(len);

	buf_reserve(out, n + 1);
	n = ZSTD_compress(out->data + out->len, n, in, len, 3);
	if (ZSTD_isError(n))
		abort();
	out->len += n;
	out->data[out->len] = '\0';
}

void body_br_zeros(uint32_t mb, struct buf *out)
{
	BrotliEncoderState *e = BrotliEncoderCreateInstance(NULL, NULL, NULL);
	char *zeros = xcalloc(1, BODY_MIB);

	if (e == NULL || !BrotliEncoderSetParameter(e, BROTLI_PARAM_QUALITY, 1))
		abort();
	for (uint32_t i = 0; i <= mb; i++) {
		const uint8_t *next_in = (const uint8_t *)zeros;
		size_t avail_in = i < mb ? BODY_MIB : 0;
		BrotliEncoderOperation op =
		    i < mb ? BROTLI_OPERATION_PROCESS : BROTLI_OPERATION_FINISH;

		do {
			uint8_t tmp[BODY_CHUNK], *next_out = tmp;
			size_t avail_out = sizeof(tmp);

			if (!BrotliEncoderCompressStream(
				e, op, &avail_in, &next_in, &avail_out, &next_out, NULL))
				abort();
			buf_append(out, tmp, sizeof(tmp) - avail_out);
		} while (avail_in > 0 || BrotliEncoderHasMoreOutput(e) ||
		    (op == BROTLI_OPERATION_FINISH && !BrotliEncoderIsFinished(e)));
	}
	BrotliEncoderDestroyInstance(e);
	free(zeros);
}

void body_zstd_zeros(uint32_t mb, struct buf *out)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	char *zeros = xcalloc(1, BODY_MIB);

	if (c == NULL)
		abort();
	for (uint32_t i = 0; i <= mb; i++) {
		ZSTD_inBuffer ib = {zeros, i < mb ? BODY_MIB : 0, 0};
		ZSTD_EndDirective op = i < mb ? ZSTD_e_continue : ZSTD_e_end;
		size_t left;

		do {
			char tmp[BODY_CHUNK];
			ZSTD_outBuffer ob = {tmp, sizeof(tmp), 0};

			left = ZSTD_compressStream2(c, &ob, &ib, op);
			if (ZSTD_isError(left))
				abort();
			buf_append(out, tmp, ob.pos);
		} while (ib.pos < ib.size || (op == ZSTD_e_end && left != 0));
	}
	ZSTD_freeCCtx(c);
	free(zeros);
}
