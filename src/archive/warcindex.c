/* CDXJ indexing of tern's own WARCs. Lines are collected in memory and sorted
 * once: about 300 bytes per capture, so a crawl of a few million pages
 * indexes in well under a gigabyte. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include "lib/buf.h"
#include "lib/surt.h"
#include "archive/warcindex.h"
#include "archive/warcread.h"
#include "lib/xmalloc.h"

/* Enough of a block for any sane HTTP head; a longer head yields no status. */
#define WARCINDEX_HEAD_MAX (64u << 10)

struct warcindex {
	char **lines;
	size_t n;
	size_t cap;
	FILE *notes;
	const char *who;
	warcindex_record_cb on_record;
	void *on_record_arg;
};

struct warcindex *warcindex_new(void)
{
	return xcalloc(1, sizeof(struct warcindex));
}

void warcindex_notes(struct warcindex *x, FILE *fp, const char *who)
{
	x->notes = fp;
	x->who = who;
}

void warcindex_on_record(struct warcindex *x, warcindex_record_cb cb, void *arg)
{
	x->on_record = cb;
	x->on_record_arg = arg;
}

void warcindex_free(struct warcindex *x)
{
	if (x == NULL)
		return;
	for (size_t i = 0; i < x->n; i++)
		free(x->lines[i]);
	free(x->lines);
	free(x);
}

size_t warcindex_count(const struct warcindex *x)
{
	return x->n;
}

void warcindex_http(const char *p, size_t n, struct buf *status, struct buf *mime)
{
	const char *end = p + n, *eol;

	buf_reset(status);
	buf_reset(mime);
	if (n < 12 || strncmp(p, "HTTP/", 5) != 0)
		return;
	eol = memchr(p, '\n', n);
	if (eol == NULL)
		return;
	for (const char *s = memchr(p, ' ', (size_t)(eol - p)); s != NULL && s + 4 <= eol; s = NULL)
		if (s[1] >= '1' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9' && s[3] >= '0' &&
		    s[3] <= '9')
			buf_append(status, s + 1, 3);
	for (p = eol + 1; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL || eol - p <= 1)
			break;
		if (eol - p > 13 && strncasecmp(p, "content-type:", 13) == 0) {
			const char *v = p + 13, *ve = eol;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			for (const char *q = v; q < ve; q++)
				if (*q == ';') {
					ve = q;
					break;
				}
			while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			buf_append(mime, v, (size_t)(ve - v));
			break;
		}
	}
}

static void warcindex_push(struct warcindex *x, char *line)
{
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 256;
		x->lines = xrealloc(x->lines, x->cap * sizeof *x->lines);
	}
	x->lines[x->n++] = line;
}

static void warcindex_set(json_t *o, const char *k, const char *v)
{
	/* Invalid UTF-8 cannot be a JSON string; such fields are left out. */
	json_t *s = json_string(v);

	if (s != NULL)
		json_object_set_new(o, k, s);
}

/* One line for a response or revisit record with an http(s) target. */
static void warcindex_record(
    struct warcindex *x, const struct warcread_record *rec, const char *filename)
{
	struct buf type = BUF_INIT, uri = BUF_INIT, date = BUF_INIT, dig = BUF_INIT;
	struct buf key = BUF_INIT, status = BUF_INIT, mime = BUF_INIT;
	char ts[15], num[24];
	size_t t = 0;
	json_t *o;
	char *js;

	if (warcread_header(rec, "WARC-Type", &type) < 0 ||
	    (strcmp(type.data, "response") != 0 && strcmp(type.data, "revisit") != 0) ||
	    warcread_target_uri(rec, &uri) < 0 ||
	    (strncasecmp(uri.data, "http://", 7) != 0 &&
		strncasecmp(uri.data, "https://", 8) != 0) ||
	    warcread_header(rec, "WARC-Date", &date) < 0 || surt_from_url(uri.data, 0, &key) < 0)
		goto out;
	for (size_t i = 0; i < date.len && t < 14; i++)
		if (date.data[i] >= '0' && date.data[i] <= '9')
			ts[t++] = date.data[i];
	if (t != 14)
		goto out;
	ts[14] = '\0';
	warcindex_http(rec->block.data, rec->block.len, &status, &mime);
	o = json_object();
	warcindex_set(o, "url", uri.data);
	warcindex_set(o, "mime",
	    strcmp(type.data, "revisit") == 0 ? "warc/revisit"
		: mime.len > 0		      ? mime.data
					      : "unk");
	if (status.len > 0)
		warcindex_set(o, "status", status.data);
	if (warcread_header(rec, "WARC-Payload-Digest", &dig) == 0) {
		const char *colon = strchr(dig.data, ':');
		warcindex_set(o, "digest", colon != NULL ? colon + 1 : dig.data);
	}
	snprintf(num, sizeof num, "%llu", (unsigned long long)rec->length);
	warcindex_set(o, "length", num);
	snprintf(num, sizeof num, "%llu", (unsigned long long)rec->offset);
	warcindex_set(o, "offset", num);
	warcindex_set(o, "filename", filename);
	js = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (js != NULL) {
		warcindex_push(x, xasprintf("%s %s %s", key.data, ts, js));
		free(js);
	}
out:
	buf_free(&type);
	buf_free(&uri);
	buf_free(&date);
	buf_free(&dig);
	buf_free(&key);
	buf_free(&status);
	buf_free(&mime);
}

