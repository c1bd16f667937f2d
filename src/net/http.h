/* HTTP/1.1 client protocol, without I/O: what a request needs of a URL
 * already split by lib/url.c, building the request head, and parsing a response stream with
 * llhttp 8.1 while handling the traps of that version (it accepts
 * "HTTP/1.1 20 OK" and "HTTP/2.0", and would read a body after 204/304).
 *
 * The parser is fed bytes as they arrive and reports, through callbacks,
 * the final response head and the entity body with the transfer coding
 * removed. Interim 1xx responses are skipped. */
#ifndef TERN_HTTP_H
#define TERN_HTTP_H
#include <stddef.h>
#include <stdint.h>

struct buf;

/* The parts of an absolute http(s) URL a fetch needs. */
struct http_url {
	int tls; /* https */
	int port;
	int host_is_literal; /* IPv4 dotted or [IPv6] */
	char host[256];	     /* lower case, without brackets for IPv6 */
	char hostport[272];  /* the Host header value */
	char *target;	     /* path and query, allocated; never contains the fragment */
};

struct url_parts;

/* Fills u from href as url_split split it into p (lib/url.h, the one URL
 * parser); 0 or -1 with *err set to a static message. */
int http_url_from(
    const char *href, const struct url_parts *p, struct http_url *u, const char **err);
void http_url_clear(struct http_url *u);

/* Appends a GET request head (ending with the blank line) to out. A
 * conditional request (a revisit) names the validators of the capture it
 * holds: if_none_match (an ETag as the server sent it) and
 * if_modified_since (a Last-Modified as sent), each NULL when absent;
 * control characters in them are sent as spaces. accept_encoding is the
 * Accept-Encoding value (http_accept_encoding). cookie is the Cookie
 * header's value (NULL: none), sent the same way. */
void http_request_build(struct buf *out, const struct http_url *u, const char *user_agent,
    const char *accept_encoding, const char *if_none_match, const char *if_modified_since,
    const char *cookie);

/* The Accept-Encoding value for a fetch.accept-encoding setting (tern.conf(5)):
 * gzip "gzip", br "br, gzip", zstd "zstd, gzip", browser "gzip, deflate,
 * br, zstd" (what Chromium and Firefox send), identity "identity"; NULL
 * for another word. */
const char *http_accept_encoding(const char *setting);

struct http;

struct http_cbs {
	/* The final (non-1xx) head is complete; return nonzero to stop. */
	int (*on_head)(void *arg);
	/* Entity bytes, chunking removed; return nonzero to stop parsing. */
	int (*on_body)(void *arg, const char *data, size_t len);
};

enum http_result {
	HTTP_MORE = 0,	  /* want more bytes */
	HTTP_DONE = 1,	  /* final response complete */
	HTTP_STOPPED = 2, /* a callback asked to stop */
	HTTP_ERROR = -1	  /* protocol violation; see http_error() */
};

struct http *http_new(size_t max_header_bytes, const struct http_cbs *cbs, void *arg);
void http_free(struct http *h);

/* Feeds received bytes. *used (may be NULL) tells how many were consumed:
 * after HTTP_DONE, any rest is bytes past the response. */
enum http_result http_feed(struct http *h, const char *data, size_t len, size_t *used);
/* The peer closed the stream: completes a body delimited by EOF, or fails. */
enum http_result http_eof(struct http *h);

/* Whether any byte of a response has been seen. */
int http_started(const struct http *h);
int http_head_done(const struct http *h);
int http_status(const struct http *h);
/* Allowed to reuse the connection, read at message completion. */
int http_keep_alive(const struct http *h);
/* The final status line and headers as received, with the blank line. */
const char *http_head(const struct http *h, size_t *len);
/* First value of a header, case-insensitive, or NULL. The headers a crawl
 * reads of every response (Content-Type, Location, ETag, ...) are indexed
 * while the head is parsed; others are found by a scan. */
const char *http_header(const struct http *h, const char *name);
/* Iteration over headers: i from 0; returns 0 at the end. */
int http_header_at(const struct http *h, size_t i, const char **name, const char **value);
const char *http_error(const struct http *h);
/* Whether the error was a limit (fetch.max-header-bytes for the head, the
 * chunk framing or the trailers; too many header lines or interim
 * answers) rather than bytes that are not HTTP. */
int http_too_large(const struct http *h);

#endif
