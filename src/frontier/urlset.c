/* The exact string set within a budget (urlset.h). */
#include "frontier/urlset.h"
#include "lib/hash.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <string.h>

/* Segment references are 12 bits of segment and 20 of offset; slot 0 of
 * the index means empty, so a reference is stored plus one. */
#define URLSET_OFF_BITS 20
#define URLSET_MAX_SEGS 4095
#define URLSET_MIN_SEG (32u << 10)
#define URLSET_MAX_SEG (1u << URLSET_OFF_BITS)
#define URLSET_MIN_BUDGET (64u << 10)
#define URLSET_FIRST_SLOTS 1024

struct urlset_seg {
	char *data;
	size_t len;
	uint64_t gen; /* the seal generation of its last append */
};

struct urlset {
	size_t budget, seg_size;
	struct urlset_seg *seg; /* a ring: oldest at head */
	size_t seg_cap, head, count;
	char *spare;	/* a dropped segment's memory, reused */
	uint64_t *slot; /* tag << 32 | (ref + 1); 0 empty */
	size_t mask, n, max_slots;
	uint64_t gen;
	int dropped;
	struct urlset_stats st;
};

struct urlset *urlset_new(size_t budget)
{
	struct urlset *u = xcalloc(1, sizeof(*u));

	if (budget < URLSET_MIN_BUDGET)
		budget = URLSET_MIN_BUDGET;
	u->budget = budget;
	u->seg_size = budget / 32;
	if (u->seg_size < URLSET_MIN_SEG)
		u->seg_size = URLSET_MIN_SEG;
	if (u->seg_size > URLSET_MAX_SEG)
		u->seg_size = URLSET_MAX_SEG;
	u->seg_cap = URLSET_MAX_SEGS;
	u->seg = xcalloc(u->seg_cap, sizeof(*u->seg));
	u->slot = xcalloc(URLSET_FIRST_SLOTS, sizeof(*u->slot));
	u->mask = URLSET_FIRST_SLOTS - 1;
	/* The index may take a quarter of the budget: at most 0.7 of its
	 * slots are used, 8 bytes each, for strings of 40 to 80 bytes. */
	u->max_slots = URLSET_FIRST_SLOTS;
	while (u->max_slots * 2 * sizeof(*u->slot) <= budget / 4)
		u->max_slots *= 2;
	u->st.budget = budget;
	u->st.bytes = URLSET_FIRST_SLOTS * sizeof(*u->slot);
	return u;
}

void urlset_free(struct urlset *u)
{
	size_t i;

	if (u == NULL)
		return;
	for (i = 0; i < u->count; i++)
		free(u->seg[(u->head + i) % u->seg_cap].data);
	free(u->seg);
	free(u->spare);
	free(u->slot);
	free(u);
}

static size_t urlset_home(const struct urlset *u, uint64_t v)
{
	return (size_t)(v >> 32) & u->mask;
}

/* The string at ref: its length and bytes. */
static const char *urlset_entry(const struct urlset *u, uint32_t ref, size_t *len)
{
	const unsigned char *p = (const unsigned char *)u->seg[ref >> URLSET_OFF_BITS].data +
	    (ref & (URLSET_MAX_SEG - 1));

	*len = (size_t)p[0] << 8 | p[1];
	return (const char *)p + 2;
}

/* Places v in the index (not present, room guaranteed). */
static void urlset_place(struct urlset *u, uint64_t v)
{
	size_t i = urlset_home(u, v);

	while (u->slot[i] != 0)
		i = (i + 1) & u->mask;
	u->slot[i] = v;
}

static void urlset_grow_index(struct urlset *u)
{
	uint64_t *old = u->slot;
	size_t oldcap = u->mask + 1, i;

	u->slot = xcalloc(oldcap * 2, sizeof(*u->slot));
	u->mask = oldcap * 2 - 1;
	for (i = 0; i < oldcap; i++)
		if (old[i] != 0)
			urlset_place(u, old[i]);
	free(old);
	u->st.bytes += oldcap * sizeof(*u->slot);
}

