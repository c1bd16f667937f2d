/* Stream records: writer and strict parsers. */
#include <stdlib.h>
#include <string.h>
#include "lib/handoff.h"
#include "lib/xmalloc.h"

static int handoff_uri_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= 0x20 || c >= 0x7f)
			return 0;
	}
	return 1;
}

static int handoff_hops_ok(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < 'A' || s[i] > 'Z')
			return 0;
	return 1;
}

int handoff_append_url(struct buf *msg, const struct handoff_url *r)
{
	size_t hl = r->hops != NULL ? strlen(r->hops) : 0;
	size_t ul = strlen(r->uri);
	size_t vl = r->via != NULL ? strlen(r->via) : 0;

	if (r->flags > HANDOFF_FLAGS_MAX || !handoff_hops_ok(r->hops != NULL ? r->hops : "", hl) ||
	    !handoff_uri_ok(r->uri, ul) || (r->via != NULL && !handoff_uri_ok(r->via, vl)) ||
	    r->interval_s < 0 || r->interval_s > HANDOFF_INTERVAL_MAX || r->precedence < 0 ||
	    r->precedence > HANDOFF_PRECEDENCE_MAX)
		return -1;
	buf_appendu(msg, r->flags);
	buf_appendc(msg, ' ');
	if (hl > 0)
		buf_append(msg, r->hops, hl);
	else
		buf_appendc(msg, '-');
	buf_appendc(msg, ' ');
	buf_append(msg, r->uri, ul);
	buf_appendc(msg, ' ');
	if (r->via != NULL)
		buf_append(msg, r->via, vl);
	else
		buf_appendc(msg, '-');
	if (r->interval_s != 0 || r->precedence != 0)
		buf_appendf(msg, " %lld:%d", (long long)r->interval_s, r->precedence);
	buf_appendc(msg, '\n');
	return 0;
}

/* "URI" and, when word is not NULL, " WORD", then the newline. */
static int handoff_append_uri(struct buf *msg, const char *uri, const char *word)
{
	size_t ul = strlen(uri);

	if (!handoff_uri_ok(uri, ul))
		return -1;
	buf_append(msg, uri, ul);
	if (word != NULL) {
		buf_appendc(msg, ' ');
		buf_appends(msg, word);
	}
	buf_appendc(msg, '\n');
	return 0;
}

int handoff_append_seed(struct buf *msg, const char *uri, int guarded)
{
	return handoff_append_uri(msg, uri, guarded ? HANDOFF_GUARDED : NULL);
}

/* RFC 4648 base64, padded, written here rather than taken from OpenSSL:
 * this floor does no I/O and links no I/O library, and the decoder must
 * be strict (canonical input only) where EVP_DecodeBlock is lenient. */
