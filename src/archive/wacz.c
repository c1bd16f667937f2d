/* WACZ packaging. One pass over each WARC feeds the CDXJ indexer (and,
 * through its record hook, the pages) from a stdio stream that hashes the
 * raw bytes as the reader pulls them, so the sha256 of datapackage.json
 * costs no extra read. The index and pages go to a temporary directory
 * beside the package, then libzip stores everything: the WARCs uncompressed
 * (they are gzip per record already, and a reader seeks to a record by its
 * offset), the rest deflated. libzip writes the package to a temporary
 * file and renames it at the end, so a failed run leaves no half package,
 * and switches to ZIP64 by itself for an entry or an archive past 4 GiB. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <zip.h>
#include <zlib.h>
#include "archive/wacz.h"
#include "archive/warcindex.h"
#include "lib/buf.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

#define WACZ_HASH_STR (7 + 64 + 1) /* "sha256:" + hex */
/* The index is written compressed, in blocks of this many lines (pywb's
 * ZipNum default), each its own gzip member, with indexes/index.idx
 * naming the first key of each block: ReplayWeb.page then reads the few
 * lines a page needs. A plain indexes/index.cdxj it loads whole, once for
 * every lookup made before the first load ends: from a few hundred pages
 * on, a page opened after scrolling its Pages list never shows
 * (bench/wacz-viewer.sh, doc/warc.md). */
#define WACZ_INDEX_BLOCK 3000

struct wacz_file {
	char *path;  /* on disk */
	char *zpath; /* in the package */
	uint64_t bytes;
	char hash[WACZ_HASH_STR];
	int store; /* stored, not deflated */
	int temp;  /* made here: removed at the end */
};

struct wacz {
	const struct wacz_opts *o;
	struct wacz_file *files;
	size_t n, cap;
	char *tmpdir;
	struct waczpages *pages;
	/* The host of the seeds, for a title; NULL when they have none or
	 * several. */
	char *seed_host;
	int seed_hosts;
};

struct wacz_hasher {
	FILE *fp;
	EVP_MD_CTX *md;
	uint64_t n;
	const volatile sig_atomic_t *stop;
};

static void wacz_hasher_init(struct wacz_hasher *h, FILE *fp)
{
	h->fp = fp;
	h->n = 0;
	h->stop = NULL;
	h->md = EVP_MD_CTX_new();
	if (h->md == NULL || EVP_DigestInit_ex(h->md, EVP_sha256(), NULL) != 1)
		abort();
}

static void wacz_hasher_final(struct wacz_hasher *h, char out[WACZ_HASH_STR])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned len = 0;

	EVP_DigestFinal_ex(h->md, md, &len);
	EVP_MD_CTX_free(h->md);
	h->md = NULL;
	memcpy(out, "sha256:", 7);
	for (unsigned i = 0; i < len && i < 32; i++)
		snprintf(out + 7 + 2 * i, 3, "%02x", md[i]);
}

/* fopencookie's read: what the reader is handed is hashed on its way. */
static ssize_t wacz_hasher_read(void *cookie, char *buf, size_t size)
{
	struct wacz_hasher *h = cookie;
	size_t n;

	/* A stop asked for ends the read as an error, within 64 KiB. */
	if (h->stop != NULL && *h->stop) {
		errno = EINTR;
		return -1;
	}
	n = fread(buf, 1, size, h->fp);

	if (n == 0 && ferror(h->fp))
		return -1;
	EVP_DigestUpdate(h->md, buf, n);
	h->n += n;
	return (ssize_t)n;
}

static int wacz_hash_path(const char *path, uint64_t *bytes, char out[WACZ_HASH_STR], char **err)
{
	FILE *fp = fopen(path, "rb");
	struct wacz_hasher h;
	char buf[65536];
	int rc = 0;

	if (fp == NULL) {
		*err = xasprintf("opening %s: %s", path, strerror(errno));
		return -1;
	}
	wacz_hasher_init(&h, fp);
	while (wacz_hasher_read(&h, buf, sizeof buf) > 0)
		;
	if (ferror(fp)) {
		*err = xasprintf("reading %s: %s", path, strerror(errno));
		rc = -1;
	}
	wacz_hasher_final(&h, out);
	*bytes = h.n;
	fclose(fp);
	return rc;
}

