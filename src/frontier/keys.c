/* Key and value encodings of the frontier store. Values are sequences of
 * LEB128 varints (signed ones zigzag-encoded) and length-prefixed strings,
 * with a leading version byte so that a later layout can be told apart. */
#include "frontier/keys.h"
#include "lib/robots.h"
#include "lib/base32.h"
#include "lib/history.h"
#include "lib/xmalloc.h"
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define KEYS_VERSION 1
/* A record with the fields of a continuous crawl after the common ones: a
 * URI's fetch history, the counters' revisit count. */
#define KEYS_VERSION_REVISIT 2
#define KEYS_QKEY_MAX 1024
#define KEYS_STR_MAX (16u << 20)

static void keys_be64(struct buf *b, uint64_t v)
{
	unsigned char x[8];
	int i;

	for (i = 7; i >= 0; i--) {
		x[i] = v & 0xff;
		v >>= 8;
	}
	buf_append(b, x, 8);
}

static uint64_t keys_get_be64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static int keys_clip(int p, int max)
{
	return p < 0 ? 0 : p > max ? max : p;
}

int keys_qkey_valid(const char *qkey)
{
	size_t n = qkey != NULL ? strlen(qkey) : 0;

	return n > 0 && n <= KEYS_QKEY_MAX;
}

uint32_t keys_segment(uint64_t ordinal)
{
	uint64_t s = ordinal >> KEYS_SEGMENT_SHIFT;

	return s < UINT32_MAX ? (uint32_t)s : UINT32_MAX;
}

void keys_uri_prefix(struct buf *b, uint32_t seg, const char *qkey)
{
	unsigned char x[4] = {seg >> 24, seg >> 16, seg >> 8, seg};

	buf_appendc(b, KEYS_URI);
	buf_append(b, x, 4);
	buf_appends(b, qkey);
	buf_appendc(b, '\0');
}

void keys_uri_at(
    struct buf *b, uint32_t seg, const char *qkey, int directive, int precedence, uint64_t ordinal)
{
	keys_uri_prefix(b, seg, qkey);
	buf_appendc(b, (char)keys_clip(directive, 255));
	buf_appendc(b, (char)keys_clip(precedence, KEYS_MAX_PRECEDENCE));
	keys_be64(b, ordinal);
}

void keys_uri(struct buf *b, const char *qkey, int directive, int precedence, uint64_t ordinal)
{
	keys_uri_at(b, keys_segment(ordinal), qkey, directive, precedence, ordinal);
}

int keys_uri_parse(const char *k, size_t n, const char **qkey, size_t *qlen, int *directive,
    int *precedence, uint64_t *ordinal)
{
	const unsigned char *u = (const unsigned char *)k;
	const char *nul;

	uint32_t seg;

	if (n < 1 + 4 + 1 + 1 + 2 + 8 || k[0] != KEYS_URI)
		return -1;
	seg = (uint32_t)u[1] << 24 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 8 | u[4];
	nul = memchr(k + 5, '\0', n - 5);
	if (nul == NULL || nul == k + 5 || (size_t)(nul - k) + 1 + 2 + 8 != n)
		return -1;
	*qkey = k + 5;
	*qlen = (size_t)(nul - k) - 5;
	u = (const unsigned char *)nul + 1;
	*directive = u[0];
	*precedence = u[1];
	*ordinal = keys_get_be64(u + 2);
	return seg == keys_segment(*ordinal) ? 0 : -1;
}

void keys_queue(struct buf *b, const char *qkey)
{
	buf_appendc(b, KEYS_QUEUE);
	buf_appends(b, qkey);
}

void keys_active(struct buf *b, const char *qkey)
{
	buf_appendc(b, KEYS_ACTIVE);
	buf_appends(b, qkey);
}

void keys_inactive(struct buf *b, int precedence, uint64_t seq)
{
	buf_appendc(b, KEYS_INACTIVE);
	buf_appendc(b, (char)keys_clip(precedence, KEYS_MAX_QPRECEDENCE));
	keys_be64(b, seq);
}

int keys_inactive_parse(const char *k, size_t n, int *precedence, uint64_t *seq)
{
	if (n != 10 || k[0] != KEYS_INACTIVE)
		return -1;
	*precedence = (unsigned char)k[1];
	*seq = keys_get_be64((const unsigned char *)k + 2);
	return 0;
}

