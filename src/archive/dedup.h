/* The payload-digest index behind revisit records: digest -> (URI, WARC-Date)
 * of the first capture with that payload in this crawl. It lives in the
 * frontier's LevelDB under keys "dedup:" + digest, so it survives resume;
 * new entries are batched and written by dedup_flush with the loop's other
 * LevelDB writes. */
#ifndef TERN_DEDUP_H
#define TERN_DEDUP_H
#include "lib/buf.h"

struct dedup;

/* leveldb_db is a leveldb_t * owned by the caller and outliving the index. */
struct dedup *dedup_open(void *leveldb_db, char **err);
/* 1: the digest was recorded before; refers_uri and refers_date are set to
 * the original capture's (write a revisit). 0: new; it is recorded (batched)
 * with uri and date. The empty payload's digest is never recorded, since a
 * revisit of nothing saves nothing. -1: LevelDB read error (archive the
 * capture in full). */
int dedup_check(struct dedup *d, const char *digest, const char *uri, const char *date,
    struct buf *refers_uri, struct buf *refers_date);
/* From now on a new entry answers dedup_check at once but joins the batch
 * only through dedup_commit (the WARC pool's, once the capture's records are
 * queued), so a flush never writes an entry whose record could still be
 * lost. */
void dedup_hold_new(struct dedup *d);
/* Puts digest's held entry, if any, in the batch. */
void dedup_commit(struct dedup *d, const char *digest);
/* Drops digest's held entry, if any: its capture could not be handed in,
 * so no later capture may refer to it. */
void dedup_forget(struct dedup *d, const char *digest);
/* Writes the batch. */
int dedup_flush(struct dedup *d, char **err);
/* Entries in the batch, waiting for dedup_flush. */
size_t dedup_pending(const struct dedup *d);
void dedup_free(struct dedup *d);

#endif
