/* Link extraction from HTML and CSS bodies as they stream in: what a page
 * links to, with Heritrix-style hop types and contexts. Pure logic: bytes in,
 * links out through a callback, bounded memory, linear time, never fails on
 * bad input. References are reported raw (character references decoded,
 * HTML whitespace trimmed, empty ones skipped); the caller resolves them. */
#ifndef TERN_EXTRACT_H
#define TERN_EXTRACT_H
#include <stddef.h>

enum extract_type { EXTRACT_HTML, EXTRACT_CSS };
enum { EXTRACT_NOFOLLOW = 1 /* rel=nofollow on the link */ };
enum { EXTRACT_META_NOFOLLOW = 1, EXTRACT_META_NOINDEX = 2 }; /* <meta name=robots> */

struct extract_link {
	const char *ref; /* raw reference, not NUL-terminated, never empty */
	size_t len;
	/* The first <base href> seen so far (raw, NUL-terminated), or NULL:
	 * resolve it against the page URL, then ref against that. */
	const char *base;
	/* 'L' navigational (a, area, link with most rels, form action),
	 * 'E' embed (img, script, stylesheet/icon links, frames, embed,
	 * object, media, CSS), 'R' meta refresh. */
	char hop;
	const char *context; /* static, e.g. "a/@href", "css/url" */
	unsigned flags;	     /* EXTRACT_NOFOLLOW */
};

typedef void (*extract_cb)(void *arg, const struct extract_link *l);

struct extract_opts {
	size_t max_outlinks; /* 0 = unlimited; past it links are counted, not reported */
	int forms;	     /* report GET form actions (off by default, as Heritrix) */
};

struct extract;

/* o may be NULL for the defaults (no limit, no forms). */
struct extract *extract_new(
    enum extract_type type, const struct extract_opts *o, extract_cb cb, void *arg);
/* Any chunking; links are reported from inside the call. Returns 0. */
int extract_feed(struct extract *x, const char *data, size_t len);
/* Ends the body, reporting what only the end decides. Returns 0. */
int extract_finish(struct extract *x);
unsigned extract_meta(const struct extract *x);	 /* EXTRACT_META_* seen */
size_t extract_dropped(const struct extract *x); /* links past max_outlinks (dol:N) */
size_t extract_count(const struct extract *x);	 /* links reported */
/* The text of the document's first HTML <title> so far, as document.title
 * gives it (references decoded, ASCII whitespace stripped and collapsed;
 * other control characters become spaces too, so it fits a header line),
 * from at most EXTRACT_TITLE_MAX bytes of source, cut at a character:
 * "" when there is none. Valid until the next call on x. */
#define EXTRACT_TITLE_MAX 1024
const char *extract_title(struct extract *x);
/* Ready for another body with options o (NULL: the defaults), as
 * extract_new with x's type, callback and argument would make it, but
 * keeping the room it grew: what was fed and not finished is forgotten. */
void extract_reset(struct extract *x, const struct extract_opts *o);
void extract_free(struct extract *x);

/* The URL of a Refresh value ("5; url=/next") per the HTML "shared
 * declarative refresh steps", for <meta http-equiv=refresh> and the HTTP
 * Refresh header: 0 with the URL in *url and *len when it names one, -1 otherwise. */
int extract_refresh_url(const char *v, size_t n, const char **url, size_t *len);

#endif
