/* HTTP/1.1 client protocol glue over llhttp 8.1: the request URL, its head,
 * and the response parser (struct http).
 *
 * The parser pauses llhttp at the end of every head and every message, so
 * that it knows exactly which bytes belong to the head (kept raw for the
 * WARC record), can skip the body of 1xx/204/304 responses itself (llhttp
 * 8.1 would read a Content-Length body there and eat the next response), and
 * never parses bytes past the end of the response it asked for.
 *
 * Every byte the server sends is charged to a limit (doc/architecture.md,
 * "Limits"): the head (status line, header names and values) to
 * fetch.max-header-bytes, its lines to HTTP_MAX_HEADERS, interim answers to
 * HTTP_MAX_INTERIM, the body to the caller's length cap, and whatever a
 * chunked body sends between two body bytes (chunk-size lines, chunk
 * extensions, the trailers) to fetch.max-header-bytes again. Trailers are
 * read and dropped: nothing a crawl does needs them, and keeping them was
 * what let a server grow memory without bound. */
#include <build-config.h>

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <llhttp.h>

#include "lib/buf.h"
#include "lib/url.h"
#include "net/http.h"
#include "lib/xmalloc.h"

/* Interim responses allowed before the final one; more is a server that
 * tries to keep us reading forever. */
#define HTTP_MAX_INTERIM 16
/* Header lines allowed in one head (curl allows 5000; 64 KiB of headers
 * rarely needs more than a few dozen). */
#define HTTP_MAX_HEADERS 1000

/* The headers a crawl reads of every response, indexed while llhttp parses
 * the head so that each lookup is one comparison, not a scan of the head. */
enum http_known {
	HTTP_K_CONTENT_TYPE,
	HTTP_K_CONTENT_ENCODING,
	HTTP_K_CONTENT_LOCATION,
	HTTP_K_LOCATION,
	HTTP_K_REFRESH,
	HTTP_K_RETRY_AFTER,
	HTTP_K_ETAG,
	HTTP_K_LAST_MODIFIED,
	HTTP_K_COUNT
};

enum http_phase { HTTP_PHASE_HEAD, HTTP_PHASE_BODY, HTTP_PHASE_DONE, HTTP_PHASE_FAILED };
enum http_event { HTTP_EV_NONE, HTTP_EV_HEAD, HTTP_EV_MESSAGE };

struct http {
	llhttp_t parser;
	const struct http_cbs *cbs;
	void *arg;
	size_t max_head;
	enum http_phase phase;
	enum http_event event;
	int status;
	int interim; /* the current message is 1xx */
	int ninterim;
	int keep_alive;
	int started;
	int head_done; /* the final head was seen */
	int stopped;   /* a callback asked to stop */
	int too_large; /* failed for a limit, not for malformed bytes */
	/* Framing: bytes of a body that are not entity bytes (chunk-size
	 * lines, extensions, trailers) since the last entity byte. */
	uint64_t framing;
	const char *exec_at; /* where the running llhttp_execute began */
	size_t body_end;     /* offset past the last entity byte in it, + 1 */
	struct buf head;     /* raw bytes of the current head */
	struct buf hdrs;     /* "name\0value\0" pairs of the current head */
	size_t nhdrs;
	size_t name_start;
	size_t value_start;
	size_t known[HTTP_K_COUNT]; /* offset + 1 of a known header's first value in hdrs */
	const char *err;
};

static int http_on_message_begin_cb(llhttp_t *p);
static int http_on_header_field_cb(llhttp_t *p, const char *at, size_t len);
static int http_on_header_field_complete_cb(llhttp_t *p);
static int http_on_header_value_cb(llhttp_t *p, const char *at, size_t len);
static int http_on_header_value_complete_cb(llhttp_t *p);
static int http_on_headers_complete_cb(llhttp_t *p);
static int http_on_body_cb(llhttp_t *p, const char *at, size_t len);
static int http_on_message_complete_cb(llhttp_t *p);

