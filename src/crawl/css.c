/* CSS link extraction as a byte-level state machine over the CSS Syntax
 * tokenizer's states that matter for URLs: names (with escapes, so that
 * "u\72l(" is a url function), strings, comments, url tokens and bad urls.
 * What it simplifies, on purpose: numbers are read as name runs (which
 * never spell "url" or "import"), and any string right after a url(
 * function counts as its URL whatever modifiers follow. */
#include <stdlib.h>
#include <string.h>
#include "crawl/css.h"
#include "lib/xmalloc.h"

enum css_state {
	CSS_NORMAL,
	CSS_SLASH, /* saw '/', maybe a comment */
	CSS_COMMENT,
	CSS_COMMENT_STAR,
	CSS_STRING,
	CSS_STRING_ESC,	   /* after '\' in a string */
	CSS_STRING_ESC_CR, /* after '\' CR: a following LF is part of it */
	CSS_IDENT_ESC,	   /* after '\' outside strings and urls */
	CSS_HEX,	   /* inside a hex escape */
	CSS_HEX_CR,	   /* CR ended a hex escape: skip a following LF */
	CSS_URL_START,	   /* after "url(" */
	CSS_URL,	   /* unquoted url */
	CSS_URL_ESC,
	CSS_URL_WS, /* whitespace after an unquoted url */
	CSS_BAD_URL,
	CSS_BAD_URL_ESC,
};

/* What a string being read is for. */
enum css_purpose { CSS_FOR_NOTHING, CSS_FOR_URL, CSS_FOR_IMPORT };

struct css {
	css_cb cb;
	void *arg;
	enum css_state state;
	enum css_state hex_return; /* CSS_STRING, CSS_URL or CSS_NORMAL (a name) */
	unsigned hex_val, hex_digits;
	char quote;
	enum css_purpose purpose;
	int at_import;	  /* the last significant token was @import */
	char ident[8];	  /* lowercased start of the current name run */
	size_t ident_len; /* full length of the run */
	char run_prefix;  /* '@', '#' or 0: what started the run */
	int url_bad;	  /* the URL outgrew CSS_URL_MAX */
	size_t url_len, url_cap;
	char *url; /* grown on demand: most URLs are short */
};

struct css *css_new(css_cb cb, void *arg)
{
	struct css *c = xmalloc(sizeof(*c));

	c->cb = cb;
	c->arg = arg;
	c->url = NULL;
	c->url_cap = 0;
	css_reset(c);
	return c;
}

void css_reset(struct css *c)
{
	c->state = CSS_NORMAL;
	c->hex_return = CSS_STRING;
	c->hex_val = c->hex_digits = 0;
	c->quote = 0;
	c->purpose = CSS_FOR_NOTHING;
	c->at_import = 0;
	c->ident_len = 0;
	c->run_prefix = 0;
	c->url_bad = 0;
	c->url_len = 0;
}

void css_free(struct css *c)
{
	if (c == NULL)
		return;
	free(c->url);
	free(c);
}

static int css_isws(unsigned char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f';
}

/* NUL counts: input preprocessing makes it U+FFFD, a non-ASCII name char. */
static int css_isnamechar(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	    ch == '-' || ch == '_' || ch >= 0x80 || ch == 0;
}

