/* The address guard: one row per special-purpose block (its first and last
 * address, and the addresses just outside it where they are public), the
 * IPv4 addresses embedded in IPv6 (mapped, NAT64, 6to4) judged as IPv4, and
 * public addresses that must pass. Each row names the block it expects, or
 * NULL for an address that may be crawled. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "net/addrguard.h"

struct test_addrguard_case {
	const char *addr;
	const char *block; /* expected block, NULL: allowed */
};

static const struct test_addrguard_case test_addrguard_cases[] = {
    /* IPv4 special-purpose registry. */
    {"0.0.0.0", "0.0.0.0/8"},
    {"0.255.255.255", "0.0.0.0/8"},
    {"1.0.0.0", NULL},
    {"9.255.255.255", NULL},
    {"10.0.0.0", "10.0.0.0/8"},
    {"10.0.0.1", "10.0.0.0/8"},
    {"10.255.255.255", "10.0.0.0/8"},
    {"11.0.0.0", NULL},
    {"100.63.255.255", NULL},
    {"100.64.0.0", "100.64.0.0/10"},
    {"100.127.255.255", "100.64.0.0/10"},
    {"100.128.0.0", NULL},
    {"126.255.255.255", NULL},
    {"127.0.0.1", "127.0.0.0/8"},
    {"127.255.255.255", "127.0.0.0/8"},
    {"128.0.0.0", NULL},
    {"169.253.255.255", NULL},
    {"169.254.0.0", "169.254.0.0/16"},
    {"169.254.169.254", "169.254.169.254/32"},
    {"169.254.169.253", "169.254.0.0/16"},
    {"169.254.255.255", "169.254.0.0/16"},
    {"169.255.0.0", NULL},
    {"172.15.255.255", NULL},
    {"172.16.0.0", "172.16.0.0/12"},
    {"172.31.255.255", "172.16.0.0/12"},
    {"172.32.0.0", NULL},
    {"191.255.255.255", NULL},
    {"192.0.0.0", "192.0.0.0/24"},
    {"192.0.0.9", "192.0.0.0/24"},
    {"192.0.0.170", "192.0.0.0/24"},
    {"192.0.0.255", "192.0.0.0/24"},
    {"192.0.1.0", NULL},
    {"192.0.2.0", "192.0.2.0/24"},
    {"192.0.2.255", "192.0.2.0/24"},
    {"192.0.3.0", NULL},
    {"192.31.196.1", "192.31.196.0/24"},
    {"192.52.193.1", "192.52.193.0/24"},
    {"192.88.99.0", "192.88.99.0/24"},
    {"192.88.99.255", "192.88.99.0/24"},
    {"192.88.100.0", NULL},
    {"192.167.255.255", NULL},
    {"192.168.0.0", "192.168.0.0/16"},
    {"192.168.255.255", "192.168.0.0/16"},
    {"192.169.0.0", NULL},
    {"192.175.48.1", "192.175.48.0/24"},
    {"198.17.255.255", NULL},
    {"198.18.0.0", "198.18.0.0/15"},
    {"198.19.255.255", "198.18.0.0/15"},
    {"198.20.0.0", NULL},
    {"198.51.100.0", "198.51.100.0/24"},
    {"198.51.100.255", "198.51.100.0/24"},
    {"198.51.101.0", NULL},
    {"203.0.112.255", NULL},
    {"203.0.113.0", "203.0.113.0/24"},
    {"203.0.113.255", "203.0.113.0/24"},
    {"203.0.114.0", NULL},
    {"223.255.255.255", NULL},
    {"224.0.0.0", "224.0.0.0/4"},
    {"239.255.255.255", "224.0.0.0/4"},
    {"240.0.0.0", "240.0.0.0/4"},
    {"255.255.255.254", "240.0.0.0/4"},
    {"255.255.255.255", "255.255.255.255/32"},
    {"8.8.8.8", NULL},
    {"93.184.216.34", NULL},

    /* IPv6 special-purpose registry. */
    {"::", "::/128"},
    {"::1", "::1/128"},
    {"::2", "::/8"},
    {"::7f00:1", "::/8"},	/* IPv4-compatible 127.0.0.1 */
    {"::808:808", "::/8"},	/* IPv4-compatible, public or not */
    {"::ffff:0:a00:1", "::/8"}, /* IPv4-translated (SIIT) */
    {"ff:ffff::", "::/8"},
    {"100::", "100::/64"},
    {"100::ffff:ffff:ffff:ffff", "100::/64"},
    {"100:0:0:1::1", "100:0:0:1::/64"},
    {"100:0:0:2::", "outside 2000::/3"},
    {"2001::", "2001::/32"},
    {"2001:0:ffff:ffff:ffff:ffff:ffff:ffff", "2001::/32"},
    {"2001:1::1", "2001::/23"},
    {"2001:2::", "2001:2::/48"},
    {"2001:2:0:ffff::", "2001:2::/48"},
    {"2001:3::1", "2001::/23"},
    {"2001:4:112::1", "2001::/23"},
    {"2001:10::1", "2001:10::/28"},
    {"2001:20::1", "2001:20::/28"},
    {"2001:2f:ffff::", "2001:20::/28"},
    {"2001:30::1", "2001::/23"},
    {"2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", "2001::/23"},
    {"2001:200::", NULL},
    {"2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", NULL},
    {"2001:db8::", "2001:db8::/32"},
    {"2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db8::/32"},
    {"2001:db9::", NULL},
    {"2620:4f:8000::1", "2620:4f:8000::/48"},
    {"2620:4f:8001::", NULL},
    {"3fff::1", "3fff::/20"},
    {"3fff:fff:ffff::", "3fff::/20"},
    {"3fff:1000::", NULL},
    {"5f00::1", "5f00::/16"},
    {"fc00::", "fc00::/7"},
    {"fd12:3456::1", "fc00::/7"},
    {"fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fc00::/7"},
    {"fe80::1", "fe80::/10"},
    {"febf:ffff::", "fe80::/10"},
    {"fec0::1", "outside 2000::/3"}, /* site-local, deprecated */
    {"ff02::1", "ff00::/8"},
    {"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ff00::/8"},
    {"1fff:ffff::", "outside 2000::/3"},
    {"4000::", "outside 2000::/3"},
    {"2000::", NULL},
    {"2606:4700::6810:84e5", NULL},
    {"2a00:1450:4001:80b::200e", NULL},
    {"3ffe::1", NULL},

    /* IPv4-mapped: the IPv4 address decides. */
    {"::ffff:127.0.0.1", "127.0.0.0/8"},
    {"::ffff:10.1.2.3", "10.0.0.0/8"},
    {"::ffff:169.254.169.254", "169.254.169.254/32"},
    {"::ffff:192.0.0.1", "192.0.0.0/24"},
    {"::ffff:198.18.0.1", "198.18.0.0/15"},
    {"::ffff:0.0.0.0", "0.0.0.0/8"},
    {"::ffff:8.8.8.8", NULL},
    /* NAT64 well-known prefix. */
    {"64:ff9b::7f00:1", "127.0.0.0/8"},
    {"64:ff9b::10.0.0.1", "10.0.0.0/8"},
    {"64:ff9b::a9fe:a9fe", "169.254.169.254/32"},
    {"64:ff9b::192.168.1.1", "192.168.0.0/16"},
    {"64:ff9b::224.0.0.1", "224.0.0.0/4"},
    {"64:ff9b::8.8.8.8", NULL},
    {"64:ff9b::1:0:0:1", "::/8"}, /* outside the /96: not an embedding */
    /* NAT64 local-use: refused whole. */
    {"64:ff9b:1::8.8.8.8", "64:ff9b:1::/48"},
    {"64:ff9b:1:ffff::", "64:ff9b:1::/48"},
    /* 6to4: the IPv4 address in bits 16-47. */
    {"2002:7f00:1::1", "127.0.0.0/8"},
    {"2002:a00:1::", "10.0.0.0/8"},
    {"2002:c0a8:101::1", "192.168.0.0/16"},
    {"2002:a9fe:a9fe::1", "169.254.169.254/32"},
    {"2002:6440:1::", "100.64.0.0/10"},
    {"2002:c058:6301::", "192.88.99.0/24"},
    {"2002:808:808::1", NULL},
    {"2002:5db8:d822::", NULL},
};

