/* HTTP cookies as RFC 6265 defines them, without I/O: a Set-Cookie header
 * parsed and judged against the request it came with (sections 5.2 and 5.3:
 * the cookie-date algorithm, Max-Age, Domain with no cookie for a public
 * suffix, Path, Secure, HttpOnly), the domain and path matching that decide
 * which requests carry a cookie, a line of a Netscape cookies.txt file, and
 * the record the frontier's store keeps (doc/frontier.md). The jar that
 * holds them is the crawl's (src/crawl/cookiejar.c); the frontier stores
 * the records, so both floors share this file.
 *
 * SameSite is read as any unknown attribute and ignored: it restricts what
 * a browser sends on requests one site's page makes to another, and a
 * crawler has no first-party page, every request is its own navigation.
 * HttpOnly is parsed and kept, and means nothing here (no script reads the
 * jar). */
#ifndef TERN_COOKIE_H
#define TERN_COOKIE_H
#include <stddef.h>
#include <stdint.h>

struct buf;

/* The largest Set-Cookie value (name, value and attributes) kept, RFC 6265
 * section 6.1's figure; a larger one is refused whole. */
#define COOKIE_MAX_BYTES 4096

struct cookie {
	char *name, *value;
	char *domain; /* lower case, no leading dot */
	char *path;
	int64_t expires_ms; /* persistent cookies: ms since the epoch */
	uint64_t created_ms;
	unsigned char persistent, host_only, secure, http_only;
};

/* The request a Set-Cookie answered: its host (lower case ASCII, without
 * IPv6 brackets), whether that is an IP address, its path (from '/', no
 * query) and whether it went over TLS. */
struct cookie_origin {
	const char *host;
	int host_ip;
	const char *path;
	size_t path_len;
	int https;
};

/* Parses the Set-Cookie value s[0..n) received for o at now_ms and applies
 * the storage model: 0 and *out filled (cookie_clear it), or -1 and *why, a
 * static sentence, when the cookie is refused (no name, too large, a
 * control byte, a Domain the host is not in, a public suffix). A cookie
 * already expired is returned (0): it deletes its namesake from the jar. */
int cookie_parse(const char *s, size_t n, const struct cookie_origin *o, int64_t now_ms,
    struct cookie *out, const char **why);
void cookie_clear(struct cookie *c);
/* A deep copy. */
void cookie_copy(struct cookie *dst, const struct cookie *src);

/* RFC 6265 section 5.1.1's cookie-date: 0 and *ms, or -1. */
int cookie_date_parse(const char *s, size_t n, int64_t *ms);
/* Section 5.1.3: host is domain or a name under it (never an IP address). */
int cookie_domain_match(const char *host, int host_ip, const char *domain);
/* Section 5.1.4: the request path path[0..n) is in the cookie path cpath. */
int cookie_path_match(const char *path, size_t n, const char *cpath);
/* Section 5.1.4's default-path of a request path, into out (reset). */
void cookie_default_path(const char *path, size_t n, struct buf *out);
/* Whether a request to o carries c at now_ms (domain, path, Secure and
 * expiry). */
int cookie_matches(const struct cookie *c, const struct cookie_origin *o, int64_t now_ms);
int cookie_expired(const struct cookie *c, int64_t now_ms);
/* Whether the domain is a public suffix (libpsl's list, private
 * registries such as github.io included, as browsers do). */
int cookie_public_suffix(const char *domain);

/* One line of a Netscape cookies.txt (domain, include-subdomains,
 * path, secure, expiry in seconds, name, value, tab-separated; a
 * "#HttpOnly_" prefix): 0 and *out, 1 for a line that holds no cookie
 * (blank or a comment), -1 and *why (static) for a malformed one. */
int cookie_from_netscape(
    const char *line, size_t n, int64_t now_ms, struct cookie *out, const char **why);

/* The store's record of a cookie (doc/frontier.md, "Store layout"), and
 * back: 0, or -1 for a malformed value (*out then empty). */
void cookie_encode(struct buf *out, const struct cookie *c);
int cookie_decode(const char *v, size_t n, struct cookie *out);

#endif