/* Which known header name (len bytes, any case) is, or -1. */
static int http_known_index(const char *name, size_t len)
{
	int k;
	const char *want;

	switch (len) {
	case 4:
		k = HTTP_K_ETAG;
		want = "etag";
		break;
	case 7:
		k = HTTP_K_REFRESH;
		want = "refresh";
		break;
	case 8:
		k = HTTP_K_LOCATION;
		want = "location";
		break;
	case 11:
		k = HTTP_K_RETRY_AFTER;
		want = "retry-after";
		break;
	case 12:
		k = HTTP_K_CONTENT_TYPE;
		want = "content-type";
		break;
	case 13:
		k = HTTP_K_LAST_MODIFIED;
		want = "last-modified";
		break;
	case 16:
		if ((name[8] | 0x20) == 'l') {
			k = HTTP_K_CONTENT_LOCATION;
			want = "content-location";
		} else {
			k = HTTP_K_CONTENT_ENCODING;
			want = "content-encoding";
		}
		break;
	default:
		return -1;
	}
	return strncasecmp(name, want, len) == 0 ? k : -1;
}

static llhttp_settings_t http_settings;
static int http_settings_ready;

/* Fills u from an href that url_split has split (the one URL parser: the
 * crawl hands its split over, so a fetched URI is parsed once). The host is
 * ASCII already (the URL layer turns IDNs into punycode) and the path and
 * query are percent-encoded by the URL serializer, so what is left to check
 * is what a request line and a socket need. */
int http_url_from(const char *href, const struct url_parts *p, struct http_url *u, const char **err)
{
	const char *h = href + p->host_off;
	size_t hl = p->host_len;
	struct buf t = BUF_INIT;

	memset(u, 0, sizeof(*u));
	u->tls = p->https;
	u->port = p->port;
	u->host_is_literal = p->host_ip != 0;
	if (p->host_ip == 6) {
		h++; /* without the brackets */
		hl -= 2;
	}
	if (hl == 0 || hl > 253) {
		*err = hl == 0 ? "empty host" : "host longer than 253 bytes";
		return -1;
	}
	if (p->port < 1 || p->port > 65535) {
		*err = "bad port";
		return -1;
	}
	for (size_t i = 0; i < hl; i++)
		u->host[i] = (char)tolower((unsigned char)h[i]);
	u->host[hl] = '\0';
	/* The Host value, built by hand (this runs for every fetch): the host
	 * is at most 253 bytes, so brackets and a port always fit. */
	{
		char *o = u->hostport;

		if (p->host_ip == 6)
			*o++ = '[';
		memcpy(o, u->host, hl);
		o += hl;
		if (p->host_ip == 6)
			*o++ = ']';
		if (u->port != (u->tls ? 443 : 80)) {
			*o++ = ':';
			o += buf_digits(o, (uint64_t)u->port);
		}
		*o = '\0';
	}
	/* The request target: path and query, never the fragment. A byte that
	 * would break the request line cannot come from the serializer; one
	 * that does anyway makes the URL unusable rather than the request. */
	url_request_target(href, p, &t);
	for (size_t i = 0; i < t.len; i++) {
		unsigned char c = (unsigned char)t.data[i];
		if (c <= 0x20 || c >= 0x7f) {
			buf_free(&t);
			*err = "space, control or non-ASCII byte in URL";
			return -1;
		}
	}
	u->target = buf_steal(&t);
	return 0;
}

void http_url_clear(struct http_url *u)
{
	free(u->target);
	u->target = NULL;
}

/* Appends s with control characters replaced, so a configured value can
 * never split the request head. */
static void http_append_clean(struct buf *out, const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		if ((unsigned char)*s >= 0x20 && *s != 0x7f)
			continue;
		buf_append(out, run, s - run);
		buf_appendc(out, ' ');
		run = s + 1;
	}
	buf_append(out, run, s - run);
}

const char *http_accept_encoding(const char *setting)
{
	static const char *const map[][2] = {{"gzip", "gzip"}, {"br", "br, gzip"},
	    {"zstd", "zstd, gzip"}, {"browser", "gzip, deflate, br, zstd"},
	    {"identity", "identity"}};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(setting, map[i][0]) == 0)
			return map[i][1];
	return NULL;
}

