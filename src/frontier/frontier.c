/* The frontier's public face (frontier.h): options from the configuration,
 * opening (with crash recovery) and closing, and the entry points, each
 * handing over to the room that does the work:
 *
 *   store.c      the LevelDB store and the one write batch
 *   residency.c  which queues are in memory; eviction after a write
 *   qstate.c     the queue state machine, the one place a state changes
 *   enqueue.c    scheduling: seen checks, held URIs, the sorted merge
 *   rotation.c   the poll (activation, budgets, rotation) and completion
 *   qreport.c    the summary and the queue lines
 *
 * Memory holds only the working set (READY, IN-PROCESS and SNOOZED queues),
 * a bounded number of recently touched other queues (the cold list, evicted
 * right after their metadata is written), the counters and the seen set's
 * filters. Inactive queues are found through the store's 'i' keys, read a
 * bounded batch at a time (the refill); retired ones through its 'r' keys.
 * Resident queues may be newer than the store (dirty) until the next flush.
 * Reading URI or inactive keys first writes the pending batch when it could
 * hold changes to what is read, so reads never see stale data. */
#include "frontier/frontier.h"
#include "frontier/cede.h"
#include "frontier/due.h"
#include "frontier/enqueue.h"
#include "frontier/qreport.h"
#include "frontier/qstate.h"
#include "frontier/residency.h"
#include "frontier/rotation.h"
#include "frontier/store.h"
#include "frontier/bloom.h"
#include "lib/history.h"
#include "lib/xmalloc.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *frontier_error(const struct frontier *f)
{
	return f->error;
}

void *frontier_db(struct frontier *f)
{
	return f->db;
}

const char *frontier_dir(const struct frontier *f)
{
	return f->dir;
}

/* Options. */

void frontier_options_defaults(struct frontier_options *o)
{
	memset(o, 0, sizeof(*o));
	policy_settings_defaults(&o->defaults);
	o->hold_queues = 1;
	o->precedence_floor = 255;
	o->snooze_deactivate_ms = 300000;
	o->cache_mb = 8;
	o->write_buffer_mb = 16;
	o->cold_queues = 4096;
	o->seen_memory = (size_t)8 << 20;
	o->seen_bloom_bits = 16;
	o->best_first = 0;
	o->host_depth_divisor = 8.0;
}

static void frontier_settings_read(
    const struct config *cfg, const char *surt, struct policy_settings *s)
{
	const int64_t *counts;
	size_t n, i;

	s->balance_replenish = config_int_for(cfg, surt, CK_FRONTIER_BALANCE_REPLENISH_AMOUNT);
	s->total_budget = config_int_for(cfg, surt, CK_FRONTIER_QUEUE_TOTAL_BUDGET);
	s->error_penalty = config_int_for(cfg, surt, CK_FRONTIER_ERROR_PENALTY_AMOUNT);
	s->cost_policy = config_enum_for(cfg, surt, CK_FRONTIER_COST_POLICY);
	s->uri_policy = config_enum_for(cfg, surt, CK_FRONTIER_URI_PRECEDENCE_POLICY);
	s->uri_base = (int)config_int_for(cfg, surt, CK_FRONTIER_URI_BASE_PRECEDENCE);
	s->queue_policy = config_enum_for(cfg, surt, CK_FRONTIER_QUEUE_PRECEDENCE_POLICY);
	s->queue_base = (int)config_int_for(cfg, surt, CK_FRONTIER_QUEUE_BASE_PRECEDENCE);
	counts = config_intlist_for(cfg, surt, CK_FRONTIER_SUCCESS_INCREMENT_COUNTS, &n);
	for (i = 0; i < n && i < POLICY_MAX_COUNTS; i++)
		s->success_counts[i] = counts[i];
	s->nsuccess_counts = i;
	s->max_retries = (int)config_int_for(cfg, surt, CK_FRONTIER_MAX_RETRIES);
	s->retry_delay_ms = config_int_for(cfg, surt, CK_FRONTIER_RETRY_DELAY_SECONDS) * 1000;
}

