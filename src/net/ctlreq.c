/* Control socket request parsing over llhttp. llhttp checks the syntax; this
 * file adds the caps (head, target, body) and stops at the end of the first
 * request by pausing the parser in on_message_complete. */
#include "lib/form.h"
#include "net/ctlreq.h"
#include "lib/xmalloc.h"

#include <llhttp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct ctlreq_parser {
	llhttp_t ll;
	struct ctlreq req;
	size_t head_seen; /* bytes fed before the head was complete */
	struct buf field; /* the header name being read */
	int cur;	  /* its enum ctlreq_header, or -1 for one not kept */
	int headers_done;
	enum ctlreq_result result;
	int err_status;
	char err[160];
};

static llhttp_settings_t ctlreq_settings;
static int ctlreq_settings_ready;

static struct ctlreq_parser *ctlreq_of(llhttp_t *ll)
{
	return (struct ctlreq_parser *)ll->data;
}

/* Records the first refusal; later ones keep it. */
static int ctlreq_refuse(struct ctlreq_parser *p, int status, const char *msg)
{
	if (p->err_status == 0) {
		p->err_status = status;
		snprintf(p->err, sizeof p->err, "%s", msg);
	}
	return -1;
}

static int ctlreq_on_url_cb(llhttp_t *ll, const char *at, size_t len)
{
	struct ctlreq_parser *p = ctlreq_of(ll);

	if (p->req.path.len + len > CTLREQ_MAX_TARGET)
		return ctlreq_refuse(p, 414, "request target too long");
	buf_append(&p->req.path, at, len);
	return 0;
}

static const char *const ctlreq_header_names[CTLREQ_H__COUNT] = {
    "host",
    "origin",
    "authorization",
    "sec-fetch-site",
    "content-type",
};

static int ctlreq_on_header_field_cb(llhttp_t *ll, const char *at, size_t len)
{
	buf_append(&ctlreq_of(ll)->field, at, len);
	return 0;
}

static int ctlreq_on_header_field_complete_cb(llhttp_t *ll)
{
	struct ctlreq_parser *p = ctlreq_of(ll);

	p->cur = -1;
	for (int h = 0; h < CTLREQ_H__COUNT; h++) {
		if (strcasecmp(p->field.data, ctlreq_header_names[h]) == 0) {
			if (p->req.has & (1u << h))
				return ctlreq_refuse(
				    p, 400, "a header the routes read is repeated");
			p->req.has |= 1u << h;
			p->cur = h;
		}
	}
	buf_reset(&p->field);
	buf_append(&p->field, "", 0);
	return 0;
}

static int ctlreq_on_header_value_cb(llhttp_t *ll, const char *at, size_t len)
{
	struct ctlreq_parser *p = ctlreq_of(ll);

	/* The head's cap bounds what is kept. */
	if (p->cur >= 0)
		buf_append(&p->req.header[p->cur], at, len);
	return 0;
}

/* llhttp drops the blanks before a value, not those after it. */
static int ctlreq_on_header_value_complete_cb(llhttp_t *ll)
{
	struct ctlreq_parser *p = ctlreq_of(ll);
	struct buf *v;

	if (p->cur < 0)
		return 0;
	v = &p->req.header[p->cur];
	while (v->len > 0 && (v->data[v->len - 1] == ' ' || v->data[v->len - 1] == '\t'))
		v->data[--v->len] = '\0';
	return 0;
}

static int ctlreq_on_headers_complete_cb(llhttp_t *ll)
{
	struct ctlreq_parser *p = ctlreq_of(ll);
	char *q = memchr(p->req.path.data, '?', p->req.path.len);
	uint8_t m = llhttp_get_method(ll);

	p->headers_done = 1;
	if (m == HTTP_GET || m == HTTP_POST || m == HTTP_HEAD || m == HTTP_PUT || m == HTTP_DELETE)
		snprintf(p->req.method, sizeof p->req.method, "%s",
		    llhttp_method_name((llhttp_method_t)m));
	if (q != NULL) {
		size_t at = (size_t)(q - p->req.path.data);
		buf_append(&p->req.query, q + 1, p->req.path.len - at - 1);
		p->req.path.len = at;
		p->req.path.data[at] = '\0';
	}
	if ((ll->flags & F_CONTENT_LENGTH) && ll->content_length > CTLREQ_MAX_BODY)
		return ctlreq_refuse(p, 413, "request body too large");
	return 0;
}

static int ctlreq_on_body_cb(llhttp_t *ll, const char *at, size_t len)
{
	struct ctlreq_parser *p = ctlreq_of(ll);

	if (p->req.body.len + len > CTLREQ_MAX_BODY)
		return ctlreq_refuse(p, 413, "request body too large");
	buf_append(&p->req.body, at, len);
	return 0;
}

