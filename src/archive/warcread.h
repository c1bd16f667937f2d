/* Reader for the WARC files tern writes: gzip members of exactly one record
 * each, which is what gives every record its own (offset, length) in an
 * index. It streams: a block of any size is digested while only its first
 * max_block bytes are kept. Used by `tern warc-index`, `tern wacz` and the
 * tests. */
#ifndef TERN_WARCREAD_H
#define TERN_WARCREAD_H
#include <stdint.h>
#include <stdio.h>
#include "lib/buf.h"
#include "archive/digest.h"

/* Cap on the WARC header text of one record. */
#define WARCREAD_MAX_HEADER (64u << 10)

struct warcread_record {
	uint64_t offset;		  /* of the record's gzip member in the file */
	uint64_t length;		  /* compressed length of that member */
	struct buf header;		  /* "WARC/1.1\r\n" ... up to the blank line */
	struct buf block;		  /* the first max_block bytes of the block */
	uint64_t block_len;		  /* Content-Length */
	char block_digest[DIGEST_STRLEN]; /* computed over the whole block ("" if not asked) */
};

struct warcread;

struct warcread *warcread_new(FILE *fp, size_t max_block);
void warcread_free(struct warcread *r);
/* Whether block_digest is computed (it is unless told otherwise): an index
 * does not need it, and SHA-1 is a fifth of the cost of reading. */
void warcread_digest_blocks(struct warcread *r, int on);
void warcread_record_init(struct warcread_record *rec);
void warcread_record_free(struct warcread_record *rec);
/* 1: a record was read into rec; 0: clean end of file; -1: malformed or
 * unreadable input, with a message giving the offset. */
int warcread_next(struct warcread *r, struct warcread_record *rec, char **err);
/* Copies the value of a header field (case-insensitive name, first
 * occurrence, surrounding blanks removed) into out; -1 if absent. */
int warcread_header(const struct warcread_record *rec, const char *name, struct buf *out);
/* The WARC-Target-URI, without the angle brackets of WARC/1.0's grammar
 * ("<http://...>", as GNU wget writes it); -1 if absent. */
int warcread_target_uri(const struct warcread_record *rec, struct buf *out);

#endif
