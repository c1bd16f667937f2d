/* What a continuous crawl (crawl.mode = continuous) adds to a visit, as
 * Heritrix's recrawl processors did: the validators a revisit sends, the
 * earlier capture a 304 refers to, and, once the visit is over, its fetch
 * history updated and the time of its next visit by the adaptive rule
 * (lib/revisit.h) with the [revisit] settings of its URI. */
#ifndef TERN_RECRAWL_H
#define TERN_RECRAWL_H
#include <stdint.h>
#include "lib/buf.h"
#include "lib/history.h"

struct config;
struct curi;
struct warc_writer;

/* The [revisit] rule for a URI whose [override] key is surt (may be NULL). */
void recrawl_rule(const struct config *cfg, const char *surt, struct revisit_rule *out);

/* The validators a visit of c sends: those of its last capture, unless
 * revisit.conditional-requests is off for it (both NULL then). */
void recrawl_validators(const struct config *cfg, const char *surt, const struct curi *c,
    const char **if_none_match, const char **if_modified_since);

/* Whether a status answered a request that sent validators with a 304 that
 * can be archived as a server-not-modified revisit, and if so the record it
 * refers to: the target URI and WARC-Date (as w writes them) of the capture
 * holding c's content. */
int recrawl_not_modified(const struct curi *c, int status, int sent_validators,
    const struct warc_writer *w, struct buf *refers_uri, struct buf *refers_date);

/* Takes the visit into c's history (made when it has none) and returns when
 * c is due again: now + the next interval. hv->start_ms 0 (nothing was
 * fetched) counts as now. */
uint64_t recrawl_next_visit(const struct config *cfg, const char *surt, struct curi *c,
    const struct history_visit *hv, uint64_t now_ms);

/* A WARC-Date ("2026-11-21T16:00:00.123456Z") as microseconds, or 0. */
int64_t recrawl_date_us(const char *warc_date);

#endif
