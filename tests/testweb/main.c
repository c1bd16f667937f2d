/* testweb: the synthetic web server used by tern's tests and benchmarks.
 * Binds 127.0.0.1 port 0 only and reports the chosen ports through the
 * ready file, so concurrent test runs never collide. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <getopt.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <uv.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include "lib/xmalloc.h"
#include "web.h"
#include "files.h"
#include "script.h"
#include "reqlog.h"
#include "conn.h"

struct main_listener {
	uv_tcp_t tcp;
	enum conn_port port;
	struct conn_ctx *ctx;
	unsigned bound;
};

static struct main_listener main_listeners[3];
static int main_nlisteners;
static uv_signal_t main_sigterm, main_sigint;
static struct reqlog *main_log;

static void main_usage(FILE *f)
{
	fputs(
	    "usage: testweb --ready-file FILE [--hosts N] [--pages P] [--links L] [--cross F]\n"
	    "               [--kb K] [--seed S] [--latency-ms MIN-MAX] [--tls-cert PEM --tls-key PEM]\n"
	    "               [--no-tls-resume] [--request-log FILE] [--manifest FILE] [--seeds-file FILE]\n"
	    "               [--script HOST=KIND[:COUNT]]... [--change-periods LIST] [--sitemaps]\n"
	    "               [--crawl-delay SECONDS] [--verbose]\n"
	    "       testweb --write-dir DIR --port-base N [--gzip-files] [--hosts N] [--pages P]\n"
	    "               [--links L] [--cross F] [--kb K] [--seed S] [--manifest FILE] [--seeds-file FILE]\n"
	    "See tests/testweb/README.md.\n",
	    f);
}

static void main_die(const char *fmt, const char *arg)
{
	fprintf(stderr, "testweb: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static unsigned long main_number(const char *opt, const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > max) {
		fprintf(stderr, "testweb: %s: '%s' is not a number in 0..%lu\n", opt, s, max);
		exit(2);
	}
	return v;
}

/* --change-periods 0,5: the change periods (seconds) the /v/ index and
 * the sitemaps list, up to 8. */
static void main_periods(struct web_opts *wo, const char *list)
{
	char *copy = xstrdup(list), *save = NULL, *tok;

	wo->nchange = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (wo->nchange == sizeof(wo->change_periods) / sizeof(wo->change_periods[0]))
			main_die("--change-periods: more than 8 periods in '%s'", list);
		wo->change_periods[wo->nchange++] =
		    (uint32_t)main_number("--change-periods", tok, 86400);
	}
	free(copy);
}

/* Failed accepts, reported at exit: a benchmark must know whether the
 * server turned connections away (descriptor limit, backlog). */
static unsigned long main_accept_failures;
static int main_accept_first_error;

static void main_connection_cb(uv_stream_t *server, int status)
{
	struct main_listener *l = server->data;

	if (status == 0)
		status = conn_accept(server, l->ctx, l->port);
	if (status < 0 && main_accept_failures++ == 0)
		main_accept_first_error = status;
}

static unsigned main_listen(uv_loop_t *loop, struct conn_ctx *ctx, enum conn_port port)
{
	struct main_listener *l = &main_listeners[main_nlisteners++];
	struct sockaddr_storage ss;
	struct sockaddr_in sin;
	int len = sizeof(ss), e;

	uv_ip4_addr("127.0.0.1", 0, &sin);
	l->port = port;
	l->ctx = ctx;
	uv_tcp_init(loop, &l->tcp);
	l->tcp.data = l;
	if ((e = uv_tcp_bind(&l->tcp, (struct sockaddr *)&sin, 0)) != 0 ||
	    (e = uv_listen((uv_stream_t *)&l->tcp, 4096, main_connection_cb)) != 0 ||
	    (e = uv_tcp_getsockname(&l->tcp, (struct sockaddr *)&ss, &len)) != 0)
		main_die("cannot listen on 127.0.0.1: %s", uv_strerror(e));
	l->bound = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return l->bound;
}

static SSL_CTX *main_tls(const char *cert, const char *key, int resume)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	static const unsigned char sid[] = "testweb";

	if (!ctx)
		main_die("%s", "SSL_CTX_new failed");
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1)
		main_die("cannot load certificate %s", cert);
	if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 ||
	    SSL_CTX_check_private_key(ctx) != 1)
		main_die("cannot load private key %s", key);
	SSL_CTX_set_session_id_context(ctx, sid, sizeof(sid) - 1);
	if (resume) {
		SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
	} else {
		SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
		SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET);
		SSL_CTX_set_num_tickets(ctx, 0);
	}
	return ctx;
}

