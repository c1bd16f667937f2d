/* Link extraction throughput: MB/s of HTML on one core for the tokenizer
 * alone, the extractor (tokenizer + links + CSS), and the extractor with
 * every link resolved to an absolute URL (url_resolve), over a generated
 * corpus of realistic pages fed in 16 KiB chunks as they arrive from the
 * network. Best of 3 runs each.
 *   bench/extractbench [MB]    (default 64 MB of pages) */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/buf.h"
#include "crawl/extract.h"
#include "crawl/htmltok.h"
#include "lib/url.h"

#define EXTRACTBENCH_CHUNK 16384
#define EXTRACTBENCH_PAGE "https://www.example.com/news/2024/article.html"

static unsigned long extractbench_seed = 12345;

static unsigned extractbench_rand(void)
{
	extractbench_seed = extractbench_seed * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(extractbench_seed >> 33);
}

static double extractbench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *const extractbench_words[] = {
    "the",
    "crawler",
    "archive",
    "of",
    "news",
    "and",
    "a",
    "page",
    "with",
    "links",
    "to",
    "many",
    "other",
    "documents",
    "written",
    "in",
    "plain",
    "text",
    "for",
    "readers",
};

static void extractbench_text(struct buf *b, int words)
{
	while (words--)
		buf_appendf(b, "%s ", extractbench_words[extractbench_rand() % 20]);
}

/* One page shaped like a news or blog article: a head full of link/meta/
 * script tags, inline script and style, navigation lists, paragraphs with
 * inline links, images with srcset, comments, an inline SVG icon. */
static void extractbench_page(struct buf *b, int n)
{
	int i;

	buf_appendf(b,
	    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<title>Article %d</title><meta name=\"viewport\" content=\"width=device-width\">"
	    "<meta name=\"description\" content=\"",
	    n);
	extractbench_text(b, 30);
	buf_appends(b, "\">\n");
	for (i = 0; i < 8; i++)
		buf_appendf(b, "<link rel=\"%s\" href=\"/assets/%d/file%d.css?v=%u\">\n",
		    i % 3 ? "stylesheet" : "preload", n, i, extractbench_rand());
	for (i = 0; i < 5; i++)
		buf_appendf(
		    b, "<script src=\"https://cdn.example.net/lib%d.min.js\" async></script>\n", i);
	buf_appends(b,
	    "<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}"
	    "var s='<div class=\"x\">'+document.title+'</div>';");
	for (i = 0; i < 40; i++)
		buf_appendf(b, "var v%d = {a: %d, b: \"str%d\", c: [1,2,3]};\n", i, i, i);
	buf_appends(b, "</script>\n<style>body{margin:0;font-family:sans-serif}");
	for (i = 0; i < 30; i++)
		buf_appendf(b, ".c%d{color:#%06x;background:url(/img/bg%d.png) no-repeat}\n", i,
		    extractbench_rand() & 0xffffff, i);
	buf_appends(b, "</style></head>\n<body class=\"article\"><header><nav><ul>\n");
	for (i = 0; i < 60; i++)
		buf_appendf(b,
		    "<li class=\"nav-item\"><a href=\"/section/%d/\" title=\"Section %d\">Section %d</a></li>\n",
		    i, i, i);
	buf_appends(b,
	    "</ul></nav><svg class=\"icon\" viewBox=\"0 0 24 24\"><path d=\"M12 2L2 7l10 5 10-5-10-5z\"/></svg>"
	    "</header>\n<main><article>\n<!-- article body -->\n");
	for (i = 0; i < 40; i++) {
		buf_appends(b, "<p>");
		extractbench_text(b, 40);
		buf_appendf(b,
		    "<a href=\"https://www.example.org/story/%u.html?utm_source=x&amp;utm_medium=y\" "
		    "rel=\"noopener\">read more</a> ",
		    extractbench_rand());
		extractbench_text(b, 20);
		buf_appends(b, "<em>emphasis</em> and <strong>strong</strong>.</p>\n");
		if (i % 8 == 0)
			buf_appendf(b,
			    "<figure><img src=\"/media/%d/%d.jpg\" srcset=\"/media/%d/%d-480.jpg 480w, "
			    "/media/%d/%d-960.jpg 960w\" alt=\"a picture of something\" loading=\"lazy\" "
			    "width=\"960\" height=\"540\"><figcaption>Caption</figcaption></figure>\n",
			    n, i, n, i, n, i);
	}
	buf_appends(b, "</article></main><footer>");
	for (i = 0; i < 30; i++)
		buf_appendf(b, "<a href=\"/about/page%d\">About %d</a> | ", i, i);
	buf_appends(b, "</footer></body></html>\n");
}

static void extractbench_nop_link(void *arg, const struct extract_link *l)
{
	(*(size_t *)arg) += l->len;
}

struct extractbench_resolve {
	struct buf base, out;
	const char *base_src;
	size_t ok;
};

