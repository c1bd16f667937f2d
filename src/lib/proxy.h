/* HTTP proxies as settings and environment variables name them
 * (tern.conf(5): fetch.http-proxy, fetch.https-proxy, fetch.no-proxy; the
 * http_proxy, https_proxy and no_proxy variables as curl reads them): the
 * proxy's URL, and the list of hosts reached directly. Pure: the fetch
 * engine (net/fetcher.c) decides the route from these. */
#ifndef TERN_PROXY_H
#define TERN_PROXY_H

struct proxy {
	char host[256];	    /* lower case, IPv6 without brackets */
	char hostport[272]; /* "host:port" ("[::1]:3128"), for messages */
	int port;
	char *user, *password; /* percent-decoded userinfo; NULL: none */
};

/* Parses "http://[user:password@]host[:port][/]" (the port defaults to
 * 1080, as curl's; "host:port" alone is taken as http://host:port).
 * Userinfo is refused unless allow_userinfo: tern.conf names no secret
 * (doc/warc.md, "Credentials"). 0, or -1 with *why set to a static
 * message; p is cleared first and freed with proxy_clear. */
int proxy_parse(const char *url, int allow_userinfo, struct proxy *p, const char **why);
void proxy_clear(struct proxy *p);

/* Whether host (lower case, IPv6 without brackets) is reached directly by
 * the no_proxy list: "*" (every host), or names and addresses separated by
 * commas or blanks, a name matching itself and the names under it
 * ("example.org" and ".example.org" both match www.example.org), an
 * address matching itself. */
int proxy_bypass(const char *no_proxy, const char *host);

/* A value of fetch.http-proxy or fetch.https-proxy: "" (the environment's),
 * "none" (no proxy), or a proxy URL without userinfo. */
int proxy_check_setting(const char *value, const char **why);

#endif
