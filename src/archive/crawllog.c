/* crawl.log lines (see crawllog.h). A line is written for every URI, so
 * the formatting avoids printf and the C library's time conversion: the
 * dates are computed from days since the epoch and the integers written
 * digit by digit, byte for byte what the printf formats of the layout
 * ("%5d", "%10lld", "#%03d", strftime's "%Y-%m-%d...") would give. */
#include <build-config.h>

#include "archive/crawllog.h"

#include <string.h>
#include <time.h>

/* The first millisecond of year 10000: beyond it strftime's %Y widens, so
 * the C library formats it (no crawl reaches it). */
#define CRAWLLOG_Y10K_MS 253402300800000ULL

struct crawllog_tm {
	unsigned year, mon, mday, hour, min, sec, msec;
};

/* UTC fields of ms since the epoch: the civil date of a day count, as in
 * Howard Hinnant's days_from_civil inverse (eras of 400 years from
 * 0000-03-01). */
static void crawllog_split(uint64_t ms, struct crawllog_tm *t)
{
	uint64_t secs = ms / 1000, days = secs / 86400, sod = secs % 86400;
	uint64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
	uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	uint64_t mp = (5 * doy + 2) / 153;

	t->mday = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	t->mon = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	t->year = (unsigned)(yoe + era * 400 + (t->mon <= 2));
	t->hour = (unsigned)(sod / 3600);
	t->min = (unsigned)(sod / 60 % 60);
	t->sec = (unsigned)(sod % 60);
	t->msec = (unsigned)(ms % 1000);
}

/* Writes v as exactly n decimal digits; returns the end. */
static char *crawllog_digits(char *p, unsigned v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
	return p + n;
}

/* Both timestamp forms: ISO 8601 with milliseconds (iso) or the 17 digits
 * of WARC-Date-like stamps, YYYYMMDDhhmmssSSS. Years past 9999 need more
 * than four digits: strftime writes those. */
static void crawllog_time(uint64_t ms, char out[32], int iso)
{
	static const char sep[] = "--T::.";
	static const int width[] = {4, 2, 2, 2, 2, 2, 3};
	struct crawllog_tm t;
	unsigned field[7];
	char *p = out;
	int i;

	if (ms >= CRAWLLOG_Y10K_MS) {
		time_t tt = (time_t)(ms / 1000);
		struct tm tm;
		size_t n;

		gmtime_r(&tt, &tm);
		n = strftime(out, 32, iso ? "%Y-%m-%dT%H:%M:%S" : "%Y%m%d%H%M%S", &tm);
		snprintf(out + n, 32 - n, iso ? ".%03uZ" : "%03u", (unsigned)(ms % 1000));
		return;
	}
	crawllog_split(ms, &t);
	field[0] = t.year;
	field[1] = t.mon;
	field[2] = t.mday;
	field[3] = t.hour;
	field[4] = t.min;
	field[5] = t.sec;
	field[6] = t.msec;
	for (i = 0; i < 7; i++) {
		if (iso && i > 0)
			*p++ = sep[i - 1];
		p = crawllog_digits(p, field[i], width[i]);
	}
	if (iso)
		*p++ = 'Z';
	*p = '\0';
}

void crawllog_iso_time(uint64_t ms, char out[32])
{
	crawllog_time(ms, out, 1);
}

void crawllog_compact_time(uint64_t ms, char out[32])
{
	crawllog_time(ms, out, 0);
}

/* A field that must not break the space-separated layout: empty becomes
 * '-', and any whitespace inside (never in a valid URI) becomes '%20'-like
 * escapes so that a hostile value cannot add columns. Runs of ordinary
 * bytes are copied whole. */
static void crawllog_field(struct buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t run = 0;

	if (s == NULL || n == 0) {
		buf_appendc(out, '-');
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		char esc[3];

		if (ch > ' ' && ch != 0x7f)
			continue;
		buf_append(out, s + run, i - run);
		esc[0] = '%';
		esc[1] = hex[ch >> 4];
		esc[2] = hex[ch & 15];
		buf_append(out, esc, 3);
		run = i + 1;
	}
	buf_append(out, s + run, n - run);
}

void crawllog_format(const struct crawllog_entry *e, struct buf *out)
{
	char t[32];
	size_t n;

	crawllog_iso_time(e->log_ms, t);
	buf_appends(out, t);
	buf_appendc(out, ' ');
	buf_appendint(out, e->status, 5, ' ');
	buf_appendc(out, ' ');
	if (e->size >= 0)
		buf_appendint(out, e->size, 10, ' ');
	else
		buf_append(out, "         -", 10);
	buf_appendc(out, ' ');
	crawllog_field(out, e->uri, e->uri ? strlen(e->uri) : 0);
	buf_appendc(out, ' ');
	/* Heritrix shows only the last 50 hops, prefixed by the total count. */
	n = e->hops ? strlen(e->hops) : 0;
	if (n > 50) {
		buf_appendu(out, n);
		buf_appendc(out, '+');
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
	buf_append(out, " #", 2);
	buf_appendint(out, e->slot, 3, '0');
	buf_appendc(out, ' ');
	if (e->begin_ms != 0) {
		crawllog_compact_time(e->begin_ms, t);
		buf_appends(out, t);
		buf_appendc(out, '+');
		buf_appendu(out, e->duration_ms);
		buf_appendc(out, ' ');
	} else {
		buf_append(out, "- ", 2);
	}
	crawllog_field(out, e->digest, e->digest ? strlen(e->digest) : 0);
	buf_appendc(out, ' ');
	crawllog_field(out, e->source, e->source ? strlen(e->source) : 0);
	buf_appendc(out, ' ');
	crawllog_field(out, e->annotations, e->annotations ? strlen(e->annotations) : 0);
	buf_appendc(out, '\n');
}
