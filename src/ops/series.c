/* Time series of the console's charts (series.h). */
#include "ops/series.h"
#include "lib/xmalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct series {
	struct series_point *a;
	size_t cap, head, n; /* a[head] is the oldest */
};

struct series *series_new(size_t cap)
{
	struct series *s = xcalloc(1, sizeof *s);

	s->cap = cap > 0 ? cap : 1;
	s->a = xcalloc(s->cap, sizeof *s->a);
	return s;
}

void series_free(struct series *s)
{
	if (s == NULL)
		return;
	free(s->a);
	free(s);
}

void series_add(struct series *s, const struct series_point *p)
{
	if (s->n == s->cap) {
		s->a[s->head] = *p;
		s->head = (s->head + 1) % s->cap;
	} else {
		s->a[(s->head + s->n) % s->cap] = *p;
		s->n++;
	}
}

size_t series_count(const struct series *s)
{
	return s->n;
}

const struct series_point *series_at(const struct series *s, size_t i)
{
	return i < s->n ? &s->a[(s->head + i) % s->cap] : NULL;
}

static void series_point_json(const struct series_point *p, struct buf *out)
{
	buf_appendc(out, '[');
	buf_appendu(out, p->t_ms);
	buf_appendc(out, ',');
	buf_appendu(out, p->pages);
	buf_appendc(out, ',');
	if (p->bytes < 0)
		buf_appends(out, "null");
	else
		buf_appendu(out, (uint64_t)p->bytes);
	buf_appendc(out, ',');
	buf_appendu(out, p->in_flight);
	buf_appendc(out, ',');
	buf_appendu(out, p->queued);
	buf_appendc(out, ']');
}

void series_json_since(const struct series *s, uint64_t t_ms, struct buf *out)
{
	size_t lo = 0, hi = s->n, k = 0;

	/* Samples are in time order: the first one after t_ms by bisection. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (series_at(s, mid)->t_ms <= t_ms)
			lo = mid + 1;
		else
			hi = mid;
	}
	buf_appendc(out, '[');
	for (size_t i = lo; i < s->n; i++) {
		if (k++ > 0)
			buf_appendc(out, ',');
		series_point_json(series_at(s, i), out);
	}
	buf_appendc(out, ']');
}

/* "yyyy-MM-ddTHH:mm:ss.SSSZ" to ms since the epoch; -1 if malformed. */
static int series_time(const char *s, size_t n, uint64_t *ms)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
	int v[7] = {0}, k = 0;
	struct tm tm;
	time_t t;

	if (n != sizeof shape - 1)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (shape[i] == 'd') {
			if (s[i] < '0' || s[i] > '9')
				return -1;
			v[k] = v[k] * 10 + (s[i] - '0');
		} else if (s[i] != shape[i]) {
			return -1;
		} else {
			k++;
		}
	}
	memset(&tm, 0, sizeof tm);
	tm.tm_year = v[0] - 1900;
	tm.tm_mon = v[1] - 1;
	tm.tm_mday = v[2];
	tm.tm_hour = v[3];
	tm.tm_min = v[4];
	tm.tm_sec = v[5];
	t = timegm(&tm);
	if (t < 0 || v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31)
		return -1;
	*ms = (uint64_t)t * 1000 + (uint64_t)v[6];
	return 0;
}

int series_parse_progress(const char *line, size_t len, struct series_point *p)
{
	const char *f[14], *q = line, *end = line + len;
	size_t fl[14];
	int k = 0;
	uint64_t num[14];

	while (end > q && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	while (k < 14) {
		while (q < end && *q == ' ')
			q++;
		if (q == end)
			break;
		f[k] = q;
		while (q < end && *q != ' ')
			q++;
		fl[k] = (size_t)(q - f[k]);
		k++;
	}
	if (k < 13 || series_time(f[0], fl[0], &p->t_ms) < 0)
		return -1;
	/* The whole numbers read: queued, downloaded, in-flight, bytes. */
	for (int i = 1; i < k; i++) {
		num[i] = 0;
		if (i != 2 && i != 3 && i != 7 && i != 13)
			continue;
		if (fl[i] == 0 || fl[i] > 19)
			return -1;
		for (size_t j = 0; j < fl[i]; j++) {
			if (f[i][j] < '0' || f[i][j] > '9')
				return -1;
			num[i] = num[i] * 10 + (uint64_t)(f[i][j] - '0');
		}
	}
	p->queued = num[2];
	p->pages = num[3];
	p->in_flight = num[7];
	p->bytes = k == 14 ? (int64_t)num[13] : -1;
	return 0;
}

void series_json_points(const struct series_point *pts, size_t n, size_t max, struct buf *out)
{
	size_t k = 0;

	buf_appendc(out, '[');
	for (size_t i = 0; i < n; i++) {
		/* Point i is kept when it starts a new one of max equal
		 * stretches, and the last always. */
		if (n > max && max > 0 && i != n - 1 && (i * max) / n == ((i + 1) * max) / n)
			continue;
		if (k++ > 0)
			buf_appendc(out, ',');
		series_point_json(&pts[i], out);
	}
	buf_appendc(out, ']');
}
