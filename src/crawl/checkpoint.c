/* Checkpoints: freezing the frontier's LevelDB store without copying it,
 * components' JSON files, the `valid` marker, listing, restoring by
 * copy-on-write, forgetting. Layout and the reasoning behind the freeze:
 * doc/checkpoints.md.
 *
 * The freeze relies on three facts about LevelDB 1.23: a table file (.ldb,
 * .sst) is never modified once written, only deleted when a newer version no
 * longer names it, so a hard link freezes it; a file is deleted only after
 * the MANIFEST has recorded the version that drops it; and only the caller's
 * thread (ours) appends to the write-ahead log. So: copy the MANIFEST named
 * by CURRENT, link the tables its last version names (src/crawl/ldbmanifest.c),
 * copy the logs, and if a table is gone, the MANIFEST grew or CURRENT changed
 * meanwhile (a background compaction finished), start again. */
#include "crawl/checkpoint.h"
#include "frontier/counts.h"
#include "crawl/failures.h"
#include "frontier/frontier.h"
#include "crawl/ldbmanifest.h"
#include "archive/smallfile.h"
#include "archive/warc.h"
#include "lib/xmalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <jansson.h>
#include <leveldb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Freezes tried before giving up: each retry means a compaction finished
 * during the previous one, which takes far longer than a freeze. */
#define CHECKPOINT_FREEZE_TRIES 20
/* Largest CURRENT file accepted ("MANIFEST-" and a number). */
#define CHECKPOINT_CURRENT_MAX 256

static uint64_t checkpoint_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* A checkpoint's name: "cp", the serial (at least 5 digits), "-", 14
 * digits. Returns the serial, or -1 for any other name (which also keeps
 * names given on the command line from reaching outside checkpoints/). */
static long checkpoint_name_serial(const char *name)
{
	size_t n, len = strlen(name);
	long serial;

	if (len >= CHECKPOINT_NAME_MAX || strncmp(name, "cp", 2) != 0)
		return -1;
	n = strspn(name + 2, "0123456789");
	if (n < 5 || n > 9 || name[2 + n] != '-')
		return -1;
	if (strspn(name + 3 + n, "0123456789") != 14 || name[3 + n + 14] != '\0')
		return -1;
	serial = strtol(name + 2, NULL, 10);
	return serial;
}