static void extractbench_resolve_link(void *arg, const struct extract_link *l)
{
	struct extractbench_resolve *r = arg;

	/* The base changes at most once per page: resolve it when it does. */
	if (l->base != r->base_src) {
		r->base_src = l->base;
		if (!l->base ||
		    url_resolve(EXTRACTBENCH_PAGE, l->base, strlen(l->base), &r->base) < 0) {
			buf_reset(&r->base);
			buf_appends(&r->base, EXTRACTBENCH_PAGE);
		}
	}
	if (url_resolve(r->base.len ? r->base.data : EXTRACTBENCH_PAGE, l->ref, l->len, &r->out) ==
	    0)
		r->ok++;
}

enum extractbench_mode { EB_TOKENIZER, EB_EXTRACT, EB_RESOLVE };

static double extractbench_run(const struct buf *pages, const size_t *starts, size_t npages,
    enum extractbench_mode mode, size_t *links)
{
	static const struct htmltok_cbs nocbs = {NULL, NULL};
	double t0 = extractbench_now();
	size_t p, sink = 0;
	struct extractbench_resolve r;

	memset(&r, 0, sizeof(r));
	buf_init(&r.base);
	buf_init(&r.out);
	*links = 0;
	for (p = 0; p < npages; p++) {
		const char *d = pages->data + starts[p];
		size_t len = starts[p + 1] - starts[p], off;

		if (mode == EB_TOKENIZER) {
			struct htmltok *t = htmltok_new(&nocbs, NULL);

			for (off = 0; off < len; off += EXTRACTBENCH_CHUNK)
				htmltok_feed(t, d + off,
				    len - off < EXTRACTBENCH_CHUNK ? len - off
								   : EXTRACTBENCH_CHUNK);
			htmltok_finish(t);
			htmltok_free(t);
			continue;
		}
		struct extract *x = mode == EB_EXTRACT
		    ? extract_new(EXTRACT_HTML, NULL, extractbench_nop_link, &sink)
		    : extract_new(EXTRACT_HTML, NULL, extractbench_resolve_link, &r);

		r.base_src = (const char *)&r; /* forces a base resolution per page */
		for (off = 0; off < len; off += EXTRACTBENCH_CHUNK)
			extract_feed(x, d + off,
			    len - off < EXTRACTBENCH_CHUNK ? len - off : EXTRACTBENCH_CHUNK);
		extract_finish(x);
		*links += extract_count(x);
		extract_free(x);
	}
	buf_free(&r.base);
	buf_free(&r.out);
	return extractbench_now() - t0;
}

/* Heap bytes held by one page's extractor halfway through the page
 * (malloc accounting over 1,000 of them alive at once): what each HTML
 * fetch in flight costs a crawl with thousands of them. */
static double extractbench_held(const struct buf *pages, const size_t *starts, size_t npages)
{
	enum { N = 1000 };
	static struct extract *x[N];
	size_t sink = 0, i;
	struct mallinfo2 a, b;

	a = mallinfo2();
	for (i = 0; i < N; i++) {
		size_t p = i % npages, len = starts[p + 1] - starts[p];

		x[i] = extract_new(EXTRACT_HTML, NULL, extractbench_nop_link, &sink);
		extract_feed(x[i], pages->data + starts[p], len / 2);
	}
	b = mallinfo2();
	for (i = 0; i < N; i++)
		extract_free(x[i]);
	return ((double)b.uordblks - (double)a.uordblks) / N;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
	struct buf pages = BUF_INIT;
	size_t *starts = NULL, npages = 0, cap = 0;
	static const char *const names[] = {"tokenizer", "extract", "extract+resolve"};
	int mode, run;

	while (pages.len < mb * 1024 * 1024) {
		if (npages + 2 > cap) {
			cap = cap ? cap * 2 : 64;
			starts = realloc(starts, cap * sizeof(*starts));
			if (!starts)
				return 1;
		}
		starts[npages++] = pages.len;
		extractbench_page(&pages, (int)npages);
	}
	starts[npages] = pages.len;
	printf("corpus: %zu pages, %.1f MB (%.1f KB/page), chunks of %d bytes\n", npages,
	    pages.len / 1048576.0, pages.len / 1024.0 / npages, EXTRACTBENCH_CHUNK);
	for (mode = EB_TOKENIZER; mode <= EB_RESOLVE; mode++) {
		double best = 1e9;
		size_t links = 0;

		for (run = 0; run < 3; run++) {
			double t = extractbench_run(
			    &pages, starts, npages, (enum extractbench_mode)mode, &links);

			if (t < best)
				best = t;
		}
		printf("%-16s %8.1f MB/s", names[mode], pages.len / 1048576.0 / best);
		if (mode != EB_TOKENIZER)
			printf("  %8.2f M links/s  (%zu links)", links / best / 1e6, links);
		printf("\n");
	}
	printf(
	    "held per page being parsed: %.0f bytes\n", extractbench_held(&pages, starts, npages));
	free(starts);
	buf_free(&pages);
	return 0;
}
