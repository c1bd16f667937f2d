/* What the fetches of one engine share (src/net/fetch.h is one fetch): the
 * settings read once from the configuration, the TLS context, the idle
 * kept-alive connections and TLS sessions of each site (scheme, host and
 * port), and the loop work of every fetch: one idle handle that runs work
 * deferred out of the caller's frame (bounded per wakeup), and one periodic
 * sweep timer that checks every deadline, rather than a handle or a timer
 * per fetch.
 *
 * The fetcher knows nothing of what a fetch is: a fetch embeds a struct
 * fetcher_member, whose ops the fetcher calls, as libuv calls a handle's
 * callbacks. */
#ifndef TERN_FETCHER_H
#define TERN_FETCHER_H
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct config;
struct conn;
struct credentials;
struct dns;
struct fetcher;
struct proxy;
struct tls_ctx;

/* Read once by fetcher_new. */
struct fetcher_settings {
	uint64_t connect_ms, total_ms, idle_ms;
	int64_t max_length;
	size_t max_header;
	const char *accept_encoding; /* the header's value (http_accept_encoding) */
	int allow_private;
	int http2; /* fetch.http2: HTTP/2 offered by ALPN */
	int trace; /* TERN_TRACE_FETCH: state changes on stderr */
	const char *user_agent;
};

/* A proxy the fetches of one scheme go through (tern(1), PROXIES). */
struct fetcher_proxy {
	const struct proxy *p; /* host, port, host:port for messages */
	const char *auth;      /* the Proxy-Authorization value, or NULL */
	const char *origin;    /* where it was set: "fetch.http-proxy", "http_proxy"... */
};

struct fetcher_member;

struct fetcher_member_ops {
	/* Its turn on the idle handle, once per fetcher_soon. */
	void (*run)(struct fetcher_member *m);
	/* Each sweep while active: check deadlines at now (the loop's ms). */
	void (*sweep)(struct fetcher_member *m, uint64_t now);
	/* fetcher_free: end now, calling nobody; must fetcher_deactivate. */
	void (*shutdown)(struct fetcher_member *m);
	/* fetcher_free: still waiting for its turn; free it. */
	void (*destroy)(struct fetcher_member *m);
};

/* Embedded in a fetch; every field but ops is the fetcher's. */
struct fetcher_member {
	const struct fetcher_member_ops *ops;
	struct fetcher_member *anext, *aprev; /* the active list */
	struct fetcher_member *snext;	      /* the soon list */
	int in_soon;
};

/* dns may be NULL (then only IP-literal URLs or given addresses work). */
struct fetcher *fetcher_new(uv_loop_t *loop, const struct config *cfg, struct dns *dns, char **err);
/* Fetches still in progress are abandoned without callbacks (members shut
 * down, queued ones destroyed); fetches the caller holds must be released
 * first. Idle connections are closed; the loop must run once more to
 * finish closing. */
void fetcher_free(struct fetcher *fr);

uv_loop_t *fetcher_loop(struct fetcher *fr);
struct dns *fetcher_dns(struct fetcher *fr);
struct tls_ctx *fetcher_tls(struct fetcher *fr);
const struct fetcher_settings *fetcher_settings(const struct fetcher *fr);

/* A member in progress: swept until deactivated. */
void fetcher_activate(struct fetcher *fr, struct fetcher_member *m);
void fetcher_deactivate(struct fetcher *fr, struct fetcher_member *m);
/* Runs m on the next turn of the idle handle (once, however often asked). */
void fetcher_soon(struct fetcher *fr, struct fetcher_member *m);

/* The proxy a fetch of host over tls or plain http goes through, or NULL
 * (no proxy for that scheme, or host is in the no-proxy list). */
const struct fetcher_proxy *fetcher_proxy_for(const struct fetcher *fr, int tls, const char *host);

/* The credentials of fetch.credentials-file (NULL: none), read and
 * checked by fetcher_new (net/credentials.h). */
const struct credentials *fetcher_credentials(const struct fetcher *fr);

/* A kept-alive connection to the site, taken off the pool (its callback is
 * the caller's to set), or NULL; *session is then the site's TLS session
 * to resume (NULL if none). */
struct conn *fetcher_reuse(struct fetcher *fr, int tls, const char *host, int port, void **session);
/* A connection whose response ended cleanly, kept for reuse (or closed
 * when the site or the pool is full). */
void fetcher_keep(struct fetcher *fr, int tls, const char *host, int port, struct conn *c);
/* Remembers a finished TLS connection's session for the site's next one
 * (takes sess). */
void fetcher_session_put(struct fetcher *fr, const char *host, int port, void *sess);
/* Closes idle connections to host:port (port 0: any), e.g. when the host's
 * queue is snoozed for long. */
void fetcher_close_idle(struct fetcher *fr, const char *host, int port);

/* Keeps at most max connections idle in all (FETCHER_IDLE_MAX at most), so
 * that kept-alive sockets fit the descriptors the caller can spare. */
void fetcher_limit_idle(struct fetcher *fr, size_t max);

/* Memory accounting for bench/sizes. */
size_t fetcher_idle_count(const struct fetcher *fr);

#endif
