/* LevelDB MANIFEST reader: the log format's 32 KiB blocks of checksummed
 * fragments, reassembled into records, each a version edit whose tagged
 * fields add and delete table files. The live set is the result of applying
 * every edit in order; it is computed by sorting the add/delete events, so
 * hostile input costs O(n log n) and memory linear in its size. */
#include "crawl/ldbmanifest.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

#include <stdlib.h>
#include <string.h>

#define LDBMANIFEST_BLOCK 32768
#define LDBMANIFEST_HEADER 7
/* LevelDB's config::kNumLevels. */
#define LDBMANIFEST_LEVELS 7

enum {
	LDBMANIFEST_ZERO = 0,
	LDBMANIFEST_FULL = 1,
	LDBMANIFEST_FIRST = 2,
	LDBMANIFEST_MIDDLE = 3,
	LDBMANIFEST_LAST = 4,
};

/* Version edit tags (db/version_edit.cc). */
enum {
	LDBMANIFEST_COMPARATOR = 1,
	LDBMANIFEST_LOG_NUMBER = 2,
	LDBMANIFEST_NEXT_FILE = 3,
	LDBMANIFEST_LAST_SEQUENCE = 4,
	LDBMANIFEST_COMPACT_POINTER = 5,
	LDBMANIFEST_DELETED_FILE = 6,
	LDBMANIFEST_NEW_FILE = 7,
	LDBMANIFEST_PREV_LOG = 9,
};

struct ldbmanifest_event {
	uint64_t number, size, seq;
	int level, add;
};

struct ldbmanifest_parser {
	struct ldbmanifest *m;
	struct ldbmanifest_event *ev;
	size_t nev, cap;
	char **err;
};

static uint32_t ldbmanifest_table_crc[256];

uint32_t ldbmanifest_crc32c(uint32_t crc, const unsigned char *p, size_t n)
{
	if (ldbmanifest_table_crc[1] == 0) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
			ldbmanifest_table_crc[i] = c;
		}
	}
	crc = ~crc;
	while (n-- > 0)
		crc = ldbmanifest_table_crc[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static uint32_t ldbmanifest_unmask(uint32_t masked)
{
	uint32_t rot = masked - 0xa282ead8u;

	return (rot >> 17) | (rot << 15);
}

static int ldbmanifest_varint(
    const unsigned char **p, const unsigned char *end, uint64_t *out, int bits)
{
	uint64_t v = 0;

	for (int shift = 0; shift < bits && *p < end; shift += 7) {
		unsigned char b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if (bits == 32 && v > UINT32_MAX)
				return -1;
			*out = v;
			return 0;
		}
	}
	return -1;
}

static int ldbmanifest_slice(const unsigned char **p, const unsigned char *end)
{
	uint64_t n;

	if (ldbmanifest_varint(p, end, &n, 32) < 0 || n > (uint64_t)(end - *p))
		return -1;
	*p += n;
	return 0;
}

static void ldbmanifest_event_add(
    struct ldbmanifest_parser *ps, int level, uint64_t number, uint64_t size, int add)
{
	struct ldbmanifest_event *e;

	if (ps->nev == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 64;
		ps->ev = xrealloc(ps->ev, ps->cap * sizeof *ps->ev);
	}
	e = &ps->ev[ps->nev++];
	e->level = level;
	e->number = number;
	e->size = size;
	e->add = add;
	/* Within one edit an addition wins over a deletion of the same file,
	 * whatever their order (VersionSet::Builder::Apply). */
	e->seq = (uint64_t)ps->m->edits * 2 + (add ? 1 : 0);
}

static int ldbmanifest_edit(struct ldbmanifest_parser *ps, const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;
	struct ldbmanifest *m = ps->m;

	while (p < end) {
		uint64_t tag, level, number, size;

		if (ldbmanifest_varint(&p, end, &tag, 32) < 0)
			goto bad;
		switch (tag) {
		case LDBMANIFEST_COMPARATOR:
			if (ldbmanifest_slice(&p, end) < 0)
				goto bad;
			break;
		case LDBMANIFEST_LOG_NUMBER:
			if (ldbmanifest_varint(&p, end, &m->log_number, 64) < 0)
				goto bad;
			break;
		case LDBMANIFEST_PREV_LOG:
			if (ldbmanifest_varint(&p, end, &m->prev_log_number, 64) < 0)
				goto bad;
			break;
		case LDBMANIFEST_NEXT_FILE:
			if (ldbmanifest_varint(&p, end, &m->next_file_number, 64) < 0)
				goto bad;
			break;
		case LDBMANIFEST_LAST_SEQUENCE:
			if (ldbmanifest_varint(&p, end, &m->last_sequence, 64) < 0)
				goto bad;
			break;
		case LDBMANIFEST_COMPACT_POINTER:
			if (ldbmanifest_varint(&p, end, &level, 32) < 0 ||
			    level >= LDBMANIFEST_LEVELS || ldbmanifest_slice(&p, end) < 0)
				goto bad;
			break;
		case LDBMANIFEST_DELETED_FILE:
			if (ldbmanifest_varint(&p, end, &level, 32) < 0 ||
			    level >= LDBMANIFEST_LEVELS ||
			    ldbmanifest_varint(&p, end, &number, 64) < 0)
				goto bad;
			ldbmanifest_event_add(ps, (int)level, number, 0, 0);
			break;
		case LDBMANIFEST_NEW_FILE:
			if (ldbmanifest_varint(&p, end, &level, 32) < 0 ||
			    level >= LDBMANIFEST_LEVELS ||
			    ldbmanifest_varint(&p, end, &number, 64) < 0 ||
			    ldbmanifest_varint(&p, end, &size, 64) < 0 ||
			    ldbmanifest_slice(&p, end) < 0 || ldbmanifest_slice(&p, end) < 0)
				goto bad;
			ldbmanifest_event_add(ps, (int)level, number, size, 1);
			break;
		default:
			*ps->err = xasprintf("MANIFEST: version edit %zu has unknown tag %llu",
			    m->edits + 1, (unsigned long long)tag);
			return -1;
		}
	}
	m->edits++;
	return 0;
bad:
	*ps->err = xasprintf("MANIFEST: version edit %zu is malformed", m->edits + 1);
	return -1;
}

