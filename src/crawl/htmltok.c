/* The tokenizer is one byte-level state machine whose states are named after
 * the WHATWG tokenizer states; the hot ones (data, raw text, comments,
 * quoted values) skip ahead with memchr. Look-ahead that the spec does over
 * several characters (markup declarations, appropriate end tags) is done a
 * byte at a time into a small buffer so a chunk may end anywhere.
 *
 * Three deliberate simplifications, each documented where it acts: <noscript>
 * content is tokenized as markup (a crawler wants those links, as with
 * scripting disabled); the SVG/MathML tracking is a small stack, not the
 * tree builder's, so end tags that would close HTML elements opened outside
 * the foreign content are guessed; and of the other insertion modes only
 * "in select" is modelled (in frameset is not). */
#include <stdlib.h>
#include <string.h>
#include "crawl/htmltok.h"
#include "lib/xmalloc.h"

enum htmltok_state {
	HT_DATA,
	HT_TAG_OPEN,
	HT_END_TAG_OPEN,
	HT_TAG_NAME,
	HT_BEFORE_ATTR_NAME,
	HT_ATTR_NAME,
	HT_AFTER_ATTR_NAME,
	HT_BEFORE_ATTR_VALUE,
	HT_ATTR_VALUE_DQ,
	HT_ATTR_VALUE_SQ,
	HT_ATTR_VALUE_UQ,
	HT_AFTER_ATTR_VALUE_Q,
	HT_SELF_CLOSING,
	HT_BOGUS_COMMENT,
	HT_MD_OPEN, /* after "<!": "--", "doctype" or "[CDATA[" */
	HT_COMMENT_START,
	HT_COMMENT_START_DASH,
	HT_COMMENT,
	HT_COMMENT_END_DASH,
	HT_COMMENT_END,
	HT_COMMENT_END_BANG,
	HT_DOCTYPE, /* every DOCTYPE state ends at the first '>' */
	HT_CDATA,
	HT_CDATA_B1,
	HT_CDATA_B2,
	HT_RAW, /* RCDATA and RAWTEXT: same end rules */
	HT_RAW_LT,
	HT_RAW_END_OPEN,
	HT_RAW_END_NAME,
	HT_SCRIPT,
	HT_SCRIPT_LT,
	HT_SCRIPT_END_OPEN,
	HT_SCRIPT_END_NAME,
	HT_SCRIPT_ESC_START,
	HT_SCRIPT_ESC_START_DASH,
	HT_SCRIPT_ESC,
	HT_SCRIPT_ESC_DASH,
	HT_SCRIPT_ESC_DASH_DASH,
	HT_SCRIPT_ESC_LT,
	HT_SCRIPT_ESC_END_OPEN,
	HT_SCRIPT_ESC_END_NAME,
	HT_SCRIPT_DESC_START,
	HT_SCRIPT_DESC,
	HT_SCRIPT_DESC_DASH,
	HT_SCRIPT_DESC_DASH_DASH,
	HT_SCRIPT_DESC_LT,
	HT_SCRIPT_DESC_END,
	HT_PLAINTEXT,
};

enum htmltok_ns { HT_NS_HTML, HT_NS_SVG, HT_NS_MATH };
enum htmltok_ip { HT_IP_NONE, HT_IP_HTML, HT_IP_MATHTEXT };

/* An open element of the foreign-content stack; names past 15 bytes are
 * stored with len 0xFF and never match. */
struct htmltok_el {
	unsigned char ns, ip, len;
	char name[15];
};

/* Offsets into the tag buffer, which may move while the tag grows. */
struct htmltok_rec {
	size_t name_off, name_len, value_off, value_len;
	int overflow;
};

#define HT_TMP_MAX 16
/* How far down the foreign-content stack an end tag looks for its element:
 * real SVG nests a few levels; the bound keeps a flood of stray end tags
 * under a deep stack linear with a small constant. */
#define HT_END_SEARCH_MAX 32

struct htmltok {
	struct htmltok_cbs cbs;
	void *arg;
	enum htmltok_state state;

	/* The tag being read. */
	char name[HTMLTOK_NAME_MAX + 1];
	size_t name_len;
	int name_overflow;
	int is_end, self_closing;
	char *tb; /* attribute names and values */
	size_t tb_len, tb_cap, values_len;
	struct htmltok_rec *recs;
	size_t nrecs, recs_cap;
	int attr_on;		    /* the current attribute is being kept */
	struct htmltok_attr *attrs; /* built for the callback */
	size_t attrs_cap;

	/* Look-ahead bytes (markup declarations, end tag names). */
	char tmp[HT_TMP_MAX + 1];
	size_t tmp_len;
	int tmp_long;
	/* The element whose raw text we are in, for "appropriate end tag". */
	char raw_name[HT_TMP_MAX + 1];
	size_t raw_len;

	/* Grown on demand: most pages never open a foreign element, and a
	 * crawl keeps thousands of tokenizers alive at once. */
	struct htmltok_el *stack;
	size_t depth, stack_cap;
	/* Inside an HTML <select> ("in select" insertion mode), where the tree
	 * builder ignores most start tags, so they switch no state. */
	int in_select;
};

