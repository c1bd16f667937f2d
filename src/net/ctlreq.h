/* One request to the control socket: an incremental HTTP/1.1 request parser
 * over llhttp (request mode) with explicit caps, and the query-string lookup
 * the routes use. Pure: no I/O, no libuv, so it is fuzzed on its own
 * (fuzz/fuzz_ctl.c).
 *
 * A parser takes one request; bytes after it are ignored (the server answers
 * with Connection: close). Every refusal carries the HTTP status to answer
 * with and a message for a person. */
#ifndef TERN_CTLREQ_H
#define TERN_CTLREQ_H
#include <stddef.h>

#include "lib/buf.h"

/* Caps: a request head (request line and headers), its target, its body. */
#define CTLREQ_MAX_HEAD 8192
#define CTLREQ_MAX_TARGET 2048
#define CTLREQ_MAX_BODY 65536

enum ctlreq_result {
	CTLREQ_MORE = 0,   /* need more bytes */
	CTLREQ_DONE = 1,   /* a whole request is parsed */
	CTLREQ_ERROR = -1, /* refused: ctlreq_error_status/message say why */
};

/* The request headers the routes look at (the console checks Host, Origin,
 * Sec-Fetch-Site and the token; POST /settings reads Content-Type). Each
 * may appear once: a repeated one is refused (400), so that no two readers
 * of a request can see different values. */
enum ctlreq_header {
	CTLREQ_H_HOST,
	CTLREQ_H_ORIGIN,
	CTLREQ_H_AUTHORIZATION,
	CTLREQ_H_FETCH_SITE, /* Sec-Fetch-Site */
	CTLREQ_H_CONTENT_TYPE,
	CTLREQ_H__COUNT
};

struct ctlreq {
	char method[8];	  /* "GET", "POST", ...; "" if another method */
	struct buf path;  /* the target before '?', as sent */
	struct buf query; /* after '?', without it; "" when none */
	struct buf body;
	struct buf header[CTLREQ_H__COUNT]; /* values as sent, "" when absent */
	unsigned has;			    /* bit 1 << CTLREQ_H_x: that header was sent */
};

struct ctlreq_parser;

struct ctlreq_parser *ctlreq_parser_new(void);
void ctlreq_parser_free(struct ctlreq_parser *p);
/* Feeds the next bytes of the connection. Once DONE or ERROR, further calls
 * return the same result without reading. */
enum ctlreq_result ctlreq_feed(struct ctlreq_parser *p, const char *data, size_t len);
/* The request, once ctlreq_feed returned CTLREQ_DONE. */
const struct ctlreq *ctlreq_request(const struct ctlreq_parser *p);
/* A header's value, or NULL when the request did not send it. */
const char *ctlreq_header(const struct ctlreq *req, enum ctlreq_header h);
/* After CTLREQ_ERROR: the status to answer (400, 405, 413, 414, 431) and why. */
int ctlreq_error_status(const struct ctlreq_parser *p);
const char *ctlreq_error_message(const struct ctlreq_parser *p);

/* Finds name in a query string ("state=retired&limit=10") and appends its
 * percent-decoded value to out. 0 if found, -1 if absent or malformed
 * (form_get of lib/form.h). */
int ctlreq_query_param(const char *query, const char *name, struct buf *out);

#endif
