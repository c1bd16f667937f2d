/* What each key kind of the frontier's store costs LevelDB: a library
 * preloaded into tern (LD_PRELOAD, bench only; bench/kinds.sh builds and
 * uses it) that stands between tern and LevelDB's C API. tern itself is
 * the normal build, unchanged.
 *
 * KINDSPLIT_MODE=split puts each key kind (the key's first byte,
 * doc/frontier.md "Store layout") in a LevelDB of its own, DIR/k-XX
 * (XX the byte in hex), opened with tern's options: a write batch is cut
 * into one batch per kind, a get goes to its kind's store, an iterator
 * walks the store of the kind of its last seek. At close each store's
 * `leveldb.stats` (per level: files, size, compaction seconds, MB read
 * and written) and its files' sizes are recorded.
 * KINDSPLIT_MODE=count keeps the one store and only counts and checks.
 * KINDSPLIT_MODE=drop is count with the puts of the kinds named in
 * KINDSPLIT_DROP (e.g. "s") left out of every batch: what the crawl
 * would cost if those keys cost LevelDB nothing (a ceiling for any other
 * home of theirs; a crawl without its seen keys is not exact and cannot
 * be reopened, so this is for measuring only).
 *
 * Both modes count, per kind, the puts and deletes written (entries and
 * key and value bytes), the gets and the iterator seeks and steps, and
 * check the split's one assumption: that no walk leaves its kind. An
 * iterator of one store that steps past the last key of its kind shows
 * the caller a key of another kind (or nothing), where the split shows
 * nothing; the caller must treat both as the end. In count mode every
 * key of another kind that a caller reads is counted ("foreign"), and so
 * is any value read or step taken past it (which would mean a walk over
 * two kinds: the split would then differ). In split mode an iterator
 * opens its kind's store at its first seek there; a write between the
 * iterator's creation and that seek would show the caller later data
 * than one store would ("late").
 *
 * At close one row per kind is appended to KINDSPLIT_OUT (tab-separated):
 *   label mode kind puts put_key_bytes put_value_bytes dels del_key_bytes
 *   gets seeks nexts foreign foreign_values foreign_nexts late
 *   live_bytes files size_mb comp_s read_mb write_mb
 * (mode count: the one store's figures are on the row of kind "*", and a
 * kind's live_bytes is LevelDB's approximate size of its key range;
 * mode split: live_bytes is the size of the kind's table files, log
 * included) and the stats text to KINDSPLIT_STATS if set. label is
 * KINDSPLIT_LABEL. tern uses the store from one thread. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <leveldb/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Kinds are the key's first byte, and with KINDSPLIT_USEG=1 the URI keys
 * of each time segment (first 256) a kind of their own: 256 + segment. */
#define KINDSPLIT_N 512

static int kindsplit_useg;

struct kindsplit_count {
	uint64_t puts, put_kb, put_vb, dels, del_kb, gets, seeks, nexts;
	uint64_t foreign, foreign_values, foreign_nexts, late;
};

struct kindsplit_db {
	int split;
	leveldb_t *one;
	leveldb_t *sub[KINDSPLIT_N];
	leveldb_options_t *opt;
	char *dir;
	leveldb_writebatch_t *wb[KINDSPLIT_N];
	struct kindsplit_count c[KINDSPLIT_N];
	uint64_t gen;	  /* writes so far */
	const char *drop; /* kinds whose puts are left out (drop mode) */
	leveldb_writebatch_t *kept;
};

struct kindsplit_it {
	struct kindsplit_db *d;
	const leveldb_readoptions_t *ro;
	leveldb_iterator_t *sub[KINDSPLIT_N];
	leveldb_iterator_t *cur;
	uint64_t gen; /* the store's writes at the iterator's creation */
	int kind;     /* of the last seek, -1 before */
	int foreign;  /* the key shown is of another kind */
};

