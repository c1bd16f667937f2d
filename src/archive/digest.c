/* SHA-1 through OpenSSL's EVP interface: the algorithm WARC readers expect in
 * WARC-Block-Digest and WARC-Payload-Digest, in the spec's Base32 spelling. */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include "archive/digest.h"
#include "lib/base32.h"
#include "lib/xmalloc.h"

struct digest {
	EVP_MD_CTX *ctx;
};

/* A failing EVP call here means a broken libcrypto (SHA-1 disabled by a
 * provider configuration); nothing sensible can be archived then. */
static void digest_check(int ok)
{
	if (!ok)
		abort();
}

/* Initialising a context by name makes OpenSSL 3 look the algorithm up in
 * its providers (a few thousand instructions, twice per page): contexts are
 * copied from one set up once instead, and a finished one is restarted
 * with the algorithm it has. */
static EVP_MD_CTX *digest_template;

static void digest_template_free(void)
{
	EVP_MD_CTX_free(digest_template);
	digest_template = NULL;
}

struct digest *digest_new(void)
{
	struct digest *d = xmalloc(sizeof *d);

	if (digest_template == NULL) {
		digest_template = EVP_MD_CTX_new();
		if (digest_template == NULL)
			abort();
		digest_check(EVP_DigestInit_ex(digest_template, EVP_sha1(), NULL));
		atexit(digest_template_free);
	}
	d->ctx = EVP_MD_CTX_new();
	if (d->ctx == NULL)
		abort();
	digest_check(EVP_MD_CTX_copy_ex(d->ctx, digest_template));
	return d;
}

void digest_update(struct digest *d, const void *p, size_t n)
{
	if (n > 0)
		digest_check(EVP_DigestUpdate(d->ctx, p, n));
}

void digest_base32(const unsigned char raw[20], char out[33])
{
	base32_encode20(raw, out);
}

void digest_final(struct digest *d, char out[DIGEST_STRLEN])
{
	unsigned char raw[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	digest_check(EVP_DigestFinal_ex(d->ctx, raw, &len));
	memcpy(out, "sha1:", 5);
	digest_base32(raw, out + 5);
	digest_reset(d);
}

void digest_reset(struct digest *d)
{
	digest_check(EVP_DigestInit_ex(d->ctx, NULL, NULL));
}

void digest_free(struct digest *d)
{
	if (d == NULL)
		return;
	EVP_MD_CTX_free(d->ctx);
	free(d);
}

void digest_of(const void *p, size_t n, char out[DIGEST_STRLEN])
{
	struct digest *d = digest_new();

	digest_update(d, p, n);
	digest_final(d, out);
	digest_free(d);
}
