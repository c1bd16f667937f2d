/* HTTP/2 client sessions over nghttp2, without I/O: the caller (fetch.c)
 * feeds in the plaintext TLS delivers and sends out what h2_out gives, as
 * it does for the HTTP/1.1 parser (http.h).
 *
 * One session lives as long as its connection, kept alive between fetches
 * with it; it carries one stream at a time (the crawl's politeness allows
 * one request in flight per queue: doc/architecture.md, "HTTP/2"). A
 * request is submitted from the HTTP/1.1 head the fetch built, and the
 * response head comes back written as HTTP/1.1 ("HTTP/1.1 200 OK" and the
 * header fields, the pseudo-headers mapped), so that what the crawl reads
 * and what the WARC records are the same as over HTTP/1.1 (doc/warc.md). */
#ifndef TERN_H2_H
#define TERN_H2_H
#include <stddef.h>
#include <stdint.h>

#include "lib/status.h"

struct buf;
struct h2;

struct h2_cbs {
	/* The final (non-1xx) response head as HTTP/1.1 text, ending with
	 * the blank line; return nonzero to stop the stream. */
	int (*on_head)(void *arg, const char *head, size_t len);
	/* DATA payload of the stream; return nonzero to stop the stream. */
	int (*on_body)(void *arg, const char *data, size_t len);
};

enum h2_result {
	H2_MORE = 0,	/* the stream wants more bytes */
	H2_DONE = 1,	/* the response ended (END_STREAM) */
	H2_STOPPED = 2, /* a callback asked to stop: the stream is reset */
	H2_ERROR = -1	/* stream reset, GOAWAY or protocol error: h2_error */
};

/* A client session whose connection preface and SETTINGS are queued for
 * h2_out: max_header_bytes is both SETTINGS_MAX_HEADER_LIST_SIZE and the
 * cap on the HTTP/1.1 head the response becomes (as http.c's cap). */
struct h2 *h2_new(size_t max_header_bytes);
void h2_free(struct h2 *h);

/* Submits the GET request of req, an HTTP/1.1 request head (http.c's
 * http_request_build): its request line becomes :method and :path, Host
 * :authority, the scheme is https, and the connection-specific fields
 * (Connection, Keep-Alive, Transfer-Encoding, Upgrade...) are left out.
 * recorded gets the request as it went, in HTTP/1.1 syntax, for the WARC.
 * cbs and arg serve this stream. 0, or -1 when a stream cannot be opened
 * on this session (it is not reusable). */
int h2_request(struct h2 *h, const char *req, size_t len, const struct h2_cbs *cbs, void *arg,
    struct buf *recorded);
/* Feeds received plaintext; then call h2_out. */
enum h2_result h2_feed(struct h2 *h, const char *data, size_t len);
/* Bytes the session wants sent, valid until the next call into h; 0 when
 * there is nothing (more). Call until 0 after each h2_feed, then ask
 * h2_failed. */
size_t h2_out(struct h2 *h, const char **data);
/* Whether the stream failed while its output was taken (a connection
 * error nghttp2 answers with GOAWAY): then it is over, as H2_ERROR. */
int h2_failed(const struct h2 *h);
/* Whether another stream may be opened after this one (no GOAWAY, no
 * error, stream ids left). */
int h2_reusable(const struct h2 *h);
/* The stream's bytes so far: what arrived while it was open, and how much
 * of it was DATA payload. */
uint64_t h2_bytes_in(const struct h2 *h);
const char *h2_error(const struct h2 *h);
enum status_cause h2_cause(const struct h2 *h);

/* The reason phrase written for a status in the HTTP/1.1 status line
 * ("OK" for 200; "" for a code with no registered phrase). */
const char *h2_reason(int status);

#endif
