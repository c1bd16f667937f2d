/* Recovery of ".open" WARC files. The writer only ever appends whole gzip
 * members with write(2), so a killed process leaves a prefix of what it
 * meant to write: whole members, then at most one torn one. The reader
 * (warcread) inflates member by member and accepts a member only when it
 * inflates to one complete record (header, Content-Length bytes of block,
 * CRLF CRLF) and its gzip trailer checks; the first member it refuses is
 * where the file is cut. Memory stays bounded whatever the file's size.
 *
 * Because the file is such a prefix, only its tail needs reading: in a file
 * larger than twice the tail window, the scan starts at the first offset of
 * the last window (WARCRECOVER_TAIL) where a whole gzip member holding one
 * whole record begins (its CRC-32 and length checked by inflate, which no
 * stray 1f 8b 08 inside compressed data passes), and trusts what precedes
 * it. A resume after a kill at a large crawl then reads a few MiB instead
 * of the whole open file (769 MB took 10.8 s). If no member starts and
 * ends inside the window (one record larger than it), the whole file is
 * read as before. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "archive/warcread.h"
#include "archive/warcrecover.h"
#include "lib/xmalloc.h"

#define WARCRECOVER_SUFFIX ".warc.gz.open"

static uint64_t warcrecover_tail = 8u << 20;

void warcrecover_set_tail(uint64_t bytes)
{
	warcrecover_tail = bytes > 0 ? bytes : 8u << 20;
}

struct warcrecover_scan {
	uint64_t size;	   /* of the file before recovery */
	uint64_t start;	   /* where the scan began (0, or in the tail) */
	uint64_t good_end; /* end of the last whole member kept */
	uint64_t records;  /* whole records before good_end */
	int dropped;	   /* a capture's lone response was dropped */
	char *why;	   /* the reader's message on the first torn member */
};

/* 1 if rec opens an HTTP capture: a response or revisit that the writer
 * always follows with its request record (a dns: response stands alone). */
static int warcrecover_opens_capture(const struct warcread_record *rec, struct buf *v)
{
	if (warcread_header(rec, "WARC-Type", v) < 0 ||
	    (strcmp(v->data, "response") != 0 && strcmp(v->data, "revisit") != 0))
		return 0;
	return warcread_header(rec, "WARC-Target-URI", v) < 0 || strncmp(v->data, "dns:", 4) != 0;
}

static int warcrecover_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 if a gzip member holding one whole record starts at offset at. */
static int warcrecover_member_at(FILE *fp, uint64_t at)
{
	struct warcread *r;
	struct warcread_record rec;
	char *msg = NULL;
	int rc;

	if (fseeko(fp, (off_t)at, SEEK_SET) < 0)
		return 0;
	r = warcread_new(fp, 0);
	warcread_record_init(&rec);
	rc = warcread_next(r, &rec, &msg);
	free(msg);
	warcread_record_free(&rec);
	warcread_free(r);
	clearerr(fp);
	return rc == 1;
}

/* Where the scan of a file of size bytes may start: the first member
 * start in its last window, or 0 (see the top of this file). */
static uint64_t warcrecover_start(FILE *fp, uint64_t size)
{
	uint64_t base, at = 0;
	unsigned char *w;
	size_t n, i;

	if (size <= 2 * warcrecover_tail)
		return 0;
	base = size - warcrecover_tail;
	w = xmalloc((size_t)warcrecover_tail);
	if (fseeko(fp, (off_t)base, SEEK_SET) < 0) {
		free(w);
		return 0;
	}
	n = fread(w, 1, (size_t)warcrecover_tail, fp);
	/* Gzip's magic, deflate, no reserved flag bit. */
	for (i = 0; i + 4 <= n && at == 0; i++)
		if (w[i] == 0x1f && w[i + 1] == 0x8b && w[i + 2] == 8 && (w[i + 3] & 0xe0) == 0 &&
		    warcrecover_member_at(fp, base + i))
			at = base + i;
	free(w);
	clearerr(fp);
	return at;
}

/* Reads fp to its first refused member. A read error (EIO) is not a torn
 * member: cutting there could destroy whole records, so it fails instead. */
static int warcrecover_scan(FILE *fp, const char *path, struct warcrecover_scan *s, char **err)
{
	struct warcread *r;
	struct warcread_record rec;
	struct buf v = BUF_INIT;
	uint64_t last_start = 0;
	int last_opens = 0;
	char *msg = NULL;
	int rc;

	s->start = warcrecover_start(fp, s->size);
	if (fseeko(fp, (off_t)s->start, SEEK_SET) < 0) {
		*err = xasprintf("seeking in %s: %s; left as it is", path, strerror(errno));
		return -1;
	}
	s->good_end = s->start;
	r = warcread_new(fp, 0);
	warcread_record_init(&rec);
	while ((rc = warcread_next(r, &rec, &msg)) > 0) {
		last_start = s->start + rec.offset;
		last_opens = warcrecover_opens_capture(&rec, &v);
		s->good_end = s->start + rec.offset + rec.length;
		s->records++;
	}
	/* A capture's records are written together, response first, so a
	 * file ending on a response lost that capture's request: the capture
	 * was never acknowledged (its URI is fetched again), and a response
	 * without its request is not kept. A capture that lost only its
	 * metadata record cannot be told from one written without it, and
	 * is kept whole. */
	if (last_opens) {
		s->good_end = last_start;
		s->records--;
		s->dropped = 1;
	}
	buf_free(&v);
	warcread_record_free(&rec);
	warcread_free(r);
	if (ferror(fp)) {
		*err = xasprintf(
		    "reading %s: %s; left as it is", path, msg != NULL ? msg : "read error");
		free(msg);
		return -1;
	}
	s->why = msg;
	return 0;
}