static void frontier_settings_from_config_cb(
    void *ctx, const char *surt, struct policy_settings *out)
{
	frontier_settings_read(ctx, surt, out);
}

void frontier_options_from_config(struct frontier_options *o, const struct config *cfg)
{
	frontier_options_defaults(o);
	frontier_settings_read(cfg, NULL, &o->defaults);
	o->hold_queues = config_bool(cfg, CK_FRONTIER_HOLD_QUEUES);
	o->precedence_floor = (int)config_int(cfg, CK_FRONTIER_PRECEDENCE_FLOOR);
	o->snooze_deactivate_ms = (uint64_t)config_int(cfg, CK_FRONTIER_SNOOZE_DEACTIVATE_MS);
	o->cache_mb = (size_t)config_int(cfg, CK_STORAGE_CACHE_MB);
	o->write_buffer_mb = (size_t)config_int(cfg, CK_STORAGE_WRITE_BUFFER_MB);
	o->seen_memory = (size_t)config_int(cfg, CK_STORAGE_SEEN_MEMORY_MB) << 20;
	o->seen_bloom_bits = (unsigned)config_int(cfg, CK_STORAGE_SEEN_BLOOM_BITS);
	o->best_first = config_enum(cfg, CK_FRONTIER_READY_ORDER) == 1;
	o->host_depth_divisor = config_double(cfg, CK_FRONTIER_HOST_DEPTH_DIVISOR);
	if (config_override_count(cfg) > 0) {
		o->settings_for = frontier_settings_from_config_cb;
		o->settings_ctx = (void *)cfg;
	}
}

static void frontier_settings_check(struct frontier *f)
{
	unsigned gen;

	if (f->cfg == NULL)
		return;
	gen = config_generation(f->cfg);
	if (gen == f->cfg_gen)
		return;
	f->cfg_gen = gen;
	{
		int best_first = f->o.best_first;
		double divisor = f->o.host_depth_divisor;

		frontier_options_from_config(&f->o, f->cfg);
		/* The ready order cannot change under queues already ordered. */
		f->o.best_first = best_first;
		f->o.host_depth_divisor = divisor;
	}
	/* As in Heritrix, any settings change re-judges retired queues. */
	frontier_settings_changed(f);
}

void frontier_settings_changed(struct frontier *f)
{
	f->settings_gen++;
	frontier_reconsider_retired(f);
}

/* Entry points. */

int frontier_preload(struct frontier *f, const char *canon, int precedence)
{
	return enqueue_preload(f, canon, precedence);
}

int frontier_schedule(struct frontier *f, const struct curi *c, const char *canon,
    const char *queue_key, const char *surt, int force)
{
	return enqueue_schedule(f, c, canon, queue_key, surt, force);
}

int frontier_seen(struct frontier *f, const char *canon, size_t len)
{
	return f->error == NULL && seen_known(f->seen, canon, len);
}

uint64_t frontier_seen_hash(const char *canon, size_t len)
{
	return seen_hash(canon, len);
}

int frontier_seen_hashed(struct frontier *f, const char *canon, size_t len, uint64_t h)
{
	return f->error == NULL && seen_known_hashed(f->seen, canon, len, h);
}

void frontier_seen_prefetch(struct frontier *f, uint64_t h, int stage)
{
	if (stage == 0)
		seen_prefetch(f->seen, h);
	else
		seen_prefetch_entry(f->seen, h);
}

int frontier_next(struct frontier *f, uint64_t now, struct curi **out, uint64_t *wake_ms)
{
	if (now > f->now)
		f->now = now;
	frontier_settings_check(f);
	return rotation_next(f, now, out, wake_ms);
}

void frontier_finish(
    struct frontier *f, struct curi *c, enum frontier_outcome o, uint64_t now, uint64_t delay_ms)
{
	rotation_finish(f, c, o, now, delay_ms, 0);
}

void frontier_finish_revisit(struct frontier *f, struct curi *c, enum frontier_outcome o,
    uint64_t now, uint64_t delay_ms, uint64_t due_ms)
{
	rotation_finish(f, c, o, now, delay_ms, due_ms > 0 ? due_ms : 1);
}

