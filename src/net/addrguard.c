/* The address guard's tables: the IANA special-purpose registries (IPv4 and
 * IPv6, as of 2025), multicast and the IPv6 blocks outside global unicast.
 * A table is searched in order and the first block that holds the address
 * answers, so a narrower block comes before the one that contains it (the
 * cloud metadata address before link-local) to be named precisely. */
#include <build-config.h>

#include "net/addrguard.h"

#include <netinet/in.h>
#include <stddef.h>
#include <string.h>

struct addrguard_v4_row {
	unsigned char prefix[4];
	unsigned bits;
	struct addrguard_range r;
};

/* Where an IPv6 block carries an IPv4 address to judge instead. */
enum { ADDRGUARD_OWN = -1 };

struct addrguard_v6_row {
	unsigned char prefix[16];
	unsigned bits;
	int embed; /* offset of the embedded IPv4 address, or ADDRGUARD_OWN */
	struct addrguard_range r;
};

static const struct addrguard_v4_row addrguard_v4_rows[] = {
    {{0, 0, 0, 0}, 8, {"0.0.0.0/8", "this network"}},
    {{10, 0, 0, 0}, 8, {"10.0.0.0/8", "private-use"}},
    {{100, 64, 0, 0}, 10, {"100.64.0.0/10", "shared address space"}},
    {{127, 0, 0, 0}, 8, {"127.0.0.0/8", "loopback"}},
    {{169, 254, 169, 254}, 32, {"169.254.169.254/32", "cloud metadata service"}},
    {{169, 254, 0, 0}, 16, {"169.254.0.0/16", "link-local"}},
    {{172, 16, 0, 0}, 12, {"172.16.0.0/12", "private-use"}},
    {{192, 0, 0, 0}, 24, {"192.0.0.0/24", "IETF protocol assignments"}},
    {{192, 0, 2, 0}, 24, {"192.0.2.0/24", "documentation (TEST-NET-1)"}},
    {{192, 31, 196, 0}, 24, {"192.31.196.0/24", "AS112-v4"}},
    {{192, 52, 193, 0}, 24, {"192.52.193.0/24", "AMT"}},
    {{192, 88, 99, 0}, 24, {"192.88.99.0/24", "6to4 relay anycast (deprecated)"}},
    {{192, 168, 0, 0}, 16, {"192.168.0.0/16", "private-use"}},
    {{192, 175, 48, 0}, 24, {"192.175.48.0/24", "direct delegation AS112 service"}},
    {{198, 18, 0, 0}, 15, {"198.18.0.0/15", "benchmarking"}},
    {{198, 51, 100, 0}, 24, {"198.51.100.0/24", "documentation (TEST-NET-2)"}},
    {{203, 0, 113, 0}, 24, {"203.0.113.0/24", "documentation (TEST-NET-3)"}},
    {{224, 0, 0, 0}, 4, {"224.0.0.0/4", "multicast"}},
    {{255, 255, 255, 255}, 32, {"255.255.255.255/32", "limited broadcast"}},
    {{240, 0, 0, 0}, 4, {"240.0.0.0/4", "reserved"}},
};

#define ADDRGUARD_P6(a, b, c, d)                                                               \
	{                                                                                      \
		(a) >> 8, (a)&0xff, (b) >> 8, (b)&0xff, (c) >> 8, (c)&0xff, (d) >> 8, (d)&0xff \
	}

