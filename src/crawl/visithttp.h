/* One HTTP exchange of a visit (src/crawl/visitprivate.h has the rooms of a
 * visit): its request, what its answer's head and body feed, and its WARC
 * records. */
#ifndef TERN_CRAWL_VISITHTTP_H
#define TERN_CRAWL_VISITHTTP_H
#include <stddef.h>

struct buf;
struct fetch;
struct fetch_req;
struct visit;

/* Readies the visit for a fetch of url (robots.txt or the page, by its
 * state) and fills req for fetch_start, its header lines in hdrs (which
 * must outlive the call of fetch_start; the caller frees it). */
void visithttp_request(struct visit *v, const char *url, struct fetch_req *req, struct buf *hdrs);
/* The answer's head: its cookies into the jar, and which extractors, if
 * any, the page's body goes through. */
void visithttp_head(struct visit *v, struct fetch *f);
/* A piece of the answer's body, raw (as sent) and decoded: digested,
 * recorded for the WARC, fed to the extractors or kept as robots.txt. A
 * body that cannot be recorded cancels the fetch (v->record_failed). */
void visithttp_body(
    struct visit *v, const char *raw, size_t rawlen, const char *dec, size_t declen);
/* Archives the exchange of the visit's fetch; fills digest and the dedup
 * verdict (*revisit, with the original in v->refers_uri and
 * v->refers_date). not_modified: a 304 to a conditional request, written as
 * a server-not-modified revisit of the capture already in v->refers_*,
 * digest being that capture's. outlinks_text is taken. Returns -1 when the
 * records could not be queued (a full disk holds the writer): the URI must
 * then not be marked done. */
int visithttp_archive(struct visit *v, const char *digest, const char *truncated, int not_modified,
    int *revisit, struct buf *outlinks_text);

#endif