/* Written to FILE.tmp then renamed, so a reader never sees half a file. */
static void main_write_atomic(const char *path, const char *text)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0)
		main_die("cannot write %s", path);
	free(tmp);
}

static void main_write_manifest(const struct web *w, const char *path, unsigned port)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");

	if (!f || web_manifest_write(w, port, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0)
		main_die("cannot write manifest %s", path);
	free(tmp);
}

static void main_write_seeds(const struct web *w, const char *path, unsigned port)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");

	if (!f)
		main_die("cannot write %s", path);
	struct buf line = BUF_INIT;

	for (uint32_t h = 0; h < web_hosts(w); h++) {
		buf_reset(&line);
		web_origin(w, "http", h, port, &line);
		buf_appends(&line, "/\n");
		fputs(line.data, f);
	}
	buf_free(&line);
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		main_die("cannot write %s", path);
	free(tmp);
}

/* --write-dir: the web as files for a static server, then exit. */
static int main_write_files(
    const struct web_opts *wo, const char *dir, int gz, const char *manifest, const char *seeds)
{
	struct web *web;
	char *err = NULL;
	long n;

	if (wo->port_base == 0 || wo->port_base + wo->hosts - 1 > 65535)
		main_die("%s", "--write-dir needs --port-base N with N + hosts - 1 <= 65535");
	web = web_new(wo);
	if ((n = files_write(web, dir, wo->port_base, gz, &err)) < 0)
		main_die("--write-dir: %s", err);
	if (manifest)
		main_write_manifest(web, manifest, 0);
	if (seeds)
		main_write_seeds(web, seeds, 0);
	printf("testweb: wrote %ld files under %s\n", n, dir);
	web_free(web);
	return 0;
}

