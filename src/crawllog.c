#include "crawllog.h"

#include <string.h>
#include <time.h>

void crawllog_iso_time(uint64_t ms, char out[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + 19, 13, ".%03uZ", (unsigned)(ms % 1000));
}

void crawllog_compact_time(uint64_t ms, char out[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y%m%d%H%M%S", &tm);
	snprintf(out + 14, 18, "%03u", (unsigned)(ms % 1000));
}

/* A field that must not break the space-separated layout: empty becomes
 * '-', and any whitespace inside (never in a valid URI) becomes '%20'-like
 * escapes so that a hostile value cannot add columns. */
static void crawllog_field(struct buf *out, const char *s, size_t n)
{
	if (s == NULL || n == 0) {
		buf_appendc(out, '-');
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch <= ' ' || ch == 0x7f)
			buf_appendf(out, "%%%02X", ch);
		else
			buf_appendc(out, (char)ch);
	}
}

void crawllog_format(const struct crawllog_entry *e, struct buf *out)
{
	char t[32];
	size_t n;

	crawllog_iso_time(e->log_ms, t);
	buf_appendf(out, "%s %5d ", t, e->status);
	if (e->size >= 0)
		buf_appendf(out, "%10lld ", (long long)e->size);
	else
		buf_appendf(out, "%10s ", "-");
	crawllog_field(out, e->uri, e->uri ? strlen(e->uri) : 0);
	buf_appendc(out, ' ');
	/* Heritrix shows only the last 50 hops, prefixed by the total count. */
	n = e->hops ? strlen(e->hops) : 0;
	if (n > 50) {
		buf_appendf(out, "%zu+", n);
		crawllog_field(out, e->hops + n - 50, 50);
	} else {
		crawllog_field(out, e->hops, n);
	}
	buf_appendc(out, ' ');
	crawllog_field(out, e->via, e->via ? strlen(e->via) : 0);
	buf_appendc(out, ' ');
	/* MIME up to the first ';', ',' or whitespace. */
	n = e->mime ? strcspn(e->mime, "; ,\t\r\n") : 0;
	if (n == 0)
		buf_appends(out, "no-type");
	else
		crawllog_field(out, e->mime, n);
	buf_appendf(out, " #%03d ", e->slot);
	if (e->begin_ms != 0) {
		crawllog_compact_time(e->begin_ms, t);
		buf_appendf(out, "%s+%llu ", t, (unsigned long long)e->duration_ms);
	} else {
		buf_appends(out, "- ");
	}
	crawllog_field(out, e->digest, e->digest ? strlen(e->digest) : 0);
	buf_appendc(out, ' ');
	crawllog_field(out, e->source, e->source ? strlen(e->source) : 0);
	buf_appendc(out, ' ');
	crawllog_field(out, e->annotations, e->annotations ? strlen(e->annotations) : 0);
	buf_appendc(out, '\n');
}