void http_request_build(struct buf *out, const struct http_url *u, const char *user_agent,
    const char *accept_encoding, const char *if_none_match, const char *if_modified_since,
    const char *cookie)
{
	buf_appends(out, "GET ");
	buf_appends(out, u->target);
	buf_appends(out, " HTTP/1.1\r\nHost: ");
	buf_appends(out, u->hostport);
	buf_appends(out, "\r\nUser-Agent: ");
	http_append_clean(out, user_agent);
	buf_appends(out,
	    "\r\nAccept: text/html,application/xhtml+xml,"
	    "application/xml;q=0.9,*/*;q=0.8\r\nAccept-Encoding: ");
	buf_appends(out, accept_encoding);
	if (if_none_match != NULL) {
		buf_appends(out, "\r\nIf-None-Match: ");
		http_append_clean(out, if_none_match);
	}
	if (if_modified_since != NULL) {
		buf_appends(out, "\r\nIf-Modified-Since: ");
		http_append_clean(out, if_modified_since);
	}
	if (cookie != NULL) {
		buf_appends(out, "\r\nCookie: ");
		http_append_clean(out, cookie);
	}
	buf_appends(out, "\r\nConnection: keep-alive\r\n\r\n");
}

static void http_settings_init(void)
{
	if (http_settings_ready)
		return;
	llhttp_settings_init(&http_settings);
	http_settings.on_message_begin = http_on_message_begin_cb;
	http_settings.on_header_field = http_on_header_field_cb;
	http_settings.on_header_field_complete = http_on_header_field_complete_cb;
	http_settings.on_header_value = http_on_header_value_cb;
	http_settings.on_header_value_complete = http_on_header_value_complete_cb;
	http_settings.on_headers_complete = http_on_headers_complete_cb;
	http_settings.on_body = http_on_body_cb;
	http_settings.on_message_complete = http_on_message_complete_cb;
	http_settings_ready = 1;
}

struct http *http_new(size_t max_header_bytes, const struct http_cbs *cbs, void *arg)
{
	struct http *h = xcalloc(1, sizeof(*h));

	http_settings_init();
	llhttp_init(&h->parser, HTTP_RESPONSE, &http_settings);
	h->parser.data = h;
	h->cbs = cbs;
	h->arg = arg;
	h->max_head = max_header_bytes;
	h->phase = HTTP_PHASE_HEAD;
	return h;
}

void http_free(struct http *h)
{
	if (h == NULL)
		return;
	buf_free(&h->head);
	buf_free(&h->hdrs);
	free(h);
}

static int http_on_message_begin_cb(llhttp_t *p)
{
	struct http *h = p->data;

	buf_reset(&h->hdrs);
	h->nhdrs = 0;
	h->name_start = 0;
	memset(h->known, 0, sizeof(h->known));
	return 0;
}

/* A field or value of the trailers (after a chunked body) is read and
 * dropped; its bytes are charged to the framing count in http_feed. */
static int http_on_header_field_cb(llhttp_t *p, const char *at, size_t len)
{
	struct http *h = p->data;

	if (h->phase == HTTP_PHASE_HEAD)
		buf_append(&h->hdrs, at, len);
	return 0;
}

static int http_on_header_field_complete_cb(llhttp_t *p)
{
	struct http *h = p->data;
	int k;

	if (h->phase != HTTP_PHASE_HEAD)
		return 0;
	if (++h->nhdrs > HTTP_MAX_HEADERS) {
		h->err = "more than 1000 header lines";
		h->too_large = 1;
		return -1;
	}
	buf_appendc(&h->hdrs, '\0');
	h->value_start = h->hdrs.len;
	k = http_known_index(h->hdrs.data + h->name_start, h->value_start - 1 - h->name_start);
	if (k >= 0 && h->known[k] == 0)
		h->known[k] = h->value_start + 1;
	return 0;
}

static int http_on_header_value_cb(llhttp_t *p, const char *at, size_t len)
{
	struct http *h = p->data;

	if (h->phase == HTTP_PHASE_HEAD)
		buf_append(&h->hdrs, at, len);
	return 0;
}