int warcindex_add_stream(
    struct warcindex *x, FILE *fp, const char *path, const char *filename, char **err)
{
	struct warcread *r = warcread_new(fp, WARCINDEX_HEAD_MAX);
	struct warcread_record rec;
	size_t before = x->n, records = 0;
	char *rerr = NULL;
	int rc;

	/* Lines carry the payload digest the writer recorded. */
	warcread_digest_blocks(r, 0);
	warcread_record_init(&rec);
	while ((rc = warcread_next(r, &rec, &rerr)) > 0) {
		records++;
		warcindex_record(x, &rec, filename);
		if (x->on_record != NULL)
			x->on_record(x->on_record_arg, &rec, filename);
	}
	if (rc < 0) {
		*err = xasprintf("%s: %s", path, rerr);
		free(rerr);
	} else if (x->n == before && x->notes != NULL) {
		/* Said, not fatal: a file of DNS records or a lone warcinfo
		 * is a valid WARC, but an unexpected empty index is not. */
		fprintf(x->notes, "%s: %s: no HTTP response or revisit record in %zu record%s\n",
		    x->who, path, records, records == 1 ? "" : "s");
	}
	warcread_record_free(&rec);
	warcread_free(r);
	return rc < 0 ? -1 : 0;
}

int warcindex_add_file(struct warcindex *x, const char *path, const char *filename, char **err)
{
	FILE *fp = fopen(path, "rb");
	int rc;

	if (fp == NULL) {
		*err = xasprintf("opening %s: %s", path, strerror(errno));
		return -1;
	}
	rc = warcindex_add_stream(x, fp, path, filename, err);
	fclose(fp);
	return rc;
}

static int warcindex_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int warcindex_write(struct warcindex *x, FILE *out, char **err)
{
	if (x->n > 0)
		qsort(x->lines, x->n, sizeof *x->lines, warcindex_cmp);
	for (size_t i = 0; i < x->n; i++)
		if (fputs(x->lines[i], out) == EOF || fputc('\n', out) == EOF)
			break;
	if (fflush(out) != 0 || ferror(out)) {
		*err = xasprintf("writing the index: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int warcindex_is_warc(const char *name)
{
	size_t n = strlen(name);

	return n > 8 && strcmp(name + n - 8, ".warc.gz") == 0;
}

int warcindex_list(const char *dir, char ***names, size_t *n, char **err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (d == NULL) {
		*err = xasprintf("opening %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (!warcindex_is_warc(e->d_name))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*names = xrealloc(*names, cap * sizeof **names);
		}
		(*names)[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n > 0)
		qsort(*names, *n, sizeof **names, warcindex_cmp);
	return 0;
}

int warcindex_run(const char *jobdir, FILE *out, FILE *notes, char **err)
{
	char *dir = xasprintf("%s/warcs", jobdir);
	char **names;
	size_t n;
	struct warcindex *x;
	int rc;

	if (warcindex_list(dir, &names, &n, err) < 0) {
		free(dir);
		return -1;
	}
	x = warcindex_new();
	warcindex_notes(x, notes, "tern: warc-index");
	rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		rc = warcindex_add_file(x, path, names[i], err);
		free(path);
	}
	if (rc == 0 && x->n == 0) {
		*err = n == 0 ? xasprintf("no WARC file (*.warc.gz) in %s", dir)
			      : xasprintf("nothing to index: no HTTP response or revisit record in "
					  "the %zu WARC file%s of %s",
				    n, n == 1 ? "" : "s", dir);
		rc = -1;
	}
	if (rc == 0)
		rc = warcindex_write(x, out, err);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	warcindex_free(x);
	return rc;
}
