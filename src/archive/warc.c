/* WARC writer. Each capture (response or revisit, request, metadata) is built
 * and compressed into a staging buffer first, one gzip member per record, so
 * that its compressed size is known before it is queued: a capture never
 * straddles two files and a file exceeds max_size only when one capture alone
 * does. Queued bytes go to disk in large write(2) calls; a failed write keeps
 * them queued so that a disk-full condition loses nothing.
 *
 * Building (digests, headers, compression) is apart from queueing, so that
 * it can run on other threads (archive/warcpool.c): a builder takes an
 * engine of its own and the stamp of the file the records are for (its
 * warcinfo's ID), and warc_append queues the result in the writer, in the
 * caller's order, rebuilding it with the writer's own engine when the file
 * changed in between or must change for it.
 *
 * Built with libdeflate (HAVE_LIBDEFLATE), a record whose block is in memory
 * is compressed in one call by libdeflate, about twice zlib's speed at a
 * better ratio (bench/warcbench); spilled bodies, which libdeflate cannot
 * take in pieces, and builds without it go through zlib's streaming API. */
#include <build-config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <openssl/rand.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#include "lib/buf.h"
#include "archive/digest.h"
#include "archive/warc.h"
#include "lib/xmalloc.h"

/* Queued bytes are written once they pass this size. */
#define WARC_WRITE_CHUNK (1u << 20)
/* Spill files are read back in pieces of this size. */
#define WARC_READ_CHUNK (256u << 10)
#define WARC_ID_LEN 48

/* What building records needs for itself: scratch buffers, a digest and the
 * compressors. One thread uses an engine at a time. */
struct warc_engine {
	struct buf head; /* scratch: WARC header text */
	struct buf resp; /* scratch: response head as stored */
	struct buf meta; /* scratch: metadata block */
	char *chunk;	 /* scratch: spill-file reads */
	struct digest *dg;
	z_stream z;
#ifdef HAVE_LIBDEFLATE
	struct libdeflate_compressor *ld;
	struct buf whole; /* scratch: one record, uncompressed */
#endif
};

struct warc_writer {
	char *dir;
	char *prefix;
	char *software;
	char *hostname;
	char *extra;
	uint64_t max_size;
	int version10;
	int port;
	int level;
	unsigned serial;   /* serial of the next file */
	unsigned file_gen; /* files opened so far: names a stamp's file */
	int fd;		   /* -1 while no file is open */
	char *name;	   /* final file name, without ".open" */
	char *path_open;
	uint64_t file_size; /* bytes written and queued for this file */
	unsigned file_captures;
	char warcinfo_id[WARC_ID_LEN];
	struct buf out;		 /* compressed bytes queued for fd */
	int write_errno;	 /* nonzero: out could not be written */
	struct buf staged;	 /* the capture being built */
	struct buf info;	 /* scratch: the warcinfo block */
	struct warc_engine *eng; /* the loop's own */
};

/* Where the bytes of a record's block come from: up to two pieces in
 * memory, then optionally a spill file. */
struct warc_block {
	const void *p1;
	size_t n1;
	const void *p2;
	size_t n2;
	int fd;
	uint64_t fd_len;
};

static uint64_t warc_block_len(const struct warc_block *b)
{
	return (uint64_t)b->n1 + b->n2 + (b->fd >= 0 ? b->fd_len : 0);
}

/* RAND_bytes is safe from any thread (OpenSSL 3 keeps a generator per
 * thread). */
static void warc_uuid(char out[WARC_ID_LEN])
{
	unsigned char b[16];

	if (RAND_bytes(b, sizeof b) != 1)
		abort();
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(out, WARC_ID_LEN,
	    "<urn:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	    "%02x%02x%02x%02x%02x%02x>",
	    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
	    b[14], b[15]);
}

static uint64_t warc_now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* WARC 1.1 allows sub-second precision; 1.0 readers expect whole seconds. */
/* Writes v as n decimal digits, zero-padded, at p; returns p + n. */
static char *warc_digits(char *p, unsigned v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + n;
}

