/* The synthetic web. Every decision is a hash of (seed, host, page, link), so
 * any page can be rendered on demand and a million-page web costs nothing to
 * hold; the manifest is the same decisions replayed breadth-first. */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "lib/xmalloc.h"
#include "web.h"

/* Each host has a few images; higher numbers are 404s. */
#define WEB_IMAGES 16
#define WEB_LINK_MAX 4096

struct web {
	struct web_opts o;
};

/* A link target plus the textual form it is written in. */
struct web_link {
	uint32_t host;
	enum web_kind kind;
	uint32_t num;
	unsigned form;
	unsigned frag;
};

static const char *const web_words[] = {
    "lorem",
    "ipsum",
    "dolor",
    "sit",
    "amet",
    "tern",
    "crawler",
    "harbour",
    "wind",
    "feather",
    "ocean",
    "north",
    "south",
    "migration",
    "colony",
    "shore",
    "arctic",
    "plover",
    "gull",
    "wave",
    "tide",
    "pebble",
    "island",
    "cliff",
    "flight",
    "nest",
    "spring",
    "autumn",
    "river",
    "delta",
    "marsh",
    "sky",
};

/* A 1x1 transparent PNG: small, valid, and the same for every image URL. */
static const unsigned char web_png[] = {
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0x00,
    0x00,
    0x00,
    0x0d,
    0x49,
    0x48,
    0x44,
    0x52,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    0x00,
    0x00,
    0x01,
    0x08,
    0x06,
    0x00,
    0x00,
    0x00,
    0x1f,
    0x15,
    0xc4,
    0x89,
    0x00,
    0x00,
    0x00,
    0x0d,
    0x49,
    0x44,
    0x41,
    0x54,
    0x78,
    0x9c,
    0x63,
    0x60,
    0x00,
    0x02,
    0x00,
    0x00,
    0x05,
    0x00,
    0x01,
    0xe9,
    0xfa,
    0xdc,
    0xd8,
    0x00,
    0x00,
    0x00,
    0x00,
    0x49,
    0x45,
    0x4e,
    0x44,
    0xae,
    0x42,
    0x60,
    0x82,
};

static uint64_t web_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t web_hash(const struct web *w, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	return web_mix(web_mix(web_mix(web_mix(w->o.seed ^ a) ^ b) ^ c) ^ d);
}

struct web *web_new(const struct web_opts *o)
{
	struct web *w = xcalloc(1, sizeof(*w));

	w->o = *o;
	if (w->o.hosts == 0)
		w->o.hosts = 1;
	if (w->o.pages == 0)
		w->o.pages = 1;
	if (w->o.links > WEB_LINK_MAX)
		w->o.links = WEB_LINK_MAX;
	if (w->o.latency_max_ms < w->o.latency_min_ms)
		w->o.latency_max_ms = w->o.latency_min_ms;
	return w;
}

void web_free(struct web *w)
{
	free(w);
}

uint32_t web_hosts(const struct web *w)
{
	return w->o.hosts;
}

const struct web_opts *web_options(const struct web *w)
{
	return &w->o;
}

int web_disallows_private(uint32_t host)
{
	return host % 5 == 0;
}

uint32_t web_latency_ms(const struct web *w, uint32_t host)
{
	uint32_t span = w->o.latency_max_ms - w->o.latency_min_ms;

	if (span == 0)
		return w->o.latency_min_ms;
	return w->o.latency_min_ms + (uint32_t)(web_hash(w, 7, host, 0, 0) % (span + 1));
}