static const char handoff_b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void handoff_base64(struct buf *out, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 3 <= n; i += 3) {
		unsigned long v =
		    (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8 | p[i + 2];
		buf_appendc(out, handoff_b64[v >> 18 & 63]);
		buf_appendc(out, handoff_b64[v >> 12 & 63]);
		buf_appendc(out, handoff_b64[v >> 6 & 63]);
		buf_appendc(out, handoff_b64[v & 63]);
	}
	if (n - i == 1) {
		unsigned long v = (unsigned long)p[i] << 16;
		buf_appendc(out, handoff_b64[v >> 18 & 63]);
		buf_appendc(out, handoff_b64[v >> 12 & 63]);
		buf_appends(out, "==");
	} else if (n - i == 2) {
		unsigned long v = (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8;
		buf_appendc(out, handoff_b64[v >> 18 & 63]);
		buf_appendc(out, handoff_b64[v >> 12 & 63]);
		buf_appendc(out, handoff_b64[v >> 6 & 63]);
		buf_appendc(out, '=');
	}
}

static int handoff_b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

int handoff_append_done(struct buf *msg, const struct handoff_done *d)
{
	size_t start = msg->len;

	if (handoff_append_uri(msg, d->uri, NULL) < 0)
		return -1;
	if (d->revisit == NULL)
		return 0;
	if (d->revisit_len == 0 || d->revisit_len > (1u << 24)) {
		msg->len = start;
		return -1;
	}
	/* The record is binary; a line holds no control bytes nor spaces. */
	msg->len--;
	buf_appendc(msg, ' ');
	handoff_base64(msg, d->revisit, d->revisit_len);
	buf_appendc(msg, '\n');
	return 0;
}

static int handoff_fail(char **err, size_t line, const char *why)
{
	if (err != NULL)
		*err = xasprintf("record %zu: %s", line, why);
	return -1;
}

/* Splits data[0..len) into newline-terminated lines: the next one in
 * [*line, *line + *n), NUL-terminated in place. 1, 0 at the end, -1 for a
 * last line without its newline. */
static int handoff_line(char **p, char *end, char **line, size_t *n)
{
	char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	if (nl == NULL)
		return -1;
	*line = *p;
	*n = (size_t)(nl - *p);
	*nl = '\0';
	*p = nl + 1;
	return 1;
}

/* A decimal without leading zeros (but "0") of at most max: its value, or
 * -1. */
static long long handoff_decimal(const char *s, size_t n, long long max)
{
	long long v = 0;
	size_t i;

	if (n == 0 || n > 12 || (n > 1 && s[0] == '0'))
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= max ? v : -1;
}

/* A url record's HINT field "INTERVAL:PRECEDENCE": 0, or -1. */
static int handoff_hint(const char *s, struct handoff_url *r)
{
	const char *colon = strchr(s, ':');
	long long iv, pr;

	if (colon == NULL)
		return -1;
	iv = handoff_decimal(s, (size_t)(colon - s), HANDOFF_INTERVAL_MAX);
	pr = handoff_decimal(colon + 1, strlen(colon + 1), HANDOFF_PRECEDENCE_MAX);
	if (iv < 0 || pr < 0 || (iv == 0 && pr == 0))
		return -1;
	r->interval_s = iv;
	r->precedence = (int)pr;
	return 0;
}

int handoff_parse_urls(char *data, size_t len, void (*fn)(void *ctx, const struct handoff_url *r),
    void *ctx, char **err)
{
	char *p = data, *end = data + len, *line, *f[5];
	size_t n, lineno = 0, k;
	int rc;

	while ((rc = handoff_line(&p, end, &line, &n)) == 1) {
		struct handoff_url r;
		char *q = line, *sp;
		unsigned long flags;

		lineno++;
		memset(&r, 0, sizeof r);
		f[4] = NULL;
		for (k = 0; k < 4; k++) {
			f[k] = q;
			sp = memchr(q, ' ', (size_t)(line + n - q));
			if (k < 3) {
				if (sp == NULL)
					return handoff_fail(err, lineno, "fewer than 4 fields");
				*sp = '\0';
				q = sp + 1;
			} else if (sp != NULL) {
				*sp = '\0';
				f[4] = sp + 1;
			}
		}
		if (f[4] != NULL && memchr(f[4], ' ', strlen(f[4])) != NULL)
			return handoff_fail(err, lineno, "more than 5 fields");
		if (f[4] != NULL && handoff_hint(f[4], &r) < 0)
			return handoff_fail(err, lineno, "bad hint");
		if (f[0][0] < '0' || f[0][0] > '9' || strlen(f[0]) > 5)
			return handoff_fail(err, lineno, "bad flags");
		flags = strtoul(f[0], &sp, 10);
		if (*sp != '\0' || flags > HANDOFF_FLAGS_MAX)
			return handoff_fail(err, lineno, "bad flags");
		if (f[1][0] == '\0' ||
		    (strcmp(f[1], "-") != 0 && !handoff_hops_ok(f[1], strlen(f[1]))))
			return handoff_fail(err, lineno, "bad hop path");
		if (!handoff_uri_ok(f[2], strlen(f[2])))
			return handoff_fail(err, lineno, "bad URI");
		if (!handoff_uri_ok(f[3], strlen(f[3])))
			return handoff_fail(err, lineno, "bad via");
		r.flags = (unsigned)flags;
		r.hops = strcmp(f[1], "-") == 0 ? "" : f[1];
		r.uri = f[2];
		r.via = strcmp(f[3], "-") == 0 ? NULL : f[3];
		fn(ctx, &r);
	}
	return rc < 0 ? handoff_fail(err, lineno + 1, "no newline at its end") : 0;
}

/* Decodes the base64 of a done record's REVISIT field into out: 0, or -1
 * for anything but canonical padded base64 (the bits a last quantum leaves
 * over are 0), so that a record accepted writes back the same bytes. */
static int handoff_unbase64(const char *s, size_t n, struct buf *out)
{
	size_t i, pad = 0;

	if (n == 0 || n % 4 != 0 || n > (1u << 25))
		return -1;
	if (s[n - 1] == '=')
		pad = s[n - 2] == '=' ? 2 : 1;
	buf_reset(out);
	for (i = 0; i < n; i += 4) {
		int a = handoff_b64_value(s[i]), b = handoff_b64_value(s[i + 1]);
		int c = i + 4 == n && pad == 2 ? 0 : handoff_b64_value(s[i + 2]);
		int e = i + 4 == n && pad >= 1 ? 0 : handoff_b64_value(s[i + 3]);
		unsigned long v;
		if (a < 0 || b < 0 || c < 0 || e < 0)
			return -1;
		v = (unsigned long)a << 18 | (unsigned long)b << 12 | (unsigned long)c << 6 |
		    (unsigned long)e;
		buf_appendc(out, (char)(v >> 16 & 255));
		if (i + 4 < n || pad < 2)
			buf_appendc(out, (char)(v >> 8 & 255));
		if (i + 4 < n || pad < 1)
			buf_appendc(out, (char)(v & 255));
		if (i + 4 == n &&
		    ((pad == 2 && (v & 0xffff) != 0) || (pad == 1 && (v & 0xff) != 0)))
			return -1;
	}
	return 0;
}

int handoff_parse_done(char *data, size_t len, void (*fn)(void *ctx, const struct handoff_done *d),
    void *ctx, char **err)
{
	char *p = data, *end = data + len, *line;
	struct buf rec = BUF_INIT;
	const char *why = NULL;
	size_t n, lineno = 0;
	int rc;

	while ((rc = handoff_line(&p, end, &line, &n)) == 1) {
		struct handoff_done d;
		char *sp = memchr(line, ' ', n);
		size_t ul = sp != NULL ? (size_t)(sp - line) : n;

		lineno++;
		memset(&d, 0, sizeof d);
		if (!handoff_uri_ok(line, ul)) {
			why = "bad URI";
			break;
		}
		if (sp != NULL) {
			*sp = '\0';
			if (handoff_unbase64(sp + 1, n - ul - 1, &rec) < 0) {
				why = "bad revisit record";
				break;
			}
			d.revisit = (const unsigned char *)rec.data;
			d.revisit_len = rec.len;
		}
		d.uri = line;
		fn(ctx, &d);
	}
	buf_free(&rec);
	if (why != NULL)
		return handoff_fail(err, lineno, why);
	return rc < 0 ? handoff_fail(err, lineno + 1, "no newline at its end") : 0;
}

int handoff_parse_seeds(char *data, size_t len, void (*fn)(void *ctx, const char *uri, int guarded),
    void *ctx, char **err)
{
	char *p = data, *end = data + len, *line, *sp;
	size_t n, lineno = 0, gl = strlen(HANDOFF_GUARDED);
	int rc, guarded;

	while ((rc = handoff_line(&p, end, &line, &n)) == 1) {
		lineno++;
		sp = memchr(line, ' ', n);
		guarded = sp != NULL;
		if (guarded) {
			if ((size_t)(line + n - sp - 1) != gl ||
			    memcmp(sp + 1, HANDOFF_GUARDED, gl) != 0)
				return handoff_fail(err, lineno, "bad seed record");
			*sp = '\0';
			n = (size_t)(sp - line);
		}
		if (!handoff_uri_ok(line, n))
			return handoff_fail(err, lineno, "bad URI");
		fn(ctx, line, guarded);
	}
	return rc < 0 ? handoff_fail(err, lineno + 1, "no newline at its end") : 0;
}
