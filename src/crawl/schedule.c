/* Scheduling a discovered URI (schedule.h): scope, canonical key, queue key
 * and directive, then the frontier. Runs once per extracted link, so its
 * scratch buffers are kept across calls. */
#include "crawl/schedule.h"
#include "lib/canon.h"
#include "lib/config.h"
#include "lib/curi.h"
#include "lib/history.h"
#include "net/dns.h"
#include "frontier/frontier.h"
#include "crawl/scope.h"
#include "crawl/stats.h"
#include "lib/rules.h"
#include "lib/surt.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

/* One link of a batch: its href and canonical key in the batch's
 * buffers (offsets: the buffers grow), its parts and key hash. */
struct schedule_item {
	size_t href, len, canon, clen;
	struct url_parts p;
	uint64_t h;
	char hop;
	unsigned rel;
	int ok;
};

struct schedule {
	struct schedule_opts o;
	struct buf href, canon, queue, surt, hops;
	struct buf bhref, bcanon;
	struct schedule_item *item;
	size_t nitem, capitem;
};

struct schedule *schedule_new(const struct schedule_opts *o)
{
	struct schedule *s = xcalloc(1, sizeof *s);

	s->o = *o;
	return s;
}

void schedule_free(struct schedule *s)
{
	if (s == NULL)
		return;
	buf_free(&s->href);
	buf_free(&s->canon);
	buf_free(&s->queue);
	buf_free(&s->surt);
	buf_free(&s->hops);
	buf_free(&s->bhref);
	buf_free(&s->bcanon);
	free(s->item);
	free(s);
}

void schedule_set_dns(struct schedule *s, struct dns *dns)
{
	s->o.dns = dns;
}

void schedule_set_handoff(struct schedule *s,
    int (*handoff)(void *ctx, const char *href, const char *via, const char *hops, unsigned flags,
	int force, const struct schedule_hint *hint),
    void *ctx)
{
	s->o.handoff = handoff;
	s->o.handoff_ctx = ctx;
}

/* Heritrix's scheduling directive (FrontierPreparer.getSchedulingDirective
 * with preferenceDepthHops at its default, off): a redirect target (last
 * hop R) is MEDIUM, which covers the targets of seed redirects that
 * Heritrix promotes to MEDIUM as well; so is a URI whose trailing run of
 * non-navigational hops (Heritrix's trans hops: everything back to the last
 * L or M) is 1 to embed_hops long, so that a page's embeds are fetched
 * before the plain links queued ahead of them; everything else is NORMAL. */
static int schedule_directive(const char *hops, int64_t embed_hops)
{
	size_t n = strlen(hops);
	int64_t trans = 0;

	if (n > 0 && hops[n - 1] == 'R')
		return CURI_MEDIUM;
	while (n > 0 && hops[n - 1] != 'L' && hops[n - 1] != 'M') {
		trans++;
		n--;
	}
	return trans > 0 && trans <= embed_hops ? CURI_MEDIUM : CURI_NORMAL;
}

/* schedule_queue_key for an href already split. */
static int schedule_queue_key_parts(struct schedule *s, const char *href, const struct url_parts *p,
    const char *surt, const char *ip, struct buf *out)
{
	char cached[INET6_ADDRSTRLEN], *host;

	if (ip == NULL && s->o.assign == SURT_ASSIGN_IP && s->o.dns != NULL && p->host_ip == 0) {
		host = xstrndup(href + p->host_off, p->host_len);
		if (dns_peek(s->o.dns, host, cached) == 0)
			ip = cached;
		free(host);
	}
	if (ip != NULL && s->o.assign == SURT_ASSIGN_IP) {
		if (surt_ip_queue_key_parts(p, ip, out) < 0)
			return -1;
	} else if (surt_queue_key_parts(href, p, (enum surt_assign)s->o.assign, out) < 0) {
		return -1;
	}
	return surt_parallel_suffix_parts(
	    href, p, (int)config_int_for(s->o.cfg, surt, CK_FRONTIER_PARALLEL_QUEUES), out);
}

int schedule_queue_key(
    struct schedule *s, const char *href, const char *surt, const char *ip, struct buf *out)
{
	struct url_parts p;

	if (url_split(href, &p) < 0)
		return -1;
	return schedule_queue_key_parts(s, href, &p, surt, ip, out);
}

/* The fragment never reaches the server: as Heritrix's UURIs, the URI
 * tern fetches, logs and archives is the one without it. */
static const char *schedule_defragment(struct schedule *s, const char *href, size_t *len)
{
	const char *hash = strchr(href, '#');

	if (hash == NULL) {
		*len = strlen(href);
		return href;
	}
	buf_reset(&s->href);
	buf_append(&s->href, href, (size_t)(hash - href));
	*len = s->href.len;
	return s->href.data;
}

/* The queue key, the directive, the URI record and frontier_schedule, for
 * an href split into p whose canonical key and SURT are computed. */