static int ctlreq_on_message_complete_cb(llhttp_t *ll)
{
	(void)ll;
	/* Stop here: bytes after the first request are not read. */
	return HPE_PAUSED;
}

struct ctlreq_parser *ctlreq_parser_new(void)
{
	struct ctlreq_parser *p = xcalloc(1, sizeof *p);

	if (!ctlreq_settings_ready) {
		llhttp_settings_init(&ctlreq_settings);
		ctlreq_settings.on_url = ctlreq_on_url_cb;
		ctlreq_settings.on_header_field = ctlreq_on_header_field_cb;
		ctlreq_settings.on_header_field_complete = ctlreq_on_header_field_complete_cb;
		ctlreq_settings.on_header_value = ctlreq_on_header_value_cb;
		ctlreq_settings.on_header_value_complete = ctlreq_on_header_value_complete_cb;
		ctlreq_settings.on_headers_complete = ctlreq_on_headers_complete_cb;
		ctlreq_settings.on_body = ctlreq_on_body_cb;
		ctlreq_settings.on_message_complete = ctlreq_on_message_complete_cb;
		ctlreq_settings_ready = 1;
	}
	llhttp_init(&p->ll, HTTP_REQUEST, &ctlreq_settings);
	p->ll.data = p;
	/* Reserved so that the three are valid (empty) strings from the start. */
	buf_init(&p->req.path);
	buf_init(&p->req.query);
	buf_init(&p->req.body);
	buf_append(&p->req.path, "", 0);
	buf_append(&p->req.query, "", 0);
	buf_append(&p->req.body, "", 0);
	buf_init(&p->field);
	buf_append(&p->field, "", 0);
	p->cur = -1;
	for (int h = 0; h < CTLREQ_H__COUNT; h++) {
		buf_init(&p->req.header[h]);
		buf_append(&p->req.header[h], "", 0);
	}
	return p;
}

void ctlreq_parser_free(struct ctlreq_parser *p)
{
	if (p == NULL)
		return;
	buf_free(&p->req.path);
	buf_free(&p->req.query);
	buf_free(&p->req.body);
	buf_free(&p->field);
	for (int h = 0; h < CTLREQ_H__COUNT; h++)
		buf_free(&p->req.header[h]);
	free(p);
}

static enum ctlreq_result ctlreq_execute(struct ctlreq_parser *p, const char *data, size_t len)
{
	llhttp_errno_t e = llhttp_execute(&p->ll, data, len);

	if (e == HPE_PAUSED) {
		p->result = CTLREQ_DONE;
	} else if (e != HPE_OK) {
		if (p->err_status == 0) {
			char msg[120];
			snprintf(msg, sizeof msg, "malformed request: %s",
			    llhttp_get_error_reason(&p->ll));
			ctlreq_refuse(p, 400, msg);
		}
		p->result = CTLREQ_ERROR;
	}
	return p->result;
}

enum ctlreq_result ctlreq_feed(struct ctlreq_parser *p, const char *data, size_t len)
{
	if (p->result != CTLREQ_MORE)
		return p->result;
	/* While the head is incomplete, feed no more than the cap allows, so
	 * an endless head is refused after CTLREQ_MAX_HEAD bytes however it
	 * arrives. */
	while (!p->headers_done && len > 0) {
		size_t room = CTLREQ_MAX_HEAD + 1 - p->head_seen;
		size_t n = len < room ? len : room;

		p->head_seen += n;
		if (ctlreq_execute(p, data, n) != CTLREQ_MORE)
			return p->result;
		data += n;
		len -= n;
		if (!p->headers_done && p->head_seen > CTLREQ_MAX_HEAD) {
			ctlreq_refuse(p, 431, "request head too large");
			p->result = CTLREQ_ERROR;
			return p->result;
		}
	}
	if (len > 0)
		ctlreq_execute(p, data, len);
	return p->result;
}

const struct ctlreq *ctlreq_request(const struct ctlreq_parser *p)
{
	return &p->req;
}

const char *ctlreq_header(const struct ctlreq *req, enum ctlreq_header h)
{
	return req->has & (1u << h) ? req->header[h].data : NULL;
}

int ctlreq_error_status(const struct ctlreq_parser *p)
{
	return p->err_status;
}

const char *ctlreq_error_message(const struct ctlreq_parser *p)
{
	return p->err;
}

int ctlreq_query_param(const char *query, const char *name, struct buf *out)
{
	return form_get(query, name, out);
}
