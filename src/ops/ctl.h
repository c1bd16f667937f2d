/* The control socket's client: the one request helper that `tern ctl`
 * (src/ctlcmd.c), `tern report` and `tern console` use. Each is a
 * short-lived process of its own, so it blocks (with a timeout) instead of
 * running a loop. */
#ifndef TERN_CTL_H
#define TERN_CTL_H

#include "lib/buf.h"

/* ctl_request's result when no crawl answers on JOBDIR/control.sock. */
#define CTL_NOT_RUNNING (-2)

/* Sends one request (body may be NULL) to JOBDIR/control.sock; *status and
 * body get the answer. 0; CTL_NOT_RUNNING when nothing listens there; -1
 * with *err on any other failure. */
int ctl_request(const char *jobdir, const char *method, const char *target, const char *body,
    int *status, struct buf *out, char **err);

/* Appends s to a request target percent-encoded (all but RFC 3986's
 * unreserved bytes), so that an argument can never end the request line,
 * add a header or another query parameter. */
void ctl_append_escaped(struct buf *b, const char *s);

#endif