static int schedule_enqueue(struct schedule *s, const char *href, const struct url_parts *p,
    const char *via, const char *hops, unsigned flags, int force, const struct schedule_hint *hint)
{
	const char *surt = strchr(s->surt.data, '(');
	struct curi *c;
	int rc;

	surt = surt != NULL ? surt + 1 : s->surt.data;
	if (schedule_queue_key_parts(s, href, p, surt, NULL, &s->queue) < 0)
		return 0;
	c = curi_new(href, via, hops, flags);
	c->directive = schedule_directive(hops != NULL ? hops : "",
	    config_int_for(s->o.cfg, surt, CK_FRONTIER_PREFERENCE_EMBED_HOPS));
	if (hint != NULL && hint->interval_s > 0) {
		/* The URI's history starts with the interval after its first
		 * visit (recrawl.h). */
		c->history = history_new();
		c->history->interval_s = hint->interval_s;
	}
	if (hint != NULL && hint->precedence > 0) {
		c->precedence = hint->precedence;
		c->flags |= CURI_HINTED;
	}
	rc = frontier_schedule(s->o.frontier, c, s->canon.data, s->queue.data, surt, force);
	curi_free(c);
	return rc;
}

/* Whether the rules and the scope let href (split into p, its SURT in
 * s->surt) be scheduled, counting why not. The first rule that matches
 * decides; the scope decides the rest. A URI too long to fetch is refused
 * whatever a rule says, and a prerequisite (last hop P: robots.txt) is
 * accepted whatever a rule says, as the scope does (crawl/scope.h). */
static int schedule_admit(struct schedule *s, const char *href, size_t len,
    const struct url_parts *p, const char *hops, unsigned rel)
{
	enum scope_why why =
	    scope_judge_parsed(s->o.scope, href, len, p, s->surt.data, s->surt.len, hops);
	size_t nhops = hops != NULL ? strlen(hops) : 0;

	if (s->o.rules != NULL && why != SCOPE_WHY_URI_LENGTH &&
	    !(nhops > 0 && hops[nhops - 1] == 'P')) {
		const char *paren = strchr(s->surt.data, '(');
		struct rules_uri u;
		int i;

		paren = paren != NULL ? paren + 1 : s->surt.data;
		u.uri = href;
		u.len = len;
		u.surt = paren;
		u.surt_len = s->surt.len - (size_t)(paren - s->surt.data);
		u.path = href + p->path_off;
		u.path_len = p->path_len;
		u.hops = hops != NULL ? hops : "";
		u.flags = rel;
		i = rules_match(s->o.rules, &u);
		if (i >= 0) {
			rules_hit(s->o.rules, (size_t)i);
			why = rules_accepts(s->o.rules, (size_t)i) ? SCOPE_WHY_ACCEPT
								   : SCOPE_WHY_RULE;
		}
	}
	if (why != SCOPE_WHY_ACCEPT && s->o.stats != NULL)
		s->o.stats->dropped[why]++;
	return why == SCOPE_WHY_ACCEPT;
}

/* After the already-seen test, for an href split into p whose canonical
 * key is in s->canon: the SURT, the rules and the scope, then the
 * partition's owner (cluster mode) or the queue. */
static int schedule_unseen(struct schedule *s, const char *href, size_t len,
    const struct url_parts *p, const char *via, const char *hops, unsigned flags, int force,
    const struct schedule_hint *hint, unsigned rel)
{
	if (surt_from_parts(href, p, 1, &s->surt) < 0)
		return 0;
	if (!force && !schedule_admit(s, href, len, p, hops, rel))
		return 0;
	/* A cluster node hands the URI to its partition's owner, with the
	 * sitemap's hint. */
	if (s->o.handoff != NULL)
		return s->o.handoff(s->o.handoff_ctx, href, via, hops, flags, force, hint);
	return schedule_enqueue(s, href, p, via, hops, flags, force, hint);
}

static int schedule_uri_with(struct schedule *s, const char *href, const char *via,
    const char *hops, unsigned flags, int force, const struct schedule_hint *hint)
{
	struct url_parts p;
	size_t len;

	href = schedule_defragment(s, href, &len);
	/* Split once: the canonical key, the SURT (for the scope and the
	 * override key, which is the SURT after its '('), and the queue key
	 * are all cut from these parts. */
	if (url_split(href, &p) < 0 || canon_key_parts(href, &p, s->o.canon_flags, &s->canon) < 0)
		return 0;
	/* Most links name a URI already seen: memory says so before the scope,
	 * the keys and the URI record are worked out, with the same answer
	 * (an in-scope URI seen before and an out-of-scope one both give 0).
	 * A cluster node knows only what it scheduled, which the stream has
	 * already. */
	if (!force && frontier_seen(s->o.frontier, s->canon.data, s->canon.len))
		return 0;
	return schedule_unseen(s, href, len, &p, via, hops, flags, force, hint, 0);
}

