/* The page's answer in a visit (src/crawl/visitprivate.h has the rooms of
 * a visit): what it is logged, archived and counted as, and what becomes
 * of its URI, returned for visit.c to carry out. */
#ifndef TERN_CRAWL_VISITPAGE_H
#define TERN_CRAWL_VISITPAGE_H

struct fetch;
struct visit;
struct visit_verdict;

/* The page's fetch f has ended (not for want of a local resource: visit.c
 * tells those apart first). A connection failure is VISIT_GO_CONNECT; a
 * 401 answered is VISIT_GO_AGAIN; a Retry-After obeyed ends the visit as a
 * retry; otherwise the page's outlinks are scheduled, its records handed
 * to the WARC writer, its crawl.log line written and the visit ends
 * (VISIT_GO_END: success, failure, or deferred when it could not be
 * archived). */
void visitpage_done(struct visit *v, struct fetch *f, struct visit_verdict *d);

#endif
