/* URL parsing and resolution the way a browser does it (WHATWG URL Standard,
 * "basic URL parser"), for the two schemes a crawler fetches: http and https.
 *
 * Written by hand because no C library is browser-compatible: libcurl's CURLU
 * and uriparser follow RFC 3986 (no backslash-as-slash, no "http:foo" against
 * an http base, no IPv4 shorthand, no tab stripping, no UTS#46 IDNA), and a
 * crawler that resolves links differently from the browser used for replay
 * misses or invents URLs. Correctness is checked against every entry of
 * web-platform-tests' urltestdata.json (tests/lib/test_urltestdata.c, the
 * data in tests/wpt/) and by a differential test against Node's built-in URL
 * (tests/lib/url_diff.sh); the deliberate differences are listed, with reasons,
 * in those two tests.
 *
 * Deliberate choices beyond the standard:
 * - Input bytes that are not valid UTF-8 are percent-encoded as they are in
 *   paths, queries and fragments (a browser would first decode them with the
 *   page's charset); in hosts they are an error.
 * - Queries are always encoded as UTF-8 (a browser uses the page's charset).
 * - IDNA is IDNA2008 as libidn2 does it, so a few hosts browsers accept are
 *   refused: labels whose punycode exceeds 63 bytes, bidi-rule failures,
 *   non-ASCII labels mixed with ASCII punctuation. None can be in DNS.
 * - Inputs longer than URL_MAX_LEN bytes, or results longer than that, give
 *   URL_ETOOLONG, so hostile pages cannot make one link cost megabytes. */
#ifndef TERN_URL_H
#define TERN_URL_H
#include <stddef.h>
#include "lib/buf.h"

enum {
	URL_EINVAL = -1,
	URL_ESCHEME = -2, /* valid, but not http/https */
	URL_ETOOLONG = -3,
};

#define URL_MAX_LEN 16384

/* Resolves ref (len bytes, not NUL-terminated, raw from HTML: may have
 * spaces, tabs, newlines, backslashes) against the absolute base href (NULL
 * if ref must be absolute) the way a browser does, and writes the serialized
 * href into out (reset first). Only http and https results are accepted
 * (others give URL_ESCHEME): a crawler never fetches javascript:, mailto:,
 * data:. Hosts: IDNA to ASCII via libidn2 (UTS#46 nontransitional), IPv4
 * forms like 127.1, 0x7f.1, 2130706433 canonicalized; IPv6 compressed;
 * percent-encoding as the standard's encode sets; default port dropped.
 * Fragment kept in the href. On error out is left empty. */
int url_resolve(const char *base, const char *ref, size_t len, struct buf *out);

struct url_parts;

/* The same with the base already resolved and split (base is an href from
 * url_resolve, bp its url_split), for callers resolving many links against
 * one page: it saves re-parsing the base for each link. */
int url_resolve_parsed(
    const char *base, const struct url_parts *bp, const char *ref, size_t len, struct buf *out);

struct url_parts { /* offsets into href */
	size_t scheme_len;
	size_t user_off, user_len;   /* userinfo without '@', len 0 if none */
	size_t host_off, host_len;   /* ASCII host; IPv6 with brackets */
	int port;		     /* explicit or default (80/443) */
	int has_port;		     /* port was explicit in the href */
	size_t path_off, path_len;   /* from '/' up to '?' or '#' */
	size_t query_off, query_len; /* without '?' */
	int has_query;
	size_t frag_off, frag_len; /* without '#' */
	int has_frag;
	int https;
	int host_ip; /* 0 name, 4, 6 */
};

/* Splits an href produced by url_resolve (fast, no validation beyond
 * structure): 0, or URL_EINVAL if it is not "http(s)://host/...". */
int url_split(const char *href, struct url_parts *p);

/* Appends ":PORT" (keys and SURTs write explicit ports on every link of a
 * site on a non-default port: no printf). */
void url_append_port(struct buf *out, int port);

/* "/path?query" for the request line (fragment dropped), into out (reset
 * first). */
void url_request_target(const char *href, const struct url_parts *p, struct buf *out);

#endif
