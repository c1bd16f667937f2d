/* The crawl's cookie jar, without I/O: the cookies servers set (RFC 6265,
 * lib/cookie.h), by domain, with the Cookie header a request carries, and
 * bounds that hold whatever servers send: a cookie of more than 4096 bytes
 * never gets here (cookie_parse), a domain keeps at most per_domain
 * cookies and the jar at most total; past either the least recently used
 * (set or sent) is evicted, as RFC 6265 section 5.3 says. The jar's memory
 * is thus at most total cookies of 4 KiB and their bookkeeping.
 *
 * Every change is remembered by key until cookiejar_drain hands it on, so
 * that the crawl writes it to the frontier's store (src/crawl/cookies.c)
 * in the same batch as the frontier's own changes. */
#ifndef TERN_COOKIEJAR_H
#define TERN_COOKIEJAR_H
#include <stddef.h>
#include <stdint.h>

struct buf;
struct cookie;
struct cookie_origin;
struct cookiejar;

/* The Cookie header a request carries is cut at this many bytes (the
 * cookies of longest path and oldest creation go first), under the 8 KiB a
 * header line may take in nginx's and Apache's defaults: a server that set
 * more than that sees the rest left out rather than a request it refuses
 * with 400. */
#define COOKIEJAR_MAX_HEADER 8000

struct cookiejar *cookiejar_new(size_t per_domain, size_t total);
void cookiejar_free(struct cookiejar *j);
/* Takes *c (left empty): stores it, replacing the cookie of the same name,
 * domain and path (whose creation time it keeps; the same cookie again is
 * only marked used), or, if c is already expired, removes that cookie.
 * Returns the number of cookies evicted for room (per domain or in all). */
size_t cookiejar_set(struct cookiejar *j, struct cookie *c, int64_t now_ms);
/* The same for a cookie read back from the store: not remembered as a
 * change (an expired one is, so that the store forgets it). */
size_t cookiejar_load(struct cookiejar *j, struct cookie *c, int64_t now_ms);
/* The Cookie header value for a request to o into out (reset): RFC 6265
 * section 5.4's order, at most COOKIEJAR_MAX_HEADER bytes. Returns the
 * number of cookies in it; the cookies sent count as used, and expired ones
 * met are removed. */
size_t cookiejar_header(
    struct cookiejar *j, const struct cookie_origin *o, int64_t now_ms, struct buf *out);
size_t cookiejar_count(const struct cookiejar *j);
/* A count that grows each time a request would carry something new: a
 * cookie added, given a new value or removed (a new expiry alone does not
 * count). */
uint64_t cookiejar_news(const struct cookiejar *j);
/* Bytes of names, values, domains and paths held. */
size_t cookiejar_bytes(const struct cookiejar *j);
/* Hands every cookie changed since the last drain to fn: c is the cookie
 * as it stands, or NULL when it left the jar (its key still given). */
typedef void cookiejar_change_fn(
    void *arg, const char *domain, const char *path, const char *name, const struct cookie *c);
void cookiejar_drain(struct cookiejar *j, cookiejar_change_fn *fn, void *arg);

#endif
