/* The done records of a partition's log, read in stream order and reduced
 * to the last one of each URI (doc/cluster.md): a compaction keeps that one
 * in the snapshot, and a replay re-creates a continuous crawl's waiting
 * revisit from it, with the fetch history and due time of the URI's latest
 * visit (an earlier record of the same URI holds an older history). Pure:
 * the caller reads the log and gives each record with its URI's
 * fingerprint (canonical form). */
#ifndef TERN_DONELOG_H
#define TERN_DONELOG_H
#include <stddef.h>
#include <stdint.h>
#include "lib/handoff.h"

struct donelog;

/* plain: keep records without a revisit as well (a compaction keeps every
 * done URI; a replay only needs those with one). */
struct donelog *donelog_new(int plain);
void donelog_free(struct donelog *d);
/* The next record of the log, of the URI whose fingerprint is fp. */
void donelog_add(struct donelog *d, uint64_t fp, const struct handoff_done *r);
/* Whether a record of fp was added; how many URIs had one. */
int donelog_has(const struct donelog *d, uint64_t fp);
size_t donelog_count(const struct donelog *d);
/* After the last add: the records kept, each URI's last one (when kept
 * by plain), in the order of those last records, as done records text
 * (handoff.h); len 0 when none. Stays valid until donelog_free. */
const char *donelog_finish(struct donelog *d, size_t *len);

#endif
