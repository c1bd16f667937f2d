/* HTTP/2 client sessions (struct h2) over nghttp2's session API in memory:
 * nghttp2_session_mem_recv takes what TLS decrypted, nghttp2_session_mem_send
 * gives what to encrypt, and nghttp2's callbacks build the response.
 *
 * Bounds, as the HTTP/1.1 path has them (doc/limits.md; err:header-too-large
 * past them): the response head, written as
 * HTTP/1.1, is capped at fetch.max-header-bytes (and the server is told so
 * by SETTINGS_MAX_HEADER_LIST_SIZE); the body is capped by the fetch
 * (fetch.max-length-bytes) as it comes; what arrives while a stream is open
 * and is not its DATA payload (frame headers, padding, SETTINGS, PING,
 * WINDOW_UPDATE, HPACK) may not pass the header cap plus 64 KiB plus the
 * payload itself, so a server cannot make us read without end in frames
 * that carry nothing. nghttp2 itself bounds CONTINUATION runs, the HPACK
 * table and the queue of frames it answers with (PING, SETTINGS floods). */
#include <build-config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <nghttp2/nghttp2.h>

#include "lib/buf.h"
#include "net/h2.h"
#include "lib/xmalloc.h"

/* The flow-control window of a stream and of the connection: what the
 * server may send before we acknowledge. We consume DATA as it arrives (the
 * fetch hands it on at once), so the window costs no memory of ours; 1 MiB
 * keeps a fast server from waiting on WINDOW_UPDATEs. */
#define H2_WINDOW (1 << 20)
/* Interim (1xx) heads allowed before the final one, as http.c. */
#define H2_MAX_INTERIM 16
/* Bytes of frames that carry no payload allowed per stream, past the
 * header cap and the payload itself. */
#define H2_OVERHEAD_SLACK 65536

struct h2 {
	nghttp2_session *s;
	size_t max_head;
	const struct h2_cbs *cbs;
	void *arg;
	int32_t stream;	   /* the open stream, 0 when none */
	int head_done;	   /* the final head was delivered */
	int ninterim;	   /* 1xx heads seen */
	int status;	   /* of the head being received */
	int ended;	   /* END_STREAM received on the stream */
	int stopped;	   /* a callback asked to stop */
	int reset_recv;	   /* the server sent RST_STREAM on the stream */
	int goaway;	   /* GOAWAY received: no new stream */
	int dead;	   /* the session failed: no new stream */
	int failed;	   /* the stream failed: err, cause */
	struct buf fields; /* "name: value\r\n" of the head being received */
	struct buf head;   /* the HTTP/1.1 head, while it is delivered */
	uint64_t in_bytes, data_bytes;
	char *err;
	enum status_cause cause;
	char lib_err[160]; /* nghttp2's last error message */
};

const char *h2_reason(int status)
{
	/* RFC 9110's reason phrases (section 15), which HTTP/2 does not send:
	 * written so that WARC readers and replay tools see the status line
	 * an HTTP/1.1 server would most likely have sent. */
	switch (status) {
	case 100:
		return "Continue";
	case 101:
		return "Switching Protocols";
	case 200:
		return "OK";
	case 201:
		return "Created";
	case 202:
		return "Accepted";
	case 203:
		return "Non-Authoritative Information";
	case 204:
		return "No Content";
	case 205:
		return "Reset Content";
	case 206:
		return "Partial Content";
	case 300:
		return "Multiple Choices";
	case 301:
		return "Moved Permanently";
	case 302:
		return "Found";
	case 303:
		return "See Other";
	case 304:
		return "Not Modified";
	case 305:
		return "Use Proxy";
	case 307:
		return "Temporary Redirect";
	case 308:
		return "Permanent Redirect";
	case 400:
		return "Bad Request";
	case 401:
		return "Unauthorized";
	case 402:
		return "Payment Required";
	case 403:
		return "Forbidden";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 406:
		return "Not Acceptable";
	case 407:
		return "Proxy Authentication Required";
	case 408:
		return "Request Timeout";
	case 409:
		return "Conflict";
	case 410:
		return "Gone";
	case 411:
		return "Length Required";
	case 412:
		return "Precondition Failed";
	case 413:
		return "Content Too Large";
	case 414:
		return "URI Too Long";
	case 415:
		return "Unsupported Media Type";
	case 416:
		return "Range Not Satisfiable";
	case 417:
		return "Expectation Failed";
	case 421:
		return "Misdirected Request";
	case 422:
		return "Unprocessable Content";
	case 426:
		return "Upgrade Required";
	case 429:
		return "Too Many Requests";
	case 431:
		return "Request Header Fields Too Large";
	case 451:
		return "Unavailable For Legal Reasons";
	case 500:
		return "Internal Server Error";
	case 501:
		return "Not Implemented";
	case 502:
		return "Bad Gateway";
	case 503:
		return "Service Unavailable";
	case 504:
		return "Gateway Timeout";
	case 505:
		return "HTTP Version Not Supported";
	default:
		return "";
	}
}

