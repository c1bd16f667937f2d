/* libFuzzer target for the console's request handling before the crawl is
 * touched: the input's first byte picks the listener (bit 0: TCP), the rest
 * is an HTTP request parsed by ctlreq and routed by consolereq; the query
 * string and the body are also walked as form pairs. The invariants are the
 * console's security rules: on TCP nothing but an asset, the login page or
 * a refusal without the token; a POST's token only from its header; a
 * refusal is a 4xx; a redirect's Location is safe for a header; an asset's
 * name cannot leave the asset table's namespace. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ops/consolereq.h"
#include "lib/form.h"
#include "net/ctlreq.h"

#define FUZZ_TOKEN "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_console_walk(const char *s)
{
	struct buf n = BUF_INIT, v = BUF_INIT;
	const char *p = s;
	size_t steps = 0;

	while (form_next(&p, &n, &v) != 0)
		if (++steps > strlen(s) + 1)
			abort();
	buf_free(&n);
	buf_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"crawler1"};
	struct consolereq_listener l = {0, FUZZ_TOKEN, 8080, names, 1};
	struct ctlreq_parser *p;
	const struct ctlreq *q;
	struct consolereq r;
	struct consolereq_in in;
	const char *auth;
	int header_token;

	if (size == 0)
		return 0;
	l.tcp = data[0] & 1;
	p = ctlreq_parser_new();
	if (ctlreq_feed(p, (const char *)data + 1, size - 1) != CTLREQ_DONE) {
		ctlreq_parser_free(p);
		return 0;
	}
	q = ctlreq_request(p);
	fuzz_console_walk(q->query.data);
	fuzz_console_walk(q->body.data);
	in.method = q->method;
	in.path = q->path.data;
	in.query = q->query.data;
	in.host = ctlreq_header(q, CTLREQ_H_HOST);
	in.origin = ctlreq_header(q, CTLREQ_H_ORIGIN);
	in.fetch_site = ctlreq_header(q, CTLREQ_H_FETCH_SITE);
	in.authorization = auth = ctlreq_header(q, CTLREQ_H_AUTHORIZATION);
	header_token = auth != NULL && strstr(auth, FUZZ_TOKEN) != NULL;
	consolereq_init(&r);
	consolereq_route(&l, &in, &r);
	switch (r.kind) {
	case CONSOLEREQ_REFUSE:
	case CONSOLEREQ_LOGIN:
		if (r.status < 400 || r.status > 499 || r.why == NULL)
			abort();
		break;
	case CONSOLEREQ_ASSET:
		/* No '/': the name can only be a name of the table. */
		if (strspn(r.asset, "abcdefghijklmnopqrstuvwxyz0123456789.-") != strlen(r.asset))
			abort();
		break;
	case CONSOLEREQ_REDIRECT:
		for (size_t i = 0; i < r.location.len; i++)
			if ((unsigned char)r.location.data[i] <= 0x20 ||
			    (unsigned char)r.location.data[i] >= 0x7f)
				abort();
		/* fall through */
	case CONSOLEREQ_PAGE:
	case CONSOLEREQ_CONTROL:
		if (l.tcp && !header_token &&
		    (strcmp(q->method, "GET") != 0 || strstr(q->query.data, FUZZ_TOKEN) == NULL))
			abort();
		if (l.tcp && in.host == NULL)
			abort();
		if (r.kind == CONSOLEREQ_PAGE && (r.pageno < 1 || r.pageno > CONSOLEREQ_MAX_PAGE))
			abort();
		break;
	}
	consolereq_free(&r);
	ctlreq_parser_free(p);
	return 0;
}
