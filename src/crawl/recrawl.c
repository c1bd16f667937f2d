/* A continuous crawl's part of a visit (recrawl.h). */
#include "crawl/recrawl.h"
#include "archive/warc.h"
#include "lib/config.h"
#include "lib/curi.h"
#include "lib/isodate.h"
#include <string.h>

void recrawl_rule(const struct config *cfg, const char *surt, struct revisit_rule *out)
{
	out->initial_s = config_int_for(cfg, surt, CK_REVISIT_INITIAL_INTERVAL_SECONDS);
	out->min_s = config_int_for(cfg, surt, CK_REVISIT_MIN_INTERVAL_SECONDS);
	out->max_s = config_int_for(cfg, surt, CK_REVISIT_MAX_INTERVAL_SECONDS);
	out->changed_factor = config_double_for(cfg, surt, CK_REVISIT_CHANGED_FACTOR);
	out->unchanged_factor = config_double_for(cfg, surt, CK_REVISIT_UNCHANGED_FACTOR);
}

void recrawl_validators(const struct config *cfg, const char *surt, const struct curi *c,
    const char **if_none_match, const char **if_modified_since)
{
	*if_none_match = *if_modified_since = NULL;
	if (c->history != NULL && config_bool_for(cfg, surt, CK_REVISIT_CONDITIONAL_REQUESTS))
		history_validators(c->history, if_none_match, if_modified_since);
}

int recrawl_not_modified(const struct curi *c, int status, int sent_validators,
    const struct warc_writer *w, struct buf *refers_uri, struct buf *refers_date)
{
	const struct history *h = c->history;
	char date[32];

	/* A 304 to a request without validators (a server that answers so
	 * anyway) confirms nothing; without the earlier record there is
	 * nothing to refer to. */
	if (status != 304 || !sent_validators || h == NULL || h->digest == NULL ||
	    h->content_us <= 0 || w == NULL)
		return 0;
	buf_reset(refers_uri);
	buf_appends(refers_uri, h->content_uri != NULL ? h->content_uri : c->uri);
	warc_date_format(w, (uint64_t)h->content_us, date);
	buf_reset(refers_date);
	buf_appends(refers_date, date);
	return 1;
}

uint64_t recrawl_next_visit(const struct config *cfg, const char *surt, struct curi *c,
    const struct history_visit *hv, uint64_t now_ms)
{
	struct revisit_rule rule;
	struct history_visit v = *hv;

	if (c->history == NULL)
		c->history = history_new();
	if (v.start_ms <= 0)
		v.start_ms = (int64_t)now_ms;
	recrawl_rule(cfg, surt, &rule);
	history_note(c->history, &v, &rule);
	return c->history->due_ms > 0 ? (uint64_t)c->history->due_ms : now_ms;
}

int64_t recrawl_date_us(const char *warc_date)
{
	int64_t us;

	if (warc_date == NULL || isodate_parse(warc_date, strlen(warc_date), &us) < 0 || us <= 0)
		return 0;
	return us;
}
