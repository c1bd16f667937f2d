/* Link extraction on top of the streaming tokenizer (htmltok) and the CSS
 * extractor (css). Which attributes count follows Heritrix's ExtractorHTML
 * and wget2's html_url.c, trimmed to those that name fetchable resources:
 * a/area href, link href (its rel picks L or E), img/source src and srcset,
 * video src/poster, audio and track src, script src, iframe/frame src, embed
 * src, object data, form action (opt-in, GET only), base href, meta refresh
 * and robots, style="" and <style>. Element names match in SVG and MathML
 * content too (an SVG <a href> is a link), except <base>, which is HTML's.
 * Like Heritrix, frames are embeds and
 * extracted wherever they appear, and <noscript> content is read as markup.
 * Unlike Heritrix, meta robots nofollow does not stop extraction: it is
 * recorded (extract_meta) and the caller decides, since archives want page
 * requisites even from nofollow pages. The first <title>'s text is kept
 * (capped) for the archive's list of pages. */
#include <stdlib.h>
#include <string.h>
#include "crawl/extract.h"
#include "crawl/htmltok.h"
#include "crawl/css.h"
#include "crawl/entity.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

/* Name tests against literals, without strlen: this runs for every tag. */
#define extract_is(t, lit)                                          \
	((t)->name_len == sizeof(lit) - 1 && !(t)->name_overflow && \
	    memcmp((t)->name, (lit), sizeof(lit) - 1) == 0)

struct extract {
	enum extract_type type;
	struct extract_opts opts;
	extract_cb cb;
	void *arg;
	struct htmltok *tok;
	struct css *css;      /* the CSS body, or the current <style> */
	struct css *css_attr; /* style="" values */
	int in_style;
	int title;	      /* 0 none yet, 1 inside the first <title>, 2 past it */
	struct buf title_raw; /* its source text, capped */
	struct buf title_out; /* what extract_title returns */
	char *base;
	unsigned meta;
	size_t count, dropped;
	struct buf dec; /* the decoded attribute value */
};

