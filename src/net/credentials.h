/* The credentials file (tern.conf(5), fetch.credentials-file): HTTP logins
 * per SURT prefix and realm, and proxies' users and passwords. Pure: the
 * fetcher reads the file (and checks its mode) and hands the text here.
 *
 * A line is KIND WHERE REALM USER PASSWORD, fields separated by blanks; a
 * field with blanks (or '#', or '"') is written in double quotes, with \"
 * and \\ inside; '#' starts a comment outside quotes. */
#ifndef TERN_CREDENTIALS_H
#define TERN_CREDENTIALS_H
#include <stddef.h>

enum credential_kind { CREDENTIAL_HTTP, CREDENTIAL_PROXY };

struct credential {
	enum credential_kind kind;
	char *where; /* a scheme-less SURT prefix, or a proxy's host:port */
	char *realm; /* "*": any */
	char *user, *password;
};

struct credentials;

/* 0, or -1 with *err ("FILE:LINE: why", never quoting a password). */
int credentials_parse(
    const char *text, size_t len, const char *origin, struct credentials **out, char **err);
void credentials_free(struct credentials *c);
size_t credentials_count(const struct credentials *c);

/* The proxy credential for host:port as the proxy setting names it
 * (proxy.h's hostport), or NULL. */
const struct credential *credentials_proxy(const struct credentials *c, const char *hostport);
/* The HTTP credential for a URI whose scheme-less SURT is surt and a
 * challenge of realm: the longest prefix, an exact realm before "*". */
const struct credential *credentials_http(
    const struct credentials *c, const char *surt, const char *realm);

#endif
