/* An expat parser with the guards every XML reader here needs (sitemaps,
 * feeds): memory through xmalloc, namespaces split by a separator of the
 * caller's, entity declarations and references to undeclared entities
 * refused before anything is expanded, a byte limit on the input, and
 * expat's own errors said with their line.
 *
 * The guard is the handlers' user data: a handler finds its reader with
 * xmlguard_arg. Failures go to the reader's fail callback, which keeps its
 * own result and calls xmlguard_stop; once stopped, nothing more is
 * parsed. */
#ifndef TERN_LIB_XMLGUARD_H
#define TERN_LIB_XMLGUARD_H
#include <expat.h>
#include <stddef.h>
#include <stdint.h>

enum xmlguard_why {
	XMLGUARD_MALFORMED, /* not well-formed, or an entity refused */
	XMLGUARD_LIMIT,	    /* more bytes than the limit */
};

typedef void (*xmlguard_fail_cb)(void *arg, enum xmlguard_why why, const char *msg);

struct xmlguard;

struct xmlguard *xmlguard_new(char ns_sep, uint64_t max_bytes, xmlguard_fail_cb fail, void *arg);
void xmlguard_handlers(struct xmlguard *g, XML_StartElementHandler start, XML_EndElementHandler end,
    XML_CharacterDataHandler text);
/* 0 keeps the limit. */
void xmlguard_set_max_bytes(struct xmlguard *g, uint64_t max_bytes);
void *xmlguard_arg(void *user_data);
/* Parses len bytes (final: the document ends), charging the limit. Past
 * the limit, what came before it is drained (xmlguard_drain) and the
 * failure is XMLGUARD_LIMIT. */
void xmlguard_parse(struct xmlguard *g, const char *data, size_t len, int final);
/* Tells expat the input ended, so that it reports every element complete
 * in what it was given, wherever the reads were cut; the error it then
 * finds (an unclosed element) is not the reason for stopping, and is
 * dropped. Does nothing once stopped. */
void xmlguard_drain(struct xmlguard *g);
void xmlguard_stop(struct xmlguard *g);
uint64_t xmlguard_bytes(const struct xmlguard *g);
void xmlguard_free(struct xmlguard *g);

#endif