uint64_t frontier_next_due(const struct frontier *f)
{
	return f->due_next;
}

struct frontier_uri_walk *frontier_uri_walk_new(const uint64_t *times, size_t n)
{
	return due_uri_walk_new(times, n);
}

void frontier_uri_walk_free(struct frontier_uri_walk *w)
{
	due_uri_walk_free(w);
}

size_t frontier_uri_walk_step(struct frontier *f, struct frontier_uri_walk *w, size_t max,
    void (*cb)(void *arg, const struct curi *c, int waiting), void *arg, int *more)
{
	return due_uri_walk_step(f, w, max, cb, arg, more);
}

void frontier_uri_walk_counts(const struct frontier_uri_walk *w, uint64_t *counts)
{
	due_uri_walk_counts(w, counts);
}

void frontier_due_counts(struct frontier *f, const uint64_t *times, uint64_t *counts, size_t n)
{
	due_count_before(f, times, counts, n);
}

void frontier_each_uri(
    struct frontier *f, void (*cb)(void *arg, const struct curi *c, int waiting), void *arg)
{
	due_walk(f, cb, arg);
}

int frontier_may_retry(struct frontier *f, const struct curi *c)
{
	return rotation_may_retry(f, c);
}

unsigned frontier_note_connect(struct frontier *f, const struct curi *c, int failed)
{
	return rotation_note_connect(f, c, failed);
}

int frontier_flush(struct frontier *f, char **err)
{
	char *e = NULL;

	if (f->error == NULL && f->nheld > 0)
		enqueue_resolve_held(f);
	if (residency_write(f, err) < 0)
		return -1;
	due_flushed(f);
	if (seen_load_more(f->seen, &e) < 0 || residency_load_more(f, &e) < 0) {
		if (f->error == NULL)
			f->error = xstrdup(e);
		if (err != NULL)
			*err = e;
		else
			free(e);
		return -1;
	}
	return 0;
}

int frontier_mark_seen(struct frontier *f, const char *canon)
{
	return cede_mark_seen(f, canon);
}

long frontier_forget_seen(struct frontier *f, char **err)
{
	return cede_forget_seen(f, err);
}

long frontier_drop_where(
    struct frontier *f, int (*match)(void *ctx, const char *uri), void *ctx, char **err)
{
	return cede_drop_where(f, match, ctx, err);
}

void frontier_revisit_encode(const struct curi *c, struct buf *out)
{
	cede_revisit_encode(c, out);
}

int frontier_revisit_decode(const unsigned char *v, size_t n, struct curi **out)
{
	return cede_revisit_decode(v, n, out);
}

int frontier_wait_revisit(
    struct frontier *f, struct curi *c, const char *canon, const char *queue_key)
{
	return cede_wait_revisit(f, c, canon, queue_key);
}

int frontier_checkpoint_mark(struct frontier *f, const char *name, char **err)
{
	if (frontier_flush(f, err) < 0)
		return -1;
	return store_mark(f, name, err);
}

int frontier_meta_get(struct frontier *f, const char *name, struct buf *out)
{
	char *v;
	size_t vlen;

	buf_reset(&f->k);
	keys_meta_named(&f->k, name);
	if (store_get(f, &f->k, &v, &vlen, "reading a job record") < 0)
		return -1;
	if (v == NULL)
		return 0;
	buf_append(out, v, vlen);
	leveldb_free(v);
	return 1;
}

void frontier_meta_put(struct frontier *f, const char *name, const void *v, size_t n)
{
	buf_reset(&f->k);
	keys_meta_named(&f->k, name);
	buf_reset(&f->v);
	buf_append(&f->v, v, n);
	store_put(f, &f->k, &f->v);
}

void frontier_counts(const struct frontier *f, struct frontier_counts *out)
{
	qstate_counts(f, out);
}

void frontier_set_companion(struct frontier *f, const struct frontier_companion *c)
{
	f->companion = *c;
}

void frontier_set_prewrite(struct frontier *f, frontier_prewrite_fn *fn, void *arg)
{
	f->prewrite = fn;
	f->prewrite_arg = arg;
}

uint64_t frontier_discovered(const struct frontier *f)
{
	return f->c.discovered;
}