static int htmltok_isws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static int htmltok_isalpha(unsigned char c)
{
	return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static unsigned char htmltok_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int htmltok_in_list(const char *name, size_t len, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == len && memcmp(*list, name, len) == 0)
			return 1;
	return 0;
}

struct htmltok *htmltok_new(const struct htmltok_cbs *cbs, void *arg)
{
	struct htmltok *t = xcalloc(1, sizeof(*t));

	t->cbs = *cbs;
	t->arg = arg;
	t->state = HT_DATA;
	return t;
}

void htmltok_reset(struct htmltok *t)
{
	struct htmltok keep = *t;

	memset(t, 0, sizeof *t);
	t->cbs = keep.cbs;
	t->arg = keep.arg;
	t->state = HT_DATA;
	t->tb = keep.tb;
	t->tb_cap = keep.tb_cap;
	t->recs = keep.recs;
	t->recs_cap = keep.recs_cap;
	t->attrs = keep.attrs;
	t->attrs_cap = keep.attrs_cap;
	t->stack = keep.stack;
	t->stack_cap = keep.stack_cap;
}

void htmltok_free(struct htmltok *t)
{
	if (!t)
		return;
	free(t->tb);
	free(t->recs);
	free(t->attrs);
	free(t->stack);
	free(t);
}

const struct htmltok_attr *htmltok_attr(const struct htmltok_tag *t, const char *name)
{
	return htmltok_attr_n(t, name, strlen(name));
}

const struct htmltok_attr *htmltok_attr_n(const struct htmltok_tag *t, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < t->nattrs; i++)
		if (t->attrs[i].name_len == n && memcmp(t->attrs[i].name, name, n) == 0)
			return &t->attrs[i];
	return NULL;
}

/* ---- the tag being built ---- */

static void htmltok_tag_begin(struct htmltok *t, int is_end)
{
	t->name_len = 0;
	t->name_overflow = 0;
	t->is_end = is_end;
	t->self_closing = 0;
	t->tb_len = 0;
	t->values_len = 0;
	t->nrecs = 0;
	t->attr_on = 0;
}

static void htmltok_name_add(struct htmltok *t, unsigned char c)
{
	if (t->name_len < HTMLTOK_NAME_MAX)
		t->name[t->name_len++] = (char)htmltok_lower(c);
	else
		t->name_overflow = 1;
}

/* Bytes that continue a tag or attribute name (never a state change). */
static int htmltok_is_name_byte(unsigned char c)
{
	return !htmltok_isws(c) && c != '/' && c != '>';
}

static void htmltok_name_run(struct htmltok *t, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		htmltok_name_add(t, (unsigned char)p[i]);
}

static void htmltok_tb_append(struct htmltok *t, const char *p, size_t n)
{
	if (t->tb_len + n > t->tb_cap) {
		size_t cap = t->tb_cap ? t->tb_cap * 2 : 256;

		while (cap < t->tb_len + n)
			cap *= 2;
		t->tb = xrealloc(t->tb, cap);
		t->tb_cap = cap;
	}
	memcpy(t->tb + t->tb_len, p, n);
	t->tb_len += n;
}

static void htmltok_attr_begin(struct htmltok *t)
{
	struct htmltok_rec *r;

	if (t->nrecs == HTMLTOK_ATTRS_MAX) {
		t->attr_on = 0;
		return;
	}
	if (t->nrecs == t->recs_cap) {
		t->recs_cap = t->recs_cap ? t->recs_cap * 2 : 16;
		t->recs = xrealloc(t->recs, t->recs_cap * sizeof(*t->recs));
	}
	r = &t->recs[t->nrecs++];
	r->name_off = t->tb_len;
	r->name_len = 0;
	r->value_off = t->tb_len;
	r->value_len = 0;
	r->overflow = 0;
	t->attr_on = 1;
}

static void htmltok_attr_name_add(struct htmltok *t, unsigned char c)
{
	struct htmltok_rec *r;

	if (!t->attr_on)
		return;
	r = &t->recs[t->nrecs - 1];
	if (r->name_len == HTMLTOK_NAME_MAX) {
		r->overflow = 1;
		return;
	}
	c = htmltok_lower(c);
	htmltok_tb_append(t, (const char *)&c, 1);
	r->name_len++;
	r->value_off = t->tb_len;
}

/* A run of attribute name bytes: appended at once, lowercased in place. */
static void htmltok_attr_name_run(struct htmltok *t, const char *p, size_t n)
{
	struct htmltok_rec *r;
	size_t i, room;
	char *dst;

	if (!t->attr_on)
		return;
	r = &t->recs[t->nrecs - 1];
	room = HTMLTOK_NAME_MAX - r->name_len;
	if (n > room) {
		r->overflow = 1;
		n = room;
	}
	if (!n)
		return;
	htmltok_tb_append(t, p, n);
	dst = t->tb + t->tb_len - n;
	for (i = 0; i < n; i++)
		dst[i] = (char)htmltok_lower((unsigned char)dst[i]);
	r->name_len += n;
	r->value_off = t->tb_len;
}

