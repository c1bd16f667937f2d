/* The request log: one TSV line per request, for server-side assertions
 * (coverage, politeness, retries) in tests and benchmarks. */
#ifndef TESTWEB_REQLOG_H
#define TESTWEB_REQLOG_H
#include <stdint.h>

struct reqlog;

/* Opens path for appending; NULL with *err set on failure. */
struct reqlog *reqlog_open(const char *path, char **err);
/* Milliseconds since the epoch, with sub-millisecond precision. */
double reqlog_now_ms(void);
/* cond names the validators the request carried: "-", "inm"
 * (If-None-Match), "ims" (If-Modified-Since) or "inm+ims"; agent is the
 * User-Agent header (NULL or empty: logged as "-"). */
void reqlog_write(struct reqlog *l, double start_ms, double end_ms, const char *host,
    const char *path, int status, uint64_t body_bytes, uint64_t conn_id, const char *cond,
    const char *agent);
void reqlog_close(struct reqlog *l);

#endif
