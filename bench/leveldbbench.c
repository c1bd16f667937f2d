/* LevelDB's own insert cost on this machine: the floor the frontier's store
 * is compared with (doc/performance.md, "Frontier cost at scale").
 *
 *   bench/leveldbbench [-r] [-s] [-o] [-S KEYS] [-v BYTES] [-k BYTES] [-b BATCH] [-w MB] [-f MB] N DIR
 *
 * Writes N keys in batches of BATCH (default 1000, no sync), as the
 * frontier writes one batch per loop iteration, into a new database under
 * DIR with the frontier's options (8 MiB cache, Bloom filter of 10 bits a
 * key, Snappy) and a write buffer of -w MB (default 4) and tables of -f MB
 * (default LevelDB's 2). Keys are -k bytes (default 17: a kind byte and a
 * 128-bit fingerprint), random with -r (the seen set), else increasing (a
 * queue's appends); values -v bytes (default 0) of incompressible bytes.
 * Prints, per tenth of N, the process's CPU time (user+sys, every thread:
 * LevelDB compacts in its own) per key inserted in that tenth, so that the
 * growth of the cost with the store's size shows. -s (with -r) separates
 * keys from values as WiscKey does: each entry is then a random key with an
 * empty value plus the value under an increasing 9-byte key ('l' and a
 * big-endian ordinal), two writes in the same batch. -o (without -s) puts
 * each batch in key order before writing it, as the frontier does
 * (store.c); the CPU spent inside leveldb_write on the writing thread (the
 * memtable inserts and the log) is printed apart at the end. -S KEYS (with
 * -r) puts a time segment before the random bytes, as the frontier's URI
 * keys do (doc/frontier.md): a 4-byte big-endian number advancing every
 * KEYS keys, so that each key is random only within its segment. */
#include <leveldb/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static size_t leveldbbench_klen;

static int leveldbbench_cmp(const void *a, const void *b)
{
	return memcmp(a, b, leveldbbench_klen);
}