static int checkpoint_fsync_path(const char *path, int dir)
{
	int fd = open(path, (dir ? O_DIRECTORY : 0) | O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* Copies src to dst (created, not overwritten), fsyncing it; adds the bytes
 * copied to *bytes. ENOENT on src is returned as -ENOENT without a message
 * (the freeze retries on it). */
static int checkpoint_copy_file(const char *src, const char *dst, uint64_t *bytes, char **err)
{
	char buf[1 << 16];
	int in, out, rc = 0;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		*err = xasprintf("reading %s: %s", src, strerror(errno));
		return -1;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		*err = xasprintf("creating %s: %s", dst, strerror(errno));
		close(in);
		return -1;
	}
	for (;;) {
		ssize_t r = read(in, buf, sizeof buf), off = 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = xasprintf("reading %s: %s", src, strerror(errno));
			rc = -1;
			break;
		}
		if (r == 0)
			break;
		while (off < r) {
			ssize_t w = write(out, buf + off, (size_t)(r - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				*err = xasprintf("writing %s: %s", dst, strerror(errno));
				rc = -1;
				break;
			}
			off += w;
		}
		if (rc < 0)
			break;
		*bytes += (uint64_t)r;
	}
	if (rc == 0 && fsync(out) < 0) {
		*err = xasprintf("writing %s: %s", dst, strerror(errno));
		rc = -1;
	}
	close(in);
	if (close(out) < 0 && rc == 0) {
		*err = xasprintf("writing %s: %s", dst, strerror(errno));
		rc = -1;
	}
	return rc;
}

static int checkpoint_rmtree_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* rm -rf path; a missing path is fine. */
static int checkpoint_rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, checkpoint_rmtree_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* The kinds of file in a LevelDB directory. */
enum checkpoint_kind { CHECKPOINT_SKIP, CHECKPOINT_TABLE, CHECKPOINT_LOG };

static enum checkpoint_kind checkpoint_kind(const char *name)
{
	size_t n = strspn(name, "0123456789");

	if (n > 0 && (strcmp(name + n, ".ldb") == 0 || strcmp(name + n, ".sst") == 0))
		return CHECKPOINT_TABLE;
	if (n > 0 && strcmp(name + n, ".log") == 0)
		return CHECKPOINT_LOG;
	/* LOCK is the live process's; LOG and LOG.old are LevelDB's own
	 * diagnostics; a .dbtmp is a CURRENT being replaced. */
	return CHECKPOINT_SKIP;
}

/* Reads the small CURRENT file. */
static int checkpoint_read_current(const char *dir, char *out, size_t cap, char **err)
{
	char *path = xasprintf("%s/CURRENT", dir);
	FILE *fp = fopen(path, "r");
	size_t n;

	if (fp == NULL) {
		*err = xasprintf("reading %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	n = fread(out, 1, cap - 1, fp);
	fclose(fp);
	out[n] = '\0';
	if (n < 2 || out[n - 1] != '\n' || strncmp(out, "MANIFEST-", 9) != 0 ||
	    strchr(out, '/') != NULL || strchr(out, '\n') != out + n - 1) {
		*err = xasprintf("%s does not name a MANIFEST", path);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

static int64_t checkpoint_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
}

/* Reads a whole file into b; -ENOENT without a message when it is gone. */
static int checkpoint_read_all(const char *path, struct buf *b, char **err)
{
	char chunk[1 << 16];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf_reset(b);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		*err = xasprintf("reading %s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t r = read(fd, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = xasprintf("reading %s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		buf_append(b, chunk, (size_t)r);
	}
	close(fd);
	return 0;
}

/* Links table number from store into dst, checking its length against the
 * MANIFEST's; 1 when it is gone (a compaction dropped it: try again). */
static int checkpoint_link_table(
    const char *store, const char *dst, const struct ldbmanifest_table *tb, char **err)
{
	static const char *const ext[] = {"ldb", "sst"};
	struct stat st;
	int rc = 1;

	for (size_t i = 0; i < 2 && rc == 1; i++) {
		char *src =
		    xasprintf("%s/%06llu.%s", store, (unsigned long long)tb->number, ext[i]);
		char *to = xasprintf("%s/%06llu.%s", dst, (unsigned long long)tb->number, ext[i]);

		if (link(src, to) == 0) {
			rc = 0;
			if (stat(to, &st) < 0 || (uint64_t)st.st_size != tb->size) {
				*err = xasprintf("%s: %lld bytes, the MANIFEST says %llu", src,
				    (long long)st.st_size, (unsigned long long)tb->size);
				rc = -1;
			}
		} else if (errno != ENOENT) {
			*err = xasprintf("linking %s to %s: %s", src, to, strerror(errno));
			rc = -1;
		}
		free(src);
		free(to);
	}
	return rc;
}

/* One attempt at freezing store into dst (an empty directory): returns 0,
 * 1 when a compaction raced it (try again), negative on an error. Only the
 * tables the copied MANIFEST names are linked: a table LevelDB is still
 * writing would have a number the restored store hands out again. */
static int checkpoint_freeze_once(
    const char *store, const char *dst, struct checkpoint_timing *t, char **err)
{
	char current[CHECKPOINT_CURRENT_MAX], again[CHECKPOINT_CURRENT_MAX];
	char *manifest, *to;
	struct buf mb = BUF_INIT;
	struct ldbmanifest m;
	struct dirent *e;
	DIR *d;
	int rc;

	if (checkpoint_read_current(store, current, sizeof current, err) < 0)
		return -1;
	current[strlen(current) - 1] = '\0';
	manifest = xasprintf("%s/%s", store, current);
	rc = checkpoint_read_all(manifest, &mb, err);
	if (rc < 0) {
		free(manifest);
		buf_free(&mb);
		return rc == -ENOENT ? 1 : -1;
	}
	if (ldbmanifest_parse((const unsigned char *)mb.data, mb.len, &m, err) < 0) {
		char *e2 = xasprintf("%s: %s", manifest, *err);
		free(*err);
		*err = e2;
		free(manifest);
		buf_free(&mb);
		return -1;
	}
	/* The copy ends with the last whole record, as LevelDB reads it. */
	to = xasprintf("%s/%s", dst, current);
	rc = smallfile_replace(to, mb.data, m.used, SMALLFILE_MODE, err);
	free(to);
	t->copied_bytes += m.used;
	for (size_t i = 0; rc == 0 && i < m.ntables; i++) {
		rc = checkpoint_link_table(store, dst, &m.tables[i], err);
		if (rc == 0)
			t->tables++;
	}
	ldbmanifest_free(&m);
	d = rc == 0 ? opendir(store) : NULL;
	if (rc == 0 && d == NULL) {
		*err = xasprintf("listing %s: %s", store, strerror(errno));
		rc = -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char *src;

		if (checkpoint_kind(e->d_name) != CHECKPOINT_LOG)
			continue;
		src = xasprintf("%s/%s", store, e->d_name);
		to = xasprintf("%s/%s", dst, e->d_name);
		rc = checkpoint_copy_file(src, to, &t->copied_bytes, err);
		if (rc == -ENOENT)
			rc = 1;
		free(src);
		free(to);
	}
	if (d != NULL)
		closedir(d);
	/* A version recorded since the MANIFEST was read may have dropped a
	 * write-ahead log the copy still needs before it was copied. */
	if (rc == 0) {
		if (checkpoint_read_current(store, again, sizeof again, err) < 0)
			rc = -1;
		else if (strncmp(again, current, strlen(current)) != 0 ||
		    again[strlen(current)] != '\n' ||
		    checkpoint_file_size(manifest) != (int64_t)mb.len)
			rc = 1;
	}
	free(manifest);
	buf_free(&mb);
	if (rc != 0)
		return rc;
	strcat(current, "\n");
	to = xasprintf("%s/CURRENT", dst);
	rc = smallfile_replace(to, current, strlen(current), SMALLFILE_MODE, err);
	free(to);
	if (rc == 0 && checkpoint_fsync_path(dst, 1) < 0) {
		*err = xasprintf("syncing %s: %s", dst, strerror(errno));
		rc = -1;
	}
	return rc;
}

static int checkpoint_freeze(
    const char *store, const char *dst, struct checkpoint_timing *t, char **err)
{
	for (t->attempts = 1; t->attempts <= CHECKPOINT_FREEZE_TRIES; t->attempts++) {
		int rc;

		t->tables = 0;
		t->copied_bytes = 0;
		if (checkpoint_rmtree(dst) < 0 || mkdir(dst, 0755) < 0) {
			*err = xasprintf("creating %s: %s", dst, strerror(errno));
			return -1;
		}
		rc = checkpoint_freeze_once(store, dst, t, err);
		if (rc <= 0)
			return rc;
	}
	*err = xasprintf(
	    "freezing %s: compactions kept changing it (%d tries)", store, CHECKPOINT_FREEZE_TRIES);
	return -1;
}

/* Makes dst (new) a store of its own from a frozen one: tables linked
 * (LevelDB never writes to an existing table), everything else copied
 * (LevelDB may rewrite or append to those). */
static int checkpoint_thaw(const char *frozen, const char *dst, char **err)
{
	struct dirent *e;
	uint64_t bytes = 0;
	DIR *d;
	int rc = 0;

	if (mkdir(dst, 0755) < 0) {
		*err = xasprintf("creating %s: %s", dst, strerror(errno));
		return -1;
	}
	d = opendir(frozen);
	if (d == NULL) {
		*err = xasprintf("listing %s: %s", frozen, strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		enum checkpoint_kind k = checkpoint_kind(e->d_name);
		char *src, *to;

		if (k == CHECKPOINT_SKIP && strcmp(e->d_name, "CURRENT") != 0 &&
		    strncmp(e->d_name, "MANIFEST-", 9) != 0)
			continue;
		src = xasprintf("%s/%s", frozen, e->d_name);
		to = xasprintf("%s/%s", dst, e->d_name);
		if (k == CHECKPOINT_TABLE) {
			if (link(src, to) < 0) {
				*err = xasprintf("linking %s to %s: %s", src, to, strerror(errno));
				rc = -1;
			}
		} else if (checkpoint_copy_file(src, to, &bytes, err) != 0) {
			if (*err == NULL)
				*err = xasprintf("reading %s: %s", src, strerror(ENOENT));
			rc = -1;
		}
		free(src);
		free(to);
	}
	closedir(d);
	if (rc == 0 && checkpoint_fsync_path(dst, 1) < 0) {
		*err = xasprintf("syncing %s: %s", dst, strerror(errno));
		rc = -1;
	}
	return rc;
}

/* Opens a thawed store and checks that its marker names the checkpoint:
 * the proof that the frozen files are the store as of the checkpoint. */
static int checkpoint_verify(const char *dir, const char *name, char **err)
{
	leveldb_options_t *o = leveldb_options_create();
	leveldb_readoptions_t *ro = leveldb_readoptions_create();
	leveldb_t *db;
	char *lerr = NULL, *v = NULL;
	size_t vlen = 0;
	int rc = 0;

	leveldb_options_set_create_if_missing(o, 0);
	leveldb_options_set_paranoid_checks(o, 1);
	db = leveldb_open(o, dir, &lerr);
	if (db != NULL && lerr == NULL)
		v = leveldb_get(db, ro, FRONTIER_CHECKPOINT_KEY,
		    sizeof(FRONTIER_CHECKPOINT_KEY) - 1, &vlen, &lerr);
	if (lerr != NULL) {
		*err = xasprintf("the checkpoint's store does not open: %s", lerr);
		leveldb_free(lerr);
		rc = -1;
	} else if (v == NULL || vlen != strlen(name) || memcmp(v, name, vlen) != 0) {
		*err = xasprintf("the checkpoint's store is not the one %s froze (marker %.*s)",
		    name, v != NULL ? (int)vlen : 6, v != NULL ? v : "absent");
		rc = -1;
	}
	if (v != NULL)
		leveldb_free(v);
	if (db != NULL)
		leveldb_close(db);
	leveldb_readoptions_destroy(ro);
	leveldb_options_destroy(o);
	return rc;
}

static int checkpoint_write_json(const char *dir, const char *file, json_t *j, char **err)
{
	char *path = xasprintf("%s/%s", dir, file);
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	struct buf b = BUF_INIT;
	int rc;

	json_decref(j);
	buf_appends(&b, text);
	buf_appendc(&b, '\n');
	free(text);
	rc = smallfile_replace(path, b.data, b.len, SMALLFILE_MODE, err);
	buf_free(&b);
	free(path);
	return rc;
}

static const char *const checkpoint_status_names[6] = {
    "negative",
    "1xx",
    "2xx",
    "3xx",
    "4xx",
    "5xx",
};

static json_t *checkpoint_stats_json(const struct crawl_stats *s)
{
	json_t *st = json_object();

	for (int i = 0; i < 6; i++)
		json_object_set_new(
		    st, checkpoint_status_names[i], json_integer((json_int_t)s->status_class[i]));
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o}", "pages",
	    (json_int_t)s->pages, "bytes", (json_int_t)s->bytes, "failures",
	    (json_int_t)s->failures, "dns_lookups", (json_int_t)s->dns_lookups, "robots_fetches",
	    (json_int_t)s->robots_fetches, "retries", (json_int_t)s->retries, "revisits",
	    (json_int_t)s->revisits, "not_modified", (json_int_t)s->not_modified, "links_scheduled",
	    (json_int_t)s->links_scheduled, "statuses", st, "failures_by_cause", failures_json(s));
}

static json_t *checkpoint_frontier_json(struct frontier *f, const char *name)
{
	struct frontier_counts c;

	frontier_counts(f, &c);
	return json_pack("{s:s, s:s, s:s, s:o}", "note",
	    "informational: the frontier's state is the store in frontier/ "
	    "(queue states, wake times, counters); restore reads that, not this file",
	    "store", "frontier", "marker", name, "counts", counts_json(&c));
}

static const char *const checkpoint_logs[] = {"crawl.log", "tern.log", "progress.log"};

static json_t *checkpoint_logs_json(const char *jobdir)
{
	json_t *j = json_object();

	for (size_t i = 0; i < sizeof checkpoint_logs / sizeof checkpoint_logs[0]; i++) {
		char *p = xasprintf("%s/logs/%s", jobdir, checkpoint_logs[i]);
		int64_t sz = checkpoint_file_size(p);

		free(p);
		json_object_set_new(j, checkpoint_logs[i], json_integer(sz > 0 ? sz : 0));
	}
	return j;
}

/* The highest serial among checkpoint directories, valid or not. */
static long checkpoint_max_serial(const char *cpdir)
{
	DIR *d = opendir(cpdir);
	struct dirent *e;
	long max = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		long s = checkpoint_name_serial(e->d_name);
		if (s > max)
			max = s;
	}
	closedir(d);
	return max;
}

static int checkpoint_is_valid(const char *jobdir, const char *name)
{
	char *p = xasprintf("%s/checkpoints/%s/valid", jobdir, name);
	struct stat st;
	int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

int checkpoint_create(const char *jobdir, const struct checkpoint_parts *p,
    char out[CHECKPOINT_NAME_MAX], struct checkpoint_timing *timing, char **err)
{
	struct checkpoint_timing t;
	char *cpdir = xasprintf("%s/checkpoints", jobdir), *dir = NULL, *store = NULL;
	char stamp[16], when[32];
	time_t now = time(NULL);
	struct tm tm;
	struct frontier_counts fc;
	uint64_t t0 = checkpoint_now_us(), t1;
	int rc = -1;

	memset(&t, 0, sizeof t);
	*err = NULL;
	if (p->frontier == NULL) {
		*err = xstrdup("checkpoint: no frontier");
		goto out;
	}
	if (mkdir(cpdir, 0755) < 0 && errno != EEXIST) {
		*err = xasprintf("creating %s: %s", cpdir, strerror(errno));
		goto out;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(out, CHECKPOINT_NAME_MAX, "cp%05ld-%s", checkpoint_max_serial(cpdir) + 1, stamp);
	dir = xasprintf("%s/%s", cpdir, out);
	if (mkdir(dir, 0755) < 0) {
		*err = xasprintf("creating %s: %s", dir, strerror(errno));
		free(dir);
		dir = NULL;
		goto out;
	}
	/* The store first: everything after the marker is not in it. */
	if (frontier_checkpoint_mark(p->frontier, out, err) < 0)
		goto out;
	t1 = checkpoint_now_us();
	t.mark_us = t1 - t0;
	store = xasprintf("%s/frontier", dir);
	if (checkpoint_freeze(frontier_dir(p->frontier), store, &t, err) < 0)
		goto out;
	t.freeze_us = checkpoint_now_us() - t1;
	if (checkpoint_write_json(
		dir, "frontier.json", checkpoint_frontier_json(p->frontier, out), err) < 0)
		goto out;
	if (p->stats != NULL &&
	    checkpoint_write_json(dir, "crawl.json", checkpoint_stats_json(p->stats), err) < 0)
		goto out;
	if (p->warc != NULL &&
	    checkpoint_write_json(dir, "warc.json",
		json_pack("{s:I, s:s?}", "next_serial", (json_int_t)warc_serial(p->warc),
		    "current_file", warc_current_file(p->warc)),
		err) < 0)
		goto out;
	if (checkpoint_write_json(dir, "logs.json", checkpoint_logs_json(jobdir), err) < 0)
		goto out;
	{
		/* The configuration at the time, for reference only: a resume
		 * always takes its wiring from JOBDIR/tern.conf. */
		char *src = xasprintf("%s/tern.conf", jobdir),
		     *dst = xasprintf("%s/tern.conf", dir);
		uint64_t b = 0;
		int r = checkpoint_copy_file(src, dst, &b, err);

		free(src);
		free(dst);
		if (r == -ENOENT)
			r = 0;
		if (r < 0)
			goto out;
	}
	if (checkpoint_fsync_path(dir, 1) < 0) {
		*err = xasprintf("syncing %s: %s", dir, strerror(errno));
		goto out;
	}
	frontier_counts(p->frontier, &fc);
	{
		char *valid = xasprintf("%s/valid", dir);
		char *line =
		    xasprintf("%s taken %s: %" PRIu64 " queued, %" PRIu64 " in flight, "
			      "%" PRIu64 " succeeded, %" PRIu64 " failed, %u tables linked\n",
			out, when, fc.queued, fc.in_flight, fc.succeeded, fc.failed, t.tables);
		int r = smallfile_replace(valid, line, strlen(line), SMALLFILE_MODE, err);

		free(valid);
		free(line);
		if (r < 0 || checkpoint_fsync_path(dir, 1) < 0 ||
		    checkpoint_fsync_path(cpdir, 1) < 0) {
			if (*err == NULL)
				*err = xasprintf("syncing %s: %s", dir, strerror(errno));
			goto out;
		}
	}
	rc = 0;
	if (p->forget_all_but_latest && checkpoint_forget_all_but(jobdir, out, err) < 0)
		rc = -1;
out:
	if (rc < 0 && dir != NULL && !checkpoint_is_valid(jobdir, out))
		checkpoint_rmtree(dir);
	t.total_us = checkpoint_now_us() - t0;
	if (timing != NULL)
		*timing = t;
	free(store);
	free(dir);
	free(cpdir);
	return rc;
}

static int checkpoint_cmp(const void *a, const void *b)
{
	long x = checkpoint_name_serial(*(char *const *)a);
	long y = checkpoint_name_serial(*(char *const *)b);

	if (x != y)
		return x < y ? -1 : 1;
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int checkpoint_list(const char *jobdir, char ***names, size_t *n, char **err)
{
	char *cpdir = xasprintf("%s/checkpoints", jobdir);
	DIR *d = opendir(cpdir);
	struct dirent *e;
	char **v = NULL;
	size_t cnt = 0;

	*names = NULL;
	*n = 0;
	if (d == NULL) {
		int missing = errno == ENOENT;
		if (!missing)
			*err = xasprintf("listing %s: %s", cpdir, strerror(errno));
		free(cpdir);
		if (!missing)
			return -1;
		*names = xcalloc(1, sizeof(char *));
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		if (checkpoint_name_serial(e->d_name) < 0 ||
		    !checkpoint_is_valid(jobdir, e->d_name))
			continue;
		v = xrealloc(v, (cnt + 2) * sizeof *v);
		v[cnt++] = xstrdup(e->d_name);
	}
	closedir(d);
	free(cpdir);
	if (v == NULL)
		v = xcalloc(1, sizeof *v);
	v[cnt] = NULL;
	qsort(v, cnt, sizeof *v, checkpoint_cmp);
	*names = v;
	*n = cnt;
	return 0;
}

void checkpoint_list_free(char **names)
{
	if (names == NULL)
		return;
	for (char **p = names; *p != NULL; p++)
		free(*p);
	free(names);
}

int checkpoint_forget_all_but(const char *jobdir, const char *keep, char **err)
{
	char *cpdir = xasprintf("%s/checkpoints", jobdir);
	DIR *d = opendir(cpdir);
	struct dirent *e;
	int rc = 0;

	if (d == NULL) {
		free(cpdir);
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		char *path;

		if (checkpoint_name_serial(e->d_name) < 0 || strcmp(e->d_name, keep) == 0)
			continue;
		path = xasprintf("%s/%s", cpdir, e->d_name);
		/* The marker goes first, so a half-deleted checkpoint is never
		 * listed as valid. */
		{
			char *valid = xasprintf("%s/valid", path);
			unlink(valid);
			free(valid);
		}
		if (checkpoint_rmtree(path) < 0 && rc == 0) {
			*err = xasprintf("removing %s: %s", path, strerror(errno));
			rc = -1;
		}
		free(path);
	}
	closedir(d);
	free(cpdir);
	return rc;
}

/* Reads a non-negative integer member; a missing one reads as 0. */
static int checkpoint_json_u64(
    json_t *o, const char *key, uint64_t *out, const char *file, char **err)
{
	json_t *v = json_object_get(o, key);

	*out = 0;
	if (v == NULL)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		*err = xasprintf("%s: \"%s\" must be a non-negative integer", file, key);
		return -1;
	}
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* Loads dir/file as a JSON object; *j = NULL when the file is absent. */
static int checkpoint_json_load(const char *dir, const char *file, json_t **j, char **err)
{
	char *path = xasprintf("%s/%s", dir, file);
	json_error_t je;

	*j = NULL;
	if (access(path, F_OK) != 0) {
		free(path);
		return 0;
	}
	*j = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (*j == NULL || !json_is_object(*j)) {
		*err = *j == NULL ? xasprintf("%s:%d: %s", path, je.line, je.text)
				  : xasprintf("%s: not a JSON object", path);
		json_decref(*j);
		*j = NULL;
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

static int checkpoint_read_components(const char *dir, struct checkpoint_restored *out, char **err)
{
	json_t *j, *st;
	uint64_t v;
	int rc = 0;

	if (checkpoint_json_load(dir, "crawl.json", &j, err) < 0)
		return -1;
	if (j != NULL) {
		struct crawl_stats *s = &out->stats;
		out->have_stats = 1;
		rc |= checkpoint_json_u64(j, "pages", &s->pages, "crawl.json", err);
		rc |= checkpoint_json_u64(j, "bytes", &s->bytes, "crawl.json", err);
		rc |= checkpoint_json_u64(j, "failures", &s->failures, "crawl.json", err);
		rc |= checkpoint_json_u64(j, "dns_lookups", &s->dns_lookups, "crawl.json", err);
		rc |=
		    checkpoint_json_u64(j, "robots_fetches", &s->robots_fetches, "crawl.json", err);
		rc |= checkpoint_json_u64(j, "retries", &s->retries, "crawl.json", err);
		rc |= checkpoint_json_u64(j, "revisits", &s->revisits, "crawl.json", err);
		rc |= checkpoint_json_u64(j, "not_modified", &s->not_modified, "crawl.json", err);
		rc |= checkpoint_json_u64(
		    j, "links_scheduled", &s->links_scheduled, "crawl.json", err);
		/* Absent from checkpoints older than the counts by cause. */
		failures_from_json(s, json_object_get(j, "failures_by_cause"));
		st = json_object_get(j, "statuses");
		for (int i = 0; i < 6 && rc == 0 && json_is_object(st); i++)
			rc |= checkpoint_json_u64(st, checkpoint_status_names[i],
			    &s->status_class[i], "crawl.json statuses", err);
		json_decref(j);
		if (rc != 0)
			return -1;
	}
	if (checkpoint_json_load(dir, "warc.json", &j, err) < 0)
		return -1;
	if (j != NULL) {
		rc = checkpoint_json_u64(j, "next_serial", &v, "warc.json", err);
		json_decref(j);
		if (rc < 0)
			return -1;
		if (v > UINT32_MAX) {
			*err = xstrdup("warc.json: next_serial is too large");
			return -1;
		}
		out->warc_next_serial = (unsigned)v;
	}
	if (checkpoint_json_load(dir, "logs.json", &j, err) < 0)
		return -1;
	if (j != NULL) {
		rc |= checkpoint_json_u64(j, "crawl.log", &out->crawl_log_bytes, "logs.json", err);
		rc |= checkpoint_json_u64(j, "tern.log", &out->tern_log_bytes, "logs.json", err);
		rc |= checkpoint_json_u64(
		    j, "progress.log", &out->progress_log_bytes, "logs.json", err);
		json_decref(j);
		if (rc != 0)
			return -1;
	}
	return 0;
}

int checkpoint_restore(
    const char *jobdir, const char *name, struct checkpoint_restored *out, char **err)
{
	char **names = NULL, *dir = NULL, *frozen = NULL, *live = NULL, *tmp = NULL, *old = NULL;
	size_t n = 0;
	int rc = CHECKPOINT_EFAIL;

	memset(out, 0, sizeof *out);
	*err = NULL;
	if (checkpoint_list(jobdir, &names, &n, err) < 0)
		return CHECKPOINT_EFAIL;
	if (strcmp(name, "latest") == 0) {
		if (n == 0) {
			*err = xasprintf("%s/checkpoints holds no valid checkpoint", jobdir);
			rc = CHECKPOINT_ENOTFOUND;
			goto out;
		}
		name = names[n - 1];
	} else if (checkpoint_name_serial(name) < 0) {
		*err = xasprintf(
		    "'%s' is not a checkpoint name (cpNNNNN-YYYYMMDDHHMMSS or latest)", name);
		rc = CHECKPOINT_ENOTFOUND;
		goto out;
	} else if (!checkpoint_is_valid(jobdir, name)) {
		*err = xasprintf(
		    "%s/checkpoints/%s is not a valid checkpoint (missing, or no `valid` marker)",
		    jobdir, name);
		rc = CHECKPOINT_ENOTFOUND;
		goto out;
	}
	snprintf(out->name, sizeof out->name, "%s", name);
	dir = xasprintf("%s/checkpoints/%s", jobdir, name);
	frozen = xasprintf("%s/frontier", dir);
	live = xasprintf("%s/state/frontier", jobdir);
	tmp = xasprintf("%s/state/frontier.restoring", jobdir);
	old = xasprintf("%s/state/frontier.replaced", jobdir);
	if (checkpoint_read_components(dir, out, err) < 0)
		goto out;
	if (checkpoint_rmtree(tmp) < 0) {
		*err = xasprintf("removing %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (checkpoint_thaw(frozen, tmp, err) < 0 || checkpoint_verify(tmp, name, err) < 0) {
		checkpoint_rmtree(tmp);
		goto out;
	}
	if (checkpoint_rmtree(old) < 0 || (rename(live, old) < 0 && errno != ENOENT) ||
	    rename(tmp, live) < 0) {
		*err = xasprintf("replacing %s: %s", live, strerror(errno));
		goto out;
	}
	{
		char *state = xasprintf("%s/state", jobdir);
		checkpoint_fsync_path(state, 1);
		free(state);
	}
	rc = 0;
out:
	checkpoint_list_free(names);
	free(dir);
	free(frozen);
	free(live);
	free(tmp);
	free(old);
	return rc;
}

int checkpoint_due(uint64_t last_ms, uint64_t now_ms, int64_t interval_minutes)
{
	if (interval_minutes <= 0)
		return 0;
	return now_ms >= last_ms && now_ms - last_ms >= (uint64_t)interval_minutes * 60000;
}
