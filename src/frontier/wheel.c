/* Hierarchical timer wheel. An entry lives at the level of the highest byte
 * in which its time differs from the wheel's current time, in the slot given
 * by that byte of its time; so every occupied slot of a level lies ahead of
 * the current time within the level's present rotation. Advancing finds the
 * next occupied slot at the lowest level that has one (a bitmap scan), jumps
 * the clock to that slot's start and cascades its entries down. The clock can
 * jump hours in a few steps because empty stretches are never walked. */
#include "frontier/wheel.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <string.h>

#define WHEEL_LEVELS 8
#define WHEEL_SLOTS 256
#define WHEEL_DUE WHEEL_LEVELS

struct wheel_list {
	struct wheel_entry *head, *tail;
};

struct wheel {
	uint64_t now;
	size_t count;
	struct wheel_list slot[WHEEL_LEVELS][WHEEL_SLOTS];
	uint64_t bits[WHEEL_LEVELS][WHEEL_SLOTS / 64];
	struct wheel_list due;
};

struct wheel *wheel_new(uint64_t now_ms)
{
	struct wheel *w = xcalloc(1, sizeof(*w));

	w->now = now_ms;
	return w;
}

void wheel_free(struct wheel *w)
{
	free(w);
}

void wheel_entry_init(struct wheel_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->level = -1;
}

int wheel_entry_pending(const struct wheel_entry *e)
{
	return e->level >= 0;
}

uint64_t wheel_now(const struct wheel *w)
{
	return w->now;
}

size_t wheel_count(const struct wheel *w)
{
	return w->count;
}

static void wheel_list_append(struct wheel_list *l, struct wheel_entry *e)
{
	e->next = NULL;
	e->prev = l->tail;
	if (l->tail != NULL)
		l->tail->next = e;
	else
		l->head = e;
	l->tail = e;
}

static void wheel_list_unlink(struct wheel_list *l, struct wheel_entry *e)
{
	if (e->prev != NULL)
		e->prev->next = e->next;
	else
		l->head = e->next;
	if (e->next != NULL)
		e->next->prev = e->prev;
	else
		l->tail = e->prev;
	e->next = e->prev = NULL;
}

static struct wheel_list *wheel_list_of(struct wheel *w, const struct wheel_entry *e)
{
	return e->level == WHEEL_DUE ? &w->due : &w->slot[e->level][e->slot];
}

/* Files e by its time relative to the current time, without counting it. */
static void wheel_place(struct wheel *w, struct wheel_entry *e)
{
	uint64_t diff = e->when ^ w->now;
	int level;

	if (e->when <= w->now) {
		e->level = WHEEL_DUE;
		e->slot = 0;
		wheel_list_append(&w->due, e);
		return;
	}
	level = (63 - __builtin_clzll(diff)) / 8;
	e->level = level;
	e->slot = (int)((e->when >> (8 * level)) & 0xff);
	wheel_list_append(&w->slot[level][e->slot], e);
	w->bits[level][e->slot / 64] |= 1ull << (e->slot % 64);
}

void wheel_add(struct wheel *w, struct wheel_entry *e, uint64_t when_ms)
{
	e->when = when_ms;
	wheel_place(w, e);
	w->count++;
}

void wheel_remove(struct wheel *w, struct wheel_entry *e)
{
	struct wheel_list *l;

	if (e->level < 0)
		return;
	l = wheel_list_of(w, e);
	wheel_list_unlink(l, e);
	if (e->level != WHEEL_DUE && l->head == NULL)
		w->bits[e->level][e->slot / 64] &= ~(1ull << (e->slot % 64));
	e->level = -1;
	w->count--;
}

/* First occupied slot of level at or after index from, or -1. */
static int wheel_next_slot(const struct wheel *w, int level, int from)
{
	int word;

	for (word = from / 64; word < WHEEL_SLOTS / 64; word++) {
		uint64_t m = w->bits[level][word];

		if (word == from / 64)
			m &= ~0ull << (from % 64);
		if (m != 0)
			return word * 64 + __builtin_ctzll(m);
	}
	return -1;
}

/* The start time of slot s at level in the current rotation. */
static uint64_t wheel_slot_time(const struct wheel *w, int level, int s)
{
	int shift = 8 * level;
	uint64_t high = shift + 8 >= 64 ? 0 : (w->now >> (shift + 8)) << (shift + 8);

	return high | ((uint64_t)s << shift);
}

/* Finds the lowest level with an occupied slot ahead; -1 if the wheel holds
 * nothing but (perhaps) due entries. */
static int wheel_first(const struct wheel *w, int *slot)
{
	int level;

	for (level = 0; level < WHEEL_LEVELS; level++) {
		int cur = (int)((w->now >> (8 * level)) & 0xff);
		int s = cur + 1 < WHEEL_SLOTS ? wheel_next_slot(w, level, cur + 1) : -1;

		if (s >= 0) {
			*slot = s;
			return level;
		}
	}
	return -1;
}

/* Moves the clock to the start of the next occupied slot if that is not
 * after target and cascades the slot; 0 if there was nothing to do. */
static int wheel_step(struct wheel *w, uint64_t target)
{
	struct wheel_list l;
	struct wheel_entry *e;
	int s, level = wheel_first(w, &s);
	uint64_t t;

	if (level < 0)
		return 0;
	t = wheel_slot_time(w, level, s);
	if (t > target)
		return 0;
	w->now = t;
	l = w->slot[level][s];
	memset(&w->slot[level][s], 0, sizeof(l));
	w->bits[level][s / 64] &= ~(1ull << (s % 64));
	while ((e = l.head) != NULL) {
		wheel_list_unlink(&l, e);
		wheel_place(w, e);
	}
	return 1;
}

struct wheel_entry *wheel_expire(struct wheel *w, uint64_t now_ms)
{
	struct wheel_entry *e;

	while (w->due.head == NULL && wheel_step(w, now_ms))
		continue;
	if (w->now < now_ms && w->due.head == NULL)
		w->now = now_ms;
	e = w->due.head;
	if (e == NULL)
		return NULL;
	wheel_list_unlink(&w->due, e);
	e->level = -1;
	w->count--;
	return e;
}

uint64_t wheel_next(const struct wheel *w)
{
	const struct wheel_entry *e;
	uint64_t best = UINT64_MAX;
	int s, level;

	if (w->due.head != NULL)
		return w->now;
	level = wheel_first(w, &s);
	if (level < 0)
		return UINT64_MAX;
	/* Every entry of the first occupied slot is earlier than any entry
	 * elsewhere, so the minimum over that slot is exact. */
	for (e = w->slot[level][s].head; e != NULL; e = e->next)
		if (e->when < best)
			best = e->when;
	return best;
}
