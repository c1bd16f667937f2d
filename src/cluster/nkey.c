/* The public key of a NATS user seed (nkey.h). The nkeys text form: a
 * prefix, the 32 bytes, a CRC-16/XMODEM of both (little-endian), in RFC
 * 4648 Base32 without padding. A seed's prefix is two bytes (the seed's
 * type and the key's: a user); a public key's one byte (a user). */
#include "cluster/nkey.h"
#include "lib/base32.h"
#include "lib/xmalloc.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <string.h>

#define NKEY_PREFIX_SEED (18 << 3)
#define NKEY_PREFIX_USER (20 << 3)

static unsigned nkey_crc16(const unsigned char *p, size_t n)
{
	unsigned crc = 0;

	for (size_t i = 0; i < n; i++) {
		crc ^= (unsigned)p[i] << 8;
		for (int b = 0; b < 8; b++)
			crc = (crc & 0x8000) ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc;
}

int nkey_public(const char *seed, char *pub, size_t cap, char **err)
{
	unsigned char raw[40], key[35];
	size_t n, kl = 32;
	long got;
	EVP_PKEY *pk;
	unsigned crc;

	while (isspace((unsigned char)*seed))
		seed++;
	n = strlen(seed);
	while (n > 0 && isspace((unsigned char)seed[n - 1]))
		n--;
	got = base32_decode(seed, n, raw, sizeof raw);
	if (got != 36 || raw[0] != (NKEY_PREFIX_SEED | (NKEY_PREFIX_USER >> 5)) ||
	    raw[1] != ((NKEY_PREFIX_USER & 31) << 3)) {
		*err = xstrdup("not a NATS user seed (SU... in the nkeys text form)");
		return -1;
	}
	crc = nkey_crc16(raw, 34);
	if (raw[34] != (crc & 0xff) || raw[35] != (crc >> 8)) {
		*err = xstrdup("the seed's checksum is wrong (a damaged or truncated copy?)");
		return -1;
	}
	if (cap < 57 ||
	    (pk = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, raw + 2, 32)) == NULL) {
		*err = xstrdup("the seed is not an Ed25519 key");
		return -1;
	}
	key[0] = NKEY_PREFIX_USER;
	if (EVP_PKEY_get_raw_public_key(pk, key + 1, &kl) != 1 || kl != 32) {
		EVP_PKEY_free(pk);
		*err = xstrdup("the seed's public key cannot be derived");
		return -1;
	}
	EVP_PKEY_free(pk);
	crc = nkey_crc16(key, 33);
	key[33] = (unsigned char)(crc & 0xff);
	key[34] = (unsigned char)(crc >> 8);
	base32_encode(key, 35, pub);
	memset(raw, 0, sizeof raw);
	return 0;
}
