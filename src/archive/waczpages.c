/* Pages of a WACZ package, from the records of the job's WARCs as they
 * stream by. A capture is written response, request, metadata: the page of
 * an HTML response waits ("pending", with the start of its body) for the
 * metadata record that may carry its title, and is parsed only when none
 * comes. Memory: one small entry per page, and one body prefix. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include "archive/waczpages.h"
#include "archive/warcindex.h"
#include "archive/warcread.h"
#include "lib/buf.h"
#include "lib/surt.h"
#include "lib/xmalloc.h"
#include "lib/zinflate.h"

/* Decoded bytes of a stored body searched for its <title>: a title is in
 * the head of the document, and this bounds a bomb. */
#define WACZPAGES_DECODED_MAX (256u << 10)

struct waczpages_page {
	char *url;
	char *id;    /* the capture's record id, without "<urn:uuid:" ">" */
	char ts[32]; /* ISO 8601, milliseconds */
	char *title; /* NULL: not known yet */
};

struct waczpages_seed {
	char *key; /* SURT key, as the index's */
	int found;
};

struct waczpages {
	struct waczpages_page *pages;
	size_t n, cap;
	struct waczpages_seed *seeds;
	size_t nseeds, seedcap;
	int seeds_sorted;
	/* The last HTML page, waiting for its metadata record. */
	size_t pending;
	int has_pending;
	struct buf body;    /* the start of its stored body */
	struct buf coding;  /* its Content-Encoding */
	struct buf decoded; /* that body decoded, capped */
	struct buf title;
	waczpages_title_fn title_fn;
	void *title_arg;
	struct buf a, b, c; /* scratch */
	struct waczpages_counts counts;
};

struct waczpages *waczpages_new(waczpages_title_fn fn, void *arg)
{
	struct waczpages *p = xcalloc(1, sizeof(struct waczpages));

	p->title_fn = fn;
	p->title_arg = arg;
	return p;
}

void waczpages_free(struct waczpages *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->pages[i].url);
		free(p->pages[i].id);
		free(p->pages[i].title);
	}
	free(p->pages);
	for (size_t i = 0; i < p->nseeds; i++)
		free(p->seeds[i].key);
	free(p->seeds);
	buf_free(&p->body);
	buf_free(&p->coding);
	buf_free(&p->decoded);
	buf_free(&p->title);
	buf_free(&p->a);
	buf_free(&p->b);
	buf_free(&p->c);
	free(p);
}

void waczpages_add_seed(struct waczpages *p, const char *url)
{
	struct buf key = BUF_INIT;

	if (surt_from_url(url, 0, &key) < 0) {
		buf_free(&key);
		return;
	}
	if (p->nseeds == p->seedcap) {
		p->seedcap = p->seedcap ? p->seedcap * 2 : 16;
		p->seeds = xrealloc(p->seeds, p->seedcap * sizeof *p->seeds);
	}
	p->seeds[p->nseeds].key = buf_steal(&key);
	p->seeds[p->nseeds].found = 0;
	p->nseeds++;
	p->seeds_sorted = 0;
}

static int waczpages_seed_cmp(const void *a, const void *b)
{
	return strcmp(
	    ((const struct waczpages_seed *)a)->key, ((const struct waczpages_seed *)b)->key);
}

/* The seed with this key not yet found, or NULL. Seeds given twice (or
 * differing only in what the key drops) make one page. */
static struct waczpages_seed *waczpages_seed(struct waczpages *p, const char *key)
{
	struct waczpages_seed want = {(char *)(uintptr_t)key, 0}, *s;

	if (p->nseeds == 0)
		return NULL;
	if (!p->seeds_sorted) {
		qsort(p->seeds, p->nseeds, sizeof *p->seeds, waczpages_seed_cmp);
		p->seeds_sorted = 1;
	}
	s = bsearch(&want, p->seeds, p->nseeds, sizeof *p->seeds, waczpages_seed_cmp);
	if (s == NULL)
		return NULL;
	while (s > p->seeds && strcmp(s[-1].key, key) == 0)
		s--;
	if (s->found)
		return NULL;
	for (struct waczpages_seed *e = s; e < p->seeds + p->nseeds && strcmp(e->key, key) == 0;
	     e++)
		e->found = 1;
	return s;
}

