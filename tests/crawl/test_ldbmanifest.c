/* The MANIFEST reader against LevelDB itself: for stores grown through
 * memtable flushes and compactions, the live tables it reads must be exactly
 * those LevelDB reports (the "leveldb.sstables" property), with the same
 * sizes; every prefix of a MANIFEST parses or fails cleanly; damaged bytes
 * are refused by the checksum; table-driven hostile records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <leveldb/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "crawl/ldbmanifest.h"
#include "lib/xmalloc.h"

static int test_ldbmanifest_rm_cb(
    const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void test_ldbmanifest_read(const char *dir, struct buf *out)
{
	char path[256], cur[128], chunk[4096];
	FILE *fp;
	size_t n;

	snprintf(path, sizeof path, "%s/CURRENT", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(cur, sizeof cur, fp));
	fclose(fp);
	cur[strcspn(cur, "\n")] = '\0';
	snprintf(path, sizeof path, "%s/%s", dir, cur);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	buf_reset(out);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_append(out, chunk, n);
	fclose(fp);
}

/* "number:size" of every table LevelDB lists, sorted by number. */
static void test_ldbmanifest_oracle(leveldb_t *db, struct buf *out)
{
	char *p = leveldb_property_value(db, "leveldb.sstables"), *line, *save = NULL;
	unsigned long long nums[4096], sizes[4096];
	size_t n = 0;

	assert_non_null(p);
	for (line = strtok_r(p, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " %llu:%llu[", &nums[n], &sizes[n]) == 2)
			n++;
		assert_true(n < 4096);
	}
	leveldb_free(p);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (nums[j] < nums[i]) {
				unsigned long long t = nums[i], u = sizes[i];
				nums[i] = nums[j];
				sizes[i] = sizes[j];
				nums[j] = t;
				sizes[j] = u;
			}
	buf_reset(out);
	for (size_t i = 0; i < n; i++)
		buf_appendf(out, "%llu:%llu\n", nums[i], sizes[i]);
}

static void test_ldbmanifest_mine(const struct ldbmanifest *m, struct buf *out)
{
	buf_reset(out);
	for (size_t i = 0; i < m->ntables; i++)
		buf_appendf(out, "%llu:%llu\n", (unsigned long long)m->tables[i].number,
		    (unsigned long long)m->tables[i].size);
}