void keys_retired(struct buf *b, uint64_t seq)
{
	buf_appendc(b, KEYS_RETIRED);
	keys_be64(b, seq);
}

void keys_seen(struct buf *b, const char *canon)
{
	buf_appendc(b, KEYS_SEEN);
	buf_appends(b, canon);
}

void keys_meta(struct buf *b)
{
	keys_meta_named(b, "counters");
}

void keys_meta_named(struct buf *b, const char *name)
{
	buf_appendc(b, KEYS_META);
	buf_appends(b, name);
}

void keys_preload(struct buf *b, const char *canon)
{
	buf_appendc(b, KEYS_PRELOAD);
	buf_appends(b, canon);
}

void keys_robots(struct buf *b, const char *server)
{
	buf_appendc(b, KEYS_ROBOTS);
	buf_appends(b, server);
}

void keys_cookie(struct buf *b, const char *domain, const char *path, const char *name)
{
	buf_appendc(b, KEYS_COOKIE);
	buf_appends(b, domain);
	buf_appendc(b, '\0');
	buf_appends(b, path);
	buf_appendc(b, '\0');
	buf_appends(b, name);
}

void keys_revisit(struct buf *b, uint64_t due_ms, uint64_t ordinal)
{
	buf_appendc(b, KEYS_REVISIT);
	keys_be64(b, due_ms);
	keys_be64(b, ordinal);
}

int keys_revisit_parse(const char *k, size_t n, uint64_t *due_ms, uint64_t *ordinal)
{
	if (n != 17 || k[0] != KEYS_REVISIT)
		return -1;
	*due_ms = keys_get_be64((const unsigned char *)k + 1);
	*ordinal = keys_get_be64((const unsigned char *)k + 9);
	return 0;
}

/* Value encoding. */

