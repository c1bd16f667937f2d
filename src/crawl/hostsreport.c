/* Hosts report from crawl.log lines. Hosts are found through a jansson object
 * used as a hash table (name -> index into the array of counts), so a line
 * costs one lookup whatever the number of hosts. */
#include "crawl/hostsreport.h"
#include "lib/status.h"
#include "lib/topn.h"
#include "lib/xmalloc.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct hostsreport_host {
	char *name;
	uint64_t urls, bytes, precluded, cls[6], failed, dns;
};

struct hostsreport {
	json_t *index;
	struct hostsreport_host *a;
	size_t n, cap, skipped;
};

struct hostsreport *hostsreport_new(void)
{
	struct hostsreport *h = xcalloc(1, sizeof *h);

	h->index = json_object();
	return h;
}

void hostsreport_free(struct hostsreport *h)
{
	if (h == NULL)
		return;
	for (size_t i = 0; i < h->n; i++)
		free(h->a[i].name);
	free(h->a);
	json_decref(h->index);
	free(h);
}

static struct hostsreport_host *hostsreport_get(struct hostsreport *h, const char *name, size_t len)
{
	char *key = xstrndup(name, len);
	json_t *v = json_object_get(h->index, key);
	struct hostsreport_host *e;

	if (v != NULL) {
		free(key);
		return &h->a[json_integer_value(v)];
	}
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->a = xrealloc(h->a, h->cap * sizeof *h->a);
	}
	e = &h->a[h->n];
	memset(e, 0, sizeof *e);
	e->name = key;
	json_object_set_new_nocheck(h->index, key, json_integer((json_int_t)h->n));
	h->n++;
	return e;
}

/* The next space-separated field of [*p, end). */
static int hostsreport_field(const char **p, const char *end, const char **f, size_t *flen)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	if (s == end)
		return -1;
	*f = s;
	while (s < end && *s != ' ')
		s++;
	*flen = (size_t)(s - *f);
	*p = s;
	return 0;
}

static int hostsreport_number(const char *s, size_t len, int64_t *out)
{
	int neg = 0;
	int64_t v = 0;
	size_t i = 0;

	if (len > 0 && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == len || len - i > 18)
		return -1;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

void hostsreport_add_line(struct hostsreport *h, const char *line, size_t len)
{
	const char *p = line, *end = line + len, *f, *uri, *host, *hend;
	size_t flen, ulen;
	int64_t status, size = 0;
	struct hostsreport_host *e;

	while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	/* time, status, size, URI */
	if (hostsreport_field(&p, end, &f, &flen) < 0 ||
	    hostsreport_field(&p, end, &f, &flen) < 0 || hostsreport_number(f, flen, &status) < 0 ||
	    hostsreport_field(&p, end, &f, &flen) < 0 ||
	    (!(flen == 1 && f[0] == '-') && hostsreport_number(f, flen, &size) < 0) ||
	    hostsreport_field(&p, end, &uri, &ulen) < 0) {
		h->skipped++;
		return;
	}
	if (ulen > 4 && strncmp(uri, "dns:", 4) == 0) {
		e = hostsreport_get(h, uri + 4, ulen - 4);
		e->dns++;
		return;
	}
	host = memchr(uri, ':', ulen);
	if (host == NULL || (size_t)(uri + ulen - host) < 3 || host[1] != '/' || host[2] != '/') {
		h->skipped++;
		return;
	}
	host += 3;
	hend = host;
	while (hend < uri + ulen && *hend != '/' && *hend != '?' && *hend != '#')
		hend++;
	/* userinfo never reaches crawl.log, but a stray '@' must not name a host */
	for (const char *at = host; at < hend; at++)
		if (*at == '@')
			host = at + 1;
	/* Hosts, as Heritrix reports them: without the port, so that a
	 * server's URIs and its dns: lookups meet on one line. */
	if (host < hend && *host == '[') {
		const char *rb = memchr(host, ']', (size_t)(hend - host));
		if (rb != NULL)
			hend = rb + 1;
	} else {
		const char *colon = memchr(host, ':', (size_t)(hend - host));
		if (colon != NULL)
			hend = colon;
	}
	if (hend == host) {
		h->skipped++;
		return;
	}
	e = hostsreport_get(h, host, (size_t)(hend - host));
	e->urls++;
	if (size > 0)
		e->bytes += (uint64_t)size;
	if (status == STATUS_ROBOTS_PRECLUDED)
		e->precluded++;
	else if (status < 0)
		e->failed++;
	else if (status >= 100 && status < 600)
		e->cls[status / 100]++;
}

size_t hostsreport_hosts(const struct hostsreport *h)
{
	return h->n;
}

size_t hostsreport_skipped(const struct hostsreport *h)
{
	return h->skipped;
}

static int hostsreport_cmp(const void *a, const void *b)
{
	const struct hostsreport_host *x = *(struct hostsreport_host *const *)a;
	const struct hostsreport_host *y = *(struct hostsreport_host *const *)b;

	if (x->urls != y->urls)
		return x->urls > y->urls ? -1 : 1;
	return strcmp(x->name, y->name);
}

void hostsreport_write(const struct hostsreport *h, int json, struct buf *out)
{
	struct hostsreport_host **order = xcalloc(h->n + 1, sizeof *order);
	size_t i;

	for (i = 0; i < h->n; i++)
		order[i] = &h->a[i];
	qsort(order, h->n, sizeof *order, hostsreport_cmp);
	if (json)
		buf_appends(out, "[");
	else
		buf_appends(out,
		    "[#urls] [#bytes] [host] [#robots] [#2xx] [#3xx] [#4xx] [#5xx] [#failed] [#dns]\n");
	for (i = 0; i < h->n; i++) {
		const struct hostsreport_host *e = order[i];
		if (json) {
			json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			    "host", e->name, "urls", (json_int_t)e->urls, "bytes",
			    (json_int_t)e->bytes, "robots", (json_int_t)e->precluded, "2xx",
			    (json_int_t)e->cls[2], "3xx", (json_int_t)e->cls[3], "4xx",
			    (json_int_t)e->cls[4], "5xx", (json_int_t)e->cls[5], "failed",
			    (json_int_t)e->failed, "dns", (json_int_t)e->dns);
			char *t = o != NULL ? json_dumps(o, 0) : NULL;
			if (t != NULL) {
				buf_appends(out, i ? ",\n" : "\n");
				buf_appends(out, t);
				free(t);
			}
			json_decref(o);
		} else {
			buf_appendf(out, "%llu %llu %s %llu %llu %llu %llu %llu %llu %llu\n",
			    (unsigned long long)e->urls, (unsigned long long)e->bytes, e->name,
			    (unsigned long long)e->precluded, (unsigned long long)e->cls[2],
			    (unsigned long long)e->cls[3], (unsigned long long)e->cls[4],
			    (unsigned long long)e->cls[5], (unsigned long long)e->failed,
			    (unsigned long long)e->dns);
		}
	}
	if (json)
		buf_appends(out, "\n]\n");
	free(order);
}