static int http_on_header_value_complete_cb(llhttp_t *p)
{
	struct http *h = p->data;

	if (h->phase != HTTP_PHASE_HEAD)
		return 0;
	/* llhttp strips leading whitespace of a value but keeps trailing. */
	while (h->hdrs.len > h->value_start &&
	    (h->hdrs.data[h->hdrs.len - 1] == ' ' || h->hdrs.data[h->hdrs.len - 1] == '\t'))
		h->hdrs.len--;
	buf_appendc(&h->hdrs, '\0');
	h->name_start = h->hdrs.len;
	return 0;
}

/* Validates the status line (llhttp 8.1 accepts any version and a status
 * of any number of digits) and decides whether a body follows. Setting
 * F_SKIPBODY is what returning 1 does; we pause instead so that the caller
 * learns where the head ends, and llhttp resumes at the body decision. */
static int http_on_headers_complete_cb(llhttp_t *p)
{
	struct http *h = p->data;
	int code = p->status_code;

	if (p->http_major != 1) {
		h->err = "unsupported HTTP version";
		return -1;
	}
	if (code < 100 || code > 599) {
		h->err = "invalid status code";
		return -1;
	}
	if (code == 101) {
		h->err = "unsolicited 101 Switching Protocols";
		return -1;
	}
	h->interim = code < 200;
	if (h->interim || code == 204 || code == 304)
		p->flags |= F_SKIPBODY;
	h->status = code;
	h->event = HTTP_EV_HEAD;
	return HPE_PAUSED;
}

static int http_on_body_cb(llhttp_t *p, const char *at, size_t len)
{
	struct http *h = p->data;

	h->body_end = (size_t)(at + len - h->exec_at) + 1;
	if (h->cbs->on_body && h->cbs->on_body(h->arg, at, len) != 0) {
		h->stopped = 1;
		return -1;
	}
	return 0;
}

static int http_on_message_complete_cb(llhttp_t *p)
{
	struct http *h = p->data;

	/* Only valid here: llhttp resets the flags for the next message. */
	h->keep_alive = llhttp_should_keep_alive(p);
	h->event = HTTP_EV_MESSAGE;
	return HPE_PAUSED;
}

static enum http_result http_fail(struct http *h, const char *why)
{
	h->phase = HTTP_PHASE_FAILED;
	if (h->err == NULL)
		h->err = why;
	return HTTP_ERROR;
}

/* A failure for a limit (the cause crawl.log names header-too-large). */
static enum http_result http_fail_limit(struct http *h, const char *why)
{
	h->too_large = 1;
	return http_fail(h, why);
}

/* Acts on the pause that ended the last llhttp_execute. */
static enum http_result http_event(struct http *h)
{
	enum http_event ev = h->event;

	h->event = HTTP_EV_NONE;
	if (ev == HTTP_EV_HEAD && !h->interim) {
		h->phase = HTTP_PHASE_BODY;
		h->head_done = 1;
		if (h->cbs->on_head && h->cbs->on_head(h->arg) != 0) {
			h->stopped = 1;
			return HTTP_STOPPED;
		}
	} else if (ev == HTTP_EV_MESSAGE) {
		if (h->interim) {
			if (++h->ninterim > HTTP_MAX_INTERIM)
				return http_fail_limit(h, "more than 16 interim (1xx) responses");
			h->interim = 0;
			buf_reset(&h->head);
			return HTTP_MORE;
		}
		h->phase = HTTP_PHASE_DONE;
		return HTTP_DONE;
	}
	return HTTP_MORE;
}

enum http_result http_feed(struct http *h, const char *data, size_t len, size_t *used)
{
	size_t off = 0;
	int again = 0;
	enum http_result r = HTTP_MORE;

