/* Large zeroed arrays for the frontier's in-memory filters, in memory of
 * their own with huge pages asked for. A filter probed at random places
 * (the seen set's Bloom layers, hundreds of MB at 100M URIs) costs a TLB
 * miss on every probe with 4 KiB pages; with 2 MiB pages far fewer.
 * Kept apart from bloom.c so that the filter stays a pure file
 * (tests/layers.sh): an anonymous mapping is memory, but <sys/mman.h> is
 * also where file mappings are. */
#ifndef TERN_FRONTIER_HUGEMEM_H
#define TERN_FRONTIER_HUGEMEM_H
#include <stddef.h>

/* bytes zeroed bytes (pages allocated as they are touched); *mapped is the
 * length to pass to hugemem_free (0 when it came from the heap: arrays
 * under 4 MiB, or no mapping to be had). Never NULL (xcalloc's rule). */
void *hugemem_zalloc(size_t bytes, size_t *mapped);
void hugemem_free(void *p, size_t mapped);

#endif
