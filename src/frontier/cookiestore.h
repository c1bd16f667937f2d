/* The crawl's cookies kept in the frontier store ('c' DOMAIN 0x00 PATH
 * 0x00 NAME keys, doc/frontier.md, "Store layout"), written through the
 * frontier's batch like the rest of its changes, so that a resume after a
 * stop or a kill, and a crawl restored from a checkpoint (a copy of the
 * store), start with the jar as it was at the last flush. The jar itself is
 * the crawl's (src/crawl/cookiejar.h). */
#ifndef TERN_FRONTIER_COOKIESTORE_H
#define TERN_FRONTIER_COOKIESTORE_H

struct cookie;
struct frontier;

/* Puts c into the frontier's next write. */
void cookiestore_put(struct frontier *f, const struct cookie *c);
/* Deletes the cookie of that domain, path and name in the next write. */
void cookiestore_del(struct frontier *f, const char *domain, const char *path, const char *name);
/* Gives every stored cookie to fn, which takes it (cookie_clear). A
 * record that cannot be read is deleted in the next write. The number
 * given, or -1 on a store error (frontier_error). */
typedef void cookiestore_fn(void *arg, struct cookie *c);
long cookiestore_each(struct frontier *f, cookiestore_fn *fn, void *arg);

#endif