static void test_ldbmanifest_against_leveldb(void **state)
{
	char dir[] = "/tmp/test_ldbmanifest.XXXXXX", *lerr = NULL, *err = NULL;
	leveldb_options_t *o = leveldb_options_create();
	leveldb_writeoptions_t *wo = leveldb_writeoptions_create();
	struct buf want = BUF_INIT, got = BUF_INIT, man = BUF_INIT;
	struct ldbmanifest m;
	leveldb_t *db;
	int checked = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	leveldb_options_set_create_if_missing(o, 1);
	leveldb_options_set_write_buffer_size(o, 256 << 10);
	db = leveldb_open(o, dir, &lerr);
	assert_null(lerr);
	for (int round = 0; round < 40; round++) {
		char k[64], v[200];
		for (int i = 0; i < 3000; i++) {
			/* Overwrites and deletions make compactions drop files. */
			int key = (round * 1777 + i * 31) % 50000;
			snprintf(k, sizeof k, "key%08d", key);
			memset(v, 'a' + round % 26, sizeof v);
			if (i % 7 == 0)
				leveldb_delete(db, wo, k, strlen(k), &lerr);
			else
				leveldb_put(db, wo, k, strlen(k), v, sizeof v, &lerr);
			assert_null(lerr);
		}
		if (round % 10 == 9)
			leveldb_compact_range(db, NULL, 0, NULL, 0);
		/* The MANIFEST is written before LevelDB installs the version
		 * it describes, and the background thread may be mid-flush:
		 * compare once LevelDB's view is settled (the same before and
		 * after reading the file, and the file agreeing). */
		for (int tries = 0; tries < 100; tries++) {
			struct buf again = BUF_INIT;
			int same;

			test_ldbmanifest_oracle(db, &want);
			test_ldbmanifest_read(dir, &man);
			if (ldbmanifest_parse((const unsigned char *)man.data, man.len, &m, &err) <
			    0)
				fail_msg("round %d: %s", round, err);
			test_ldbmanifest_mine(&m, &got);
			assert_true(m.used <= man.len);
			assert_true(m.next_file_number > 0);
			ldbmanifest_free(&m);
			test_ldbmanifest_oracle(db, &again);
			same = strcmp(again.data, want.data) == 0;
			buf_free(&again);
			if (same && strcmp(got.data, want.data) == 0) {
				checked++;
				break;
			}
			usleep(20000);
		}
	}
	assert_int_equal(checked, 40);

	/* Every prefix parses (a MANIFEST being appended to) or fails with a
	 * message; none uses more than it was given. */
	for (size_t len = 0; len <= man.len; len += 1 + len / 50) {
		if (ldbmanifest_parse((const unsigned char *)man.data, len, &m, &err) == 0) {
			assert_true(m.used <= len);
			ldbmanifest_free(&m);
		} else {
			assert_non_null(err);
			free(err);
			err = NULL;
		}
	}
	/* A flipped byte inside a record is a checksum mismatch. */
	man.data[10] ^= 0x20;
	assert_int_equal(ldbmanifest_parse((const unsigned char *)man.data, man.len, &m, &err), -1);
	assert_non_null(strstr(err, "checksum"));
	free(err);

	leveldb_close(db);
	leveldb_options_destroy(o);
	leveldb_writeoptions_destroy(wo);
	buf_free(&want);
	buf_free(&got);
	buf_free(&man);
	nftw(dir, test_ldbmanifest_rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* One record of type t around payload p (a valid checksum). */
static void test_ldbmanifest_record(struct buf *b, int t, const char *p, size_t n)
{
	unsigned char h[7];
	unsigned char *tmp = xmalloc(n + 1);
	uint32_t crc, masked;

	tmp[0] = (unsigned char)t;
	memcpy(tmp + 1, p, n);
	crc = ldbmanifest_crc32c(0, tmp, n + 1);
	free(tmp);
	masked = ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
	h[0] = masked & 0xff;
	h[1] = (masked >> 8) & 0xff;
	h[2] = (masked >> 16) & 0xff;
	h[3] = masked >> 24;
	h[4] = n & 0xff;
	h[5] = (n >> 8) & 0xff;
	h[6] = (unsigned char)t;
	buf_append(b, (const char *)h, 7);
	buf_append(b, p, n);
}

/* A byte string and its length without the terminating NUL. */
#define E(s) s, sizeof(s) - 1

static void test_ldbmanifest_hostile(void **state)
{
	static const struct {
		const char *edit; /* the payload, as bytes */
		size_t len;
		int type;
		int ok;
		size_t tables;
		const char *msg;
	} cases[] = {
	    /* new file: level 0, number 5, size 100, keys "a" "b" */
	    {E("\x07\x00\x05\x64\x01"
	       "a"
	       "\x01"
	       "b"),
		1, 1, 1, NULL},
	    /* add then delete in later edit handled below; unknown tag */
	    {E("\x08\x00"), 1, 0, 0, "unknown tag"},
	    /* level out of range */
	    {E("\x07\x09\x05\x64\x01"
	       "a"
	       "\x01"
	       "b"),
		1, 0, 0, "malformed"},
	    /* key length beyond the record */
	    {E("\x07\x00\x05\x64\x7f"
	       "a"),
		1, 0, 0, "malformed"},
	    /* varint that never ends */
	    {E("\x03\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"), 1, 0, 0, "malformed"},
	    /* a LAST fragment with no FIRST */
	    {E("\x02\x05"), 4, 0, 0, "out of order"},
	    /* an unknown record type */
	    {E("\x02\x05"), 9, 0, 0, "record type"},
	    /* an empty edit: no tables */
	    {E(""), 1, 1, 0, NULL},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf b = BUF_INIT;
		struct ldbmanifest m;
		char *err = NULL;
		int rc;

		test_ldbmanifest_record(&b, cases[i].type, cases[i].edit, cases[i].len);
		rc = ldbmanifest_parse((const unsigned char *)b.data, b.len, &m, &err);
		if (cases[i].ok) {
			if (rc < 0)
				fail_msg("case %zu: %s", i, err);
			assert_int_equal(m.ntables, cases[i].tables);
			ldbmanifest_free(&m);
		} else {
			assert_int_equal(rc, -1);
			if (strstr(err, cases[i].msg) == NULL)
				fail_msg("case %zu: %s", i, err);
			free(err);
		}
		buf_free(&b);
	}
	{
		/* Fragments over two records; a deletion in a later edit wins,
		 * an addition in the same edit as a deletion wins. */
		struct buf b = BUF_INIT;
		struct ldbmanifest m;
		char *err = NULL;

		test_ldbmanifest_record(&b, 2, E("\x07\x00\x05\x64"));
		test_ldbmanifest_record(&b, 4,
		    E("\x01"
		      "a"
		      "\x01"
		      "b"
		      "\x07\x01\x06\x10\x01"
		      "a"
		      "\x01"
		      "b"));
		test_ldbmanifest_record(&b, 1, E("\x06\x00\x05"));
		test_ldbmanifest_record(&b, 1,
		    E("\x07\x01\x06\x10\x01"
		      "a"
		      "\x01"
		      "b"
		      "\x06\x01\x06"));
		assert_int_equal(
		    ldbmanifest_parse((const unsigned char *)b.data, b.len, &m, &err), 0);
		assert_int_equal(m.edits, 3);
		assert_int_equal(m.ntables, 1);
		assert_int_equal(m.tables[0].number, 6);
		assert_int_equal(m.tables[0].level, 1);
		assert_int_equal(m.tables[0].size, 16);
		ldbmanifest_free(&m);
		buf_free(&b);
	}
	/* CRC-32C check value. */
	assert_int_equal(ldbmanifest_crc32c(0, (const unsigned char *)"123456789", 9), 0xe3069283);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ldbmanifest_against_leveldb),
	    cmocka_unit_test(test_ldbmanifest_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
