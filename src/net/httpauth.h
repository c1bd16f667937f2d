/* HTTP authentication, without I/O: the challenges of a WWW-Authenticate
 * header (RFC 9110 11.6.1), the one tern answers (Digest with SHA-256,
 * then Digest with MD5, then Basic, as RFC 7616 asks a client to prefer),
 * and the Authorization value for Basic (RFC 7617) and Digest with qop=auth
 * (RFC 7616). Hashing is the caller's (a pure file links no OpenSSL): it is
 * handed in as a function. */
#ifndef TERN_HTTPAUTH_H
#define TERN_HTTPAUTH_H
#include <stddef.h>

struct buf;

enum httpauth_scheme { HTTPAUTH_NONE, HTTPAUTH_BASIC, HTTPAUTH_DIGEST_MD5, HTTPAUTH_DIGEST_SHA256 };

/* The challenge chosen; strings point into its own storage. */
struct httpauth_challenge {
	enum httpauth_scheme scheme;
	char realm[256], nonce[256], opaque[256];
	int qop_auth; /* the server offers qop=auth */
	int userhash; /* asked for (RFC 7616 3.4.4); not supported: skipped */
};

/* Reads one WWW-Authenticate value (several challenges, comma-separated)
 * and keeps in *best the one tern prefers, if better than what *best
 * holds (start with scheme HTTPAUTH_NONE; call once per header line).
 * Unknown schemes, Digest without qop=auth or with an algorithm other
 * than MD5 and SHA-256 (the -sess variants included) are skipped. Returns
 * -1 when the value does not parse (what was read before stays). */
int httpauth_parse(const char *value, struct httpauth_challenge *best);

/* hex of the digest of in (MD5 or SHA-256 by sha256), NUL-terminated. */
typedef void (*httpauth_hash_fn)(int sha256, const char *in, size_t len, char *hex);

/* Appends the Authorization header's value for the challenge: Basic
 * "user:password" in base64, or Digest with uri (the request target),
 * method GET, nc 00000001 and cnonce (the caller's random token). */
void httpauth_answer(const struct httpauth_challenge *ch, const char *user, const char *password,
    const char *uri, const char *cnonce, httpauth_hash_fn hash, struct buf *out);

#endif
