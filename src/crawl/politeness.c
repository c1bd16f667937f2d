/* Politeness arithmetic. */
#include "crawl/politeness.h"
#include "lib/isodate.h"
#include <string.h>

void politeness_defaults(struct politeness_params *p)
{
	p->delay_factor = 5.0;
	p->min_delay_ms = 3000;
	p->max_delay_ms = 30000;
	p->respect_crawl_delay_s = 300;
	p->max_kb_sec = 0;
}

uint64_t politeness_delay(
    const struct politeness_params *p, int fetched, uint64_t duration_ms, int64_t crawl_delay_ms)
{
	double scaled;
	int64_t d, respect;

	if (!fetched)
		return 0;
	scaled = p->delay_factor * (double)duration_ms;
	d = scaled >= 9.2e18 ? INT64_MAX : (int64_t)scaled;
	/* Min first, then max: with min > max, max wins, as in Heritrix. */
	if (p->min_delay_ms > d)
		d = p->min_delay_ms;
	if (d > p->max_delay_ms)
		d = p->max_delay_ms;
	respect = p->respect_crawl_delay_s > INT64_MAX / 1000 ? INT64_MAX
							      : p->respect_crawl_delay_s * 1000;
	if (crawl_delay_ms >= 0 && d < respect) {
		int64_t cd = crawl_delay_ms < respect ? crawl_delay_ms : respect;

		if (cd > d)
			d = cd;
	}
	return d < 0 ? 0 : (uint64_t)d;
}

uint64_t politeness_bandwidth(
    int64_t kb_sec, uint64_t *next_emit_ms, uint64_t now_ms, uint64_t bytes)
{
	uint64_t start = *next_emit_ms > now_ms ? *next_emit_ms : now_ms;
	double ms;

	if (kb_sec <= 0)
		return 0;
	ms = (double)bytes / (1.024 * (double)kb_sec);
	*next_emit_ms = start + (ms >= 1.8e19 ? UINT64_MAX / 2 : (uint64_t)ms);
	return *next_emit_ms - now_ms;
}

uint64_t politeness_backoff(uint64_t floor_ms, uint32_t rnd)
{
	uint64_t quarter = floor_ms / 4;

	return floor_ms + (uint64_t)(((unsigned __int128)quarter * rnd) >> 32);
}

static int politeness_digits(const char *s, int n, int *out)
{
	int i, v = 0;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* IMF-fixdate only ("Sun, 06 Nov 1994 08:49:37 GMT", RFC 9110 5.6.7): the
 * obsolete forms are not worth the code for a snooze hint. */
static int politeness_http_date(const char *s, int64_t *out)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	int day, year, hh, mm, ss, mon;
	const char *mp;

	if (strlen(s) != 29 || s[3] != ',' || s[4] != ' ' || s[7] != ' ' || s[11] != ' ' ||
	    s[16] != ' ' || s[19] != ':' || s[22] != ':' || strcmp(s + 25, " GMT") != 0)
		return -1;
	if (politeness_digits(s + 5, 2, &day) < 0 || politeness_digits(s + 12, 4, &year) < 0 ||
	    politeness_digits(s + 17, 2, &hh) < 0 || politeness_digits(s + 20, 2, &mm) < 0 ||
	    politeness_digits(s + 23, 2, &ss) < 0)
		return -1;
	for (mp = months; *mp != '\0'; mp += 3)
		if (strncmp(mp, s + 8, 3) == 0)
			break;
	if (*mp == '\0' || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60)
		return -1;
	mon = (int)((mp - months) / 3) + 1;
	*out = isodate_days(year, mon, day) * 86400 + hh * 3600 + mm * 60 + ss;
	return 0;
}

int politeness_retry_after(const char *value, int64_t now_unix_s, uint64_t cap_ms, uint64_t *out)
{
	uint64_t secs = 0;
	int64_t when;
	const char *p;

	while (*value == ' ' || *value == '\t')
		value++;
	if (*value >= '0' && *value <= '9') {
		for (p = value; *p >= '0' && *p <= '9'; p++)
			if (secs < UINT64_MAX / 10000)
				secs = secs * 10 + (uint64_t)(*p - '0');
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '\0')
			return -1;
	} else {
		if (politeness_http_date(value, &when) < 0)
			return -1;
		secs = when > now_unix_s ? (uint64_t)(when - now_unix_s) : 0;
	}
	*out = secs > cap_ms / 1000 ? cap_ms : secs * 1000;
	return 0;
}
