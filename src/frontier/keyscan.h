/* A read of every store key of one kind, some keys at a time: a reopened
 * store fills the seen set's filters and the queue keys' filter this way,
 * after the crawl's first fetch rather than before it. */
#ifndef TERN_FRONTIER_KEYSCAN_H
#define TERN_FRONTIER_KEYSCAN_H
#include <stddef.h>
#include <leveldb/c.h>

/* Called with each key, without its kind byte. */
typedef void keyscan_fn(void *arg, const char *key, size_t len);

/* An iterator at the first key of kind. */
leveldb_iterator_t *keyscan_start(leveldb_t *db, const leveldb_readoptions_t *ro, char kind);
/* Up to n more keys of kind from *it, fn for each. At the last one, or on
 * a read error, the iterator is destroyed and *it set to NULL. 0, or -1
 * with *err ("WHAT: LevelDB's message"). */
int keyscan_step(leveldb_iterator_t **it, char kind, size_t n, keyscan_fn *fn, void *arg,
    const char *what, char **err);

#endif
