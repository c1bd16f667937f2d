/* `tern warc-index JOBDIR`: a CDXJ index of the job's WARCs, one line per
 * HTTP response or revisit record:
 *   SURTKEY TIMESTAMP14 {"url":...,"mime":...,"status":...,"digest":...,
 *                        "length":...,"offset":...,"filename":...}
 * with pywb-style keys (no scheme), sorted bytewise as `LC_ALL=C sort`. */
#ifndef TERN_WARCINDEX_H
#define TERN_WARCINDEX_H
#include <stdio.h>

struct warcread_record;

/* Indexes JOBDIR/warcs/ *.warc.gz (files still ".open" are skipped). A file
 * that yields no line is named on notes (may be NULL); an index with no
 * line at all is an error, since it is never what was asked for. */
int warcindex_run(const char *jobdir, FILE *out, FILE *notes, char **err);

struct warcindex;
struct warcindex *warcindex_new(void);
/* Lines "WHO: PATH: ..." for files that yield no line go to fp. */
void warcindex_notes(struct warcindex *x, FILE *fp, const char *who);
/* Called with every record read, indexed or not, and the name the index
 * gives its file: `tern wacz` finds its pages in the same pass. */
typedef void (*warcindex_record_cb)(
    void *arg, const struct warcread_record *rec, const char *filename);
void warcindex_on_record(struct warcindex *x, warcindex_record_cb cb, void *arg);
/* Appends the lines of one file (read from fp, opened on path) to the
 * index being built, named filename in them. */
int warcindex_add_stream(
    struct warcindex *x, FILE *fp, const char *path, const char *filename, char **err);
int warcindex_add_file(struct warcindex *x, const char *path, const char *filename, char **err);
/* The status code (3 digits, or "") and the media type without parameters
 * (or "") of an HTTP response head of n bytes at p. */
struct buf;
void warcindex_http(const char *p, size_t n, struct buf *status, struct buf *mime);
/* The *.warc.gz names in dir, sorted (free each and the array); -1 when
 * dir cannot be read. */
int warcindex_list(const char *dir, char ***names, size_t *n, char **err);
/* Sorts and writes the lines. */
int warcindex_write(struct warcindex *x, FILE *out, char **err);
size_t warcindex_count(const struct warcindex *x);
void warcindex_free(struct warcindex *x);

#endif
