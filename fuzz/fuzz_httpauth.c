/* libFuzzer target for what a server sends in WWW-Authenticate: the bytes
 * as challenges (src/net/httpauth.c), and the challenge kept answered
 * with a stand-in hash (the hashing is OpenSSL's, not under test here); the
 * same bytes as a credentials file (src/net/credentials.c), looked up. */
#include <build-config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "net/credentials.h"
#include "net/httpauth.h"

static void fuzz_hash(int sha256, const char *in, size_t len, char *hex)
{
	size_t n = sha256 ? 64 : 32;

	for (size_t i = 0; i < n; i++)
		hex[i] =
		    "0123456789abcdef"[(len + i + (len ? (unsigned char)in[i % len] : 0)) & 15];
	hex[n] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct httpauth_challenge ch;
	struct credentials *c = NULL;
	char *err = NULL;

	memcpy(s, data, size);
	s[size] = '\0';
	memset(&ch, 0, sizeof ch);
	httpauth_parse(s, &ch);
	if (ch.scheme != HTTPAUTH_NONE) {
		struct buf out = BUF_INIT;
		httpauth_answer(&ch, "user", "pass", "/x", "cnonce", fuzz_hash, &out);
		buf_free(&out);
	}
	if (credentials_parse((const char *)data, size, "fuzz", &c, &err) == 0) {
		credentials_http(c, "org,example,)/", ch.realm);
		credentials_proxy(c, "127.0.0.1:3128");
		credentials_free(c);
	} else {
		free(err);
	}
	free(s);
	return 0;
}