static int warcrecover_fsync_dir(const char *dir, char **err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || fsync(fd) < 0) {
		*err = xasprintf("syncing %s: %s", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Recovers dir/name (name ends in ".warc.gz.open"). */
static int warcrecover_file(const char *dir, const char *name, struct buf *report, char **err)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *final = xasprintf("%s/%.*s", dir, (int)(strlen(name) - strlen(".open")), name);
	struct warcrecover_scan s = {0, 0, 0, 0, 0, NULL};
	struct stat st, fst;
	FILE *fp = NULL;
	int fd, rc = -1;

	/* O_NOFOLLOW: a symlink named like a WARC must not lead the cut
	 * outside the directory. */
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		*err = xasprintf("opening %s: %s", path, strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*err = xasprintf("%s is not a regular file; left as it is", path);
		close(fd);
		goto out;
	}
	s.size = (uint64_t)st.st_size;
	if (lstat(final, &fst) == 0) {
		*err = xasprintf("%s: %s already exists; left as it is", path, final);
		close(fd);
		goto out;
	}
	if (errno != ENOENT) {
		*err = xasprintf("%s: %s; left as it is", final, strerror(errno));
		close(fd);
		goto out;
	}
	fp = fdopen(fd, "rb");
	if (fp == NULL) {
		*err = xasprintf("opening %s: %s", path, strerror(errno));
		close(fd);
		goto out;
	}
	if (warcrecover_scan(fp, path, &s, err) < 0)
		goto out;
	if (s.good_end == 0) {
		/* Nothing of it was acknowledged: the URIs it held are still
		 * queued and fetched again. */
		if (unlink(path) < 0) {
			*err = xasprintf("removing %s: %s", path, strerror(errno));
			goto out;
		}
		buf_appendf(report, "%s: no whole record in %llu bytes (%s); removed\n", name,
		    (unsigned long long)s.size,
		    s.why != NULL   ? s.why
			: s.dropped ? "a response without its request"
				    : "empty file");
		rc = 0;
		goto out;
	}
	if (s.good_end < s.size && ftruncate(fd, (off_t)s.good_end) < 0) {
		*err = xasprintf("truncating %s: %s", path, strerror(errno));
		goto out;
	}
	/* The cut must be on disk before the name says the file is closed. */
	if (fsync(fd) < 0) {
		*err = xasprintf("syncing %s: %s", path, strerror(errno));
		goto out;
	}
	if (rename(path, final) < 0) {
		*err = xasprintf("renaming %s: %s", path, strerror(errno));
		goto out;
	}
	if (s.start > 0)
		buf_appendf(report,
		    "%s: kept %llu bytes (the %llu records from offset %llu read, "
		    "the tail; what precedes was whole when written)",
		    name, (unsigned long long)s.good_end, (unsigned long long)s.records,
		    (unsigned long long)s.start);
	else
		buf_appendf(report, "%s: kept %llu records (%llu bytes)", name,
		    (unsigned long long)s.records, (unsigned long long)s.good_end);
	if (s.good_end < s.size)
		buf_appendf(report, ", cut %llu bytes%s%s%s%s; closed\n",
		    (unsigned long long)(s.size - s.good_end),
		    s.dropped ? " of a response whose request was lost" : "",
		    s.why != NULL ? " (torn record: " : "", s.why != NULL ? s.why : "",
		    s.why != NULL ? ")" : "");
	else
		buf_appendf(report, ", nothing torn; closed\n");
	rc = 0;
out:
	if (fp != NULL)
		fclose(fp);
	free(s.why);
	free(path);
	free(final);
	return rc;
}

int warcrecover_dir(const char *dir, struct buf *report, char **err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, *msg = NULL;
	size_t n = 0, done = 0, slen = strlen(WARCRECOVER_SUFFIX);
	int rc = 0;

	if (d == NULL) {
		if (errno == ENOENT)
			return 0;
		*err = xasprintf("opening %s: %s", dir, strerror(errno));
		return -1;
	}
	/* Listed first, then handled: renaming while reading the directory
	 * could list a file twice or not at all. */
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);

		if (len > slen && strcmp(e->d_name + len - slen, WARCRECOVER_SUFFIX) == 0) {
			names = xrealloc(names, (n + 1) * sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, warcrecover_cmp);
	for (size_t i = 0; i < n; i++) {
		if (warcrecover_file(dir, names[i], report, &msg) == 0) {
			done++;
		} else {
			buf_appendf(report, "%s\n", msg);
			if (rc == 0)
				*err = msg;
			else
				free(msg);
			msg = NULL;
			rc = -1;
		}
		free(names[i]);
	}
	free(names);
	/* The renames and removals are durable once the directory is. */
	if (done > 0 && warcrecover_fsync_dir(dir, &msg) < 0) {
		buf_appendf(report, "%s\n", msg);
		if (rc == 0)
			*err = msg;
		else
			free(msg);
		rc = -1;
	}
	return rc;
}
