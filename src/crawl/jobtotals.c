/* The job's totals as one record of unsigned counters in the frontier's
 * store. The order below is the record's layout: new fields go at the end,
 * so that a record written by an older tern reads with zeros for them. The
 * failures by cause come next, by their group's place in lib/status.h,
 * then the URIs dropped by reason (crawl/scope.h). */
#include "crawl/jobtotals.h"
#include "frontier/frontier.h"
#include "lib/buf.h"
#include "lib/config.h"
#include "frontier/keys.h"
#include "lib/xmalloc.h"

#include <string.h>

#define JOBTOTALS_KEY "job"
/* The counters, the time, the finish, then the failures by cause. */
#define JOBTOTALS_CAUSES 17
#define JOBTOTALS_DROPPED (JOBTOTALS_CAUSES + STATUS_GROUP_COUNT)
#define JOBTOTALS_N (JOBTOTALS_DROPPED + SCOPE_WHY_COUNT)

static void jobtotals_to(const struct jobtotals *t, uint64_t *v)
{
	const struct crawl_stats *s = &t->stats;

	v[0] = s->pages;
	v[1] = s->bytes;
	v[2] = s->failures;
	v[3] = s->dns_lookups;
	v[4] = s->robots_fetches;
	v[5] = s->retries;
	v[6] = s->revisits;
	v[7] = s->not_modified;
	v[8] = s->links_scheduled;
	for (int i = 0; i < 6; i++)
		v[9 + i] = s->status_class[i];
	v[15] = t->elapsed_ms;
	v[16] = t->finished_ms;
	for (int i = 0; i < STATUS_GROUP_COUNT; i++)
		v[JOBTOTALS_CAUSES + i] = s->failures_by_cause[i];
	for (int i = 0; i < SCOPE_WHY_COUNT; i++)
		v[JOBTOTALS_DROPPED + i] = s->dropped[i];
}

static void jobtotals_from(const uint64_t *v, struct jobtotals *t)
{
	struct crawl_stats *s = &t->stats;

	memset(t, 0, sizeof *t);
	s->pages = v[0];
	s->bytes = v[1];
	s->failures = v[2];
	s->dns_lookups = v[3];
	s->robots_fetches = v[4];
	s->retries = v[5];
	s->revisits = v[6];
	s->not_modified = v[7];
	s->links_scheduled = v[8];
	for (int i = 0; i < 6; i++)
		s->status_class[i] = v[9 + i];
	t->elapsed_ms = v[15];
	t->finished_ms = v[16];
	for (int i = 0; i < STATUS_GROUP_COUNT; i++)
		s->failures_by_cause[i] = v[JOBTOTALS_CAUSES + i];
	for (int i = 0; i < SCOPE_WHY_COUNT; i++)
		s->dropped[i] = v[JOBTOTALS_DROPPED + i];
}

int jobtotals_load(struct frontier *f, struct jobtotals *t, char **err)
{
	struct buf v = BUF_INIT;
	uint64_t x[JOBTOTALS_N];
	int rc;

	memset(t, 0, sizeof *t);
	rc = frontier_meta_get(f, JOBTOTALS_KEY, &v);
	if (rc < 0) {
		*err = xstrdup(frontier_error(f));
		buf_free(&v);
		return -1;
	}
	if (rc == 0) {
		buf_free(&v);
		return 0;
	}
	if (keys_u64s_decode(v.data, v.len, x, JOBTOTALS_N) < 0) {
		*err = xstrdup("the job's totals in the store are corrupt");
		buf_free(&v);
		return -1;
	}
	buf_free(&v);
	jobtotals_from(x, t);
	return 1;
}

void jobtotals_save(struct frontier *f, const struct jobtotals *t)
{
	struct buf v = BUF_INIT;
	uint64_t x[JOBTOTALS_N];

	jobtotals_to(t, x);
	keys_u64s_encode(&v, x, JOBTOTALS_N);
	frontier_meta_put(f, JOBTOTALS_KEY, v.data, v.len);
	buf_free(&v);
}

const char *jobtotals_limit(
    const struct config *cfg, const struct crawl_stats *s, uint64_t elapsed_ms)
{
	int64_t max_pages = config_int(cfg, CK_CRAWL_MAX_PAGES);
	int64_t max_bytes = config_int(cfg, CK_CRAWL_MAX_BYTES);
	int64_t max_time = config_int(cfg, CK_CRAWL_MAX_TIME_SECONDS);

	if (max_pages > 0 && s->pages >= (uint64_t)max_pages)
		return "max-pages reached";
	if (max_bytes > 0 && s->bytes >= (uint64_t)max_bytes)
		return "max-bytes reached";
	if (max_time > 0 && elapsed_ms >= (uint64_t)max_time * 1000)
		return "max-time-seconds reached";
	return NULL;
}
