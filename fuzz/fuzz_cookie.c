/* libFuzzer target for src/lib/cookie.c: the input is tried as a Set-Cookie
 * value for a name and an address, as a cookie-date, as a cookies.txt line
 * and as a store record. Checks that nothing crashes, that a cookie taken
 * keeps the storage model's promises (a name, a domain the host matches or
 * the host itself, a path from '/', no control bytes in what a Cookie
 * header would carry) and that its record reads back the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/cookie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_NOW 1700000000000LL

static void fuzz_cookie_check(const struct cookie *c)
{
	struct buf b = BUF_INIT;
	struct cookie d;
	const char *p;

	if (c->name[0] == '\0' || c->domain[0] == '\0' || c->path[0] != '/')
		abort();
	for (p = c->name; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			abort();
	for (p = c->value; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			abort();
	cookie_encode(&b, c);
	if (cookie_decode(b.data, b.len, &d) < 0)
		abort();
	if (strcmp(d.name, c->name) != 0 || strcmp(d.value, c->value) != 0 ||
	    strcmp(d.domain, c->domain) != 0 || strcmp(d.path, c->path) != 0 ||
	    d.expires_ms != c->expires_ms || d.created_ms != c->created_ms ||
	    d.persistent != c->persistent || d.host_only != c->host_only || d.secure != c->secure ||
	    d.http_only != c->http_only)
		abort();
	cookie_clear(&d);
	buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct cookie_origin origins[] = {
	    {"www.example.com", 0, "/a/b", 4, 1},
	    {"192.0.2.1", 1, "/", 1, 0},
	    {"x.github.io", 0, "", 0, 0},
	};
	const char *s = (const char *)data;
	struct cookie c;
	const char *why;
	int64_t ms;
	size_t i;

	for (i = 0; i < sizeof origins / sizeof origins[0]; i++) {
		if (cookie_parse(s, size, &origins[i], FUZZ_NOW, &c, &why) < 0) {
			if (why == NULL)
				abort();
			continue;
		}
		if (c.host_only
			? strcmp(c.domain, origins[i].host) != 0
			: !cookie_domain_match(origins[i].host, origins[i].host_ip, c.domain))
			abort();
		if (!cookie_expired(&c, FUZZ_NOW) && !c.secure &&
		    !cookie_matches(&c, &origins[i], FUZZ_NOW) &&
		    cookie_path_match(origins[i].path, origins[i].path_len, c.path))
			abort();
		fuzz_cookie_check(&c);
		cookie_clear(&c);
	}
	(void)cookie_date_parse(s, size, &ms);
	if (cookie_from_netscape(s, size, FUZZ_NOW, &c, &why) == 0) {
		fuzz_cookie_check(&c);
		cookie_clear(&c);
	}
	if (cookie_decode(s, size, &c) == 0) {
		struct cookie_origin o = {c.domain, 0, c.path, strlen(c.path), 1};
		(void)cookie_matches(&c, &o, FUZZ_NOW);
		cookie_clear(&c);
	}
	return 0;
}