static void htmltok_value_add(struct htmltok *t, const char *p, size_t n)
{
	struct htmltok_rec *r;

	if (!t->attr_on)
		return;
	r = &t->recs[t->nrecs - 1];
	if (r->overflow)
		return;
	if (r->value_len + n > HTMLTOK_VALUE_MAX || t->values_len + n > HTMLTOK_TAG_MAX) {
		/* Give the bytes back: an overflowing value is unusable. */
		t->tb_len -= r->value_len;
		t->values_len -= r->value_len;
		r->value_len = 0;
		r->overflow = 1;
		return;
	}
	htmltok_tb_append(t, p, n);
	r->value_len += n;
	t->values_len += n;
}

/* ---- the foreign-content stack (tree-construction feedback) ---- */

static const char *const htmltok_breakout[] = {"b", "big", "blockquote", "body", "br", "center",
    "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head",
    "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s",
    "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var", NULL};

static const char *const htmltok_void[] = {"area", "base", "basefont", "bgsound", "br", "col",
    "embed", "frame", "hr", "image", "img", "input", "keygen", "link", "meta", "param", "source",
    "track", "wbr", NULL};

/* HTML elements in the "special" category that can appear inside an
 * integration point and stop an end tag's search. */
static const char *const htmltok_special[] = {"address", "article", "aside", "blockquote", "button",
    "center", "details", "dir", "div", "dl", "dd", "dt", "fieldset", "figcaption", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "li", "listing",
    "main", "menu", "nav", "ol", "p", "pre", "section", "select", "summary", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "ul", "object", "applet", "marquee", "template", NULL};

/* An end tag that finds nothing to close in our stack closes the foreign
 * content when it names a block element that usually encloses an <svg>: a
 * guess, since the HTML elements open around it are not tracked. These are
 * the end tags the tree builder matches "in scope", through the foreign
 * elements; generic ones (span, a, b) stop at the first special element,
 * so they are taken to close nothing. */
static const char *const htmltok_enclosing[] = {"html", "body", "div", "section", "article",
    "aside", "header", "footer", "nav", "main", "figure", "li", "ul", "ol", "dd", "dl", "dt", "td",
    "th", "tr", "table", "tbody", "thead", "tfoot", "form", "button", "blockquote", "center",
    "details", "fieldset", "h1", "h2", "h3", "h4", "h5", "h6", NULL};

static int htmltok_el_is(const struct htmltok_el *e, const char *name, size_t len)
{
	return e->len == len && memcmp(e->name, name, len) == 0;
}

static void htmltok_push(struct htmltok *t, enum htmltok_ns ns)
{
	struct htmltok_el *e;
	const struct htmltok_attr *enc;

	if (t->depth == HTMLTOK_DEPTH_MAX)
		return;
	if (t->depth == t->stack_cap) {
		t->stack_cap = t->stack_cap ? t->stack_cap * 2 : 8;
		t->stack = xrealloc(t->stack, t->stack_cap * sizeof(*t->stack));
	}
	e = &t->stack[t->depth++];
	e->ns = (unsigned char)ns;
	e->ip = HT_IP_NONE;
	if (t->name_overflow || t->name_len > sizeof(e->name)) {
		e->len = 0xFF;
		return;
	}
	e->len = (unsigned char)t->name_len;
	memcpy(e->name, t->name, t->name_len);
	if (ns == HT_NS_SVG) {
		if (htmltok_el_is(e, "foreignobject", 13) || htmltok_el_is(e, "desc", 4) ||
		    htmltok_el_is(e, "title", 5))
			e->ip = HT_IP_HTML;
	} else if (ns == HT_NS_MATH) {
		static const char *const mtext[] = {"mi", "mo", "mn", "ms", "mtext", NULL};

		if (htmltok_in_list(t->name, t->name_len, mtext)) {
			e->ip = HT_IP_MATHTEXT;
		} else if (htmltok_el_is(e, "annotation-xml", 14)) {
			/* Not the public lookup: the attribute array is built
			 * only at emit time, so scan the records directly. */
			size_t i;

			enc = NULL;
			for (i = 0; i < t->nrecs && !enc; i++) {
				const struct htmltok_rec *r = &t->recs[i];

				if (r->name_len == 8 &&
				    memcmp(t->tb + r->name_off, "encoding", 8) == 0) {
					const char *v = t->tb + r->value_off;
					size_t k;
					char low[32];

					if (r->value_len == 9 || r->value_len == 21) {
						for (k = 0; k < r->value_len; k++)
							low[k] = (char)htmltok_lower(
							    (unsigned char)v[k]);
						if ((r->value_len == 9 &&
							memcmp(low, "text/html", 9) == 0) ||
						    (r->value_len == 21 &&
							memcmp(low, "application/xhtml+xml", 21) ==
							    0))
							e->ip = HT_IP_HTML;
					}
					break;
				}
			}
		}
	}
}

static int htmltok_has_attr(const struct htmltok *t, const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; i < t->nrecs; i++)
		if (t->recs[i].name_len == n && memcmp(t->tb + t->recs[i].name_off, name, n) == 0)
			return 1;
	return 0;
}