/* Parses a decimal number spanning exactly [s, s+len); -1 if not one. */
static long web_number(const char *s, size_t len)
{
	long v = 0;

	if (len == 0 || len > 9 || (len > 1 && s[0] == '0'))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int web_host_index(const struct web *w, const char *host, size_t len)
{
	static const char suffix[] = ".web.test";
	size_t sl = sizeof(suffix) - 1;
	long n;

	if (len > 0 && host[len - 1] == '.')
		len--;
	if (len < sl + 2 || (host[0] != 'h' && host[0] != 'H') ||
	    strncasecmp(host + len - sl, suffix, sl) != 0)
		return -1;
	n = web_number(host + 1, len - sl - 1);
	if (n < 0 || (uint64_t)n >= w->o.hosts)
		return -1;
	return (int)n;
}

/* Matches path against prefix NUMBER suffix; returns the number or -1. */
static long web_match(const char *path, const char *prefix, const char *suffix)
{
	size_t pl = strlen(prefix), sl = strlen(suffix), len = strlen(path);

	if (len < pl + sl || strncmp(path, prefix, pl) != 0 || strcmp(path + len - sl, suffix) != 0)
		return -1;
	return web_number(path + pl, len - pl - sl);
}

enum web_kind web_lookup(const struct web *w, const char *path, uint32_t *num)
{
	long n;

	*num = 0;
	if (strcmp(path, "/") == 0)
		return WEB_PAGE;
	if (strcmp(path, "/robots.txt") == 0)
		return WEB_ROBOTS;
	if (strcmp(path, "/s.css") == 0)
		return WEB_CSS;
	if ((n = web_match(path, "/p/private/", ".html")) >= 0 && n < w->o.pages) {
		*num = (uint32_t)n;
		return WEB_PRIVATE;
	}
	if ((n = web_match(path, "/p/missing-", ".html")) >= 0) {
		*num = (uint32_t)n;
		return WEB_MISSING;
	}
	if ((n = web_match(path, "/p/", ".html")) > 0 && n < w->o.pages) {
		*num = (uint32_t)n;
		return WEB_PAGE;
	}
	if ((n = web_match(path, "/r/", "")) >= 0 && n < w->o.pages) {
		*num = (uint32_t)n;
		return WEB_REDIRECT;
	}
	if ((n = web_match(path, "/i/", ".png")) >= 0 && n < WEB_IMAGES) {
		*num = (uint32_t)n;
		return WEB_IMAGE;
	}
	return WEB_NONE;
}

/* The path of a target, as the server names it. */
static void web_path(enum web_kind kind, uint32_t num, struct buf *out)
{
	switch (kind) {
	case WEB_PAGE:
		if (num == 0)
			buf_appendc(out, '/');
		else
			buf_appendf(out, "/p/%" PRIu32 ".html", num);
		break;
	case WEB_PRIVATE:
		buf_appendf(out, "/p/private/%" PRIu32 ".html", num);
		break;
	case WEB_MISSING:
		buf_appendf(out, "/p/missing-%" PRIu32 ".html", num);
		break;
	case WEB_REDIRECT:
		buf_appendf(out, "/r/%" PRIu32, num);
		break;
	case WEB_IMAGE:
		buf_appendf(out, "/i/%" PRIu32 ".png", num);
		break;
	case WEB_CSS:
		buf_appends(out, "/s.css");
		break;
	case WEB_ROBOTS:
		buf_appends(out, "/robots.txt");
		break;
	case WEB_NONE:
		break;
	}
}

/* The directory a page lives in, which relative links resolve against. */
static const char *web_dir(enum web_kind kind, uint32_t num)
{
	if (kind == WEB_PRIVATE)
		return "/p/private/";
	return num == 0 ? "/" : "/p/";
}

/* Decides the links of one page. Link 0 chains page k to page k+1 so every
 * page is reachable from the root whatever the hashes say. */
static uint32_t web_links(
    const struct web *w, uint32_t host, enum web_kind kind, uint32_t num, struct web_link *out)
{
	uint32_t n = w->o.links, p = w->o.pages;

	for (uint32_t j = 0; j < n; j++) {
		uint64_t r = web_hash(w, host, (uint64_t)kind << 32 | num, j, 1);
		struct web_link *l = &out[j];
		unsigned pick = (unsigned)(r >> 40) % 100;

		l->host = host;
		l->kind = WEB_PAGE;
		l->num = (uint32_t)((r >> 8) % p);
		l->form = (unsigned)(r >> 20) % 5;
		l->frag = (r >> 28) % 8 == 0 ? (unsigned)(r >> 32) % 9 + 1 : 0;
		if (j == 0 && kind == WEB_PAGE) {
			l->num = num + 1 < p ? num + 1 : 0;
			continue;
		}
		if (kind == WEB_PRIVATE)
			continue;
		if ((double)((r >> 48) % 10000) < w->o.cross * 10000.0 && w->o.hosts > 1) {
			l->host = (uint32_t)(web_mix(r) % w->o.hosts);
			if (l->host == host)
				l->host = (host + 1) % w->o.hosts;
			l->form = 0;
			continue;
		}
		if (pick < 4) {
			l->kind = WEB_MISSING;
			l->num = (uint32_t)(r % 1000);
		} else if (pick < 9) {
			l->kind = WEB_REDIRECT;
		} else if (pick < 14) {
			l->kind = WEB_PRIVATE;
		}
	}
	return n;
}

void web_origin(
    const struct web *w, const char *scheme, uint32_t host, unsigned port, struct buf *out)
{
	if (w->o.port_base != 0)
		buf_appendf(out, "%s://127.0.0.1:%u", scheme, w->o.port_base + host);
	else
		buf_appendf(out, "%s://h%" PRIu32 ".web.test:%u", scheme, host, port);
}

/* Writes a link in its form: absolute, root-relative, relative, ./relative,
 * or ../ from the page's directory. */
static void web_link_text(const struct web *w, const struct web_link *l, uint32_t from_host,
    const char *dir, const char *scheme, unsigned port, struct buf *out)
{
	struct buf path = BUF_INIT;
	size_t dl = strlen(dir);

	web_path(l->kind, l->num, &path);
	if (l->host != from_host || l->form == 0) {
		web_origin(w, scheme, l->host, port, out);
		buf_append(out, path.data, path.len);
	} else if (l->form == 1) {
		buf_append(out, path.data, path.len);
	} else if ((l->form == 2 || l->form == 3) && strncmp(path.data, dir, dl) == 0 &&
	    path.len > dl) {
		if (l->form == 3)
			buf_appends(out, "./");
		buf_appends(out, path.data + dl);
	} else {
		/* ../ once per directory level; from the root it clamps to "/". */
		int depth = 0;

		for (size_t i = 1; i < dl; i++)
			depth += dir[i] == '/';
		if (depth == 0)
			depth = 1;
		for (int i = 0; i < depth; i++)
			buf_appends(out, "../");
		buf_appends(out, path.data + 1);
	}
	if (l->frag)
		buf_appendf(out, "#s%u", l->frag);
	buf_free(&path);
}

void web_reply_init(struct web_reply *r)
{
	memset(r, 0, sizeof(*r));
	buf_init(&r->body);
	buf_init(&r->location);
}

void web_reply_free(struct web_reply *r)
{
	buf_free(&r->body);
	buf_free(&r->location);
	free(r->span);
}

/* One page in three shows an image. */
static int web_image(
    const struct web *w, uint32_t host, enum web_kind kind, uint32_t num, uint32_t *img)
{
	uint64_t r = web_hash(w, host, (uint64_t)kind << 32 | num, 0, 3);

	*img = (uint32_t)((r >> 16) % WEB_IMAGES);
	return kind == WEB_PAGE && r % 3 == 0;
}

/* Filler text, built once: pages copy word-aligned slices of it, which is
 * far cheaper than drawing every word (the server must outrun crawlers). */
#define WEB_FILLER (256 * 1024)
static char web_filler[WEB_FILLER];
static int web_filler_ready;

static void web_filler_init(void)
{
	uint64_t r = 12345;
	size_t len = 0;

	if (web_filler_ready)
		return;
	while (len < WEB_FILLER) {
		const char *word;
		size_t wl;

		r = web_mix(r);
		word = web_words[r % (sizeof(web_words) / sizeof(web_words[0]))];
		wl = strlen(word);
		if (len + wl + 1 > WEB_FILLER)
			break;
		memcpy(web_filler + len, word, wl);
		web_filler[len + wl] = ' ';
		len += wl + 1;
	}
	memset(web_filler + len, ' ', WEB_FILLER - len);
	web_filler_ready = 1;
}

/* Paragraphs start at one of this many points of the filler, so that the
 * same paragraphs recur across pages and their gzip encoding can be cached
 * (the server would otherwise spend its CPU compressing, and be the limit
 * of every benchmark of large pages). */
#define WEB_FILLER_STARTS 256

/* Appends about `want` bytes of filler chosen by r, cut at word boundaries,
 * and records them as a shared span of the reply. */
static void web_filler_append(uint64_t r, size_t want, struct web_reply *wr)
{
	struct buf *b = &wr->body;
	size_t off, end;

	if (want > WEB_FILLER / 2)
		want = WEB_FILLER / 2;
	off = (size_t)(r % WEB_FILLER_STARTS) * (WEB_FILLER / 2 / WEB_FILLER_STARTS);
	while (off > 0 && web_filler[off - 1] != ' ')
		off--;
	end = off + want;
	while (end > off && web_filler[end - 1] != ' ')
		end--;
	if (end == off)
		return;
	if (wr->nspan == wr->spancap) {
		wr->spancap = wr->spancap ? wr->spancap * 2 : 16;
		wr->span = xrealloc(wr->span, wr->spancap * sizeof(*wr->span));
	}
	wr->span[wr->nspan].at = b->len;
	wr->span[wr->nspan].len = end - off;
	wr->nspan++;
	buf_append(b, web_filler + off, end - off);
}

static void web_render_page(const struct web *w, uint32_t host, enum web_kind kind, uint32_t num,
    const char *scheme, unsigned port, struct web_reply *wr)
{
	struct buf *b = &wr->body;
	struct web_link *links = xmalloc(sizeof(*links) * (w->o.links ? w->o.links : 1));
	uint32_t n = web_links(w, host, kind, num, links), img;
	uint64_t r = web_hash(w, host, (uint64_t)kind << 32 | num, 0, 2);
	size_t target = (size_t)w->o.kb * 1024, seg;
	const char *dir = web_dir(kind, num);

	web_filler_init();
	buf_appendf(b,
	    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<title>h%" PRIu32 " %s %" PRIu32 "</title>\n"
	    "<link rel=\"stylesheet\" href=\"%s\"></head>\n<body><h1>h%" PRIu32
	    ".web.test %s %" PRIu32 "</h1>\n",
	    host, kind == WEB_PRIVATE ? "private" : "page", num,
	    kind == WEB_PAGE && num == 0 ? "s.css" : "/s.css", host,
	    kind == WEB_PRIVATE ? "private" : "page", num);
	buf_reserve(b, target + n * 96 + 256);
	seg = target > b->len ? (target - b->len) / (n + 1) : 0;
	/* One paragraph of filler before each link and one after the last. */
	for (uint32_t j = 0; j <= n; j++) {
		r = web_mix(r);
		buf_appends(b, "<p>");
		web_filler_append(r, seg, wr);
		if (j < n) {
			buf_appends(b, "<a href=\"");
			web_link_text(w, &links[j], host, dir, scheme, port, b);
			buf_appendf(b, "\">link %" PRIu32 "</a>", j);
		}
		buf_appends(b, "</p>\n");
	}
	if (web_image(w, host, kind, num, &img))
		buf_appendf(b, "<img src=\"/i/%" PRIu32 ".png\" alt=\"picture\">\n", img);
	buf_appends(b, "</body></html>\n");
	free(links);
}

void web_render(const struct web *w, uint32_t host, enum web_kind kind, uint32_t num,
    const char *scheme, unsigned port, struct web_reply *r)
{
	r->status = 200;
	r->content_type = "text/html; charset=utf-8";
	switch (kind) {
	case WEB_PAGE:
	case WEB_PRIVATE:
		web_render_page(w, host, kind, num, scheme, port, r);
		break;
	case WEB_REDIRECT:
		r->status = 301;
		web_path(WEB_PAGE, num, &r->location);
		buf_appendf(&r->body, "<html><body><a href=\"%s\">moved</a></body></html>\n",
		    r->location.data);
		break;
	case WEB_IMAGE:
		r->content_type = "image/png";
		buf_append(&r->body, web_png, sizeof(web_png));
		break;
	case WEB_CSS:
		r->content_type = "text/css";
		buf_appends(
		    &r->body, "body { font-family: serif; background: url(/i/0.png) repeat; }\n");
		break;
	case WEB_ROBOTS:
		r->content_type = "text/plain";
		buf_appends(&r->body, "User-agent: *\n");
		buf_appends(&r->body,
		    web_disallows_private(host) ? "Disallow: /p/private/\n" : "Disallow:\n");
		if (host % 7 == 0)
			buf_appendf(&r->body, "Crawl-delay: %" PRIu32 "\n",
			    w->o.crawl_delay_s != 0 ? w->o.crawl_delay_s : 1);
		if (w->o.sitemaps)
			buf_appendf(&r->body,
			    "Sitemap: %s://h%" PRIu32 ".web.test:%u/sm/index.xml\n", scheme, host,
			    port);
		break;
	case WEB_MISSING:
	case WEB_NONE:
		r->status = 404;
		buf_appends(&r->body, "<html><body><h1>404 not found</h1></body></html>\n");
		break;
	}
}

/* An open-addressing set of visited targets for the manifest walk. */
struct web_set {
	uint64_t *slot;
	size_t cap, len;
};

static int web_set_add(struct web_set *s, uint64_t key)
{
	size_t i;

	key++; /* 0 marks an empty slot */
	if ((s->len + 1) * 2 > s->cap) {
		struct web_set bigger = {xcalloc(s->cap ? s->cap * 2 : 1024, sizeof(uint64_t)),
		    s->cap ? s->cap * 2 : 1024, 0};

		for (size_t k = 0; k < s->cap; k++)
			if (s->slot[k])
				web_set_add(&bigger, s->slot[k] - 1);
		free(s->slot);
		*s = bigger;
	}
	for (i = web_mix(key) & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == key)
			return 0;
	s->slot[i] = key;
	s->len++;
	return 1;
}

static uint64_t web_key(uint32_t host, enum web_kind kind, uint32_t num)
{
	return (uint64_t)host << 36 | (uint64_t)kind << 32 | num;
}

struct web_queue {
	uint64_t *item;
	size_t head, len, cap;
};

static void web_queue_push(struct web_queue *q, uint64_t key)
{
	if (q->len == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 1024;
		q->item = xrealloc(q->item, q->cap * sizeof(uint64_t));
	}
	q->item[q->len++] = key;
}

static void web_visit(
    struct web_set *seen, struct web_queue *q, uint32_t host, enum web_kind kind, uint32_t num)
{
	uint64_t key = web_key(host, kind, num);

	if (web_set_add(seen, key))
		web_queue_push(q, key);
}

long web_walk(const struct web *w, web_walk_fn fn, void *arg)
{
	struct web_set seen = {NULL, 0, 0};
	struct web_queue q = {NULL, 0, 0, 0};
	struct web_link *links = xmalloc(sizeof(*links) * (w->o.links ? w->o.links : 1));
	struct buf path = BUF_INIT;
	long n = 0;

	for (uint32_t h = 0; h < w->o.hosts; h++)
		web_visit(&seen, &q, h, WEB_PAGE, 0);
	while (q.head < q.len) {
		uint64_t key = q.item[q.head++];
		uint32_t host = (uint32_t)(key >> 36), num = (uint32_t)key;
		enum web_kind kind = (enum web_kind)((key >> 32) & 0xf);
		int allowed = !(kind == WEB_PRIVATE && web_disallows_private(host));
		int status = kind == WEB_MISSING ? 404 : kind == WEB_REDIRECT ? 301 : 200;
		int r;

		buf_reset(&path);
		web_path(kind, num, &path);
		if ((r = fn(arg, host, kind, num, path.data, status, allowed)) < 0) {
			n = r;
			break;
		}
		n++;
		if (!allowed)
			continue;
		if (kind == WEB_REDIRECT) {
			web_visit(&seen, &q, host, WEB_PAGE, num);
		} else if (kind == WEB_CSS) {
			web_visit(&seen, &q, host, WEB_IMAGE, 0);
		} else if (kind == WEB_PAGE || kind == WEB_PRIVATE) {
			uint32_t nl = web_links(w, host, kind, num, links), img;

			for (uint32_t j = 0; j < nl; j++)
				web_visit(&seen, &q, links[j].host, links[j].kind, links[j].num);
			web_visit(&seen, &q, host, WEB_CSS, 0);
			if (web_image(w, host, kind, num, &img))
				web_visit(&seen, &q, host, WEB_IMAGE, img);
		}
	}
	free(links);
	free(seen.slot);
	free(q.item);
	buf_free(&path);
	return n;
}

struct web_manifest {
	const struct web *w;
	unsigned port;
	FILE *f;
	struct buf line;
};

static int web_manifest_line(void *arg, uint32_t host, enum web_kind kind, uint32_t num,
    const char *path, int status, int allowed)
{
	static const char *const type[] = {
	    [WEB_PAGE] = "html",
	    [WEB_PRIVATE] = "html",
	    [WEB_MISSING] = "missing",
	    [WEB_REDIRECT] = "redirect",
	    [WEB_IMAGE] = "image",
	    [WEB_CSS] = "css",
	};
	struct web_manifest *m = arg;

	(void)num;
	buf_reset(&m->line);
	web_origin(m->w, "http", host, m->port, &m->line);
	buf_appendf(&m->line, "%s\t%s\t%d\t%s\n", path, allowed ? "allowed" : "disallowed", status,
	    type[kind]);
	return fwrite(m->line.data, 1, m->line.len, m->f) == m->line.len ? 0 : -1;
}

long web_manifest_write(const struct web *w, unsigned port, FILE *f)
{
	struct web_manifest m = {w, port, f, BUF_INIT};
	long lines = web_walk(w, web_manifest_line, &m);

	buf_free(&m.line);
	return lines < 0 || fflush(f) != 0 ? -1 : lines;
}
