/* `tern warc-index JOBDIR`: a CDXJ index of the job's WARCs, one line per
 * HTTP response or revisit record:
 *   SURTKEY TIMESTAMP14 {"url":...,"mime":...,"status":...,"digest":...,
 *                        "length":...,"offset":...,"filename":...}
 * with pywb-style keys (no scheme), sorted bytewise as `LC_ALL=C sort`. */
#ifndef TERN_WARCINDEX_H
#define TERN_WARCINDEX_H
#include <stdio.h>

/* Indexes JOBDIR/warcs/ *.warc.gz (files still ".open" are skipped). */
int warcindex_run(const char *jobdir, FILE *out, char **err);
/* Appends the lines of one file to an index being built; exposed for tests. */
struct warcindex;
struct warcindex *warcindex_new(void);
int warcindex_add_file(struct warcindex *x, const char *path, const char *filename, char **err);
/* Sorts and writes the lines. */
int warcindex_write(struct warcindex *x, FILE *out, char **err);
size_t warcindex_count(const struct warcindex *x);
void warcindex_free(struct warcindex *x);

#endif
