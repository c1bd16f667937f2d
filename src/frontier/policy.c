/* Cost and precedence policies. */
#include "frontier/policy.h"
#include <string.h>
#include <strings.h>

void policy_settings_defaults(struct policy_settings *s)
{
	memset(s, 0, sizeof(*s));
	s->balance_replenish = 3000;
	s->total_budget = -1;
	s->error_penalty = 100;
	s->cost_policy = POLICY_COST_UNIT;
	s->uri_policy = POLICY_URI_COST;
	s->uri_base = 1;
	s->queue_policy = POLICY_QUEUE_BASE;
	s->queue_base = 3;
	s->success_counts[0] = 100;
	s->success_counts[1] = 1000;
	s->nsuccess_counts = 2;
	s->max_retries = 30;
	s->retry_delay_ms = 900000;
}

static int policy_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

int policy_calendarish(const char *uri)
{
	static const char *const words[] = {
	    "calendar",
	    "year",
	    "month",
	    "day",
	    "date",
	    "viewcal",
	    "event",
	    "yr=",
	    "calendrier",
	    "jour",
	};
	size_t i, n = strlen(uri), w;

	for (i = 0; i < n; i++) {
		for (w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
			size_t wl = strlen(words[w]);

			if (wl <= n - i && strncasecmp(uri + i, words[w], wl) == 0)
				return 1;
		}
		/* \D19\d\d\D and \D20\d\d\D */
		if (i + 5 < n && !policy_isdigit(uri[i]) &&
		    ((uri[i + 1] == '1' && uri[i + 2] == '9') ||
			(uri[i + 1] == '2' && uri[i + 2] == '0')) &&
		    policy_isdigit(uri[i + 3]) && policy_isdigit(uri[i + 4]) &&
		    !policy_isdigit(uri[i + 5]))
			return 1;
	}
	return 0;
}

int64_t policy_cost(int policy, const char *uri, const char *via)
{
	const char *q;
	int64_t cost;

	switch (policy) {
	case POLICY_COST_ZERO:
		return 0;
	case POLICY_COST_WAG:
		cost = 1;
		q = strchr(uri, '?');
		if (q != NULL) {
			cost++;
			if (via != NULL && strncmp(via, uri, (size_t)(q - uri)) == 0)
				cost++;
		}
		return cost;
	case POLICY_COST_ANTI_CALENDAR:
		return 1 + policy_calendarish(uri);
	default:
		return 1;
	}
}

int policy_uri_precedence(int policy, int base, int64_t cost, const char *hops, int preloaded)
{
	int64_t p;
	const char *h;

	switch (policy) {
	case POLICY_URI_BASE:
		p = base;
		break;
	case POLICY_URI_HOPS:
		p = base;
		for (h = hops != NULL ? hops : ""; *h != '\0'; h++)
			p += *h == 'L';
		break;
	case POLICY_URI_PRELOADED:
		p = preloaded > 0 ? (int64_t)base + preloaded : cost;
		break;
	default:
		p = cost;
		break;
	}
	return p < 0 ? 0 : p > 1 << 30 ? 1 << 30 : (int)p;
}

int policy_queue_precedence(
    int policy, int base, int min_uri, uint64_t successes, const int64_t *counts, size_t ncounts)
{
	int64_t p = base, s, inc;
	size_t i;

	switch (policy) {
	case POLICY_QUEUE_HIGHEST_URI:
		p = (int64_t)base + (min_uri > 0 ? min_uri : 0);
		break;
	case POLICY_QUEUE_SUCCESS_COUNTS:
		if (ncounts == 0)
			break;
		p = base - 1;
		s = successes > INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)successes;
		for (i = 0; s >= 0 && p < 255;) {
			inc = counts[i] > 0 ? counts[i] : 1;
			s -= inc;
			p++;
			if (i + 1 < ncounts)
				i++;
		}
		break;
	default:
		break;
	}
	return p < 1 ? 1 : p > 255 ? 255 : (int)p;
}
