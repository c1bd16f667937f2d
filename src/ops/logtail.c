/* A log read backwards in blocks (logtail.h). The block's bytes and the
 * start of the line cut by the block's edge share one buffer: the cut part
 * is moved after the next block read in front of it. */
#include "ops/logtail.h"
#include "lib/buf.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOGTAIL_BLOCK 65536
/* Past the bound, a line already begun is still read to its start, up to
 * this much more (crawl.log lines are a few KiB at most). */
#define LOGTAIL_MAX_LINE (1 << 20)

int logtail_read(const char *path, uint64_t before, size_t max_bytes, logtail_fn *fn, void *arg,
    struct logtail_result *res, char **err)
{
	struct buf b = BUF_INIT; /* [pos, end) of the file, whole lines after the first '\n' */
	struct stat st;
	uint64_t pos, end;
	int fd = open(path, O_RDONLY | O_CLOEXEC), stop = 0, over = 0;

	memset(res, 0, sizeof *res);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	res->size = (uint64_t)st.st_size;
	end = before > 0 && before < res->size ? before : res->size;
	pos = end;
	/* Past the bound, only the line that straddles it is finished. */
	while (!stop && pos > 0 &&
	    (res->scanned < max_bytes ||
		(b.len > 0 && !over && res->scanned < max_bytes + LOGTAIL_MAX_LINE))) {
		int finishing = res->scanned >= max_bytes;

		/* Blocks within the bound, then small ones to reach the start
		 * of a line already begun. */
		size_t n = res->scanned < max_bytes ? max_bytes - (size_t)res->scanned : 0;
		if (n < 4096)
			n = 4096;
		if (n > LOGTAIL_BLOCK)
			n = LOGTAIL_BLOCK;
		if (n > pos)
			n = (size_t)pos;
		size_t keep = b.len;
		ssize_t got;
		char *nl;

		/* The new block goes in front of what is kept. */
		buf_reserve(&b, n);
		memmove(b.data + n, b.data, keep);
		got = pread(fd, b.data, n, (off_t)(pos - n));
		if (got != (ssize_t)n) {
			*err = xasprintf("%s: %s", path, got < 0 ? strerror(errno) : "short read");
			buf_free(&b);
			close(fd);
			return -1;
		}
		b.len = n + keep;
		pos -= n;
		res->scanned += n;
		/* From the end of b back to its first newline, each line ends at
		 * a newline (or at `end` for the first block: a line being
		 * written is only whole once its newline is there). */
		{
			size_t stop_at = b.len;
			if (pos + b.len == end && before == 0 && b.len > 0 &&
			    b.data[b.len - 1] != '\n') {
				char *last = memrchr(b.data, '\n', b.len);
				stop_at = last != NULL ? (size_t)(last - b.data) + 1 : 0;
				end = pos + stop_at;
			}
			b.len = stop_at;
		}
		while (b.len > 0) {
			size_t lend = b.len;
			if (b.data[lend - 1] == '\n')
				lend--;
			nl = lend > 0 ? memrchr(b.data, '\n', lend) : NULL;
			if (nl == NULL && pos > 0)
				break; /* the line starts in the block before */
			{
				size_t start = nl != NULL ? (size_t)(nl - b.data) + 1 : 0;
				if (lend > start &&
				    fn(arg, b.data + start, lend - start, pos + start) == 1) {
					stop = 1;
					res->next = pos + start;
					break;
				}
				b.len = start;
				over |= finishing;
			}
		}
		if (!stop)
			res->next = pos + b.len;
	}
	if (!stop && pos == 0 && b.len == 0)
		res->next = 0;
	buf_free(&b);
	close(fd);
	return 0;
}
