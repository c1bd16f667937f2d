/* Replacing a small file durably (smallfile.h says what and why).
 *
 * The steps, and why each: the temporary file is in the same directory so
 * that rename is atomic (one file system); it is fsynced before the rename
 * so that the name never points at blocks not yet written (ext4's
 * delayed allocation would otherwise leave an empty tern.conf after a
 * power cut); the directory is fsynced after so that the rename itself
 * survives one. The temporary name carries the pid and a counter, so that
 * two processes of one job (a crawl and an offline `tern report`) never
 * write the same temporary file. */
#include <build-config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/smallfile.h"
#include "lib/xmalloc.h"

struct smallfile {
	char *path;
	char *tmp;
	FILE *fp;
};

static unsigned smallfile_seq;

static int smallfile_fail(const char *path, char **err)
{
	int saved = errno;

	*err = xasprintf("writing %s: %s", path, strerror(saved));
	errno = saved;
	return -1;
}

/* Opens a new temporary file beside path, with the mode path has (when it
 * exists) or mode less the umask; its name in *tmp. */
static int smallfile_open_tmp(const char *path, mode_t mode, char **tmp, char **err)
{
	struct stat st;
	int fd;

	*tmp = xasprintf("%s.%ld.%u.tmp", path, (long)getpid(), smallfile_seq++);
	fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0 && errno == EEXIST) {
		/* Left by a crash of a process that had our pid. */
		unlink(*tmp);
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	}
	if (fd < 0) {
		smallfile_fail(path, err);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	if (stat(path, &st) == 0 && fchmod(fd, st.st_mode & 07777) != 0) {
		smallfile_fail(path, err);
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return fd;
}

/* fsync of the directory path is in, so that a rename or link in it is on
 * the disk. */
static int smallfile_sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash == NULL ? xstrdup(".")
	    : slash == path	  ? xstrdup("/")
				  : xstrndup(path, (size_t)(slash - path));
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = -1;

	if (fd >= 0) {
		rc = fsync(fd);
		close(fd);
	}
	free(dir);
	return rc;
}

/* The temporary file is written and synced: puts it in place (rename, or
 * link when an existing file must be kept), then syncs the directory. 0,
 * 1 (excl, and path existed), or -1. */
static int smallfile_place(const char *path, const char *tmp, int excl, char **err)
{
	int rc = 0;

	if (excl) {
		if (link(tmp, path) != 0) {
			if (errno != EEXIST) {
				smallfile_fail(path, err);
				unlink(tmp);
				return -1;
			}
			rc = 1;
		}
		unlink(tmp);
	} else if (rename(tmp, path) != 0) {
		smallfile_fail(path, err);
		unlink(tmp);
		return -1;
	}
	if (smallfile_sync_dir(path) != 0)
		return smallfile_fail(path, err);
	return rc;
}

static int smallfile_write(
    const char *path, const void *data, size_t len, mode_t mode, int excl, char **err)
{
	const char *p = data;
	char *tmp;
	int fd = smallfile_open_tmp(path, mode, &tmp, err), rc;

	if (fd < 0)
		return -1;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			goto fail;
		p += w;
		len -= (size_t)w;
	}
	if (fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	rc = smallfile_place(path, tmp, excl, err);
	free(tmp);
	return rc;
fail:
	smallfile_fail(path, err);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

int smallfile_replace(const char *path, const void *data, size_t len, mode_t mode, char **err)
{
	return smallfile_write(path, data, len, mode, 0, err);
}

int smallfile_create(const char *path, const void *data, size_t len, mode_t mode, char **err)
{
	return smallfile_write(path, data, len, mode, 1, err);
}

struct smallfile *smallfile_open(const char *path, mode_t mode, char **err)
{
	struct smallfile *sf;
	char *tmp;
	int fd = smallfile_open_tmp(path, mode, &tmp, err);
	FILE *fp;

	if (fd < 0)
		return NULL;
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		smallfile_fail(path, err);
		close(fd);
		unlink(tmp);
		free(tmp);
		return NULL;
	}
	sf = xcalloc(1, sizeof *sf);
	sf->path = xstrdup(path);
	sf->tmp = tmp;
	sf->fp = fp;
	return sf;
}

FILE *smallfile_fp(struct smallfile *sf)
{
	return sf->fp;
}

static void smallfile_free(struct smallfile *sf)
{
	free(sf->path);
	free(sf->tmp);
	free(sf);
}

int smallfile_commit(struct smallfile *sf, char **err)
{
	int rc, bad = fflush(sf->fp) != 0 || fsync(fileno(sf->fp)) != 0;

	if (!bad && ferror(sf->fp)) {
		/* A write failed earlier; its errno is gone. */
		errno = EIO;
		bad = 1;
	}
	if (bad) {
		smallfile_fail(sf->path, err);
		fclose(sf->fp);
		unlink(sf->tmp);
		smallfile_free(sf);
		return -1;
	}
	if (fclose(sf->fp) != 0) {
		smallfile_fail(sf->path, err);
		unlink(sf->tmp);
		smallfile_free(sf);
		return -1;
	}
	rc = smallfile_place(sf->path, sf->tmp, 0, err);
	smallfile_free(sf);
	return rc;
}

void smallfile_abort(struct smallfile *sf)
{
	if (sf == NULL)
		return;
	fclose(sf->fp);
	unlink(sf->tmp);
	smallfile_free(sf);
}
