/* What became of a fetch or a URI, by name rather than by number.
 *
 * Three lists, each one X-macro so that a name, its number, its word and its
 * message are written once (tests/lib/test_status.c checks them):
 *   STATUS_CODES   Heritrix's fetch status codes, crawl.log's status column
 *                  for everything that is not an HTTP status (doc/formats.md);
 *   STATUS_CAUSES  the causes tern tells apart within those codes, each with
 *                  the code it is logged with, its group, the word crawl.log
 *                  annotates it with (err:WORD), a message for a person and
 *                  the settings that change it;
 *   STATUS_GROUPS  what the end summary and reports/stats.json count
 *                  failures by, with the settings that change each.
 * Pure: names and tables only. */
#ifndef TERN_STATUS_H
#define TERN_STATUS_H

/* X(NAME, code, message). Heritrix's S_DOMAIN_UNRESOLVABLE is DNS_FAILED,
 * S_DOMAIN_PREREQUISITE_FAILURE DNS_PREREQ, S_UNFETCHABLE_URI UNFETCHABLE,
 * S_ROBOTS_PREREQUISITE_FAILURE ROBOTS_PREREQ, S_TOO_MANY_LINK_HOPS
 * TOO_MANY_HOPS; the others keep their names without S_. */
#define STATUS_CODES(X)                                         \
	X(DNS_SUCCESS, 1, "DNS lookup succeeded")               \
	X(DNS_FAILED, -1, "DNS lookup failed")                  \
	X(CONNECT_FAILED, -2, "connect failed")                 \
	X(CONNECT_LOST, -3, "connection lost")                  \
	X(TIMEOUT, -4, "timeout: no response head in time")     \
	X(DNS_PREREQ, -6, "DNS prerequisite failed")            \
	X(UNFETCHABLE, -7, "unfetchable URI")                   \
	X(TOO_MANY_RETRIES, -8, "too many retries")             \
	X(ROBOTS_PREREQ, -61, "robots.txt prerequisite failed") \
	X(DEEMED_NOT_FOUND, -404, "deemed not found")           \
	X(TOO_MANY_HOPS, -4001, "too many link hops")           \
	X(OUT_OF_SCOPE, -5000, "out of scope")                  \
	X(BLOCKED_BY_USER, -5001, "blocked by a setting")       \
	X(ROBOTS_PRECLUDED, -9998, "robots.txt precluded the fetch")

enum status_code {
#define STATUS_X(name, code, msg) STATUS_##name = (code),
	STATUS_CODES(STATUS_X)
#undef STATUS_X
};

/* X(NAME, word, label, settings): label names the group in the summary;
 * settings ("" when none applies) are what a person changes about it. A
 * new group goes last: a job's totals keep the counts by their place
 * (src/crawl/jobtotals.c), across runs of different versions. */
#define STATUS_GROUPS(X)                                                                       \
	X(OTHER, "other", "other failures", "")                                                \
	X(ROBOTS, "robots", "refused by robots.txt", "robots.policy, robots.on-server-error")  \
	X(PRIVATE, "private", "private addresses refused", "fetch.allow-private-addresses")    \
	X(DNS, "dns", "DNS failures", "dns.servers, dns.timeout-ms, dns.tries")                \
	X(CONNECT, "connect", "connect failures",                                              \
	    "fetch.connect-timeout-ms, frontier.max-retries, frontier.retry-delay-seconds")    \
	X(TLS, "tls", "TLS failures", "fetch.tls-verify, fetch.ca-file")                       \
	X(TIMEOUT, "timeout", "timeouts", "fetch.timeout-seconds, fetch.idle-timeout-seconds") \
	X(LOST, "lost", "connections lost or broken responses", "")                            \
	X(HTTP, "http", "HTTP 4xx/5xx answers (counted among the pages too)", "")

enum status_group {
#define STATUS_X(name, word, label, settings) STATUS_GROUP_##name,
	STATUS_GROUPS(STATUS_X)
#undef STATUS_X
	    STATUS_GROUP_COUNT
};

