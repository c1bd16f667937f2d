/* The revisits report (revisitreport.h): a table of hosts, chained by a
 * hash of the name, holding sums only, so memory grows with the hosts and
 * not with the URIs. */
#include "crawl/revisitreport.h"
#include "lib/curi.h"
#include "lib/history.h"
#include "lib/revisit.h"
#include "lib/url.h"
#include "lib/xmalloc.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define REVISITREPORT_BUCKETS 4096

struct revisitreport_host {
	struct revisitreport_host *next;
	uint64_t uris, visits, changes, not_modified, unchanged;
	double interval_sum; /* of the URIs' current intervals, seconds */
	double rate;	     /* filled when writing */
	char name[];
};

struct revisitreport {
	struct revisitreport_host *bucket[REVISITREPORT_BUCKETS];
	size_t nhosts;
	uint64_t uris, with_history, visits, changes, not_modified, unchanged;
};

struct revisitreport *revisitreport_new(void)
{
	return xcalloc(1, sizeof(struct revisitreport));
}

void revisitreport_free(struct revisitreport *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < REVISITREPORT_BUCKETS; i++) {
		struct revisitreport_host *h = r->bucket[i], *next;

		for (; h != NULL; h = next) {
			next = h->next;
			free(h);
		}
	}
	free(r);
}

static struct revisitreport_host *revisitreport_host(
    struct revisitreport *r, const char *name, size_t n)
{
	uint64_t x = 1469598103934665603ull;
	struct revisitreport_host *h;
	size_t i, b;

	for (i = 0; i < n; i++)
		x = (x ^ (unsigned char)name[i]) * 1099511628211ull;
	b = (size_t)(x % REVISITREPORT_BUCKETS);
	for (h = r->bucket[b]; h != NULL; h = h->next)
		if (strlen(h->name) == n && memcmp(h->name, name, n) == 0)
			return h;
	h = xcalloc(1, sizeof(*h) + n + 1);
	memcpy(h->name, name, n);
	h->next = r->bucket[b];
	r->bucket[b] = h;
	r->nhosts++;
	return h;
}

void revisitreport_add(struct revisitreport *r, const struct curi *c, int waiting)
{
	const struct history *hi = c->history;
	struct revisitreport_host *h;
	struct url_parts p;

	(void)waiting;
	r->uris++;
	if (hi == NULL || url_split(c->uri, &p) < 0)
		return;
	r->with_history++;
	r->visits += hi->visits;
	r->changes += hi->changes;
	r->not_modified += hi->not_modified;
	r->unchanged += hi->unchanged;
	h = revisitreport_host(r, c->uri + p.host_off, p.host_len);
	h->uris++;
	h->visits += hi->visits;
	h->changes += hi->changes;
	h->not_modified += hi->not_modified;
	h->unchanged += hi->unchanged;
	h->interval_sum += (double)hi->interval_s;
}

static int revisitreport_cmp(const void *a, const void *b)
{
	const struct revisitreport_host *x = *(const struct revisitreport_host *const *)a;
	const struct revisitreport_host *y = *(const struct revisitreport_host *const *)b;

	if (x->rate != y->rate)
		return x->rate > y->rate ? -1 : 1;
	return strcmp(x->name, y->name);
}

void revisitreport_write(const struct revisitreport *r, const struct revisitreport_due *due,
    uint64_t now_ms, int json, struct buf *out)
{
	struct revisitreport_host **all = xmalloc((r->nhosts + 1) * sizeof(*all));
	size_t i, n = 0;
	json_t *j = NULL, *hosts = NULL;

	for (i = 0; i < REVISITREPORT_BUCKETS; i++) {
		struct revisitreport_host *h;

		for (h = r->bucket[i]; h != NULL; h = h->next) {
			double mean = h->uris > 0 ? h->interval_sum / (double)h->uris : 0;

			h->rate = revisit_change_rate(h->visits, h->changes, mean) * 86400.0;
			all[n++] = h;
		}
	}
	qsort(all, n, sizeof(*all), revisitreport_cmp);
	if (json) {
		j = json_pack("{s:I, s:I, s:{s:I, s:I, s:I, s:I, s:I}, s:I, s:I, s:I, s:I, s:I}",
		    "uris", (json_int_t)r->uris, "with_history", (json_int_t)r->with_history, "due",
		    "queued", (json_int_t)due->queued, "now", (json_int_t)due->now, "next_hour",
		    (json_int_t)due->hour, "next_day", (json_int_t)due->day, "waiting",
		    (json_int_t)due->waiting, "next_due_in_ms",
		    (json_int_t)(due->next_due_ms == UINT64_MAX ? -1
			    : due->next_due_ms > now_ms ? (json_int_t)(due->next_due_ms - now_ms)
							: 0),
		    "visits", (json_int_t)r->visits, "changes", (json_int_t)r->changes,
		    "not_modified", (json_int_t)r->not_modified, "unchanged",
		    (json_int_t)r->unchanged);
		hosts = json_array();
	} else {
		buf_appendf(out,
		    "Revisits\n URIs: %llu (%llu with a fetch history)\n"
		    " queued now: %llu\n waiting: %llu; due by now: %llu, within an hour: %llu, "
		    "within a day: %llu\n",
		    (unsigned long long)r->uris, (unsigned long long)r->with_history,
		    (unsigned long long)due->queued, (unsigned long long)due->waiting,
		    (unsigned long long)due->now, (unsigned long long)due->hour,
		    (unsigned long long)due->day);
		if (due->next_due_ms != UINT64_MAX)
			buf_appendf(out, " next due in: %.1f s\n",
			    due->next_due_ms > now_ms ? (double)(due->next_due_ms - now_ms) / 1000.0
						      : 0.0);
		buf_appendf(out,
		    " visits that told change: %llu, changes seen: %llu\n"
		    " saved: %llu answers 304 Not Modified, %llu unchanged full answers "
		    "(both archived as revisit records)\n\n"
		    "#host #uris #visits #changes changes/day #304 #unchanged mean-interval-s\n",
		    (unsigned long long)r->visits, (unsigned long long)r->changes,
		    (unsigned long long)r->not_modified, (unsigned long long)r->unchanged);
	}
	for (i = 0; i < n; i++) {
		const struct revisitreport_host *h = all[i];
		double mean = h->uris > 0 ? h->interval_sum / (double)h->uris : 0;

		if (json)
			json_array_append_new(hosts,
			    json_pack("{s:s, s:I, s:I, s:I, s:f, s:I, s:I, s:f}", "host", h->name,
				"uris", (json_int_t)h->uris, "visits", (json_int_t)h->visits,
				"changes", (json_int_t)h->changes, "changes_per_day", h->rate,
				"not_modified", (json_int_t)h->not_modified, "unchanged",
				(json_int_t)h->unchanged, "mean_interval_s", mean));
		else
			buf_appendf(out, "%s %llu %llu %llu %.2f %llu %llu %.0f\n", h->name,
			    (unsigned long long)h->uris, (unsigned long long)h->visits,
			    (unsigned long long)h->changes, h->rate,
			    (unsigned long long)h->not_modified, (unsigned long long)h->unchanged,
			    mean);
	}
	if (json) {
		char *text;

		json_object_set_new(j, "hosts", hosts);
		text = json_dumps(j, JSON_COMPACT);
		buf_appends(out, text);
		buf_appendc(out, '\n');
		free(text);
		json_decref(j);
	}
	free(all);
}
