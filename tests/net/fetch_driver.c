/* Test driver: runs several fetches one after another on one engine, so a
 * shell test can see connection reuse (after 204/304 with Content-Length,
 * after a normal response) and TLS session resumption.
 *
 *   fetch_driver [--set KEY=VALUE]... [--parallel] [--close-idle] [--withhold-after K] URL...
 *
 * One line per fetch: "URL status=N reused=R resumed=T raw=B decoded=D
 * ann=A dnscache=C error=E". --parallel starts every fetch at once;
 * --close-idle closes kept-alive connections before each fetch (so the next
 * TLS connection is new and may resume the session); --withhold-after K
 * lets the first K requests be written and withdraws every later one at the
 * last moment (struct fetch_cbs.may_send). */
#include <build-config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/config.h"
#include "net/dns.h"
#include "net/fetch.h"
#include "net/fetcher.h"
#include "lib/xmalloc.h"

struct driver {
	struct fetcher *fr;
	char **urls;
	int n, next, done;
	int parallel;
	int close_idle;
	int withhold_after; /* -1: never */
	int sends;
};

static void driver_start(struct driver *d);

static void driver_done_cb(void *arg, struct fetch *f)
{
	struct driver *d = arg;
	const struct dns_answer *a = fetch_dns_answer(f);

	printf("%s status=%d reused=%d resumed=%d raw=%" PRIu64 " decoded=%" PRIu64
	       " ann=%u dnscache=%d error=%s\n",
	    fetch_url(f), fetch_status(f), fetch_reused(f), fetch_tls_resumed(f),
	    fetch_raw_bytes(f), fetch_decoded_bytes(f), fetch_annotations(f),
	    a ? a->from_cache : -1, fetch_error(f) ? fetch_error(f) : "-");
	fflush(stdout);
	fetch_release(f);
	d->done++;
	if (!d->parallel)
		driver_start(d);
}

static int driver_may_send(void *arg, struct fetch *f)
{
	struct driver *d = arg;

	(void)f;
	return d->withhold_after < 0 || d->sends++ < d->withhold_after;
}

static void driver_start(struct driver *d)
{
	static const struct fetch_cbs cbs = {NULL, NULL, driver_done_cb, driver_may_send};
	struct fetch_req req;
	struct fetch *f;

	if (d->next >= d->n)
		return;
	memset(&req, 0, sizeof(req));
	req.url = d->urls[d->next++];
	if (d->close_idle) {
		const char *h = strstr(req.url, "://");
		char host[256];
		size_t n;
		h = h ? h + 3 : req.url;
		n = strcspn(h, ":/");
		snprintf(host, sizeof(host), "%.*s", (int)n, h);
		fetcher_close_idle(d->fr, host, 0);
	}
	fetch_start(d->fr, &req, &cbs, d, &f);
}

int main(int argc, char **argv)
{
	struct config *cfg = config_new();
	struct driver d;
	struct dns *dns;
	uv_loop_t loop;
	char *err = NULL;
	int i;

	memset(&d, 0, sizeof(d));
	d.withhold_after = -1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--set") == 0 && i + 1 < argc) {
			if (config_set(cfg, argv[++i], &err) != 0) {
				fprintf(stderr, "fetch_driver: %s\n", err);
				return 2;
			}
		} else if (strcmp(argv[i], "--parallel") == 0) {
			d.parallel = 1;
		} else if (strcmp(argv[i], "--close-idle") == 0) {
			d.close_idle = 1;
		} else if (strcmp(argv[i], "--withhold-after") == 0 && i + 1 < argc) {
			d.withhold_after = atoi(argv[++i]);
		} else {
			break;
		}
	}
	d.urls = argv + i;
	d.n = argc - i;
	if (d.n == 0) {
		fprintf(stderr,
		    "usage: fetch_driver [--set KEY=VALUE]... [--parallel] [--close-idle] "
		    "[--withhold-after K] URL...\n");
		return 2;
	}
	uv_loop_init(&loop);
	dns = dns_new(&loop, cfg, &err);
	if (dns == NULL) {
		fprintf(stderr, "fetch_driver: %s\n", err);
		return 2;
	}
	d.fr = fetcher_new(&loop, cfg, dns, &err);
	if (d.fr == NULL) {
		fprintf(stderr, "fetch_driver: %s\n", err);
		return 2;
	}
	if (d.parallel)
		while (d.next < d.n)
			driver_start(&d);
	else
		driver_start(&d);
	while (d.done < d.n && uv_run(&loop, UV_RUN_ONCE) != 0)
		;
	fetcher_free(d.fr);
	dns_free(dns);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	config_free(cfg);
	return d.done == d.n ? 0 : 1;
}
