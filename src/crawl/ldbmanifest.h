/* Reads a LevelDB MANIFEST (the log of version edits, LevelDB's
 * doc/log_format.md and db/version_edit.cc) and says which table files the
 * last version names, with their sizes: what a checkpoint must freeze, and
 * nothing more (a table LevelDB was still writing must not be frozen: a
 * restored store would reuse its number). Pure: no I/O. Every record's
 * CRC-32C is checked; a record cut short at the end (a MANIFEST being
 * appended to while read) ends the log, as LevelDB's own reader does. */
#ifndef TERN_LDBMANIFEST_H
#define TERN_LDBMANIFEST_H
#include <stddef.h>
#include <stdint.h>

struct ldbmanifest_table {
	int level;
	uint64_t number; /* the file is NNNNNN.ldb (or .sst) */
	uint64_t size;	 /* its length in bytes */
};

struct ldbmanifest {
	struct ldbmanifest_table *tables; /* sorted by number */
	size_t ntables;
	uint64_t log_number; /* logs from this number on are replayed */
	uint64_t prev_log_number;
	uint64_t next_file_number;
	uint64_t last_sequence;
	size_t edits; /* version edits read */
	size_t used;  /* bytes up to the end of the last whole record */
};

/* Parses len bytes of a MANIFEST. Returns 0 and fills m (free it with
 * ldbmanifest_free), or -1 with a message. */
int ldbmanifest_parse(const unsigned char *data, size_t len, struct ldbmanifest *m, char **err);
void ldbmanifest_free(struct ldbmanifest *m);
/* CRC-32C (Castagnoli) as LevelDB uses it, before masking. */
uint32_t ldbmanifest_crc32c(uint32_t crc, const unsigned char *p, size_t n);

#endif
