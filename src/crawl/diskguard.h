/* When a crawl pauses itself for disk space and when it resumes
 * (doc/architecture.md, "Disk space"): below storage.pause-below-free-mb
 * free under the job directory it pauses, and it resumes only above
 * storage.resume-above-free-mb, higher, so that the few megabytes a
 * finishing fetch or a LevelDB compaction frees and takes again do not
 * pause and resume it in turn. A write that failed for want of space
 * pauses it whatever the figures say. Pure: numbers in, a verdict out. */
#ifndef TERN_DISKGUARD_H
#define TERN_DISKGUARD_H
#include <stdint.h>

enum diskguard_verdict {
	DISKGUARD_KEEP,	  /* stay as it is */
	DISKGUARD_PAUSE,  /* running, and the disk is short */
	DISKGUARD_RESUME, /* paused for the disk, and the disk is back */
};

/* paused: the crawl is paused for the disk now; free_mb: the least free
 * space of the job's file systems; enospc: a write just failed for want of
 * space; pause_below_mb 0 turns the watch off (but not the ENOSPC pause). */
enum diskguard_verdict diskguard_judge(
    int paused, uint64_t free_mb, int enospc, uint64_t pause_below_mb, uint64_t resume_above_mb);
/* The free space a paused crawl waits for: resume_above_mb, and never less
 * than pause_below_mb (a resume below it would pause again at once). */
uint64_t diskguard_resume_mb(uint64_t pause_below_mb, uint64_t resume_above_mb);

#endif
