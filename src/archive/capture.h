/* A response body being recorded for the WARC writer: kept in memory up to
 * a bound, then in a spill file, an unnamed file (O_TMPFILE) in a directory
 * of the job (JOBDIR/state/tmp), so that a large body costs disk, not
 * memory, and nothing is left behind when its owner closes it.
 *
 * Its owner appends what the fetch gives, reads it back (the memory buffer,
 * or the spill file's descriptor and length, for the WARC writer) and
 * resets it before the next body. The fetch caps what it gives
 * (fetch.max-length-bytes): nothing here grows past that. */
#ifndef TERN_CAPTURE_H
#define TERN_CAPTURE_H
#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"

/* Why capture_append failed; errno says more (ENOSPC or EDQUOT: the disk
 * is full). */
#define CAPTURE_ESPILL (-1) /* the spill file could not be created */
#define CAPTURE_EWRITE (-2) /* writing to the spill file failed */

struct capture;

/* A capture that keeps up to mem_max bytes in memory and spills past that
 * to a file in tmpdir (copied). */
struct capture *capture_new(const char *tmpdir, size_t mem_max);
void capture_free(struct capture *c);
/* Empties c for the next body: the spill file is closed, the memory
 * buffer keeps its room up to keep_room bytes (0: none). */
void capture_reset(struct capture *c, size_t keep_room);
/* Appends n bytes: 0, or CAPTURE_ESPILL or CAPTURE_EWRITE with errno set.
 * Every byte is written (a short write is retried), so that a full disk
 * ends in ENOSPC rather than a stale errno. */
int capture_append(struct capture *c, const void *p, size_t n);
/* The bytes appended since the last reset. */
uint64_t capture_len(const struct capture *c);
/* The spill file, -1 while the body is in memory. Still c's: a reader that
 * keeps it past the next reset duplicates it. */
int capture_fd(const struct capture *c);
/* The body while it is in memory (empty once it spilled): a writer may take
 * its bytes by swapping buffers (src/archive/warcpool.h). */
struct buf *capture_mem(struct capture *c);

#endif