static double leveldbbench_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* splitmix64: the keys' and values' bytes. */
static uint64_t leveldbbench_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	size_t vlen = 0, klen = 17, batch = 1000, wmb = 4, fmb = 2, seg = 0, n, i, j;
	int random = 0, split = 0, sorted = 0, opt;
	double wt = 0;
	char *keys = NULL;
	char *err = NULL, key[64], *val, path[4096];
	uint64_t seed = 1;
	double t0, last;
	leveldb_options_t *o;
	leveldb_writeoptions_t *wo;
	leveldb_writebatch_t *wb;
	leveldb_cache_t *cache;
	leveldb_filterpolicy_t *fp;
	leveldb_t *db;

	while ((opt = getopt(argc, argv, "rsoS:v:k:b:w:f:")) != -1) {
		switch (opt) {
		case 'r':
			random = 1;
			break;
		case 's':
			split = 1;
			break;
		case 'o':
			sorted = 1;
			break;
		case 'S':
			seg = strtoul(optarg, NULL, 10);
			break;
		case 'v':
			vlen = strtoul(optarg, NULL, 10);
			break;
		case 'k':
			klen = strtoul(optarg, NULL, 10);
			break;
		case 'b':
			batch = strtoul(optarg, NULL, 10);
			break;
		case 'w':
			wmb = strtoul(optarg, NULL, 10);
			break;
		case 'f':
			fmb = strtoul(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2 || klen < 9 || klen > sizeof(key) || batch == 0 ||
	    (seg > 0 && (!random || split)))
		goto usage;
	n = strtoul(argv[optind], NULL, 10);
	snprintf(path, sizeof(path), "%s/leveldbbench.%ld", argv[optind + 1], (long)getpid());
	o = leveldb_options_create();
	leveldb_options_set_create_if_missing(o, 1);
	leveldb_options_set_error_if_exists(o, 1);
	cache = leveldb_cache_create_lru(8 << 20);
	leveldb_options_set_cache(o, cache);
	fp = leveldb_filterpolicy_create_bloom(10);
	leveldb_options_set_filter_policy(o, fp);
	leveldb_options_set_compression(o, leveldb_snappy_compression);
	leveldb_options_set_write_buffer_size(o, wmb << 20);
	leveldb_options_set_max_file_size(o, fmb << 20);
	leveldb_options_set_max_open_files(o, 64);
	db = leveldb_open(o, path, &err);
	if (err != NULL) {
		fprintf(stderr, "leveldbbench: %s: %s\n", path, err);
		return 1;
	}
	wo = leveldb_writeoptions_create();
	wb = leveldb_writebatch_create();
	val = malloc(vlen + 8);
	keys = malloc(batch * klen);
	printf(
	    "# %zu keys of %zu bytes (%s%s), values of %zu bytes%s, batches of %zu, write buffer %zu MB, tables %zu MB\n",
	    n, klen, random ? "random" : "increasing", seg > 0 ? " in segments" : "", vlen,
	    split ? " under increasing keys apart" : "", batch, wmb, fmb);
	printf("# keys_so_far\tus_per_key_in_this_tenth\n");
	t0 = last = leveldbbench_cpu();
	for (i = 0; i < n;) {
		size_t nb = 0;
		struct timespec a0, a1;

		for (j = 0; j < batch && i < n; j++, i++) {
			uint64_t a = random ? leveldbbench_next(&seed) : i,
				 b = leveldbbench_next(&seed);
			size_t p;

			key[0] = 's';
			for (p = 0; p < 8; p++)
				key[1 + p] = (char)(a >> (56 - 8 * p));
			for (p = 9; p < klen; p++)
				key[p] = (char)(b >> (8 * (p % 8)));
			if (seg > 0) {
				uint32_t g = (uint32_t)(i / seg);

				memmove(key + 5, key + 1, klen - 5);
				for (p = 0; p < 4; p++)
					key[1 + p] = (char)(g >> (24 - 8 * p));
			}
			for (p = 0; p < vlen; p += 8) {
				uint64_t r = leveldbbench_next(&seed);
				memcpy(val + p, &r, 8);
			}
			if (split) {
				char lk[9];

				leveldb_writebatch_put(wb, key, klen, "", 0);
				lk[0] = 'l';
				for (p = 0; p < 8; p++)
					lk[1 + p] = (char)((uint64_t)i >> (56 - 8 * p));
				leveldb_writebatch_put(wb, lk, sizeof(lk), val, vlen);
			} else if (sorted) {
				memcpy(keys + nb++ * klen, key, klen);
			} else {
				leveldb_writebatch_put(wb, key, klen, val, vlen);
			}
		}
		if (sorted) {
			leveldbbench_klen = klen;
			qsort(keys, nb, klen, leveldbbench_cmp);
			for (j = 0; j < nb; j++)
				leveldb_writebatch_put(wb, keys + j * klen, klen, val, vlen);
		}
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a0);
		leveldb_write(db, wo, wb, &err);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a1);
		wt += a1.tv_sec - a0.tv_sec + (a1.tv_nsec - a0.tv_nsec) / 1e9;
		if (err != NULL) {
			fprintf(stderr, "leveldbbench: %s\n", err);
			return 1;
		}
		leveldb_writebatch_clear(wb);
		if (i % (n / 10 > 0 ? n / 10 : 1) < batch || i == n) {
			double now = leveldbbench_cpu();

			printf("%zu\t%.2f\n", i, (now - last) * 1e6 / (n / 10 > 0 ? n / 10 : 1));
			fflush(stdout);
			last = now;
		}
	}
	/* Compactions still owed run in the background thread until close. */
	leveldb_close(db);
	printf("# total %.2f s CPU, %.2f us a key (with the compactions finished at close); "
	       "in leveldb_write on this thread %.2f us a key\n",
	    leveldbbench_cpu() - t0, (leveldbbench_cpu() - t0) * 1e6 / (n > 0 ? n : 1),
	    wt * 1e6 / (n > 0 ? n : 1));
	leveldb_destroy_db(o, path, &err);
	leveldb_free(err);
	leveldb_writebatch_destroy(wb);
	leveldb_writeoptions_destroy(wo);
	leveldb_options_destroy(o);
	leveldb_cache_destroy(cache);
	leveldb_filterpolicy_destroy(fp);
	free(val);
	free(keys);
	return 0;
usage:
	fprintf(stderr,
	    "usage: bench/leveldbbench [-r] [-s] [-o] [-S KEYS] [-v BYTES] [-k BYTES] [-b BATCH] [-w MB] [-f MB] N DIR\n");
	return 2;
}