/* The value a host is ranked by; names rank by the name alone. */
static uint64_t hostsreport_key(const struct hostsreport_host *e, int by)
{
	return by == 0 ? e->urls : by == 1 ? e->bytes : by == 2 ? e->failed : 0;
}

/* Host *pa before host *pb in the order *ctx (a topn order of pointers):
 * the larger key, then the smaller name. */
static int hostsreport_before(const void *pa, const void *pb, void *ctx)
{
	const struct hostsreport_host *a = *(const struct hostsreport_host *const *)pa;
	const struct hostsreport_host *b = *(const struct hostsreport_host *const *)pb;
	int by = *(const int *)ctx;
	uint64_t x = hostsreport_key(a, by), y = hostsreport_key(b, by);

	if (x != y)
		return x > y;
	return strcmp(a->name, b->name) < 0;
}

size_t hostsreport_rows(
    const struct hostsreport *h, const char *by, size_t from, size_t n, struct hostsreport_row *out)
{
	int b = strcmp(by, "bytes") == 0 ? 1
	    : strcmp(by, "failed") == 0	 ? 2
	    : strcmp(by, "name") == 0	 ? 3
					 : 0;
	size_t keep = from + n, got;
	const struct hostsreport_host **kept, *out_of_heap;
	struct topn *t;

	if (from >= h->n || n == 0)
		return 0;
	if (keep > h->n)
		keep = h->n;
	t = topn_new(keep, sizeof(const struct hostsreport_host *), hostsreport_before, &b);
	for (size_t i = 0; i < h->n; i++) {
		const struct hostsreport_host *e = &h->a[i];

		topn_push(t, &e, &out_of_heap);
	}
	kept = topn_sorted(t, &got);
	got -= from;
	for (size_t i = 0; i < got; i++) {
		const struct hostsreport_host *e = kept[from + i];
		struct hostsreport_row *r = &out[i];

		r->name = e->name;
		r->urls = e->urls;
		r->bytes = e->bytes;
		r->precluded = e->precluded;
		memcpy(r->cls, e->cls, sizeof r->cls);
		r->failed = e->failed;
		r->dns = e->dns;
	}
	topn_free(t);
	return got;
}
