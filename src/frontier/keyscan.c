/* A read of one kind of store key in steps (keyscan.h). */
#include "frontier/keyscan.h"
#include "lib/xmalloc.h"

leveldb_iterator_t *keyscan_start(leveldb_t *db, const leveldb_readoptions_t *ro, char kind)
{
	leveldb_iterator_t *it = leveldb_create_iterator(db, ro);

	leveldb_iter_seek(it, &kind, 1);
	return it;
}

int keyscan_step(leveldb_iterator_t **it, char kind, size_t n, keyscan_fn *fn, void *arg,
    const char *what, char **err)
{
	char *lerr = NULL;
	size_t i;

	for (i = 0; i < n && leveldb_iter_valid(*it); i++, leveldb_iter_next(*it)) {
		size_t kl;
		const char *k = leveldb_iter_key(*it, &kl);

		if (kl < 1 || k[0] != kind)
			break;
		fn(arg, k + 1, kl - 1);
	}
	if (i == n && leveldb_iter_valid(*it))
		return 0;
	leveldb_iter_get_error(*it, &lerr);
	leveldb_iter_destroy(*it);
	*it = NULL;
	if (lerr != NULL) {
		*err = xasprintf("%s: %s", what, lerr);
		leveldb_free(lerr);
		return -1;
	}
	return 0;
}
