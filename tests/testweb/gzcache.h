/* gzip encoding of the synthetic web's replies with the shared parts
 * (filler paragraphs, whole small bodies such as robots.txt and the 404
 * page) compressed once and cached, so that serving gzip costs two CRC
 * passes and a copy instead of a deflate per request. */
#ifndef TESTWEB_GZCACHE_H
#define TESTWEB_GZCACHE_H
#include "lib/buf.h"
#include "web.h"

/* Appends one gzip member decoding to wr->body to out. The reply's spans
 * are served from the cache (compressed at level 1 on a miss); the bytes
 * between them go in stored blocks. A reply without spans is cached whole. */
void gzcache_encode(const struct web_reply *wr, struct buf *out);

#endif