/* The stream fails with cause; the first failure stands. */
static void h2_fail(struct h2 *h, enum status_cause cause, const char *why)
{
	if (h->failed)
		return;
	h->failed = 1;
	h->cause = cause;
	h->err = xstrdup(why);
}

static int h2_begin_headers_cb(nghttp2_session *s, const nghttp2_frame *fr, void *arg)
{
	struct h2 *h = arg;

	(void)s;
	if (fr->hd.type != NGHTTP2_HEADERS || fr->hd.stream_id != h->stream || h->head_done)
		return 0;
	buf_reset(&h->fields);
	h->status = 0;
	return 0;
}

static int h2_header_cb(nghttp2_session *s, const nghttp2_frame *fr, const uint8_t *name,
    size_t namelen, const uint8_t *value, size_t valuelen, uint8_t flags, void *arg)
{
	struct h2 *h = arg;

	(void)s;
	(void)flags;
	/* Trailers, and anything of a stream that is not ours, are dropped. */
	if (fr->hd.type != NGHTTP2_HEADERS || fr->hd.stream_id != h->stream || h->head_done ||
	    h->stopped)
		return 0;
	if (namelen == 7 && memcmp(name, ":status", 7) == 0) {
		/* nghttp2 checked it is three digits. */
		h->status = atoi((const char *)value);
		return 0;
	}
	if (namelen > 0 && name[0] == ':')
		return 0;
	/* The status line is at most 16 bytes and a phrase of 31; the blank
	 * line 2. */
	if (h->fields.len + namelen + valuelen + 4 + 16 + 31 + 2 > h->max_head) {
		h2_fail(
		    h, CAUSE_HEADER_TOO_LARGE, "response head larger than fetch.max-header-bytes");
		return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
	}
	buf_append(&h->fields, (const char *)name, namelen);
	buf_append(&h->fields, ": ", 2);
	buf_append(&h->fields, (const char *)value, valuelen);
	buf_append(&h->fields, "\r\n", 2);
	return 0;
}

/* Stops the stream at a callback's request: a reset, which ends it on both
 * sides; the session stays usable, but the fetch drops it anyway, as it
 * drops an HTTP/1.1 connection at a length cap. */
static void h2_stop(struct h2 *h)
{
	h->stopped = 1;
	nghttp2_submit_rst_stream(h->s, NGHTTP2_FLAG_NONE, h->stream, NGHTTP2_CANCEL);
}

/* A complete head: an interim one is dropped, the final one delivered. */
static int h2_head_end(struct h2 *h)
{
	if (h->status < 200) {
		if (h->status == 101) {
			h2_fail(h, CAUSE_BAD_RESPONSE, "101 on an HTTP/2 stream");
			return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
		}
		if (++h->ninterim > H2_MAX_INTERIM) {
			h2_fail(h, CAUSE_HEADER_TOO_LARGE, "more than 16 interim (1xx) responses");
			return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
		}
		return 0;
	}
	h->head_done = 1;
	buf_reset(&h->head);
	buf_appendf(&h->head, "HTTP/1.1 %d", h->status);
	if (*h2_reason(h->status))
		buf_appendf(&h->head, " %s", h2_reason(h->status));
	buf_appends(&h->head, "\r\n");
	buf_append(&h->head, h->fields.data, h->fields.len);
	buf_appends(&h->head, "\r\n");
	buf_free(&h->fields);
	if (h->cbs->on_head && h->cbs->on_head(h->arg, h->head.data, h->head.len) != 0)
		h2_stop(h);
	/* The caller took its copy: a kept-alive session holds no head. */
	buf_free(&h->head);
	return 0;
}

