/* One client connection, plain TCP or TLS, behind one small interface: the
 * owner gets every event through a single callback (connected, tls-ready,
 * data, drained, closed, error) and never sees TLS records. Reads land in a
 * buffer shared by all connections and are handed over at once, so an idle
 * or waiting connection holds no read buffer. Timeouts belong to the owner
 * (the fetcher sweeps its deadlines with one timer). */
#ifndef TERN_CONN_H
#define TERN_CONN_H
#include <stddef.h>
#include <sys/socket.h>
#include <uv.h>

#include "lib/status.h"

struct conn;
struct tls_ctx;

enum conn_event {
	CONN_CONNECTED, /* TCP connected (TLS handshake starts) */
	CONN_TLS_READY, /* TLS handshake done */
	CONN_DATA,	/* plaintext bytes (valid during the callback only) */
	CONN_CLOSED,	/* the peer closed the stream (EOF) */
	CONN_ERROR	/* connect, TLS or socket error; see conn_error() */
};

typedef void (*conn_cb)(
    void *arg, struct conn *c, enum conn_event ev, const char *data, size_t len);

/* Starts connecting to sa. tls NULL: plain TCP; else host names the peer
 * for SNI and verification and session (may be NULL) is resumed. Errors
 * from starting the connect come back as a negative uv error, and no
 * callback follows. */
int conn_connect(uv_loop_t *loop, const struct sockaddr *sa, struct tls_ctx *tls, const char *host,
    void *session, conn_cb cb, void *arg, struct conn **out);
/* Starts TLS on an open plain connection (a tunnel through a proxy's
 * CONNECT): host names the peer as in conn_connect. CONN_TLS_READY or
 * CONN_ERROR follows; a handshake that fails at once calls back before this
 * returns. 0, or UV_EINVAL on a connection not open or already TLS. */
int conn_start_tls(struct conn *c, struct tls_ctx *tls, const char *host, void *session);
/* Hands the connection to a new owner (keep-alive reuse). */
void conn_set_cb(struct conn *c, conn_cb cb, void *arg);
/* Sends bytes, queueing (a copy of) what the socket does not take at once;
 * 0 or a negative error. A socket error comes back as CONN_ERROR. */
int conn_write(struct conn *c, const char *data, size_t len);
/* Closes; no callback follows, memory is freed once libuv lets go. */
void conn_close(struct conn *c);

int conn_is_tls(const struct conn *c);
int conn_tls_resumed(const struct conn *c);
/* A resumable TLS session for the next connection to this host, or NULL. */
void *conn_tls_session(struct conn *c);
/* What the TLS handshake settled (tls.h): HTTP/2 chosen by ALPN, the
 * protocol version and the cipher suite; 0 and NULL for plain TCP. */
int conn_h2(const struct conn *c);
const char *conn_tls_version(const struct conn *c);
const char *conn_tls_cipher(const struct conn *c);
/* An object that lives as long as the connection (an HTTP/2 session kept
 * with it between fetches), freed with it by free_fn; NULL if none. */
void conn_set_proto(struct conn *c, void *proto, void (*free_fn)(void *));
void *conn_proto(const struct conn *c);
const char *conn_error(const struct conn *c);
/* The same, by name: CAUSE_CONNECT_REFUSED, CAUSE_TLS_SELF_SIGNED... */
enum status_cause conn_cause(const struct conn *c);
/* The cause of a connect that failed with libuv error uverr. */
enum status_cause conn_connect_cause(int uverr);
/* Bytes of memory this connection holds in user space, for bench/sizes. */
size_t conn_sizeof(void);

#endif