int schedule_received(struct schedule *s, const char *href, const char *via, const char *hops,
    unsigned flags, int force, const struct schedule_hint *hint)
{
	struct url_parts p;
	size_t len;

	href = schedule_defragment(s, href, &len);
	if (url_split(href, &p) < 0 || canon_key_parts(href, &p, s->o.canon_flags, &s->canon) < 0 ||
	    surt_from_parts(href, &p, 1, &s->surt) < 0)
		return 0;
	return schedule_enqueue(s, href, &p, via, hops, flags, force, hint);
}

int schedule_waiting(struct schedule *s, struct curi *c)
{
	struct url_parts p;
	const char *surt;

	if (url_split(c->uri, &p) < 0 ||
	    canon_key_parts(c->uri, &p, s->o.canon_flags, &s->canon) < 0 ||
	    surt_from_parts(c->uri, &p, 1, &s->surt) < 0)
		return 0;
	surt = strchr(s->surt.data, '(');
	surt = surt != NULL ? surt + 1 : s->surt.data;
	if (schedule_queue_key_parts(s, c->uri, &p, surt, NULL, &s->queue) < 0)
		return 0;
	return frontier_wait_revisit(s->o.frontier, c, s->canon.data, s->queue.data) == 0;
}

int schedule_uri(struct schedule *s, const char *href, const char *via, const char *hops,
    unsigned flags, int force)
{
	return schedule_uri_with(s, href, via, hops, flags, force, NULL);
}

int schedule_uri_hinted(struct schedule *s, const char *href, const char *via, const char *hops,
    unsigned flags, const struct schedule_hint *hint)
{
	return schedule_uri_with(s, href, via, hops, flags, 0, hint);
}

void schedule_batch_add(struct schedule *s, const char *href, size_t len, char hop)
{
	schedule_batch_add_rel(s, href, len, hop, 0);
}

void schedule_batch_add_rel(
    struct schedule *s, const char *href, size_t len, char hop, unsigned rel)
{
	const char *hash = memchr(href, '#', len);
	struct schedule_item *it;

	if (s->nitem == s->capitem) {
		s->capitem = s->capitem ? s->capitem * 2 : 64;
		s->item = xrealloc(s->item, s->capitem * sizeof(*s->item));
	}
	it = &s->item[s->nitem++];
	if (hash != NULL)
		len = (size_t)(hash - href);
	it->href = s->bhref.len;
	it->len = len;
	it->hop = hop;
	it->rel = rel;
	buf_append(&s->bhref, href, len);
	buf_appendc(&s->bhref, '\0');
	it->ok = url_split(s->bhref.data + it->href, &it->p) == 0 &&
	    canon_key_parts(s->bhref.data + it->href, &it->p, s->o.canon_flags, &s->canon) == 0;
	if (!it->ok)
		return;
	it->canon = s->bcanon.len;
	it->clen = s->canon.len;
	buf_append(&s->bcanon, s->canon.data, s->canon.len);
	buf_appendc(&s->bcanon, '\0');
	it->h = frontier_seen_hash(s->canon.data, s->canon.len);
	frontier_seen_prefetch(s->o.frontier, it->h, 0);
}

void schedule_batch_run(struct schedule *s, const char *via, const char *hops)
{
	size_t i;

	for (i = 0; i < s->nitem; i++)
		if (s->item[i].ok)
			frontier_seen_prefetch(s->o.frontier, s->item[i].h, 1);
	buf_reset(&s->hops);
	buf_appends(&s->hops, hops != NULL ? hops : "");
	buf_appendc(&s->hops, 'L');
	for (i = 0; i < s->nitem; i++) {
		const struct schedule_item *it = &s->item[i];
		const char *canon = s->bcanon.data + it->canon;

		if (!it->ok || frontier_seen_hashed(s->o.frontier, canon, it->clen, it->h))
			continue;
		buf_reset(&s->canon);
		buf_append(&s->canon, canon, it->clen);
		s->hops.data[s->hops.len - 1] = it->hop;
		schedule_unseen(s, s->bhref.data + it->href, it->len, &it->p, via, s->hops.data, 0,
		    0, NULL, it->rel);
	}
	s->nitem = 0;
	buf_reset(&s->bhref);
	buf_reset(&s->bcanon);
}

int schedule_relocate(struct schedule *s, const struct curi *c, const char *surt, const char *ip)
{
	struct buf key = BUF_INIT, canon = BUF_INIT;
	struct curi *moved;
	int rc = 0;

	if (s->o.assign != SURT_ASSIGN_IP)
		return 0;
	if (schedule_queue_key(s, c->uri, surt, ip, &key) == 0 &&
	    (c->queue_key == NULL || strcmp(key.data, c->queue_key) != 0) &&
	    canon_key(c->uri, s->o.canon_flags, &canon) == 0) {
		moved = curi_dup(c);
		/* Read again from the store under the preloaded policy rather
		 * than taken as a preloaded value. */
		moved->precedence = 0;
		rc = frontier_schedule(s->o.frontier, moved, canon.data, key.data, surt, 1) == 1;
		curi_free(moved);
	}
	buf_free(&key);
	buf_free(&canon);
	return rc;
}
