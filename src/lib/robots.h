/* robots.txt per RFC 9309: parsing, the access verdict for a path, and what a
 * fetch outcome of /robots.txt means. Pure: no I/O, no clock.
 *
 * Choices where RFC 9309 leaves room (each one is exercised by
 * tests/lib/test_robots.c and, where robots-parser differs, listed with its reason
 * in tests/lib/robots_diff_allowed.txt):
 * - Only the first ROBOTS_MAX_BODY bytes are parsed (the RFC asks for at least
 *   500 KiB); a line cut by that limit is dropped rather than half-applied, as
 *   Heritrix does, because a truncated "Allow: /private/page" would become a
 *   broader rule than the file meant.
 * - The product token of a user-agent line is its leading run of letters,
 *   digits, '-' and '_' ("tern/2.0" and "Tern bot" both name "tern"), as
 *   Google's reference parser extracts it; a value starting with '*' followed
 *   by nothing or whitespace is the global group.
 * - Only allow, disallow and crawl-delay lines close a run of user-agent
 *   lines; sitemap and unknown records are skipped and do not split a group.
 * - A group that names our agent is used even when it has no rules (then
 *   everything is allowed), as RFC 9309 section 2.2.1 says: the '*' group is
 *   only for crawlers no group names.
 * - Paths and patterns are normalised the same way before comparison:
 *   percent-escapes get uppercase hex, escapes of unreserved characters
 *   (ALPHA DIGIT - . _ ~) are decoded, and bytes that may not appear in a URI
 *   (controls, space, non-ASCII, " < > [ \ ] ^ ` { | }) are escaped. An escaped
 *   reserved character such as %2F stays distinct from '/'.
 * - A UTF-8 byte-order mark at the start, or any prefix of one (EF BB, EF),
 *   is skipped, as Google's parser does.
 * - Crawl-delay is kept only when its value is a plain decimal number of
 *   seconds; the last one in the chosen (merged) group wins; values above
 *   ROBOTS_MAX_CRAWL_DELAY_MS are clamped to it.
 *
 * Cost: robots_allowed is linear in the size of the chosen group's patterns
 * plus (number of rules x path length) in the worst case; patterns without
 * wildcards cost a prefix comparison. */
#ifndef TERN_ROBOTS_H
#define TERN_ROBOTS_H
#include <stddef.h>
#include <stdint.h>

struct buf;
struct robots;

#define ROBOTS_MAX_BODY (500 * 1024)
#define ROBOTS_MAX_CRAWL_DELAY_MS ((int64_t)86400 * 1000)

/* Never fails: malformed lines are skipped. agent is the product token
 * ("tern"), matched case-insensitively; NULL or "" uses only the '*' group. */
struct robots *robots_parse(const char *body, size_t len, const char *agent);
struct robots *robots_allow_all(void);
struct robots *robots_disallow_all(void);
/* 1 for a verdict of robots_disallow_all (robots.txt could not be read:
 * a server error, or a failure, under robots.on-server-error=disallow),
 * 0 for one read from a file (even one that disallows everything). */
int robots_is_unavailable(const struct robots *r);

/* What a fetch of /robots.txt means, after the caller followed up to 5
 * redirects: 2xx parses the body; 3xx (redirects exhausted) and 4xx allow
 * all, except 429 which, like Google, counts as the server being unreachable;
 * 5xx, 429, any other status and negative (network failure) statuses
 * disallow all unless server_error_allow is set (robots.on-server-error). */
struct robots *robots_from_fetch(
    int status, const char *body, size_t len, const char *agent, int server_error_allow);

/* 1 allowed, 0 disallowed. path_query is the path and query of the URI
 * (without the fragment); "/robots.txt" itself is always allowed. */
int robots_allowed(const struct robots *r, const char *path_query, size_t len);
/* -1 when the chosen group gives no Crawl-delay. */
int64_t robots_crawl_delay_ms(const struct robots *r);
/* Bytes held, for memory accounting. */
size_t robots_size(const struct robots *r);
/* Number of distinct rules kept for the chosen group (for reports and tests). */
size_t robots_rule_count(const struct robots *r);
void robots_free(struct robots *r);

/* The Sitemap: records of a robots.txt body (RFC 9309 section 2.3.5: not
 * part of any group), each value with white space trimmed, in order, to
 * cb; over the same first ROBOTS_MAX_BODY bytes the rules are read from. */
void robots_sitemaps(
    const char *body, size_t len, void (*cb)(void *arg, const char *url, size_t n), void *arg);

/* The product token of a User-Agent header: "tern" from
 * "tern/0.1.0 (+https://...)". out always gets a NUL-terminated string. */
void robots_agent_token(const char *user_agent, char *out, size_t outlen);

/* A compact, versioned form of the verdict (rules of the chosen group and the
 * crawl delay) for LevelDB and checkpoints. robots_serialize appends to out
 * and returns 0. robots_deserialize returns NULL on any corrupt input. */
int robots_serialize(const struct robots *r, struct buf *out);
struct robots *robots_deserialize(const char *data, size_t len);

#endif
