/* The address guard: which IPv4 and IPv6 addresses a crawler must not
 * connect to unless the operator allows it (fetch.allow-private-addresses
 * in tern.conf(5)): every block of the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (private, loopback, link-local with the cloud metadata
 * address, shared, documentation, benchmarking, reserved, ...), multicast,
 * and IPv6 outside global unicast 2000::/3. An IPv4 address carried inside
 * IPv6 (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) is
 * judged as that IPv4 address, so no embedding smuggles a private one past
 * the guard.
 *
 * Pure logic, values in and a verdict out, asked by the fetch and the
 * crawl alike; it reads socket addresses, so its header includes
 * <sys/socket.h>, which keeps it out of tests/layers.sh's PURE table. */
#ifndef TERN_ADDRGUARD_H
#define TERN_ADDRGUARD_H
#include <sys/socket.h>

/* A special-purpose block an address falls in. */
struct addrguard_range {
	const char *block; /* "10.0.0.0/8" */
	const char *name;  /* "private-use" */
};

/* NULL when a may be crawled; otherwise the block it falls in (for an
 * embedded IPv4 address, the IPv4 block). a is in network order. */
const struct addrguard_range *addrguard_v4(const unsigned char a[4]);
const struct addrguard_range *addrguard_v6(const unsigned char a[16]);
/* The same for an AF_INET or AF_INET6 socket address; any other family
 * is refused. */
const struct addrguard_range *addrguard_sockaddr(const struct sockaddr *sa);

#endif