static int ldbmanifest_event_cmp(const void *a, const void *b)
{
	const struct ldbmanifest_event *x = a, *y = b;

	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return 0;
}

/* The live set: for each (number, level), the last event decides. */
static void ldbmanifest_live(struct ldbmanifest_parser *ps)
{
	struct ldbmanifest *m = ps->m;

	if (ps->nev == 0)
		return;
	qsort(ps->ev, ps->nev, sizeof *ps->ev, ldbmanifest_event_cmp);
	for (size_t i = 0; i < ps->nev; i++) {
		const struct ldbmanifest_event *e = &ps->ev[i];

		if (i + 1 < ps->nev && ps->ev[i + 1].number == e->number &&
		    ps->ev[i + 1].level == e->level)
			continue;
		if (!e->add)
			continue;
		m->tables = xrealloc(m->tables, (m->ntables + 1) * sizeof *m->tables);
		m->tables[m->ntables].level = e->level;
		m->tables[m->ntables].number = e->number;
		m->tables[m->ntables].size = e->size;
		m->ntables++;
	}
}

int ldbmanifest_parse(const unsigned char *data, size_t len, struct ldbmanifest *m, char **err)
{
	struct ldbmanifest_parser ps = {m, NULL, 0, 0, err};
	struct buf rec = BUF_INIT;
	int in_frag = 0, rc = 0;
	size_t pos = 0;

	memset(m, 0, sizeof *m);
	while (pos < len) {
		size_t left = LDBMANIFEST_BLOCK - pos % LDBMANIFEST_BLOCK, n;
		const unsigned char *h = data + pos;
		uint32_t want, got;
		int type;

		if (left < LDBMANIFEST_HEADER) {
			pos += left; /* the block's zero trailer */
			continue;
		}
		if (len - pos < LDBMANIFEST_HEADER)
			break; /* a header cut short: the end */
		n = (size_t)h[4] | (size_t)h[5] << 8;
		type = h[6];
		if (LDBMANIFEST_HEADER + n > left) {
			*err = xasprintf("MANIFEST: record at byte %zu crosses its block", pos);
			rc = -1;
			break;
		}
		if (LDBMANIFEST_HEADER + n > len - pos)
			break; /* a record cut short: the end */
		if (type == LDBMANIFEST_ZERO && n == 0) {
			pos += left; /* preallocated zeros */
			continue;
		}
		want = ldbmanifest_unmask((uint32_t)h[0] | (uint32_t)h[1] << 8 |
		    (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24);
		got = ldbmanifest_crc32c(0, h + 6, 1 + n);
		if (want != got) {
			*err =
			    xasprintf("MANIFEST: checksum mismatch in the record at byte %zu", pos);
			rc = -1;
			break;
		}
		pos += LDBMANIFEST_HEADER + n;
		switch (type) {
		case LDBMANIFEST_FULL:
			if (in_frag)
				goto frag;
			if (ldbmanifest_edit(&ps, h + LDBMANIFEST_HEADER, n) < 0)
				rc = -1;
			m->used = pos;
			break;
		case LDBMANIFEST_FIRST:
			if (in_frag)
				goto frag;
			buf_reset(&rec);
			buf_append(&rec, (const char *)h + LDBMANIFEST_HEADER, n);
			in_frag = 1;
			break;
		case LDBMANIFEST_MIDDLE:
		case LDBMANIFEST_LAST:
			if (!in_frag)
				goto frag;
			buf_append(&rec, (const char *)h + LDBMANIFEST_HEADER, n);
			if (type == LDBMANIFEST_LAST) {
				in_frag = 0;
				if (ldbmanifest_edit(
					&ps, (const unsigned char *)rec.data, rec.len) < 0)
					rc = -1;
				m->used = pos;
			}
			break;
		default:
			*err = xasprintf("MANIFEST: unknown record type %d at byte %zu", type,
			    pos - LDBMANIFEST_HEADER - n);
			rc = -1;
			break;
		}
		if (rc < 0)
			break;
		continue;
	frag:
		*err = xasprintf(
		    "MANIFEST: fragments out of order at byte %zu", pos - LDBMANIFEST_HEADER - n);
		rc = -1;
		break;
	}
	buf_free(&rec);
	if (rc == 0 && m->edits == 0) {
		*err = xstrdup("MANIFEST: no version edit");
		rc = -1;
	}
	if (rc == 0)
		ldbmanifest_live(&ps);
	free(ps.ev);
	if (rc < 0)
		ldbmanifest_free(m);
	return rc;
}

void ldbmanifest_free(struct ldbmanifest *m)
{
	free(m->tables);
	m->tables = NULL;
	m->ntables = 0;
}
