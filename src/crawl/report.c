/* Reports, live or offline. The frontier writes its own summary and queue
 * lines (src/frontier/frontier.c, src/frontier/wq.c); this file chooses the
 * status word, filters queue lines by state (their state word comes first,
 * in text and in JSON), wraps JSON lines into arrays, and reads crawl.log
 * for the hosts report. `tern report` (src/reportcmd.c) asks a running
 * crawl's control socket for them, or builds them here from the store. */
#include "crawl/report.h"
#include "archive/smallfile.h"
#include "frontier/counts.h"
#include "frontier/frontier.h"
#include "crawl/hostsreport.h"
#include "crawl/job.h"
#include "crawl/revisitreport.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *const report_states[] = {
    "IN-PROCESS",
    "READY",
    "SNOOZED",
    "INACTIVE",
    "INELIGIBLE",
    "RETIRED",
    "EXHAUSTED",
};

void report_frontier_word(const struct buf *summary, const char *word, struct buf *out)
{
	/* The frontier names its own state (RUN or EMPTY); the crawl knows
	 * better (paused, held at finish, not running). */
	const char *dash = summary->data != NULL ? strstr(summary->data, " - ") : NULL;

	if (dash != NULL && word != NULL) {
		buf_appends(out, word);
		buf_appends(out, dash);
	} else if (summary->data != NULL) {
		buf_append(out, summary->data, summary->len);
	}
}

void report_frontier(struct frontier *f, const char *word, int json, struct buf *out)
{
	struct frontier_counts n;
	json_t *j;
	char *text;

	if (!json) {
		struct buf b = BUF_INIT;

		frontier_report_summary(f, &b);
		report_frontier_word(&b, word, out);
		buf_free(&b);
		return;
	}
	frontier_counts(f, &n);
	j = counts_json(&n);
	json_object_set_new(j, "state",
	    json_string(word != NULL ? word : (frontier_is_finished(f) ? "EMPTY" : "RUN")));
	text = j != NULL ? json_dumps(j, JSON_INDENT(2)) : NULL;
	if (text != NULL) {
		buf_appends(out, text);
		buf_appendc(out, '\n');
		free(text);
	}
	json_decref(j);
}

int report_queues_want(const char *state, int json, struct buf *want, char **err)
{
	if (state != NULL && *state != '\0') {
		size_t i;
		for (i = 0; i < sizeof report_states / sizeof report_states[0]; i++)
			if (strcasecmp(state, report_states[i]) == 0)
				break;
		if (i == sizeof report_states / sizeof report_states[0]) {
			*err = xasprintf("unknown queue state '%s' (in-process, ready, snoozed, "
					 "inactive, ineligible, retired, exhausted)",
			    state);
			return -1;
		}
		if (json)
			buf_appendf(want, "{\"state\":\"%s\"", report_states[i]);
		else
			buf_appendf(want, "%s ", report_states[i]);
	}
	return 0;
}

void report_queues_begin(int json, struct buf *out)
{
	buf_appends(out, json ? "[" : FRONTIER_QUEUES_LEGEND);
}

void report_queues_pick(
    const struct buf *want, int json, const struct buf *lines, struct buf *out, size_t *n)
{
	const char *p, *end;

	for (p = lines->data; p != NULL && p < lines->data + lines->len; p = end + 1) {
		end = memchr(p, '\n', (size_t)(lines->data + lines->len - p));
		if (end == NULL)
			end = lines->data + lines->len;
		if (want->len > 0 &&
		    ((size_t)(end - p) < want->len || memcmp(p, want->data, want->len) != 0))
			continue;
		if (json)
			buf_appends(out, *n ? ",\n" : "\n");
		buf_append(out, p, (size_t)(end - p));
		if (!json)
			buf_appendc(out, '\n');
		(*n)++;
	}
}

void report_queues_end(int json, struct buf *out)
{
	if (json)
		buf_appends(out, "\n]\n");
}

int report_queues(struct frontier *f, const char *state, int json, struct buf *out, char **err)
{
	struct buf all = BUF_INIT, want = BUF_INIT;
	size_t n = 0;

	if (report_queues_want(state, json, &want, err) < 0)
		return -1;
	frontier_report_queues(f, &all, json);
	report_queues_begin(json, out);
	report_queues_pick(&want, json, &all, out, &n);
	report_queues_end(json, out);
	buf_free(&all);
	buf_free(&want);
	return 0;
}

static void report_revisit_cb(void *arg, const struct curi *c, int waiting)
{
	revisitreport_add(arg, c, waiting);
}

void report_revisits(struct frontier *f, uint64_t now_ms, int json, struct buf *out)
{
	struct revisitreport *r = revisitreport_new();
	uint64_t times[3], counts[3];

	report_revisits_times(now_ms, times);
	frontier_each_uri(f, report_revisit_cb, r);
	frontier_due_counts(f, times, counts, 3);
	report_revisits_write(f, r, counts, now_ms, json, out);
	revisitreport_free(r);
}

