/* Content decoding (gzip, deflate, br, zstd, and stacks of them), capped
 * so that a compression bomb costs bounded memory and time: decoding stops
 * once the output passes a byte cap, or once the ratio of the output to
 * the bytes received passes a cap after a floor of output (deflate can
 * reach about 1032:1, brotli and zstd far more).
 *
 * Output may come from decode_feed or, for a gzip body held whole (see
 * decode.c), all at once from decode_finish: a caller hands both the same
 * callback and must call decode_finish at the end of the body to get it. */
#ifndef TERN_DECODE_H
#define TERN_DECODE_H
#include <stddef.h>
#include <stdint.h>

enum decode_coding { DECODE_IDENTITY, DECODE_GZIP, DECODE_DEFLATE, DECODE_BR, DECODE_ZSTD };

/* The most codings one body may stack ("gzip, br" is two). */
#define DECODE_MAX_STACK 4

/* A Content-Encoding value's codings in the order the server applied
 * them, which is the order they are listed (RFC 9110 8.4); identity
 * is dropped. */
struct decode_codings {
	unsigned n;
	enum decode_coding c[DECODE_MAX_STACK];
};

/* Default caps used by the fetch engine: 32 MiB of decoded bytes per
 * response, and 200:1 once 1 MiB has been decoded. */
#define DECODE_MAX_OUT (32u << 20)
#define DECODE_MAX_RATIO 200u
#define DECODE_RATIO_FLOOR (1u << 20)

/* Parses a Content-Encoding value (NULL or empty: identity, n = 0);
 * -1 for a coding we do not decode (compress, an unknown name) or more
 * than DECODE_MAX_STACK of them. */
int decode_codings_parse(const char *content_encoding, struct decode_codings *out);

enum decode_result {
	DECODE_OK = 0,	   /* consumed (or held) everything, wants more */
	DECODE_END = 1,	   /* the compressed stream ended */
	DECODE_CAPPED = 2, /* output or ratio cap reached; decoding stopped */
	DECODE_FAILED = -1 /* corrupt stream; see decode_error() */
};

/* Receives decoded bytes; nonzero stops decoding (reported as DECODE_CAPPED). */
typedef int (*decode_out_cb)(void *arg, const char *data, size_t len);

struct decode;

/* The caps' arithmetic is lib/zinflate.h's: 0 for either means none. */
struct decode *decode_new(enum decode_coding c, uint64_t max_out, unsigned max_ratio);
/* A decoder for a stack of codings, undone last first; the caps apply to
 * every stage, the ratio always against the bytes received. No codings:
 * identity. */
struct decode *decode_new_stack(
    const struct decode_codings *cs, uint64_t max_out, unsigned max_ratio);
void decode_free(struct decode *d);
enum decode_result decode_feed(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg);
/* At the end of the input: decodes what is still held, then DECODE_END if
 * the stream was complete (DECODE_CAPPED, DECODE_FAILED as for feed). */
enum decode_result decode_finish(struct decode *d, decode_out_cb cb, void *arg);
/* Bytes received, and bytes handed out by the last stage. */
uint64_t decode_in_bytes(const struct decode *d);
uint64_t decode_out_bytes(const struct decode *d);
/* Why a stage failed (NULL when none did). */
const char *decode_error(const struct decode *d);
/* The Content-Encoding name of a coding ("br"), for messages. */
const char *decode_coding_name(enum decode_coding c);

#endif
