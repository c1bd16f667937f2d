/* The hosts of a crawl's seeds: the operator named them, so their private,
 * loopback or other special-purpose addresses are allowed for every URI on
 * them (fetch.allow-private-addresses in tern.conf(5)), while links to any
 * other such address are still refused (-7). A host counts whatever its
 * port: http://localhost:8080/ lets the crawl reach localhost on any port.
 *
 * Pure: filled from the seed list as it loads (a new crawl's and a
 * resume's alike), from the seeds other nodes were given (cluster mode),
 * and by a seed's redirect target made a seed when the redirecting seed was
 * itself on a private or loopback address (crawl/outlinks.h); asked by a
 * visit whose address the guard refuses. */
#ifndef TERN_SEEDHOSTS_H
#define TERN_SEEDHOSTS_H
#include <stddef.h>

struct seedhosts;

struct seedhosts *seedhosts_new(void);
void seedhosts_free(struct seedhosts *s);
/* Adds the host of href, an http or https URL as url_resolve writes it;
 * 0, or -1 if href has no host. */
int seedhosts_add_url(struct seedhosts *s, const char *href);
/* Whether host (as in a URL, IPv6 without brackets) is a seed's host. */
int seedhosts_has(struct seedhosts *s, const char *host);
/* Distinct hosts held. */
size_t seedhosts_count(struct seedhosts *s);

#endif
