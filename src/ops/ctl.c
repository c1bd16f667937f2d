/* The control client: one blocking HTTP/1.1 exchange over the job's unix
 * socket per command. The server always closes after its answer, so the
 * answer is read to end of file (capped) and split at its head. */
#include "ops/ctl.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

/* Largest answer read (a queues report of a very large crawl). */
#define CTL_MAX_ANSWER (512u << 20)
/* How long the crawl may take to answer. */
#define CTL_TIMEOUT_S 60

static int ctl_connect(const char *jobdir, char **err)
{
	struct sockaddr_un sun;
	struct timeval tv = {CTL_TIMEOUT_S, 0};
	char *path = xasprintf("%s/control.sock", jobdir);
	int fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		*err = xasprintf("%s: path too long for a unix socket", path);
		free(path);
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*err = xasprintf("socket: %s", strerror(errno));
		free(path);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		int e = errno;
		close(fd);
		if (e == ENOENT || e == ECONNREFUSED) {
			free(path);
			return CTL_NOT_RUNNING;
		}
		*err = xasprintf("%s: %s", path, strerror(e));
		free(path);
		return -1;
	}
	free(path);
	return fd;
}

static int ctl_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int ctl_request(const char *jobdir, const char *method, const char *target, const char *body,
    int *status, struct buf *out, char **err)
{
	struct buf req = BUF_INIT, ans = BUF_INIT;
	char chunk[65536];
	const char *head_end;
	int fd = ctl_connect(jobdir, err), rc = -1;
	size_t blen = body != NULL ? strlen(body) : 0;

	if (fd < 0)
		return fd;
	buf_appendf(
	    &req, "%s %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n", method, target);
	if (body != NULL)
		buf_appendf(
		    &req, "Content-Type: application/json\r\nContent-Length: %zu\r\n", blen);
	buf_appends(&req, "\r\n");
	if (body != NULL)
		buf_append(&req, body, blen);
	if (ctl_write_all(fd, req.data, req.len) < 0) {
		*err = xasprintf("sending to the control socket: %s", strerror(errno));
		goto out;
	}
	for (;;) {
		ssize_t r = read(fd, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = xasprintf("reading the control socket: %s",
			    errno == EAGAIN ? "no answer in time" : strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		if (ans.len + (size_t)r > CTL_MAX_ANSWER) {
			*err = xstrdup("the crawl's answer is too large");
			goto out;
		}
		buf_append(&ans, chunk, (size_t)r);
	}
	head_end = ans.len ? strstr(ans.data, "\r\n\r\n") : NULL;
	if (ans.len < 12 || strncmp(ans.data, "HTTP/1.", 7) != 0 || head_end == NULL ||
	    sscanf(ans.data + 8, " %3d", status) != 1) {
		*err = xstrdup("malformed answer from the control socket");
		goto out;
	}
	head_end += 4;
	buf_append(out, head_end, ans.len - (size_t)(head_end - ans.data));
	rc = 0;
out:
	close(fd);
	buf_free(&req);
	buf_free(&ans);
	return rc;
}

void ctl_append_escaped(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~') {
			buf_appendc(b, (char)c);
		} else {
			buf_appendc(b, '%');
			buf_appendc(b, hex[c >> 4]);
			buf_appendc(b, hex[c & 15]);
		}
	}
}