static struct {
	leveldb_t *(*open)(const leveldb_options_t *, const char *, char **);
	void (*close)(leveldb_t *);
	char *(*get)(
	    leveldb_t *, const leveldb_readoptions_t *, const char *, size_t, size_t *, char **);
	void (*put)(leveldb_t *, const leveldb_writeoptions_t *, const char *, size_t, const char *,
	    size_t, char **);
	void (*del)(leveldb_t *, const leveldb_writeoptions_t *, const char *, size_t, char **);
	void (*write)(leveldb_t *, const leveldb_writeoptions_t *, leveldb_writebatch_t *, char **);
	leveldb_iterator_t *(*create_iterator)(leveldb_t *, const leveldb_readoptions_t *);
	void (*iter_destroy)(leveldb_iterator_t *);
	uint8_t (*iter_valid)(const leveldb_iterator_t *);
	void (*iter_seek)(leveldb_iterator_t *, const char *, size_t);
	void (*iter_next)(leveldb_iterator_t *);
	const char *(*iter_key)(const leveldb_iterator_t *, size_t *);
	const char *(*iter_value)(const leveldb_iterator_t *, size_t *);
	void (*iter_get_error)(const leveldb_iterator_t *, char **);
} kindsplit_real;

static void kindsplit_die(const char *what)
{
	fprintf(stderr, "kindsplit: %s\n", what);
	abort();
}

static void *kindsplit_sym(const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);

	if (p == NULL)
		kindsplit_die(name);
	return p;
}

static void kindsplit_init(void)
{
	if (kindsplit_real.open != NULL)
		return;
	kindsplit_real.close = kindsplit_sym("leveldb_close");
	kindsplit_real.get = kindsplit_sym("leveldb_get");
	kindsplit_real.put = kindsplit_sym("leveldb_put");
	kindsplit_real.del = kindsplit_sym("leveldb_delete");
	kindsplit_real.write = kindsplit_sym("leveldb_write");
	kindsplit_real.create_iterator = kindsplit_sym("leveldb_create_iterator");
	kindsplit_real.iter_destroy = kindsplit_sym("leveldb_iter_destroy");
	kindsplit_real.iter_valid = kindsplit_sym("leveldb_iter_valid");
	kindsplit_real.iter_seek = kindsplit_sym("leveldb_iter_seek");
	kindsplit_real.iter_next = kindsplit_sym("leveldb_iter_next");
	kindsplit_real.iter_key = kindsplit_sym("leveldb_iter_key");
	kindsplit_real.iter_value = kindsplit_sym("leveldb_iter_value");
	kindsplit_real.iter_get_error = kindsplit_sym("leveldb_iter_get_error");
	kindsplit_real.open = kindsplit_sym("leveldb_open");
	kindsplit_useg =
	    getenv("KINDSPLIT_USEG") != NULL && strcmp(getenv("KINDSPLIT_USEG"), "1") == 0;
}

static int kindsplit_kind(const char *k, size_t kl)
{
	const unsigned char *u = (const unsigned char *)k;

	if (kl == 0)
		kindsplit_die("an empty key has no kind");
	if (!kindsplit_useg || u[0] != 'u')
		return u[0];
	if (kl < 5)
		return 256;
	if (u[1] != 0 || u[2] != 0 || u[3] != 0)
		kindsplit_die("a URI key past segment 255");
	return 256 + u[4];
}

static void kindsplit_name(int kind, char *out, size_t n)
{
	if (kind < 256)
		snprintf(out, n, "%c", kind);
	else
		snprintf(out, n, "u%d", (kind - 256) & 255);
}

/* The key range of a kind, [lo, hi) of ll bytes. */
static size_t kindsplit_range(int kind, char *lo, char *hi)
{
	if (kind < 256) {
		lo[0] = (char)kind;
		hi[0] = (char)(kind + 1);
		return 1;
	}
	memcpy(lo, "u\0\0\0", 4);
	memcpy(hi, "u\0\0\0", 4);
	lo[4] = (char)(kind - 256);
	hi[4] = (char)(kind - 256 + 1);
	if (kind == 511)
		memcpy(hi, "u\0\0\1\0", 5);
	return 5;
}

/* KINDSPLIT_WB="u=10240,s=3840,*=256": the write buffer (memtable) of
 * each kind's store in KiB, "*" for the kinds not named; tern's own when
 * unset. A kind's share of one store's 16 MiB memtable makes its
 * memtable fill as often as in one store, where a single buffer for
 * every kind gives each kind a memtable as large as the whole. */
