/* The disk watch's decision (diskguard.h). */
#include "crawl/diskguard.h"

uint64_t diskguard_resume_mb(uint64_t pause_below_mb, uint64_t resume_above_mb)
{
	return resume_above_mb > pause_below_mb ? resume_above_mb : pause_below_mb;
}

enum diskguard_verdict diskguard_judge(
    int paused, uint64_t free_mb, int enospc, uint64_t pause_below_mb, uint64_t resume_above_mb)
{
	if (!paused)
		return enospc || free_mb < pause_below_mb ? DISKGUARD_PAUSE : DISKGUARD_KEEP;
	/* A failed write says the disk is full whatever statvfs said a moment
	 * ago (another process, a quota). */
	if (enospc)
		return DISKGUARD_KEEP;
	return free_mb > diskguard_resume_mb(pause_below_mb, resume_above_mb) ? DISKGUARD_RESUME
									      : DISKGUARD_KEEP;
}
