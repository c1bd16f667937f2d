/* The already-seen key of a URI: Heritrix's default canonicalization rules
 * (RulesCanonicalizationPolicy.getDefaultRules), applied in Heritrix's order
 * to an href from url_resolve. The key only decides whether a URI was seen
 * before; the URI fetched and written to WARC and crawl.log is the original.
 *
 * Before the rules, as Heritrix's UURI does for every URI: the fragment and
 * an explicit default port are dropped (url_resolve already lower-cases the
 * scheme and the host, so these hold even with CANON_LOWERCASE off). Then:
 * - CANON_LOWERCASE: LowercaseRule lower-cases the whole URI, path and query
 *   included (so /A and /a share a key, as in Heritrix).
 * - CANON_STRIP_USERINFO: StripUserinfoRule drops "user:pass@".
 * - CANON_STRIP_WWW: StripWWWNRule drops a leading "www.", "www1." ...
 *   only when something follows the first '/' after the host, so that
 *   http://www.example.com/ keeps its www (as Heritrix's regex does).
 * - CANON_STRIP_SESSION_IDS: StripSessionIDs removes one jsessionid= or
 *   phpsessid= with 32 alphanumerics, one sid= with 32 alphanumerics and one
 *   ASPSESSIONIDxxxxxxxx= with 24 letters (each the last occurrence followed
 *   by '&' or the end; the '&' after it goes too, the '?' or '&' before stays).
 * - CANON_STRIP_CFIDS: StripSessionCFIDs removes "cfid=..&cftoken=.."
 *   (and a following "jsession=..").
 * - CANON_FIXUP_QUERY: FixupQueryString, on the last '?': a trailing '?' or
 *   "?&" goes, "?&x" becomes "?x", a trailing '&' goes. */
#ifndef TERN_CANON_H
#define TERN_CANON_H
#include "lib/buf.h"

struct config;

enum {
	CANON_LOWERCASE = 1,
	CANON_STRIP_USERINFO = 2,
	CANON_STRIP_WWW = 4,
	CANON_STRIP_SESSION_IDS = 8,
	CANON_STRIP_CFIDS = 16,
	CANON_FIXUP_QUERY = 32,
	CANON_DEFAULT = 63,
};

/* The flags from the [canonicalize] keys: lowercase, strip-userinfo,
 * strip-www, strip-session-ids, strip-cfids, fixup-query. */
unsigned canon_flags(const struct config *cfg);

/* Writes the key of href into out (reset first). Returns 0, or URL_EINVAL
 * if href is not an http(s) href as url_resolve writes them. */
int canon_key(const char *href, unsigned flags, struct buf *out);
struct url_parts;
/* The same for an href already split (p from url_split), for callers
 * that need its parts for other keys too. */
int canon_key_parts(const char *href, const struct url_parts *p, unsigned flags, struct buf *out);

#endif
