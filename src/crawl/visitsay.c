/* What a visit says: its crawl.log lines, with the annotations the visit
 * gathered, a fresh DNS lookup's dns: line with its WARC record (the
 * prerequisite's whole trace), its failures said once per host and kind
 * and counted by cause (crawl/failures.c), and the verdict on a failed
 * attempt. That verdict is
 * settled here, not by the room that found the failure, because it decides
 * what is said: a retry is said as one (failures.c) with no crawl.log line,
 * a final failure has its line and its counts. */
#include <build-config.h>

#include "crawl/visitsay.h"
#include "archive/crawllog.h"
#include "archive/digest.h"
#include "archive/warcpool.h"
#include "crawl/failures.h"
#include "crawl/stats.h"
#include "crawl/visitprivate.h"
#include "net/dns.h"

#include <arpa/inet.h>
#include <assert.h>
#include <stdio.h>
#include <string.h>

void visitsay_annotations(const struct visit *v, int attempts, enum status_cause cause,
    const char *extra, struct buf *out)
{
	buf_reset(out);
	if (attempts > 1)
		buf_appendf(out, "%dt", attempts);
	if (cause != CAUSE_NONE && cause != CAUSE_HTTP_ERROR) {
		if (out->len)
			buf_appendc(out, ',');
		buf_appends(out, "err:");
		buf_appends(out, status_cause_word(cause));
	}
	if (extra != NULL && *extra) {
		if (out->len)
			buf_appendc(out, ',');
		buf_appends(out, extra);
	}
	if (v->robot_excluded) {
		if (out->len)
			buf_appendc(out, ',');
		buf_appends(out, "robotExcluded");
	}
	if (v->cookies_refused > 0)
		buf_appendf(out, "%scookiesRefused:%u", out->len ? "," : "", v->cookies_refused);
	if (v->cookies_evicted > 0)
		buf_appendf(out, "%scookiesEvicted:%u", out->len ? "," : "", v->cookies_evicted);
}

void visitsay_line(struct visit *v, int status, int64_t size, const char *uri, const char *hops,
    const char *via, const char *mime, uint64_t begin_ms, uint64_t duration_ms, const char *digest,
    const char *annotations)
{
	struct visit_pool *pool = v->pool;
	struct crawllog_entry e = {
	    clock_wall_ms(),
	    status,
	    size,
	    uri,
	    hops,
	    via,
	    mime,
	    v->slot,
	    begin_ms,
	    duration_ms,
	    digest,
	    NULL,
	    annotations,
	};

	buf_reset(&pool->line);
	crawllog_format(&e, &pool->line);
	/* After the records queued before it (archive/warcpool.h). */
	if (pool->env.warcpool != NULL)
		warcpool_log(pool->env.warcpool, pool->line.data, pool->line.len);
	else
		fwrite(pool->line.data, 1, pool->line.len, pool->env.crawllog);
}

void visitsay_dns(struct visit *v, const struct dns_answer *a)
{
	struct visit_pool *pool = v->pool;
	char digest[DIGEST_STRLEN], stamp[32], server_ip[64];
	char *uri = xasprintf("dns:%s", v->host), *hops = visit_prereq_hops(v);
	struct buf block = BUF_INIT;

	pool->env.stats->dns_lookups++;
	/* Heritrix's text/dns block: the 14-digit lookup time, then the
	 * answer's records, one a line. */
	crawllog_compact_time(a->fetch_time_ms, stamp);
	stamp[14] = '\0';
	buf_appendf(&block, "%s\n%s", stamp, a->rr_text ? a->rr_text : "");
	digest_of(block.data, block.len, digest);
	/* WARC-IP-Address names the DNS server, without its port. */
	snprintf(server_ip, sizeof server_ip, "%s", a->server ? a->server : "");
	if (strchr(server_ip, ':') == strrchr(server_ip, ':') && strchr(server_ip, ':'))
		*strchr(server_ip, ':') = '\0';
	if (a->status == STATUS_DNS_SUCCESS && pool->env.warc != NULL) {
		char *err = NULL;
		unsigned char raw[16];
		/* An answer from the hosts file names no server. */
		int from_server = inet_pton(AF_INET, server_ip, raw) == 1 ||
		    inet_pton(AF_INET6, server_ip, raw) == 1;
		if (warcpool_dns(pool->env.warcpool, v->host, from_server ? server_ip : NULL,
			a->fetch_time_ms * 1000, block.data, block.len, &err) < 0) {
			visit_event(pool, "WARC: %s", err);
			free(err);
		}
	}
	{
		/* A failed lookup's line names its cause too. */
		char *ann = a->status != STATUS_DNS_SUCCESS && a->cause != CAUSE_NONE
		    ? xasprintf("err:%s", status_cause_word(a->cause))
		    : NULL;
		int ok = a->status == STATUS_DNS_SUCCESS;

		visitsay_line(v, a->status, ok ? (int64_t)block.len : -1, uri, hops, v->c->uri,
		    "text/dns", a->fetch_time_ms, 0, ok ? digest : NULL, ann);
		free(ann);
	}
	buf_free(&block);
	free(uri);
	free(hops);
}

