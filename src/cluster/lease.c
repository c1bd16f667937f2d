/* Partition leases: one small record per partition, every transition in
 * the functions below (lease.h has the rules). */
#include <stdlib.h>
#include "cluster/lease.h"
#include "lib/partition.h"
#include "lib/xmalloc.h"

struct lease_part {
	enum lease_state state;
	uint64_t rev;	  /* revision of our last confirmed write */
	uint64_t ok_ms;	  /* send time of the write that keeps the key alive */
	uint64_t sent_ms; /* send time of our last write (claim or renewal) */
	uint64_t
	    unconfirmed_ms; /* send time of the first write since ok_ms left unanswered; 0 none */
	int renew_out;	    /* a renewal is awaiting its answer */
	int suspended;	    /* SUSPEND said since the window closed */
};

struct lease_table {
	struct lease_params p;
	struct lease_part *part;
};

struct lease_table *lease_new(const struct lease_params *p)
{
	struct lease_table *t = xcalloc(1, sizeof *t);

	t->p = *p;
	if (t->p.partitions == 0)
		t->p.partitions = 1;
	if (t->p.renew_ms == 0)
		t->p.renew_ms = t->p.lease_ms / 5;
	if (t->p.window_ms == 0)
		t->p.window_ms = t->p.lease_ms / 2;
	t->part = xcalloc(t->p.partitions, sizeof *t->part);
	return t;
}

void lease_free(struct lease_table *t)
{
	if (t == NULL)
		return;
	free(t->part);
	free(t);
}

static size_t lease_emit(struct lease_action *out, size_t cap, size_t n, enum lease_action_kind k,
    unsigned p, uint64_t rev)
{
	if (n < cap) {
		out[n].kind = k;
		out[n].partition = p;
		out[n].rev = rev;
		return n + 1;
	}
	return n;
}

/* States in which the key is ours and must be kept alive. */
static int lease_renewable(enum lease_state s)
{
	return s == LEASE_REPLAYING || s == LEASE_HELD || s == LEASE_RELEASING;
}

static int lease_counts(enum lease_state s)
{
	return s == LEASE_CLAIMING || s == LEASE_REPLAYING || s == LEASE_HELD;
}

size_t lease_tick(struct lease_table *t, uint64_t now_ms, struct lease_action *out, size_t cap)
{
	size_t n = 0;
	unsigned i;

	for (i = 0; i < t->p.partitions; i++) {
		struct lease_part *l = &t->part[i];
		if (!lease_renewable(l->state))
			continue;
		if (!l->renew_out && now_ms >= l->sent_ms + t->p.renew_ms) {
			l->renew_out = 1;
			l->sent_ms = now_ms;
			n = lease_emit(out, cap, n, LEASE_DO_RENEW, i, l->rev);
		}
		if (l->state == LEASE_HELD && !l->suspended &&
		    now_ms >= l->ok_ms + t->p.window_ms) {
			l->suspended = 1;
			n = lease_emit(out, cap, n, LEASE_DO_SUSPEND, i, l->rev);
		}
	}
	return n;
}

size_t lease_view(struct lease_table *t, const struct lease_view_entry *v, unsigned live,
    uint64_t now_ms, struct lease_action *out, size_t cap)
{
	unsigned np = t->p.partitions, target = partition_target(np, live), held = lease_held(t);
	unsigned i, k, start = t->p.seed % np;
	size_t n = 0;

	(void)now_ms;
	if (held < target) {
		/* Our own earlier leases first (a restart keeps its partitions),
		 * then free ones, each pass from this node's own starting point so
		 * that nodes joining together try different partitions. */
		int pass;
		for (pass = 0; pass < 2 && held < target; pass++) {
			for (k = 0; k < np && held < target; k++) {
				struct lease_part *l;
				i = (start + k) % np;
				l = &t->part[i];
				if (l->state != LEASE_FREE)
					continue;
				if (pass == 0
					? v[i].owner != LEASE_MINE
					: v[i].owner != LEASE_ABSENT && v[i].owner != LEASE_FREED)
					continue;
				l->state = LEASE_CLAIMING;
				l->sent_ms = now_ms;
				l->unconfirmed_ms = 0;
				held++;
				n = lease_emit(out, cap, n, LEASE_DO_CLAIM, i,
				    v[i].owner == LEASE_ABSENT ? 0 : v[i].rev);
			}
		}
	} else if (held > target) {
		/* Give up held partitions (never one still claiming or
		 * replaying), walking back from the end of our order. */
		for (k = 0; k < np && held > target; k++) {
			struct lease_part *l;
			i = (start + np - 1 - k) % np;
			l = &t->part[i];
			if (l->state != LEASE_HELD)
				continue;
			l->state = LEASE_RELEASING;
			held--;
			n = lease_emit(out, cap, n, LEASE_DO_STOP, i, l->rev);
		}
	}
	return n;
}

/* A confirmed write: rev and the time from which the key cannot expire
 * before lease_ms have passed. */
static void lease_confirm(struct lease_part *l, enum lease_result r, uint64_t rev, uint64_t sent_ms)
{
	uint64_t from = sent_ms;

	/* The write that landed may be an earlier one that went unanswered:
	 * count from the first of those, the earliest it can have been sent. */
	if (r == LEASE_OK_FOUND && l->unconfirmed_ms != 0 && l->unconfirmed_ms < from)
		from = l->unconfirmed_ms;
	l->rev = rev;
	if (from > l->ok_ms)
		l->ok_ms = from;
	l->unconfirmed_ms = 0;
	l->suspended = 0;
}