/* "2026-11-21T16:00:00.123456Z" -> "2026-11-21T16:00:00.123Z". */
static void waczpages_ts(const char *date, char out[32])
{
	const char *dot = strchr(date, '.');
	size_t n;

	if (dot == NULL || (size_t)(dot - date) > 20) {
		snprintf(out, 32, "%s", date);
		return;
	}
	n = (size_t)(dot - date) + 1;
	memcpy(out, date, n);
	for (size_t i = 0; i < 3 && dot[1 + i] >= '0' && dot[1 + i] <= '9'; i++)
		out[n++] = dot[1 + i];
	out[n++] = 'Z';
	out[n] = '\0';
}

/* The title of the pending page, from its stored body. */
static void waczpages_parse_pending(struct waczpages *p)
{
	struct waczpages_page *pg = &p->pages[p->pending];
	const char *cod = p->coding.data ? p->coding.data : "";
	const char *body = p->body.data ? p->body.data : "";
	size_t n = p->body.len;

	p->has_pending = 0;
	if (pg->title != NULL)
		return;
	buf_reset(&p->decoded);
	buf_reset(&p->title);
	if (*cod == '\0' || strcasecmp(cod, "identity") == 0)
		buf_append(
		    &p->decoded, body, n < WACZPAGES_DECODED_MAX ? n : WACZPAGES_DECODED_MAX);
	else if (strcasecmp(cod, "gzip") == 0 || strcasecmp(cod, "x-gzip") == 0 ||
	    strcasecmp(cod, "deflate") == 0)
		/* Whatever the name says, the body is taken as gzip, zlib or
		 * raw deflate (which some servers send as "deflate") as its
		 * first bytes tell. A stream cut by the reader's cap, or
		 * corrupt, gives what came before. */
		zinflate_capped(body, n, ZINFLATE_ANY, WACZPAGES_DECODED_MAX, &p->decoded);
	/* Other codings (br) are not decoded: the page has no title here. */
	if (p->title_fn != NULL && p->decoded.len > 0)
		p->title_fn(p->title_arg, p->decoded.data, p->decoded.len, &p->title);
	pg->title = xstrdup(p->title.data ? p->title.data : "");
	p->counts.titles_parsed++;
}

/* A header of an HTTP head (name with its colon), trimmed, into out. */
static void waczpages_http_header(const char *head, size_t n, const char *name, struct buf *out)
{
	size_t nl = strlen(name);
	const char *p = head, *end = head + n;

	buf_reset(out);
	buf_appends(out, "");
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		if ((size_t)(eol - p) > nl && strncasecmp(p, name, nl) == 0) {
			const char *v = p + nl, *ve = eol;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			buf_append(out, v, (size_t)(ve - v));
			return;
		}
		p = eol + 1;
	}
}

static int waczpages_is_html(const char *mime)
{
	return strcasecmp(mime, "text/html") == 0 || strcasecmp(mime, "application/xhtml+xml") == 0;
}

static void waczpages_capture(struct waczpages *p, const struct warcread_record *rec)
{
	struct buf *uri = &p->a, *tmp = &p->b, *key = &p->c;
	struct buf status = BUF_INIT, mime = BUF_INIT;
	struct waczpages_page *pg;
	const char *head = rec->block.data ? rec->block.data : "", *end;
	int html, seed;

	if (warcread_target_uri(rec, uri) < 0 ||
	    (strncasecmp(uri->data, "http://", 7) != 0 &&
		strncasecmp(uri->data, "https://", 8) != 0))
		return;
	warcindex_http(head, rec->block.len, &status, &mime);
	/* A revisit of identical content is a page of its own URL; its
	 * block holds the HTTP head (a 304's says 304: not a new page). */
	html = status.len == 3 && status.data[0] == '2' && mime.len > 0 &&
	    waczpages_is_html(mime.data);
	buf_free(&status);
	buf_free(&mime);
	if (surt_from_url(uri->data, 0, key) < 0)
		return;
	seed = waczpages_seed(p, key->data) != NULL;
	if (!seed && !html)
		return;
	p->counts.seeds += seed;
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 256;
		p->pages = xrealloc(p->pages, p->cap * sizeof *p->pages);
	}
	pg = &p->pages[p->n];
	memset(pg, 0, sizeof *pg);
	pg->url = xstrdup(uri->data);
	if (warcread_header(rec, "WARC-Date", tmp) == 0)
		waczpages_ts(tmp->data, pg->ts);
	if (warcread_header(rec, "WARC-Record-ID", tmp) == 0) {
		const char *id = tmp->data;
		size_t n = tmp->len;
		if (n > 11 && strncmp(id, "<urn:uuid:", 10) == 0 && id[n - 1] == '>') {
			id += 10;
			n -= 11;
		}
		pg->id = xstrndup(id, n);
	}
	if (!html) {
		/* A seed that is no HTML page (a redirect, an error) has no
		 * title: the viewer shows its URL. */
		pg->title = xstrdup("");
		p->n++;
		return;
	}
	p->pending = p->n++;
	p->has_pending = 1;
	end = memmem(head, rec->block.len, "\r\n\r\n", 4);
	buf_reset(&p->body);
	buf_reset(&p->coding);
	if (end != NULL) {
		waczpages_http_header(head, (size_t)(end - head), "content-encoding:", &p->coding);
		buf_append(&p->body, end + 4, rec->block.len - (size_t)(end + 4 - head));
	}
}

