/* Partition leases, pure: the state machine by which a node claims, keeps
 * and gives up the partitions of a cluster crawl, with no I/O and the
 * caller's clock. The caller carries out the actions it returns (key-value
 * writes, replays, stopping work) and reports their outcomes.
 *
 * A lease is a key in a key-value bucket whose entries the server expires
 * lease_ms after their last write (NATS JetStream's bucket TTL: the server's
 * clock is the only one that decides expiry). Every write is checked against
 * the revision the writer last saw, so of two claims of a free partition one
 * fails, and a renewal fails if anyone else wrote the key since.
 *
 * Safety: a write sent at local time t reaches the server no earlier than t,
 * so the key it wrote cannot expire before t + lease_ms. A node fetches for
 * a partition only until window_ms (lease_ms / 2 by default) after the send
 * time of its last confirmed claim or renewal; when that window closes
 * (renewals failing, the server unreachable) the caller is told to suspend:
 * abandon the partition's fetches in flight and start none, which takes
 * effect at once, well before the key can expire and another node claim it.
 * Renewals are sent every renew_ms (lease_ms / 5), so one or two lost
 * renewals do not suspend anything.
 *
 * Balance: each node aims at partition_target(partitions, live nodes); from a
 * view of the bucket it claims free partitions up to that target and releases
 * those above it (stopping its work on them first, then writing the key free
 * under its revision). A claimed partition is replayed before it is fetched
 * (the caller rebuilds its queues from the stream). */
#ifndef TERN_LEASE_H
#define TERN_LEASE_H
#include <stddef.h>
#include <stdint.h>

enum lease_state {
	LEASE_FREE,	    /* not ours */
	LEASE_CLAIMING,	    /* claim sent, answer awaited */
	LEASE_REPLAYING,    /* ours, its queues being rebuilt: no fetching yet */
	LEASE_HELD,	    /* ours: fetch while the window is open */
	LEASE_RELEASING,    /* ours, being given up: work stopping, then the key is freed */
	LEASE_RELEASE_SENT, /* the write freeing the key sent */
	LEASE_LOST,	    /* a renewal was refused: work stopping, then FREE */
};

struct lease_params {
	unsigned partitions;
	uint64_t lease_ms;  /* the bucket's TTL */
	uint64_t renew_ms;  /* 0: lease_ms / 5 */
	uint64_t window_ms; /* 0: lease_ms / 2 */
	unsigned seed;	    /* where this node starts looking for partitions to claim */
};

/* What the bucket held for one partition when the view was read. */
enum lease_owner { LEASE_ABSENT, LEASE_FREED, LEASE_MINE, LEASE_OTHERS };
struct lease_view_entry {
	enum lease_owner owner;
	uint64_t rev; /* the entry's revision (0 when absent) */
};

enum lease_action_kind {
	LEASE_DO_CLAIM,	  /* write our id: create when rev is 0, else update at rev */
	LEASE_DO_RENEW,	  /* write our id again, at rev */
	LEASE_DO_RELEASE, /* write the free marker, at rev */
	LEASE_DO_START,	  /* ours now: rebuild its queues, then lease_replayed */
	LEASE_DO_SUSPEND, /* the window closed: abandon its fetches in flight */
	LEASE_DO_STOP,	  /* giving it up or lost: stop its work, drop its queued URIs,
				 * then lease_stopped */
};

struct lease_action {
	enum lease_action_kind kind;
	unsigned partition;
	uint64_t rev;
};

/* Outcome of a key-value write. */
enum lease_result {
	LEASE_OK,	/* written; rev is the new revision */
	LEASE_OK_FOUND, /* refused, but the key holds exactly what this process
				 * writes: one of its earlier writes that went unanswered
				 * landed (rev is its revision) */
	LEASE_REFUSED,	/* someone else wrote it, or it expired: not ours */
	LEASE_UNKNOWN,	/* no answer (timeout, server away): may or may not have landed */
};

struct lease_table;

struct lease_table *lease_new(const struct lease_params *p);
void lease_free(struct lease_table *t);

/* Each call below appends the actions it decides to out (up to cap; a
 * caller passing at least 2 * partitions never loses one) and returns how
 * many it appended. */

/* Time passed: renewals due, windows closing. */
size_t lease_tick(struct lease_table *t, uint64_t now_ms, struct lease_action *out, size_t cap);
/* A fresh read of the bucket (one entry per partition) and the number of
 * live nodes, this one included: claims and releases to balance. */
size_t lease_view(struct lease_table *t, const struct lease_view_entry *v, unsigned live,
    uint64_t now_ms, struct lease_action *out, size_t cap);
/* The outcome of a claim, renewal or release sent at sent_ms. */
size_t lease_claimed(struct lease_table *t, unsigned p, enum lease_result r, uint64_t rev,
    uint64_t sent_ms, struct lease_action *out, size_t cap);
size_t lease_renewed(struct lease_table *t, unsigned p, enum lease_result r, uint64_t rev,
    uint64_t sent_ms, struct lease_action *out, size_t cap);
void lease_released(struct lease_table *t, unsigned p, enum lease_result r);
/* The partition's queues are rebuilt: it may be fetched. */
void lease_replayed(struct lease_table *t, unsigned p);
/* Its work has stopped (nothing in flight, queued URIs dropped). */
size_t lease_stopped(struct lease_table *t, unsigned p, struct lease_action *out, size_t cap);
/* Gives up p if it is held or replaying (its consumer is gone: it is to be
 * claimed and rebuilt afresh): STOP, then released as by the balance. */
size_t lease_give_up(struct lease_table *t, unsigned p, struct lease_action *out, size_t cap);
/* Gives up every partition (the crawl is ending): STOP for each one held. */
size_t lease_release_all(struct lease_table *t, struct lease_action *out, size_t cap);

/* May a fetch for p start (or go on) at now_ms? */
int lease_may_fetch(const struct lease_table *t, unsigned p, uint64_t now_ms);
/* Is p ours (claimed and confirmed, not being given up)? Its hand-offs are
 * then scheduled here. */
int lease_is_ours(const struct lease_table *t, unsigned p);
enum lease_state lease_state_of(const struct lease_table *t, unsigned p);
const char *lease_state_name(enum lease_state s);
/* Partitions claimed, replaying or held (what the balance counts). */
unsigned lease_held(const struct lease_table *t);
/* No partition is between states (claims, stops, releases all settled). */
int lease_settled(const struct lease_table *t);

#endif
