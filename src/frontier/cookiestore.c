/* Cookies in the frontier store. */
#include <string.h>

#include "frontier/cookiestore.h"
#include "frontier/keys.h"
#include "frontier/private.h"
#include "frontier/store.h"
#include "lib/cookie.h"

void cookiestore_put(struct frontier *f, const struct cookie *c)
{
	buf_reset(&f->k);
	keys_cookie(&f->k, c->domain, c->path, c->name);
	buf_reset(&f->v);
	cookie_encode(&f->v, c);
	store_put(f, &f->k, &f->v);
}

void cookiestore_del(struct frontier *f, const char *domain, const char *path, const char *name)
{
	buf_reset(&f->k);
	keys_cookie(&f->k, domain, path, name);
	store_del(f, &f->k);
}

long cookiestore_each(struct frontier *f, cookiestore_fn *fn, void *arg)
{
	leveldb_iterator_t *it = leveldb_create_iterator(f->db, f->ro);
	const char start = KEYS_COOKIE;
	char *lerr = NULL;
	long n = 0;

	for (leveldb_iter_seek(it, &start, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t klen, vlen;
		const char *k = leveldb_iter_key(it, &klen), *v;
		struct cookie c;

		if (klen < 1 || k[0] != KEYS_COOKIE)
			break;
		v = leveldb_iter_value(it, &vlen);
		if (cookie_decode(v, vlen, &c) < 0) {
			struct buf key;
			key.data = (char *)k;
			key.len = klen;
			store_del(f, &key);
			continue;
		}
		fn(arg, &c);
		n++;
	}
	leveldb_iter_get_error(it, &lerr);
	leveldb_iter_destroy(it);
	if (lerr != NULL) {
		store_fail(f, "reading the cookies", lerr);
		return -1;
	}
	return n;
}