static struct wacz_file *wacz_add(struct wacz *w, char *path, char *zpath, int store)
{
	struct wacz_file *f;

	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		w->files = xrealloc(w->files, w->cap * sizeof *w->files);
	}
	f = &w->files[w->n++];
	memset(f, 0, sizeof *f);
	f->path = path;
	f->zpath = zpath;
	f->store = store;
	return f;
}

/* Notes the host of a seed: the package is named after it when every
 * seed has the same. */
static void wacz_seed_host(struct wacz *w, const char *url)
{
	struct url_parts u;

	if (w->seed_hosts > 1)
		return;
	if (url_split(url, &u) < 0 || u.host_len == 0) {
		w->seed_hosts = 2;
	} else if (w->seed_host == NULL) {
		w->seed_host = xstrndup(url + u.host_off, u.host_len);
		w->seed_hosts = 1;
	} else if (strlen(w->seed_host) != u.host_len ||
	    strncasecmp(w->seed_host, url + u.host_off, u.host_len) != 0) {
		w->seed_hosts = 2;
	}
}

static int wacz_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Seeds recorded by the crawl (a URL a line, first; a seed that a seed's
 * redirect made has words after it), for the pages. */
static void wacz_seeds(struct wacz *w, const char *jobdir)
{
	char *path = xasprintf("%s/seeds.txt", jobdir), *line = NULL;
	FILE *fp = fopen(path, "r");
	size_t cap = 0;
	ssize_t n;

	free(path);
	if (fp == NULL)
		return;
	while ((n = getline(&line, &cap, fp)) > 0) {
		line[strcspn(line, " \t\r\n")] = '\0';
		n = (ssize_t)strlen(line);
		if (n > 0 && line[0] != '#') {
			waczpages_add_seed(w->pages, line);
			wacz_seed_host(w, line);
		}
	}
	free(line);
	fclose(fp);
}

/* The WARCs of one job directory (a crawl's, or one worker's). */
static int wacz_warc_dir(struct wacz *w, const char *jobdir, char **err)
{
	char *dir = xasprintf("%s/warcs", jobdir), **names;
	size_t n;

	if (!wacz_is_dir(dir)) {
		free(dir);
		return 0;
	}
	if (warcindex_list(dir, &names, &n, err) < 0) {
		free(dir);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		wacz_add(
		    w, xasprintf("%s/%s", dir, names[i]), xasprintf("archive/%s", names[i]), 1);
		free(names[i]);
	}
	free(names);
	free(dir);
	wacz_seeds(w, jobdir);
	return 1;
}

static int wacz_cmp_zpath(const void *a, const void *b)
{
	return strcmp(((const struct wacz_file *)a)->zpath, ((const struct wacz_file *)b)->zpath);
}

/* JOBDIR/warcs, then the workers' JOBDIR/w0/warcs, w1, ... (tern crawl
 * --workers), in one flat archive/: tern's file names carry their
 * process id and host, so two nodes' names do not meet, and if they did
 * the package is refused rather than one file lost. */
static int wacz_find(struct wacz *w, char **err)
{
	const char *jobdir = w->o->jobdir;
	int dirs = 0, rc;

	if ((rc = wacz_warc_dir(w, jobdir, err)) < 0)
		return -1;
	dirs += rc;
	for (unsigned i = 0;; i++) {
		char *wd = xasprintf("%s/w%u", jobdir, i);
		if (!wacz_is_dir(wd)) {
			free(wd);
			break;
		}
		rc = wacz_warc_dir(w, wd, err);
		free(wd);
		if (rc < 0)
			return -1;
		dirs += rc;
	}
	if (dirs == 0) {
		*err =
		    xasprintf("%s is not a job directory: no warcs/ in it (or in its workers' w0, "
			      "w1, ...)",
			jobdir);
		return -1;
	}
	if (w->n == 0) {
		*err = xasprintf("no WARC file (*.warc.gz) in %s/warcs", jobdir);
		return -1;
	}
	if (w->n > 1) {
		struct wacz_file *s = xmalloc(w->n * sizeof *s);
		memcpy(s, w->files, w->n * sizeof *s);
		qsort(s, w->n, sizeof *s, wacz_cmp_zpath);
		for (size_t i = 1; i < w->n; i++)
			if (strcmp(s[i - 1].zpath, s[i].zpath) == 0) {
				*err = xasprintf("two WARC files are called %s: %s and %s",
				    s[i].zpath + 8, s[i - 1].path, s[i].path);
				free(s);
				return -1;
			}
		free(s);
	}
	return 0;
}

