/* The wall clock, in milliseconds since the epoch, for times that are stored
 * or shown: frontier wake times survive a restart, crawl.log, WARC and DNS
 * record dates name the moment. Header-only: one system call, inlined at each
 * use. Logic in src/lib takes the time as an argument and never reads it;
 * this is here so that every floor above reads it the same way. */
#ifndef TERN_CLOCK_H
#define TERN_CLOCK_H
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

static inline uint64_t clock_wall_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
}

/* The same, rounded up: for the moment a politeness or retry wait is counted
 * from. Wake times are compared with clock_wall_ms (rounded down), so a wait
 * counted from the rounded-up end is never shorter than asked, where one
 * counted from the rounded-down end could fall short by up to 1 ms. */
static inline uint64_t clock_wall_ms_up(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000 + ((uint64_t)tv.tv_usec + 999) / 1000;
}

#endif
