/* Per-server state the crawl loop keeps between fetches, keyed by
 * "scheme://host:port" (robots.txt is per scheme and authority, as Heritrix's
 * CrawlServer): the robots verdict and when it was fetched, and the
 * bandwidth bookkeeping of politeness.max-per-host-bandwidth-kb-sec.
 *
 * The table is bounded: past its capacity the least recently used entry is
 * dropped, and a dropped server's verdict is read back from the frontier
 * store (frontier/verdicts.h) when it comes back. Callers never keep a
 * struct host across an asynchronous step; they look it up again by key. */
#ifndef TERN_HOSTS_H
#define TERN_HOSTS_H
#include <stddef.h>
#include <stdint.h>

struct robots;

struct host {
	char *key;
	struct robots *robots; /* NULL until robots.txt was fetched */
	uint64_t robots_fetched_ms;
	/* Fetched, and no URI of the server judged by it yet: such a verdict
	 * is not expired, whatever its age, so that a validity shorter than
	 * the wait after robots.txt cannot keep a queue fetching nothing else. */
	int robots_unused;
	uint64_t bandwidth_next_ms; /* earliest next fetch for the bandwidth cap */
	/* table links */
	struct host *hash_next;
	struct host *lru_prev, *lru_next;
	uint32_t hash;
};

struct hosts;

struct hosts *hosts_new(size_t capacity);
void hosts_free(struct hosts *t);
/* Finds the entry for key, creating it when create is set (and maybe
 * evicting the least recently used one); marks it recently used. */
struct host *hosts_get(struct hosts *t, const char *key, int create);
/* Replaces the server's robots verdict (taking ownership) and its time;
 * robots_unused is cleared. */
void hosts_set_robots(struct hosts *t, struct host *h, struct robots *r, uint64_t now_ms);
size_t hosts_count(const struct hosts *t);
/* Bytes held by the table, for the memory figures in reports. */
size_t hosts_memory(const struct hosts *t);

#endif
