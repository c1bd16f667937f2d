/* `tern fetch URL`: runs the resolver and the fetch engine on a private
 * loop for one URL and prints what a crawler would record about it. The
 * body itself is not printed; its SHA-1 (raw, and decoded) lets a person or
 * a test check the bytes. */
#include <build-config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "lib/buf.h"
#include "lib/config.h"
#include "lib/url.h"
#include "net/dns.h"
#include "net/fetch.h"
#include "net/fetcher.h"
#include "fetchcmd.h"
#include "net/http.h"
#include "lib/reqheaders.h"
#include "lib/status.h"
#include "lib/xmalloc.h"

struct fetchcmd {
	EVP_MD_CTX *raw_md;
	EVP_MD_CTX *dec_md;
	int done;
};

static void fetchcmd_body_cb(
    void *arg, struct fetch *f, const char *raw, size_t rawlen, const char *dec, size_t declen)
{
	struct fetchcmd *fc = arg;

	if (rawlen)
		EVP_DigestUpdate(fc->raw_md, raw, rawlen);
	if (declen)
		EVP_DigestUpdate(fc->dec_md, dec, declen);
}

static void fetchcmd_done_cb(void *arg, struct fetch *f)
{
	struct fetchcmd *fc = arg;

	fc->done = 1;
}

/* The status's meaning, and for a failure its cause by name. */
static const char *fetchcmd_meaning(const struct fetch *f)
{
	int status = fetch_status(f);

	if (status < 0 && fetch_cause(f) != CAUSE_NONE)
		return status_cause_message(fetch_cause(f));
	if (status > 0)
		return "HTTP response";
	return status_message(status) != NULL ? status_message(status) : "failed";
}

