/* Dates in the W3C profile of ISO 8601 (W3C-DTF, "Date and Time Formats",
 * 1997), which is what a sitemap's <lastmod> holds and what a WARC-Date is
 * (WARC 1.1 section 5.4): YYYY, YYYY-MM, YYYY-MM-DD, or a date with
 * Thh:mm, Thh:mm:ss or Thh:mm:ss.fraction and a zone (Z or +hh:mm/-hh:mm).
 * Pure: no clock, no locale, no time zone database. */
#ifndef TERN_ISODATE_H
#define TERN_ISODATE_H
#include <stddef.h>
#include <stdint.h>

/* Parses s[0..n) (leading and trailing white space allowed) into
 * microseconds since 1970-01-01T00:00:00Z. Missing month and day count as
 * 1; digits of a fraction past microseconds are dropped; a time without a
 * zone is read as UTC (W3C-DTF requires the zone, but sitemaps in the wild
 * often omit it, and search engines accept them); seconds may be 60 (a
 * leap second, read as the next second). 0, or -1 for anything else: a bad
 * or missing field, a day past the month's end, a year outside 1..9999. */
int isodate_parse(const char *s, size_t n, int64_t *us);

/* Days from 1970-01-01 to y-m-d (m 1..12) in the proleptic Gregorian
 * calendar, negative before it; shared with HTTP-date parsing. */
int64_t isodate_days(int64_t y, int m, int d);

#endif