void report_revisits_times(uint64_t now_ms, uint64_t times[3])
{
	times[0] = now_ms + 1;
	times[1] = now_ms + 3600000;
	times[2] = now_ms + 86400000;
}

void report_revisits_add(void *arg, const struct curi *c, int waiting)
{
	revisitreport_add(arg, c, waiting);
}

void report_revisits_write(struct frontier *f, struct revisitreport *r, const uint64_t counts[3],
    uint64_t now_ms, int json, struct buf *out)
{
	struct revisitreport_due due;
	struct frontier_counts n;

	frontier_counts(f, &n);
	memset(&due, 0, sizeof due);
	due.queued = n.queued;
	due.now = counts[0];
	due.hour = counts[1];
	due.day = counts[2];
	due.waiting = n.revisits;
	due.next_due_ms = frontier_next_due(f);
	revisitreport_write(r, &due, now_ms, json, out);
}

int report_hosts(const char *jobdir, int json, struct buf *out, char **err)
{
	char *path = xasprintf("%s/logs/crawl.log", jobdir), *line = NULL;
	struct hostsreport *h;
	size_t cap = 0;
	ssize_t len;
	FILE *fp = fopen(path, "r");

	if (fp == NULL) {
		if (err != NULL)
			*err = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	h = hostsreport_new();
	while ((len = getline(&line, &cap, fp)) > 0)
		hostsreport_add_line(h, line, (size_t)len);
	free(line);
	fclose(fp);
	hostsreport_write(h, json, out);
	hostsreport_free(h);
	return 0;
}

/* A report that cannot be written leaves the last one in place; the crawl
 * goes on, and the reason goes to stderr. */
static void report_complain(char *err)
{
	fprintf(stderr, "tern: %s\n", err);
	free(err);
}

static void report_replace(const char *path, const char *data, size_t len)
{
	char *err = NULL;

	if (smallfile_replace(path, data, len, SMALLFILE_MODE, &err) < 0)
		report_complain(err);
}

void report_write_job(const char *jobdir, struct frontier *f, const char *word, json_t *stats)
{
	struct buf b = BUF_INIT;
	char *path, *text, *err = NULL;
	struct smallfile *sf;

	report_frontier(f, word, 0, &b);
	path = xasprintf("%s/reports/frontier-summary.txt", jobdir);
	report_replace(path, b.data, b.len);
	free(path);
	buf_reset(&b);
	path = xasprintf("%s/reports/queues.txt", jobdir);
	if ((sf = smallfile_open(path, SMALLFILE_MODE, &err)) != NULL) {
		fputs(FRONTIER_QUEUES_LEGEND, smallfile_fp(sf));
		frontier_report_queues_fp(f, smallfile_fp(sf), 0);
		if (smallfile_commit(sf, &err) < 0)
			report_complain(err);
	} else {
		report_complain(err);
	}
	free(path);
	if (report_hosts(jobdir, 0, &b, NULL) == 0) {
		path = xasprintf("%s/reports/hosts.txt", jobdir);
		report_replace(path, b.data, b.len);
		free(path);
	}
	buf_free(&b);

	if (stats != NULL) {
		text = json_dumps(stats, JSON_INDENT(2));
		if (text != NULL) {
			buf_appends(&b, text);
			buf_appendc(&b, '\n');
			path = xasprintf("%s/reports/stats.json", jobdir);
			report_replace(path, b.data, b.len);
			free(path);
			free(text);
			buf_free(&b);
		}
	}
}

/* One object's members under prefix, nested objects flattened. */
static void report_stats_member(const json_t *j, struct buf *prefix, struct buf *out)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)j, key, v)
	{
		size_t len = prefix->len;
		if (len > 0)
			buf_appendc(prefix, '.');
		buf_appends(prefix, key);
		if (json_is_object(v)) {
			report_stats_member(v, prefix, out);
		} else {
			buf_append(out, prefix->data, prefix->len);
			buf_appends(out, ": ");
			if (json_is_string(v)) {
				buf_appends(out, json_string_value(v));
			} else if (json_is_integer(v)) {
				buf_appendf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
			} else if (json_is_real(v)) {
				buf_appendf(out, "%.3f", json_real_value(v));
			} else {
				char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
				buf_appends(out, t != NULL ? t : "?");
				free(t);
			}
			buf_appendc(out, '\n');
		}
		prefix->len = len;
		if (prefix->data != NULL)
			prefix->data[len] = '\0';
	}
}

void report_stats_text(const json_t *stats, struct buf *out)
{
	struct buf prefix = BUF_INIT;

	if (stats != NULL && json_is_object(stats))
		report_stats_member(stats, &prefix, out);
	buf_free(&prefix);
}
