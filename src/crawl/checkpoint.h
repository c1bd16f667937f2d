/* Checkpoints of a crawl (doc/checkpoints.md): JOBDIR/checkpoints/
 * cpNNNNN-YYYYMMDDHHMMSS/ holds the frontier's LevelDB store frozen by hard
 * links (tables) and copies (manifest, CURRENT, write-ahead logs), one
 * hand-editable JSON file per component (crawl statistics, WARC serial, log
 * positions, frontier counts), and a `valid` marker written last. Only
 * checkpoints with the marker are listed and restored. Restoring builds a
 * fresh live store from links and copies, so a checkpoint stays valid however
 * often it is resumed from.
 *
 * Taking one is synchronous and never waits for fetches: call it between two
 * loop callbacks, after the crawl loop has flushed WARC records and crawl.log
 * (the order of crawl_flush); URIs in flight are still at their queues' heads
 * in the store and are fetched again after a restore. */
#ifndef TERN_CHECKPOINT_H
#define TERN_CHECKPOINT_H
#include <stddef.h>
#include <stdint.h>

#include "crawl/stats.h"

struct frontier;
struct warc_writer;

/* "cp" + at least 5 digits + "-" + 14 digits. */
#define CHECKPOINT_NAME_MAX 40

/* What a checkpoint records; only frontier is required. */
struct checkpoint_parts {
	struct frontier *frontier;
	struct warc_writer *warc;	 /* NULL: WARC writing is off */
	const struct crawl_stats *stats; /* NULL: no statistics file */
	int forget_all_but_latest;	 /* checkpoint.forget-all-but-latest */
};

/* How long the parts of checkpoint_create took, for metrics and the log. */
struct checkpoint_timing {
	uint64_t total_us;     /* the whole call: the loop stall it causes */
	uint64_t mark_us;      /* frontier flush and the synchronous marker */
	uint64_t freeze_us;    /* links and copies of the store's files */
	unsigned tables;       /* table files linked */
	uint64_t copied_bytes; /* manifest and write-ahead logs copied */
	unsigned attempts;     /* freezes tried (a compaction may race one) */
};

/* Takes a checkpoint of the job: out receives its name
 * (CHECKPOINT_NAME_MAX bytes), timing (may be NULL) its costs. */
int checkpoint_create(const char *jobdir, const struct checkpoint_parts *p,
    char out[CHECKPOINT_NAME_MAX], struct checkpoint_timing *timing, char **err);

/* Names of the job's valid checkpoints, oldest first (by serial); *names is
 * NULL-terminated, free it with checkpoint_list_free. */
int checkpoint_list(const char *jobdir, char ***names, size_t *n, char **err);
void checkpoint_list_free(char **names);

/* What a restore hands back to the crawl loop. */
struct checkpoint_restored {
	char name[CHECKPOINT_NAME_MAX];
	int have_stats;
	struct crawl_stats stats;  /* crawl.json, when have_stats */
	unsigned warc_next_serial; /* warc.json (0: none recorded) */
	/* logs.json: byte sizes of the logs when the checkpoint was taken.
	 * Logs are appended to after a restore, never cut (doc/checkpoints.md):
	 * lines past these offsets were written after the checkpoint. */
	uint64_t crawl_log_bytes, tern_log_bytes, progress_log_bytes;
};

/* Replaces JOBDIR/state/frontier with the store of checkpoint name (or
 * "latest") and reads the components' files. The previous live store is
 * kept as state/frontier.replaced until the next restore. The checkpoint is
 * never opened for writing. Call before frontier_open(create = 0). Returns
 * 0, or with *err CHECKPOINT_ENOTFOUND when there is no such valid
 * checkpoint (the operator's to correct) or CHECKPOINT_EFAIL on other
 * errors. */
#define CHECKPOINT_EFAIL (-1)
#define CHECKPOINT_ENOTFOUND (-2)
int checkpoint_restore(
    const char *jobdir, const char *name, struct checkpoint_restored *out, char **err);

/* Deletes every checkpoint directory of the job but keep (valid or not). */
int checkpoint_forget_all_but(const char *jobdir, const char *keep, char **err);

/* 1 when a checkpoint is due at now_ms under checkpoint.interval-minutes
 * (0: never), the last having been taken (or the crawl started) at last_ms. */
int checkpoint_due(uint64_t last_ms, uint64_t now_ms, int64_t interval_minutes);

#endif
