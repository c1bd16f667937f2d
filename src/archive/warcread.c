/* WARC reader: inflates one gzip member at a time (lib/zinflate.h, which
 * stops at the member's end) and feeds the bytes to a small parser
 * (header, block, the CRLF CRLF trailer), so memory stays bounded by the
 * header cap and max_block whatever the input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "archive/warcread.h"
#include "lib/xmalloc.h"
#include "lib/zinflate.h"

#define WARCREAD_IN (64u << 10)
/* Content-Length beyond this is nonsense for a record. */
#define WARCREAD_MAX_BLOCK_LEN (1ull << 50)

enum warcread_phase { WARCREAD_HEADER, WARCREAD_BLOCK, WARCREAD_TRAILER, WARCREAD_DONE };

struct warcread {
	FILE *fp;
	size_t max_block;
	struct zinflate *z;
	unsigned char *in;
	size_t in_off, in_len; /* read but not yet inflated: in[in_off, in_len) */
	uint64_t pos;	       /* compressed bytes consumed so far */
	struct digest *dg;
	int digest_on;
	enum warcread_phase phase;
	uint64_t remaining; /* of the block */
	unsigned trailer;   /* trailer bytes matched */
	int eof;
};

struct warcread *warcread_new(FILE *fp, size_t max_block)
{
	struct warcread *r = xcalloc(1, sizeof *r);

	r->fp = fp;
	r->max_block = max_block;
	r->in = xmalloc(WARCREAD_IN);
	r->dg = digest_new();
	r->digest_on = 1;
	r->z = zinflate_new(ZINFLATE_GZIP, ZINFLATE_ONE, NULL);
	return r;
}

void warcread_free(struct warcread *r)
{
	if (r == NULL)
		return;
	zinflate_free(r->z);
	digest_free(r->dg);
	free(r->in);
	free(r);
}

void warcread_digest_blocks(struct warcread *r, int on)
{
	r->digest_on = on;
}

void warcread_record_init(struct warcread_record *rec)
{
	memset(rec, 0, sizeof *rec);
	buf_init(&rec->header);
	buf_init(&rec->block);
}

void warcread_record_free(struct warcread_record *rec)
{
	buf_free(&rec->header);
	buf_free(&rec->block);
}

int warcread_header(const struct warcread_record *rec, const char *name, struct buf *out)
{
	size_t nl = strlen(name);
	const char *p = rec->header.data, *end = p + rec->header.len;

	/* Skip the version line. */
	p = memchr(p, '\n', rec->header.len);
	while (p != NULL && ++p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *v, *ve;

		if (eol == NULL)
			eol = end;
		if ((size_t)(eol - p) > nl && p[nl] == ':' && strncasecmp(p, name, nl) == 0) {
			v = p + nl + 1;
			ve = eol;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			buf_reset(out);
			buf_append(out, v, (size_t)(ve - v));
			return 0;
		}
		p = eol;
	}
	return -1;
}

int warcread_target_uri(const struct warcread_record *rec, struct buf *out)
{
	if (warcread_header(rec, "WARC-Target-URI", out) < 0)
		return -1;
	if (out->len >= 2 && out->data[0] == '<' && out->data[out->len - 1] == '>') {
		memmove(out->data, out->data + 1, out->len - 2);
		out->len -= 2;
		out->data[out->len] = '\0';
	}
	return 0;
}

/* Validates the header once its blank line is in and reads Content-Length. */
static int warcread_parse_header(struct warcread *r, struct warcread_record *rec, char **err)
{
	struct buf v = BUF_INIT;
	uint64_t n = 0;
	int rc = 0;

	if (strncmp(rec->header.data, "WARC/1.0\r\n", 10) != 0 &&
	    strncmp(rec->header.data, "WARC/1.1\r\n", 10) != 0) {
		*err = xasprintf("record at offset %llu: no WARC/1.0 or WARC/1.1 version line",
		    (unsigned long long)rec->offset);
		return -1;
	}
	if (warcread_header(rec, "Content-Length", &v) < 0 || v.len == 0 || v.len > 16) {
		rc = -1;
	} else {
		for (size_t i = 0; i < v.len && rc == 0; i++) {
			if (v.data[i] < '0' || v.data[i] > '9')
				rc = -1;
			else
				n = n * 10 + (uint64_t)(v.data[i] - '0');
		}
	}
	buf_free(&v);
	if (rc < 0 || n > WARCREAD_MAX_BLOCK_LEN) {
		*err = xasprintf("record at offset %llu: missing or invalid Content-Length",
		    (unsigned long long)rec->offset);
		return -1;
	}
	rec->block_len = n;
	r->remaining = n;
	r->phase = WARCREAD_BLOCK;
	return 0;
}