void visitsay_failure(struct visit *v, int status, enum status_cause cause, int final,
    uint64_t retry_ms, const char *retry_setting)
{
	struct visit_pool *pool = v->pool;
	struct failures_event ev;

	if (pool->env.failures == NULL || cause == CAUSE_NONE)
		return;
	memset(&ev, 0, sizeof ev);
	ev.host = v->host != NULL ? v->host : v->c->uri;
	ev.port = v->port;
	ev.uri = v->c->uri;
	ev.status = status;
	ev.cause = cause;
	ev.seed = (v->c->flags & CURI_SEED) != 0;
	ev.final = final;
	ev.attempt = v->c->attempts + 1;
	ev.max_attempts = visit_max_retries(v);
	if (!final && retry_ms == 0) {
		retry_ms = (uint64_t)config_int_for(
			       pool->env.cfg, v->surt, CK_FRONTIER_RETRY_DELAY_SECONDS) *
		    1000;
		retry_setting = "frontier.retry-delay-seconds";
	}
	ev.retry_ms = retry_ms;
	ev.retry_setting = retry_setting;
	failures_note(pool->env.failures, &ev);
}

/* A connection failure: the queue waits as a whole, at least
 * retry-delay-seconds (Heritrix's wait between attempts) and up to a quarter
 * more, so that hosts that failed together come back spread out; once the
 * host has failed as many times in a row as a URI may be tried, further
 * URIs of the queue get one attempt each rather than a full cycle. */
static void visitsay_connect(struct visit *v, struct visit_verdict *d)
{
	struct visit_pool *pool = v->pool;
	unsigned n = frontier_note_connect(pool->env.frontier, v->c, 1);
	uint64_t floor =
	    (uint64_t)config_int_for(pool->env.cfg, v->surt, CK_FRONTIER_RETRY_DELAY_SECONDS) *
	    1000;
	uint64_t delay = politeness_backoff(floor, (uint32_t)random());

	if (n >= (unsigned)visit_max_retries(v))
		visit_verdict_fail(d, d->status, d->cause, FRONTIER_FAILED, delay);
	else
		visit_verdict_retry(d, d->status, d->cause, delay, "frontier.retry-delay-seconds");
}

/* A retryable failure: retried while attempts remain, else final. */
static void visitsay_retry(struct visit *v, struct visit_verdict *d)
{
	if (frontier_may_retry(v->pool->env.frontier, v->c)) {
		visitsay_failure(v, d->status, d->cause, 0, d->delay_ms, d->setting);
		v->pool->env.stats->retries++;
		visit_verdict_end(d, FRONTIER_RETRY, d->delay_ms);
	} else {
		visit_verdict_fail(d, d->status, d->cause, FRONTIER_FAILED, d->delay_ms);
	}
}

/* A final failure before or instead of a fetch: one crawl.log line, with
 * the cause's word. */
static void visitsay_fail(struct visit *v, struct visit_verdict *d)
{
	struct visit_pool *pool = v->pool;
	struct buf ann = BUF_INIT;
	int attempts = v->c->attempts + (d->outcome == FRONTIER_DISREGARD ? 0 : 1);

	assert(d->status < 0);
	if (attempts < 1)
		attempts = 1;
	visitsay_failure(v, d->status, d->cause, 1, 0, NULL);
	visitsay_annotations(v, attempts, d->cause, NULL, &ann);
	visitsay_line(
	    v, d->status, -1, v->c->uri, v->c->hops, v->c->via, NULL, 0, 0, NULL, ann.data);
	buf_free(&ann);
	pool->env.stats->failures++;
	pool->env.stats->status_class[0]++;
	if (pool->env.failures != NULL)
		failures_disposed(pool->env.failures, d->status, d->cause);
	visit_verdict_end(d, d->outcome, d->delay_ms);
}

void visitsay_settle(struct visit *v, struct visit_verdict *d)
{
	if (d->next == VISIT_GO_CONNECT)
		visitsay_connect(v, d);
	if (d->next == VISIT_GO_RETRY)
		visitsay_retry(v, d);
	if (d->next == VISIT_GO_FAIL)
		visitsay_fail(v, d);
}