static void htmltok_pop_foreign(struct htmltok *t)
{
	while (t->depth && t->stack[t->depth - 1].ns != HT_NS_HTML &&
	    t->stack[t->depth - 1].ip == HT_IP_NONE)
		t->depth--;
}

static int htmltok_named_n(const struct htmltok *t, const char *name, size_t n)
{
	return t->name_len == n && !t->name_overflow && memcmp(t->name, name, n) == 0;
}

#define htmltok_named(t, lit) htmltok_named_n((t), (lit), sizeof(lit) - 1)

/* "In select" (and "in select in table"): the start tags that close the
 * select and are then processed as usual. Returns 0 when the select stays
 * open, the tag then being ignored unless it is a script. */
static int htmltok_select_start(struct htmltok *t)
{
	static const char *const closing[] = {"input", "keygen", "textarea", "caption", "table",
	    "tbody", "tfoot", "thead", "tr", "td", "th", NULL};

	if (htmltok_named(t, "select")) {
		/* A nested <select> acts as </select> and is not opened. */
		t->in_select = 0;
		return 0;
	}
	if (!htmltok_in_list(t->name, t->name_len, closing))
		return 0;
	t->in_select = 0;
	return 1;
}

/* Decides, for a start tag, whether it is a foreign element and what the
 * tokenizer reads next, updating the foreign-content stack. */
static enum htmltok_text htmltok_tree_start(struct htmltok *t, int *foreign)
{
	int html = 1;

	*foreign = 0;
	if (t->depth) {
		const struct htmltok_el *top = &t->stack[t->depth - 1];

		if (top->ns == HT_NS_HTML || top->ip == HT_IP_HTML)
			html = 1;
		else if (top->ip == HT_IP_MATHTEXT)
			html = !htmltok_named(t, "mglyph") && !htmltok_named(t, "malignmark");
		else if (top->ns == HT_NS_MATH && htmltok_el_is(top, "annotation-xml", 14))
			html = htmltok_named(t, "svg");
		else
			html = 0;
	}
	if (!html) {
		if (htmltok_in_list(t->name, t->name_len, htmltok_breakout) ||
		    (htmltok_named(t, "font") &&
			(htmltok_has_attr(t, "color") || htmltok_has_attr(t, "face") ||
			    htmltok_has_attr(t, "size")))) {
			htmltok_pop_foreign(t);
		} else {
			*foreign = 1;
			if (!t->self_closing)
				htmltok_push(t, (enum htmltok_ns)t->stack[t->depth - 1].ns);
			return HTMLTOK_DATA;
		}
	}
	if (t->in_select && !htmltok_select_start(t))
		return htmltok_named(t, "script") ? HTMLTOK_SCRIPT : HTMLTOK_DATA;
	if (htmltok_named(t, "select") && !t->depth) {
		t->in_select = 1;
		return HTMLTOK_DATA;
	}
	if (htmltok_named(t, "svg") || htmltok_named(t, "math")) {
		*foreign = 1;
		if (!t->self_closing)
			htmltok_push(t, t->name[0] == 's' ? HT_NS_SVG : HT_NS_MATH);
		return HTMLTOK_DATA;
	}
	if (htmltok_named(t, "title") || htmltok_named(t, "textarea"))
		return HTMLTOK_RCDATA;
	if (htmltok_named(t, "style") || htmltok_named(t, "xmp") || htmltok_named(t, "iframe") ||
	    htmltok_named(t, "noembed") || htmltok_named(t, "noframes"))
		return HTMLTOK_RAWTEXT;
	if (htmltok_named(t, "script"))
		return HTMLTOK_SCRIPT;
	if (htmltok_named(t, "plaintext"))
		return HTMLTOK_PLAINTEXT;
	if (t->depth && !htmltok_in_list(t->name, t->name_len, htmltok_void))
		htmltok_push(t, HT_NS_HTML);
	return HTMLTOK_DATA;
}

static void htmltok_tree_end(struct htmltok *t)
{
	size_t i;

	if (t->in_select && htmltok_named(t, "select"))
		t->in_select = 0;
	if (!t->depth || t->name_overflow)
		return;
	if (t->stack[t->depth - 1].ns != HT_NS_HTML) {
		if (htmltok_named(t, "br") || htmltok_named(t, "p")) {
			htmltok_pop_foreign(t);
			return;
		}
		/* "Any other end tag" in foreign content: close the nearest
		 * foreign element of that name above the first HTML one. */
		for (i = t->depth; i > 0 && t->depth - i < HT_END_SEARCH_MAX; i--) {
			const struct htmltok_el *e = &t->stack[i - 1];

			if (e->ns == HT_NS_HTML)
				break;
			if (htmltok_el_is(e, t->name, t->name_len)) {
				t->depth = i - 1;
				return;
			}
		}
	}
	/* The HTML rules: the nearest HTML element of that name, unless a
	 * special element or integration point comes first. */
	for (i = t->depth; i > 0; i--) {
		const struct htmltok_el *e = &t->stack[i - 1];

		if (t->depth - i >= HT_END_SEARCH_MAX)
			return;
		if (e->ns == HT_NS_HTML && htmltok_el_is(e, t->name, t->name_len)) {
			t->depth = i - 1;
			return;
		}
		if (e->ip != HT_IP_NONE ||
		    (e->ns == HT_NS_HTML && htmltok_in_list(e->name, e->len, htmltok_special)))
			return;
	}
	if (htmltok_in_list(t->name, t->name_len, htmltok_enclosing))
		t->depth = 0;
}

