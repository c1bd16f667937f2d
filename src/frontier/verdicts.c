/* robots.txt verdicts in the frontier store. */
#include "frontier/verdicts.h"
#include "frontier/private.h"
#include "frontier/store.h"
#include "frontier/keys.h"

void verdicts_put(
    struct frontier *f, const char *server, uint64_t fetched_ms, const struct robots *r)
{
	buf_reset(&f->k);
	keys_robots(&f->k, server);
	buf_reset(&f->v);
	keys_robots_encode(&f->v, fetched_ms, r);
	store_put(f, &f->k, &f->v);
}

struct robots *verdicts_get(struct frontier *f, const char *server, uint64_t *fetched_ms)
{
	struct robots *r;
	char *v;
	size_t vlen;

	buf_reset(&f->k);
	keys_robots(&f->k, server);
	if (store_get(f, &f->k, &v, &vlen, "reading a robots verdict") < 0 || v == NULL)
		return NULL;
	r = keys_robots_decode(v, vlen, fetched_ms);
	leveldb_free(v);
	return r;
}
