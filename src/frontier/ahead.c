/* Read-ahead of a queue's next URIs (ahead.h). Records are packed in
 * q->ahead as [key length][key][value length][value], lengths 4 bytes. */
#include "frontier/ahead.h"
#include <stdint.h>
#include <string.h>

static size_t ahead_get32(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;

	return (size_t)u[0] << 24 | (size_t)u[1] << 16 | (size_t)u[2] << 8 | u[3];
}

static void ahead_put32(struct buf *b, size_t n)
{
	char c[4] = {(char)(n >> 24), (char)(n >> 16), (char)(n >> 8), (char)n};

	buf_append(b, c, 4);
}

static int ahead_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);

	return c != 0 ? c : (al > bl) - (al < bl);
}

void ahead_drop(struct frontier *f, struct wq *q)
{
	f->ahead_bytes -= q->ahead.cap;
	buf_free(&q->ahead);
	q->ahead_off = 0;
	q->ahead_last = 0;
}

void ahead_fill(struct frontier *f, struct wq *q, leveldb_iterator_t *it, const char *prefix,
    size_t plen, const char *limit, size_t llen)
{
	int n;

	if (q->ahead_off < q->ahead.len || f->ahead_bytes >= AHEAD_BYTES)
		return;
	ahead_drop(f, q);
	for (n = 0; n < AHEAD_URIS; n++) {
		const char *k, *v;
		size_t kl, vl;

		leveldb_iter_next(it);
		if (!leveldb_iter_valid(it))
			break;
		k = leveldb_iter_key(it, &kl);
		if (kl < plen || memcmp(k, prefix, plen) != 0)
			break;
		if (limit != NULL && ahead_cmp(k, kl, limit, llen) >= 0)
			break;
		v = leveldb_iter_value(it, &vl);
		q->ahead_last = q->ahead.len;
		ahead_put32(&q->ahead, kl);
		buf_append(&q->ahead, k, kl);
		ahead_put32(&q->ahead, vl);
		buf_append(&q->ahead, v, vl);
	}
	f->ahead_bytes += q->ahead.cap;
}

int ahead_front(const struct wq *q, const char **k, size_t *kl, const char **v, size_t *vl)
{
	const char *p = q->ahead.data + q->ahead_off;

	if (q->ahead_off >= q->ahead.len)
		return 0;
	*kl = ahead_get32(p);
	*k = p + 4;
	*vl = ahead_get32(p + 4 + *kl);
	*v = p + 8 + *kl;
	return 1;
}

void ahead_pop(struct frontier *f, struct wq *q)
{
	const char *k, *v;
	size_t kl, vl;

	if (!ahead_front(q, &k, &kl, &v, &vl))
		return;
	q->ahead_off += 8 + kl + vl;
	if (q->ahead_off >= q->ahead.len)
		ahead_drop(f, q);
}

void ahead_put(struct frontier *f, struct wq *q, int directive, int precedence, uint64_t ordinal)
{
	const char *last, *qk;
	size_t ql;
	int d, p;
	uint64_t o;

	if (q->ahead_off >= q->ahead.len)
		return;
	last = q->ahead.data + q->ahead_last;
	if (precedence > KEYS_MAX_PRECEDENCE)
		precedence = KEYS_MAX_PRECEDENCE;
	/* Keys of two segments do not compare as bytes: their places do. */
	if (keys_uri_parse(last + 4, ahead_get32(last), &qk, &ql, &d, &p, &o) < 0 ||
	    directive < d ||
	    (directive == d && (precedence < p || (precedence == p && ordinal < o))))
		ahead_drop(f, q);
}