static void main_close_walk_cb(uv_handle_t *h, void *arg)
{
	(void)arg;
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

static void main_signal_cb(uv_signal_t *s, int signum)
{
	(void)signum;
	conn_close_all();
	uv_walk(s->loop, main_close_walk_cb, NULL);
}

/* Thousands of connections need thousands of descriptors. */
static void main_raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"hosts", required_argument, NULL, 'H'},
	    {"pages", required_argument, NULL, 'P'},
	    {"links", required_argument, NULL, 'L'},
	    {"cross", required_argument, NULL, 'C'},
	    {"kb", required_argument, NULL, 'K'},
	    {"seed", required_argument, NULL, 'S'},
	    {"latency-ms", required_argument, NULL, 'l'},
	    {"tls-cert", required_argument, NULL, 'c'},
	    {"tls-key", required_argument, NULL, 'k'},
	    {"no-tls-resume", no_argument, NULL, 'n'},
	    {"request-log", required_argument, NULL, 'r'},
	    {"manifest", required_argument, NULL, 'm'},
	    {"seeds-file", required_argument, NULL, 's'},
	    {"ready-file", required_argument, NULL, 'R'},
	    {"script", required_argument, NULL, 'x'},
	    {"change-periods", required_argument, NULL, 'p'},
	    {"sitemaps", no_argument, NULL, 'M'},
	    {"crawl-delay", required_argument, NULL, 'D'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"write-dir", required_argument, NULL, 'w'},
	    {"port-base", required_argument, NULL, 'B'},
	    {"gzip-files", no_argument, NULL, 'z'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct web_opts wo = {10, 100, 10, 0.2, 4, 1, 0, 0, 0, {0, 5}, 2, 0, 1, 0};
	const char *cert = NULL, *key = NULL, *logpath = NULL, *manifest = NULL, *seeds = NULL,
		   *ready = NULL;
	const char *writedir = NULL;
	int resume = 1, verbose = 0, gzfiles = 0, o;
	struct script *script = script_new();
	struct conn_ctx ctx;
	uv_loop_t *loop = uv_default_loop();
	struct web *web;
	char *err = NULL, *end, *line;
	unsigned stall;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'H':
			wo.hosts = (uint32_t)main_number("--hosts", optarg, 1000000);
			break;
		case 'P':
			wo.pages = (uint32_t)main_number("--pages", optarg, 100000000);
			break;
		case 'L':
			wo.links = (uint32_t)main_number("--links", optarg, 4096);
			break;
		case 'K':
			wo.kb = (uint32_t)main_number("--kb", optarg, 65536);
			break;
		case 'S':
			wo.seed = main_number("--seed", optarg, ~0UL);
			break;
		case 'C':
			wo.cross = strtod(optarg, &end);
			if (end == optarg || *end || wo.cross < 0 || wo.cross > 1)
				main_die("--cross: '%s' is not a fraction in 0..1", optarg);
			break;
		case 'l':
			if (sscanf(optarg, "%u-%u", &wo.latency_min_ms, &wo.latency_max_ms) != 2 ||
			    wo.latency_max_ms < wo.latency_min_ms || wo.latency_max_ms > 600000)
				main_die("--latency-ms: '%s' is not MIN-MAX milliseconds", optarg);
			break;
		case 'c':
			cert = optarg;
			break;
		case 'k':
			key = optarg;
			break;
		case 'n':
			resume = 0;
			break;
		case 'r':
			logpath = optarg;
			break;
		case 'm':
			manifest = optarg;
			break;
		case 's':
			seeds = optarg;
			break;
		case 'R':
			ready = optarg;
			break;
		case 'x':
			if (script_add(script, optarg, &err) < 0)
				main_die("%s", err);
			break;
		case 'p':
			main_periods(&wo, optarg);
			break;
		case 'M':
			wo.sitemaps = 1;
			break;
		case 'D':
			wo.crawl_delay_s = (uint32_t)main_number("--crawl-delay", optarg, 3600);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'w':
			writedir = optarg;
			break;
		case 'B':
			wo.port_base = (unsigned)main_number("--port-base", optarg, 65535);
			break;
		case 'z':
			gzfiles = 1;
			break;
		case 'h':
			main_usage(stdout);
			return 0;
		default:
			main_usage(stderr);
			return 2;
		}
	}
	if (wo.hosts == 0 || wo.pages == 0)
		main_die("%s", "--hosts and --pages must be at least 1");
	if (writedir) {
		script_free(script);
		return main_write_files(&wo, writedir, gzfiles, manifest, seeds);
	}
	if (optind != argc || !ready || (!cert) != (!key) || wo.port_base) {
		main_usage(stderr);
		return 2;
	}
	main_raise_fd_limit();
	wo.epoch_s = (int64_t)time(NULL);
	web = web_new(&wo);
	memset(&ctx, 0, sizeof(ctx));
	ctx.web = web;
	ctx.script = script;
	ctx.verbose = verbose;
	if (logpath && !(main_log = reqlog_open(logpath, &err)))
		main_die("--request-log: %s", err);
	ctx.log = main_log;
	if (cert)
		ctx.ssl = main_tls(cert, key, resume);
	ctx.http_port = main_listen(loop, &ctx, CONN_HTTP);
	if (ctx.ssl)
		ctx.https_port = main_listen(loop, &ctx, CONN_HTTPS);
	stall = main_listen(loop, &ctx, CONN_STALL);
	if (manifest)
		main_write_manifest(web, manifest, ctx.http_port);
	if (seeds)
		main_write_seeds(web, seeds, ctx.http_port);
	uv_signal_init(loop, &main_sigterm);
	uv_signal_start(&main_sigterm, main_signal_cb, SIGTERM);
	uv_signal_init(loop, &main_sigint);
	uv_signal_start(&main_sigint, main_signal_cb, SIGINT);
	signal(SIGPIPE, SIG_IGN);
	line = xasprintf("http=%u https=%u stall=%u pid=%ld\n", ctx.http_port, ctx.https_port,
	    stall, (long)getpid());
	main_write_atomic(ready, line);
	free(line);
	uv_run(loop, UV_RUN_DEFAULT);
	fprintf(stderr, "testweb: at most %lu connections open at once; %lu accepts failed%s%s\n",
	    conn_max_open(), main_accept_failures, main_accept_failures ? ", first: " : "",
	    main_accept_failures ? uv_strerror(main_accept_first_error) : "");
	uv_loop_close(loop);
	reqlog_close(main_log);
	if (ctx.ssl)
		SSL_CTX_free(ctx.ssl);
	script_free(script);
	web_free(web);
	return 0;
}