int frontier_is_finished(const struct frontier *f)
{
	return qstate_is_finished(f);
}

int frontier_reconsider_retired(struct frontier *f)
{
	return qstate_reconsider_retired(f);
}

void frontier_report_summary(struct frontier *f, struct buf *out)
{
	qreport_summary(f, out);
}

void frontier_report_queues(struct frontier *f, struct buf *out, int json)
{
	qreport_queues(f, out, json);
}

struct frontier_longest *frontier_longest_new(void)
{
	return qreport_longest_new();
}

void frontier_longest_free(struct frontier_longest *lg)
{
	qreport_longest_free(lg);
}

size_t frontier_longest_step(struct frontier *f, struct frontier_longest *lg, size_t max, int *more)
{
	return qreport_longest_step(f, lg, max, more);
}

void frontier_report_summary_longest(
    struct frontier *f, struct frontier_longest *lg, struct buf *out)
{
	qreport_summary_longest(f, lg, out);
}

size_t frontier_report_queues_step(
    struct frontier *f, struct buf *cursor, size_t max, int json, struct buf *out, int *more)
{
	return qreport_queues_step(f, cursor, max, json, out, more);
}

size_t frontier_walk_queues(
    struct frontier *f, const char *after, size_t max, frontier_queue_fn *fn, void *arg, int *more)
{
	return qreport_walk(f, after, max, fn, arg, more);
}

int frontier_queue_get(struct frontier *f, const char *key, frontier_queue_fn *fn, void *arg)
{
	return qreport_get(f, key, fn, arg);
}

int frontier_queue_head(
    struct frontier *f, const char *key, size_t n, frontier_uri_fn *fn, void *arg)
{
	return qreport_head(f, key, n, fn, arg);
}

void frontier_report_queues_fp(struct frontier *f, FILE *fp, int json)
{
	qreport_queues_fp(f, fp, json);
}

/* Opening and closing. */

/* A new store records its layout (keys.h); an existing one must have this
 * code's, or its keys would be misread. A store without the record has
 * layout 1, which kept a queue's URIs in one range. */
static int frontier_layout(struct frontier *f, int create, char **err)
{
	uint64_t layout = 1;
	char *v;
	size_t vlen;

	buf_reset(&f->k);
	keys_meta_named(&f->k, "layout");
	if (create) {
		layout = KEYS_LAYOUT;
		buf_reset(&f->v);
		keys_u64s_encode(&f->v, &layout, 1);
		store_put(f, &f->k, &f->v);
		return 0;
	}
	if (store_get(f, &f->k, &v, &vlen, "reading the store's layout") < 0) {
		*err = xstrdup(f->error);
		return -1;
	}
	if (v != NULL) {
		if (keys_u64s_decode(v, vlen, &layout, 1) < 0)
			layout = 0;
		leveldb_free(v);
	}
	if (layout == KEYS_LAYOUT)
		return 0;
	if (layout == 0)
		*err = xasprintf("%s: the store's layout record is corrupt", f->dir);
	else
		*err = xasprintf("%s: the frontier store has layout %llu and this tern reads "
				 "layout %d only (doc/frontier.md, \"Store layout\"): resume "
				 "the job with the tern that wrote it, or start a new job",
		    f->dir, (unsigned long long)layout, KEYS_LAYOUT);
	return -1;
}

