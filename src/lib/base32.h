/* RFC 4648 Base32 (upper case, no padding): the form WARC payload digests
 * and crawl.log carry for a 20-byte SHA-1 ("sha1:" + 32 characters; the
 * frontier store keeps the 20 bytes), and the text form of NATS nkeys.
 * Header-only, like hex.h. */
#ifndef TERN_BASE32_H
#define TERN_BASE32_H
#include <stddef.h>

/* n bytes as ceil(8n/5) characters and a NUL; a last partial quintet is
 * padded with zero bits. */
static inline void base32_encode(const unsigned char *p, size_t n, char *out)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
	unsigned long acc = 0;
	int bits = 0;
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		acc = ((acc << 8) | p[i]) & 0xffff;
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out[o++] = alphabet[(acc >> bits) & 31];
		}
	}
	if (bits > 0)
		out[o++] = alphabet[(acc << (5 - bits)) & 31];
	out[o] = '\0';
}

/* n characters of the alphabet into at most cap bytes (leftover bits are
 * dropped): the count, or -1 for a character outside the alphabet (a NUL
 * included, so a shorter string is never read past) or too many bytes. */
static inline long base32_decode(const char *s, size_t n, unsigned char *out, size_t cap)
{
	unsigned long acc = 0;
	int bits = 0;
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i], v;

		if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= '2' && c <= '7')
			v = c - '2' + 26;
		else
			return -1;
		acc = ((acc << 5) | (unsigned)v) & 0xffff;
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			if (o == cap)
				return -1;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	return (long)o;
}

/* 160 bits are exactly 32 quintets, so no padding is ever needed. */
static inline void base32_encode20(const unsigned char raw[20], char out[33])
{
	base32_encode(raw, 20, out);
}

/* 0 and raw filled when s is exactly 32 characters of the upper-case
 * alphabet; -1 otherwise (so that encoding raw gives s back). */
static inline int base32_decode20(const char *s, unsigned char raw[20])
{
	if (base32_decode(s, 32, raw, 20) != 20)
		return -1;
	return s[32] == '\0' ? 0 : -1;
}

#endif
