/* SURT ("Sort-friendly URI Reordering Transform") forms of an href from
 * url_resolve, the queue (class) keys built from them, and registered
 * domains from the Public Suffix List.
 *
 * Two conventions exist and both are needed:
 * - Heritrix's, used for scope prefixes, [override] sections and queue keys:
 *   "http://(org,example,www,:8080@user)/path?q". Labels reversed, each
 *   followed by ','; a dotted IPv4 host is not reversed and gets no comma;
 *   the whole string is lower-cased, as SURT.fromURI does by default.
 * - pywb's CDX key (Python surt / IAURLCanonicalizer), used by warc-index:
 *   "org,example)/path?q". No scheme, no trailing comma, leading "www\d*."
 *   stripped, IP hosts reversed too (bug-for-bug, so CDXJ sorts as pywb's),
 *   userinfo dropped, path and query lower-cased, a trailing '/' dropped
 *   unless the path is "/", query session ids stripped, query arguments
 *   sorted, an empty query dropped. Unlike pywb, percent-escapes are not
 *   re-normalized (url_resolve already wrote them in the browser's form). */
#ifndef TERN_SURT_H
#define TERN_SURT_H
#include <stddef.h>
#include "lib/buf.h"

/* with_scheme=1: Heritrix's form; with_scheme=0: pywb's CDX key. The
 * fragment is dropped in both. 0 or URL_EINVAL; out is reset first. */
int surt_from_url(const char *href, int with_scheme, struct buf *out);

/* The _parts forms take the href already split (p from url_split): a
 * scheduled link is split once for all its keys. */
struct url_parts;
int surt_from_parts(const char *href, const struct url_parts *p, int with_scheme, struct buf *out);

/* Same order as the frontier.queue-assignment choices. */
/* The key [override "PREFIX"] sections match: Heritrix's SURT without its
 * scheme and parenthesis ("test,web,h1,:8080)/p/1.html"), so that http and
 * https URIs of a site share overrides. */
int surt_override_key(const char *href, struct buf *out);
/* The same from an href already split by url_split. */
int surt_override_key_parts(const char *href, const struct url_parts *p, struct buf *out);

enum surt_assign {
	SURT_ASSIGN_AUTHORITY = 0,
	SURT_ASSIGN_HOSTNAME,
	SURT_ASSIGN_REGDOMAIN,
	SURT_ASSIGN_IP,
};

/* The queue key of an href (out reset first), ':' written as '#' as Heritrix
 * does to keep keys usable as file names:
 * - AUTHORITY (SurtAuthorityQueueAssignmentPolicy): "org,example,www," plus
 *   "#8080" for an explicit port and "@user" if there is userinfo; http and
 *   https of one host and port share a queue. IPv4 is not reversed.
 * - HOSTNAME (HostnameQueueAssignmentPolicy): "www.example.org", "#8080" for
 *   an explicit port, "#443" for https without one.
 * - REGDOMAIN (AssignmentLevelSurt): the SURT of the registered domain,
 *   "org,example,", without the port; an IP host stands for itself.
 * - IP: an IP literal host as it is (with "#port" if explicit); a name falls
 *   back to HOSTNAME, as Heritrix's IPQueueAssignmentPolicy does until the
 *   address is known (the caller, who knows it, uses surt_ip_queue_key). */
int surt_queue_key(const char *href, enum surt_assign how, struct buf *out);
int surt_queue_key_parts(
    const char *href, const struct url_parts *p, enum surt_assign how, struct buf *out);

/* The IP queue key of an href whose host resolved to ip (text, as
 * inet_ntop writes it): the address, bracketed if IPv6, then "#port" for an
 * explicit port, as surt_queue_key writes an IP literal host, so that a name
 * and the address it resolves to share one queue. out is reset first. */
int surt_ip_queue_key(const char *href, const char *ip, struct buf *out);
int surt_ip_queue_key_parts(const struct url_parts *p, const char *ip, struct buf *out);

/* Heritrix's parallelQueues: with n > 1, appends "+k" to the key in out,
 * k in 1..n-1 chosen by a consistent hash (jump consistent hashing of a
 * 64-bit FNV-1a) of the href's first path segment, the text between the
 * path's first and second '/'. A path with a single segment ("/",
 * "/index.html") and k = 0 append nothing, so n = 1 keeps every key, and
 * raising n moves only about 1/n of the segments to a new sub-queue.
 * 0, or URL_EINVAL for an href url_split refuses. */
int surt_parallel_suffix(const char *href, int n, struct buf *out);
int surt_parallel_suffix_parts(const char *href, const struct url_parts *p, int n, struct buf *out);

/* The host a queue key stands for (the inverse of surt_queue_key for what
 * the console shows of a queue): "org,example,www,#8080+2" and
 * "www.example.org#443" give "www.example.org", "org,example," gives
 * "example.org", an IP key its address; the port, userinfo and parallel
 * suffix are dropped. out is reset first. */
void surt_queue_host(const char *key, struct buf *out);

/* The registered domain (public suffix plus one label) of an ASCII host,
 * into out (reset first). IP literals are copied as they are (libpsl would
 * turn 127.0.0.1 into "0.1"); a host that is itself a public suffix, or has
 * no known suffix, is its own registered domain. */
int surt_registered_domain(const char *host, struct buf *out);

/* Heritrix's implied SURT prefix of a seed (SurtPrefixSet
 * prefixFromPlainForceHttp): the SURT cut after its last '/' and with https
 * written as http, so http://example.org/a/b.html gives
 * "http://(org,example,)/a/". Like Heritrix, the cut is at the last '/' of
 * the whole SURT, even one inside the query. */
int surt_seed_prefix(const char *href, struct buf *out);

/* The same for a seed as the operator wrote it (len bytes): a missing
 * scheme means http, and a seed with no path and no trailing slash
 * ("example.org", "http://example.org") gives the open prefix
 * "http://(org,example," that also covers subdomains, as in Heritrix. */
int surt_seed_prefix_plain(const char *seed, size_t len, struct buf *out);

#endif
