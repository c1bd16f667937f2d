/* TLS client sessions over OpenSSL memory BIOs, without I/O: ciphertext is
 * pushed in and pulled out by the caller (conn.c), so TLS runs on the same
 * single libuv loop as everything else. Verification of the certificate
 * chain and the host name is on unless turned off. */
#ifndef TERN_TLS_H
#define TERN_TLS_H
#include <stddef.h>

#include "lib/status.h"

struct tls_ctx;
struct tls;

/* ca_file NULL or "": the system store. */
struct tls_ctx *tls_ctx_new(int verify, const char *ca_file, char **err);
void tls_ctx_free(struct tls_ctx *ctx);
/* Offers HTTP/2 by ALPN ("h2", then "http/1.1") in every ClientHello of
 * ctx from now on; without it no ALPN is offered and servers speak
 * HTTP/1.1. */
void tls_ctx_offer_h2(struct tls_ctx *ctx);

/* host gives SNI and the name to verify (an IP literal is checked against
 * the certificate's IP addresses and gets no SNI). session: a session from
 * tls_session() to resume, or NULL; not taken over. */
struct tls *tls_new(struct tls_ctx *ctx, const char *host, void *session);
void tls_free(struct tls *t);

enum tls_result { TLS_OK = 0, TLS_WANT = 1, TLS_ERROR = -1, TLS_CLOSED = -2 };

/* Advances the handshake: TLS_OK when done, TLS_WANT for more input. */
enum tls_result tls_handshake(struct tls *t);
/* Hands over received ciphertext; returns how much was taken (it takes a
 * bounded amount at a time: read plaintext out, then push the rest). */
size_t tls_push(struct tls *t, const char *data, size_t len);
/* Decrypts into out: >0 bytes, 0 for "need more input", TLS_CLOSED at
 * close_notify, TLS_ERROR. */
int tls_read(struct tls *t, char *out, size_t cap);
/* Encrypts all of data into the outgoing queue; 0 or TLS_ERROR. */
int tls_write(struct tls *t, const char *data, size_t len);
/* Ciphertext waiting to be sent, and taking it out. */
size_t tls_pending(struct tls *t);
size_t tls_pull(struct tls *t, char *out, size_t cap);

int tls_resumed(const struct tls *t);
/* After the handshake: whether the server chose "h2" by ALPN; the protocol
 * version as WARC-Protocol writes it ("tls/1.3", doc/warc.md); the cipher
 * suite's IANA name (WARC-Cipher-Suite). The strings are static. */
int tls_h2(const struct tls *t);
const char *tls_version(const struct tls *t);
const char *tls_cipher(const struct tls *t);
/* A resumable session (caller frees with tls_session_free), or NULL. */
void *tls_session(struct tls *t);
void tls_session_free(void *s);
/* Why the handshake or a read failed, in words and by name (a failed
 * verification names its reason: CAUSE_TLS_SELF_SIGNED...). */
const char *tls_error(const struct tls *t);
enum status_cause tls_cause(const struct tls *t);

#endif
