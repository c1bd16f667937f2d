/* A working queue's next URIs, read ahead with its head: handing out a
 * queue's URIs one at a time would otherwise seek the store once per URI
 * (a seek visits the memtable and every level: about a tenth of tern's CPU
 * on a zero-delay crawl). When a poll seeks a queue's head it also keeps
 * the records that follow, up to AHEAD_URIS, and the next polls take them
 * from memory.
 *
 * They are a prefix of the queue's key range as of the read, kept true by
 * the frontier's every change to a queue's URIs: a URI handed out and then
 * deleted leaves the front (ahead_pop at the take); a URI enqueued that
 * sorts before the last one kept (a higher directive or precedence) drops
 * them (ahead_put); the records kept stop before the first URI of the
 * queue's other time segments (keys.h); a URI rewritten or left at the head (retry, defer) drops
 * them (ahead_drop), as does a queue leaving memory. All queues together keep
 * at most AHEAD_BYTES; past that a queue simply seeks. */
#ifndef TERN_AHEAD_H
#define TERN_AHEAD_H
#include <stddef.h>
#include <leveldb/c.h>
#include "frontier/private.h"

#define AHEAD_URIS 16
#define AHEAD_BYTES ((size_t)2 << 20)

/* it is positioned at q's head (prefix: q's URI key prefix in the head's
 * time segment): keeps the records after it that share the prefix and sort
 * before limit (the place of the first URI of q's other segments; NULL:
 * none). Nothing if q already has some or the budget is spent. */
void ahead_fill(struct frontier *f, struct wq *q, leveldb_iterator_t *it, const char *prefix,
    size_t plen, const char *limit, size_t llen);
/* The front record kept for q: 1 and its key and value (valid until the
 * next call on q), or 0 if none. */
int ahead_front(const struct wq *q, const char **k, size_t *kl, const char **v, size_t *vl);
/* The front record was handed out. */
void ahead_pop(struct frontier *f, struct wq *q);
/* A URI (directive, precedence, ordinal) was put on q: drops what is kept
 * if it sorts before the last record kept. */
void ahead_put(struct frontier *f, struct wq *q, int directive, int precedence, uint64_t ordinal);
/* Forgets what q keeps. */
void ahead_drop(struct frontier *f, struct wq *q);

#endif