static void kindsplit_buffer(leveldb_options_t *opt, int kind)
{
	const char *p = getenv("KINDSPLIT_WB");
	char name[8];
	long kib = -1;

	if (p == NULL)
		return;
	kindsplit_name(kind, name, sizeof name);
	while (*p != '\0') {
		size_t n = strcspn(p, "=");
		char *end;
		long v;

		if (p[n] != '=')
			kindsplit_die("KINDSPLIT_WB: KIND=KIB,...");
		v = strtol(p + n + 1, &end, 10);
		if ((n == strlen(name) && strncmp(p, name, n) == 0) ||
		    (kib < 0 && n == 1 && p[0] == '*'))
			kib = v;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0')
			kindsplit_die("KINDSPLIT_WB: KIND=KIB,...");
	}
	if (kib > 0)
		leveldb_options_set_write_buffer_size(opt, (size_t)kib << 10);
}

/* The kind's store, opened when first written (create) or NULL. */
static leveldb_t *kindsplit_sub(struct kindsplit_db *d, int kind, int create, char **err)
{
	char path[4096];

	if (d->sub[kind] != NULL || !create)
		return d->sub[kind];
	snprintf(path, sizeof path, "%s/k-%03x", d->dir, kind);
	kindsplit_buffer(d->opt, kind);
	d->sub[kind] = kindsplit_real.open(d->opt, path, err);
	return d->sub[kind];
}

leveldb_t *leveldb_open(const leveldb_options_t *options, const char *name, char **errptr)
{
	const char *mode = getenv("KINDSPLIT_MODE");
	struct kindsplit_db *d;

	kindsplit_init();
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		kindsplit_die("out of memory");
	d->split = mode != NULL && strcmp(mode, "split") == 0;
	if (mode != NULL && strcmp(mode, "drop") == 0) {
		d->drop = getenv("KINDSPLIT_DROP");
		if (d->drop == NULL || *d->drop == '\0')
			kindsplit_die("KINDSPLIT_MODE=drop needs KINDSPLIT_DROP=KINDS");
		d->kept = leveldb_writebatch_create();
	}
	if (!d->split) {
		d->one = kindsplit_real.open(options, name, errptr);
		if (d->one == NULL) {
			free(d);
			return NULL;
		}
		return (leveldb_t *)d;
	}
	/* The kinds' stores are made as their first writes come; tern's
	 * options stay alive until after its close. */
	mkdir(name, 0755);
	d->dir = strdup(name);
	d->opt = (leveldb_options_t *)options;
	leveldb_options_set_create_if_missing(d->opt, 1);
	leveldb_options_set_error_if_exists(d->opt, 0);
	/* Stores left by an earlier run are opened again, so a reopen sees
	 * what it wrote. */
	for (int k = 0; k < KINDSPLIT_N; k++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof path, "%s/k-%03x", name, k);
		if (stat(path, &st) == 0 && kindsplit_sub(d, k, 1, errptr) == NULL)
			return NULL;
	}
	return (leveldb_t *)d;
}

/* The stats text's level lines summed: files, MB, seconds, MB read and
 * written. */