/* Removes slot i, shifting back the entries of its probe run that may
 * move closer to their home (linear probing without tombstones). */
static void urlset_unplace(struct urlset *u, size_t i)
{
	size_t j = i, k;

	for (;;) {
		j = (j + 1) & u->mask;
		if (u->slot[j] == 0)
			break;
		k = urlset_home(u, u->slot[j]);
		/* Slot j may move to i unless its home lies in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		u->slot[i] = u->slot[j];
		i = j;
	}
	u->slot[i] = 0;
}

/* Drops the oldest segment: each of its strings whose index slot still
 * points there (a moved string's slot points to its copy) leaves the
 * index. Its memory becomes the spare. */
static void urlset_drop_oldest(struct urlset *u)
{
	struct urlset_seg *s = &u->seg[u->head];
	uint32_t base = (uint32_t)u->head << URLSET_OFF_BITS;
	size_t off = 0;

	while (off < s->len) {
		const unsigned char *p = (const unsigned char *)s->data + off;
		size_t len = (size_t)p[0] << 8 | p[1];
		uint64_t h = hash_bytes((const char *)p + 2, len);
		uint64_t want = (uint64_t)(base | (uint32_t)off) + 1;
		size_t i = (size_t)(h >> 32) & u->mask;

		while (u->slot[i] != 0) {
			if ((u->slot[i] & 0xffffffffu) == want) {
				urlset_unplace(u, i);
				u->n--;
				u->st.evicted++;
				break;
			}
			i = (i + 1) & u->mask;
		}
		off += 2 + len;
	}
	if (u->spare == NULL) {
		u->spare = s->data;
	} else {
		free(s->data);
		u->st.bytes -= u->seg_size;
	}
	s->data = NULL;
	s->len = 0;
	u->head = (u->head + 1) % u->seg_cap;
	u->count--;
	u->dropped = 1;
}

/* A new newest segment, dropping the oldest sealed ones while the budget
 * says so. 0 if no segment can be had (the ring is full of unsealed ones). */
static int urlset_new_segment(struct urlset *u)
{
	struct urlset_seg *s;

	while (u->count > 0 &&
	    (u->st.bytes + (u->spare ? 0 : u->seg_size) > u->budget || u->count == u->seg_cap)) {
		if (u->seg[u->head].gen >= u->gen)
			break; /* not sealed: over budget rather than lose it */
		urlset_drop_oldest(u);
	}
	if (u->count == u->seg_cap)
		return 0;
	s = &u->seg[(u->head + u->count) % u->seg_cap];
	if (u->spare != NULL) {
		s->data = u->spare;
		u->spare = NULL;
	} else {
		s->data = xmalloc(u->seg_size);
		u->st.bytes += u->seg_size;
	}
	s->len = 0;
	s->gen = u->gen;
	u->count++;
	return 1;
}

/* Appends the string to the newest segment; its reference, or -1 if the
 * newest segment has no room. */
static int64_t urlset_append(struct urlset *u, const char *str, size_t n)
{
	size_t idx = (u->head + u->count - 1) % u->seg_cap;
	struct urlset_seg *s = &u->seg[idx];
	unsigned char *p;

	if (u->count == 0 || s->len + 2 + n > u->seg_size)
		return -1;
	p = (unsigned char *)s->data + s->len;
	p[0] = (unsigned char)(n >> 8);
	p[1] = (unsigned char)n;
	memcpy(p + 2, str, n);
	s->gen = u->gen;
	s->len += 2 + n;
	return (int64_t)((uint32_t)idx << URLSET_OFF_BITS | (uint32_t)(s->len - 2 - n));
}

/* Close enough to the budget that segments will soon be dropped: the index
 * at its share and half full, or room for at most one more segment. */
static int urlset_near_budget(const struct urlset *u)
{
	return (u->mask + 1 >= u->max_slots && u->n * 2 > u->mask + 1) ||
	    u->st.bytes + 2 * u->seg_size > u->budget;
}

int urlset_has(struct urlset *u, const char *s, size_t n, uint64_t h)
{
	uint32_t tag = (uint32_t)(h >> 32);
	size_t i = tag & u->mask, len;
	const char *e;
	uint64_t v;

	while ((v = u->slot[i]) != 0) {
		if ((uint32_t)(v >> 32) == tag) {
			uint32_t ref = (uint32_t)v - 1;

			e = urlset_entry(u, ref, &len);
			if (len == n && memcmp(e, s, n) == 0) {
				size_t age =
				    ((ref >> URLSET_OFF_BITS) + u->seg_cap - u->head) % u->seg_cap;
				int64_t moved;

				/* Second chance: met again while in the older half
				 * of a set that drops segments. */
				if (u->count >= 4 && age < u->count / 2 && urlset_near_budget(u) &&
				    (moved = urlset_append(u, s, n)) >= 0) {
					u->slot[i] = (uint64_t)tag << 32 | (uint64_t)(moved + 1);
					u->st.moved++;
				}
				return 1;
			}
		}
		i = (i + 1) & u->mask;
	}
	return 0;
}

void urlset_prefetch(const struct urlset *u, uint64_t h)
{
	__builtin_prefetch(&u->slot[(size_t)(h >> 32) & u->mask]);
}

void urlset_prefetch_entry(const struct urlset *u, uint64_t h)
{
	uint64_t v = u->slot[(size_t)(h >> 32) & u->mask];

	if (v != 0 && (uint32_t)(v >> 32) == (uint32_t)(h >> 32)) {
		uint32_t ref = (uint32_t)v - 1;

		__builtin_prefetch(
		    u->seg[ref >> URLSET_OFF_BITS].data + (ref & (URLSET_MAX_SEG - 1)));
	}
}

int urlset_fits(const struct urlset *u, size_t n)
{
	size_t idx = (u->head + u->count - 1) % u->seg_cap;

	if (n > URLSET_MAX_LEN)
		return 0;
	if ((u->n + 1) * 10 > (u->mask + 1) * 7 &&
	    (u->mask + 1 >= u->max_slots ||
		u->st.bytes + (u->mask + 1) * sizeof(*u->slot) > u->budget))
		return 0;
	if (u->count > 0 && u->seg[idx].len + 2 + n <= u->seg_size)
		return 1;
	return u->st.bytes + u->seg_size <= u->budget;
}

/* Room in the index for one more string: grown up to its share of the
 * budget, then the oldest sealed segments dropped, and grown past its share
 * only rather than lose an unsealed string. */
static void urlset_index_room(struct urlset *u)
{
	while ((u->n + 1) * 10 > (u->mask + 1) * 7) {
		if (u->mask + 1 < u->max_slots) {
			urlset_grow_index(u);
		} else if (u->count > 0 && u->seg[u->head].gen < u->gen) {
			urlset_drop_oldest(u);
		} else {
			urlset_grow_index(u);
		}
	}
}

int urlset_add(struct urlset *u, const char *s, size_t n, uint64_t h)
{
	int64_t ref;

	if (n > URLSET_MAX_LEN) {
		u->dropped = 1;
		return 0;
	}
	urlset_index_room(u);
	if ((ref = urlset_append(u, s, n)) < 0) {
		if (!urlset_new_segment(u)) {
			u->dropped = 1;
			return 0;
		}
		ref = urlset_append(u, s, n);
	}
	urlset_place(u, (h >> 32) << 32 | (uint64_t)(ref + 1));
	u->n++;
	return 1;
}

void urlset_seal(struct urlset *u)
{
	u->gen++;
}

int urlset_dropped(const struct urlset *u)
{
	return u->dropped;
}

void urlset_get_stats(const struct urlset *u, struct urlset_stats *out)
{
	*out = u->st;
	out->entries = u->n;
}
