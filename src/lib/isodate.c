/* W3C-DTF dates (see isodate.h). Written by hand: the C library's
 * strptime and timegm depend on the locale and the TZ environment, and
 * none of them reads a fraction or a numeric zone offset portably. */
#include "lib/isodate.h"

struct isodate_cursor {
	const char *p, *end;
};

static int isodate_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Reads exactly n decimal digits; -1 if they are not there. */
static int isodate_digits(struct isodate_cursor *c, int n, int *out)
{
	int v = 0, i;

	if (c->end - c->p < n)
		return -1;
	for (i = 0; i < n; i++) {
		char d = c->p[i];

		if (d < '0' || d > '9')
			return -1;
		v = v * 10 + (d - '0');
	}
	c->p += n;
	*out = v;
	return 0;
}

static int isodate_take(struct isodate_cursor *c, char want)
{
	if (c->p < c->end && *c->p == want) {
		c->p++;
		return 1;
	}
	return 0;
}

static int isodate_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int isodate_month_days(int y, int m)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

	return m == 2 && isodate_leap(y) ? 29 : days[m - 1];
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (Howard Hinnant's days_from_civil). */
int64_t isodate_days(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The zone: Z, +hh:mm or -hh:mm, as seconds east of UTC; absent: UTC. */
static int isodate_zone(struct isodate_cursor *c, int *offset_s)
{
	int sign, h, m;

	*offset_s = 0;
	if (c->p == c->end || isodate_take(c, 'Z'))
		return 0;
	if (*c->p != '+' && *c->p != '-')
		return -1;
	sign = *c->p++ == '-' ? -1 : 1;
	if (isodate_digits(c, 2, &h) < 0 || !isodate_take(c, ':') || isodate_digits(c, 2, &m) < 0 ||
	    h > 23 || m > 59)
		return -1;
	*offset_s = sign * (h * 3600 + m * 60);
	return 0;
}

int isodate_parse(const char *s, size_t n, int64_t *us)
{
	struct isodate_cursor c = {s, s + n};
	int y, mo = 1, d = 1, h = 0, mi = 0, sec = 0, frac = 0, scale = 100000, zone = 0;

	while (c.p < c.end && isodate_space(*c.p))
		c.p++;
	while (c.end > c.p && isodate_space(c.end[-1]))
		c.end--;
	if (isodate_digits(&c, 4, &y) < 0 || y < 1)
		return -1;
	if (isodate_take(&c, '-')) {
		if (isodate_digits(&c, 2, &mo) < 0 || mo < 1 || mo > 12)
			return -1;
		if (isodate_take(&c, '-')) {
			if (isodate_digits(&c, 2, &d) < 0 || d < 1 || d > isodate_month_days(y, mo))
				return -1;
			if (isodate_take(&c, 'T')) {
				if (isodate_digits(&c, 2, &h) < 0 || !isodate_take(&c, ':') ||
				    isodate_digits(&c, 2, &mi) < 0 || h > 23 || mi > 59)
					return -1;
				if (isodate_take(&c, ':')) {
					if (isodate_digits(&c, 2, &sec) < 0 || sec > 60)
						return -1;
					if (isodate_take(&c, '.')) {
						if (c.p == c.end || *c.p < '0' || *c.p > '9')
							return -1;
						while (c.p < c.end && *c.p >= '0' && *c.p <= '9') {
							frac += (*c.p++ - '0') * scale;
							scale /= 10;
						}
					}
				}
				if (isodate_zone(&c, &zone) < 0)
					return -1;
			}
		}
	}
	if (c.p != c.end)
		return -1;
	*us = ((isodate_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - zone) * 1000000) + frac;
	return 0;
}
