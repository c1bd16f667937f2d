/* One HTTP exchange of a visit, robots.txt's or the page's: the request
 * (the operator's headers, a login's Authorization, a revisit's
 * validators, the jar's cookies); what the answer feeds as it comes: the
 * Set-Cookie headers the jar, the head the choice of extractors, the body
 * the digest, the recorded copy (src/archive/capture.h: memory, then a
 * spill file), the extractors and robots.txt's text; and, once it has
 * ended, its WARC records, judged against the dedup index first and handed
 * to the writer's pool (archive/warcpool.h), which builds them on libuv's
 * threads and keeps the crawl.log lines written after them in order. What
 * the finished answer means is the robots or page room's to say. */
#include <build-config.h>

#include "crawl/visithttp.h"
#include "archive/capture.h"
#include "archive/dedup.h"
#include "archive/digest.h"
#include "archive/warc.h"
#include "archive/warcpool.h"
#include "crawl/cookies.h"
#include "crawl/login.h"
#include "crawl/recrawl.h"
#include "crawl/visitprivate.h"
#include "lib/reqheaders.h"
#include "net/fetch.h"

#include <errno.h>
#include <string.h>

/* Bodies are recorded in memory up to this size, then in a spill file. */
#define VISITHTTP_SPILL_BYTES (1024 * 1024)

/* The page's Authorization line: the answer to its 401, or Basic
 * credentials its server accepted for another URI (tern(1), LOGINS). */
static void visithttp_login_header(struct visit *v, struct buf *hdrs)
{
	const char *ahead;

	if (v->state != VISIT_FETCH)
		return;
	if (v->authorization == NULL &&
	    (ahead = login_ahead(v->pool->login, v->server_key, v->surt)) != NULL)
		v->authorization = xstrdup(ahead);
	if (v->authorization != NULL)
		buf_appendf(hdrs, "Authorization: %s\r\n", v->authorization);
}

/* The URL being fetched, split: the page's own parts, or robots.txt's
 * (or a redirect of it) split into sp. NULL if it cannot be. */
static const struct url_parts *visithttp_parts(const struct visit *v, struct url_parts *sp)
{
	if (strcmp(v->fetch_url, v->c->uri) == 0)
		return &v->page;
	return url_split(v->fetch_url, sp) == 0 ? sp : NULL;
}

void visithttp_request(struct visit *v, const char *url, struct fetch_req *req, struct buf *hdrs)
{
	free(v->fetch_url);
	v->fetch_url = xstrdup(url);
	if (v->body == NULL)
		v->body = capture_new(v->pool->env.tmpdir, VISITHTTP_SPILL_BYTES);
	else
		capture_reset(v->body, 0);
	buf_reset(&v->robots);
	/* digest_final leaves the digest reset already. */
	if (v->dg == NULL)
		v->dg = digest_new();
	else if (v->dg_used)
		digest_reset(v->dg);
	v->dg_used = 1;
	memset(req, 0, sizeof *req);
	req->url = v->fetch_url;
	/* The page itself was split when its visit began; robots.txt is
	 * split by fetch_start. */
	req->parts = strcmp(url, v->c->uri) == 0 ? &v->page : NULL;
	req->addr = (const struct sockaddr *)&v->addr;
	req->max_length = config_int_for(v->pool->env.cfg, v->surt, CK_FETCH_MAX_LENGTH_BYTES);
	/* The operator's headers for this URI (fetch.extra-headers...). */
	reqheaders_build(config_str_for(v->pool->env.cfg, v->surt, CK_FETCH_ACCEPT_LANGUAGE),
	    config_str(v->pool->env.cfg, CK_FETCH_FROM),
	    config_str_for(v->pool->env.cfg, v->surt, CK_FETCH_EXTRA_HEADERS), hdrs);
	visithttp_login_header(v, hdrs);
	req->headers = hdrs->data;
	/* A revisit asks whether the page changed since its last capture. */
	if (v->pool->env.continuous && v->state == VISIT_FETCH)
		recrawl_validators(
		    v->pool->env.cfg, v->surt, v->c, &req->if_none_match, &req->if_modified_since);
	v->sent_validators = req->if_none_match != NULL || req->if_modified_since != NULL;
	if (cookies_on(v->pool->env.cookies, v->surt)) {
		struct url_parts sp;
		const struct url_parts *p = visithttp_parts(v, &sp);
		if (p != NULL)
			req->cookie = cookies_for(v->pool->env.cookies, v->fetch_url, p);
	}
}

/* The response's Set-Cookie headers go into the crawl's jar, unless
 * cookies are off for the URI (fetch.cookies, src/crawl/cookies.h). */
static void visithttp_cookies(struct visit *v, struct fetch *f)
{
	struct url_parts sp;
	const struct url_parts *p;
	size_t kept = 0, refused = 0, evicted = 0;

	if (!cookies_on(v->pool->env.cookies, v->surt) || (p = visithttp_parts(v, &sp)) == NULL)
		return;
	cookies_receive(v->pool->env.cookies, v->fetch_url, p, f, &kept, &refused, &evicted);
	v->cookies_refused += (unsigned)refused;
	v->cookies_evicted += (unsigned)evicted;
	if (v->state == VISIT_FETCH)
		v->cookies_changed = (unsigned)kept;
}

