/* The adaptive revisit interval and its seeding (see revisit.h). */
#include "lib/revisit.h"
#include <math.h>

void revisit_defaults(struct revisit_rule *r)
{
	r->initial_s = 86400;
	r->min_s = 3600;
	r->max_s = 2592000;
	r->changed_factor = 1.5;
	r->unchanged_factor = 1.5;
}

int64_t revisit_clamp(const struct revisit_rule *r, int64_t s)
{
	if (s < r->min_s)
		s = r->min_s;
	if (s > r->max_s)
		s = r->max_s;
	return s < 1 ? 1 : s;
}

/* prev x f, or prev / f, in doubles and back without overflow: anything
 * past the max is clamped anyway. */
static int64_t revisit_scale(int64_t prev, double f, int grow)
{
	double v = grow ? (double)prev * f : (double)prev / f;

	if (!(v < 9.0e18))
		return INT64_MAX;
	return (int64_t)v;
}

int64_t revisit_interval(const struct revisit_rule *r, int64_t prev_s, enum revisit_change c)
{
	if (prev_s <= 0)
		return revisit_clamp(r, r->initial_s);
	switch (c) {
	case REVISIT_CHANGED:
		if (r->changed_factor > 1.0)
			prev_s = revisit_scale(prev_s, r->changed_factor, 0);
		break;
	case REVISIT_UNCHANGED:
		if (r->unchanged_factor > 1.0)
			prev_s = revisit_scale(prev_s, r->unchanged_factor, 1);
		break;
	case REVISIT_UNKNOWN:
		break;
	}
	return revisit_clamp(r, prev_s);
}

int64_t revisit_seed(const struct revisit_rule *r, enum sitemap_changefreq cf, int has_lastmod,
    int64_t lastmod_ms, int64_t now_ms)
{
	switch (cf) {
	case SITEMAP_CF_ALWAYS:
		return revisit_clamp(r, r->min_s);
	case SITEMAP_CF_HOURLY:
		return revisit_clamp(r, 3600);
	case SITEMAP_CF_DAILY:
		return revisit_clamp(r, 86400);
	case SITEMAP_CF_WEEKLY:
		return revisit_clamp(r, 7 * 86400);
	case SITEMAP_CF_MONTHLY:
		return revisit_clamp(r, 30 * 86400);
	case SITEMAP_CF_YEARLY:
		return revisit_clamp(r, 365 * 86400);
	case SITEMAP_CF_NEVER:
		return revisit_clamp(r, r->max_s);
	case SITEMAP_CF_NONE:
		break;
	}
	if (has_lastmod && lastmod_ms <= now_ms)
		return revisit_clamp(r, (now_ms - lastmod_ms) / 1000);
	return revisit_clamp(r, r->initial_s);
}

int revisit_lastmod_newer(int has_lastmod, int64_t lastmod_ms, int64_t last_visit_ms)
{
	return has_lastmod && lastmod_ms > last_visit_ms;
}

int revisit_priority_precedence(double priority, int base)
{
	if (priority < 0.0 || priority > 1.0)
		priority = 0.5;
	return base + (int)lround((1.0 - priority) * 10.0);
}

double revisit_change_rate(uint64_t n, uint64_t x, double interval_s)
{
	if (n == 0 || interval_s <= 0.0)
		return 0.0;
	if (x > n)
		x = n;
	return -log(((double)(n - x) + 0.5) / ((double)n + 0.5)) / interval_s;
}
