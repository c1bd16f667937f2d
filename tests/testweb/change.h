/* Pages that change on a known schedule, answering conditional requests,
 * and the sitemaps that list them (README.md, "Changing pages and
 * sitemaps"). Pure like respond.c: the time comes with the request. */
#ifndef TESTWEB_CHANGE_H
#define TESTWEB_CHANGE_H
#include <stdint.h>
#include "respond.h"
#include "web.h"

/* True for the paths this file answers: /v/..., /sm/..., /sitemap.xml. */
int change_handles(const char *path);
/* Builds the reply of host (a valid index) for path (no query) and query. */
void change_build(const struct web *w, uint32_t host, const struct respond_req *q, const char *path,
    const char *query, struct response *r);

#endif
