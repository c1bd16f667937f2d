/* Writes the synthetic web to disk (see files.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include "lib/xmalloc.h"
#include "files.h"

struct files {
	const struct web *w;
	const char *dir;
	unsigned port_base;
	int gz;
	long written;
	char *err;
	struct buf path, gzbody;
	struct web_reply reply;
};

static int files_fail(struct files *f, const char *what, const char *name)
{
	f->err = xasprintf("%s %s: %s", what, name, strerror(errno));
	return -1;
}

/* mkdir of DIR/PORT and the page directories under it. */
static int files_dirs(struct files *f, uint32_t host)
{
	static const char *const sub[] = {"", "/p", "/p/private", "/i"};

	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		buf_reset(&f->path);
		buf_appendf(&f->path, "%s/%u%s", f->dir, f->port_base + host, sub[i]);
		if (mkdir(f->path.data, 0755) < 0 && errno != EEXIST)
			return files_fail(f, "cannot create", f->path.data);
	}
	return 0;
}

static int files_put(struct files *f, const char *name, const void *data, size_t len)
{
	FILE *fp = fopen(name, "w");

	if (!fp)
		return files_fail(f, "cannot write", name);
	if (fwrite(data, 1, len, fp) != len || fclose(fp) != 0)
		return files_fail(f, "cannot write", name);
	f->written++;
	return 0;
}

/* A gzip member of the body (windowBits 15 + 16: gzip wrapper). */
static int files_gzip(struct files *f, const struct buf *body)
{
	z_stream z;
	int r;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	buf_reset(&f->gzbody);
	buf_reserve(&f->gzbody, deflateBound(&z, body->len) + 32);
	z.next_in = (unsigned char *)body->data;
	z.avail_in = (uInt)body->len;
	z.next_out = (unsigned char *)f->gzbody.data;
	z.avail_out = (uInt)(f->gzbody.cap - 1);
	r = deflate(&z, Z_FINISH);
	f->gzbody.len = z.total_out;
	deflateEnd(&z);
	return r == Z_STREAM_END ? 0 : -1;
}

/* Writes one URL's body at DIR/PORT/PATH (and PATH.gz for text). */
static int files_one(
    struct files *f, uint32_t host, enum web_kind kind, uint32_t num, const char *path)
{
	size_t base;

	web_reply_free(&f->reply);
	web_reply_init(&f->reply);
	web_render(f->w, host, kind, num, "http", 0, &f->reply);
	buf_reset(&f->path);
	buf_appendf(&f->path, "%s/%u%s", f->dir, f->port_base + host,
	    strcmp(path, "/") == 0 ? "/index.html" : path);
	if (files_put(f, f->path.data, f->reply.body.data, f->reply.body.len) < 0)
		return -1;
	if (!f->gz || kind == WEB_IMAGE)
		return 0;
	if (files_gzip(f, &f->reply.body) < 0) {
		f->err = xasprintf("cannot gzip %s", f->path.data);
		return -1;
	}
	base = f->path.len;
	buf_appends(&f->path, ".gz");
	if (files_put(f, f->path.data, f->gzbody.data, f->gzbody.len) < 0)
		return -1;
	f->path.len = base;
	return 0;
}

static int files_walk_cb(void *arg, uint32_t host, enum web_kind kind, uint32_t num,
    const char *path, int status, int allowed)
{
	(void)allowed;
	if (status != 200)
		return 0;
	return files_one(arg, host, kind, num, path);
}

long files_write(const struct web *w, const char *dir, unsigned port_base, int gz, char **err)
{
	struct files f;
	long r = 0;

	memset(&f, 0, sizeof(f));
	f.w = w;
	f.dir = dir;
	f.port_base = port_base;
	f.gz = gz;
	web_reply_init(&f.reply);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		r = files_fail(&f, "cannot create", dir);
	for (uint32_t h = 0; r >= 0 && h < web_hosts(w); h++)
		if (files_dirs(&f, h) < 0 || files_one(&f, h, WEB_ROBOTS, 0, "/robots.txt") < 0)
			r = -1;
	if (r >= 0 && web_walk(w, files_walk_cb, &f) < 0)
		r = -1;
	web_reply_free(&f.reply);
	buf_free(&f.path);
	buf_free(&f.gzbody);
	if (r < 0) {
		*err = f.err;
		return -1;
	}
	return f.written;
}