static void fetchcmd_print_digest(const char *label, EVP_MD_CTX *md)
{
	unsigned char d[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	EVP_DigestFinal_ex(md, d, &n);
	printf("%s: ", label);
	for (unsigned i = 0; i < n; i++)
		printf("%02x", d[i]);
	printf("\n");
}

static void fetchcmd_print(struct fetchcmd *fc, struct fetch *f)
{
	const struct dns_answer *a = fetch_dns_answer(f);
	const struct fetch_timings *t = fetch_timings(f);
	unsigned ann = fetch_annotations(f);
	int status = fetch_status(f);
	size_t hl;
	const char *head;

	printf("url: %s\n", fetch_url(f));
	if (a) {
		if (a->status == STATUS_DNS_SUCCESS)
			printf("dns: 1 %s ttl=%" PRIu32 " server=%s%s\n", a->ip, a->ttl, a->server,
			    a->from_cache ? " cached" : "");
		else
			printf("dns: -1 server=%s error=%s\n", a->server,
			    a->error ? a->error : "lookup failed");
	}
	if (*fetch_ip(f))
		printf("ip: %s\n", fetch_ip(f));
	printf("status: %d (%s)\n", status, fetchcmd_meaning(f));
	if (fetch_error(f))
		printf("error: %s\n", fetch_error(f));
	/* The settings that change a failure, as the crawl's first-failure
	 * lines give them (tern(1), FAILURES). */
	if (status < 0 && *status_cause_settings(fetch_cause(f)) != '\0')
		printf("see: %s\n", status_cause_settings(fetch_cause(f)));
	/* The same words as crawl.log's annotations column. */
	printf("annotations: %s%s%s%s%s%s%s%s\n", ann || status < 0 ? "" : "-",
	    ann & FETCH_LENTRUNC ? "lenTrunc " : "", ann & FETCH_TIMETRUNC ? "timeTrunc " : "",
	    ann & FETCH_DECTRUNC ? "decodeTrunc " : "", ann & FETCH_DECERR ? "decodeError " : "",
	    ann & FETCH_DECUNSUP ? "decodeUnsupported " : "", status < 0 ? "err:" : "",
	    status < 0 ? status_cause_word(fetch_cause(f)) : "");
	printf("reused: %d\ntls-resumed: %d\n", fetch_reused(f), fetch_tls_resumed(f));
	/* What the WARC's WARC-Protocol and WARC-Cipher-Suite would say. */
	if (fetch_protocol(f) != NULL)
		printf("protocol: %s%s%s%s%s\n", fetch_protocol(f), fetch_tls_version(f) ? " " : "",
		    fetch_tls_version(f) ? fetch_tls_version(f) : "",
		    fetch_tls_cipher(f) ? " " : "", fetch_tls_cipher(f) ? fetch_tls_cipher(f) : "");
	printf(
	    "timings: dns %.3f ms, connect %.3f ms, tls %.3f ms, first byte %.3f ms, total %.3f ms\n",
	    t->dns_us / 1000.0, t->connect_us / 1000.0, t->tls_us / 1000.0,
	    t->first_byte_us / 1000.0, t->total_us / 1000.0);
	printf("duration-ms: %" PRIu64 "\n", fetch_duration_ms(f));
	printf("sizes: raw %" PRIu64 " bytes, decoded %" PRIu64 " bytes\n", fetch_raw_bytes(f),
	    fetch_decoded_bytes(f));
	fetchcmd_print_digest("raw-sha1", fc->raw_md);
	fetchcmd_print_digest("decoded-sha1", fc->dec_md);
	head = fetch_response_head(f, &hl);
	if (hl > 0) {
		printf("\n");
		fwrite(head, 1, hl, stdout);
	}
}

int fetchcmd_run(struct config *cfg, const char *url)
{
	static const struct fetch_cbs cbs = {NULL, fetchcmd_body_cb, fetchcmd_done_cb, NULL};
	struct fetchcmd fc;
	struct http_url u;
	struct url_parts parts;
	struct buf href = BUF_INIT;
	const char *why;
	struct fetch_req req;
	struct buf hdrs = BUF_INIT;
	struct fetch *f;
	struct fetcher *fr;
	struct dns *dns;
	uv_loop_t loop;
	char *err = NULL;
	int status;

	/* The URL as the crawl would fetch it: resolved and split by the one
	 * URL parser, then checked for what a request needs. */
	if (url_resolve(NULL, url, strlen(url), &href) != 0 || url_split(href.data, &parts) != 0) {
		fprintf(stderr, "tern fetch: %s: not an http or https URL\n", url);
		buf_free(&href);
		return 2;
	}
	if (http_url_from(href.data, &parts, &u, &why) != 0) {
		fprintf(stderr, "tern fetch: %s: %s\n", url, why);
		buf_free(&href);
		return 2;
	}
	http_url_clear(&u);
	if (uv_loop_init(&loop) != 0) {
		fprintf(stderr, "tern fetch: cannot start the event loop\n");
		buf_free(&href);
		return 1;
	}
	dns = dns_new(&loop, cfg, &err);
	if (dns == NULL) {
		fprintf(stderr, "tern fetch: %s\n", err);
		free(err);
		uv_loop_close(&loop);
		buf_free(&href);
		return 2;
	}
	fr = fetcher_new(&loop, cfg, dns, &err);
	if (fr == NULL) {
		fprintf(stderr, "tern fetch: %s\n", err);
		free(err);
		dns_free(dns);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		buf_free(&href);
		return 2;
	}
	memset(&fc, 0, sizeof(fc));
	fc.raw_md = EVP_MD_CTX_new();
	fc.dec_md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(fc.raw_md, EVP_sha1(), NULL);
	EVP_DigestInit_ex(fc.dec_md, EVP_sha1(), NULL);
	memset(&req, 0, sizeof(req));
	req.url = href.data;
	req.parts = &parts;
	req.operator_host = 1;
	reqheaders_build(config_str(cfg, CK_FETCH_ACCEPT_LANGUAGE), config_str(cfg, CK_FETCH_FROM),
	    config_str(cfg, CK_FETCH_EXTRA_HEADERS), &hdrs);
	req.headers = hdrs.data;
	fetch_start(fr, &req, &cbs, &fc, &f);
	buf_free(&hdrs);
	while (!fc.done && uv_run(&loop, UV_RUN_ONCE) != 0)
		;
	fetchcmd_print(&fc, f);
	status = fetch_status(f);
	fetch_release(f);
	fetcher_free(fr);
	dns_free(dns);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	EVP_MD_CTX_free(fc.raw_md);
	EVP_MD_CTX_free(fc.dec_md);
	buf_free(&href);
	return status > 0 ? 0 : 1;
}
