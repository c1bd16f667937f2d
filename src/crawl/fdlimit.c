/* File descriptor budget: RLIMIT_NOFILE raised at start, connections capped
 * to what the reserve leaves. */
#include "crawl/fdlimit.h"
#include "lib/xmalloc.h"
#include "net/ctlserver.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>

/* Standard streams, the loop's own descriptors (epoll, eventfd, signal
 * pipe), the three logs, the WARC being written and the one being indexed,
 * the store's lock, log, manifest and the files a compaction writes, DNS
 * sockets, the control socket, a checkpoint's copies: counted generously. */
#define FDLIMIT_FIXED 32

uint64_t fdlimit_reserve(uint64_t soft)
{
	/* LevelDB (posix env) keeps at most a fifth of the limit open for
	 * the tables it reads; past that it opens them per read. */
	uint64_t tables = soft / 5;

	return FDLIMIT_FIXED + CTLSERVER_MAX_CONNS + tables;
}

int fdlimit_connections(uint64_t soft, int wanted)
{
	uint64_t reserve = fdlimit_reserve(soft), n;

	if (soft <= reserve)
		return 0;
	n = (soft - reserve) / 2;
	return n < (uint64_t)wanted ? (int)n : wanted;
}

uint64_t fdlimit_idle(uint64_t soft, int conns)
{
	uint64_t reserve = fdlimit_reserve(soft), busy = 2 * (uint64_t)conns;

	return soft > reserve + busy ? soft - reserve - busy : 0;
}

int fdlimit_raise(uint64_t *soft, uint64_t *before, char **err)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		*err = xasprintf("getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
		return -1;
	}
	*before = rl.rlim_cur;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit want = rl;

		want.rlim_cur = rl.rlim_max;
		/* An unlimited hard limit is not a value Linux accepts for the
		 * soft one (it is capped by fs.nr_open): try 2^20, its default. */
		if (want.rlim_cur == RLIM_INFINITY)
			want.rlim_cur = 1u << 20;
		if (setrlimit(RLIMIT_NOFILE, &want) == 0)
			rl.rlim_cur = want.rlim_cur;
	}
	*soft = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX / 2 : rl.rlim_cur;
	return 0;
}
