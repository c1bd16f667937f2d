/* Content decoding (gzip, deflate), capped so that a compression bomb
 * costs bounded memory and time: decoding stops once the output passes a
 * byte cap, or once the output/input ratio passes a cap after a floor of
 * output (deflate can reach about 1032:1).
 *
 * Output may come from decode_feed or, for a gzip body held whole (see
 * decode.c), all at once from decode_finish: a caller hands both the same
 * callback and must call decode_finish at the end of the body to get it. */
#ifndef TERN_DECODE_H
#define TERN_DECODE_H
#include <stddef.h>
#include <stdint.h>

enum decode_coding { DECODE_IDENTITY, DECODE_GZIP, DECODE_DEFLATE };

/* Default caps used by the fetch engine: 32 MiB of decoded bytes per
 * response, and 200:1 once 1 MiB has been decoded. */
#define DECODE_MAX_OUT (32u << 20)
#define DECODE_MAX_RATIO 200u
#define DECODE_RATIO_FLOOR (1u << 20)

/* Maps a Content-Encoding value (NULL or empty: identity) to a coding;
 * -1 for codings we do not decode (br, compress, stacked codings). */
int decode_coding_parse(const char *content_encoding, enum decode_coding *out);

enum decode_result {
	DECODE_OK = 0,	   /* consumed (or held) everything, wants more */
	DECODE_END = 1,	   /* the compressed stream ended */
	DECODE_CAPPED = 2, /* output or ratio cap reached; decoding stopped */
	DECODE_FAILED = -1 /* corrupt stream; see decode_error() */
};

/* Receives decoded bytes; nonzero stops decoding (reported as DECODE_CAPPED). */
typedef int (*decode_out_cb)(void *arg, const char *data, size_t len);

struct decode;

struct decode *decode_new(enum decode_coding c, uint64_t max_out, unsigned max_ratio);
void decode_free(struct decode *d);
enum decode_result decode_feed(
    struct decode *d, const char *in, size_t len, decode_out_cb cb, void *arg);
/* At the end of the input: decodes what is still held, then DECODE_END if
 * the stream was complete (DECODE_CAPPED, DECODE_FAILED as for feed). */
enum decode_result decode_finish(struct decode *d, decode_out_cb cb, void *arg);
uint64_t decode_in_bytes(const struct decode *d);
uint64_t decode_out_bytes(const struct decode *d);
const char *decode_error(const struct decode *d);

#endif
