/* Allocation of crawl URIs. */
#include "lib/curi.h"
#include "lib/history.h"
#include "lib/xmalloc.h"
#include <stdlib.h>

struct curi *curi_new(const char *uri, const char *via, const char *hops, unsigned flags)
{
	struct curi *c = xcalloc(1, sizeof(*c));

	c->uri = xstrdup(uri);
	c->via = via != NULL ? xstrdup(via) : NULL;
	c->hops = xstrdup(hops != NULL ? hops : "");
	c->directive = CURI_NORMAL;
	c->cost = -1;
	c->flags = flags;
	return c;
}

struct curi *curi_dup(const struct curi *o)
{
	struct curi *c = curi_new(o->uri, o->via, o->hops, o->flags);

	c->precedence = o->precedence;
	c->directive = o->directive;
	c->attempts = o->attempts;
	c->cost = o->cost;
	c->ordinal = o->ordinal;
	c->queue_key = o->queue_key != NULL ? xstrdup(o->queue_key) : NULL;
	c->history = history_dup(o->history);
	return c;
}

void curi_free(struct curi *c)
{
	if (c == NULL)
		return;
	free(c->uri);
	free(c->via);
	free(c->hops);
	free(c->queue_key);
	history_free(c->history);
	free(c);
}