/* Reads every WARC once: index lines, pages, sha256 and size. */
static int wacz_read_warcs(struct wacz *w, struct warcindex *x, char **err)
{
	size_t nwarcs = w->n;

	for (size_t i = 0; i < nwarcs; i++) {
		struct wacz_file *f = &w->files[i];
		static const cookie_io_functions_t io = {wacz_hasher_read, NULL, NULL, NULL};
		struct wacz_hasher h;
		FILE *raw = fopen(f->path, "rb"), *fp;
		struct stat st;
		int rc;

		if (raw == NULL || fstat(fileno(raw), &st) < 0) {
			*err = xasprintf("opening %s: %s", f->path, strerror(errno));
			if (raw != NULL)
				fclose(raw);
			return -1;
		}
		wacz_hasher_init(&h, raw);
		h.stop = w->o->stop;
		fp = fopencookie(&h, "rb", io);
		if (fp == NULL)
			abort();
		rc = warcindex_add_stream(x, fp, f->path, f->zpath + 8, err);
		fclose(fp);
		fclose(raw);
		wacz_hasher_final(&h, f->hash);
		f->bytes = h.n;
		waczpages_file_end(w->pages);
		if (rc < 0)
			return -1;
		if (h.n != (uint64_t)st.st_size) {
			*err = xasprintf(
			    "%s changed while it was read (%llu bytes read, %llu on disk)", f->path,
			    (unsigned long long)h.n, (unsigned long long)st.st_size);
			return -1;
		}
	}
	return 0;
}

