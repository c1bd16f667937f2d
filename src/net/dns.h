/* Name resolution as the system does it (the hosts file and DNS in the
 * system's order, localhost names as loopback; dns.servers in
 * tern.conf(5)), with c-ares inside the libuv loop: c-ares' sockets are
 * watched with uv_poll_t handles from its socket-state callback and its
 * timeouts run on one uv_timer_t, so no thread and no blocking network call is
 * involved. Answers are cached for max(dns.ip-validity-seconds, TTL),
 * failures for a short while; lookups of the same name share one query, and
 * at most DNS_MAX_OUTSTANDING queries are on the wire at once. A lookup
 * gives up after dns.timeout-ms x dns.tries (c-ares alone would double its
 * timeout every round). Numeric hosts (including 127.1 and 2130706433) are
 * answered without DNS. */
#ifndef TERN_DNS_H
#define TERN_DNS_H
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

#include "lib/status.h"

struct config;
struct dns;
struct dns_query;

#define DNS_MAX_OUTSTANDING 128
/* How long a failed lookup is remembered. */
#define DNS_NEGATIVE_TTL_S 60
/* Longest CNAME chain accepted (c-ares 1.18 has no limit). */
#define DNS_MAX_CNAMES 16

struct dns_answer {
	int status; /* STATUS_DNS_SUCCESS or STATUS_DNS_FAILED (crawl.log dns: line) */
	int naddrs;
	/* naddrs addresses, valid during the callback (copy what you keep):
	 * the cache holds exactly as many as the answer had, so that a cache
	 * of 100,000 hosts does not cost a kilobyte each. */
	const struct sockaddr_storage *addrs;
	char ip[INET6_ADDRSTRLEN]; /* first address, text */
	uint32_t ttl;
	uint64_t fetch_time_ms; /* wall clock of the answer */
	const char *server;	/* "127.0.0.1:5353", the DNS server asked; or
				  * the hosts file that answered (a path), or
				  * "loopback (RFC 6761)" for a localhost name */
	const char
	    *rr_text; /* the answer as RFC 1035 master-file lines, for a WARC text/dns record */
	int from_cache;
	const char *error;	 /* human text on failure */
	enum status_cause cause; /* the failure by name (CAUSE_DNS_NXDOMAIN...) */
};

/* Called with the answer (valid during the call only); never called
 * synchronously from dns_resolve. */
typedef void (*dns_cb)(void *arg, const struct dns_answer *a);

struct dns *dns_new(uv_loop_t *loop, const struct config *cfg, char **err);
/* Looks host up (a name or a numeric address); *q (may be NULL) lets the
 * caller cancel. 0, or negative for a name that cannot be looked up. */
int dns_resolve(struct dns *d, const char *host, dns_cb cb, void *arg, struct dns_query **q);
/* The cache's answer for host, without a lookup and synchronously: 0 and
 * the first address as text in ip when a successful answer is cached and
 * not expired, -1 otherwise (never looked up, pending, failed or expired). */
int dns_peek(struct dns *d, const char *host, char ip[INET6_ADDRSTRLEN]);
/* cb is not called afterwards. */
void dns_cancel(struct dns_query *q);
/* Closes handles; the loop must run once more to finish closing. Pending
 * callbacks are not called. */
void dns_free(struct dns *d);
/* Names in the cache (answers and failures), for the metrics. */
size_t dns_cache_count(const struct dns *d);
/* Parses a numeric host (IPv4 in any inet_aton form, IPv6 with or without
 * brackets) into sa with port 0; 0 or -1 if host is a name. */
int dns_numeric(const char *host, struct sockaddr_storage *sa);

#endif
