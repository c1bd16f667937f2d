/* The crawl's cookies (tern.conf(5), fetch.cookies): the jar
 * (crawl/cookiejar.h) read back from the frontier's store at start, a
 * Netscape cookies.txt given by fetch.cookie-file set on top of it, the
 * Cookie header of each request and the Set-Cookie headers of each
 * response, and the jar's changes handed to the frontier's batch before
 * each of its writes (frontier/cookiestore.h), so that the jar a resume or
 * a restored checkpoint finds is the one of the URIs it finds done.
 *
 * Cookies are on by default, as in Heritrix and wget2; fetch.cookies =
 * false turns them off for the whole crawl or, in an [override] section,
 * for the URIs under a SURT prefix: those requests carry no Cookie and
 * their Set-Cookie headers are not kept. */
#ifndef TERN_CRAWL_COOKIES_H
#define TERN_CRAWL_COOKIES_H
#include <stddef.h>

struct config;
struct fetch;
struct frontier;
struct url_parts;
struct cookies;

/* Opens the jar: the store's cookies, then the cookie file's (a line it
 * cannot read fails the start, *err naming the file and the line). *said
 * (allocated) tells what was read, for tern.log. 0 or -1 and *err. */
int cookies_open(
    const struct config *cfg, struct frontier *f, struct cookies **out, char **said, char **err);
void cookies_close(struct cookies *c);
/* Whether URIs with that override SURT take part (fetch.cookies). */
int cookies_on(const struct cookies *c, const char *surt);
/* The Cookie header value for a request to href (split as p), or NULL:
 * none match. Valid until the next call. */
const char *cookies_for(struct cookies *c, const char *href, const struct url_parts *p);
/* Takes the Set-Cookie headers of f's response to href (split as p) into
 * the jar. The counts (each may be NULL): changed, the cookies that changed
 * what a request carries (new, a new value, removed); refused, those
 * cookie_parse refuses (too large, a Domain outside the host, a public
 * suffix); evicted, those that left the jar for room. */
void cookies_receive(struct cookies *c, const char *href, const struct url_parts *p,
    struct fetch *f, size_t *changed, size_t *refused, size_t *evicted);
/* Puts the jar's changes into the frontier's pending batch. */
void cookies_flush(struct cookies *c);
size_t cookies_count(const struct cookies *c);

#endif
