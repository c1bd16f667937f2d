/* Per-host scripted behaviour for crawl tests (--script HOST=KIND[:COUNT]). */
#ifndef TESTWEB_SCRIPT_H
#define TESTWEB_SCRIPT_H
#include <stdint.h>

enum script_verdict {
	SCRIPT_PASS,
	SCRIPT_RESET,
	SCRIPT_503,
	SCRIPT_RETRY_AFTER,
	SCRIPT_ROBOTS_500,
};

struct script;

struct script *script_new(void);
void script_free(struct script *s);
/* Adds one rule; on a bad spec returns -1 with *err set (caller frees). */
int script_add(struct script *s, const char *spec, char **err);
/* Decides the fate of one request to host (no port) and consumes the
 * matching counters; adds any scripted delay to *delay_ms. */
enum script_verdict script_check(
    struct script *s, const char *host, int is_robots, int first_on_conn, uint32_t *delay_ms);

#endif