/* X(NAME, code, group, word, message, settings). code is the status a URI
 * that failed so is logged with (0: an HTTP status, or none); settings (""
 * when none applies) are what changes this very cause. NONE is no cause. */
#define STATUS_CAUSES(X)                                                                           \
	X(NONE, 0, OTHER, "", "", "")                                                              \
	X(DNS_NXDOMAIN, STATUS_DNS_PREREQ, DNS, "dns-nxdomain", "name does not exist (NXDOMAIN)",  \
	    "dns.servers")                                                                         \
	X(DNS_NO_ADDRESS, STATUS_DNS_PREREQ, DNS, "dns-no-address", "name has no address",         \
	    "dns.servers")                                                                         \
	X(DNS_TIMEOUT, STATUS_DNS_PREREQ, DNS, "dns-timeout", "no DNS answer in time",             \
	    "dns.servers, dns.timeout-ms, dns.tries")                                              \
	X(DNS_SERVER_FAILURE, STATUS_DNS_PREREQ, DNS, "dns-server-failure",                        \
	    "DNS server failed or refused", "dns.servers")                                         \
	X(DNS_FAILED, STATUS_DNS_PREREQ, DNS, "dns-failed", "DNS lookup failed", "dns.servers")    \
	X(PRIVATE_ADDRESS, STATUS_UNFETCHABLE, PRIVATE, "private-address",                         \
	    "private, loopback or reserved address refused", "fetch.allow-private-addresses")      \
	X(BAD_URL, STATUS_UNFETCHABLE, OTHER, "bad-url", "URL cannot be fetched", "")              \
	X(CONNECT_REFUSED, STATUS_CONNECT_FAILED, CONNECT, "connection-refused",                   \
	    "connection refused", "frontier.retry-delay-seconds, frontier.max-retries")            \
	X(CONNECT_TIMEOUT, STATUS_CONNECT_FAILED, CONNECT, "connect-timeout", "connect timed out", \
	    "fetch.connect-timeout-ms")                                                            \
	X(CONNECT_UNREACHABLE, STATUS_CONNECT_FAILED, CONNECT, "unreachable",                      \
	    "host or network unreachable", "frontier.retry-delay-seconds, frontier.max-retries")   \
	X(CONNECT_FAILED, STATUS_CONNECT_FAILED, CONNECT, "connect-failed", "connect failed",      \
	    "frontier.retry-delay-seconds, frontier.max-retries")                                  \
	X(TLS_SELF_SIGNED, STATUS_CONNECT_FAILED, TLS, "tls-verify:self-signed",                   \
	    "certificate verify failed (self-signed)", "fetch.tls-verify, fetch.ca-file")          \
	X(TLS_UNKNOWN_ISSUER, STATUS_CONNECT_FAILED, TLS, "tls-verify:unknown-issuer",             \
	    "certificate verify failed (unknown issuer)", "fetch.ca-file, fetch.tls-verify")       \
	X(TLS_EXPIRED, STATUS_CONNECT_FAILED, TLS, "tls-verify:expired",                           \
	    "certificate verify failed (expired)", "fetch.tls-verify")                             \
	X(TLS_NOT_YET_VALID, STATUS_CONNECT_FAILED, TLS, "tls-verify:not-yet-valid",               \
	    "certificate verify failed (not yet valid)", "fetch.tls-verify")                       \
	X(TLS_NAME_MISMATCH, STATUS_CONNECT_FAILED, TLS, "tls-verify:name-mismatch",               \
	    "certificate verify failed (name mismatch)", "fetch.tls-verify")                       \
	X(TLS_VERIFY, STATUS_CONNECT_FAILED, TLS, "tls-verify", "certificate verify failed",       \
	    "fetch.tls-verify, fetch.ca-file")                                                     \
	X(TLS_HANDSHAKE, STATUS_CONNECT_FAILED, TLS, "tls-handshake", "TLS handshake failed",      \
	    "fetch.tls-verify")                                                                    \
	X(TLS_TIMEOUT, STATUS_CONNECT_FAILED, TLS, "tls-timeout", "TLS handshake timed out",       \
	    "fetch.connect-timeout-ms")                                                            \
	X(CONNECTION_LOST, STATUS_CONNECT_LOST, LOST, "connection-lost", "connection lost", "")    \
	X(BAD_RESPONSE, STATUS_CONNECT_LOST, LOST, "bad-response", "malformed response",           \
	    "fetch.max-header-bytes")                                                              \
	X(HEADER_TOO_LARGE, STATUS_CONNECT_LOST, LOST, "header-too-large",                         \
	    "head, header lines, 1xx answers, chunk framing or trailers past a limit",             \
	    "fetch.max-header-bytes")                                                              \
	X(HEAD_TIMEOUT, STATUS_TIMEOUT, TIMEOUT, "head-timeout", "no response head in time",       \
	    "fetch.timeout-seconds, fetch.idle-timeout-seconds")                                   \
	X(CANCELLED, STATUS_CONNECT_LOST, OTHER, "cancelled", "fetch cancelled", "")               \
	X(ROBOTS_DISALLOWED, STATUS_ROBOTS_PRECLUDED, ROBOTS, "robots-disallowed",                 \
	    "robots.txt disallows it", "robots.policy")                                            \
	X(ROBOTS_UNAVAILABLE, STATUS_ROBOTS_PRECLUDED, ROBOTS, "robots-unavailable",               \
	    "robots.txt answered a server error or could not be read, which disallows all",        \
	    "robots.on-server-error, robots.policy")                                               \
	X(HTTP_ERROR, 0, HTTP, "http", "HTTP error status", "")                                    \
	X(PROXY_CONNECT, STATUS_CONNECT_FAILED, CONNECT, "proxy-connect",                          \
	    "the proxy could not be reached",                                                      \
	    "fetch.http-proxy, fetch.https-proxy, fetch.no-proxy")                                 \
	X(PROXY_AUTH, STATUS_CONNECT_FAILED, CONNECT, "proxy-auth",                                \
	    "the proxy refused its credentials (407)", "fetch.credentials-file")                   \
	X(PROXY_REFUSED, STATUS_CONNECT_FAILED, CONNECT, "proxy-refused",                          \
	    "the proxy refused the tunnel (CONNECT)", "fetch.https-proxy, fetch.no-proxy")         \
	X(H2_RESET, STATUS_CONNECT_LOST, LOST, "h2-stream-reset",                                  \
	    "HTTP/2 stream reset (RST_STREAM)", "fetch.http2")                                     \
	X(H2_GOAWAY, STATUS_CONNECT_LOST, LOST, "h2-goaway",                                       \
	    "HTTP/2 connection shut down by the server (GOAWAY)", "fetch.http2")                   \
	X(H2_PROTOCOL, STATUS_CONNECT_LOST, LOST, "h2-protocol-error", "HTTP/2 protocol error",    \
	    "fetch.http2")

enum status_cause {
#define STATUS_X(name, code, group, word, msg, settings) CAUSE_##name,
	STATUS_CAUSES(STATUS_X)
#undef STATUS_X
	    CAUSE_COUNT
};

/* A Heritrix code's message; "HTTP status" for 100..999, NULL for a number
 * in neither. */
const char *status_message(int code);
/* The name of a Heritrix code without STATUS_ ("CONNECT_FAILED"), or NULL. */
const char *status_name(int code);

int status_cause_code(enum status_cause c);
enum status_group status_cause_group(enum status_cause c);
/* crawl.log's annotation is "err:" followed by this ("" for CAUSE_NONE). */
const char *status_cause_word(enum status_cause c);
const char *status_cause_message(enum status_cause c);
const char *status_cause_settings(enum status_cause c);
/* The cause a code implies when nothing finer is known: -2 connect failed,
 * -9998 robots disallowed, 4xx and 5xx HTTP_ERROR, success NONE. */
enum status_cause status_cause_of(int code);

const char *status_group_word(enum status_group g);
const char *status_group_label(enum status_group g);
const char *status_group_settings(enum status_group g);

#endif