static int extract_isws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static unsigned char extract_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static int extract_ieq(const char *a, size_t n, const char *lit)
{
	size_t i;

	if (strlen(lit) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (extract_lower((unsigned char)a[i]) != (unsigned char)lit[i])
			return 0;
	return 1;
}

static void extract_emit(
    struct extract *x, const char *ref, size_t len, char hop, const char *context, unsigned flags)
{
	struct extract_link l;

	while (len && extract_isws((unsigned char)*ref)) {
		ref++;
		len--;
	}
	while (len && extract_isws((unsigned char)ref[len - 1]))
		len--;
	/* An empty reference only names the page (or base) itself. */
	if (!len)
		return;
	if (x->opts.max_outlinks && x->count >= x->opts.max_outlinks) {
		x->dropped++;
		return;
	}
	x->count++;
	l.ref = ref;
	l.len = len;
	l.base = x->base;
	l.hop = hop;
	l.context = context;
	l.flags = flags;
	x->cb(x->arg, &l);
}

static void extract_css_cb(void *arg, const char *ref, size_t len, int is_import)
{
	extract_emit(arg, ref, len, 'E', is_import ? "css/@import" : "css/url", 0);
}

/* The decoded value of the first attribute called name, or NULL when it is
 * absent or cut by a cap. The result lives in x->dec until the next call. */
static const char *extract_attr(
    struct extract *x, const struct htmltok_tag *t, const char *name, size_t *len)
{
	const struct htmltok_attr *a = htmltok_attr_n(t, name, strlen(name));

	if (!a || a->overflow)
		return NULL;
	buf_reset(&x->dec);
	entity_decode(&x->dec, a->value, a->value_len, 1);
	*len = x->dec.len;
	return x->dec.data ? x->dec.data : "";
}

/* 1 if the space-separated list v contains token (ASCII case-insensitive). */
static int extract_has_token(const char *v, size_t n, const char *token, const char *seps)
{
	size_t i = 0;

	while (i < n) {
		size_t s;

		while (i < n && strchr(seps, v[i]) && v[i])
			i++;
		s = i;
		while (i < n && !(strchr(seps, v[i]) && v[i]))
			i++;
		if (i > s && extract_ieq(v + s, i - s, token))
			return 1;
	}
	return 0;
}

static void extract_attr_link(struct extract *x, const struct htmltok_tag *t, const char *name,
    char hop, const char *context, unsigned flags)
{
	size_t n;
	const char *v = extract_attr(x, t, name, &n);

	if (v)
		extract_emit(x, v, n, hop, context, flags);
}

/* Every candidate URL of a srcset, as the HTML "parse a srcset attribute"
 * algorithm splits it; descriptors are skipped, not validated, so a
 * candidate with a bad descriptor is still fetched. */
static void extract_srcset(
    struct extract *x, const struct htmltok_tag *t, const char *name, const char *context)
{
	size_t n, i = 0;
	const char *v = extract_attr(x, t, name, &n);

	if (!v)
		return;
	while (i < n) {
		size_t s, e;

		while (i < n && (extract_isws((unsigned char)v[i]) || v[i] == ','))
			i++;
		if (i == n)
			break;
		s = i;
		while (i < n && !extract_isws((unsigned char)v[i]))
			i++;
		e = i;
		if (v[e - 1] == ',') {
			while (e > s && v[e - 1] == ',')
				e--;
			extract_emit(x, v + s, e - s, 'E', context, 0);
			continue;
		}
		extract_emit(x, v + s, e - s, 'E', context, 0);
		/* Descriptors run to a comma outside parentheses. */
		for (int paren = 0; i < n; i++) {
			if (paren) {
				if (v[i] == ')')
					paren = 0;
			} else if (v[i] == '(') {
				paren = 1;
			} else if (v[i] == ',') {
				i++;
				break;
			}
		}
	}
}

int extract_refresh_url(const char *v, size_t n, const char **url, size_t *len)
{
	size_t i = 0, digits, u;
	char quote = 0;

	while (i < n && extract_isws((unsigned char)v[i]))
		i++;
	digits = i;
	while (i < n && v[i] >= '0' && v[i] <= '9')
		i++;
	if (i == digits && (i == n || v[i] != '.'))
		return -1;
	while (i < n && ((v[i] >= '0' && v[i] <= '9') || v[i] == '.'))
		i++;
	if (i < n) {
		if (v[i] != ';' && v[i] != ',' && !extract_isws((unsigned char)v[i]))
			return -1;
		while (i < n && extract_isws((unsigned char)v[i]))
			i++;
		if (i < n && (v[i] == ';' || v[i] == ','))
			i++;
		while (i < n && extract_isws((unsigned char)v[i]))
			i++;
	}
	if (i == n)
		return -1; /* a refresh of the page itself */
	u = i;
	/* "url" then "=" may precede the URL; a partial match means the
	 * whole rest is the URL, except that a lone "u"-less start still
	 * gets its quotes skipped. */
	if ((v[i] | 0x20) != 'u')
		goto skip_quotes;
	i++;
	if (i == n || (v[i] | 0x20) != 'r')
		goto parse;
	i++;
	if (i == n || (v[i] | 0x20) != 'l')
		goto parse;
	i++;
	while (i < n && extract_isws((unsigned char)v[i]))
		i++;
	if (i == n || v[i] != '=')
		goto parse;
	i++;
	while (i < n && extract_isws((unsigned char)v[i]))
		i++;
skip_quotes:
	if (i < n && (v[i] == '"' || v[i] == '\'')) {
		quote = v[i];
		i++;
	}
	u = i;
	if (quote) {
		const char *q = memchr(v + u, quote, n - u);

		*url = v + u;
		*len = q ? (size_t)(q - (v + u)) : n - u;
		return 0;
	}
parse:
	*url = v + u;
	*len = n - u;
	return 0;
}

static void extract_meta_tag(struct extract *x, const struct htmltok_tag *t)
{
	size_t n;
	const char *v = extract_attr(x, t, "http-equiv", &n);

	if (v && extract_ieq(v, n, "refresh")) {
		const char *url;
		size_t len;

		v = extract_attr(x, t, "content", &n);
		if (v && extract_refresh_url(v, n, &url, &len) == 0)
			extract_emit(x, url, len, 'R', "meta/@content", 0);
		return;
	}
	v = extract_attr(x, t, "name", &n);
	while (v && n && extract_isws((unsigned char)*v)) {
		v++;
		n--;
	}
	while (v && n && extract_isws((unsigned char)v[n - 1]))
		n--;
	if (!v || !extract_ieq(v, n, "robots"))
		return;
	v = extract_attr(x, t, "content", &n);
	if (!v)
		return;
	if (extract_has_token(v, n, "nofollow", " \t\n\r\f,"))
		x->meta |= EXTRACT_META_NOFOLLOW;
	if (extract_has_token(v, n, "noindex", " \t\n\r\f,"))
		x->meta |= EXTRACT_META_NOINDEX;
	if (extract_has_token(v, n, "none", " \t\n\r\f,"))
		x->meta |= EXTRACT_META_NOFOLLOW | EXTRACT_META_NOINDEX;
}

/* Rels whose target is a page requisite; pingback and the connection hints
 * name no document worth fetching. */
static const char *const extract_embed_rels[] = {"stylesheet", "icon", "apple-touch-icon",
    "apple-touch-icon-precomposed", "mask-icon", "modulepreload", "prefetch", "prerender",
    "preload", "manifest", NULL};
static const char *const extract_skip_rels[] = {"pingback", "dns-prefetch", "preconnect", NULL};

static void extract_link_tag(struct extract *x, const struct htmltok_tag *t, unsigned flags)
{
	size_t n;
	const char *rel = extract_attr(x, t, "rel", &n);
	const char *const *r;
	char hop = 'L';

	if (rel) {
		for (r = extract_embed_rels; *r && hop == 'L'; r++)
			if (extract_has_token(rel, n, *r, " \t\n\r\f"))
				hop = 'E';
		if (hop == 'L')
			for (r = extract_skip_rels; *r; r++)
				if (extract_has_token(rel, n, *r, " \t\n\r\f"))
					return;
	}
	extract_attr_link(x, t, "href", hop, "link/@href", flags);
}

static unsigned extract_rel_flags(struct extract *x, const struct htmltok_tag *t)
{
	size_t n;
	const char *rel = extract_attr(x, t, "rel", &n);

	return rel && extract_has_token(rel, n, "nofollow", " \t\n\r\f") ? EXTRACT_NOFOLLOW : 0;
}

static void extract_start_tag(struct extract *x, const struct htmltok_tag *t)
{
	size_t n;
	const char *v;

	if (extract_is(t, "a") || extract_is(t, "area")) {
		extract_attr_link(x, t, "href", 'L', t->name_len == 1 ? "a/@href" : "area/@href",
		    extract_rel_flags(x, t));
	} else if (extract_is(t, "link")) {
		extract_link_tag(x, t, extract_rel_flags(x, t));
	} else if (extract_is(t, "img") || (!t->foreign && extract_is(t, "image"))) {
		/* The tree builder renames <image> to <img>. */
		extract_attr_link(x, t, "src", 'E', "img/@src", 0);
		extract_srcset(x, t, "srcset", "img/@srcset");
	} else if (extract_is(t, "source")) {
		extract_attr_link(x, t, "src", 'E', "source/@src", 0);
		extract_srcset(x, t, "srcset", "source/@srcset");
	} else if (extract_is(t, "script")) {
		extract_attr_link(x, t, "src", 'E', "script/@src", 0);
	} else if (extract_is(t, "iframe")) {
		extract_attr_link(x, t, "src", 'E', "iframe/@src", 0);
	} else if (extract_is(t, "frame")) {
		extract_attr_link(x, t, "src", 'E', "frame/@src", 0);
	} else if (extract_is(t, "embed")) {
		extract_attr_link(x, t, "src", 'E', "embed/@src", 0);
	} else if (extract_is(t, "object")) {
		extract_attr_link(x, t, "data", 'E', "object/@data", 0);
	} else if (extract_is(t, "video")) {
		extract_attr_link(x, t, "src", 'E', "video/@src", 0);
		extract_attr_link(x, t, "poster", 'E', "video/@poster", 0);
	} else if (extract_is(t, "audio")) {
		extract_attr_link(x, t, "src", 'E', "audio/@src", 0);
	} else if (extract_is(t, "track")) {
		extract_attr_link(x, t, "src", 'E', "track/@src", 0);
	} else if (extract_is(t, "form")) {
		if (x->opts.forms) {
			v = extract_attr(x, t, "method", &n);
			if (!v || extract_ieq(v, n, "get"))
				extract_attr_link(x, t, "action", 'L', "form/@action", 0);
		}
	} else if (!t->foreign && extract_is(t, "base")) {
		v = extract_attr(x, t, "href", &n);
		if (v && !x->base) {
			while (n && extract_isws((unsigned char)*v)) {
				v++;
				n--;
			}
			while (n && extract_isws((unsigned char)v[n - 1]))
				n--;
			x->base = xstrndup(v, n);
		}
	} else if (extract_is(t, "meta")) {
		extract_meta_tag(x, t);
	} else if (t->text == HTMLTOK_RCDATA && x->title == 0 && extract_is(t, "title")) {
		x->title = 1;
	} else if (extract_is(t, "style") && t->text == HTMLTOK_RAWTEXT) {
		x->in_style = 1;
		if (x->css == NULL)
			x->css = css_new(extract_css_cb, x);
		css_reset(x->css);
	}
	v = extract_attr(x, t, "style", &n);
	if (v) {
		if (x->css_attr == NULL)
			x->css_attr = css_new(extract_css_cb, x);
		css_reset(x->css_attr);
		css_feed(x->css_attr, v, n);
		css_finish(x->css_attr);
	}
}

static void extract_tag_cb(void *arg, const struct htmltok_tag *t)
{
	struct extract *x = arg;

	if (!t->end) {
		extract_start_tag(x, t);
		return;
	}
	if (x->in_style && extract_is(t, "style")) {
		css_finish(x->css);
		x->in_style = 0;
	}
	if (x->title == 1 && extract_is(t, "title"))
		x->title = 2;
}

static void extract_text_cb(void *arg, const char *data, size_t len)
{
	struct extract *x = arg;

	if (x->in_style)
		css_feed(x->css, data, len);
	if (x->title == 1 && x->title_raw.len < EXTRACT_TITLE_MAX)
		buf_append(&x->title_raw, data,
		    len < EXTRACT_TITLE_MAX - x->title_raw.len
			? len
			: EXTRACT_TITLE_MAX - x->title_raw.len);
}

const char *extract_title(struct extract *x)
{
	size_t n;

	buf_reset(&x->dec);
	entity_decode(&x->dec, x->title_raw.data ? x->title_raw.data : "", x->title_raw.len, 0);
	buf_reset(&x->title_out);
	buf_appends(&x->title_out, "");
	for (size_t i = 0; i < x->dec.len; i++) {
		unsigned char c = (unsigned char)x->dec.data[i];
		if (c <= 0x20 || c == 0x7f) {
			if (x->title_out.len > 0 && x->title_out.data[x->title_out.len - 1] != ' ')
				buf_appendc(&x->title_out, ' ');
		} else {
			buf_appendc(&x->title_out, (char)c);
		}
	}
	n = x->title_out.len;
	while (n > 0 && x->title_out.data[n - 1] == ' ')
		n--;
	/* The cap may have cut a character: drop its first bytes. */
	if (x->title_raw.len >= EXTRACT_TITLE_MAX) {
		size_t k = n, cont = 0;
		while (
		    k > 0 && ((unsigned char)x->title_out.data[k - 1] & 0xc0) == 0x80 && cont < 3) {
			k--;
			cont++;
		}
		if (k > 0 && (unsigned char)x->title_out.data[k - 1] >= 0xc0) {
			unsigned char lead = (unsigned char)x->title_out.data[k - 1];
			size_t need = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : 1;
			if (cont < need)
				n = k - 1;
		}
		while (n > 0 && x->title_out.data[n - 1] == ' ')
			n--;
	}
	x->title_out.len = n;
	x->title_out.data[n] = '\0';
	return x->title_out.data;
}

struct extract *extract_new(
    enum extract_type type, const struct extract_opts *o, extract_cb cb, void *arg)
{
	struct extract *x = xcalloc(1, sizeof(*x));
	static const struct htmltok_cbs cbs = {extract_tag_cb, extract_text_cb};

	x->type = type;
	if (o)
		x->opts = *o;
	x->cb = cb;
	x->arg = arg;
	/* An HTML page gets its CSS extractors at its first <style> element
	 * or style attribute: thousands of pages are parsed at once. */
	if (type == EXTRACT_HTML)
		x->tok = htmltok_new(&cbs, x);
	else
		x->css = css_new(extract_css_cb, x);
	buf_init(&x->dec);
	buf_init(&x->title_raw);
	buf_init(&x->title_out);
	return x;
}

int extract_feed(struct extract *x, const char *data, size_t len)
{
	if (x->type == EXTRACT_CSS)
		css_feed(x->css, data, len);
	else
		htmltok_feed(x->tok, data, len);
	return 0;
}

int extract_finish(struct extract *x)
{
	if (x->type == EXTRACT_CSS) {
		css_finish(x->css);
		return 0;
	}
	htmltok_finish(x->tok);
	if (x->in_style) {
		css_finish(x->css);
		x->in_style = 0;
	}
	return 0;
}

unsigned extract_meta(const struct extract *x)
{
	return x->meta;
}

size_t extract_dropped(const struct extract *x)
{
	return x->dropped;
}

size_t extract_count(const struct extract *x)
{
	return x->count;
}

void extract_reset(struct extract *x, const struct extract_opts *o)
{
	memset(&x->opts, 0, sizeof x->opts);
	if (o)
		x->opts = *o;
	if (x->tok != NULL)
		htmltok_reset(x->tok);
	/* An HTML page's CSS parsers are reset before each use; a CSS
	 * body's is the body's own. */
	if (x->type == EXTRACT_CSS)
		css_reset(x->css);
	x->in_style = 0;
	x->title = 0;
	buf_reset(&x->title_raw);
	free(x->base);
	x->base = NULL;
	x->meta = 0;
	x->count = 0;
	x->dropped = 0;
	buf_reset(&x->dec);
}

void extract_free(struct extract *x)
{
	if (!x)
		return;
	htmltok_free(x->tok);
	css_free(x->css);
	css_free(x->css_attr);
	free(x->base);
	buf_free(&x->dec);
	buf_free(&x->title_raw);
	buf_free(&x->title_out);
	free(x);
}
