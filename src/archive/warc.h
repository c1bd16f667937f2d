/* WARC writer: WARC/1.1 (or 1.0) records, one gzip member per record, written
 * through a large buffer into JOBDIR/warcs files rotated at a maximum size and
 * named PREFIX-YYYYMMDDHHMMSSmmm-SERIAL-PID~HOST~PORT.warc.gz (".open" while
 * being written). See doc/warc.md for the record layout. */
#ifndef TERN_WARC_H
#define TERN_WARC_H
#include <stddef.h>
#include <stdint.h>
#include "lib/buf.h"

struct warc_opts {
	const char *dir; /* created if missing (one level) */
	const char *prefix;
	uint64_t max_size;    /* rotate before a capture would cross it */
	int version10;	      /* write WARC/1.0 headers and profile URIs */
	const char *software; /* "tern/0.1.0" */
	const char *hostname;
	int port;
	unsigned first_serial;
	const char *warcinfo_extra; /* "key: value\r\n" lines */
	/* Compression level 1-9; 0: the default, 1 (see doc/warc.md). */
	int level;
};

struct warc_writer;

struct warc_writer *warc_open(const struct warc_opts *o, char **err);

struct warc_capture {
	const char *uri;
	const char *ip;
	uint64_t date_us; /* wall clock of the fetch start */
	const char *req;  /* request bytes exactly as sent */
	size_t req_len;
	/* Final status line and headers as received, including the blank line.
	 * The body below has its transfer coding removed, so a Transfer-Encoding
	 * header is stored renamed as X-Orig-Transfer-Encoding (doc/warc.md). */
	const char *resp_head;
	size_t resp_head_len;
	const char *payload; /* entity body: de-chunked, content coding kept */
	size_t payload_len;
	int payload_fd; /* spill file read with pread when payload is NULL */
	uint64_t payload_fd_len;
	const char *payload_digest; /* "sha1:..." over the payload; NULL: computed here */
	const char *truncated;	    /* NULL, "length", "time" */
	const char *refers_to_uri;  /* set: write a revisit instead of a response */
	const char *refers_to_date;
	/* With refers_to_*: the response is a 304 to a conditional request,
	 * written with the server-not-modified profile (WARC 1.1 section
	 * 6.7.2): the block is the whole 304 response, and payload_digest
	 * names the earlier content it confirms (as Heritrix does). Without:
	 * the identical-payload-digest profile. */
	int not_modified;
	const char *via; /* metadata record, written when any is set */
	const char *hops;
	/* The metadata record's outlinks: "URI HOP" lines, each ended by a
	 * newline (the last may not be); empty lines are skipped. */
	const char *outlinks;
	size_t outlinks_len;
	/* An HTML page's <title> ("" when it has none), written as the
	 * metadata record's "title" field for `tern wacz`'s list of pages;
	 * NULL when no HTML was parsed. */
	const char *title;
	/* How the exchange went over the network (doc/warc.md): "h2" or
	 * "http/1.1", the TLS version ("tls/1.3") and the cipher suite's IANA
	 * name, each NULL when unknown or not used; written as WARC-Protocol
	 * and WARC-Cipher-Suite on the response (or revisit) and request. */
	const char *protocol;
	const char *tls_version;
	const char *cipher;
};

struct warc_ids {
	char response_id[48];	 /* "<urn:uuid:...>" of the response or revisit */
	char date[32];		 /* its WARC-Date */
	char payload_digest[40]; /* its WARC-Payload-Digest */
};

/* Queues request + response (or revisit) + optional metadata, each its own
 * gzip member, in one file. Returns 0 when queued; they are on disk once a
 * later warc_flush returns 0. A negative return means nothing of this capture
 * was queued (unreadable spill file, or an earlier write error still pending:
 * warc_flush must succeed first). */
int warc_write_http(
    struct warc_writer *w, const struct warc_capture *c, struct warc_ids *ids, char **err);
/* A "dns:HOST" response record of type text/dns; rr_text is the block as the
 * caller formats it (Heritrix: the 14-digit fetch time, then one RR a line). */
int warc_write_dns(struct warc_writer *w, const char *host, const char *server_ip, uint64_t date_us,
    const char *rr_text, size_t len, char **err);
/* Writes everything queued. On failure (ENOSPC, EIO) the unwritten bytes stay
 * queued and the message says so: pause, free space, call it again. */
int warc_flush(struct warc_writer *w, char **err);
/* The WARC-Date a capture fetched at date_us gets: what dedup_check needs
 * before the capture is written. */
void warc_date_format(const struct warc_writer *w, uint64_t date_us, char out[32]);
/* 0 while an earlier write error is pending (records are refused until
 * warc_flush succeeds), 1 otherwise: a caller asks before it records
 * anything that depends on the capture being written (a dedup entry). */
int warc_writable(const struct warc_writer *w);
/* Building apart from queueing (archive/warcpool.c builds on other threads).
 * An engine is what building needs for itself (scratch, digest, compressors):
 * one thread uses it at a time. Make engines on the loop's thread (the
 * digest's first use there sets up what every copy shares). */
struct warc_engine;
struct warc_engine *warc_engine_new(const struct warc_writer *w);
void warc_engine_free(struct warc_engine *e);
/* The writer's own engine, for building on the loop's thread. */
struct warc_engine *warc_loop_engine(struct warc_writer *w);

/* The file records are built for: each names its file's warcinfo record. */
struct warc_stamp {
	unsigned file; /* the writer's count of files opened */
	int version10;
	char warcinfo_id[48];
};

/* Loop side, before building: the checks of warc_write_http (or _dns),
 * then a file to build for, opened now if none is, and no write error
 * pending. Fills the stamp to build with. */
int warc_begin_http(
    struct warc_writer *w, const struct warc_capture *c, struct warc_stamp *s, char **err);
int warc_begin_dns(struct warc_writer *w, const char *host, const char *server_ip,
    struct warc_stamp *s, char **err);
/* Any thread, with an engine of its own: appends the capture's records,
 * compressed, to out. Touches nothing of the writer. Fails only when a
 * spilled body cannot be read. ids may be NULL. */
int warc_build_http(struct warc_engine *e, const struct warc_stamp *s, const struct warc_capture *c,
    struct buf *out, struct warc_ids *ids, char **err);
int warc_build_dns(struct warc_engine *e, const struct warc_stamp *s, const char *host,
    const char *server_ip, uint64_t date_us, const char *rr_text, size_t len, struct buf *out,
    char **err);
/* Loop side, in the order captures are to appear in the files: queues
 * what was built for stamp s. When s names a file closed since, or the
 * capture would take the file past max_size (the file is then rotated),
 * built is reset and rebuild called, with the writer's engine and the
 * current stamp (also written to s). On failure (a rotation that cannot
 * write or open a file) nothing is queued and the same call may be made
 * again later. */
typedef int warc_rebuild_fn(
    void *ctx, struct warc_engine *e, const struct warc_stamp *s, struct buf *out, char **err);
int warc_append(struct warc_writer *w, struct warc_stamp *s, struct buf *built,
    warc_rebuild_fn *rebuild, void *ctx, char **err);

/* Next serial, for checkpoints. */
unsigned warc_serial(const struct warc_writer *w);
/* Name of the file being written (without ".open"), or NULL before the first. */
const char *warc_current_file(const struct warc_writer *w);
/* Flushes, closes and renames the current file. Call warc_flush first to
 * learn about a disk error: a file that could not be flushed keeps ".open". */
void warc_close(struct warc_writer *w);

#endif
