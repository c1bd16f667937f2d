/* The control socket's server: HTTP/1.1 over a unix socket (mode 0600), or
 * over TCP for the operator console's listener, served by the crawl's own
 * libuv loop. One request per connection (every answer says Connection:
 * close); requests are parsed by ctlreq with its caps; at most
 * CTLSERVER_MAX_CONNS connections at once per listener; a connection that
 * has not sent its whole request, been answered, or taken its whole answer
 * within CTLSERVER_TIMEOUT_MS each is closed. Malformed, oversized and slow
 * requests cost the crawl nothing but their bounded buffers.
 *
 * What a request does is the handler's business (src/ops/): it is called
 * once per well-formed request and fills the reply, at once or, after
 * ctlserver_defer, later from the same loop. */
#ifndef TERN_CTLSERVER_H
#define TERN_CTLSERVER_H
#include <uv.h>

#include "lib/buf.h"
#include "net/ctlreq.h"

#define CTLSERVER_MAX_CONNS 16
#define CTLSERVER_TIMEOUT_MS 10000

struct ctlserver_reply {
	int status;		  /* 200 unless set */
	const char *content_type; /* "application/json" unless set */
	struct buf body;
	/* More header lines, each ending in CRLF. "Cache-Control: no-store"
	 * is added unless they hold a Cache-Control of their own. */
	struct buf headers;
};

typedef void (*ctlserver_handler)(
    void *ctx, const struct ctlreq *req, struct ctlserver_reply *reply);

struct ctlserver;

/* Listens on path (a stale socket file there is replaced: the caller holds
 * the job's lock). NULL and *err on failure (path too long for a unix
 * socket, bind or listen refused). */
struct ctlserver *ctlserver_start(
    uv_loop_t *loop, const char *path, ctlserver_handler h, void *ctx, char **err);
/* Listens on TCP at addr, "IPv4:PORT" or "[IPv6]:PORT" (port 0: one the
 * system picks; ctlserver_address says which). NULL and *err when addr is
 * not of that form or bind or listen is refused. */
struct ctlserver *ctlserver_start_tcp(
    uv_loop_t *loop, const char *addr, ctlserver_handler h, void *ctx, char **err);
/* A TCP listener's address as "IPv4:PORT" or "[IPv6]:PORT" (cap >= 64),
 * and its port; "" and 0 for a unix socket. */
void ctlserver_address(const struct ctlserver *s, char *out, size_t cap);
unsigned ctlserver_port(const struct ctlserver *s);
/* Whether a TCP listener is bound to a loopback address (127.0.0.0/8,
 * ::1): only then is it out of reach of other machines. */
int ctlserver_loopback(const struct ctlserver *s);
/* Closes the listener and every connection and removes the socket file; the
 * loop must run once more to finish closing, after which it is freed.
 * Answers still deferred are cancelled (their cancel callbacks run). */
void ctlserver_close(struct ctlserver *s);
/* Connections open now, and requests answered so far (for /metrics). */
unsigned ctlserver_connections(const struct ctlserver *s);
unsigned long ctlserver_requests(const struct ctlserver *s);

/* A JSON error body {"error": msg, "status": status} with that status. */
void ctlserver_reply_error(struct ctlserver_reply *r, int status, const char *msg);

/* From a handler: the answer to this request comes later. The connection
 * waits for ctlserver_defer_send (its deadline still runs: past it the
 * client gets 503 and cancel(arg) is called, as it is when the server
 * closes first; after cancel the handle is gone). */
struct ctlserver_defer;
struct ctlserver_defer *ctlserver_defer(
    struct ctlserver_reply *reply, void (*cancel)(void *arg), void *arg);
/* The reply to fill before sending. */
struct ctlserver_reply *ctlserver_defer_reply(struct ctlserver_defer *d);
/* Sends the reply; the handle is gone. */
void ctlserver_defer_send(struct ctlserver_defer *d);
/* The answer is being made (a long report walked piece by piece): its
 * deadline starts again from now. */
void ctlserver_defer_progress(struct ctlserver_defer *d);

#endif