/* Consumes inflated bytes according to the phase. */
static int warcread_feed(
    struct warcread *r, struct warcread_record *rec, const unsigned char *p, size_t n, char **err)
{
	while (n > 0) {
		switch (r->phase) {
		case WARCREAD_HEADER: {
			/* Byte by byte up to the blank line: headers are small. */
			buf_appendc(&rec->header, (char)*p);
			p++;
			n--;
			if (rec->header.len >= 4 &&
			    memcmp(rec->header.data + rec->header.len - 4, "\r\n\r\n", 4) == 0) {
				if (warcread_parse_header(r, rec, err) < 0)
					return -1;
			} else if (rec->header.len >= WARCREAD_MAX_HEADER) {
				*err =
				    xasprintf("record at offset %llu: header longer than %u bytes",
					(unsigned long long)rec->offset, WARCREAD_MAX_HEADER);
				return -1;
			}
			break;
		}
		case WARCREAD_BLOCK: {
			size_t k = r->remaining < n ? (size_t)r->remaining : n;

			if (r->digest_on)
				digest_update(r->dg, p, k);
			if (rec->block.len < r->max_block) {
				size_t keep = r->max_block - rec->block.len;
				buf_append(&rec->block, p, keep < k ? keep : k);
			}
			r->remaining -= k;
			p += k;
			n -= k;
			if (r->remaining == 0)
				r->phase = WARCREAD_TRAILER;
			break;
		}
		case WARCREAD_TRAILER:
			if (*p != "\r\n\r\n"[r->trailer]) {
				*err = xasprintf("record at offset %llu: block not followed by "
						 "CRLF CRLF (wrong Content-Length?)",
				    (unsigned long long)rec->offset);
				return -1;
			}
			p++;
			n--;
			if (++r->trailer == 4)
				r->phase = WARCREAD_DONE;
			break;
		case WARCREAD_DONE:
			*err = xasprintf("gzip member at offset %llu holds more than one record",
			    (unsigned long long)rec->offset);
			return -1;
		}
	}
	if (r->phase == WARCREAD_BLOCK && r->remaining == 0)
		r->phase = WARCREAD_TRAILER;
	return 0;
}

static int warcread_fill(struct warcread *r, char **err)
{
	size_t n;

	if (r->in_off < r->in_len || r->eof)
		return 0;
	n = fread(r->in, 1, WARCREAD_IN, r->fp);
	if (n == 0) {
		if (ferror(r->fp)) {
			*err = xasprintf("reading at offset %llu: %s", (unsigned long long)r->pos,
			    strerror(errno));
			return -1;
		}
		r->eof = 1;
	}
	r->in_off = 0;
	r->in_len = n;
	return 0;
}

/* What zinflate hands out goes to the parser; its error stops inflating. */
struct warcread_out {
	struct warcread *r;
	struct warcread_record *rec;
	char **err;
};

static int warcread_out_cb(void *arg, const char *data, size_t len)
{
	struct warcread_out *o = arg;

	return warcread_feed(o->r, o->rec, (const unsigned char *)data, len, o->err) < 0;
}

int warcread_next(struct warcread *r, struct warcread_record *rec, char **err)
{
	struct warcread_out o = {r, rec, err};
	enum zinflate_result zr;

	buf_reset(&rec->header);
	buf_reset(&rec->block);
	rec->offset = r->pos;
	rec->block_len = 0;
	r->phase = WARCREAD_HEADER;
	r->trailer = 0;
	digest_reset(r->dg);
	if (warcread_fill(r, err) < 0)
		return -1;
	if (r->in_off == r->in_len && r->eof)
		return 0;
	zinflate_reset(r->z);
	for (;;) {
		size_t used;

		zr = zinflate_feed(
		    r->z, r->in + r->in_off, r->in_len - r->in_off, &used, warcread_out_cb, &o);
		r->in_off += used;
		r->pos += used;
		if (zr == ZINFLATE_STOPPED)
			return -1;
		if (zr == ZINFLATE_CORRUPT) {
			*err = xasprintf("gzip member at offset %llu: %s",
			    (unsigned long long)rec->offset,
			    zinflate_error(r->z) != NULL ? zinflate_error(r->z) : "corrupt data");
			return -1;
		}
		if (zr == ZINFLATE_END)
			break;
		if (warcread_fill(r, err) < 0)
			return -1;
		if (r->in_off == r->in_len && r->eof) {
			*err = xasprintf("gzip member at offset %llu is cut short",
			    (unsigned long long)rec->offset);
			return -1;
		}
	}
	if (r->phase != WARCREAD_DONE) {
		*err = xasprintf("gzip member at offset %llu ends inside its record",
		    (unsigned long long)rec->offset);
		return -1;
	}
	rec->length = r->pos - rec->offset;
	if (r->digest_on)
		digest_final(r->dg, rec->block_digest);
	else
		rec->block_digest[0] = '\0';
	return 1;
}
