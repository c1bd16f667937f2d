/* HTML output for the operator console: text made safe for element content
 * and quoted attribute values, and query components for the links the
 * console builds. Everything the console shows from the crawl (URIs, hosts,
 * queue keys, crawl.log fields, setting values) is hostile: a crawled page
 * chooses its links, a server its headers. Pure: no I/O.
 *
 * html_text's output is valid UTF-8 with no markup and no invisible
 * controls, whatever the input bytes:
 *   - & < > " ' become character references;
 *   - C0 controls and DEL become their Unicode control pictures (U+2400-
 *     U+2421: a NUL shows as a visible symbol, never silently);
 *   - C1 controls, bidirectional overrides and isolates (which could make a
 *     URI read as another), and bytes that are not UTF-8 become U+FFFD. */
#ifndef TERN_HTML_H
#define TERN_HTML_H
#include <stddef.h>

#include "lib/buf.h"

/* Appends s[0..len) escaped as above. */
void html_text(struct buf *out, const char *s, size_t len);
/* The same for a NUL-terminated string; NULL appends nothing. */
void html_texts(struct buf *out, const char *s);
/* Appends s[0..len) percent-encoded as one query component: every byte but
 * ALPHA, DIGIT and - . _ ~ becomes %XX, so the result is inert in a URL and
 * in an attribute alike. */
void html_query(struct buf *out, const char *s, size_t len);
/* The same for a NUL-terminated string; NULL appends nothing. */
void html_querys(struct buf *out, const char *s);

#endif
