/* Memory held per connection and per fetch by the fetch engine, measured
 * with malloc accounting (mallinfo2) against a running test web:
 *
 *   sizes HTTP_PORT [HTTPS_PORT CA_FILE]      (bench/fetchbench.sh starts one)
 *
 * Figures: user-space bytes per in-flight plain fetch (request sent, no
 * answer: /_mis/hang), per idle kept-alive plain connection, and the same
 * two for TLS (handshake done). Kernel socket memory is not included
 * (about 4 KiB per idle loopback socket, performance-anchors 2e). Build
 * without sanitizers: they replace malloc. */
#include <build-config.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "lib/config.h"
#include "net/conn.h"
#include "net/dns.h"
#include "net/fetch.h"
#include "net/fetcher.h"
#include "lib/xmalloc.h"

/* Connections per measurement (below the usual 1024 descriptors). */
#define SIZES_N 800

static int sizes_done;

static void sizes_done_cb(void *arg, struct fetch *f)
{
	sizes_done++;
	fetch_release(f);
}

static size_t sizes_heap(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks;
}

/* Runs the loop for ms milliseconds. */
static void sizes_settle(uv_loop_t *loop, uint64_t ms)
{
	uint64_t end = uv_now(loop) + ms;

	while (uv_now(loop) < end) {
		uv_run(loop, UV_RUN_NOWAIT);
		uv_sleep(1);
		uv_update_time(loop);
	}
}

/* Starts n fetches of path on n host names; returns heap growth per fetch
 * once the loop has settled (wait_done: after every fetch completed). */
static double sizes_measure(uv_loop_t *loop, struct fetcher *fr, const char *scheme, int port,
    const char *path, int n, int wait_done)
{
	static const struct fetch_cbs cbs = {NULL, NULL, sizes_done_cb, NULL};
	struct sockaddr_in sa;
	size_t before;
	struct fetch *f;

	uv_ip4_addr("127.0.0.1", port, &sa);
	sizes_done = 0;
	malloc_trim(0);
	before = sizes_heap();
	for (int i = 0; i < n; i++) {
		struct fetch_req req;
		char url[256];

		snprintf(url, sizeof(url), "%s://h%d.web.test:%d%s", scheme, i, port, path);
		memset(&req, 0, sizeof(req));
		req.url = url;
		req.addr = (struct sockaddr *)&sa;
		fetch_start(fr, &req, &cbs, NULL, &f);
	}
	while (wait_done && sizes_done < n)
		uv_run(loop, UV_RUN_ONCE);
	sizes_settle(loop, 1500);
	return (double)(sizes_heap() - before) / n;
}

int main(int argc, char **argv)
{
	struct config *cfg = config_new();
	struct fetcher *fr;
	uv_loop_t loop;
	char *err = NULL;
	int port, tls_port = 0;
	double per;
	size_t before;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: sizes HTTP_PORT [HTTPS_PORT CA_FILE]\n");
		return 2;
	}
	port = atoi(argv[1]);
	if (argc == 4) {
		char *set = xasprintf("fetch.ca-file=%s", argv[3]);
		tls_port = atoi(argv[2]);
		if (config_set(cfg, set, &err) != 0) {
			fprintf(stderr, "sizes: %s\n", err);
			return 2;
		}
		free(set);
	}
	config_set(cfg, "fetch.idle-timeout-seconds=600", &err);
	{
		/* Many sockets at once: lift the soft descriptor limit. */
		struct rlimit rl;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
	}
	uv_loop_init(&loop);
	fr = fetcher_new(&loop, cfg, NULL, &err);
	if (fr == NULL) {
		fprintf(stderr, "sizes: %s\n", err);
		return 1;
	}
	printf("sizeof struct fetch %zu, struct conn %zu (includes uv_tcp_t %zu)\n", fetch_sizeof(),
	    conn_sizeof(), sizeof(uv_tcp_t));
	printf("plain in-flight fetch: %.0f bytes\n",
	    sizes_measure(&loop, fr, "http", port, "/_mis/hang", SIZES_N, 0));
	fetcher_free(fr);
	uv_run(&loop, UV_RUN_NOWAIT);
	fr = fetcher_new(&loop, cfg, NULL, &err);
	per = sizes_measure(&loop, fr, "http", port, "/robots.txt", SIZES_N, 1);
	printf("plain idle kept-alive connection: %.0f bytes (%zu idle)\n", per,
	    fetcher_idle_count(fr));
	if (tls_port) {
		fetcher_free(fr);
		uv_run(&loop, UV_RUN_NOWAIT);
		fr = fetcher_new(&loop, cfg, NULL, &err);
		printf("TLS in-flight fetch: %.0f bytes\n",
		    sizes_measure(&loop, fr, "https", tls_port, "/_mis/hang", SIZES_N, 0));
		fetcher_free(fr);
		uv_run(&loop, UV_RUN_NOWAIT);
		fr = fetcher_new(&loop, cfg, NULL, &err);
		per = sizes_measure(&loop, fr, "https", tls_port, "/robots.txt", SIZES_N, 1);
		printf(
		    "TLS idle kept-alive connection with its site's session: %.0f bytes (%zu idle)\n",
		    per, fetcher_idle_count(fr));
		/* What stays once the connections are gone: the sessions. */
		before = sizes_heap();
		for (int i = 0; i < SIZES_N; i++) {
			char host[64];
			snprintf(host, sizeof(host), "h%d.web.test", i);
			fetcher_close_idle(fr, host, 0);
		}
		sizes_settle(&loop, 200);
		malloc_trim(0);
		printf("  of which the TLS session kept per site: %.0f bytes\n",
		    per - (double)(before - sizes_heap()) / SIZES_N);
	}
	fetcher_free(fr);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	config_free(cfg);
	return 0;
}
