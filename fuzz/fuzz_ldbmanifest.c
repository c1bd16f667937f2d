/* libFuzzer target for the LevelDB MANIFEST reader (a corrupt or foreign
 * store must give an error, never a crash). Beyond memory safety it checks
 * the result's invariants: tables sorted by number, levels in range, and no
 * more bytes used than given. The seed corpus holds real MANIFESTs. */
#include <stdint.h>
#include <stdlib.h>
#include "crawl/ldbmanifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ldbmanifest m;
	char *err = NULL;

	if (ldbmanifest_parse(data, size, &m, &err) < 0) {
		if (err == NULL)
			abort();
		free(err);
		return 0;
	}
	if (m.used > size || m.edits == 0)
		abort();
	for (size_t i = 0; i < m.ntables; i++) {
		if (m.tables[i].level < 0 || m.tables[i].level >= 7)
			abort();
		if (i > 0 && m.tables[i].number < m.tables[i - 1].number)
			abort();
	}
	ldbmanifest_free(&m);
	return 0;
}