static int htmltok_foreign_now(const struct htmltok *t)
{
	return t->depth && t->stack[t->depth - 1].ns != HT_NS_HTML;
}

/* ---- emitting ---- */

static void htmltok_emit(struct htmltok *t)
{
	struct htmltok_tag tag;
	size_t i;

	t->name[t->name_len] = '\0';
	if (t->nrecs) {
		if (t->nrecs > t->attrs_cap) {
			t->attrs_cap = t->recs_cap;
			t->attrs = xrealloc(t->attrs, t->attrs_cap * sizeof(*t->attrs));
		}
		for (i = 0; i < t->nrecs; i++) {
			const struct htmltok_rec *r = &t->recs[i];

			t->attrs[i].name = t->tb + r->name_off;
			t->attrs[i].name_len = r->name_len;
			t->attrs[i].value = t->tb + r->value_off;
			t->attrs[i].value_len = r->value_len;
			t->attrs[i].overflow = r->overflow;
		}
	}
	memset(&tag, 0, sizeof(tag));
	tag.name = t->name;
	tag.name_len = t->name_len;
	tag.name_overflow = t->name_overflow;
	tag.end = t->is_end;
	tag.self_closing = t->self_closing;
	tag.attrs = t->attrs;
	tag.nattrs = t->nrecs;
	t->state = HT_DATA;
	if (t->is_end) {
		htmltok_tree_end(t);
		tag.text = HTMLTOK_DATA;
	} else {
		tag.text = htmltok_tree_start(t, &tag.foreign);
	}
	if (t->cbs.tag)
		t->cbs.tag(t->arg, &tag);
	if (t->is_end)
		return;
	switch (tag.text) {
	case HTMLTOK_DATA:
		return;
	case HTMLTOK_RCDATA:
	case HTMLTOK_RAWTEXT:
		t->state = HT_RAW;
		break;
	case HTMLTOK_SCRIPT:
		t->state = HT_SCRIPT;
		break;
	case HTMLTOK_PLAINTEXT:
		t->state = HT_PLAINTEXT;
		return;
	}
	memcpy(t->raw_name, t->name, t->name_len);
	t->raw_len = t->name_len;
}

static void htmltok_text(struct htmltok *t, const char *p, size_t n)
{
	if (n && t->cbs.text)
		t->cbs.text(t->arg, p, n);
}

static void htmltok_tmp_reset(struct htmltok *t)
{
	t->tmp_len = 0;
	t->tmp_long = 0;
}

static void htmltok_tmp_add(struct htmltok *t, unsigned char c)
{
	if (t->tmp_len < HT_TMP_MAX)
		t->tmp[t->tmp_len++] = (char)c;
	else
		t->tmp_long = 1;
}

/* The name in tmp (after any "</" prefix of skip bytes) is the raw text
 * element's name. */
static int htmltok_tmp_appropriate(const struct htmltok *t, size_t skip)
{
	size_t i;

	if (t->tmp_long || t->tmp_len - skip != t->raw_len)
		return 0;
	for (i = 0; i < t->raw_len; i++)
		if (htmltok_lower((unsigned char)t->tmp[skip + i]) != (unsigned char)t->raw_name[i])
			return 0;
	return 1;
}

/* A raw text element's end tag name just ended at c: become that end tag. */
static void htmltok_raw_end_tag(struct htmltok *t, unsigned char c)
{
	htmltok_tag_begin(t, 1);
	memcpy(t->name, t->raw_name, t->raw_len);
	t->name_len = t->raw_len;
	if (c == '>')
		htmltok_emit(t);
	else if (c == '/')
		t->state = HT_SELF_CLOSING;
	else
		t->state = HT_BEFORE_ATTR_NAME;
}

static int htmltok_is_end_delim(unsigned char c)
{
	return htmltok_isws(c) || c == '/' || c == '>';
}

static int htmltok_tmp_is_script(const struct htmltok *t)
{
	size_t i;

	if (t->tmp_long || t->tmp_len != 6)
		return 0;
	for (i = 0; i < 6; i++)
		if (htmltok_lower((unsigned char)t->tmp[i]) != (unsigned char)"script"[i])
			return 0;
	return 1;
}

/* Markup declaration open: tmp holds the bytes after "<!". Returns 1 while
 * tmp is still a prefix of one of the three openers. */