/* The "title:" field of a metadata record for the pending page. */
static void waczpages_metadata(struct waczpages *p, const struct warcread_record *rec)
{
	struct waczpages_page *pg;
	const char *b = rec->block.data, *end, *line;
	struct buf *ref = &p->a;

	if (!p->has_pending || b == NULL)
		return;
	pg = &p->pages[p->pending];
	if (pg->id == NULL || warcread_header(rec, "WARC-Concurrent-To", ref) < 0 ||
	    strstr(ref->data, pg->id) == NULL)
		return;
	end = b + rec->block.len;
	for (line = b; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		if (eol == NULL)
			eol = end;
		if (eol - line >= 6 && strncmp(line, "title:", 6) == 0) {
			const char *v = line + 6, *ve = eol;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			pg->title = xstrndup(v, (size_t)(ve - v));
			p->counts.titles_kept++;
			p->has_pending = 0;
			return;
		}
		line = eol + 1;
	}
}

void waczpages_record(struct waczpages *p, const struct warcread_record *rec, const char *filename)
{
	struct buf *type = &p->b;

	(void)filename;
	if (warcread_header(rec, "WARC-Type", type) < 0)
		return;
	if (strcmp(type->data, "metadata") == 0) {
		waczpages_metadata(p, rec);
		return;
	}
	if (strcmp(type->data, "response") != 0 && strcmp(type->data, "revisit") != 0)
		return;
	if (p->has_pending)
		waczpages_parse_pending(p);
	waczpages_capture(p, rec);
}

void waczpages_file_end(struct waczpages *p)
{
	if (p->has_pending)
		waczpages_parse_pending(p);
}

/* A JSON string of s: as it is when it is UTF-8, else read as Latin-1 (the
 * page's encoding is not known here; Latin-1 keeps every byte readable). */
static json_t *waczpages_string(const char *s)
{
	json_t *j = json_string(s);
	struct buf b = BUF_INIT;

	if (j != NULL)
		return j;
	for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
		if (*q < 0x80) {
			buf_appendc(&b, (char)*q);
		} else {
			buf_appendc(&b, (char)(0xc0 | (*q >> 6)));
			buf_appendc(&b, (char)(0x80 | (*q & 0x3f)));
		}
	}
	j = json_string(b.data ? b.data : "");
	buf_free(&b);
	return j;
}

int waczpages_write(struct waczpages *p, FILE *out, char **err)
{
	waczpages_file_end(p);
	fputs("{\"format\":\"json-pages-1.0\",\"id\":\"pages\",\"title\":\"All Pages\"}\n", out);
	for (size_t i = 0; i < p->n; i++) {
		struct waczpages_page *pg = &p->pages[i];
		json_t *o = json_object(), *url = json_string(pg->url);
		char *line;

		/* A URL that is not UTF-8 cannot be named in JSON: the page
		 * stays in the index, out of the list. */
		if (url == NULL) {
			json_decref(o);
			continue;
		}
		if (pg->id != NULL)
			json_object_set_new(o, "id", waczpages_string(pg->id));
		json_object_set_new(o, "url", url);
		json_object_set_new(o, "ts", json_string(pg->ts));
		if (pg->title != NULL && pg->title[0] != '\0')
			json_object_set_new(o, "title", waczpages_string(pg->title));
		line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(o);
		if (line != NULL) {
			fputs(line, out);
			fputc('\n', out);
			free(line);
		}
	}
	if (fflush(out) != 0 || ferror(out)) {
		*err = xasprintf("writing the pages: %m");
		return -1;
	}
	return 0;
}

void waczpages_counts(const struct waczpages *p, struct waczpages_counts *c)
{
	*c = p->counts;
	c->pages = p->n;
	c->seeds_missing = 0;
	for (size_t i = 0; i < p->nseeds; i++)
		if (!p->seeds[i].found &&
		    (i == 0 || strcmp(p->seeds[i - 1].key, p->seeds[i].key) != 0))
			c->seeds_missing++;
}
