/* robots.txt in a visit (src/crawl/visitprivate.h has the rooms of a
 * visit): whether the server's verdict must be fetched first, the verdict
 * from robots.txt's answer, and the page's permission under it. Each
 * returns what it decided in d for visit.c to carry out. */
#ifndef TERN_CRAWL_VISITROBOTS_H
#define TERN_CRAWL_VISITROBOTS_H

struct fetch;
struct visit;
struct visit_verdict;

/* Once the address is known: VISIT_GO_PAGE when the server's verdict is in
 * memory or the store and fresh (or robots.txt is ignored), else
 * VISIT_GO_ROBOTS with its URL. */
void visitrobots_gate(struct visit *v, struct visit_verdict *d);
/* robots.txt's answer f: its crawl.log line and records, the verdict kept
 * (and the sitemaps it names scheduled); the page then goes back to its
 * queue (VISIT_GO_END, deferred) behind the delay the file asks for, or
 * robots.txt is asked at a redirect's target (VISIT_GO_ROBOTS), or the
 * page is retried or fails (VISIT_GO_RETRY, VISIT_GO_CONNECT). */
void visitrobots_done(struct visit *v, struct fetch *f, struct visit_verdict *d);
/* May the page be fetched? VISIT_GO_FAIL (a disregard) when its server's
 * robots.txt forbids it and robots.txt is obeyed; d is left as it is
 * otherwise (with robotExcluded noted under calculate-only). */
void visitrobots_permit(struct visit *v, struct visit_verdict *d);

#endif