static int h2_frame_recv_cb(nghttp2_session *s, const nghttp2_frame *fr, void *arg)
{
	struct h2 *h = arg;
	int rc = 0;

	(void)s;
	if (fr->hd.type == NGHTTP2_GOAWAY) {
		h->goaway = 1;
		/* A GOAWAY with an error ends the streams it leaves open too:
		 * the server is going away broken, whatever it still sends. */
		if (fr->goaway.error_code != NGHTTP2_NO_ERROR && h->stream != 0 && !h->ended) {
			char why[200];
			snprintf(why, sizeof why,
			    "HTTP/2 connection shut down by the server (GOAWAY, %s)",
			    nghttp2_http2_strerror(fr->goaway.error_code));
			h2_fail(h, CAUSE_H2_GOAWAY, why);
		}
		return 0;
	}
	if (fr->hd.stream_id != h->stream || h->stream == 0)
		return 0;
	if (fr->hd.type == NGHTTP2_RST_STREAM)
		h->reset_recv = 1;
	if (fr->hd.type == NGHTTP2_HEADERS && !h->head_done && !h->stopped &&
	    (fr->headers.cat == NGHTTP2_HCAT_RESPONSE || fr->headers.cat == NGHTTP2_HCAT_HEADERS))
		rc = h2_head_end(h);
	if ((fr->hd.type == NGHTTP2_HEADERS || fr->hd.type == NGHTTP2_DATA) &&
	    (fr->hd.flags & NGHTTP2_FLAG_END_STREAM)) {
		if (!h->head_done && !h->failed)
			h2_fail(
			    h, CAUSE_BAD_RESPONSE, "stream ended without a final response head");
		h->ended = 1;
	}
	return rc;
}

static int h2_data_cb(
    nghttp2_session *s, uint8_t flags, int32_t stream, const uint8_t *data, size_t len, void *arg)
{
	struct h2 *h = arg;

	(void)s;
	(void)flags;
	if (stream != h->stream || h->stopped || h->failed)
		return 0;
	h->data_bytes += len;
	if (h->cbs->on_body && h->cbs->on_body(h->arg, (const char *)data, len) != 0)
		h2_stop(h);
	return 0;
}

static int h2_stream_close_cb(nghttp2_session *s, int32_t stream, uint32_t code, void *arg)
{
	struct h2 *h = arg;
	char why[200];

	(void)s;
	if (stream != h->stream || h->stopped)
		return 0;
	if (code == NGHTTP2_NO_ERROR && h->ended)
		return 0;
	if (h->goaway && (code == NGHTTP2_REFUSED_STREAM || !h->reset_recv)) {
		snprintf(why, sizeof why, "HTTP/2 connection shut down by the server (GOAWAY, %s)",
		    nghttp2_http2_strerror(code));
		h2_fail(h, CAUSE_H2_GOAWAY, why);
	} else if (h->reset_recv) {
		snprintf(why, sizeof why, "HTTP/2 stream reset by the server (RST_STREAM %s)",
		    nghttp2_http2_strerror(code));
		h2_fail(h, CAUSE_H2_RESET, why);
	} else {
		snprintf(why, sizeof why, "HTTP/2 protocol error (%s)%s%s",
		    nghttp2_http2_strerror(code), h->lib_err[0] ? ": " : "", h->lib_err);
		h2_fail(h, CAUSE_H2_PROTOCOL, why);
	}
	return 0;
}

static int h2_error_cb(nghttp2_session *s, int code, const char *msg, size_t len, void *arg)
{
	struct h2 *h = arg;

	(void)s;
	(void)code;
	snprintf(h->lib_err, sizeof h->lib_err, "%.*s", (int)len, msg);
	return 0;
}

static nghttp2_session_callbacks *h2_callbacks;
static nghttp2_option *h2_option;

static void h2_init(void)
{
	if (h2_callbacks != NULL)
		return;
	if (nghttp2_session_callbacks_new(&h2_callbacks) != 0 ||
	    nghttp2_option_new(&h2_option) != 0)
		abort(); /* only fails on allocation */
	nghttp2_session_callbacks_set_on_begin_headers_callback(h2_callbacks, h2_begin_headers_cb);
	nghttp2_session_callbacks_set_on_header_callback(h2_callbacks, h2_header_cb);
	nghttp2_session_callbacks_set_on_frame_recv_callback(h2_callbacks, h2_frame_recv_cb);
	nghttp2_session_callbacks_set_on_data_chunk_recv_callback(h2_callbacks, h2_data_cb);
	nghttp2_session_callbacks_set_on_stream_close_callback(h2_callbacks, h2_stream_close_cb);
	nghttp2_session_callbacks_set_error_callback2(h2_callbacks, h2_error_cb);
	/* No server push: we said so in SETTINGS, and reserve nothing. */
	nghttp2_option_set_max_reserved_remote_streams(h2_option, 0);
}

