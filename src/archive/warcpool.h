/* The WARC writer's thread pool: captures are built (digests, headers,
 * deflate) on libuv's worker threads and queued in the writer by the loop in
 * the order they were handed in, with the crawl.log lines and the ends of
 * visits that came after them (doc/warc.md, "Building on other threads").
 *
 * The order is one queue of entries: a capture, crawl.log lines, a held
 * callback. The loop takes entries from its head only: a capture once it is
 * built, lines and callbacks as soon as they reach the head. So a line or a
 * callback handed in after a capture runs only after that capture's records
 * are queued in the writer, and a frontier told in a held callback, or a
 * dedup entry committed with its capture, is written by the next flush after
 * the records, as when the writer was synchronous. */
#ifndef TERN_WARCPOOL_H
#define TERN_WARCPOOL_H
#include <stdint.h>
#include <stdio.h>
#include <uv.h>
#include "lib/buf.h"

struct dedup;
struct warc_capture;
struct warc_writer;
struct warcpool;

/* threads: batches built at once (0: one per processor, up to 4; more than
 * libuv's pool size, UV_THREADPOOL_SIZE, 4 by default, only wait there). dedup may be NULL; given, its new
 * entries wait for their captures (dedup_hold_new). Lines go to crawllog.
 * Everything given must outlive the pool. */
struct warcpool *warcpool_new(
    uv_loop_t *loop, struct warc_writer *w, struct dedup *dedup, FILE *crawllog, int threads);
/* Copies the capture (a spilled body is read later through a duplicate of
 * its descriptor) and queues it to be built. body, if not NULL, is the
 * buffer c->payload points into: its bytes are taken rather than copied,
 * and it is left empty (with the room of another buffer); so is links, if
 * c->outlinks is its text. Refused as warc_write_http
 * refuses (a header value with a control character, a write error pending,
 * no file can be created, a spilled body that cannot be read): nothing is
 * queued then. dedup_digest: the digest whose dedup entry this capture
 * made (dedup_check returned 0), committed once the records are queued. */
int warcpool_http(struct warcpool *p, const struct warc_capture *c, const char *dedup_digest,
    struct buf *body, struct buf *links, char **err);
int warcpool_dns(struct warcpool *p, const char *host, const char *server_ip, uint64_t date_us,
    const char *rr_text, size_t len, char **err);
/* A crawl.log line: written to the stdio buffer now when nothing is queued,
 * else after everything queued before it. */
void warcpool_log(struct warcpool *p, const char *line, size_t len);
/* 0: nothing is queued, go on now. 1: cb(arg) will be called by the loop
 * once everything queued before it is (never inside this call). */
int warcpool_hold(struct warcpool *p, void (*cb)(void *arg), void *arg);
/* Hands the captures queued since the last call to the threads (the loop
 * calls it once an iteration, so that a batch costs one wake-up). */
void warcpool_kick(struct warcpool *p);
/* Queues whatever has been built, then warc_flush. A capture that cannot
 * be queued (its file cannot be rotated: disk full) stays at the head,
 * holding everything behind it, and is tried again at each call; the
 * message says so. */
int warcpool_flush(struct warcpool *p, char **err);
/* 1 while the captures not yet queued pass the pool's bounds (their count
 * or bytes): the crawl starts no new fetch until they fall back. */
int warcpool_busy(const struct warcpool *p);
/* 1 when nothing is waiting (no capture, line or callback). */
int warcpool_idle(const struct warcpool *p);
/* The loop must have run until no batch is on a thread. Entries still
 * waiting are dropped (their visits never ended). */
void warcpool_free(struct warcpool *p);

#endif