static int css_ishex(unsigned char ch)
{
	return (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f');
}

static void css_url_append(struct css *c, const char *p, size_t n)
{
	if (c->url_bad || c->url_len + n > CSS_URL_MAX) {
		c->url_bad = 1;
		return;
	}
	if (c->url_len + n > c->url_cap) {
		size_t cap = c->url_cap ? c->url_cap : 128;

		while (cap < c->url_len + n)
			cap *= 2;
		c->url_cap = cap < CSS_URL_MAX ? cap : CSS_URL_MAX;
		c->url = xrealloc(c->url, c->url_cap);
	}
	memcpy(c->url + c->url_len, p, n);
	c->url_len += n;
}

static void css_url_append_cp(struct css *c, unsigned cp)
{
	char out[4];
	size_t n;

	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		out[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		out[0] = (char)(0xF0 | (cp >> 18));
		out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	css_url_append(c, out, n);
}

/* Appends one input byte to the URL; NUL stands for U+FFFD as CSS input
 * preprocessing says. */
static void css_url_byte(struct css *c, unsigned char ch)
{
	if (ch == 0)
		css_url_append(c, "\xEF\xBF\xBD", 3);
	else
		css_url_append(c, (const char *)&ch, 1);
}

static void css_emit(struct css *c, int is_import)
{
	const char *p = c->url;
	size_t n = c->url_len;

	if (!c->url_bad) {
		while (n && css_isws((unsigned char)*p)) {
			p++;
			n--;
		}
		while (n && css_isws((unsigned char)p[n - 1]))
			n--;
		if (n)
			c->cb(c->arg, p, n, is_import);
	}
	c->url_len = 0;
	c->url_bad = 0;
}

/* Ends a name run; a run starts a new token, so anything but whitespace,
 * comments, strings and url( ends an @import's reach. */
static void css_run_end(struct css *c)
{
	if (c->ident_len && c->run_prefix == '@')
		c->at_import = c->ident_len == 6 && memcmp(c->ident, "import", 6) == 0;
	else if (c->ident_len || c->run_prefix)
		c->at_import = 0; /* a name, or a bare '@' or '#' delimiter */
	c->ident_len = 0;
	c->run_prefix = 0;
}

static void css_start_string(struct css *c, char q, enum css_purpose purpose)
{
	c->quote = q;
	c->purpose = purpose;
	c->url_len = 0;
	c->url_bad = 0;
	c->state = CSS_STRING;
}

/* One character of a name run; only the first few are kept, lowercased,
 * enough to recognise "url" and "import". */
static void css_ident_add(struct css *c, unsigned cp)
{
	if (c->ident_len < sizeof(c->ident))
		c->ident[c->ident_len] = (char)(cp >= 'A' && cp <= 'Z' ? cp + 32
			: cp < 0x80 && cp			       ? cp
								       : 0x80);
	c->ident_len++;
}

static void css_hex_done(struct css *c)
{
	if (c->hex_return == CSS_NORMAL)
		css_ident_add(c, c->hex_val);
	else if (c->purpose != CSS_FOR_NOTHING)
		css_url_append_cp(c, c->hex_val);
	c->state = c->hex_return;
}

static void css_normal(struct css *c, unsigned char ch)
{
	if (css_isnamechar(ch)) {
		css_ident_add(c, ch);
		return;
	}
	if (ch == '\\') {
		/* An escape continues (or starts) a name unless a newline
		 * follows; CSS_IDENT_ESC decides. */
		c->state = CSS_IDENT_ESC;
		return;
	}
	if (ch == '(') {
		int is_url =
		    c->ident_len == 3 && c->run_prefix == 0 && memcmp(c->ident, "url", 3) == 0;
		int imp = c->at_import;

		c->ident_len = 0;
		c->run_prefix = 0;
		if (is_url) {
			c->purpose = imp ? CSS_FOR_IMPORT : CSS_FOR_URL;
			c->url_len = 0;
			c->url_bad = 0;
			c->state = CSS_URL_START;
		}
		c->at_import = 0;
		return;
	}
	css_run_end(c);
	switch (ch) {
	case '/':
		c->state = CSS_SLASH;
		return;
	case '"':
	case '\'':
		css_start_string(c, (char)ch, c->at_import ? CSS_FOR_IMPORT : CSS_FOR_NOTHING);
		c->at_import = 0;
		return;
	case '@':
	case '#':
		c->run_prefix = (char)ch;
		return;
	default:
		if (!css_isws(ch))
			c->at_import = 0;
	}
}

void css_feed(struct css *c, const char *data, size_t len)
{
	const unsigned char *p = (const unsigned char *)data, *end = p + len;

	while (p < end) {
		unsigned char ch = *p;

		switch (c->state) {
		case CSS_NORMAL:
			css_normal(c, ch);
			break;
		case CSS_IDENT_ESC:
			if (ch == '\n' || ch == '\r' || ch == '\f') {
				/* Not an escape: a lone '\' delimiter. */
				css_run_end(c);
				c->at_import = 0;
				c->state = CSS_NORMAL;
				continue;
			}
			if (css_ishex(ch)) {
				c->hex_val = 0;
				c->hex_digits = 0;
				c->hex_return = CSS_NORMAL;
				c->state = CSS_HEX;
				continue;
			}
			css_ident_add(c, ch == 0 ? 0xFFFD : ch);
			c->state = CSS_NORMAL;
			break;
		case CSS_SLASH:
			if (ch == '*') {
				c->state = CSS_COMMENT;
				break;
			}
			/* A lone '/' is a delimiter token. */
			c->at_import = 0;
			c->state = CSS_NORMAL;
			continue;
		case CSS_COMMENT: {
			const unsigned char *star = memchr(p, '*', (size_t)(end - p));

			if (!star)
				return;
			p = star;
			c->state = CSS_COMMENT_STAR;
			break;
		}
		case CSS_COMMENT_STAR:
			if (ch == '/')
				c->state = CSS_NORMAL;
			else if (ch != '*')
				c->state = CSS_COMMENT;
			break;
		case CSS_STRING:
			if ((char)ch == c->quote) {
				c->state = CSS_NORMAL;
				if (c->purpose != CSS_FOR_NOTHING)
					css_emit(c, c->purpose == CSS_FOR_IMPORT);
				c->url_len = 0;
			} else if (ch == '\\') {
				c->state = CSS_STRING_ESC;
			} else if (ch == '\n' || ch == '\r' || ch == '\f') {
				/* A bad string: dropped, the newline is
				 * whitespace again. */
				c->url_len = 0;
				c->state = CSS_NORMAL;
				continue;
			} else if (c->purpose != CSS_FOR_NOTHING) {
				css_url_byte(c, ch);
			}
			break;
		case CSS_STRING_ESC:
			if (ch == '\r') {
				c->state = CSS_STRING_ESC_CR;
			} else if (ch == '\n' || ch == '\f') {
				c->state = CSS_STRING;
			} else if (css_ishex(ch)) {
				c->hex_val = 0;
				c->hex_digits = 0;
				c->hex_return = CSS_STRING;
				c->state = CSS_HEX;
				continue;
			} else {
				if (c->purpose != CSS_FOR_NOTHING)
					css_url_byte(c, ch);
				c->state = CSS_STRING;
			}
			break;
		case CSS_STRING_ESC_CR:
			c->state = CSS_STRING;
			if (ch == '\n')
				break;
			continue;
		case CSS_HEX:
			if (c->hex_digits < 6 && css_ishex(ch)) {
				unsigned v = ch <= '9' ? (unsigned)(ch - '0')
						       : (unsigned)((ch | 0x20) - 'a' + 10);

				c->hex_val = c->hex_val * 16 + v;
				c->hex_digits++;
				break;
			}
			css_hex_done(c);
			/* One whitespace after a hex escape belongs to it, a
			 * CR LF pair counting as one. */
			if (ch == '\r')
				c->state = CSS_HEX_CR;
			if (css_isws(ch))
				break;
			continue;
		case CSS_HEX_CR:
			c->state = c->hex_return;
			if (ch == '\n')
				break;
			continue;
		case CSS_URL_START:
			if (css_isws(ch))
				break;
			if (ch == '"' || ch == '\'') {
				css_start_string(c, (char)ch, c->purpose);
				break;
			}
			c->state = CSS_URL;
			continue;
		case CSS_URL:
			if (ch == ')') {
				css_emit(c, c->purpose == CSS_FOR_IMPORT);
				c->state = CSS_NORMAL;
			} else if (css_isws(ch)) {
				c->state = CSS_URL_WS;
			} else if (ch == '\\') {
				c->state = CSS_URL_ESC;
			} else if (ch == '"' || ch == '\'' || ch == '(' || ch == 0x7F ||
			    (ch < 0x20 && ch != 0 && ch != '\t')) {
				c->state = CSS_BAD_URL;
			} else {
				css_url_byte(c, ch);
			}
			break;
		case CSS_URL_ESC:
			if (ch == '\n' || ch == '\r' || ch == '\f') {
				c->state = CSS_BAD_URL;
				break;
			}
			if (css_ishex(ch)) {
				c->hex_val = 0;
				c->hex_digits = 0;
				c->hex_return = CSS_URL;
				c->state = CSS_HEX;
				continue;
			}
			css_url_byte(c, ch);
			c->state = CSS_URL;
			break;
		case CSS_URL_WS:
			if (css_isws(ch))
				break;
			if (ch == ')') {
				css_emit(c, c->purpose == CSS_FOR_IMPORT);
				c->state = CSS_NORMAL;
				break;
			}
			c->state = CSS_BAD_URL;
			continue;
		case CSS_BAD_URL:
			if (ch == ')') {
				c->url_len = 0;
				c->state = CSS_NORMAL;
			} else if (ch == '\\') {
				c->state = CSS_BAD_URL_ESC;
			}
			break;
		case CSS_BAD_URL_ESC:
			c->state = CSS_BAD_URL;
			break;
		}
		p++;
	}
}

void css_finish(struct css *c)
{
	if (c->state == CSS_HEX)
		css_hex_done(c);
	else if (c->state == CSS_HEX_CR)
		c->state = c->hex_return;
	switch (c->state) {
	case CSS_URL_ESC:
		/* A backslash right before the end escapes U+FFFD. */
		css_url_append_cp(c, 0xFFFD);
		css_emit(c, c->purpose == CSS_FOR_IMPORT);
		break;
	case CSS_URL:
	case CSS_URL_WS:
		css_emit(c, c->purpose == CSS_FOR_IMPORT);
		break;
	case CSS_STRING:
	case CSS_STRING_ESC:
	case CSS_STRING_ESC_CR:
		if (c->purpose != CSS_FOR_NOTHING)
			css_emit(c, c->purpose == CSS_FOR_IMPORT);
		break;
	default:
		break;
	}
	css_reset(c);
}
