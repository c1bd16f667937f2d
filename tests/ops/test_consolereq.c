/* The console's request decisions: Host checks (DNS rebinding), the token
 * (missing 401, wrong 403, never from the query string for a POST), POSTs
 * from other origins, routes and page parameters, on the TCP listener and on
 * control.sock. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/consolereq.h"

#define T "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

struct test_consolereq_case {
	int tcp;
	const char *method, *path, *query, *host, *origin, *site, *auth;
	enum consolereq_kind kind;
	int status;	   /* REFUSE and LOGIN */
	int page;	   /* PAGE: enum consolereq_page */
	const char *extra; /* PAGE: "state,sort,pageno,key,code,host,mime,before,since";
					 * REDIRECT: the location; ASSET: its name */
};

static const struct test_consolereq_case test_consolereq_cases[] = {
    /* The token on TCP: missing, in the query, in the header, wrong. */
    {1, "GET", "/console/", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_LOGIN, 401, 0, 0},
    {1, "GET", "/console/", "token=" T, "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_OVERVIEW, ",,1,,,,,0,0"},
    {1, "GET", "/console/", "", "127.0.0.1:8080", 0, 0, "Bearer " T, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_OVERVIEW, ",,1,,,,,0,0"},
    {1, "GET", "/console/", "", "127.0.0.1:8080", 0, 0, "bearer  " T, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_OVERVIEW, ",,1,,,,,0,0"},
    {1, "GET", "/console/", "token=x" T, "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_LOGIN, 403, 0, 0},
    {1, "GET", "/console/", "token=0123", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_LOGIN, 403, 0, 0},
    {1, "GET", "/console/", "token=", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_LOGIN, 403, 0, 0},
    {1, "GET", "/console/", "", "127.0.0.1:8080", 0, 0, "Basic " T, CONSOLEREQ_LOGIN, 403, 0, 0},
    {1, "GET", "/console/", "", "127.0.0.1:8080", 0, 0, "Bearer " T "0", CONSOLEREQ_LOGIN, 403, 0,
	0},
    /* Unknown pages and the API answer 401 too, without saying whether
	 * they exist; JSON routes get JSON. */
    {1, "GET", "/console/nope", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_LOGIN, 401, 0, 0},
    {1, "GET", "/status", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 401, 0, 0},
    {1, "GET", "/console/api/live", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 401, 0, 0},
    {1, "POST", "/pause", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 401, 0, 0},
    /* A POST takes the token from its header only. */
    {1, "POST", "/pause", "token=" T, "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 401, 0, 0},
    {1, "POST", "/pause", "", "127.0.0.1:8080", "http://127.0.0.1:8080", "same-origin", "Bearer " T,
	CONSOLEREQ_CONTROL, 0, 0, 0},
    /* Cross-origin POSTs. */
    {1, "POST", "/pause", "", "127.0.0.1:8080", "http://evil.example", 0, "Bearer " T,
	CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "POST", "/settings", "", "127.0.0.1:8080", "null", 0, "Bearer " T, CONSOLEREQ_REFUSE, 403,
	0, 0},
    {1, "POST", "/pause", "", "127.0.0.1:8080", "https://127.0.0.1:8080", 0, "Bearer " T,
	CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "POST", "/stop", "", "127.0.0.1:8080", 0, "cross-site", "Bearer " T, CONSOLEREQ_REFUSE, 403,
	0, 0},
    {1, "POST", "/stop", "", "127.0.0.1:8080", 0, "same-site", "Bearer " T, CONSOLEREQ_REFUSE, 403,
	0, 0},
    /* Host: DNS rebinding, wrong port, none, malformed; a listed name. */
    {1, "GET", "/console/", "token=" T, "evil.example:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, "127.0.0.1:9999", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, "127.0.0.1", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, 0, 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, "127.0.0.1:8080:1", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, "1.2.3.4.5:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, "[::1]x", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, "[::1:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, "127.0.0.1:08080x", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/", "token=" T, "", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {1, "GET", "/console/static/console.css", "", "evil.example:8080", 0, 0, 0, CONSOLEREQ_REFUSE,
	403, 0, 0},
    {1, "GET", "/console/", "token=" T, "[::1]:8080", 0, 0, 0, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_OVERVIEW, ",,1,,,,,0,0"},
    {1, "GET", "/console/", "token=" T, "LocalHost:8080", 0, 0, 0, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_OVERVIEW, ",,1,,,,,0,0"},
    {1, "GET", "/console/", "token=" T, "CRAWLER1:8080", 0, 0, 0, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_OVERVIEW, ",,1,,,,,0,0"},
    {1, "GET", "/console/", "token=" T, "crawler2:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    /* Assets need no token; names are plain. */
    {1, "GET", "/console/static/console.css", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_ASSET, 0, 0,
	"console.css"},
    {1, "GET", "/console/static/../tern.conf", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_REFUSE,
	404, 0, 0},
    {1, "GET", "/console/static/", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 404, 0, 0},
    {1, "POST", "/console/static/console.js", "", "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_REFUSE, 405,
	0, 0},
    /* Redirects carry the query, made safe for a header. */
    {1, "GET", "/", "token=" T, "127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_REDIRECT, 0, 0,
	"/console/?token=" T},
    {0, "GET", "/console", "a=\r\n", 0, 0, 0, 0, CONSOLEREQ_REDIRECT, 0, 0, "/console/?a=%0D%0A"},
    /* Pages and their parameters. */
    {1, "GET", "/console/queues", "state=RETIRED&sort=size&page=3&token=" T, "127.0.0.1:8080", 0, 0,
	0, CONSOLEREQ_PAGE, 0, CONSOLEREQ_QUEUES, "retired,size,3,,,,,0,0"},
    {1, "GET", "/console/queues", "state=&after=com%2Cexample%2C&go=Show&token=" T,
	"127.0.0.1:8080", 0, 0, 0, CONSOLEREQ_PAGE, 0, CONSOLEREQ_QUEUES,
	",,1,com,example,,,,,0,0"},
    {0, "GET", "/console/queues", "state=sideways", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/queues", "sort=urls", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/queues", "page=0", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/queues", "page=101", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/queues", "page=99999999999999999999", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400,
	0, 0},
    {0, "GET", "/console/queues", "state=%zz", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/queue", "", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/queue", "key=a%00b", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/queue", "key=%3Cscript%3E", 0, 0, 0, 0, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_QUEUE, ",,1,<script>,,,,0,0"},
    {0, "GET", "/console/hosts", "sort=bytes&page=2", 0, 0, 0, 0, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_HOSTS, ",bytes,2,,,,,0,0"},
    {0, "GET", "/console/hosts", "sort=size", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/log", "status=4xx&host=H1.Web.TEST&mime=text/html&before=123", 0, 0, 0, 0,
	CONSOLEREQ_PAGE, 0, CONSOLEREQ_LOG, ",,1,,4xx,h1.web.test,text/html,123,0"},
    {0, "GET", "/console/log", "host=%3Cscript%3E", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/log", "status=200%20OR", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/log", "before=-1", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/log", "mime=text/html\"", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 400, 0, 0},
    {0, "GET", "/console/api/live", "since=1700000000000", 0, 0, 0, 0, CONSOLEREQ_PAGE, 0,
	CONSOLEREQ_LIVE, ",,1,,,,,0,1700000000000"},
    {0, "GET", "/console/api/history", "", 0, 0, 0, 0, CONSOLEREQ_PAGE, 0, CONSOLEREQ_HISTORY,
	",,1,,,,,0,0"},
    {0, "GET", "/console/settings", "", 0, 0, 0, 0, CONSOLEREQ_PAGE, 0, CONSOLEREQ_SETTINGS,
	",,1,,,,,0,0"},
    {0, "GET", "/console/checkpoints", "", 0, 0, 0, 0, CONSOLEREQ_PAGE, 0, CONSOLEREQ_CHECKPOINTS,
	",,1,,,,,0,0"},
    {0, "POST", "/console/queues", "", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 405, 0, 0},
    {0, "GET", "/console/nope", "", 0, 0, 0, 0, CONSOLEREQ_REFUSE, 404, 0, 0},
    /* control.sock: no token; Host checked when sent, with any port. */
    {0, "GET", "/console/", "", 0, 0, 0, 0, CONSOLEREQ_PAGE, 0, CONSOLEREQ_OVERVIEW, ",,1,,,,,0,0"},
    {0, "GET", "/console/", "", "localhost:1234", 0, 0, 0, CONSOLEREQ_PAGE, 0, CONSOLEREQ_OVERVIEW,
	",,1,,,,,0,0"},
    {0, "GET", "/console/", "", "evil.example:1234", 0, 0, 0, CONSOLEREQ_REFUSE, 403, 0, 0},
    {0, "POST", "/pause", "", "localhost", 0, 0, 0, CONSOLEREQ_CONTROL, 0, 0, 0},
    {0, "GET", "/status", "", 0, 0, 0, 0, CONSOLEREQ_CONTROL, 0, 0, 0},
    {0, "POST", "/pause", "", "evil.example:1234", "http://evil.example:1234", 0, 0,
	CONSOLEREQ_REFUSE, 403, 0, 0},
    {0, "POST", "/pause", "", "localhost:1234", "http://evil.example", 0, 0, CONSOLEREQ_REFUSE, 403,
	0, 0},
};

/* "state,sort,pageno,key,code,host,mime,before,since" of r (the key's
 * own commas are kept, which the expectations account for). */
static void test_consolereq_extra(const struct consolereq *r, struct buf *b)
{
	buf_appendf(b, "%s,%s,%u,%s,%s,%s,%s,%llu,%llu", r->state, r->sort, r->pageno, r->key.data,
	    r->code.data, r->host.data, r->mime.data, (unsigned long long)r->before,
	    (unsigned long long)r->since);
}

static void test_consolereq_table(void **state)
{
	static const char *const names[] = {"crawler1"};
	struct consolereq r;

	(void)state;
	consolereq_init(&r);
	for (size_t i = 0; i < sizeof test_consolereq_cases / sizeof test_consolereq_cases[0];
	     i++) {
		const struct test_consolereq_case *c = &test_consolereq_cases[i];
		struct consolereq_listener l = {c->tcp, T, 8080, names, 1};
		struct consolereq_in in = {
		    c->method, c->path, c->query, c->host, c->origin, c->site, c->auth};
		struct buf b = BUF_INIT;

		consolereq_route(&l, &in, &r);
		if (r.kind != c->kind)
			fail_msg("case %zu (%s %s?%s): kind %d, want %d (%d %s)", i, c->method,
			    c->path, c->query, r.kind, c->kind, r.status, r.why ? r.why : "");
		if (c->kind == CONSOLEREQ_REFUSE || c->kind == CONSOLEREQ_LOGIN) {
			if (r.status != c->status)
				fail_msg("case %zu: status %d, want %d", i, r.status, c->status);
			assert_non_null(r.why);
		} else if (c->kind == CONSOLEREQ_PAGE) {
			assert_int_equal(r.page, c->page);
			test_consolereq_extra(&r, &b);
			if (strcmp(b.data, c->extra) != 0)
				fail_msg("case %zu: \"%s\", want \"%s\"", i, b.data, c->extra);
		} else if (c->kind == CONSOLEREQ_REDIRECT) {
			assert_string_equal(r.location.data, c->extra);
		} else if (c->kind == CONSOLEREQ_ASSET) {
			assert_string_equal(r.asset, c->extra);
		}
		buf_free(&b);
	}
	consolereq_free(&r);
}

/* Links keep the token only when it came in the query; JSON routes answer
 * errors in JSON and pages in HTML. */
static void test_consolereq_flags(void **state)
{
	struct consolereq_listener l = {1, T, 8080, NULL, 0};
	struct consolereq_in in = {
	    "GET", "/console/hosts", "token=" T, "127.0.0.1:8080", NULL, NULL, NULL};
	struct consolereq r;

	(void)state;
	consolereq_init(&r);
	consolereq_route(&l, &in, &r);
	assert_int_equal(r.kind, CONSOLEREQ_PAGE);
	assert_true(r.token_in_query);
	assert_false(r.json);
	in.query = "";
	in.authorization = "Bearer " T;
	consolereq_route(&l, &in, &r);
	assert_false(r.token_in_query);
	in.path = "/console/api/history";
	in.authorization = NULL;
	consolereq_route(&l, &in, &r);
	assert_int_equal(r.kind, CONSOLEREQ_REFUSE);
	assert_true(r.json);
	for (int p = 0; p < CONSOLEREQ__NPAGES; p++)
		assert_non_null(consolereq_page_path((enum consolereq_page)p));
	/* A copy keeps everything once the original is reused. */
	in.path = "/console/log";
	in.query = "status=4xx&host=a.b&mime=text%2F&before=7";
	in.authorization = "Bearer " T;
	consolereq_route(&l, &in, &r);
	{
		struct consolereq c;
		consolereq_init(&c);
		consolereq_copy(&c, &r);
		in.query = "";
		consolereq_route(&l, &in, &r);
		assert_int_equal(c.page, CONSOLEREQ_LOG);
		assert_string_equal(c.code.data, "4xx");
		assert_string_equal(c.host.data, "a.b");
		assert_string_equal(c.mime.data, "text/");
		assert_int_equal(c.before, 7);
		assert_string_equal(r.code.data, "");
		consolereq_free(&c);
	}
	consolereq_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_consolereq_table),
	    cmocka_unit_test(test_consolereq_flags),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
