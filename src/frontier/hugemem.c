/* Large zeroed arrays with huge pages asked for (hugemem.h). */
#include "frontier/hugemem.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <sys/mman.h>

/* Smaller arrays come from the heap: a mapping of their own would round
 * them up to a huge page, and they fit the TLB anyway. */
#define HUGEMEM_MIN (4u << 20)
#define HUGEMEM_ALIGN (2u << 20)

void *hugemem_zalloc(size_t bytes, size_t *mapped)
{
	void *p;
	size_t len;

	*mapped = 0;
	if (bytes < HUGEMEM_MIN)
		return xcalloc(1, bytes);
	len = (bytes + HUGEMEM_ALIGN - 1) / HUGEMEM_ALIGN * HUGEMEM_ALIGN;
	/* Anonymous pages are zero and allocated when first touched, as
	 * calloc's would be. */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return xcalloc(1, bytes);
#ifdef MADV_HUGEPAGE
	/* Advice only: without transparent huge pages (or with them off) the
	 * mapping keeps 4 KiB pages. */
	(void)madvise(p, len, MADV_HUGEPAGE);
#endif
	*mapped = len;
	return p;
}

void hugemem_free(void *p, size_t mapped)
{
	if (mapped > 0)
		munmap(p, mapped);
	else
		free(p);
}