/* "YYYY-MM-DDThh:mm:ss[.uuuuuu]Z", formatted by hand: strftime and
 * snprintf cost more than the rest of a record's header on the loop, which
 * dates every new dedup entry. */
static void warc_date(int version10, uint64_t us, char out[32])
{
	time_t s = (time_t)(us / 1000000u);
	struct tm tm;
	char *p = out;

	gmtime_r(&s, &tm);
	if (tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999) {
		char base[24];
		strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
		if (version10)
			snprintf(out, 32, "%sZ", base);
		else
			snprintf(out, 32, "%s.%06uZ", base, (unsigned)(us % 1000000u));
		return;
	}
	p = warc_digits(p, (unsigned)(tm.tm_year + 1900), 4);
	*p++ = '-';
	p = warc_digits(p, (unsigned)tm.tm_mon + 1, 2);
	*p++ = '-';
	p = warc_digits(p, (unsigned)tm.tm_mday, 2);
	*p++ = 'T';
	p = warc_digits(p, (unsigned)tm.tm_hour, 2);
	*p++ = ':';
	p = warc_digits(p, (unsigned)tm.tm_min, 2);
	*p++ = ':';
	p = warc_digits(p, (unsigned)tm.tm_sec, 2);
	if (!version10) {
		*p++ = '.';
		p = warc_digits(p, (unsigned)(us % 1000000u), 6);
	}
	*p++ = 'Z';
	*p = '\0';
}

