/* `tern fetch URL`: one fetch through the real engine, printed for a person
 * (status, Heritrix code, headers, timings, sizes). */
#ifndef TERN_FETCHCMD_H
#define TERN_FETCHCMD_H

struct config;

/* Returns the exit status: 0 for any HTTP response, 1 for a negative
 * status, 2 for a URL that cannot be fetched at all. */
int fetchcmd_run(struct config *cfg, const char *url);

#endif
