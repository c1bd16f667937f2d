/* libFuzzer target for the control socket's request parsing (ctlreq): the
 * input is fed whole and, in a second parser, split at a point the first
 * byte picks, as a socket may deliver it. Both must reach the same verdict,
 * a refusal must carry a 4xx status, and an accepted request must respect
 * the caps. The query lookup runs on whatever target was accepted. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "net/ctlreq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctlreq_parser *a, *b;
	enum ctlreq_result ra, rb;
	size_t cut;

	if (size == 0)
		return 0;
	cut = data[0] % size;
	data++;
	size--;
	if (cut > size)
		cut = size;
	a = ctlreq_parser_new();
	b = ctlreq_parser_new();
	ra = ctlreq_feed(a, (const char *)data, size);
	rb = ctlreq_feed(b, (const char *)data, cut);
	if (rb == CTLREQ_MORE)
		rb = ctlreq_feed(b, (const char *)data + cut, size - cut);
	if (ra != rb)
		abort();
	if (ra == CTLREQ_ERROR && (ctlreq_error_status(a) < 400 || ctlreq_error_status(a) > 499))
		abort();
	if (ra == CTLREQ_DONE) {
		const struct ctlreq *r = ctlreq_request(a);
		struct buf v = BUF_INIT;

		if (r->path.len + r->query.len > CTLREQ_MAX_TARGET ||
		    r->body.len > CTLREQ_MAX_BODY ||
		    strcmp(r->path.data, ctlreq_request(b)->path.data) != 0 ||
		    r->body.len != ctlreq_request(b)->body.len)
			abort();
		ctlreq_query_param(r->query.data, "state", &v);
		ctlreq_query_param(r->query.data, "format", &v);
		buf_free(&v);
	}
	ctlreq_parser_free(a);
	ctlreq_parser_free(b);
	return 0;
}