static const struct addrguard_v6_row addrguard_v6_rows[] = {
    /* Embeddings first: their IPv4 address decides. */
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 96, 12, {"::ffff:0:0/96", "IPv4-mapped"}},
    {ADDRGUARD_P6(0x64, 0xff9b, 0, 0), 96, 12, {"64:ff9b::/96", "NAT64"}},
    {ADDRGUARD_P6(0x2002, 0, 0, 0), 16, 2, {"2002::/16", "6to4"}},
    /* Its IPv4 address sits wherever the local prefix length puts it,
	 * so it cannot be judged: the block is refused whole. */
    {ADDRGUARD_P6(0x64, 0xff9b, 1, 0), 48, ADDRGUARD_OWN,
	{"64:ff9b:1::/48", "local-use IPv4/IPv6 translation"}},
    {{[15] = 1}, 128, ADDRGUARD_OWN, {"::1/128", "loopback"}},
    {{0}, 128, ADDRGUARD_OWN, {"::/128", "unspecified"}},
    /* IPv4-compatible and the other forms of 0::/8, none routable. */
    {{0}, 8, ADDRGUARD_OWN, {"::/8", "reserved (IPv4-compatible and others)"}},
    {ADDRGUARD_P6(0x100, 0, 0, 0), 64, ADDRGUARD_OWN, {"100::/64", "discard-only"}},
    {ADDRGUARD_P6(0x100, 0, 0, 1), 64, ADDRGUARD_OWN, {"100:0:0:1::/64", "dummy prefix"}},
    {ADDRGUARD_P6(0x2001, 0, 0, 0), 32, ADDRGUARD_OWN, {"2001::/32", "Teredo"}},
    {ADDRGUARD_P6(0x2001, 2, 0, 0), 48, ADDRGUARD_OWN, {"2001:2::/48", "benchmarking"}},
    {ADDRGUARD_P6(0x2001, 0x10, 0, 0), 28, ADDRGUARD_OWN, {"2001:10::/28", "ORCHID (deprecated)"}},
    {ADDRGUARD_P6(0x2001, 0x20, 0, 0), 28, ADDRGUARD_OWN, {"2001:20::/28", "ORCHIDv2"}},
    {ADDRGUARD_P6(0x2001, 0, 0, 0), 23, ADDRGUARD_OWN, {"2001::/23", "IETF protocol assignments"}},
    {ADDRGUARD_P6(0x2001, 0xdb8, 0, 0), 32, ADDRGUARD_OWN, {"2001:db8::/32", "documentation"}},
    {ADDRGUARD_P6(0x2620, 0x4f, 0x8000, 0), 48, ADDRGUARD_OWN,
	{"2620:4f:8000::/48", "direct delegation AS112 service"}},
    {ADDRGUARD_P6(0x3fff, 0, 0, 0), 20, ADDRGUARD_OWN, {"3fff::/20", "documentation"}},
    {ADDRGUARD_P6(0x5f00, 0, 0, 0), 16, ADDRGUARD_OWN, {"5f00::/16", "segment routing SIDs"}},
    {ADDRGUARD_P6(0xfc00, 0, 0, 0), 7, ADDRGUARD_OWN, {"fc00::/7", "unique-local"}},
    {ADDRGUARD_P6(0xfe80, 0, 0, 0), 10, ADDRGUARD_OWN, {"fe80::/10", "link-local"}},
    {ADDRGUARD_P6(0xff00, 0, 0, 0), 8, ADDRGUARD_OWN, {"ff00::/8", "multicast"}},
};

/* Every other address outside 2000::/3 (site-local fec0::/10 among them):
 * IANA gives out unicast addresses from 2000::/3 only. */
static const struct addrguard_range addrguard_not_global = {
    "outside 2000::/3", "not global unicast"};

static const struct addrguard_range addrguard_not_ip = {"-", "not an IP address"};

/* Whether the first bits of a and prefix are equal. */
static int addrguard_match(const unsigned char *a, const unsigned char *prefix, unsigned bits)
{
	unsigned whole = bits / 8, rest = bits % 8;

	if (memcmp(a, prefix, whole) != 0)
		return 0;
	if (rest == 0)
		return 1;
	return ((a[whole] ^ prefix[whole]) & (0xff00 >> rest) & 0xff) == 0;
}

const struct addrguard_range *addrguard_v4(const unsigned char a[4])
{
	for (size_t i = 0; i < sizeof addrguard_v4_rows / sizeof addrguard_v4_rows[0]; i++)
		if (addrguard_match(a, addrguard_v4_rows[i].prefix, addrguard_v4_rows[i].bits))
			return &addrguard_v4_rows[i].r;
	return NULL;
}

const struct addrguard_range *addrguard_v6(const unsigned char a[16])
{
	for (size_t i = 0; i < sizeof addrguard_v6_rows / sizeof addrguard_v6_rows[0]; i++) {
		const struct addrguard_v6_row *row = &addrguard_v6_rows[i];

		if (!addrguard_match(a, row->prefix, row->bits))
			continue;
		if (row->embed != ADDRGUARD_OWN)
			return addrguard_v4(a + row->embed);
		return &row->r;
	}
	if ((a[0] & 0xe0) != 0x20)
		return &addrguard_not_global;
	return NULL;
}

const struct addrguard_range *addrguard_sockaddr(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return addrguard_v4(
		    (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr);
	if (sa->sa_family == AF_INET6)
		return addrguard_v6(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr);
	return &addrguard_not_ip;
}
