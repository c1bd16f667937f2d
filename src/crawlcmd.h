/* `tern crawl` and `tern resume`: a crawl (src/crawl/crawl.h) with its
 * control socket (src/ops/crawlctl.h) attached, run to its end. */
#ifndef TERN_CRAWLCMD_H
#define TERN_CRAWLCMD_H

struct config;
struct crawl_opts;

/* `tern crawl --local`: the settings of a fast crawl of a site on this
 * machine or network (tern(1)), applied before the command line's --set
 * options, which may override them; NULL-terminated. */
extern const char *const crawlcmd_local_sets[];

/* Returns the process exit status (tern(1), EXIT STATUS). */
int crawlcmd_run(struct config *cfg, const struct crawl_opts *o);

#endif