static void keys_put_uv(struct buf *b, uint64_t v)
{
	unsigned char x[10];
	size_t n = 0;

	while (v >= 0x80) {
		x[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	x[n++] = (unsigned char)v;
	buf_append(b, x, n);
}

static void keys_put_sv(struct buf *b, int64_t v)
{
	keys_put_uv(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* A NULL string is encoded as length 0 with a flag in the low bit, so that
 * NULL and "" stay distinct. */
static void keys_put_str(struct buf *b, const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	keys_put_uv(b, s != NULL ? ((uint64_t)n << 1) | 1 : 0);
	buf_append(b, s != NULL ? s : "", n);
}

struct keys_reader {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t keys_get_uv(struct keys_reader *r)
{
	uint64_t v = 0;
	int shift = 0;

	while (r->p < r->end && shift < 64) {
		unsigned char c = *r->p++;

		v |= (uint64_t)(c & 0x7f) << shift;
		if ((c & 0x80) == 0)
			return v;
		shift += 7;
	}
	r->bad = 1;
	return 0;
}

static int64_t keys_get_sv(struct keys_reader *r)
{
	uint64_t u = keys_get_uv(r);

	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static int keys_get_int(struct keys_reader *r, int lo, int hi)
{
	int64_t v = keys_get_sv(r);

	if (v < lo || v > hi)
		r->bad = 1;
	return r->bad ? lo : (int)v;
}

static char *keys_get_str(struct keys_reader *r)
{
	uint64_t h = keys_get_uv(r);
	uint64_t n = h >> 1;
	char *s;

	if (r->bad || (h & 1) == 0) {
		if (h != 0)
			r->bad = 1;
		return NULL;
	}
	if (n > KEYS_STR_MAX || n > (uint64_t)(r->end - r->p)) {
		r->bad = 1;
		return NULL;
	}
	s = xstrndup((const char *)r->p, (size_t)n);
	if (strlen(s) != n)
		r->bad = 1;
	r->p += n;
	return s;
}

static int keys_reader_start_as(struct keys_reader *r, const char *v, size_t n, int version)
{
	r->p = (const unsigned char *)v;
	r->end = r->p + n;
	r->bad = 0;
	if (n < 1 || *r->p != version)
		return -1;
	r->p++;
	return 0;
}

static int keys_reader_start(struct keys_reader *r, const char *v, size_t n)
{
	return keys_reader_start_as(r, v, n, KEYS_VERSION);
}

/* The fetch history of a continuous crawl rides at the end of its URI's
 * record, which then starts with version 2 instead of 1 (so that a record
 * cut before its history is refused, not read as one without). The
 * digest is kept as its 20 bytes when it is a SHA-1 in the usual text
 * form, else as text. */
enum { KEYS_DIGEST_NONE = 0, KEYS_DIGEST_SHA1 = 1, KEYS_DIGEST_TEXT = 2 };

static void keys_history_put(struct buf *b, const struct history *h)
{
	unsigned char raw[20];

	if (h->digest == NULL) {
		keys_put_uv(b, KEYS_DIGEST_NONE);
	} else if (strncmp(h->digest, "sha1:", 5) == 0 &&
	    base32_decode20(h->digest + 5, raw) == 0) {
		keys_put_uv(b, KEYS_DIGEST_SHA1);
		buf_append(b, raw, sizeof(raw));
	} else {
		keys_put_uv(b, KEYS_DIGEST_TEXT);
		keys_put_str(b, h->digest);
	}
	keys_put_str(b, h->etag);
	keys_put_str(b, h->last_modified);
	keys_put_sv(b, h->content_us);
	keys_put_str(b, h->content_uri);
	keys_put_sv(b, h->last_visit_ms);
	keys_put_sv(b, h->last_change_ms);
	keys_put_uv(b, h->visits);
	keys_put_uv(b, h->changes);
	keys_put_uv(b, h->not_modified);
	keys_put_uv(b, h->unchanged);
	keys_put_sv(b, h->interval_s);
	keys_put_sv(b, h->due_ms);
}

static struct history *keys_history_get(struct keys_reader *r)
{
	struct history *h = history_new();
	char text[40];

	switch (keys_get_uv(r)) {
	case KEYS_DIGEST_NONE:
		break;
	case KEYS_DIGEST_SHA1:
		if (r->end - r->p < 20) {
			r->bad = 1;
			break;
		}
		memcpy(text, "sha1:", 5);
		base32_encode20(r->p, text + 5);
		r->p += 20;
		h->digest = xstrdup(text);
		break;
	case KEYS_DIGEST_TEXT:
		h->digest = keys_get_str(r);
		if (h->digest == NULL)
			r->bad = 1;
		break;
	default:
		r->bad = 1;
	}
	h->etag = keys_get_str(r);
	h->last_modified = keys_get_str(r);
	h->content_us = keys_get_sv(r);
	h->content_uri = keys_get_str(r);
	h->last_visit_ms = keys_get_sv(r);
	h->last_change_ms = keys_get_sv(r);
	h->visits = keys_get_uv(r);
	h->changes = keys_get_uv(r);
	h->not_modified = keys_get_uv(r);
	h->unchanged = keys_get_uv(r);
	h->interval_s = keys_get_sv(r);
	h->due_ms = keys_get_sv(r);
	return h;
}

void keys_curi_encode(struct buf *b, const struct curi *c)
{
	buf_appendc(b, c->history != NULL ? KEYS_VERSION_REVISIT : KEYS_VERSION);
	keys_put_str(b, c->uri);
	keys_put_str(b, c->via);
	keys_put_str(b, c->hops);
	keys_put_sv(b, c->precedence);
	keys_put_sv(b, c->directive);
	keys_put_sv(b, c->attempts);
	keys_put_sv(b, c->cost);
	keys_put_uv(b, c->flags);
	keys_put_uv(b, c->ordinal);
	keys_put_str(b, c->queue_key);
	if (c->history != NULL)
		keys_history_put(b, c->history);
}

int keys_curi_decode(const char *v, size_t n, struct curi **out)
{
	struct keys_reader r;
	struct curi *c;
	int with_history = n > 0 && v[0] == KEYS_VERSION_REVISIT;

	*out = NULL;
	if (with_history ? keys_reader_start_as(&r, v, n, KEYS_VERSION_REVISIT) < 0
			 : keys_reader_start(&r, v, n) < 0)
		return -1;
	c = xcalloc(1, sizeof(*c));
	c->uri = keys_get_str(&r);
	c->via = keys_get_str(&r);
	c->hops = keys_get_str(&r);
	c->precedence = keys_get_int(&r, 0, 1 << 30);
	c->directive = keys_get_int(&r, 0, 255);
	c->attempts = keys_get_int(&r, 0, 1 << 30);
	c->cost = keys_get_sv(&r);
	c->flags = (unsigned)keys_get_uv(&r);
	c->ordinal = keys_get_uv(&r);
	c->queue_key = keys_get_str(&r);
	if (with_history && !r.bad)
		c->history = keys_history_get(&r);
	if (r.bad || r.p != r.end || c->uri == NULL || c->hops == NULL) {
		curi_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

void keys_qmeta_encode(struct buf *b, const struct keys_qmeta *m)
{
	size_t i;

	buf_appendc(b, KEYS_VERSION);
	keys_put_sv(b, m->state);
	keys_put_sv(b, m->precedence);
	keys_put_sv(b, m->filed_precedence);
	keys_put_uv(b, m->filed_seq);
	keys_put_uv(b, m->count);
	keys_put_uv(b, m->enqueues);
	keys_put_uv(b, m->successes);
	keys_put_uv(b, m->errors);
	keys_put_uv(b, m->cost_count);
	keys_put_sv(b, m->total_expenditure);
	keys_put_sv(b, m->expenditure_at_activation);
	keys_put_sv(b, m->last_cost);
	keys_put_sv(b, m->active);
	keys_put_uv(b, m->wake_ms);
	keys_put_uv(b, m->last_dequeue_ms);
	keys_put_uv(b, m->failures);
	keys_put_uv(b, m->nhist);
	for (i = 0; i < m->nhist; i++) {
		keys_put_sv(b, m->hist_prec[i]);
		keys_put_uv(b, m->hist_count[i]);
	}
	keys_put_str(b, m->surt);
	keys_put_str(b, m->last_peeked);
	keys_put_str(b, m->last_queued);
	keys_put_uv(b, m->head_ord);
	if (m->head_ord > 0) {
		keys_put_sv(b, m->head_dir);
		keys_put_sv(b, m->head_prec);
		keys_put_sv(b, m->head_live);
	}
	/* The segments, as the first and then the gaps between them. */
	keys_put_uv(b, m->nsegs);
	for (i = 0; i < m->nsegs; i++)
		keys_put_uv(b, i == 0 ? m->segs[0] : m->segs[i] - m->segs[i - 1]);
	for (i = 0; i < 5; i++)
		keys_put_uv(b, m->dir_count[i]);
}

void keys_dir_add(struct keys_qmeta *m, int directive, int64_t delta)
{
	uint64_t *n = &m->dir_count[directive < 0 ? 0 : directive > 4 ? 4 : directive];

	if (delta < 0 && (uint64_t)-delta > *n)
		*n = 0;
	else
		*n += (uint64_t)delta;
}

int keys_qmeta_uniform(const struct keys_qmeta *m)
{
	size_t i;

	if (m->nhist != 1 || m->hist_count[0] != m->count)
		return 0;
	for (i = 0; i < 4; i++)
		if (m->dir_count[i] == m->count)
			return 1;
	return 0;
}

void keys_qmeta_seg_add(struct keys_qmeta *m, uint32_t seg)
{
	size_t i = m->nsegs;

	/* New URIs go into the last segment: the usual case is a look. */
	if (i > 0 && m->segs[i - 1] == seg)
		return;
	while (i > 0 && m->segs[i - 1] > seg)
		i--;
	if (i > 0 && m->segs[i - 1] == seg)
		return;
	if (m->nsegs == m->segcap) {
		m->segcap = m->segcap ? m->segcap * 2 : 4;
		m->segs = xrealloc(m->segs, m->segcap * sizeof(*m->segs));
	}
	memmove(m->segs + i + 1, m->segs + i, (m->nsegs - i) * sizeof(*m->segs));
	m->segs[i] = seg;
	m->nsegs++;
}

void keys_qmeta_seg_remove(struct keys_qmeta *m, size_t i)
{
	assert(i < m->nsegs);
	memmove(m->segs + i, m->segs + i + 1, (m->nsegs - i - 1) * sizeof(*m->segs));
	m->nsegs--;
}

void keys_qmeta_clear(struct keys_qmeta *m)
{
	free(m->segs);
	free(m->surt);
	free(m->last_peeked);
	free(m->last_queued);
	memset(m, 0, sizeof(*m));
}

int keys_qmeta_decode(const char *v, size_t n, struct keys_qmeta *m)
{
	struct keys_reader r;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (keys_reader_start(&r, v, n) < 0)
		return -1;
	m->state = keys_get_int(&r, 0, 255);
	m->precedence = keys_get_int(&r, 0, KEYS_MAX_QPRECEDENCE);
	m->filed_precedence = keys_get_int(&r, 0, KEYS_MAX_QPRECEDENCE);
	m->filed_seq = keys_get_uv(&r);
	m->count = keys_get_uv(&r);
	m->enqueues = keys_get_uv(&r);
	m->successes = keys_get_uv(&r);
	m->errors = keys_get_uv(&r);
	m->cost_count = keys_get_uv(&r);
	m->total_expenditure = keys_get_sv(&r);
	m->expenditure_at_activation = keys_get_sv(&r);
	m->last_cost = keys_get_sv(&r);
	m->active = keys_get_int(&r, 0, 1);
	m->wake_ms = keys_get_uv(&r);
	m->last_dequeue_ms = keys_get_uv(&r);
	m->failures = (unsigned)keys_get_uv(&r);
	m->nhist = keys_get_uv(&r);
	if (m->nhist > KEYS_HIST_MAX)
		r.bad = 1;
	for (i = 0; !r.bad && i < m->nhist; i++) {
		m->hist_prec[i] = keys_get_int(&r, 0, 1 << 30);
		m->hist_count[i] = keys_get_uv(&r);
	}
	if (!r.bad)
		m->surt = keys_get_str(&r);
	if (!r.bad)
		m->last_peeked = keys_get_str(&r);
	if (!r.bad)
		m->last_queued = keys_get_str(&r);
	if (!r.bad) {
		m->head_ord = keys_get_uv(&r);
		if (m->head_ord > 0) {
			m->head_dir = keys_get_int(&r, 0, 255);
			m->head_prec = keys_get_int(&r, 0, KEYS_MAX_PRECEDENCE);
			m->head_live = keys_get_int(&r, 0, 1);
		}
	}
	if (!r.bad) {
		uint64_t ns = keys_get_uv(&r), seg = 0;

		/* Each takes a byte at least: a count past that is corrupt. */
		if (ns > (uint64_t)(r.end - r.p))
			r.bad = 1;
		for (i = 0; !r.bad && i < ns; i++) {
			uint64_t d = keys_get_uv(&r);

			if ((i > 0 && d == 0) || d > UINT32_MAX || seg + d > UINT32_MAX) {
				r.bad = 1;
				break;
			}
			seg += d;
			keys_qmeta_seg_add(m, (uint32_t)seg);
		}
	}
	for (i = 0; !r.bad && i < 5; i++)
		m->dir_count[i] = keys_get_uv(&r);
	if (r.bad || r.p != r.end) {
		keys_qmeta_clear(m);
		return -1;
	}
	return 0;
}

void keys_counters_encode(struct buf *b, const struct keys_counters *c)
{
	size_t i, n = 0;

	buf_appendc(b, c->revisits > 0 ? KEYS_VERSION_REVISIT : KEYS_VERSION);
	keys_put_uv(b, c->next_ordinal);
	keys_put_uv(b, c->next_seq);
	keys_put_uv(b, c->queued);
	keys_put_uv(b, c->succeeded);
	keys_put_uv(b, c->failed);
	keys_put_uv(b, c->disregarded);
	keys_put_uv(b, c->discovered);
	keys_put_uv(b, c->queues_total);
	keys_put_uv(b, c->retired);
	keys_put_uv(b, c->retired_uris);
	/* Only non-empty buckets: usually one or two of the 256. */
	for (i = 0; i <= KEYS_MAX_QPRECEDENCE; i++)
		n += c->inactive[i] != 0 || c->inactive_uris[i] != 0;
	keys_put_uv(b, n);
	for (i = 0; i <= KEYS_MAX_QPRECEDENCE; i++) {
		if (c->inactive[i] == 0 && c->inactive_uris[i] == 0)
			continue;
		keys_put_uv(b, i);
		keys_put_uv(b, c->inactive[i]);
		keys_put_uv(b, c->inactive_uris[i]);
	}
	/* A continuous crawl's count comes last, under version 2, so stores
	 * of one-time crawls read as before. */
	if (c->revisits > 0)
		keys_put_uv(b, c->revisits);
}

int keys_counters_decode(const char *v, size_t n, struct keys_counters *c)
{
	struct keys_reader r;
	uint64_t nb, i, p;
	int with_revisits = n > 0 && v[0] == KEYS_VERSION_REVISIT;

	memset(c, 0, sizeof(*c));
	if (keys_reader_start_as(&r, v, n, with_revisits ? KEYS_VERSION_REVISIT : KEYS_VERSION) < 0)
		return -1;
	c->next_ordinal = keys_get_uv(&r);
	c->next_seq = keys_get_uv(&r);
	c->queued = keys_get_uv(&r);
	c->succeeded = keys_get_uv(&r);
	c->failed = keys_get_uv(&r);
	c->disregarded = keys_get_uv(&r);
	c->discovered = keys_get_uv(&r);
	c->queues_total = keys_get_uv(&r);
	c->retired = keys_get_uv(&r);
	c->retired_uris = keys_get_uv(&r);
	nb = keys_get_uv(&r);
	if (nb > KEYS_MAX_QPRECEDENCE + 1)
		r.bad = 1;
	for (i = 0; !r.bad && i < nb; i++) {
		p = keys_get_uv(&r);
		if (p > KEYS_MAX_QPRECEDENCE) {
			r.bad = 1;
			break;
		}
		c->inactive[p] = keys_get_uv(&r);
		c->inactive_uris[p] = keys_get_uv(&r);
	}
	if (with_revisits && !r.bad && (c->revisits = keys_get_uv(&r)) == 0)
		r.bad = 1;
	if (r.bad || r.p != r.end) {
		memset(c, 0, sizeof(*c));
		return -1;
	}
	return 0;
}

void keys_u64s_encode(struct buf *b, const uint64_t *v, size_t n)
{
	buf_appendc(b, KEYS_VERSION);
	keys_put_uv(b, n);
	for (size_t i = 0; i < n; i++)
		keys_put_uv(b, v[i]);
}

int keys_u64s_decode(const char *v, size_t n, uint64_t *out, size_t max)
{
	struct keys_reader r;
	uint64_t count, x;

	memset(out, 0, max * sizeof *out);
	if (keys_reader_start(&r, v, n) < 0)
		return -1;
	count = keys_get_uv(&r);
	for (uint64_t i = 0; !r.bad && i < count; i++) {
		x = keys_get_uv(&r);
		if (i < max)
			out[i] = x;
	}
	if (r.bad || r.p != r.end) {
		memset(out, 0, max * sizeof *out);
		return -1;
	}
	return 0;
}

int keys_hist_add(struct keys_qmeta *m, int p, int64_t delta)
{
	size_t i;

	for (i = 0; i < m->nhist; i++) {
		if (m->hist_prec[i] != p)
			continue;
		if (delta < 0 && (uint64_t)-delta >= m->hist_count[i]) {
			m->nhist--;
			m->hist_prec[i] = m->hist_prec[m->nhist];
			m->hist_count[i] = m->hist_count[m->nhist];
		} else {
			m->hist_count[i] += (uint64_t)delta;
		}
		return 0;
	}
	if (delta <= 0)
		return 0;
	if (m->nhist == KEYS_HIST_MAX)
		return -1;
	m->hist_prec[m->nhist] = p;
	m->hist_count[m->nhist] = (uint64_t)delta;
	m->nhist++;
	return 0;
}

int keys_hist_min(const struct keys_qmeta *m)
{
	size_t i;
	int best = -1;

	for (i = 0; i < m->nhist; i++)
		if (best < 0 || m->hist_prec[i] < best)
			best = m->hist_prec[i];
	return best;
}

void keys_robots_encode(struct buf *b, uint64_t fetched_ms, const struct robots *r)
{
	buf_appendc(b, KEYS_VERSION);
	keys_put_uv(b, fetched_ms);
	robots_serialize(r, b);
}

struct robots *keys_robots_decode(const char *v, size_t n, uint64_t *fetched_ms)
{
	struct keys_reader r;

	if (keys_reader_start(&r, v, n) < 0)
		return NULL;
	*fetched_ms = keys_get_uv(&r);
	if (r.bad)
		return NULL;
	return robots_deserialize((const char *)r.p, (size_t)(r.end - r.p));
}