	if (used)
		*used = 0;
	if (h->phase == HTTP_PHASE_FAILED)
		return HTTP_ERROR;
	if (len > 0)
		h->started = 1;
	/* After a pause llhttp may have work left that needs no input (the
	 * end of a bodiless message), so run it once more even at the end. */
	while ((off < len || again) && h->phase != HTTP_PHASE_DONE) {
		size_t n = len - off, took;
		llhttp_errno_t e;

		again = 0;

		/* Feed a head at most one byte past the cap, so an endless head
		 * costs no more than the cap. */
		if (h->phase == HTTP_PHASE_HEAD && n > h->max_head + 1 - h->head.len)
			n = h->max_head + 1 - h->head.len;
		h->event = HTTP_EV_NONE;
		h->exec_at = data + off;
		h->body_end = 0;
		e = llhttp_execute(&h->parser, data + off, n);
		took = n;
		if (e == HPE_PAUSED) {
			took = llhttp_get_error_pos(&h->parser) - (data + off);
			llhttp_resume(&h->parser);
			again = 1;
		} else if (e != HPE_OK) {
			if (h->stopped) {
				r = HTTP_STOPPED;
				break;
			}
			return http_fail(h, llhttp_get_error_reason(&h->parser));
		}
		if (h->phase == HTTP_PHASE_HEAD) {
			buf_append(&h->head, data + off, took);
		} else if (h->phase == HTTP_PHASE_BODY) {
			/* Nothing of the framing is kept, but its bytes still
			 * count: a chunk line, an extension or trailers that
			 * never end would otherwise be read for ever. */
			if (h->body_end > 0)
				h->framing = took - (h->body_end - 1);
			else
				h->framing += took;
			if (h->framing > h->max_head)
				return http_fail_limit(h,
				    "chunk framing or trailers larger than "
				    "fetch.max-header-bytes");
		}
		off += took;
		r = http_event(h);
		if (r == HTTP_ERROR || r == HTTP_STOPPED)
			break;
		if (h->phase == HTTP_PHASE_HEAD && h->head.len > h->max_head)
			return http_fail_limit(
			    h, "response head larger than fetch.max-header-bytes");
	}
	if (used)
		*used = off;
	return r;
}

enum http_result http_eof(struct http *h)
{
	llhttp_errno_t e;

	if (h->phase == HTTP_PHASE_DONE)
		return HTTP_DONE;
	if (h->phase == HTTP_PHASE_FAILED)
		return HTTP_ERROR;
	if (!h->started)
		return http_fail(h, "connection closed before any response byte");
	if (h->phase == HTTP_PHASE_HEAD)
		return http_fail(h, "connection closed in the response head");
	h->event = HTTP_EV_NONE;
	e = llhttp_finish(&h->parser);
	if ((e == HPE_OK || e == HPE_PAUSED) && h->event == HTTP_EV_MESSAGE) {
		h->keep_alive = 0;
		h->phase = HTTP_PHASE_DONE;
		return HTTP_DONE;
	}
	return http_fail(h, "connection closed before the end of the body");
}

int http_started(const struct http *h)
{
	return h->started;
}

int http_head_done(const struct http *h)
{
	return h->head_done;
}

int http_status(const struct http *h)
{
	return h->status;
}

int http_keep_alive(const struct http *h)
{
	return h->phase == HTTP_PHASE_DONE && h->keep_alive;
}

const char *http_head(const struct http *h, size_t *len)
{
	*len = h->head.len;
	return h->head.data ? h->head.data : "";
}

int http_header_at(const struct http *h, size_t i, const char **name, const char **value)
{
	const char *p = h->hdrs.data, *end;

	/* No headers yet: NULL plus a length is undefined, so test first. */
	if (p == NULL)
		return 0;
	end = p + h->hdrs.len;
	for (size_t k = 0; p < end; k++) {
		const char *n = p, *v;
		p += strlen(p) + 1;
		if (p >= end)
			return 0;
		v = p;
		p += strlen(p) + 1;
		if (k == i) {
			*name = n;
			*value = v;
			return 1;
		}
	}
	return 0;
}

/* One walk over the name/value pairs (http_header_at from the start for
 * each index made every lookup quadratic in the number of headers). */
const char *http_header(const struct http *h, const char *name)
{
	const char *p = h->hdrs.data, *end, *n;
	int k = http_known_index(name, strlen(name));

	if (p == NULL)
		return NULL;
	end = p + h->hdrs.len;
	if (k >= 0)
		return h->known[k] != 0 ? p + h->known[k] - 1 : NULL;
	while (p < end) {
		n = p;
		p += strlen(p) + 1;
		if (p >= end)
			return NULL;
		if (strcasecmp(n, name) == 0)
			return p;
		p += strlen(p) + 1;
	}
	return NULL;
}

const char *http_error(const struct http *h)
{
	return h->err;
}

int http_too_large(const struct http *h)
{
	return h->too_large;
}
