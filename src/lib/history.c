/* A URI's fetch history and what one visit does to it (see history.h).
 * The rules follow Heritrix's FetchHistoryProcessor: a 304 keeps the
 * previous capture's digest (the capture it stands for), and a full answer
 * with the same payload digest as the last one is unchanged. */
#include "lib/history.h"
#include "lib/xmalloc.h"
#include <stdlib.h>
#include <string.h>

struct history *history_new(void)
{
	return xcalloc(1, sizeof(struct history));
}

static char *history_strdup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

struct history *history_dup(const struct history *h)
{
	struct history *d;

	if (h == NULL)
		return NULL;
	d = xmalloc(sizeof(*d));
	*d = *h;
	d->digest = history_strdup(h->digest);
	d->etag = history_strdup(h->etag);
	d->last_modified = history_strdup(h->last_modified);
	d->content_uri = history_strdup(h->content_uri);
	return d;
}

void history_free(struct history *h)
{
	if (h == NULL)
		return;
	free(h->digest);
	free(h->etag);
	free(h->last_modified);
	free(h->content_uri);
	free(h);
}

/* Replaces *slot with a copy of s (NULL clears it). */
static void history_set(char **slot, const char *s)
{
	if (*slot == s)
		return;
	free(*slot);
	*slot = history_strdup(s);
}

/* A header value may be sent back only if it has no control characters
 * (it came from a parsed header, but the store is not trusted blindly). */
static int history_sendable(const char *v)
{
	const unsigned char *p;

	if (v == NULL || *v == '\0')
		return 0;
	for (p = (const unsigned char *)v; *p != '\0'; p++)
		if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
			return 0;
	return 1;
}

void history_validators(
    const struct history *h, const char **if_none_match, const char **if_modified_since)
{
	*if_none_match = *if_modified_since = NULL;
	if (h == NULL || h->digest == NULL)
		return;
	if (history_sendable(h->etag))
		*if_none_match = h->etag;
	if (history_sendable(h->last_modified))
		*if_modified_since = h->last_modified;
}

enum revisit_change history_note(
    struct history *h, const struct history_visit *v, const struct revisit_rule *rule)
{
	enum revisit_change c = REVISIT_UNKNOWN;

	if (v->status == 304 && h->digest != NULL) {
		c = REVISIT_UNCHANGED;
		h->not_modified++;
		/* A 304 repeats the validators a 200 would carry; a new one
		 * replaces the old, an absent one leaves it. */
		if (v->etag != NULL)
			history_set(&h->etag, v->etag);
		if (v->last_modified != NULL)
			history_set(&h->last_modified, v->last_modified);
	} else if (v->status >= 200 && v->status < 300 && v->digest != NULL && !v->truncated) {
		if (h->digest == NULL) {
			h->last_change_ms = v->start_ms;
		} else if (strcmp(h->digest, v->digest) == 0) {
			c = REVISIT_UNCHANGED;
			h->unchanged++;
		} else {
			c = REVISIT_CHANGED;
			h->changes++;
			h->last_change_ms = v->start_ms;
		}
		history_set(&h->digest, v->digest);
		history_set(&h->etag, v->etag);
		history_set(&h->last_modified, v->last_modified);
		if (v->refers_uri != NULL) {
			history_set(&h->content_uri, v->refers_uri);
			h->content_us = v->refers_us;
		} else {
			history_set(&h->content_uri, NULL);
			h->content_us = v->record_us;
		}
	}
	if (c != REVISIT_UNKNOWN)
		h->visits++;
	h->last_visit_ms = v->start_ms;
	h->interval_s = revisit_interval(rule, h->interval_s, c);
	h->due_ms = v->start_ms + h->interval_s * 1000;
	return c;
}