size_t lease_claimed(struct lease_table *t, unsigned p, enum lease_result r, uint64_t rev,
    uint64_t sent_ms, struct lease_action *out, size_t cap)
{
	struct lease_part *l;

	if (p >= t->p.partitions)
		return 0;
	l = &t->part[p];
	if (l->state != LEASE_CLAIMING)
		return 0;
	if (r == LEASE_OK || r == LEASE_OK_FOUND) {
		l->ok_ms = 0;
		lease_confirm(l, r, rev, sent_ms);
		l->state = LEASE_REPLAYING;
		l->renew_out = 0;
		return lease_emit(out, cap, 0, LEASE_DO_START, p, rev);
	}
	/* Refused: someone else was first. Unknown: it may have landed; a
	 * later view shows it as ours and it is claimed again at its
	 * revision. Either way it is not ours now, and nothing of it started. */
	l->state = LEASE_FREE;
	return 0;
}

size_t lease_renewed(struct lease_table *t, unsigned p, enum lease_result r, uint64_t rev,
    uint64_t sent_ms, struct lease_action *out, size_t cap)
{
	struct lease_part *l;

	if (p >= t->p.partitions)
		return 0;
	l = &t->part[p];
	if (!l->renew_out)
		return 0;
	l->renew_out = 0;
	if (!lease_renewable(l->state))
		return 0;
	switch (r) {
	case LEASE_OK:
	case LEASE_OK_FOUND:
		lease_confirm(l, r, rev, sent_ms);
		return 0;
	case LEASE_UNKNOWN:
		if (l->unconfirmed_ms == 0)
			l->unconfirmed_ms = sent_ms;
		return 0;
	case LEASE_REFUSED:
		break;
	}
	/* Someone else holds it (after an expiry we did not see coming, or
	 * an operator's write): our work on it stops at once. A partition
	 * already being given up just stops being renewed. */
	if (l->state == LEASE_RELEASING) {
		l->state = LEASE_LOST;
		return 0;
	}
	l->state = LEASE_LOST;
	return lease_emit(out, cap, 0, LEASE_DO_STOP, p, l->rev);
}

void lease_replayed(struct lease_table *t, unsigned p)
{
	if (p < t->p.partitions && t->part[p].state == LEASE_REPLAYING)
		t->part[p].state = LEASE_HELD;
}

size_t lease_stopped(struct lease_table *t, unsigned p, struct lease_action *out, size_t cap)
{
	struct lease_part *l;

	if (p >= t->p.partitions)
		return 0;
	l = &t->part[p];
	if (l->state == LEASE_LOST) {
		l->state = LEASE_FREE;
		l->renew_out = 0;
		return 0;
	}
	if (l->state != LEASE_RELEASING)
		return 0;
	l->state = LEASE_RELEASE_SENT;
	return lease_emit(out, cap, 0, LEASE_DO_RELEASE, p, l->rev);
}

void lease_released(struct lease_table *t, unsigned p, enum lease_result r)
{
	(void)r;
	/* Refused or unanswered, the key is no longer ours to use: it was
	 * freed, taken, or expires by itself. */
	if (p < t->p.partitions && t->part[p].state == LEASE_RELEASE_SENT) {
		t->part[p].state = LEASE_FREE;
		t->part[p].renew_out = 0;
	}
}

size_t lease_give_up(struct lease_table *t, unsigned p, struct lease_action *out, size_t cap)
{
	struct lease_part *l;

	if (p >= t->p.partitions)
		return 0;
	l = &t->part[p];
	if (l->state != LEASE_HELD && l->state != LEASE_REPLAYING)
		return 0;
	l->state = LEASE_RELEASING;
	return lease_emit(out, cap, 0, LEASE_DO_STOP, p, l->rev);
}

size_t lease_release_all(struct lease_table *t, struct lease_action *out, size_t cap)
{
	size_t n = 0;
	unsigned i;

	for (i = 0; i < t->p.partitions; i++)
		n += lease_give_up(t, i, out + n, n < cap ? cap - n : 0);
	return n;
}

int lease_may_fetch(const struct lease_table *t, unsigned p, uint64_t now_ms)
{
	const struct lease_part *l;

	if (p >= t->p.partitions)
		return 0;
	l = &t->part[p];
	return l->state == LEASE_HELD && now_ms < l->ok_ms + t->p.window_ms;
}

int lease_is_ours(const struct lease_table *t, unsigned p)
{
	return p < t->p.partitions &&
	    (t->part[p].state == LEASE_REPLAYING || t->part[p].state == LEASE_HELD);
}

enum lease_state lease_state_of(const struct lease_table *t, unsigned p)
{
	return p < t->p.partitions ? t->part[p].state : LEASE_FREE;
}

const char *lease_state_name(enum lease_state s)
{
	static const char *const names[] = {
	    "free",
	    "claiming",
	    "replaying",
	    "held",
	    "releasing",
	    "release-sent",
	    "lost",
	};
	return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

unsigned lease_held(const struct lease_table *t)
{
	unsigned i, n = 0;

	for (i = 0; i < t->p.partitions; i++)
		n += lease_counts(t->part[i].state);
	return n;
}

int lease_settled(const struct lease_table *t)
{
	unsigned i;

	for (i = 0; i < t->p.partitions; i++) {
		enum lease_state s = t->part[i].state;
		if (s != LEASE_FREE && s != LEASE_HELD)
			return 0;
	}
	return 1;
}
