/* A hierarchical timer wheel (Varghese and Lauck): O(1) insert and removal,
 * expiry in wake-time order, driven entirely by the caller's clock (no I/O,
 * no libuv). Eight levels of 256 slots cover every 64-bit millisecond time, so
 * there is no overflow list and any delay, however long, is exact.
 *
 * Entries are intrusive: embed a struct wheel_entry in the object and recover
 * the object from the entry the wheel hands back. */
#ifndef TERN_WHEEL_H
#define TERN_WHEEL_H
#include <stddef.h>
#include <stdint.h>

struct wheel_entry {
	struct wheel_entry *next, *prev;
	uint64_t when;
	int level; /* -1: not on the wheel; 8: on the due list */
	int slot;
};

struct wheel;

/* The wheel starts at time now_ms; time never goes backwards in it. */
struct wheel *wheel_new(uint64_t now_ms);
/* The entries still on it are left alone (they belong to the caller). */
void wheel_free(struct wheel *w);
void wheel_entry_init(struct wheel_entry *e);
int wheel_entry_pending(const struct wheel_entry *e);
/* Schedules e (not on the wheel) to expire at when_ms; a time not after the
 * wheel's current time expires at the next wheel_expire. */
void wheel_add(struct wheel *w, struct wheel_entry *e, uint64_t when_ms);
void wheel_remove(struct wheel *w, struct wheel_entry *e);
/* Advances the wheel to now_ms and returns one entry whose time has come
 * (removed from the wheel), earliest first, FIFO among equal times; NULL
 * when none is due. Call until NULL. */
struct wheel_entry *wheel_expire(struct wheel *w, uint64_t now_ms);
/* The earliest time of any entry (exact), or UINT64_MAX if empty. */
uint64_t wheel_next(const struct wheel *w);
size_t wheel_count(const struct wheel *w);
uint64_t wheel_now(const struct wheel *w);

#endif
