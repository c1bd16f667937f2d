/* What a cluster node publishes to the crawl's stream (doc/cluster.md,
 * "Hand-off, and the stream as the log of record"), on the loop's side:
 * url, own and done records wait per partition and go out in batches (the
 * number of messages grows with partitions x batches, not with pages);
 * each publication is kept until the stream has stored it and is sent again
 * after a failure; a URI's done record waits until the crawl has written
 * its disposition and every link found before it is stored, so that a done
 * page's links are always in the stream. Links are numbered in the order
 * they are added; that order is what a done record waits on. Publications
 * go to the NATS client's thread through the mailbox (natsio.h). */
#ifndef TERN_OUTBOX_H
#define TERN_OUTBOX_H
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "cluster/mailbox.h"
#include "cluster/natsio.h"
#include "lib/handoff.h"

struct outbox;

struct outbox *outbox_new(struct mailbox *mb, unsigned partitions);
void outbox_free(struct outbox *o);

/* A link for partition p: for its owner (own 0: subject url.p) or
 * scheduled here and recorded for the log only (own 1: own.p). */
int outbox_add_url(
    struct outbox *o, unsigned p, const struct handoff_url *r, int own, uint64_t now_ms);
/* A seed, for every node's scope (seed.all); guarded: its host stays
 * under the address guard (lib/handoff.h). */
int outbox_add_seed(struct outbox *o, const char *href, int guarded);
/* A URI (of partition p; p < 0: none) reached its final disposition: its
 * done record goes out after outbox_flushed and once the links added
 * before it are stored. */
void outbox_done(struct outbox *o, int p, const struct handoff_done *d);
/* The crawl has written every disposition given so far. */
void outbox_flushed(struct outbox *o);
/* The stream's answer to a publication. 1 when the caller should say
 * that it failed (the first failure, then one in a hundred). */
int outbox_answered(struct outbox *o, const struct natsio_puback *pa, uint64_t now_ms);
/* Each tick: failed publications due again are sent, done records whose
 * turn has come join their batches, and batches old or big enough (all,
 * with force) go out. */
void outbox_tick(struct outbox *o, uint64_t now_ms, int force);
/* Bytes and records waiting, and publications not yet stored: 0 when
 * everything this node published is in the stream. */
size_t outbox_waiting(const struct outbox *o);
/* Every publication stored and no done record waiting. */
int outbox_settled(const struct outbox *o);
/* Partition p's done records and the links scheduled here for it (own) all
 * stored: a node giving p up frees its key only then, or the next owner's
 * replay would miss pages finished here and fetch them again. Links for
 * p's owner (url) are not waited for: its consumer delivers them. */
int outbox_partition_settled(const struct outbox *o, unsigned p);
/* Figures for stats.json's cluster section. */
void outbox_stats(const struct outbox *o, json_t *obj);

#endif