struct h2 *h2_new(size_t max_header_bytes)
{
	struct h2 *h = xcalloc(1, sizeof(*h));
	nghttp2_settings_entry iv[] = {
	    {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
	    {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, (uint32_t)max_header_bytes},
	    {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, H2_WINDOW},
	};

	h2_init();
	h->max_head = max_header_bytes;
	if (nghttp2_session_client_new2(&h->s, h2_callbacks, h, h2_option) != 0)
		abort(); /* only fails on allocation */
	/* Queue the preface's SETTINGS and the connection's window; neither
	 * can fail but on allocation. */
	if (nghttp2_submit_settings(h->s, NGHTTP2_FLAG_NONE, iv, sizeof iv / sizeof iv[0]) != 0 ||
	    nghttp2_session_set_local_window_size(h->s, NGHTTP2_FLAG_NONE, 0, H2_WINDOW) != 0)
		abort();
	return h;
}

void h2_free(struct h2 *h)
{
	if (h == NULL)
		return;
	nghttp2_session_del(h->s);
	buf_free(&h->fields);
	buf_free(&h->head);
	free(h->err);
	free(h);
}

/* Whether a request header field is connection-specific (RFC 9113
 * 8.2.2), which HTTP/2 forbids. */
static int h2_hop_by_hop(const char *name, size_t n)
{
	static const char *const hop[] = {"connection", "keep-alive", "proxy-connection",
	    "transfer-encoding", "upgrade", "te", "host"};

	for (size_t i = 0; i < sizeof hop / sizeof hop[0]; i++)
		if (strlen(hop[i]) == n && strncasecmp(name, hop[i], n) == 0)
			return 1;
	return 0;
}

int h2_request(struct h2 *h, const char *req, size_t len, const struct h2_cbs *cbs, void *arg,
    struct buf *recorded)
{
	nghttp2_nv *nv;
	size_t nnv = 0, names = 0, lines = 0;
	struct buf low = BUF_INIT;
	const char *p = req, *end = req + len, *eol, *sp1, *sp2;
	const char *authority = NULL;
	size_t authority_len = 0;
	int32_t id;

	if (!h2_reusable(h))
		return -1;
	/* The request line: METHOD SP TARGET SP VERSION. */
	if ((eol = memchr(p, '\n', len)) == NULL || (sp1 = memchr(p, ' ', eol - p)) == NULL ||
	    (sp2 = memchr(sp1 + 1, ' ', eol - sp1 - 1)) == NULL)
		return -1;
	/* One field a line at most, whatever headers the head carries; the
	 * lower-case copies of the names in one buffer reserved up front so
	 * that the pointers into it stay put. */
	for (const char *q = req; (q = memchr(q, '\n', end - q)) != NULL; q++)
		lines++;
	nv = xcalloc(4 + lines, sizeof(*nv));
	buf_reserve(&low, len);
	nv[nnv++] = (nghttp2_nv){(uint8_t *)":method", (uint8_t *)p, 7, sp1 - p, 0};
	nv[nnv++] = (nghttp2_nv){(uint8_t *)":scheme", (uint8_t *)"https", 7, 5, 0};
	nv[nnv++] = (nghttp2_nv){(uint8_t *)":authority", NULL, 10, 0, 0}; /* from Host */
	nv[nnv++] = (nghttp2_nv){(uint8_t *)":path", (uint8_t *)sp1 + 1, 5, sp2 - sp1 - 1, 0};
	for (p = eol + 1; p < end; p = eol + 1) {
		const char *colon, *v, *ve;

		if ((eol = memchr(p, '\n', end - p)) == NULL)
			eol = end;
		ve = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
		if (ve == p)
			break; /* the blank line */
		if ((colon = memchr(p, ':', ve - p)) == NULL)
			continue;
		for (v = colon + 1; v < ve && (*v == ' ' || *v == '\t'); v++)
			;
		if (colon - p == 4 && strncasecmp(p, "host", 4) == 0) {
			authority = v;
			authority_len = ve - v;
		}
		if (h2_hop_by_hop(p, colon - p))
			continue;
		for (const char *c = p; c < colon; c++)
			low.data[names + (c - p)] = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		nv[nnv++] = (nghttp2_nv){(uint8_t *)low.data + names, (uint8_t *)v, colon - p,
		    ve - v, NGHTTP2_NV_FLAG_NONE};
		names += colon - p;
	}
	if (authority == NULL) {
		buf_free(&low);
		free(nv);
		return -1;
	}
	nv[2].value = (uint8_t *)authority;
	nv[2].valuelen = authority_len;

