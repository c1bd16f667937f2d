/* First failures said once, and failures counted by cause (failures.h). */
#include <build-config.h>

#include "crawl/failures.h"
#include "crawl/stats.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Hosts whose first failures of each group were said: a direct-mapped
 * table of hashes of (host, port, group), so that its memory is bounded
 * however many hosts fail. A collision forgets a host: at worst its
 * failure is said a second time. */
#define FAILURES_SLOTS (1u << 15)
/* The terminal gets this many failure lines; tern.log gets them all. */
#define FAILURES_TERMINAL_MAX 40

struct failures {
	struct failures_env env;
	uint64_t *said; /* FAILURES_SLOTS hashes, 0 empty */
	unsigned terminal_lines;
	uint64_t failed; /* final failures in this process */
};

struct failures *failures_new(const struct failures_env *env)
{
	struct failures *fl = xcalloc(1, sizeof *fl);

	assert(env->stats != NULL && env->say != NULL);
	fl->env = *env;
	fl->said = xcalloc(FAILURES_SLOTS, sizeof *fl->said);
	return fl;
}

void failures_free(struct failures *fl)
{
	if (fl == NULL)
		return;
	free(fl->said);
	free(fl);
}

/* FNV-1a over the host, then the port and the group; never 0. */
static uint64_t failures_hash(const char *host, int port, enum status_group g)
{
	uint64_t h = 1469598103934665603ULL;

	for (const unsigned char *p = (const unsigned char *)host; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	h = (h ^ (uint64_t)(unsigned)port) * 1099511628211ULL;
	h = (h ^ (uint64_t)g) * 1099511628211ULL;
	return h ? h : 1;
}

/* 1 the first time (host, port, group) is asked, 0 after. */
static int failures_first(struct failures *fl, const char *host, int port, enum status_group g)
{
	uint64_t h = failures_hash(host, port, g);
	uint64_t *slot = &fl->said[h & (FAILURES_SLOTS - 1)];

	if (*slot == h)
		return 0;
	*slot = h;
	return 1;
}

/* "in 15 min", "in 2 h 5 min", "in 3 s". */
static void failures_span(struct buf *b, uint64_t ms)
{
	uint64_t s = (ms + 500) / 1000;

	if (s < 120)
		buf_appendf(b, "in %llu s", (unsigned long long)s);
	else if (s < 7200)
		buf_appendf(b, "in %llu min", (unsigned long long)((s + 30) / 60));
	else
		buf_appendf(b, "in %llu h %llu min", (unsigned long long)(s / 3600),
		    (unsigned long long)(s % 3600 / 60));
}

void failures_note(struct failures *fl, const struct failures_event *ev)
{
	enum status_group g = status_cause_group(ev->cause);
	int dns = g == STATUS_GROUP_DNS;
	/* A seed that cannot be reached while nothing else runs is what makes
	 * a crawl look hung: each of its retries is said. */
	int seed_waits = ev->seed && fl->env.stats->pages == 0;
	const char *settings = status_cause_settings(ev->cause);
	struct buf b = BUF_INIT;
	int terminal;

	assert(ev->cause != CAUSE_NONE && ev->attempt >= 1);
	/* HTTP errors are the server's answer, said only for seeds: every
	 * site has its missing pages. */
	if (g == STATUS_GROUP_HTTP && !ev->seed)
		return;
	if (!failures_first(fl, ev->host, dns ? 0 : ev->port, g) && !seed_waits)
		return;
	if (dns)
		buf_appendf(&b, "%s: %s", ev->host, status_cause_message(ev->cause));
	else
		buf_appendf(&b, "%s:%d: %s", ev->host, ev->port, status_cause_message(ev->cause));
	if (g == STATUS_GROUP_HTTP && ev->status > 0)
		buf_appendf(&b, " %d", ev->status);
	buf_appendf(&b, " (%s%s)", ev->seed ? "seed " : "", ev->uri);
	if (!ev->final) {
		time_t at = (time_t)((uint64_t)time(NULL) + (ev->retry_ms + 500) / 1000);
		struct tm tm;
		char hms[16];

		localtime_r(&at, &tm);
		strftime(hms, sizeof hms, "%H:%M:%S", &tm);
		buf_appendf(
		    &b, "; attempt %d of %d at %s, ", ev->attempt + 1, ev->max_attempts, hms);
		failures_span(&b, ev->retry_ms);
		/* What sets the wait, unless the settings below name it. */
		if (ev->retry_setting != NULL && strstr(settings, ev->retry_setting) == NULL)
			buf_appendf(&b, " (%s)", ev->retry_setting);
	} else if (ev->attempt > 1) {
		buf_appendf(&b, "; gave up after %d attempts", ev->attempt);
	} else if (status_cause_code(ev->cause) < 0) {
		buf_appends(&b, "; not fetched");
	}
	if (*settings)
		buf_appendf(&b, "; see %s", settings);
	else if (g == STATUS_GROUP_HTTP && ev->status == 401)
		/* A login the crawl has no credential for: the setting that
		 * adds one (tern(1), LOGINS). */
		buf_appends(&b, "; see fetch.credentials-file");
	terminal = fl->terminal_lines < FAILURES_TERMINAL_MAX;
	fl->env.say(fl->env.ctx, b.data, terminal);
	if (terminal && ++fl->terminal_lines == FAILURES_TERMINAL_MAX)
		fl->env.say(
		    fl->env.ctx, "further first failures of hosts are only in logs/tern.log", 1);
	buf_free(&b);
}

void failures_disposed(struct failures *fl, int status, enum status_cause cause)
{
	assert(status != 0);
	if (status > 0 && status < 400)
		return;
	/* Anything else is a failure: a negative code, or the 4xx/5xx it
	 * implies when nothing finer is known. */
	if (cause == CAUSE_NONE)
		cause = status_cause_of(status);
	fl->env.stats->failures_by_cause[status_cause_group(cause)]++;
	fl->failed++;
}

int failures_all_failed(const struct failures *fl)
{
	const struct crawl_stats *st = fl->env.stats;

	return fl->failed > 0 && st->status_class[2] == 0 && st->not_modified == 0;
}

void failures_brief(const struct crawl_stats *st, struct buf *out)
{
	for (int g = 0; g < STATUS_GROUP_COUNT; g++)
		if (st->failures_by_cause[g] > 0)
			buf_appendf(out, "%s%s %llu", out->len ? ", " : "", status_group_word(g),
			    (unsigned long long)st->failures_by_cause[g]);
}

void failures_print(const struct crawl_stats *st, FILE *out)
{
	int any = 0;

	for (int g = 0; g < STATUS_GROUP_COUNT; g++) {
		uint64_t n = st->failures_by_cause[g];
		const char *settings = status_group_settings(g);

		if (n == 0)
			continue;
		if (!any)
			fprintf(out, "tern: failures by cause:\n");
		any = 1;
		fprintf(out, "tern:   %-8s %8llu  %s%s%s\n", status_group_word(g),
		    (unsigned long long)n, status_group_label(g), *settings ? "; see " : "",
		    settings);
	}
}

json_t *failures_json(const struct crawl_stats *st)
{
	json_t *j = json_object();

	for (int g = 0; g < STATUS_GROUP_COUNT; g++)
		json_object_set_new(
		    j, status_group_word(g), json_integer((json_int_t)st->failures_by_cause[g]));
	return j;
}

void failures_from_json(struct crawl_stats *st, const json_t *j)
{
	for (int g = 0; g < STATUS_GROUP_COUNT; g++) {
		json_t *v = json_object_get(j, status_group_word(g));

		st->failures_by_cause[g] = json_is_integer(v) && json_integer_value(v) > 0
		    ? (uint64_t)json_integer_value(v)
		    : 0;
	}
}
