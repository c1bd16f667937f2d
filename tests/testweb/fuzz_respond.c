/* libFuzzer target: whatever a client sends as target, Host,
 * Accept-Encoding and validators, deciding the response must neither crash
 * nor leak. Input: five lines, target \n host \n accept-encoding \n
 * if-none-match \n if-modified-since (the last two absent when empty). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/xmalloc.h"
#include "respond.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct web *web;
	static struct script *script;
	char *in = xstrndup((const char *)data, size), *field[5] = {"", "", "", "", ""}, *p = in;
	struct respond_req q;
	struct response r;
	char *err = NULL;

	if (!web) {
		struct web_opts o = {5, 10, 6, 0.3, 1, 3, 0, 5, 1700000000, {0, 3, 60}, 3, 1, 0};

		web = web_new(&o);
		script = script_new();
		if (script_add(script, "h1.web.test=fail-5xx:3", &err) < 0 ||
		    script_add(script, "h2.web.test=slow:10", &err) < 0)
			abort();
	}
	for (int i = 0; i < 5 && p; i++) {
		field[i] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	memset(&q, 0, sizeof(q));
	q.method = size % 7 == 0 ? "HEAD" : "GET";
	q.target = field[0];
	q.host = field[1];
	q.port = 8080;
	q.tls = size % 2;
	q.accept_gzip = respond_accepts_gzip(field[2]);
	q.first_on_conn = size % 3 == 0;
	q.keep_alive = size % 5 != 0;
	q.if_none_match = field[3][0] ? field[3] : NULL;
	q.if_modified_since = field[4][0] ? field[4] : NULL;
	q.now_ms = 1700000000000.0 + (double)(size % 1000) * 1000.0;
	respond_init(&r);
	respond_build(web, script, &q, &r);
	if (r.stream) {
		char piece[65536];

		/* A few pieces of any stream, never the whole (possibly endless) body. */
		for (int i = 0; i < 4 && body_next(r.stream, piece, sizeof(piece)) > 0; i++)
			;
	}
	respond_free(&r);
	{
		struct script *s = script_new();

		if (script_add(s, field[2], &err) < 0)
			free(err);
		script_free(s);
	}
	free(in);
	return 0;
}
