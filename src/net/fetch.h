/* The fetch engine: one GET from URL to response through DNS, a connection
 * (new or kept alive), TLS, the request, the response head and the body,
 * with the timings, limits and status a crawler records.
 *
 * A struct fetch is one request; a struct fetcher (src/net/fetcher.h) holds
 * what fetches share: the settings, the TLS context, idle keep-alive
 * connections and TLS sessions per site, and the one timer that enforces
 * every deadline. Statuses are Heritrix's codes, named in lib/status.h
 * (doc/formats.md, "crawl.log", says which code when). */
#ifndef TERN_FETCH_H
#define TERN_FETCH_H
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "lib/status.h"

struct dns_answer;
struct fetcher;
struct fetch;

struct fetch_req {
	const char *url;	       /* as url_resolve wrote it */
	const struct url_parts *parts; /* url as url_split split it (NULL:
					 * fetch_start splits it) */
	const struct sockaddr *addr;   /* NULL: resolve via dns (and refuse
					 * what net/addrguard.h refuses,
					 * STATUS_UNFETCHABLE, unless allowed);
					 * given: used as is, the port from the URL */
	int64_t max_length;	       /* 0: fetch.max-length-bytes */
	int operator_host;	       /* the operator named this URL's host
					 * (an IP literal or a name): its
					 * private addresses are allowed */
	const char *headers;	       /* header lines added to the request
					* ("Name: value\r\n" each; NULL: none),
					* lib/reqheaders.h; used while
					* fetch_start runs */
	const char *if_none_match;     /* a revisit's validators (NULL: not sent), */
	const char *if_modified_since; /* used while fetch_start runs */
	const char *cookie;	       /* the Cookie header's value (NULL:
					* none), used while fetch_start runs */
};

struct fetch_cbs {
	/* Status line and headers of the final response (after any 1xx). */
	void (*on_head)(void *arg, struct fetch *f);
	/* raw: entity bytes as received, transfer coding removed, content
	 * coding kept (WARC payload, digest); dec: after content decoding
	 * (link extraction). Either may be empty in one call; for an
	 * identity body they are the same bytes. A gzip body is decoded
	 * when it ends, so its decoded bytes come in one late call, before
	 * on_done; a fetch that fails (negative status) may deliver none. */
	void (*on_body)(void *arg, struct fetch *f, const char *raw, size_t rawlen, const char *dec,
	    size_t declen);
	/* Exactly once, never synchronously from fetch_start. */
	void (*on_done)(void *arg, struct fetch *f);
	/* Optional: asked right before the request is written, on a new
	 * connection or a kept-alive one. 0 ends the fetch unsent (-3, "not
	 * sent"), its connection closed: the caller's permission lapsed since
	 * it started the fetch (a cluster lease, doc/cluster.md). */
	int (*may_send)(void *arg, struct fetch *f);
};

/* Starts a fetch on fr; cbs is copied. Always 0: errors (a bad URL gives
 * STATUS_UNFETCHABLE) arrive through on_done. */
int fetch_start(struct fetcher *fr, const struct fetch_req *req, const struct fetch_cbs *cbs,
    void *arg, struct fetch **out);
/* on_done follows with STATUS_CONNECT_LOST (CAUSE_CANCELLED), asynchronously. */
void fetch_cancel(struct fetch *f);
/* The caller is done with f (may be called inside on_done; freeing is
 * deferred). Before on_done, it cancels silently: no callback follows. */
void fetch_release(struct fetch *f);

/* HTTP status or negative Heritrix code: STATUS_DNS_PREREQ (the lookup
 * failed; its own dns: line is STATUS_DNS_FAILED), STATUS_CONNECT_FAILED
 * (connect or TLS failed), STATUS_CONNECT_LOST (connection lost or broken
 * response), STATUS_TIMEOUT (no response head in time), STATUS_UNFETCHABLE
 * (bad URL, refused address). */
int fetch_status(const struct fetch *f);
/* Why, by name: the cause a negative status was given for
 * (CAUSE_CONNECT_REFUSED, CAUSE_TLS_SELF_SIGNED...), CAUSE_HTTP_ERROR for a
 * 4xx or 5xx, CAUSE_NONE otherwise. */
enum status_cause fetch_cause(const struct fetch *f);
enum {
	FETCH_LENTRUNC = 1,  /* body cut at max-length: lenTrunc */
	FETCH_TIMETRUNC = 2, /* body cut by a timeout: timeTrunc */
	FETCH_DECTRUNC = 4,  /* decoding stopped at the decode caps (raw body whole) */
	FETCH_DECERR = 8,    /* a corrupt or truncated encoded body: decodeError */
	/* The connection could not be made for want of a local resource
	 * (file descriptors, kernel buffers, a local port): the status is
	 * STATUS_CONNECT_FAILED,
	 * but it says nothing of the server; try again later. */
	FETCH_LOCAL = 16,
	/* A Content-Encoding tern does not decode (compress, an unknown
	 * name, more than DECODE_MAX_STACK codings): decodeUnsupported. */
	FETCH_DECUNSUP = 32
};
unsigned fetch_annotations(const struct fetch *f);
const char *fetch_header(const struct fetch *f, const char *name);
/* Header i in order; 0 past the end. */
int fetch_header_at(const struct fetch *f, size_t i, const char **name, const char **value);
const char *fetch_request_head(const struct fetch *f, size_t *len);
const char *fetch_response_head(const struct fetch *f, size_t *len);
const char *fetch_ip(const struct fetch *f);
const char *fetch_url(const struct fetch *f);
struct fetch_timings {
	uint64_t start_wall_ms;
	uint64_t dns_us, connect_us, tls_us, first_byte_us, total_us;
};
const struct fetch_timings *fetch_timings(const struct fetch *f);
/* Connect start (request start on a kept-alive connection) to last byte. */
uint64_t fetch_duration_ms(const struct fetch *f);
uint64_t fetch_raw_bytes(const struct fetch *f);
uint64_t fetch_decoded_bytes(const struct fetch *f);
const char *fetch_error(const struct fetch *f);
/* The DNS answer used (NULL if none was needed), valid until release:
 * status, server, time, ttl and rr_text for the dns: line and record. */
const struct dns_answer *fetch_dns_answer(const struct fetch *f);
/* Whether the connection was reused, and TLS resumed a session. */
int fetch_reused(const struct fetch *f);
int fetch_tls_resumed(const struct fetch *f);
/* The proxy the fetch went through, as host:port, or NULL. */
const char *fetch_proxy(const struct fetch *f);

/* How the exchange went, for the WARC (doc/warc.md): "h2" or "http/1.1"
 * (NULL when nothing was sent), the TLS version as WARC-Protocol writes it
 * ("tls/1.3") and the cipher suite's IANA name (NULL without TLS). */
const char *fetch_protocol(const struct fetch *f);
const char *fetch_tls_version(const struct fetch *f);
const char *fetch_tls_cipher(const struct fetch *f);

/* Memory accounting for bench/sizes. */
size_t fetch_sizeof(void);

#endif
