/* The pages of a WACZ package (pages/pages.jsonl): one line per seed and
 * per successful HTML capture, found in the same pass over the WARCs that
 * builds the CDXJ index (warcindex's record hook). A page's title comes from
 * its capture's metadata record ("title:", doc/warc.md) when the crawl kept
 * it there, else from the stored page itself (other crawlers' WARCs, jobs
 * of older tern versions), decoded here and parsed by the caller's fn. */
#ifndef TERN_WACZPAGES_H
#define TERN_WACZPAGES_H
#include <stddef.h>
#include <stdio.h>

struct warcread_record;
struct waczpages;

struct buf;
/* The title of an HTML document (the first len bytes of one, decoded),
 * appended to title; handed in by the caller, which owns the HTML parser
 * (the crawl's extractor sits above this floor). */
typedef void (*waczpages_title_fn)(void *arg, const char *html, size_t len, struct buf *title);

/* fn may be NULL: pages whose capture kept no title then have none. */
struct waczpages *waczpages_new(waczpages_title_fn fn, void *arg);
void waczpages_free(struct waczpages *p);
/* A seed as recorded in seeds.txt; before the records. Its first capture
 * (whatever its status: a seed that redirects is where a person starts)
 * is a page. */
void waczpages_add_seed(struct waczpages *p, const char *url);
/* Every record of the WARCs in order, with the name of its file. */
void waczpages_record(struct waczpages *p, const struct warcread_record *rec, const char *filename);
/* The end of one file: a page still without a title gets the one its
 * stored body holds. */
void waczpages_file_end(struct waczpages *p);
/* Writes the header line and the pages, in the order of their captures. */
int waczpages_write(struct waczpages *p, FILE *out, char **err);

struct waczpages_counts {
	size_t pages;
	size_t seeds;	      /* of which seeds */
	size_t seeds_missing; /* seeds with no capture in the WARCs */
	size_t titles_kept;   /* titles read from metadata records */
	size_t titles_parsed; /* titles parsed from stored bodies */
};
void waczpages_counts(const struct waczpages *p, struct waczpages_counts *c);

#endif