/* Header values must not break the record's line structure. */
static int warc_header_safe(const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static int warc_header_safe_n(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

static int warc_read_fd(int fd, uint64_t off, char *dst, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, dst + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO; /* the spill file is shorter than announced */
		got += (size_t)r;
	}
	return 0;
}

/* Feeds the block to fn piece by piece, reading a spill file in chunks. */
static int warc_block_each(struct warc_engine *e, const struct warc_block *b,
    int (*fn)(struct warc_engine *, struct buf *, const void *, size_t, int), struct buf *out,
    char **err)
{
	int rc;

	if ((rc = fn(e, out, b->p1, b->n1, 0)) < 0 || (rc = fn(e, out, b->p2, b->n2, 0)) < 0)
		return rc;
	if (b->fd < 0)
		return 0;
	for (uint64_t off = 0; off < b->fd_len;) {
		size_t n =
		    b->fd_len - off > WARC_READ_CHUNK ? WARC_READ_CHUNK : (size_t)(b->fd_len - off);
		if ((rc = warc_read_fd(b->fd, off, e->chunk, n)) < 0) {
			*err = xasprintf("reading the spilled body at offset %llu: %s",
			    (unsigned long long)off, strerror(-rc));
			return rc;
		}
		if ((rc = fn(e, out, e->chunk, n, 0)) < 0)
			return rc;
		off += n;
	}
	return 0;
}

static int warc_digest_cb(struct warc_engine *e, struct buf *out, const void *p, size_t n, int last)
{
	(void)out;
	(void)last;
	digest_update(e->dg, p, n);
	return 0;
}

/* Deflates into out; last finishes the gzip member. */
static int warc_deflate_cb(
    struct warc_engine *e, struct buf *out, const void *p, size_t n, int last)
{
	int zr;

	/* The block pieces handed in are at most a read chunk or one buffer;
	 * larger memory pieces are fed in slices that fit zlib's uInt. */
	while (n > (1u << 30)) {
		warc_deflate_cb(e, out, p, 1u << 30, 0);
		p = (const char *)p + (1u << 30);
		n -= 1u << 30;
	}
	e->z.next_in = (Bytef *)(uintptr_t)p;
	e->z.avail_in = (uInt)n;
	do {
		buf_reserve(out, 64u << 10);
		e->z.next_out = (Bytef *)out->data + out->len;
		size_t room = out->cap - out->len - 1;

		e->z.avail_out = (uInt)(room > (1u << 30) ? (1u << 30) : room);
		zr = deflate(&e->z, last ? Z_FINISH : Z_NO_FLUSH);
		out->len = (size_t)((char *)e->z.next_out - out->data);
		if (zr == Z_STREAM_ERROR)
			abort();
	} while (e->z.avail_out == 0 || (last && zr != Z_STREAM_END));
	out->data[out->len] = '\0';
	return 0;
}

/* Appends one record as its own gzip member to out. The header in e->head
 * ends with the fields common to all record types; this adds the block
 * digest and length, computed over the block first. */
static int warc_record(
    struct warc_engine *e, const struct warc_block *b, struct buf *out, char **err)
{
	char block_digest[DIGEST_STRLEN];
	int rc;

	if ((rc = warc_block_each(e, b, warc_digest_cb, out, err)) < 0) {
		digest_reset(e->dg);
		return rc;
	}
	digest_final(e->dg, block_digest);
	buf_appendf(&e->head, "WARC-Block-Digest: %s\r\nContent-Length: %llu\r\n\r\n", block_digest,
	    (unsigned long long)warc_block_len(b));
#ifdef HAVE_LIBDEFLATE
	if (b->fd < 0) {
		size_t bound, n;

		buf_reset(&e->whole);
		buf_append(&e->whole, e->head.data, e->head.len);
		buf_append(&e->whole, b->p1, b->n1);
		buf_append(&e->whole, b->p2, b->n2);
		buf_append(&e->whole, "\r\n\r\n", 4);
		bound = libdeflate_gzip_compress_bound(e->ld, e->whole.len);
		buf_reserve(out, bound);
		n = libdeflate_gzip_compress(
		    e->ld, e->whole.data, e->whole.len, out->data + out->len, bound);
		if (n == 0)
			abort(); /* cannot happen with the bound's room */
		out->len += n;
		out->data[out->len] = '\0';
		return 0;
	}
#endif
	if (deflateReset(&e->z) != Z_OK)
		abort();
	warc_deflate_cb(e, out, e->head.data, e->head.len, 0);
	if ((rc = warc_block_each(e, b, warc_deflate_cb, out, err)) < 0)
		return rc;
	warc_deflate_cb(e, out, "\r\n\r\n", 4, 1);
	return 0;
}

static void warc_head_start(struct warc_engine *e, const struct warc_stamp *s, const char *type,
    const char *id, const char *date)
{
	buf_reset(&e->head);
	buf_appendf(&e->head,
	    "WARC/%s\r\nWARC-Type: %s\r\nWARC-Record-ID: %s\r\n"
	    "WARC-Date: %s\r\n",
	    s->version10 ? "1.0" : "1.1", type, id, date);
	if (strcmp(type, "warcinfo") != 0)
		buf_appendf(&e->head, "WARC-Warcinfo-ID: %s\r\n", s->warcinfo_id);
}

static void warc_stamp_of(const struct warc_writer *w, struct warc_stamp *s)
{
	s->file = w->file_gen;
	s->version10 = w->version10;
	memcpy(s->warcinfo_id, w->warcinfo_id, sizeof s->warcinfo_id);
}

static int warc_write_out(struct warc_writer *w, char **err)
{
	size_t off = 0;

	while (off < w->out.len) {
		ssize_t n = write(w->fd, w->out.data + off, w->out.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			w->write_errno = errno;
			buf_consume(&w->out, off);
			if (err != NULL)
				*err = xasprintf("writing %s: %s; %zu bytes stay queued, "
						 "nothing written so far is lost: free space "
						 "and flush again",
				    w->path_open, strerror(w->write_errno), w->out.len);
			return -w->write_errno;
		}
		off += (size_t)n;
	}
	buf_reset(&w->out);
	w->write_errno = 0;
	return 0;
}

static void warc_file_close(struct warc_writer *w)
{
	if (w->fd < 0)
		return;
	close(w->fd);
	w->fd = -1;
	if (w->out.len == 0) {
		char *final = xasprintf("%s/%s", w->dir, w->name);
		rename(w->path_open, final);
		free(final);
	}
	buf_reset(&w->out);
	w->write_errno = 0;
	free(w->name);
	free(w->path_open);
	w->name = NULL;
	w->path_open = NULL;
}

static void warc_warcinfo(struct warc_writer *w)
{
	struct warc_block b = {NULL, 0, NULL, 0, -1, 0};
	struct warc_stamp s;
	char date[32];
	char *err = NULL;

	buf_reset(&w->info);
	buf_appendf(&w->info,
	    "software: %s\r\nformat: WARC File Format %s\r\n"
	    "conformsTo: %s\r\nhostname: %s\r\n",
	    w->software, w->version10 ? "1.0" : "1.1",
	    w->version10
		? "http://bibnum.bnf.fr/WARC/WARC_ISO_28500_version1_latestdraft.pdf"
		: "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/",
	    w->hostname);
	if (w->extra != NULL)
		buf_appends(&w->info, w->extra);
	b.p1 = w->info.data;
	b.n1 = w->info.len;
	warc_uuid(w->warcinfo_id);
	warc_date(w->version10, warc_now_us(), date);
	warc_stamp_of(w, &s);
	warc_head_start(w->eng, &s, "warcinfo", w->warcinfo_id, date);
	buf_appendf(&w->eng->head, "WARC-Filename: %s\r\nContent-Type: application/warc-fields\r\n",
	    w->name);
	/* A block in memory cannot fail to be read. */
	if (warc_record(w->eng, &b, &w->staged, &err) < 0)
		abort();
}

static int warc_file_open(struct warc_writer *w, char **err)
{
	uint64_t now = warc_now_us();
	time_t s = (time_t)(now / 1000000u);
	struct tm tm;
	char stamp[24];

	gmtime_r(&s, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &tm);
	w->name = xasprintf("%s-%s%03u-%05u-%ld~%s~%d.warc.gz", w->prefix, stamp,
	    (unsigned)(now / 1000u % 1000u), w->serial, (long)getpid(), w->hostname, w->port);
	w->path_open = xasprintf("%s/%s.open", w->dir, w->name);
	w->fd = open(w->path_open, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		*err = xasprintf("creating %s: %s", w->path_open, strerror(errno));
		free(w->name);
		free(w->path_open);
		w->name = NULL;
		w->path_open = NULL;
		return -1;
	}
	w->serial++;
	w->file_gen++;
	w->file_captures = 0;
	buf_reset(&w->staged);
	warc_warcinfo(w);
	buf_append(&w->out, w->staged.data, w->staged.len);
	w->file_size = w->staged.len;
	return 0;
}

static int warc_rotate(struct warc_writer *w, char **err)
{
	int rc;

	if (w->out.len > 0 && (rc = warc_write_out(w, err)) < 0)
		return rc;
	warc_file_close(w);
	return warc_file_open(w, err);
}

/* Before a capture is built: a file to build it for (opened now if none is)
 * and no write error pending. */
static int warc_begin(struct warc_writer *w, struct warc_stamp *s, char **err)
{
	if (w->write_errno != 0) {
		*err = xasprintf("writing %s: %s; flush must succeed before more "
				 "records are accepted",
		    w->path_open, strerror(w->write_errno));
		return -w->write_errno;
	}
	if (w->fd < 0 && warc_file_open(w, err) < 0)
		return -1;
	warc_stamp_of(w, s);
	return 0;
}

int warc_append(struct warc_writer *w, struct warc_stamp *s, struct buf *built,
    warc_rebuild_fn *rebuild, void *ctx, char **err)
{
	int rc;

	if (w->fd < 0 && warc_file_open(w, err) < 0)
		return -1;
	/* The records name their file's warcinfo, so a capture built for
	 * another file is built again for this one. */
	if (s->file != w->file_gen) {
		warc_stamp_of(w, s);
		buf_reset(built);
		if ((rc = rebuild(ctx, w->eng, s, built, err)) < 0)
			return rc;
	}
	if (w->file_captures > 0 && w->file_size + built->len > w->max_size) {
		if ((rc = warc_rotate(w, err)) < 0)
			return rc;
		warc_stamp_of(w, s);
		buf_reset(built);
		if ((rc = rebuild(ctx, w->eng, s, built, err)) < 0)
			return rc;
	}
	buf_append(&w->out, built->data, built->len);
	w->file_size += built->len;
	w->file_captures++;
	/* A failed write keeps the bytes queued; warc_flush reports it. */
	if (w->out.len >= WARC_WRITE_CHUNK)
		warc_write_out(w, NULL);
	return 0;
}

/* Stores the response head with any Transfer-Encoding header renamed, since
 * the block holds the body with its transfer coding removed. */
static void warc_resp_head(struct warc_engine *e, const char *p, size_t n)
{
	static const char te[] = "transfer-encoding:";
	size_t i = 0;

	buf_reset(&e->resp);
	while (i < n) {
		const char *nl = memchr(p + i, '\n', n - i);
		size_t end = nl != NULL ? (size_t)(nl - p) + 1 : n;

		if (i > 0 && end - i >= sizeof te - 1 && strncasecmp(p + i, te, sizeof te - 1) == 0)
			buf_appends(&e->resp, "X-Orig-");
		buf_append(&e->resp, p + i, end - i);
		i = end;
	}
}

/* Computes the payload digest when the caller did not. */
static int warc_payload_digest(
    struct warc_engine *e, const struct warc_capture *c, char out[DIGEST_STRLEN], char **err)
{
	struct warc_block b = {c->payload, c->payload_len, NULL, 0, -1, 0};
	int rc;

	if (c->payload_digest != NULL) {
		snprintf(out, DIGEST_STRLEN, "%s", c->payload_digest);
		return 0;
	}
	if (c->payload == NULL && c->payload_fd >= 0) {
		b.fd = c->payload_fd;
		b.fd_len = c->payload_fd_len;
	}
	if ((rc = warc_block_each(e, &b, warc_digest_cb, NULL, err)) < 0) {
		digest_reset(e->dg);
		return rc;
	}
	digest_final(e->dg, out);
	return 0;
}

/* The fields that say how a capture came over the network: one
 * WARC-Protocol per protocol, the application's first, then
 * WARC-Cipher-Suite (doc/warc.md, "HTTP/2 and the protocol fields"). */
static void warc_protocol_fields(struct buf *head, const struct warc_capture *c)
{
	if (c->protocol != NULL)
		buf_appendf(head, "WARC-Protocol: %s\r\n", c->protocol);
	if (c->tls_version != NULL)
		buf_appendf(head, "WARC-Protocol: %s\r\n", c->tls_version);
	if (c->cipher != NULL)
		buf_appendf(head, "WARC-Cipher-Suite: %s\r\n", c->cipher);
}

int warc_build_http(struct warc_engine *e, const struct warc_stamp *s, const struct warc_capture *c,
    struct buf *out, struct warc_ids *ids, char **err)
{
	int revisit = c->refers_to_uri != NULL;
	struct warc_block b = {NULL, 0, NULL, 0, -1, 0};
	char resp_id[WARC_ID_LEN], req_id[WARC_ID_LEN], meta_id[WARC_ID_LEN];
	char date[32], payload_digest[DIGEST_STRLEN];
	int rc;

	if ((rc = warc_payload_digest(e, c, payload_digest, err)) < 0)
		return rc;
	warc_resp_head(e, c->resp_head, c->resp_head_len);
	warc_uuid(resp_id);
	warc_uuid(req_id);
	warc_date(s->version10, c->date_us, date);

	warc_head_start(e, s, revisit ? "revisit" : "response", resp_id, date);
	buf_appendf(&e->head, "WARC-Target-URI: %s\r\n", c->uri);
	if (c->ip != NULL)
		buf_appendf(&e->head, "WARC-IP-Address: %s\r\n", c->ip);
	warc_protocol_fields(&e->head, c);
	if (revisit) {
		buf_appendf(&e->head,
		    "WARC-Profile: http://netpreserve.org/warc/%s/revisit/%s\r\n"
		    "WARC-Refers-To-Target-URI: %s\r\n",
		    s->version10 ? "1.0" : "1.1",
		    c->not_modified ? "server-not-modified" : "identical-payload-digest",
		    c->refers_to_uri);
		if (c->refers_to_date != NULL)
			buf_appendf(&e->head, "WARC-Refers-To-Date: %s\r\n", c->refers_to_date);
		/* An identical payload's block keeps the HTTP headers only; a
		 * 304 has no body to leave out. */
		if (!c->not_modified)
			buf_appends(&e->head, "WARC-Truncated: length\r\n");
	} else if (c->truncated != NULL) {
		buf_appendf(&e->head, "WARC-Truncated: %s\r\n", c->truncated);
	}
	buf_appendf(&e->head,
	    "Content-Type: application/http;msgtype=response\r\n"
	    "WARC-Payload-Digest: %s\r\n",
	    payload_digest);
	b.p1 = e->resp.data;
	b.n1 = e->resp.len;
	if (!revisit) {
		if (c->payload != NULL) {
			b.p2 = c->payload;
			b.n2 = c->payload_len;
		} else if (c->payload_fd >= 0 && c->payload_fd_len > 0) {
			b.fd = c->payload_fd;
			b.fd_len = c->payload_fd_len;
		}
	}
	if ((rc = warc_record(e, &b, out, err)) < 0)
		return rc;

	warc_head_start(e, s, "request", req_id, date);
	buf_appendf(&e->head,
	    "WARC-Target-URI: %s\r\nWARC-Concurrent-To: %s\r\n"
	    "Content-Type: application/http;msgtype=request\r\n",
	    c->uri, resp_id);
	warc_protocol_fields(&e->head, c);
	b = (struct warc_block){c->req, c->req_len, NULL, 0, -1, 0};
	if ((rc = warc_record(e, &b, out, err)) < 0)
		return rc;

	if (c->via != NULL || c->hops != NULL || c->outlinks_len > 0 || c->title != NULL) {
		const char *l = c->outlinks, *end = l + c->outlinks_len, *nl;

		buf_reset(&e->meta);
		if (c->via != NULL)
			buf_appendf(&e->meta, "via: %s\r\n", c->via);
		if (c->hops != NULL)
			buf_appendf(&e->meta, "hopsFromSeed: %s\r\n", c->hops);
		if (c->title != NULL && warc_header_safe(c->title))
			buf_appendf(&e->meta, "title:%s%s\r\n", *c->title ? " " : "", c->title);
		for (; l < end; l = nl + 1) {
			if ((nl = memchr(l, '\n', (size_t)(end - l))) == NULL)
				nl = end;
			if (nl > l && warc_header_safe_n(l, (size_t)(nl - l))) {
				buf_append(&e->meta, "outlink: ", 9);
				buf_append(&e->meta, l, (size_t)(nl - l));
				buf_append(&e->meta, "\r\n", 2);
			}
		}
		warc_uuid(meta_id);
		warc_head_start(e, s, "metadata", meta_id, date);
		buf_appendf(&e->head,
		    "WARC-Target-URI: %s\r\nWARC-Concurrent-To: %s\r\n"
		    "Content-Type: application/warc-fields\r\n",
		    c->uri, resp_id);
		b = (struct warc_block){e->meta.data, e->meta.len, NULL, 0, -1, 0};
		if ((rc = warc_record(e, &b, out, err)) < 0)
			return rc;
	}
	if (ids != NULL) {
		memcpy(ids->response_id, resp_id, WARC_ID_LEN);
		memcpy(ids->date, date, sizeof date);
		memcpy(ids->payload_digest, payload_digest, DIGEST_STRLEN);
	}
	return 0;
}

int warc_begin_http(
    struct warc_writer *w, const struct warc_capture *c, struct warc_stamp *s, char **err)
{
	const char *fields[] = {c->uri, c->ip, c->truncated, c->refers_to_uri, c->refers_to_date,
	    c->payload_digest, c->via, c->hops, c->protocol, c->tls_version, c->cipher};

	if (c->uri == NULL || c->uri[0] == '\0') {
		*err = xstrdup("a capture without a URI cannot be archived");
		return -1;
	}
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (!warc_header_safe(fields[i])) {
			*err = xasprintf("capture of %.200s: a WARC header value contains "
					 "a control character",
			    c->uri);
			return -1;
		}
	return warc_begin(w, s, err);
}

struct warc_http_ctx {
	const struct warc_capture *c;
	struct warc_ids *ids;
};

static int warc_rebuild_http(
    void *arg, struct warc_engine *e, const struct warc_stamp *s, struct buf *out, char **err)
{
	const struct warc_http_ctx *x = arg;

	return warc_build_http(e, s, x->c, out, x->ids, err);
}

int warc_write_http(
    struct warc_writer *w, const struct warc_capture *c, struct warc_ids *ids, char **err)
{
	struct warc_http_ctx x = {c, ids};
	struct warc_stamp s;
	int rc;

	if ((rc = warc_begin_http(w, c, &s, err)) < 0)
		return rc;
	buf_reset(&w->staged);
	if ((rc = warc_build_http(w->eng, &s, c, &w->staged, ids, err)) < 0)
		return rc;
	return warc_append(w, &s, &w->staged, warc_rebuild_http, &x, err);
}

int warc_build_dns(struct warc_engine *e, const struct warc_stamp *s, const char *host,
    const char *server_ip, uint64_t date_us, const char *rr_text, size_t len, struct buf *out,
    char **err)
{
	struct warc_block b = {rr_text, len, NULL, 0, -1, 0};
	char id[WARC_ID_LEN], date[32];

	warc_uuid(id);
	warc_date(s->version10, date_us, date);
	warc_head_start(e, s, "response", id, date);
	buf_appendf(&e->head, "WARC-Target-URI: dns:%s\r\n", host);
	if (server_ip != NULL)
		buf_appendf(&e->head, "WARC-IP-Address: %s\r\n", server_ip);
	buf_appends(&e->head, "Content-Type: text/dns\r\n");
	return warc_record(e, &b, out, err);
}

int warc_begin_dns(struct warc_writer *w, const char *host, const char *server_ip,
    struct warc_stamp *s, char **err)
{
	if (host == NULL || host[0] == '\0' || !warc_header_safe(host) ||
	    !warc_header_safe(server_ip) || strchr(host, ' ') != NULL) {
		*err = xstrdup("dns record: invalid host or server address");
		return -1;
	}
	return warc_begin(w, s, err);
}

struct warc_dns_ctx {
	const char *host;
	const char *ip;
	uint64_t date_us;
	const char *rr;
	size_t len;
};

static int warc_rebuild_dns(
    void *arg, struct warc_engine *e, const struct warc_stamp *s, struct buf *out, char **err)
{
	const struct warc_dns_ctx *x = arg;

	return warc_build_dns(e, s, x->host, x->ip, x->date_us, x->rr, x->len, out, err);
}

int warc_write_dns(struct warc_writer *w, const char *host, const char *server_ip, uint64_t date_us,
    const char *rr_text, size_t len, char **err)
{
	struct warc_dns_ctx x = {host, server_ip, date_us, rr_text, len};
	struct warc_stamp s;
	int rc;

	if ((rc = warc_begin_dns(w, host, server_ip, &s, err)) < 0)
		return rc;
	buf_reset(&w->staged);
	if ((rc = warc_build_dns(
		 w->eng, &s, host, server_ip, date_us, rr_text, len, &w->staged, err)) < 0)
		return rc;
	return warc_append(w, &s, &w->staged, warc_rebuild_dns, &x, err);
}

int warc_flush(struct warc_writer *w, char **err)
{
	if (w->fd < 0 || w->out.len == 0)
		return 0;
	return warc_write_out(w, err);
}

void warc_date_format(const struct warc_writer *w, uint64_t date_us, char out[32])
{
	warc_date(w->version10, date_us, out);
}

int warc_writable(const struct warc_writer *w)
{
	return w->write_errno == 0;
}

unsigned warc_serial(const struct warc_writer *w)
{
	return w->serial;
}

const char *warc_current_file(const struct warc_writer *w)
{
	return w->name;
}

struct warc_engine *warc_loop_engine(struct warc_writer *w)
{
	return w->eng;
}

struct warc_engine *warc_engine_new(const struct warc_writer *w)
{
	struct warc_engine *e = xcalloc(1, sizeof *e);

	buf_init(&e->head);
	buf_init(&e->resp);
	buf_init(&e->meta);
	e->chunk = xmalloc(WARC_READ_CHUNK);
	e->dg = digest_new();
	/* windowBits 15 + 16: a gzip wrapper around each member. */
	if (deflateInit2(&e->z, w->level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
#ifdef HAVE_LIBDEFLATE
	e->ld = libdeflate_alloc_compressor(w->level);
	if (e->ld == NULL)
		abort();
	buf_init(&e->whole);
#endif
	return e;
}

void warc_engine_free(struct warc_engine *e)
{
	if (e == NULL)
		return;
	deflateEnd(&e->z);
#ifdef HAVE_LIBDEFLATE
	libdeflate_free_compressor(e->ld);
	buf_free(&e->whole);
#endif
	digest_free(e->dg);
	buf_free(&e->head);
	buf_free(&e->resp);
	buf_free(&e->meta);
	free(e->chunk);
	free(e);
}

struct warc_writer *warc_open(const struct warc_opts *o, char **err)
{
	struct warc_writer *w;
	/* Level 1: compression is the writer's main cost (doc/warc.md). */
	int level = o->level > 0 ? o->level : 1;

	if (o->dir == NULL || o->prefix == NULL || o->prefix[0] == '\0' ||
	    strchr(o->prefix, '/') != NULL) {
		*err = xstrdup("WARC writer: a directory and a prefix without '/' are required");
		return NULL;
	}
	if (level > 9) {
		*err = xasprintf("WARC writer: compression level %d is not in 1-9", o->level);
		return NULL;
	}
	if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
		*err = xasprintf("creating %s: %s", o->dir, strerror(errno));
		return NULL;
	}
	w = xcalloc(1, sizeof *w);
	w->dir = xstrdup(o->dir);
	w->prefix = xstrdup(o->prefix);
	w->software = xstrdup(o->software != NULL ? o->software : "tern");
	w->hostname = xstrdup(o->hostname != NULL ? o->hostname : "localhost");
	w->extra = o->warcinfo_extra != NULL ? xstrdup(o->warcinfo_extra) : NULL;
	w->max_size = o->max_size > 0 ? o->max_size : UINT64_MAX;
	w->version10 = o->version10;
	w->port = o->port;
	w->level = level;
	w->serial = o->first_serial;
	w->fd = -1;
	buf_init(&w->out);
	buf_init(&w->staged);
	buf_init(&w->info);
	w->eng = warc_engine_new(w);
	return w;
}

void warc_close(struct warc_writer *w)
{
	if (w == NULL)
		return;
	if (w->fd >= 0 && w->out.len > 0)
		warc_write_out(w, NULL);
	warc_file_close(w);
	warc_engine_free(w->eng);
	buf_free(&w->out);
	buf_free(&w->staged);
	buf_free(&w->info);
	free(w->dir);
	free(w->prefix);
	free(w->software);
	free(w->hostname);
	free(w->extra);
	free(w);
}
