/* Streaming SHA-1 in the form WARC records and crawl.log carry it:
 * "sha1:" followed by the 32-character RFC 4648 Base32 of the 20-byte hash. */
#ifndef TERN_DIGEST_H
#define TERN_DIGEST_H
#include <stddef.h>

#define DIGEST_STRLEN 38 /* "sha1:" + 32 + NUL */

struct digest;

struct digest *digest_new(void);
void digest_update(struct digest *d, const void *p, size_t n);
/* Writes the text form and leaves d ready for a new message. */
void digest_final(struct digest *d, char out[DIGEST_STRLEN]);
void digest_reset(struct digest *d);
void digest_free(struct digest *d);

/* One-shot helper for bytes already in memory. */
void digest_of(const void *p, size_t n, char out[DIGEST_STRLEN]);
/* Base32 (RFC 4648, upper case, no padding) of 20 bytes into 32 chars + NUL. */
void digest_base32(const unsigned char raw[20], char out[33]);

#endif
