/* `tern wacz`: a job's WARCs as one WACZ 1.1.1 package (Webrecorder's Web
 * Archive Collection Zipped), the file ReplayWeb.page, pywb and Browsertrix
 * open: archive/ the WARCs stored as they are, indexes/ their CDXJ (in
 * gzip blocks with an .idx),
 * pages/pages.jsonl, datapackage.json with every file's sha256 and size,
 * and datapackage-digest.json. Written through libzip, streaming: no WARC
 * is held in memory, each is read once for its index, pages and hash and
 * once more by libzip as it is stored (doc/warc.md, "WACZ"). */
#ifndef TERN_WACZ_H
#define TERN_WACZ_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "archive/waczpages.h"

/* The form of indexes/ (doc/warc.md, "WACZ packages", says why compressed
 * is the default whatever the size). */
enum wacz_index {
	WACZ_INDEX_COMPRESSED = 0, /* indexes/index.cdx.gz and indexes/index.idx */
	WACZ_INDEX_PLAIN,	   /* indexes/index.cdxj */
};

struct wacz_opts {
	const char *jobdir;
	const char *out;      /* NULL: JOBDIR/NAME.wacz, NAME the job directory's */
	const char *software; /* "tern/VERSION" */
	FILE *notes;	      /* files that yield no capture are named here; may be NULL */
	/* The HTML parser that finds a page's title in its stored body, for
	 * captures whose metadata record kept none; may be NULL. */
	waczpages_title_fn title;
	void *title_arg;
	/* Set (by a signal handler) to abandon the package: what was
	 * written so far is removed and wacz_write fails; may be NULL. */
	const volatile sig_atomic_t *stop;
	enum wacz_index index;
	/* The package's title and description (datapackage.json); a NULL or
	 * empty title is derived from the job: the seeds' host when they
	 * have one, else the job directory's name. description may be
	 * NULL. */
	const char *package_title;
	const char *description;
};

struct wacz_result {
	char *path;	/* the package written */
	uint64_t bytes; /* its size */
	size_t warcs;
	uint64_t warc_bytes;
	size_t captures; /* lines of the index */
	struct waczpages_counts pages;
};

/* The WARCs of JOBDIR/warcs, and of every worker's JOBDIR/wN/warcs for a
 * `crawl --workers` job; the seeds of their seeds.txt. */
int wacz_write(const struct wacz_opts *o, struct wacz_result *r, char **err);
void wacz_result_free(struct wacz_result *r);

#endif