/* Writes a file of the package into the temporary directory and hashes it. */
static int wacz_temp_file(struct wacz *w, const char *name, const char *zpath, int store,
    int (*fill)(void *arg, FILE *fp, char **err), void *arg, char **err)
{
	char *path = xasprintf("%s/%s", w->tmpdir, name);
	FILE *fp = fopen(path, "wb");
	struct wacz_file *f;

	if (fp == NULL) {
		*err = xasprintf("creating %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (fill(arg, fp, err) < 0) {
		fclose(fp);
		unlink(path);
		free(path);
		return -1;
	}
	if (fclose(fp) != 0) {
		*err = xasprintf("writing %s: %s", path, strerror(errno));
		unlink(path);
		free(path);
		return -1;
	}
	if (zpath == NULL) {
		/* A file the package is made from, not a part of it. */
		free(path);
		return 0;
	}
	f = wacz_add(w, path, xstrdup(zpath), store);
	f->temp = 1;
	return wacz_hash_path(f->path, &f->bytes, f->hash, err);
}

static int wacz_fill_index(void *arg, FILE *fp, char **err)
{
	return warcindex_write(arg, fp, err);
}

static int wacz_fill_pages(void *arg, FILE *fp, char **err)
{
	return waczpages_write(arg, fp, err);
}

/* The compressed index: the sorted lines, read back from sorted, in gzip
 * members of WACZ_INDEX_BLOCK lines; the line of index.idx for each goes
 * to idx. */
struct wacz_zipnum {
	char *sorted;
	struct buf idx;
};

static int wacz_zipnum_member(z_stream *z, const struct buf *in, FILE *fp, uint64_t *len)
{
	unsigned char out[65536];
	int zr;

	if (deflateReset(z) != Z_OK)
		abort();
	z->next_in = (unsigned char *)in->data;
	z->avail_in = (uInt)in->len;
	*len = 0;
	do {
		z->next_out = out;
		z->avail_out = sizeof out;
		zr = deflate(z, Z_FINISH);
		if (zr != Z_OK && zr != Z_STREAM_END)
			abort();
		if (fwrite(out, 1, sizeof out - z->avail_out, fp) != sizeof out - z->avail_out)
			return -1;
		*len += sizeof out - z->avail_out;
	} while (zr != Z_STREAM_END);
	return 0;
}

static int wacz_fill_zipnum(void *arg, FILE *fp, char **err)
{
	struct wacz_zipnum *zn = arg;
	FILE *in = fopen(zn->sorted, "rb");
	struct buf block = BUF_INIT, first = BUF_INIT;
	char *line = NULL;
	size_t cap = 0, n = 0;
	uint64_t off = 0, len;
	ssize_t got;
	z_stream z;
	int rc = 0;

	if (in == NULL) {
		*err = xasprintf("opening %s: %s", zn->sorted, strerror(errno));
		return -1;
	}
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	buf_appends(
	    &zn->idx, "!meta 0 {\"format\":\"cdxj-gzip-1.0\",\"filename\":\"index.cdx.gz\"}\n");
	for (;;) {
		got = getline(&line, &cap, in);
		if (got > 0) {
			if (n == 0) {
				/* The block's key: the line's "SURT TIMESTAMP". */
				const char *sp = strchr(line, ' ');
				sp = sp != NULL ? strchr(sp + 1, ' ') : NULL;
				buf_reset(&first);
				buf_append(&first, line,
				    sp != NULL ? (size_t)(sp - line) : (size_t)got - 1);
			}
			buf_append(&block, line, (size_t)got);
			n++;
		}
		if ((got <= 0 && n > 0) || n == WACZ_INDEX_BLOCK) {
			if (wacz_zipnum_member(&z, &block, fp, &len) < 0) {
				*err = xasprintf("writing the index: %s", strerror(errno));
				rc = -1;
				break;
			}
			buf_appendf(&zn->idx,
			    "%s {\"offset\":%llu,\"length\":%llu,"
			    "\"filename\":\"index.cdx.gz\"}\n",
			    first.data, (unsigned long long)off, (unsigned long long)len);
			off += len;
			buf_reset(&block);
			n = 0;
		}
		if (got <= 0)
			break;
	}
	if (rc == 0 && ferror(in)) {
		*err = xasprintf("reading %s: %s", zn->sorted, strerror(errno));
		rc = -1;
	}
	deflateEnd(&z);
	free(line);
	buf_free(&block);
	buf_free(&first);
	fclose(in);
	return rc;
}

static int wacz_fill_idx(void *arg, FILE *fp, char **err)
{
	struct wacz_zipnum *zn = arg;

	if (fwrite(zn->idx.data, 1, zn->idx.len, fp) != zn->idx.len) {
		*err = xasprintf("writing the index: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* indexes/index.cdx.gz (stored: a reader fetches one block by its range)
 * and indexes/index.idx, or when asked indexes/index.cdxj. */
static int wacz_index(struct wacz *w, struct warcindex *x, char **err)
{
	struct wacz_zipnum zn;
	int rc;

	if (w->o->index == WACZ_INDEX_PLAIN)
		return wacz_temp_file(
		    w, "index.cdxj", "indexes/index.cdxj", 0, wacz_fill_index, x, err);
	if (wacz_temp_file(w, "index.sorted", NULL, 0, wacz_fill_index, x, err) < 0)
		return -1;
	zn.sorted = xasprintf("%s/index.sorted", w->tmpdir);
	buf_init(&zn.idx);
	rc = wacz_temp_file(
	    w, "index.cdx.gz", "indexes/index.cdx.gz", 1, wacz_fill_zipnum, &zn, err);
	if (rc == 0)
		rc =
		    wacz_temp_file(w, "index.idx", "indexes/index.idx", 0, wacz_fill_idx, &zn, err);
	unlink(zn.sorted);
	free(zn.sorted);
	buf_free(&zn.idx);
	return rc;
}

/* The package's title: the job directory's name ("." and ".." named by
 * what they are). */
static char *wacz_job_name(const char *jobdir)
{
	char *real = realpath(jobdir, NULL), *name;
	const char *d = real != NULL ? real : jobdir, *s;
	size_t n = strlen(d);

	while (n > 1 && d[n - 1] == '/')
		n--;
	s = d + n;
	while (s > d && s[-1] != '/')
		s--;
	name = s < d + n ? xstrndup(s, (size_t)(d + n - s)) : xstrdup("job");
	free(real);
	return name;
}

/* The package's title: the one asked for, else the seeds' one host, else
 * the job directory's name. */
static char *wacz_title(const struct wacz *w)
{
	if (w->o->package_title != NULL && w->o->package_title[0] != '\0')
		return xstrdup(w->o->package_title);
	if (w->seed_hosts == 1)
		return xstrdup(w->seed_host);
	return wacz_job_name(w->o->jobdir);
}

static char *wacz_datapackage(struct wacz *w)
{
	json_t *dp = json_object(), *res = json_array(), *meta = json_object(), *t;
	char created[32], *title = wacz_title(w), *text;
	const char *desc = w->o->description;
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(dp, "profile", json_string("data-package"));
	json_object_set_new(dp, "wacz_version", json_string("1.1.1"));
	/* WACZ 1.1.1 names them title and description at the top;
	 * ReplayWeb.page (wabac.js) reads metadata.title and metadata.desc
	 * instead, so both are written (text that is not UTF-8 is left out
	 * by jansson). */
	if ((t = json_string(title)) != NULL) {
		json_object_set_new(dp, "title", t);
		json_object_set_new(meta, "title", json_string(title));
	}
	if (desc != NULL && desc[0] != '\0' && (t = json_string(desc)) != NULL) {
		json_object_set_new(dp, "description", t);
		json_object_set_new(meta, "desc", json_string(desc));
	}
	json_object_set_new(dp, "created", json_string(created));
	json_object_set_new(dp, "software", json_string(w->o->software));
	for (size_t i = 0; i < w->n; i++) {
		const struct wacz_file *f = &w->files[i];
		const char *base = strrchr(f->zpath, '/');
		json_t *r = json_object();
		json_object_set_new(r, "name", json_string(base != NULL ? base + 1 : f->zpath));
		json_object_set_new(r, "path", json_string(f->zpath));
		json_object_set_new(r, "hash", json_string(f->hash));
		json_object_set_new(r, "bytes", json_integer((json_int_t)f->bytes));
		json_array_append_new(res, r);
	}
	json_object_set_new(dp, "resources", res);
	json_object_set_new(dp, "metadata", meta);
	text = json_dumps(dp, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(dp);
	free(title);
	return text;
}

static char *wacz_digest_json(const char *datapackage)
{
	struct wacz_hasher h;
	char hash[WACZ_HASH_STR], *text;
	json_t *o = json_object();

	wacz_hasher_init(&h, NULL);
	EVP_DigestUpdate(h.md, datapackage, strlen(datapackage));
	wacz_hasher_final(&h, hash);
	json_object_set_new(o, "path", json_string("datapackage.json"));
	json_object_set_new(o, "hash", json_string(hash));
	text = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(o);
	return text;
}

static int wacz_zip_error(zip_t *za, const char *what, const char *path, char **err)
{
	*err = xasprintf("%s %s: %s", what, path, zip_strerror(za));
	return -1;
}

static int wacz_zip_add(zip_t *za, const char *zpath, zip_source_t *src, int store, char **err)
{
	zip_int64_t idx;

	if (src == NULL)
		return wacz_zip_error(za, "adding", zpath, err);
	idx = zip_file_add(za, zpath, src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
	if (idx < 0) {
		zip_source_free(src);
		return wacz_zip_error(za, "adding", zpath, err);
	}
	if (zip_set_file_compression(
		za, (zip_uint64_t)idx, store ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 0) < 0)
		return wacz_zip_error(za, "setting the compression of", zpath, err);
	return 0;
}

static int wacz_zip_cancel_cb(zip_t *za, void *arg)
{
	const volatile sig_atomic_t *stop = arg;

	(void)za;
	return stop != NULL && *stop;
}

static int wacz_zip(struct wacz *w, const char *out, const char *dp, const char *digest, char **err)
{
	int zerr = 0;
	zip_t *za = zip_open(out, ZIP_CREATE | ZIP_TRUNCATE, &zerr);

	if (za == NULL) {
		zip_error_t ze;
		zip_error_init_with_code(&ze, zerr);
		*err = xasprintf("creating %s: %s", out, zip_error_strerror(&ze));
		zip_error_fini(&ze);
		return -1;
	}
	/* libzip asks between blocks while it writes: a stop removes its
	 * temporary file, which may be gigabytes. */
	zip_register_cancel_callback_with_state(
	    za, wacz_zip_cancel_cb, NULL, (void *)(uintptr_t)w->o->stop);
	for (size_t i = 0; i < w->n; i++) {
		const struct wacz_file *f = &w->files[i];
		/* The length read and hashed, whatever the file does later. */
		if (wacz_zip_add(za, f->zpath,
			zip_source_file(za, f->path, 0, (zip_int64_t)f->bytes), f->store, err) < 0)
			goto fail;
	}
	if (wacz_zip_add(za, "datapackage.json", zip_source_buffer(za, dp, strlen(dp), 0), 0, err) <
		0 ||
	    wacz_zip_add(za, "datapackage-digest.json",
		zip_source_buffer(za, digest, strlen(digest), 0), 0, err) < 0)
		goto fail;
	if (zip_close(za) < 0) {
		wacz_zip_error(za, "writing", out, err);
		goto fail;
	}
	return 0;
fail:
	zip_discard(za);
	return -1;
}

static void wacz_cleanup(struct wacz *w)
{
	for (size_t i = 0; i < w->n; i++) {
		if (w->files[i].temp)
			unlink(w->files[i].path);
		free(w->files[i].path);
		free(w->files[i].zpath);
	}
	free(w->files);
	if (w->tmpdir != NULL) {
		rmdir(w->tmpdir);
		free(w->tmpdir);
	}
	waczpages_free(w->pages);
	free(w->seed_host);
}

static void wacz_record_cb(void *arg, const struct warcread_record *rec, const char *filename)
{
	waczpages_record(arg, rec, filename);
}

int wacz_write(const struct wacz_opts *o, struct wacz_result *r, char **err)
{
	struct wacz w;
	struct warcindex *x = warcindex_new();
	char *out, *dp = NULL, *digest = NULL;
	struct stat st;
	int rc = -1;

	memset(r, 0, sizeof *r);
	memset(&w, 0, sizeof w);
	w.o = o;
	w.pages = waczpages_new(o->title, o->title_arg);
	if (o->out != NULL) {
		out = xstrdup(o->out);
	} else {
		char *name = wacz_job_name(o->jobdir);
		out = xasprintf("%s/%s.wacz", o->jobdir, name);
		free(name);
	}
	warcindex_notes(x, o->notes, "tern: wacz");
	warcindex_on_record(x, wacz_record_cb, w.pages);
	if (wacz_find(&w, err) < 0 || wacz_read_warcs(&w, x, err) < 0)
		goto out;
	r->warcs = w.n;
	for (size_t i = 0; i < w.n; i++)
		r->warc_bytes += w.files[i].bytes;
	r->captures = warcindex_count(x);
	if (r->captures == 0) {
		*err =
		    xasprintf("nothing to package: no HTTP response or revisit record in the %zu "
			      "WARC file%s of %s",
			w.n, w.n == 1 ? "" : "s", o->jobdir);
		goto out;
	}
	/* Beside the package: the same file system, and not /tmp, which may
	 * be memory. */
	w.tmpdir = xasprintf("%s.tmpXXXXXX", out);
	if (mkdtemp(w.tmpdir) == NULL) {
		*err = xasprintf("creating %s: %s", w.tmpdir, strerror(errno));
		free(w.tmpdir);
		w.tmpdir = NULL;
		goto out;
	}
	if (wacz_index(&w, x, err) < 0 ||
	    wacz_temp_file(
		&w, "pages.jsonl", "pages/pages.jsonl", 0, wacz_fill_pages, w.pages, err) < 0)
		goto out;
	waczpages_counts(w.pages, &r->pages);
	dp = wacz_datapackage(&w);
	digest = wacz_digest_json(dp);
	if (wacz_zip(&w, out, dp, digest, err) < 0)
		goto out;
	if (stat(out, &st) == 0)
		r->bytes = (uint64_t)st.st_size;
	r->path = out;
	out = NULL;
	rc = 0;
out:
	if (rc < 0 && o->stop != NULL && *o->stop) {
		free(*err);
		*err = xstrdup("interrupted: no package written");
	}
	free(out);
	free(dp);
	free(digest);
	warcindex_free(x);
	wacz_cleanup(&w);
	return rc;
}

void wacz_result_free(struct wacz_result *r)
{
	free(r->path);
	r->path = NULL;
}
