/* The disk watch of a crawl: the least free space of the file systems the
 * job writes to, judged every second and at once when a write failed for
 * want of space (crawl/diskguard.h decides); it pauses a running crawl and
 * resumes the crawl it paused, never one the operator paused. */
#include <build-config.h>

#include "crawl/private.h"
#include "lib/config.h"
#include "crawl/diskguard.h"
#include "crawl/visit.h"

#include <sys/statvfs.h>

/* The least free space, in MiB, of the file systems the crawl writes to:
 * the job directory, its WARCs and its store with the spill files (any of
 * them may be a mount of its own). */
static uint64_t crawldisk_free_mb(const struct crawl *cr)
{
	static const char *const sub[] = {"", "/warcs", "/state", "/state/tmp"};
	uint64_t least = UINT64_MAX;
	char path[4096];
	struct statvfs sv;

	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		snprintf(path, sizeof path, "%s%s", cr->jobdir, sub[i]);
		if (statvfs(path, &sv) == 0 && ((uint64_t)sv.f_bavail * sv.f_frsize >> 20) < least)
			least = (uint64_t)sv.f_bavail * sv.f_frsize >> 20;
	}
	return least;
}

/* The disk watch: every second, and at once when a write failed for want
 * of space (enospc; what names the write). It pauses a running crawl and
 * resumes the crawl it paused, never one the operator paused. */
void crawldisk_check(struct crawl *cr, int enospc, const char *what)
{
	uint64_t below = (uint64_t)config_int(cr->cfg, CK_CRAWL_PAUSE_BELOW_FREE_MB);
	uint64_t above = (uint64_t)config_int(cr->cfg, CK_CRAWL_RESUME_ABOVE_FREE_MB);
	uint64_t resume = diskguard_resume_mb(below, above), free_mb;

	if (cr->state == CRAWL_STOPPING || cr->state == CRAWL_FINISHED ||
	    (below == 0 && !enospc && !cr->disk_paused))
		return;
	free_mb = crawldisk_free_mb(cr);
	switch (diskguard_judge(cr->disk_paused, free_mb, enospc, below, above)) {
	case DISKGUARD_PAUSE:
		if (cr->state != CRAWL_RUNNING)
			return; /* the operator's pause, or at finish: theirs to end */
		if (enospc)
			snprintf(cr->disk_reason, sizeof cr->disk_reason,
			    "disk full: no space left for %s (%llu MiB free); paused until more "
			    "than %llu MiB are free (crawl.resume-above-free-mb)",
			    what, (unsigned long long)free_mb, (unsigned long long)resume);
		else
			snprintf(cr->disk_reason, sizeof cr->disk_reason,
			    "disk low: %llu MiB free under %s, below %llu MiB "
			    "(crawl.pause-below-free-mb); paused until more than %llu MiB are free "
			    "(crawl.resume-above-free-mb)",
			    (unsigned long long)free_mb, cr->jobdir, (unsigned long long)below,
			    (unsigned long long)resume);
		cr->disk_paused = 1;
		cr->pause_reason = cr->disk_reason;
		uv_timer_stop(&cr->wake);
		crawlsay_say(cr, "%s", cr->disk_reason);
		crawlsay_set_state(cr,
		    visit_in_flight(cr->visits) > 0 ? CRAWL_PAUSING : CRAWL_PAUSED,
		    cr->pause_reason);
		break;
	case DISKGUARD_RESUME:
		cr->disk_paused = 0;
		if ((cr->state != CRAWL_PAUSING && cr->state != CRAWL_PAUSED) ||
		    cr->pause_reason != cr->disk_reason)
			break;
		cr->pause_reason = NULL;
		crawlsay_say(cr, "disk: %llu MiB free under %s, more than %llu MiB: resumed",
		    (unsigned long long)free_mb, cr->jobdir, (unsigned long long)resume);
		crawlsay_set_state(cr, CRAWL_RUNNING, "disk space is back");
		break;
	case DISKGUARD_KEEP:
		break;
	}
}
