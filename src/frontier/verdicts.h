/* robots.txt verdicts kept in the frontier store ('o' SERVER keys, one per
 * "scheme://host:port", with the time the verdict was fetched), so that a
 * resumed crawl or one restored from a checkpoint (whose store is a copy
 * of this one) reuses them until robots.validity-seconds runs out instead
 * of asking every host for robots.txt again. The crawl keeps the verdicts
 * it uses in memory (frontier/hosts.h); the store is where a verdict that
 * memory does not hold is looked for. */
#ifndef TERN_FRONTIER_VERDICTS_H
#define TERN_FRONTIER_VERDICTS_H
#include <stdint.h>

struct frontier;
struct robots;

/* Puts server's verdict, fetched at fetched_ms (wall clock), into the
 * frontier's next write. */
void verdicts_put(
    struct frontier *f, const char *server, uint64_t fetched_ms, const struct robots *r);

/* The verdict the store holds for server (robots_free it) and its fetch
 * time in *fetched_ms, or NULL when there is none (or it cannot be read:
 * the server's robots.txt is then simply fetched again). */
struct robots *verdicts_get(struct frontier *f, const char *server, uint64_t *fetched_ms);

#endif