static void kindsplit_stats(leveldb_t *db, const char *label, const char *kind, double *sum)
{
	char *s = leveldb_property_value(db, "leveldb.stats");
	const char *path = getenv("KINDSPLIT_STATS");
	char *line, *save = NULL;

	memset(sum, 0, 5 * sizeof(*sum));
	if (s == NULL)
		return;
	if (path != NULL) {
		FILE *fp = fopen(path, "a");

		if (fp != NULL) {
			fprintf(fp, "== %s kind %s\n%s\n", label, kind, s);
			fclose(fp);
		}
	}
	for (line = strtok_r(s, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		int level, files;
		double v[4];

		if (sscanf(line, "%d %d %lf %lf %lf %lf", &level, &files, &v[0], &v[1], &v[2],
			&v[3]) == 6) {
			sum[0] += files;
			for (int i = 0; i < 4; i++)
				sum[i + 1] += v[i];
		}
	}
	leveldb_free(s);
}

static uint64_t kindsplit_dir_bytes(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	uint64_t n = 0;

	if (dp == NULL)
		return 0;
	while ((e = readdir(dp)) != NULL) {
		struct stat st;
		size_t l = strlen(e->d_name);

		if (l < 4 ||
		    (strcmp(e->d_name + l - 4, ".ldb") != 0 &&
			strcmp(e->d_name + l - 4, ".log") != 0))
			continue;
		if (fstatat(dirfd(dp), e->d_name, &st, 0) == 0)
			n += (uint64_t)st.st_size;
	}
	closedir(dp);
	return n;
}

static void kindsplit_row(FILE *fp, const char *label, const char *mode, const char *kind,
    const struct kindsplit_count *c, uint64_t live, const double *sum)
{
	fprintf(fp,
	    "%s\t%s\t%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu"
	    "\t%llu\t%.0f\t%.0f\t%.3f\t%.1f\t%.1f\n",
	    label, mode, kind, (unsigned long long)c->puts, (unsigned long long)c->put_kb,
	    (unsigned long long)c->put_vb, (unsigned long long)c->dels,
	    (unsigned long long)c->del_kb, (unsigned long long)c->gets,
	    (unsigned long long)c->seeks, (unsigned long long)c->nexts,
	    (unsigned long long)c->foreign, (unsigned long long)c->foreign_values,
	    (unsigned long long)c->foreign_nexts, (unsigned long long)c->late,
	    (unsigned long long)live, sum[0], sum[1], sum[2], sum[3], sum[4]);
}

static int kindsplit_used(const struct kindsplit_count *c)
{
	return c->puts || c->dels || c->gets || c->seeks;
}

void leveldb_close(leveldb_t *db)
{
	struct kindsplit_db *d = (struct kindsplit_db *)db;
	const char *out = getenv("KINDSPLIT_OUT");
	const char *label = getenv("KINDSPLIT_LABEL");
	FILE *fp = out != NULL ? fopen(out, "a") : NULL;
	double sum[5], none[5] = {0, 0, 0, 0, 0};
	char kname[8];

	if (label == NULL)
		label = "-";
	if (!d->split) {
		if (fp != NULL) {
			struct kindsplit_count all;

			memset(&all, 0, sizeof(all));
			for (int k = 0; k < KINDSPLIT_N; k++) {
				char lo[5], hi[5];
				const char *s[1] = {lo}, *l[1] = {hi};
				size_t sl[1], ll[1];
				uint64_t live = 0;

				if (!kindsplit_used(&d->c[k]))
					continue;
				sl[0] = ll[0] = kindsplit_range(k, lo, hi);
				if (k != 255)
					leveldb_approximate_sizes(d->one, 1, s, sl, l, ll, &live);
				kindsplit_name(k, kname, sizeof kname);
				kindsplit_row(fp, label, "count", kname, &d->c[k], live, none);
			}
			kindsplit_stats(d->one, label, "*", sum);
			kindsplit_row(fp, label, "count", "*", &all, 0, sum);
		}
		kindsplit_real.close(d->one);
	} else {
		for (int k = 0; k < KINDSPLIT_N; k++) {
			char path[4096];

			if (d->sub[k] == NULL && !kindsplit_used(&d->c[k]))
				continue;
			memcpy(sum, none, sizeof(sum));
			kindsplit_name(k, kname, sizeof kname);
			if (d->sub[k] != NULL) {
				kindsplit_stats(d->sub[k], label, kname, sum);
				kindsplit_real.close(d->sub[k]);
			}
			if (d->wb[k] != NULL)
				leveldb_writebatch_destroy(d->wb[k]);
			snprintf(path, sizeof path, "%s/k-%03x", d->dir, k);
			if (fp != NULL)
				kindsplit_row(fp, label, "split", kname, &d->c[k],
				    kindsplit_dir_bytes(path), sum);
		}
		free(d->dir);
	}
	if (fp != NULL)
		fclose(fp);
	free(d);
}

char *leveldb_get(leveldb_t *db, const leveldb_readoptions_t *options, const char *key,
    size_t keylen, size_t *vallen, char **errptr)
{
	struct kindsplit_db *d = (struct kindsplit_db *)db;
	int k = kindsplit_kind(key, keylen);
	leveldb_t *s;

	d->c[k].gets++;
	if (!d->split)
		return kindsplit_real.get(d->one, options, key, keylen, vallen, errptr);
	s = kindsplit_sub(d, k, 0, errptr);
	if (s == NULL) {
		*vallen = 0;
		return NULL;
	}
	return kindsplit_real.get(s, options, key, keylen, vallen, errptr);
}

void leveldb_put(leveldb_t *db, const leveldb_writeoptions_t *options, const char *key,
    size_t keylen, const char *val, size_t vallen, char **errptr)
{
	struct kindsplit_db *d = (struct kindsplit_db *)db;
	int k = kindsplit_kind(key, keylen);
	leveldb_t *s = d->one;

	d->c[k].puts++;
	d->c[k].put_kb += keylen;
	d->c[k].put_vb += vallen;
	d->gen++;
	if (d->drop != NULL && keylen > 0 && strchr(d->drop, key[0]) != NULL)
		return;
	if (d->split && (s = kindsplit_sub(d, k, 1, errptr)) == NULL)
		return;
	kindsplit_real.put(s, options, key, keylen, val, vallen, errptr);
}

void leveldb_delete(leveldb_t *db, const leveldb_writeoptions_t *options, const char *key,
    size_t keylen, char **errptr)
{
	struct kindsplit_db *d = (struct kindsplit_db *)db;
	int k = kindsplit_kind(key, keylen);
	leveldb_t *s = d->one;

	d->c[k].dels++;
	d->c[k].del_kb += keylen;
	d->gen++;
	if (d->split && (s = kindsplit_sub(d, k, 1, errptr)) == NULL)
		return;
	kindsplit_real.del(s, options, key, keylen, errptr);
}

static void kindsplit_batch_put(void *arg, const char *k, size_t kl, const char *v, size_t vl)
{
	struct kindsplit_db *d = arg;
	int kind = kindsplit_kind(k, kl);

	d->c[kind].puts++;
	d->c[kind].put_kb += kl;
	d->c[kind].put_vb += vl;
	if (d->drop != NULL && kl > 0 && strchr(d->drop, k[0]) == NULL)
		leveldb_writebatch_put(d->kept, k, kl, v, vl);
	if (!d->split)
		return;
	if (d->wb[kind] == NULL)
		d->wb[kind] = leveldb_writebatch_create();
	leveldb_writebatch_put(d->wb[kind], k, kl, v, vl);
}

static void kindsplit_batch_del(void *arg, const char *k, size_t kl)
{
	struct kindsplit_db *d = arg;
	int kind = kindsplit_kind(k, kl);

	d->c[kind].dels++;
	d->c[kind].del_kb += kl;
	if (d->drop != NULL)
		leveldb_writebatch_delete(d->kept, k, kl);
	if (!d->split)
		return;
	if (d->wb[kind] == NULL)
		d->wb[kind] = leveldb_writebatch_create();
	leveldb_writebatch_delete(d->wb[kind], k, kl);
}

/* A batch is atomic in one store only: the split build is for measuring,
 * never for a crawl that must survive a kill. */
void leveldb_write(leveldb_t *db, const leveldb_writeoptions_t *options,
    leveldb_writebatch_t *batch, char **errptr)
{
	struct kindsplit_db *d = (struct kindsplit_db *)db;

	d->gen++;
	leveldb_writebatch_iterate(batch, d, kindsplit_batch_put, kindsplit_batch_del);
	if (d->drop != NULL) {
		kindsplit_real.write(d->one, options, d->kept, errptr);
		leveldb_writebatch_clear(d->kept);
		return;
	}
	if (!d->split) {
		return;
	}
	for (int k = 0; k < KINDSPLIT_N; k++) {
		leveldb_t *s;

		if (d->wb[k] == NULL)
			continue;
		s = kindsplit_sub(d, k, 1, errptr);
		if (s != NULL && (errptr == NULL || *errptr == NULL))
			kindsplit_real.write(s, options, d->wb[k], errptr);
		leveldb_writebatch_clear(d->wb[k]);
	}
}

leveldb_iterator_t *leveldb_create_iterator(leveldb_t *db, const leveldb_readoptions_t *options)
{
	struct kindsplit_db *d = (struct kindsplit_db *)db;
	struct kindsplit_it *it = calloc(1, sizeof(*it));

	if (it == NULL)
		kindsplit_die("out of memory");
	it->d = d;
	it->ro = options;
	it->gen = d->gen;
	it->kind = -1;
	if (!d->split)
		it->cur = kindsplit_real.create_iterator(d->one, options);
	return (leveldb_iterator_t *)it;
}

void leveldb_iter_destroy(leveldb_iterator_t *iter)
{
	struct kindsplit_it *it = (struct kindsplit_it *)iter;

	if (!it->d->split)
		kindsplit_real.iter_destroy(it->cur);
	else
		for (int k = 0; k < KINDSPLIT_N; k++)
			if (it->sub[k] != NULL)
				kindsplit_real.iter_destroy(it->sub[k]);
	free(it);
}

uint8_t leveldb_iter_valid(const leveldb_iterator_t *iter)
{
	const struct kindsplit_it *it = (const struct kindsplit_it *)iter;

	return it->cur != NULL && kindsplit_real.iter_valid(it->cur);
}

void leveldb_iter_seek(leveldb_iterator_t *iter, const char *k, size_t klen)
{
	struct kindsplit_it *it = (struct kindsplit_it *)iter;
	struct kindsplit_db *d = it->d;

	it->kind = kindsplit_kind(k, klen);
	it->foreign = 0;
	d->c[it->kind].seeks++;
	if (d->split) {
		if (it->sub[it->kind] == NULL && kindsplit_sub(d, it->kind, 0, NULL) != NULL) {
			if (d->gen != it->gen)
				d->c[it->kind].late++;
			it->sub[it->kind] =
			    kindsplit_real.create_iterator(d->sub[it->kind], it->ro);
		}
		it->cur = it->sub[it->kind];
		if (it->cur == NULL)
			return;
	}
	kindsplit_real.iter_seek(it->cur, k, klen);
}

void leveldb_iter_next(leveldb_iterator_t *iter)
{
	struct kindsplit_it *it = (struct kindsplit_it *)iter;

	if (it->kind < 0)
		kindsplit_die("a step before any seek");
	it->d->c[it->kind].nexts++;
	if (it->foreign)
		it->d->c[it->kind].foreign_nexts++;
	kindsplit_real.iter_next(it->cur);
}

const char *leveldb_iter_key(const leveldb_iterator_t *iter, size_t *klen)
{
	struct kindsplit_it *it = (struct kindsplit_it *)iter;
	const char *k = kindsplit_real.iter_key(it->cur, klen);

	if (*klen == 0 || kindsplit_kind(k, *klen) != it->kind) {
		if (!it->foreign)
			it->d->c[it->kind].foreign++;
		it->foreign = 1;
	}
	return k;
}

const char *leveldb_iter_value(const leveldb_iterator_t *iter, size_t *vlen)
{
	const struct kindsplit_it *it = (const struct kindsplit_it *)iter;

	if (it->foreign)
		it->d->c[it->kind].foreign_values++;
	return kindsplit_real.iter_value(it->cur, vlen);
}

void leveldb_iter_get_error(const leveldb_iterator_t *iter, char **errptr)
{
	const struct kindsplit_it *it = (const struct kindsplit_it *)iter;

	if (it->cur != NULL)
		kindsplit_real.iter_get_error(it->cur, errptr);
}

/* What tern does not use is refused rather than passed a handle of ours. */
void leveldb_iter_seek_to_first(leveldb_iterator_t *iter)
{
	(void)iter;
	kindsplit_die("leveldb_iter_seek_to_first spans every kind");
}

void leveldb_iter_seek_to_last(leveldb_iterator_t *iter)
{
	(void)iter;
	kindsplit_die("leveldb_iter_seek_to_last spans every kind");
}

void leveldb_iter_prev(leveldb_iterator_t *iter)
{
	(void)iter;
	kindsplit_die("leveldb_iter_prev is not wrapped");
}

const leveldb_snapshot_t *leveldb_create_snapshot(leveldb_t *db)
{
	(void)db;
	kindsplit_die("leveldb_create_snapshot is not wrapped");
	return NULL;
}
