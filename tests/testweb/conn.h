/* One accepted connection: TLS through memory BIOs, llhttp request parsing
 * with pipelining, and sending what respond.c decided, paced and
 * flow-controlled. */
#ifndef TESTWEB_CONN_H
#define TESTWEB_CONN_H
#include <uv.h>
#include <openssl/ssl.h>
#include "web.h"
#include "script.h"
#include "reqlog.h"

enum conn_port { CONN_HTTP, CONN_HTTPS, CONN_STALL };

struct conn_ctx {
	const struct web *web;
	struct script *script;
	struct reqlog *log;
	SSL_CTX *ssl;
	unsigned http_port;
	unsigned https_port;
	int verbose;
};

/* Accepts one pending connection on server; returns 0 or a libuv error. */
int conn_accept(uv_stream_t *server, struct conn_ctx *ctx, enum conn_port port);
/* The most connections that were open at once (accepted, not yet closed). */
unsigned long conn_max_open(void);
/* Closes every connection (shutdown); their memory is freed once the loop
 * runs their close callbacks. */
void conn_close_all(void);

#endif
