/* `tern wacz JOBDIR [-o FILE.wacz]`: the job's WARCs as one WACZ package
 * (src/archive/wacz.c), and `warc.wacz = true`'s package at a crawl's end. */
#ifndef TERN_WACZCMD_H
#define TERN_WACZCMD_H

/* argv[0] is "wacz"; returns the exit status. */
int waczcmd_run(int argc, char **argv);
/* Packages JOBDIR into JOBDIR/NAME.wacz after a crawl; says what it wrote
 * on stdout, or why it could not on stderr. 0, or 1 on failure. */
int waczcmd_after_crawl(const char *jobdir);

#endif