void visithttp_head(struct visit *v, struct fetch *f)
{
	visithttp_cookies(v, f);
	if (v->state != VISIT_FETCH)
		return;
	if (v->ol == NULL)
		v->ol = outlinks_new();
	else if (v->links_on)
		outlinks_end(v->ol);
	v->links_on = outlinks_begin(v->ol, v->pool->env.cfg, v->c, v->surt, fetch_status(f),
	    fetch_header(f, "Content-Type"), v->target.data, v->target.len);
}

/* Recording the body (src/archive/capture.h); tern.log says why a spill
 * file could not be made. -1 with errno when the body cannot be kept. */
static int visithttp_record(struct visit *v, const char *p, size_t n)
{
	int rc = capture_append(v->body, p, n);

	if (rc == CAPTURE_ESPILL) {
		int saved = errno;
		visit_event(v->pool, "cannot create a spill file in %s: %s", v->pool->env.tmpdir,
		    strerror(saved));
		errno = saved;
	}
	return rc < 0 ? -1 : 0;
}

void visithttp_body(struct visit *v, const char *raw, size_t rawlen, const char *dec, size_t declen)
{
	if (rawlen > 0) {
		digest_update(v->dg, raw, rawlen);
		/* The recorded body is the WARC's payload, and nothing else's:
		 * without WARC it is digested and parsed, never copied. */
		if (v->pool->env.warc != NULL && visithttp_record(v, raw, rawlen) < 0 &&
		    v->f != NULL) {
			v->record_errno = errno;
			visit_event(
			    v->pool, "recording %s failed: %s", v->fetch_url, strerror(errno));
			v->record_failed = 1;
			fetch_cancel(v->f);
		}
	}
	if (v->links_on)
		outlinks_feed(v->ol, dec, declen);
	/* robots.txt is parsed from the decoded body: servers gzip it too. */
	if (v->state == VISIT_ROBOTS && declen > 0 && v->robots.len < ROBOTS_MAX_BODY)
		buf_append(&v->robots, dec,
		    declen < ROBOTS_MAX_BODY - v->robots.len ? declen
							     : ROBOTS_MAX_BODY - v->robots.len);
}

int visithttp_archive(struct visit *v, const char *digest, const char *truncated, int not_modified,
    int *revisit, struct buf *outlinks_text)
{
	struct visit_pool *pool = v->pool;
	struct warc_capture cap;
	struct buf *mem = capture_mem(v->body);
	char *err = NULL;
	size_t hlen = 0, qlen = 0;
	int rc = 0, dedup_new = 0;

	*revisit = 0;
	if (pool->env.warc == NULL)
		return 0;
	/* Before the dedup index records a capture that would not exist. */
	if (!warc_writable(pool->env.warc))
		return -1;
	memset(&cap, 0, sizeof cap);
	cap.uri = v->fetch_url;
	/* Through a proxy the address contacted was the proxy's, and the one
	 * the proxy reached is unknown: none is recorded (doc/warc.md). */
	cap.ip = fetch_proxy(v->f) == NULL ? v->ip : NULL;
	cap.date_us = fetch_timings(v->f)->start_wall_ms * 1000;
	cap.req = fetch_request_head(v->f, &qlen);
	cap.req_len = qlen;
	cap.resp_head = fetch_response_head(v->f, &hlen);
	cap.resp_head_len = hlen;
	if (capture_fd(v->body) >= 0) {
		cap.payload_fd = capture_fd(v->body);
		cap.payload_fd_len = capture_len(v->body);
	} else {
		cap.payload = mem->data ? mem->data : "";
		cap.payload_len = mem->len;
		cap.payload_fd = -1;
	}
	cap.payload_digest = digest;
	cap.truncated = truncated;
	if (not_modified) {
		cap.refers_to_uri = v->refers_uri.data;
		cap.refers_to_date = v->refers_date.data;
		cap.not_modified = 1;
	} else if (pool->env.dedup != NULL && truncated == NULL && capture_len(v->body) > 0) {
		/* A truncated capture is not the resource: it neither revisits
		 * nor is revisited. */
		char date[32];
		warc_date_format(pool->env.warc, cap.date_us, date);
		rc = dedup_check(
		    pool->env.dedup, digest, v->fetch_url, date, &v->refers_uri, &v->refers_date);
		if (rc == 1) {
			cap.refers_to_uri = v->refers_uri.data;
			cap.refers_to_date = v->refers_date.data;
			*revisit = 1;
		}
		dedup_new = rc == 0;
		rc = 0;
	}
	cap.via = v->c->via ? v->c->via : "";
	cap.hops = v->c->hops;
	cap.outlinks = outlinks_text->data;
	cap.outlinks_len = outlinks_text->len;
	/* The page's title, for the list of pages of `tern wacz`. */
	cap.title = v->links_on ? outlinks_title(v->ol) : NULL;
	cap.protocol = fetch_protocol(v->f);
	cap.tls_version = fetch_tls_version(v->f);
	cap.cipher = fetch_tls_cipher(v->f);
	/* The entry dedup_check made joins the index with the records. The
	 * body and the outlinks' text are taken, not copied. */
	if (warcpool_http(pool->env.warcpool, &cap, dedup_new ? digest : NULL, mem, outlinks_text,
		&err) < 0) {
		if (dedup_new)
			dedup_forget(pool->env.dedup, digest);
		visit_event(pool, "WARC: %s", err);
		free(err);
		rc = -1;
	}
	return rc;
}