static void test_addrguard_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof test_addrguard_cases / sizeof test_addrguard_cases[0]; i++) {
		const struct test_addrguard_case *c = &test_addrguard_cases[i];
		struct sockaddr_storage ss;
		const struct addrguard_range *r;
		unsigned char raw[16];

		memset(&ss, 0, sizeof ss);
		if (inet_pton(AF_INET, c->addr, raw) == 1) {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
			s4->sin_family = AF_INET;
			memcpy(&s4->sin_addr, raw, 4);
			r = addrguard_v4(raw);
		} else {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
			assert_int_equal(inet_pton(AF_INET6, c->addr, raw), 1);
			s6->sin6_family = AF_INET6;
			memcpy(&s6->sin6_addr, raw, 16);
			r = addrguard_v6(raw);
		}
		/* The socket address form answers the same. */
		assert_ptr_equal(addrguard_sockaddr((const struct sockaddr *)&ss), r);
		if (c->block == NULL && r != NULL)
			fail_msg("%s: refused as %s (%s), should pass", c->addr, r->block, r->name);
		if (c->block != NULL && r == NULL)
			fail_msg("%s: passed, should be refused as %s", c->addr, c->block);
		if (c->block != NULL && strcmp(r->block, c->block) != 0)
			fail_msg("%s: refused as %s, expected %s", c->addr, r->block, c->block);
		if (r != NULL)
			assert_true(r->name != NULL && r->name[0] != '\0');
	}
}

/* A family that is neither IPv4 nor IPv6 is refused. */
static void test_addrguard_other_family(void **state)
{
	struct sockaddr_storage ss;

	(void)state;
	memset(&ss, 0, sizeof ss);
	ss.ss_family = AF_UNIX;
	assert_non_null(addrguard_sockaddr((const struct sockaddr *)&ss));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_addrguard_table),
	    cmocka_unit_test(test_addrguard_other_family),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