static int htmltok_md_step(struct htmltok *t)
{
	static const char doctype[] = "doctype", cdata[] = "[CDATA[";
	size_t n = t->tmp_len, i;
	int dash = 1, dt = n <= 7, cd = n <= 7;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t->tmp[i];

		if (i >= 2 || c != '-')
			dash = 0;
		if (dt && htmltok_lower(c) != (unsigned char)doctype[i])
			dt = 0;
		if (cd && c != (unsigned char)cdata[i])
			cd = 0;
	}
	if (dash && n == 2) {
		t->state = HT_COMMENT_START;
		return 0;
	}
	if (dt && n == 7) {
		t->state = HT_DOCTYPE;
		return 0;
	}
	if (cd && n == 7) {
		t->state = htmltok_foreign_now(t) ? HT_CDATA : HT_BOGUS_COMMENT;
		return 0;
	}
	return dash || dt || cd;
}

void htmltok_feed(struct htmltok *t, const char *data, size_t len)
{
	const char *p = data, *end = data + len;

	while (p < end) {
		unsigned char c = (unsigned char)*p;

		switch (t->state) {
		case HT_DATA: {
			const char *lt = memchr(p, '<', (size_t)(end - p));

			if (!lt)
				return;
			p = lt;
			t->state = HT_TAG_OPEN;
			break;
		}
		case HT_TAG_OPEN:
			if (c == '!') {
				htmltok_tmp_reset(t);
				t->state = HT_MD_OPEN;
			} else if (c == '/') {
				t->state = HT_END_TAG_OPEN;
			} else if (htmltok_isalpha(c)) {
				htmltok_tag_begin(t, 0);
				t->state = HT_TAG_NAME;
				continue;
			} else if (c == '?') {
				t->state = HT_BOGUS_COMMENT;
			} else {
				t->state = HT_DATA;
				continue;
			}
			break;
		case HT_END_TAG_OPEN:
			if (htmltok_isalpha(c)) {
				htmltok_tag_begin(t, 1);
				t->state = HT_TAG_NAME;
				continue;
			}
			t->state = c == '>' ? HT_DATA : HT_BOGUS_COMMENT;
			if (c == '>')
				break;
			continue;
		case HT_TAG_NAME:
			if (htmltok_isws(c))
				t->state = HT_BEFORE_ATTR_NAME;
			else if (c == '/')
				t->state = HT_SELF_CLOSING;
			else if (c == '>')
				htmltok_emit(t);
			else {
				const char *s = p;

				while (p < end && htmltok_is_name_byte((unsigned char)*p))
					p++;
				htmltok_name_run(t, s, (size_t)(p - s));
				continue;
			}
			break;
		case HT_BEFORE_ATTR_NAME:
			if (htmltok_isws(c))
				break;
			if (c == '/' || c == '>') {
				t->state = HT_AFTER_ATTR_NAME;
				continue;
			}
			htmltok_attr_begin(t);
			if (c == '=') {
				htmltok_attr_name_add(t, c);
				t->state = HT_ATTR_NAME;
				break;
			}
			t->state = HT_ATTR_NAME;
			continue;
		case HT_ATTR_NAME:
			if (htmltok_isws(c) || c == '/' || c == '>') {
				t->state = HT_AFTER_ATTR_NAME;
				continue;
			}
			if (c == '=') {
				t->state = HT_BEFORE_ATTR_VALUE;
			} else {
				const char *s = p;

				while (
				    p < end && htmltok_is_name_byte((unsigned char)*p) && *p != '=')
					p++;
				htmltok_attr_name_run(t, s, (size_t)(p - s));
				continue;
			}
			break;
		case HT_AFTER_ATTR_NAME:
			if (htmltok_isws(c))
				break;
			if (c == '/') {
				t->state = HT_SELF_CLOSING;
			} else if (c == '=') {
				t->state = HT_BEFORE_ATTR_VALUE;
			} else if (c == '>') {
				htmltok_emit(t);
			} else {
				htmltok_attr_begin(t);
				t->state = HT_ATTR_NAME;
				continue;
			}
			break;
		case HT_BEFORE_ATTR_VALUE:
			if (htmltok_isws(c))
				break;
			if (c == '"') {
				t->state = HT_ATTR_VALUE_DQ;
			} else if (c == '\'') {
				t->state = HT_ATTR_VALUE_SQ;
			} else if (c == '>') {
				htmltok_emit(t);
			} else {
				t->state = HT_ATTR_VALUE_UQ;
				continue;
			}
			break;
		case HT_ATTR_VALUE_DQ:
		case HT_ATTR_VALUE_SQ: {
			char q = t->state == HT_ATTR_VALUE_DQ ? '"' : '\'';
			const char *e = memchr(p, q, (size_t)(end - p));

			if (!e) {
				htmltok_value_add(t, p, (size_t)(end - p));
				return;
			}
			htmltok_value_add(t, p, (size_t)(e - p));
			p = e;
			t->state = HT_AFTER_ATTR_VALUE_Q;
			break;
		}
		case HT_ATTR_VALUE_UQ: {
			const char *s = p;

			while (p < end && !htmltok_isws((unsigned char)*p) && *p != '>')
				p++;
			htmltok_value_add(t, s, (size_t)(p - s));
			if (p == end)
				return;
			if (*p == '>')
				htmltok_emit(t);
			else
				t->state = HT_BEFORE_ATTR_NAME;
			break;
		}
		case HT_AFTER_ATTR_VALUE_Q:
			if (htmltok_isws(c)) {
				t->state = HT_BEFORE_ATTR_NAME;
			} else if (c == '/') {
				t->state = HT_SELF_CLOSING;
			} else if (c == '>') {
				htmltok_emit(t);
			} else {
				t->state = HT_BEFORE_ATTR_NAME;
				continue;
			}
			break;
		case HT_SELF_CLOSING:
			if (c == '>') {
				t->self_closing = 1;
				htmltok_emit(t);
				break;
			}
			t->state = HT_BEFORE_ATTR_NAME;
			continue;
		case HT_BOGUS_COMMENT:
		case HT_DOCTYPE: {
			const char *gt = memchr(p, '>', (size_t)(end - p));

			if (!gt)
				return;
			p = gt;
			t->state = HT_DATA;
			break;
		}
		case HT_MD_OPEN:
			htmltok_tmp_add(t, c);
			if (htmltok_md_step(t) || t->state != HT_MD_OPEN)
				break;
			/* Not an opener: a bogus comment, and this byte (which
			 * may be its '>') belongs to it. */
			t->state = HT_BOGUS_COMMENT;
			continue;
		case HT_COMMENT_START:
			if (c == '-')
				t->state = HT_COMMENT_START_DASH;
			else if (c == '>')
				t->state = HT_DATA;
			else {
				t->state = HT_COMMENT;
				continue;
			}
			break;
		case HT_COMMENT_START_DASH:
			if (c == '-')
				t->state = HT_COMMENT_END;
			else if (c == '>')
				t->state = HT_DATA;
			else {
				t->state = HT_COMMENT;
				continue;
			}
			break;
		case HT_COMMENT: {
			/* The "<!--" nesting states only report errors, so
			 * '<' needs no look here. */
			const char *d = memchr(p, '-', (size_t)(end - p));

			if (!d)
				return;
			p = d;
			t->state = HT_COMMENT_END_DASH;
			break;
		}
		case HT_COMMENT_END_DASH:
			if (c == '-') {
				t->state = HT_COMMENT_END;
				break;
			}
			t->state = HT_COMMENT;
			continue;
		case HT_COMMENT_END:
			if (c == '>')
				t->state = HT_DATA;
			else if (c == '!')
				t->state = HT_COMMENT_END_BANG;
			else if (c != '-') {
				t->state = HT_COMMENT;
				continue;
			}
			break;
		case HT_COMMENT_END_BANG:
			if (c == '-')
				t->state = HT_COMMENT_END_DASH;
			else if (c == '>')
				t->state = HT_DATA;
			else {
				t->state = HT_COMMENT;
				continue;
			}
			break;
		case HT_CDATA: {
			const char *b = memchr(p, ']', (size_t)(end - p));

			if (!b)
				return;
			p = b;
			t->state = HT_CDATA_B1;
			break;
		}
		case HT_CDATA_B1:
			if (c == ']') {
				t->state = HT_CDATA_B2;
				break;
			}
			t->state = HT_CDATA;
			continue;
		case HT_CDATA_B2:
			if (c == '>')
				t->state = HT_DATA;
			else if (c != ']') {
				t->state = HT_CDATA;
				continue;
			}
			break;
		case HT_RAW: {
			const char *lt = memchr(p, '<', (size_t)(end - p));

			if (!lt) {
				htmltok_text(t, p, (size_t)(end - p));
				return;
			}
			htmltok_text(t, p, (size_t)(lt - p));
			p = lt;
			htmltok_tmp_reset(t);
			htmltok_tmp_add(t, '<');
			t->state = HT_RAW_LT;
			break;
		}
		case HT_RAW_LT:
			if (c == '/') {
				htmltok_tmp_add(t, c);
				t->state = HT_RAW_END_OPEN;
				break;
			}
			htmltok_text(t, t->tmp, t->tmp_len);
			t->state = HT_RAW;
			continue;
		case HT_RAW_END_OPEN:
			if (htmltok_isalpha(c)) {
				t->state = HT_RAW_END_NAME;
				continue;
			}
			htmltok_text(t, t->tmp, t->tmp_len);
			t->state = HT_RAW;
			continue;
		case HT_RAW_END_NAME:
			/* A name longer than the element's cannot end it, so
			 * tmp (holding "</" and the name) never overflows and
			 * the text it held back is reported whole. */
			if (htmltok_isalpha(c) && t->tmp_len - 2 < t->raw_len) {
				htmltok_tmp_add(t, c);
				break;
			}
			if (htmltok_is_end_delim(c) && htmltok_tmp_appropriate(t, 2)) {
				htmltok_raw_end_tag(t, c);
				break;
			}
			htmltok_text(t, t->tmp, t->tmp_len);
			t->state = HT_RAW;
			continue;
		case HT_PLAINTEXT:
			htmltok_text(t, p, (size_t)(end - p));
			return;
		case HT_SCRIPT: {
			const char *lt = memchr(p, '<', (size_t)(end - p));

			if (!lt)
				return;
			p = lt;
			t->state = HT_SCRIPT_LT;
			break;
		}
		case HT_SCRIPT_LT:
			if (c == '/') {
				htmltok_tmp_reset(t);
				t->state = HT_SCRIPT_END_OPEN;
			} else if (c == '!') {
				t->state = HT_SCRIPT_ESC_START;
			} else {
				t->state = HT_SCRIPT;
				continue;
			}
			break;
		case HT_SCRIPT_END_OPEN:
		case HT_SCRIPT_ESC_END_OPEN:
			if (htmltok_isalpha(c)) {
				t->state = t->state == HT_SCRIPT_END_OPEN ? HT_SCRIPT_END_NAME
									  : HT_SCRIPT_ESC_END_NAME;
				continue;
			}
			t->state = t->state == HT_SCRIPT_END_OPEN ? HT_SCRIPT : HT_SCRIPT_ESC;
			continue;
		case HT_SCRIPT_END_NAME:
		case HT_SCRIPT_ESC_END_NAME:
			if (htmltok_isalpha(c)) {
				htmltok_tmp_add(t, c);
				break;
			}
			if (htmltok_is_end_delim(c) && htmltok_tmp_appropriate(t, 0)) {
				htmltok_raw_end_tag(t, c);
				break;
			}
			t->state = t->state == HT_SCRIPT_END_NAME ? HT_SCRIPT : HT_SCRIPT_ESC;
			continue;
		case HT_SCRIPT_ESC_START:
			if (c == '-') {
				t->state = HT_SCRIPT_ESC_START_DASH;
				break;
			}
			t->state = HT_SCRIPT;
			continue;
		case HT_SCRIPT_ESC_START_DASH:
			if (c == '-') {
				t->state = HT_SCRIPT_ESC_DASH_DASH;
				break;
			}
			t->state = HT_SCRIPT;
			continue;
		case HT_SCRIPT_ESC:
		case HT_SCRIPT_ESC_DASH:
			if (c == '-')
				t->state = t->state == HT_SCRIPT_ESC ? HT_SCRIPT_ESC_DASH
								     : HT_SCRIPT_ESC_DASH_DASH;
			else if (c == '<')
				t->state = HT_SCRIPT_ESC_LT;
			else
				t->state = HT_SCRIPT_ESC;
			break;
		case HT_SCRIPT_ESC_DASH_DASH:
			if (c == '<')
				t->state = HT_SCRIPT_ESC_LT;
			else if (c == '>')
				t->state = HT_SCRIPT;
			else if (c != '-')
				t->state = HT_SCRIPT_ESC;
			break;
		case HT_SCRIPT_ESC_LT:
			htmltok_tmp_reset(t);
			if (c == '/') {
				t->state = HT_SCRIPT_ESC_END_OPEN;
				break;
			}
			t->state = htmltok_isalpha(c) ? HT_SCRIPT_DESC_START : HT_SCRIPT_ESC;
			continue;
		case HT_SCRIPT_DESC_START:
		case HT_SCRIPT_DESC_END:
			if (htmltok_is_end_delim(c)) {
				int is = htmltok_tmp_is_script(t);

				if (t->state == HT_SCRIPT_DESC_START)
					t->state = is ? HT_SCRIPT_DESC : HT_SCRIPT_ESC;
				else
					t->state = is ? HT_SCRIPT_ESC : HT_SCRIPT_DESC;
				break;
			}
			if (htmltok_isalpha(c)) {
				htmltok_tmp_add(t, c);
				break;
			}
			t->state =
			    t->state == HT_SCRIPT_DESC_START ? HT_SCRIPT_ESC : HT_SCRIPT_DESC;
			continue;
		case HT_SCRIPT_DESC:
		case HT_SCRIPT_DESC_DASH:
			if (c == '-')
				t->state = t->state == HT_SCRIPT_DESC ? HT_SCRIPT_DESC_DASH
								      : HT_SCRIPT_DESC_DASH_DASH;
			else if (c == '<')
				t->state = HT_SCRIPT_DESC_LT;
			else
				t->state = HT_SCRIPT_DESC;
			break;
		case HT_SCRIPT_DESC_DASH_DASH:
			if (c == '<')
				t->state = HT_SCRIPT_DESC_LT;
			else if (c == '>')
				t->state = HT_SCRIPT;
			else if (c != '-')
				t->state = HT_SCRIPT_DESC;
			break;
		case HT_SCRIPT_DESC_LT:
			if (c == '/') {
				htmltok_tmp_reset(t);
				t->state = HT_SCRIPT_DESC_END;
				break;
			}
			t->state = HT_SCRIPT_DESC;
			continue;
		}
		p++;
	}
}

void htmltok_finish(struct htmltok *t)
{
	/* Raw text held back while checking for an end tag is text after
	 * all; a tag cut by the end of input is dropped. */
	if (t->state == HT_RAW_LT || t->state == HT_RAW_END_OPEN || t->state == HT_RAW_END_NAME)
		htmltok_text(t, t->tmp, t->tmp_len);
	t->state = HT_DATA;
	t->depth = 0;
	t->in_select = 0;
	t->tmp_len = 0;
	t->raw_len = 0;
}