static int frontier_recover(struct frontier *f, char **err)
{
	leveldb_iterator_t *it;
	char **keys = NULL, *v;
	size_t n = 0, cap = 0, i, vlen;
	const char start = KEYS_ACTIVE;

	buf_reset(&f->k);
	keys_meta(&f->k);
	if (store_get(f, &f->k, &v, &vlen, "reading frontier counters") < 0) {
		*err = xstrdup(f->error);
		return -1;
	}
	if (v != NULL) {
		int r = keys_counters_decode(v, vlen, &f->c);

		leveldb_free(v);
		if (r < 0) {
			*err = xstrdup("frontier counters are corrupt");
			return -1;
		}
	}
	if (seen_load(f->seen, err) < 0 || residency_load(f, err) < 0)
		return -1;
	/* Queues that were in the working set: their in-flight URIs are still
	 * at their heads, so making them READY re-fetches them. A snooze is
	 * kept (Heritrix drops it on resume). */
	it = leveldb_create_iterator(f->db, f->ro);
	for (leveldb_iter_seek(it, &start, 1); leveldb_iter_valid(it); leveldb_iter_next(it)) {
		size_t kl;
		const char *k = leveldb_iter_key(it, &kl);

		if (kl < 1 || k[0] != KEYS_ACTIVE)
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			keys = xrealloc(keys, cap * sizeof(*keys));
		}
		keys[n++] = xstrndup(k + 1, kl - 1);
	}
	leveldb_iter_destroy(it);
	for (i = 0; i < n; i++) {
		struct wq *q = residency_get(f, keys[i], 0);

		free(keys[i]);
		if (q == NULL || !wq_state_working(q->m.state))
			continue;
		qstate_restore(f, q);
	}
	free(keys);
	if (f->error != NULL) {
		*err = xstrdup(f->error);
		return -1;
	}
	due_load(f);
	return frontier_flush(f, err);
}

struct frontier *frontier_open_opts(
    const char *dir, const struct frontier_options *o, int create, uint64_t now_ms, char **err)
{
	struct frontier *f;

	if (create) {
		struct stat st;

		if (stat(dir, &st) == 0) {
			*err = xasprintf("%s: already exists", dir);
			return NULL;
		}
	}
	f = xcalloc(1, sizeof(*f));
	f->dir = xstrdup(dir);
	f->o = *o;
	if (f->o.precedence_floor < 1 || f->o.precedence_floor > KEYS_MAX_QPRECEDENCE + 1)
		f->o.precedence_floor = KEYS_MAX_QPRECEDENCE;
	if (!(f->o.host_depth_divisor > 0))
		f->o.host_depth_divisor = 8.0;
	f->now = now_ms;
	buf_init(&f->k);
	buf_init(&f->v);
	f->queues = wq_table_new();
	f->queue_keys = bloom_new(1 << 16, 16);
	f->wheel = wheel_new(now_ms);
	f->settings_gen = 1;
	f->pre_prec = -1;
	f->due_next = UINT64_MAX;
	if (store_open(f, dir, create, err) < 0) {
		frontier_close(f);
		return NULL;
	}
	if (frontier_layout(f, create, err) < 0) {
		frontier_close(f);
		return NULL;
	}
	f->seen = seen_new(f->db, o->seen_memory, o->seen_bloom_bits);
	if (create) {
		store_counters_put(f);
		if (frontier_flush(f, err) < 0) {
			frontier_close(f);
			return NULL;
		}
	} else if (frontier_recover(f, err) < 0) {
		frontier_close(f);
		return NULL;
	}
	return f;
}

struct frontier *frontier_open(
    const char *dir, const struct config *cfg, int create, uint64_t now_ms, char **err)
{
	struct frontier_options o;
	struct frontier *f;

	frontier_options_from_config(&o, cfg);
	f = frontier_open_opts(dir, &o, create, now_ms, err);
	if (f != NULL) {
		f->cfg = cfg;
		f->cfg_gen = config_generation(cfg);
	}
	return f;
}

void frontier_close(struct frontier *f)
{
	size_t i;

	if (f == NULL)
		return;
	/* A store refused for its layout (no seen set yet) is left as it is. */
	if (f->db != NULL && f->seen != NULL)
		frontier_flush(f, NULL);
	store_iter_drop(f);
	residency_load_stop(f);
	for (i = 0; i < f->nheld; i++) {
		history_free(f->held[i]->c.history);
		free(f->held[i]);
	}
	free(f->held);
	for (i = f->ipre; i < f->npre; i++)
		free(f->pre[i].key);
	seen_free(f->seen);
	store_close(f);
	wheel_free(f->wheel);
	wq_heap_free(&f->heap);
	wq_table_free(f->queues);
	bloom_free(f->queue_keys);
	buf_free(&f->k);
	buf_free(&f->v);
	free(f->error);
	free(f->dir);
	free(f);
}
