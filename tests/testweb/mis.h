/* Scripted misbehaviours under /_mis/ (see README.md). */
#ifndef TESTWEB_MIS_H
#define TESTWEB_MIS_H
#include "respond.h"

/* Fills r for a /_mis/ path (path without query, query may be ""). */
void mis_build(
    const struct respond_req *q, const char *path, const char *query, struct response *r);

#endif
