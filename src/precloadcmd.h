/* `tern precedence-load FILE JOBDIR`: imports precalculated URI precedences
 * (lines "URI PRECEDENCE", as Heritrix's PrecedenceLoader) into a job's
 * store, for the preloaded URI precedence policy. URIs are canonicalized
 * with the job's own rules (canon_key), as the crawl does when it looks the
 * values up. The job's crawl must not be running (its store is locked). */
#ifndef TERN_PRECLOADCMD_H
#define TERN_PRECLOADCMD_H
#include <stdio.h>

#include "lib/buf.h"

/* Parses one line of a precedence file: 1 with the URI (resolved, without
 * its fragment) in uri and *prec, 0 for a blank or '#' comment line, -1 with
 * *err (allocated) for a bad line. Pure. */
int precloadcmd_parse_line(const char *line, struct buf *uri, int *prec, char **err);

/* argv[0] is "precedence-load"; returns the exit status. */
int precloadcmd_run(int argc, char **argv);

#endif
