/* Fetch engine throughput against the test web: requests per second and
 * CPU microseconds per request, keeping C fetches in flight over H hosts.
 *
 *   fetchbench [--tls CA_FILE] [--hosts H] [--pages P] [--requests N]
 *              [--concurrency C] [--new-conns] PORT
 *
 * Addresses are given (no DNS), so this measures connections, TLS, HTTP
 * and decoding. --new-conns closes each host's kept-alive connections
 * before every fetch, so every fetch connects (and over TLS, handshakes:
 * resumed if the server keeps sessions, full if it runs --no-tls-resume). */
#include <build-config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

#include "lib/config.h"
#include "net/fetch.h"
#include "net/fetcher.h"
#include "lib/xmalloc.h"

struct bench {
	struct fetcher *fr;
	struct sockaddr_in sa;
	const char *scheme;
	int port, hosts, pages, new_conns;
	long requests, started, done, ok, resumed, reused;
	uint64_t bytes;
};

static void bench_start(struct bench *b);

static void bench_done_cb(void *arg, struct fetch *f)
{
	struct bench *b = arg;

	b->done++;
	if (fetch_status(f) == 200)
		b->ok++;
	else if (b->done - b->ok <= 3)
		fprintf(stderr, "fetchbench: %s: %d %s\n", fetch_url(f), fetch_status(f),
		    fetch_error(f) ? fetch_error(f) : "");
	b->resumed += fetch_tls_resumed(f);
	b->reused += fetch_reused(f);
	b->bytes += fetch_raw_bytes(f);
	fetch_release(f);
	bench_start(b);
}

static void bench_start(struct bench *b)
{
	static const struct fetch_cbs cbs = {NULL, NULL, bench_done_cb, NULL};
	struct fetch_req req;
	struct fetch *f;
	char url[256], host[64];
	long k;

	if (b->started >= b->requests)
		return;
	k = b->started++;
	snprintf(host, sizeof(host), "h%ld.web.test", k % b->hosts);
	snprintf(url, sizeof(url), "%s://%s:%d/p/%ld.html", b->scheme, host, b->port,
	    1 + (k / b->hosts) % (b->pages - 1));
	if (b->new_conns)
		fetcher_close_idle(b->fr, host, b->port);
	memset(&req, 0, sizeof(req));
	req.url = url;
	req.addr = (struct sockaddr *)&b->sa;
	fetch_start(b->fr, &req, &cbs, b, &f);
}

static double bench_secs(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct config *cfg = config_new();
	struct bench b;
	struct rusage r0, r1;
	struct timeval t0, t1;
	uv_loop_t loop;
	char *err = NULL, *ca = NULL;
	int conc = 64, i;
	double wall, cpu;

	memset(&b, 0, sizeof(b));
	b.scheme = "http";
	b.hosts = 1000;
	b.pages = 100;
	b.requests = 20000;
	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--tls") == 0 && i + 1 < argc - 1) {
			b.scheme = "https";
			ca = argv[++i];
		} else if (strcmp(argv[i], "--hosts") == 0 && i + 1 < argc - 1) {
			b.hosts = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--pages") == 0 && i + 1 < argc - 1) {
			b.pages = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--requests") == 0 && i + 1 < argc - 1) {
			b.requests = atol(argv[++i]);
		} else if (strcmp(argv[i], "--concurrency") == 0 && i + 1 < argc - 1) {
			conc = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--new-conns") == 0) {
			b.new_conns = 1;
		} else {
			break;
		}
	}
	if (i != argc - 1 || b.hosts < 1 || b.pages < 2 || conc < 1) {
		fprintf(stderr,
		    "usage: fetchbench [--tls CA_FILE] [--hosts H] [--pages P] "
		    "[--requests N] [--concurrency C] [--new-conns] PORT\n");
		return 2;
	}
	b.port = atoi(argv[i]);
	uv_ip4_addr("127.0.0.1", b.port, &b.sa);
	if (ca) {
		char *set = xasprintf("fetch.ca-file=%s", ca);
		if (config_set(cfg, set, &err) != 0) {
			fprintf(stderr, "fetchbench: %s\n", err);
			return 2;
		}
		free(set);
	}
	{
		/* Many sockets at once: lift the soft descriptor limit. */
		struct rlimit rl;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	uv_loop_init(&loop);
	b.fr = fetcher_new(&loop, cfg, NULL, &err);
	if (b.fr == NULL) {
		fprintf(stderr, "fetchbench: %s\n", err);
		return 1;
	}
	getrusage(RUSAGE_SELF, &r0);
	gettimeofday(&t0, NULL);
	for (i = 0; i < conc; i++)
		bench_start(&b);
	while (b.done < b.requests && uv_run(&loop, UV_RUN_ONCE) != 0)
		;
	gettimeofday(&t1, NULL);
	getrusage(RUSAGE_SELF, &r1);
	wall = bench_secs(&t1) - bench_secs(&t0);
	cpu = bench_secs(&r1.ru_utime) - bench_secs(&r0.ru_utime) + bench_secs(&r1.ru_stime) -
	    bench_secs(&r0.ru_stime);
	printf("%s%s: %ld requests (%ld ok, %ld on kept-alive connections, %ld TLS resumed) "
	       "over %d hosts, concurrency %d: %.0f req/s, %.1f us CPU/request, %.1f MB/s\n",
	    b.scheme, b.new_conns ? " new connections" : " keep-alive", b.done, b.ok, b.reused,
	    b.resumed, b.hosts, conc, b.done / wall, cpu * 1e6 / b.done, b.bytes / wall / 1e6);
	fetcher_free(b.fr);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	config_free(cfg);
	return b.ok == b.done ? 0 : 1;
}
