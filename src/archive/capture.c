/* A response body being recorded: memory first, then a spill file
 * (src/archive/capture.h). */
#include <build-config.h>

#include "archive/capture.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct capture {
	char *tmpdir;
	size_t mem_max;
	struct buf mem;
	int fd;
	uint64_t fd_len;
};

struct capture *capture_new(const char *tmpdir, size_t mem_max)
{
	struct capture *c = xcalloc(1, sizeof *c);

	c->tmpdir = tmpdir != NULL ? xstrdup(tmpdir) : NULL;
	c->mem_max = mem_max;
	c->fd = -1;
	return c;
}

void capture_free(struct capture *c)
{
	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	buf_free(&c->mem);
	free(c->tmpdir);
	free(c);
}

void capture_reset(struct capture *c, size_t keep_room)
{
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	c->fd_len = 0;
	if (keep_room > 0)
		buf_reset_keep(&c->mem, keep_room);
	else
		buf_reset(&c->mem);
}

/* Writes all of p to the spill file: 0, or -1 with errno. */
static int capture_write(struct capture *c, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(c->fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
		c->fd_len += (uint64_t)w;
	}
	return 0;
}

int capture_append(struct capture *c, const void *p, size_t n)
{
	if (c->fd < 0 && c->mem.len + n <= c->mem_max) {
		buf_append(&c->mem, p, n);
		return 0;
	}
	if (c->fd < 0) {
		if (c->tmpdir == NULL) {
			errno = ENOENT;
			return CAPTURE_ESPILL;
		}
		c->fd = open(c->tmpdir, O_TMPFILE | O_RDWR, 0600);
		if (c->fd < 0)
			return CAPTURE_ESPILL;
		c->fd_len = 0;
		if (capture_write(c, c->mem.data, c->mem.len) < 0)
			return CAPTURE_EWRITE;
		/* The memory a spilled body held goes back now, not at the
		 * next reset: a large body is the disk's. */
		buf_free(&c->mem);
	}
	return capture_write(c, p, n) < 0 ? CAPTURE_EWRITE : 0;
}

uint64_t capture_len(const struct capture *c)
{
	return c->mem.len + c->fd_len;
}

int capture_fd(const struct capture *c)
{
	return c->fd;
}

struct buf *capture_mem(struct capture *c)
{
	return &c->mem;
}
