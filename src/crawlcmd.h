/* `tern crawl` and `tern resume`: a crawl (src/crawl/crawl.h) with its
 * control socket (src/ops/crawlctl.h) attached, run to its end. */
#ifndef TERN_CRAWLCMD_H
#define TERN_CRAWLCMD_H

struct config;
struct crawl_opts;

/* Returns the process exit status (tern(1), EXIT STATUS). */
int crawlcmd_run(struct config *cfg, const struct crawl_opts *o);

#endif
