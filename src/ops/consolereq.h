/* The operator console's request decisions, before anything of the crawl is
 * touched: is the Host one we serve (DNS rebinding), does the request carry
 * the job's token (on the TCP listener), is a POST from our own origin
 * (CSRF), which page or route it asks for, and are its parameters sane.
 * Pure: strings in, a verdict out; table-tested and fuzzed.
 *
 * Rules (doc/architecture.md, "Operator console"):
 *   - Host: an IP literal, "localhost" or a name the operator listed, with
 *     the listener's port on TCP (any port on control.sock, reached through
 *     an SSH tunnel); required on TCP, optional on control.sock.
 *   - Token (TCP only): "Authorization: Bearer TOKEN", or for a GET the
 *     query parameter token=TOKEN; a POST must use the header, so a form or
 *     a link from another site can never act. Missing: 401; wrong: 403.
 *     Static assets (CSS, script) need no token: they hold nothing of the
 *     crawl and the login page uses them.
 *   - POST (both listeners): an Origin, when sent, must be the Host's own
 *     http origin, and Sec-Fetch-Site, when sent, same-origin or none.
 *   - No CORS: nothing here ever allows another origin. */
#ifndef TERN_CONSOLEREQ_H
#define TERN_CONSOLEREQ_H
#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"

/* The token: 32 random bytes as 64 lowercase hex digits. */
#define CONSOLEREQ_TOKEN_LEN 64
/* Rows per page of the queues, hosts and crawl.log views, and how many
 * pages a sorted view reaches (its scan keeps PAGE_ROWS * MAX_PAGE rows). */
#define CONSOLEREQ_PAGE_ROWS 100
#define CONSOLEREQ_MAX_PAGE 100

/* Where the request arrived. */
struct consolereq_listener {
	int tcp;		  /* 1: the TCP listener; 0: control.sock */
	const char *token;	  /* the job's token (TCP) */
	unsigned port;		  /* the TCP listener's port */
	const char *const *names; /* more host names accepted in Host */
	size_t nnames;
};

/* The request as the routes see it; absent headers are NULL. */
struct consolereq_in {
	const char *method, *path, *query;
	const char *host, *origin, *fetch_site, *authorization;
};

enum consolereq_kind {
	CONSOLEREQ_REFUSE,   /* answer status and why (JSON when json, else a page) */
	CONSOLEREQ_LOGIN,    /* the login page, with status 401 or 403 */
	CONSOLEREQ_REDIRECT, /* 303 to location */
	CONSOLEREQ_ASSET,    /* the static asset named asset */
	CONSOLEREQ_PAGE,     /* a console page or its JSON (page) */
	CONSOLEREQ_CONTROL,  /* a control-socket route (doc/formats.md, "Control socket") */
};

enum consolereq_page {
	CONSOLEREQ_OVERVIEW,
	CONSOLEREQ_QUEUES,
	CONSOLEREQ_QUEUE,
	CONSOLEREQ_HOSTS,
	CONSOLEREQ_LOG,
	CONSOLEREQ_SETTINGS,
	CONSOLEREQ_CHECKPOINTS,
	CONSOLEREQ_LIVE,    /* JSON: the status and the samples since `since` */
	CONSOLEREQ_HISTORY, /* JSON: the long view from progress.log */
	CONSOLEREQ__NPAGES
};

struct consolereq {
	enum consolereq_kind kind;
	int status;	 /* REFUSE, LOGIN */
	const char *why; /* REFUSE, LOGIN: for a person */
	int json;	 /* errors as JSON: an API or control route */
	enum consolereq_page page;
	const char *asset;   /* ASSET: the name after /console/static/ (in in->path) */
	struct buf location; /* REDIRECT */
	int token_in_query;  /* links of the answer must carry the token */
	/* Parameters, checked: */
	char state[16];	 /* queues: a state word, lowercase; "" for all */
	char sort[8];	 /* queues: key size spend errors; hosts: urls bytes failed name */
	unsigned pageno; /* 1 to CONSOLEREQ_MAX_PAGE */
	struct buf key;	 /* queue: its key; queues: resume after this key */
	struct buf code; /* log: a status "200", "-6", "4xx", or "" */
	struct buf host; /* log: a host, lowercase, or "" */
	struct buf mime; /* log: a MIME type prefix, or "" */
	uint64_t before; /* log: read what lies before this offset; 0: the end */
	uint64_t since;	 /* live: samples after this time (ms) */
};

void consolereq_init(struct consolereq *r);
void consolereq_free(struct consolereq *r);
/* Makes dst (initialized) a copy of src that outlives the request (asset
 * is not kept: it points into the request's path). */
void consolereq_copy(struct consolereq *dst, const struct consolereq *src);
/* Decides what to do with in, arriving at l, into r (reset first). */
void consolereq_route(
    const struct consolereq_listener *l, const struct consolereq_in *in, struct consolereq *r);
/* 1 if host (a Host header's value) may be served at l. */
int consolereq_host_ok(const struct consolereq_listener *l, const char *host);
/* The page's path under /console/ ("" for the overview, "queues", ...). */
const char *consolereq_page_path(enum consolereq_page p);

#endif
