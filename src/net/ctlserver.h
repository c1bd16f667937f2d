/* The control socket's server: HTTP/1.1 over a unix socket (mode 0600),
 * served by the crawl's own libuv loop. One request per connection (every
 * answer says Connection: close); requests are parsed by ctlreq with its
 * caps; at most CTLSERVER_MAX_CONNS connections at once; a connection that
 * has not sent its whole request, or not taken its whole answer, within
 * CTLSERVER_TIMEOUT_MS is closed. Malformed, oversized and slow requests cost
 * the crawl nothing but their bounded buffers.
 *
 * What a request does is the handler's business (src/ops/crawlctl.c): it is
 * called once per well-formed request and fills the reply synchronously. */
#ifndef TERN_CTLSERVER_H
#define TERN_CTLSERVER_H
#include <uv.h>

#include "lib/buf.h"
#include "net/ctlreq.h"

#define CTLSERVER_MAX_CONNS 16
#define CTLSERVER_TIMEOUT_MS 10000

struct ctlserver_reply {
	int status;			/* 200 unless set */
	const char *content_type;	/* "application/json" unless set */
	struct buf body;
};

typedef void (*ctlserver_handler)(void *ctx, const struct ctlreq *req,
    struct ctlserver_reply *reply);

struct ctlserver;

/* Listens on path (a stale socket file there is replaced: the caller holds
 * the job's lock). NULL and *err on failure (path too long for a unix
 * socket, bind or listen refused). */
struct ctlserver *ctlserver_start(uv_loop_t *loop, const char *path, ctlserver_handler h,
    void *ctx, char **err);
/* Closes the listener and every connection and removes the socket file; the
 * loop must run once more to finish closing, after which it is freed. */
void ctlserver_close(struct ctlserver *s);
/* Connections open now, and requests answered so far (for /metrics). */
unsigned ctlserver_connections(const struct ctlserver *s);
unsigned long ctlserver_requests(const struct ctlserver *s);

/* A JSON error body {"error": msg, "status": status} with that status. */
void ctlserver_reply_error(struct ctlserver_reply *r, int status, const char *msg);

#endif
