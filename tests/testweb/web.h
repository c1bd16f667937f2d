/* The synthetic web: a pure function of (seed, host, page) that says what
 * every URL of every host is, renders pages, and lists what is reachable.
 * No I/O except writing the manifest to a caller's FILE. */
#ifndef TESTWEB_WEB_H
#define TESTWEB_WEB_H
#include <stdint.h>
#include <stdio.h>
#include "lib/buf.h"

struct web_opts {
	uint32_t hosts;
	uint32_t pages;
	uint32_t links;
	double cross;
	uint32_t kb;
	uint64_t seed;
	uint32_t latency_min_ms;
	uint32_t latency_max_ms;
	/* Changing pages and sitemaps (change.c): the time their schedules
	 * count from (the server's start), the periods the /v/ index lists,
	 * and whether robots.txt names the sitemap index and /sitemap.xml
	 * exists. */
	int64_t epoch_s;
	uint32_t change_periods[8];
	unsigned nchange;
	int sitemaps;
	/* The Crawl-delay robots.txt asks of every seventh host, in seconds
	 * (1 unless --crawl-delay says otherwise). */
	uint32_t crawl_delay_s;
	/* 0: host I is hI.web.test on the request's port. Otherwise the web is
	 * served from files by a server with one loopback port per host (no
	 * DNS): host I is 127.0.0.1:(port_base + I) in links and the manifest. */
	unsigned port_base;
};

enum web_kind {
	WEB_NONE,
	WEB_PAGE,
	WEB_PRIVATE,
	WEB_MISSING,
	WEB_REDIRECT,
	WEB_IMAGE,
	WEB_CSS,
	WEB_ROBOTS,
};

/* A byte range of a reply's body that many replies share verbatim (a filler
 * paragraph), so that an encoder may cache its encoding. */
struct web_span {
	size_t at, len;
};

/* What one URL answers: status, type, body, and for 301 the Location. A
 * page also lists its shared spans, in order and not overlapping. */
struct web_reply {
	int status;
	const char *content_type;
	struct buf body;
	struct buf location;
	struct web_span *span;
	size_t nspan, spancap;
};

struct web;

struct web *web_new(const struct web_opts *o);
void web_free(struct web *w);
uint32_t web_hosts(const struct web *w);
const struct web_opts *web_options(const struct web *w);
/* Maps a host name without port ("h3.web.test") to its index, or -1. */
int web_host_index(const struct web *w, const char *host, size_t len);
/* Maps a request path (no query) to a kind and number; WEB_NONE if unknown. */
enum web_kind web_lookup(const struct web *w, const char *path, uint32_t *num);
/* Fills r (initialised by the caller) for host/kind/num; scheme and port are
 * used for the absolute links the page contains. */
void web_render(const struct web *w, uint32_t host, enum web_kind kind, uint32_t num,
    const char *scheme, unsigned port, struct web_reply *r);
void web_reply_init(struct web_reply *r);
void web_reply_free(struct web_reply *r);
uint32_t web_latency_ms(const struct web *w, uint32_t host);
int web_disallows_private(uint32_t host);
/* Appends scheme://authority of host (see port_base) to out. */
void web_origin(
    const struct web *w, const char *scheme, uint32_t host, unsigned port, struct buf *out);
/* One URL reachable from the roots: its host, kind, number, path, status,
 * and whether robots.txt allows it. */
typedef int (*web_walk_fn)(void *arg, uint32_t host, enum web_kind kind, uint32_t num,
    const char *path, int status, int allowed);
/* Calls fn for every URL reachable from the roots, breadth-first, each
 * once (robots.txt not included: it is not linked). Stops at the first
 * negative return of fn and returns it; otherwise the number of URLs. */
long web_walk(const struct web *w, web_walk_fn fn, void *arg);
/* Writes every URL reachable from the roots (see README.md); returns the
 * number of lines, or -1 on a write error. */
long web_manifest_write(const struct web *w, unsigned port, FILE *f);

#endif
