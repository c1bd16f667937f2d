/* Decides the response to one parsed request: the synthetic web, the
 * per-host scripts and the /_mis/ misbehaviours. No I/O: conn.c sends it. */
#ifndef TESTWEB_RESPOND_H
#define TESTWEB_RESPOND_H
#include <stdint.h>
#include "lib/buf.h"
#include "web.h"
#include "script.h"
#include "body.h"

struct respond_req {
	const char *method;
	const char *target; /* as sent: path?query */
	const char *host;   /* Host header without port; "" if none */
	unsigned port;	    /* port of the Host header, else the listener's */
	int tls;
	int accept_gzip;
	int first_on_conn;
	int keep_alive;
	const char *if_none_match; /* conditional request headers, NULL if absent */
	const char *if_modified_since;
	double now_ms; /* wall clock, for the changing pages */
};

enum respond_action {
	RESPOND_SEND,	/* send head, body, stream */
	RESPOND_RESET,	/* abort the connection with RST, send nothing */
	RESPOND_SILENT, /* send nothing, ever, keep the connection */
};

enum respond_after {
	RESPOND_KEEP,  /* next request on the connection */
	RESPOND_CLOSE, /* close once everything is written */
	RESPOND_HOLD,  /* keep the connection open, send nothing more */
};

struct response {
	enum respond_action action;
	enum respond_after after;
	int status;	     /* for the request log; 0 when no status line */
	struct buf head;     /* status line and headers */
	struct buf body;     /* fixed body, sent after head */
	struct body *stream; /* streamed after body, or NULL */
	uint32_t delay_ms;   /* before anything is sent */
	uint32_t drip_ms;    /* >0: stream one byte per drip_ms */
};

void respond_init(struct response *r);
void respond_free(struct response *r);
void respond_build(
    const struct web *w, struct script *s, const struct respond_req *q, struct response *r);
/* True if the request should get "100 Continue" as soon as its head is read. */
int respond_wants_continue(const char *target, const char *expect);
/* True if an Accept-Encoding value accepts gzip. */
int respond_accepts_gzip(const char *accept_encoding);

/* Helpers shared with mis.c. */
void respond_head(
    struct response *r, int status, const char *content_type, uint64_t length, const char *extra);
long respond_param(const char *query, const char *name, long dflt, long min, long max);
void respond_strip_body(struct response *r);

#endif
