/* Turns a request into a response description. Order of precedence: /_mis/
 * paths, then per-host scripts, then the synthetic web. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <inttypes.h>
#include "lib/xmalloc.h"
#include "respond.h"
#include "mis.h"
#include "gzcache.h"
#include "change.h"

void respond_init(struct response *r)
{
	memset(r, 0, sizeof(*r));
	buf_init(&r->head);
	buf_init(&r->body);
}

void respond_free(struct response *r)
{
	buf_free(&r->head);
	buf_free(&r->body);
	if (r->stream)
		body_free(r->stream);
	respond_init(r);
}

static const char *respond_reason(int status)
{
	switch (status) {
	case 100:
		return "Continue";
	case 200:
		return "OK";
	case 204:
		return "No Content";
	case 301:
		return "Moved Permanently";
	case 302:
		return "Found";
	case 304:
		return "Not Modified";
	case 400:
		return "Bad Request";
	case 403:
		return "Forbidden";
	case 404:
		return "Not Found";
	case 500:
		return "Internal Server Error";
	case 503:
		return "Service Unavailable";
	default:
		return "Status";
	}
}

void respond_head(
    struct response *r, int status, const char *content_type, uint64_t length, const char *extra)
{
	r->status = status;
	buf_appendf(
	    &r->head, "HTTP/1.1 %d %s\r\nServer: testweb\r\n", status, respond_reason(status));
	if (content_type)
		buf_appendf(&r->head, "Content-Type: %s\r\n", content_type);
	if (length != UINT64_MAX)
		buf_appendf(&r->head, "Content-Length: %" PRIu64 "\r\n", length);
	if (extra)
		buf_appends(&r->head, extra);
	if (r->after == RESPOND_CLOSE)
		buf_appends(&r->head, "Connection: close\r\n");
	buf_appends(&r->head, "\r\n");
}

long respond_param(const char *query, const char *name, long dflt, long min, long max)
{
	size_t nl = strlen(name);

	for (const char *p = query; p && *p;) {
		if (strncmp(p, name, nl) == 0 && p[nl] == '=') {
			char *end;
			long v = strtol(p + nl + 1, &end, 10);

			if (end == p + nl + 1 || (*end && *end != '&'))
				return dflt;
			return v < min ? min : v > max ? max : v;
		}
		p = strchr(p, '&');
		if (p)
			p++;
	}
	return dflt;
}

void respond_strip_body(struct response *r)
{
	buf_reset(&r->body);
	if (r->stream) {
		body_free(r->stream);
		r->stream = NULL;
	}
	r->drip_ms = 0;
}

int respond_wants_continue(const char *target, const char *expect)
{
	return strncmp(target, "/_mis/100", 9) == 0 ||
	    (expect && strcasecmp(expect, "100-continue") == 0);
}

/* gzip is acceptable if listed (or "*" is) without q=0. */
int respond_accepts_gzip(const char *ae)
{
	const char *p = ae;

	while (p && *p) {
		size_t len;
		const char *q, *end = strchr(p, ',');

		while (*p == ' ' || *p == '\t')
			p++;
		len = end ? (size_t)(end - p) : strlen(p);
		if ((len >= 4 && strncasecmp(p, "gzip", 4) == 0 &&
			(len == 4 || p[4] == ';' || p[4] == ' ')) ||
		    (len >= 1 && p[0] == '*' && (len == 1 || p[1] == ';' || p[1] == ' '))) {
			q = memchr(p, '=', len);
			if (!q || strtod(q + 1, NULL) > 0.0)
				return 1;
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

static int respond_textual(const char *ctype)
{
	return strncmp(ctype, "text/", 5) == 0;
}

static void respond_simple(struct response *r, int status, const char *extra)
{
	buf_appendf(
	    &r->body, "<html><body><h1>%d %s</h1></body></html>\n", status, respond_reason(status));
	respond_head(r, status, "text/html; charset=utf-8", r->body.len, extra);
}

static void respond_web(
    const struct web *w, const struct respond_req *q, const char *path, struct response *r)
{
	int host = web_host_index(w, q->host, strlen(q->host));
	struct web_reply wr;
	enum web_kind kind = WEB_NONE;
	uint32_t num = 0;
	struct buf extra = BUF_INIT;

	web_reply_init(&wr);
	if (host >= 0) {
		kind = web_lookup(w, path, &num);
		r->delay_ms += web_latency_ms(w, (uint32_t)host);
	}
	web_render(
	    w, host >= 0 ? (uint32_t)host : 0, kind, num, q->tls ? "https" : "http", q->port, &wr);
	if (wr.location.len)
		buf_appendf(&extra, "Location: %s\r\n", wr.location.data);
	if (q->accept_gzip && respond_textual(wr.content_type)) {
		gzcache_encode(&wr, &r->body);
		buf_appends(&extra, "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n");
	} else {
		buf_append(&r->body, wr.body.data, wr.body.len);
	}
	respond_head(r, wr.status, wr.content_type, r->body.len, extra.data);
	buf_free(&extra);
	web_reply_free(&wr);
}

void respond_build(
    const struct web *w, struct script *s, const struct respond_req *q, struct response *r)
{
	char *path = xstrdup(q->target), *query = strchr(path, '?');
	enum script_verdict v;

	if (query)
		*query++ = '\0';
	r->after = q->keep_alive ? RESPOND_KEEP : RESPOND_CLOSE;
	if (strncmp(path, "/_mis/", 6) == 0) {
		mis_build(q, path, query ? query : "", r);
	} else {
		v = script_check(
		    s, q->host, strcmp(path, "/robots.txt") == 0, q->first_on_conn, &r->delay_ms);
		switch (v) {
		case SCRIPT_RESET:
			r->action = RESPOND_RESET;
			break;
		case SCRIPT_503:
			respond_simple(r, 503, NULL);
			break;
		case SCRIPT_RETRY_AFTER:
			respond_simple(r, 503, "Retry-After: 2\r\n");
			break;
		case SCRIPT_ROBOTS_500:
			respond_simple(r, 500, NULL);
			break;
		case SCRIPT_PASS:
			if (change_handles(path) &&
			    web_host_index(w, q->host, strlen(q->host)) >= 0)
				change_build(w,
				    (uint32_t)web_host_index(w, q->host, strlen(q->host)), q, path,
				    query ? query : "", r);
			else
				respond_web(w, q, path, r);
			break;
		}
	}
	if (strcmp(q->method, "HEAD") == 0)
		respond_strip_body(r);
	free(path);
}
