/* The host parser of the WHATWG URL Standard for special schemes
 * (urlhost.c), on its own for the URL parser (url.c) and for callers that
 * hold a bare host name (a seed written without a scheme, a robots group). */
#ifndef TERN_URLHOST_H
#define TERN_URLHOST_H
#include <stddef.h>

#include "lib/buf.h"

/* Parses a host the way the URL parser does (percent-decoding, IDNA,
 * IPv4 number forms, IPv6) and appends its serialization to out; ip gets 0,
 * 4 or 6. Returns 0 or URL_EINVAL (lib/url.h). */
int urlhost_parse(const char *host, size_t len, struct buf *out, int *ip);

#endif