	h->cbs = cbs;
	h->arg = arg;
	h->head_done = h->ninterim = h->status = h->ended = h->stopped = h->reset_recv = 0;
	h->failed = 0;
	free(h->err);
	h->err = NULL;
	h->lib_err[0] = '\0';
	h->in_bytes = h->data_bytes = 0;
	buf_reset(&h->fields);
	id = nghttp2_submit_request(h->s, NULL, nv, nnv, NULL, NULL);
	if (id < 0) {
		buf_free(&low);
		free(nv);
		h->dead = 1;
		return -1;
	}
	h->stream = id;

	/* The record: the request line, Host from :authority, then the
	 * fields as sent, in HTTP/1.1 syntax (doc/warc.md). */
	buf_reset(recorded);
	buf_append(recorded, req, sp2 - req);
	buf_appends(recorded, " HTTP/1.1\r\nhost: ");
	buf_append(recorded, authority, authority_len);
	buf_appends(recorded, "\r\n");
	for (size_t i = 4; i < nnv; i++) {
		buf_append(recorded, (const char *)nv[i].name, nv[i].namelen);
		buf_appends(recorded, ": ");
		buf_append(recorded, (const char *)nv[i].value, nv[i].valuelen);
		buf_appends(recorded, "\r\n");
	}
	buf_appends(recorded, "\r\n");
	buf_free(&low);
	free(nv);
	return 0;
}

enum h2_result h2_feed(struct h2 *h, const char *data, size_t len)
{
	ssize_t rv;

	if (h->dead && !h->failed)
		h2_fail(h, CAUSE_H2_PROTOCOL, "HTTP/2 session failed");
	if (h->failed)
		return H2_ERROR;
	if (h->stream != 0 && !h->ended)
		h->in_bytes += len;
	rv = nghttp2_session_mem_recv(h->s, (const uint8_t *)data, len);
	if (rv < 0) {
		char why[240];
		h->dead = 1;
		snprintf(why, sizeof why, "HTTP/2 protocol error: %s%s%s",
		    nghttp2_strerror((int)rv), h->lib_err[0] ? ": " : "", h->lib_err);
		h2_fail(h, h->goaway ? CAUSE_H2_GOAWAY : CAUSE_H2_PROTOCOL, why);
	}
	if (!h->failed && !h->ended &&
	    h->in_bytes - h->data_bytes > h->max_head + H2_OVERHEAD_SLACK + h->data_bytes) {
		h->dead = 1;
		h2_fail(h, CAUSE_HEADER_TOO_LARGE,
		    "HTTP/2 frames without payload past fetch.max-header-bytes + 64 KiB + the body");
	}
	if (h->failed) {
		h->stream = 0;
		return H2_ERROR;
	}
	if (h->stopped) {
		h->stream = 0;
		return H2_STOPPED;
	}
	if (h->ended) {
		h->stream = 0;
		return H2_DONE;
	}
	return H2_MORE;
}

size_t h2_out(struct h2 *h, const char **data)
{
	const uint8_t *p;
	ssize_t n = nghttp2_session_mem_send(h->s, &p);

	if (n < 0) {
		h->dead = 1;
		h2_fail(h, CAUSE_H2_PROTOCOL, nghttp2_strerror((int)n));
		return 0;
	}
	/* A connection error nghttp2 found itself (a frame too large, bad
	 * HPACK...) does not fail mem_recv: the session queues its GOAWAY and
	 * stops reading once that is sent, which would leave the stream open
	 * for ever. */
	if (n == 0 && h->stream != 0 && !h->ended && !h->failed &&
	    !nghttp2_session_want_read(h->s)) {
		char why[240];
		h->dead = 1;
		snprintf(why, sizeof why, "HTTP/2 protocol error%s%s", h->lib_err[0] ? ": " : "",
		    h->lib_err);
		h2_fail(h, CAUSE_H2_PROTOCOL, why);
	}
	*data = (const char *)p;
	return (size_t)n;
}

int h2_failed(const struct h2 *h)
{
	return h->failed;
}

int h2_reusable(const struct h2 *h)
{
	/* A client's stream ids are odd and end at 2^31 - 1. */
	return !h->goaway && !h->dead && !h->failed && !h->stopped &&
	    nghttp2_session_want_read(h->s) &&
	    nghttp2_session_get_next_stream_id(h->s) < (1u << 31) - 2;
}

uint64_t h2_bytes_in(const struct h2 *h)
{
	return h->in_bytes;
}

const char *h2_error(const struct h2 *h)
{
	return h->err != NULL ? h->err : "HTTP/2 error";
}

enum status_cause h2_cause(const struct h2 *h)
{
	return h->failed ? h->cause : CAUSE_H2_PROTOCOL;
}
