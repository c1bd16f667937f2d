/* Closing WARC files that a killed writer left named NAME.warc.gz.open: each
 * is cut back to the end of its last gzip member holding a whole record, then
 * renamed to NAME.warc.gz (doc/warc.md, "Files left .open"). */
#ifndef TERN_WARCRECOVER_H
#define TERN_WARCRECOVER_H
#include <stdint.h>
#include "lib/buf.h"

/* Recovers every regular file named *.warc.gz.open directly in dir. A file
 * with at least one whole record (a warcinfo alone counts) is truncated after
 * it, fsynced and renamed; a file with none is removed. Appends one line per
 * file to report ("NAME.open: kept N records ..."), for a log. Touches
 * nothing outside dir and never follows a symlink. A missing dir is not an
 * error. Returns 0, or -1 when some file could not be recovered: that file
 * is left untouched (err names the first such file) and the others are
 * still handled. */
int warcrecover_dir(const char *dir, struct buf *report, char **err);
/* The tail window of the scan (warcrecover.c; 8 MiB, or 0 for that):
 * smaller in tests, so that small files take the tail path. */
void warcrecover_set_tail(uint64_t bytes);

#endif
