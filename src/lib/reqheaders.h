/* The request headers an operator adds to every request (tern.conf(5):
 * fetch.accept-language, fetch.from, fetch.extra-headers): their checks,
 * run when the configuration is read, and the header lines built from them
 * for a URI, inserted into a request head built by net/http.c.
 *
 * fetch.extra-headers is "Name: value" items separated by '|': a header
 * value may hold ';' and ',' (Accept-Language's q=0.9), hardly ever '|'. */
#ifndef TERN_REQHEADERS_H
#define TERN_REQHEADERS_H
#include <stddef.h>

struct buf;

/* A header value as a setting gives it: no control character but a tab.
 * 0, or -1 with *why set to a static message. */
int reqheaders_check_value(const char *value, const char **why);
/* crawl.user-agent: a clean value holding the operator's contact URL as
 * "+http://..." or "+https://...", as Heritrix requires of its agent
 * string, so that a site's administrator can find who crawls. */
int reqheaders_check_agent(const char *value, const char **why);
/* fetch.from: an e-mail address (something@something), as Heritrix's From. */
int reqheaders_check_from(const char *value, const char **why);
/* fetch.extra-headers: every item a "Name: value" with a token for a name
 * and a clean value, and no name tern sends itself or that frames the
 * exchange (Host, Content-Length, Transfer-Encoding, Connection...). */
int reqheaders_check_extra(const char *text, const char **why);

/* Appends the header lines ("Name: value\r\n" each) of the values of
 * settings as a URI sees them (config_str_for): fetch.accept-language,
 * fetch.from and fetch.extra-headers, each "" when not set. */
void reqheaders_build(const char *lang, const char *from, const char *extra, struct buf *out);
/* Inserts header lines (each ending in CRLF) into a request head, before
 * the blank line that ends it; a header of the same name already in the
 * head (tern's own Accept) is replaced. */
void reqheaders_insert(struct buf *head, const char *lines, size_t len);

#endif
