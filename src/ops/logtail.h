/* Reading a log from its end, for the console's crawl.log views: whole
 * lines, newest first, with a bound on the bytes read per call, so that a
 * crawl.log of many gigabytes costs a page what its bound allows and never
 * the whole file. Synchronous pread()s in the loop, as the reports' reads
 * are (the bound keeps each call to a few milliseconds). */
#ifndef TERN_LOGTAIL_H
#define TERN_LOGTAIL_H
#include <stddef.h>
#include <stdint.h>

/* Called for each whole line (without its newline), newest first; off is
 * the line's offset in the file. Returns 1 to stop after this line. */
typedef int logtail_fn(void *arg, const char *line, size_t len, uint64_t off);

struct logtail_result {
	uint64_t size;	  /* the file's size now */
	uint64_t next;	  /* pass as before to go on further back; 0: the start was reached */
	uint64_t scanned; /* bytes read */
};

/* Walks path's lines that end before offset before (0: the end of the
 * file; a last line without its newline, still being written, is left
 * out), reading at most max_bytes. A missing file is an empty one. -1 and
 * *err on a read error. */
int logtail_read(const char *path, uint64_t before, size_t max_bytes, logtail_fn *fn, void *arg,
    struct logtail_result *res, char **err);

#endif
