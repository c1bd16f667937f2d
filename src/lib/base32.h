/* RFC 4648 Base32 (upper case, no padding) of a 20-byte SHA-1, the form
 * WARC payload digests and crawl.log carry ("sha1:" + 32 characters), and
 * back: the frontier store keeps the 20 bytes. Header-only, like hex.h. */
#ifndef TERN_BASE32_H
#define TERN_BASE32_H

/* 160 bits are exactly 32 quintets, so no padding is ever needed. */
static inline void base32_encode20(const unsigned char raw[20], char out[33])
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
	unsigned long long acc = 0;
	int bits = 0, i, o = 0;

	for (i = 0; i < 20; i++) {
		acc = (acc << 8) | raw[i];
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out[o++] = alphabet[(acc >> bits) & 31];
		}
	}
	out[o] = '\0';
}

/* 0 and raw filled when s is exactly 32 characters of the upper-case
 * alphabet; -1 otherwise (so that encoding raw gives s back). */
static inline int base32_decode20(const char *s, unsigned char raw[20])
{
	unsigned long long acc = 0;
	int bits = 0, i, o = 0;

	for (i = 0; i < 32; i++) {
		int c = (unsigned char)s[i], v;

		if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= '2' && c <= '7')
			v = c - '2' + 26;
		else
			return -1;
		acc = (acc << 5) | (unsigned)v;
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			raw[o++] = (unsigned char)(acc >> bits);
		}
	}
	return s[32] == '\0' ? 0 : -1;
}

#endif
