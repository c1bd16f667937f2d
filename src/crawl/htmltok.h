/* A streaming HTML5 tokenizer for link extraction: it follows the WHATWG
 * tokenizer states (tags, attributes in all three value forms, comments,
 * DOCTYPE, bogus comments, CDATA in foreign content, RCDATA, RAWTEXT, script
 * data with its escaped states, PLAINTEXT) and the few tree-construction
 * decisions that switch those states (which elements hold raw text, whether
 * a tag is in SVG or MathML content). Input arrives in chunks of any size;
 * it keeps only the bytes of the current tag, capped, so memory is bounded
 * and time linear whatever the page. Character and comment tokens are not
 * reported: only tags, and the text of RAWTEXT and RCDATA elements. */
#ifndef TERN_HTMLTOK_H
#define TERN_HTMLTOK_H
#include <stddef.h>

/* Caps. Names longer than HTMLTOK_NAME_MAX are kept truncated and flagged
 * so they never match; a value longer than HTMLTOK_VALUE_MAX, or past
 * HTMLTOK_TAG_MAX bytes of values in one tag, is flagged overflow; past
 * HTMLTOK_ATTRS_MAX attributes the rest of the tag's attributes are parsed
 * and dropped; SVG/MathML nesting deeper than HTMLTOK_DEPTH_MAX is not
 * tracked. */
#define HTMLTOK_NAME_MAX 64
#define HTMLTOK_VALUE_MAX (32 * 1024)
#define HTMLTOK_TAG_MAX (256 * 1024)
#define HTMLTOK_ATTRS_MAX 256
#define HTMLTOK_DEPTH_MAX 256

/* What the tokenizer reads after a start tag. */
enum htmltok_text {
	HTMLTOK_DATA,
	HTMLTOK_RCDATA,	 /* title, textarea */
	HTMLTOK_RAWTEXT, /* style, xmp, iframe, noembed, noframes */
	HTMLTOK_SCRIPT,
	HTMLTOK_PLAINTEXT,
};

struct htmltok_attr {
	const char *name; /* ASCII-lowercased */
	size_t name_len;
	const char *value; /* raw: references not decoded, NULs kept */
	size_t value_len;
	int overflow; /* value or name cut by a cap: do not use */
};

struct htmltok_tag {
	const char *name; /* ASCII-lowercased, NUL-terminated */
	size_t name_len;
	int name_overflow;
	int end;
	int self_closing;
	int foreign;			  /* start tag of an SVG or MathML element */
	enum htmltok_text text;		  /* for start tags */
	const struct htmltok_attr *attrs; /* source order, duplicates kept */
	size_t nattrs;
};

struct htmltok_cbs {
	void (*tag)(void *arg, const struct htmltok_tag *t);
	/* Text of the current RAWTEXT, RCDATA or PLAINTEXT element, in
	 * pieces, raw; may be NULL. */
	void (*text)(void *arg, const char *data, size_t len);
};

struct htmltok;

struct htmltok *htmltok_new(const struct htmltok_cbs *cbs, void *arg);
void htmltok_feed(struct htmltok *t, const char *data, size_t len);
/* Ends the input (a tag cut by the end is dropped, as HTML does) and
 * resets the tokenizer for another document. */
void htmltok_finish(struct htmltok *t);
/* Forgets the document in progress without reporting anything, as a new
 * tokenizer with the same callbacks, but keeps the room it grew. */
void htmltok_reset(struct htmltok *t);
void htmltok_free(struct htmltok *t);

/* The first attribute called name, as HTML keeps the first of duplicates;
 * NULL if absent. */
const struct htmltok_attr *htmltok_attr(const struct htmltok_tag *t, const char *name);
const struct htmltok_attr *htmltok_attr_n(
    const struct htmltok_tag *t, const char *name, size_t len);

#endif
