#include "crawl/job.h"
#include "archive/smallfile.h"
#include "lib/buf.h"
#include "lib/config.h"
#include "lib/urlcreds.h"
#include "lib/xmalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const job_subdirs[] = {
    "state",
    "state/tmp",
    "logs",
    "warcs",
    "reports",
    "checkpoints",
};

static int job_mkdir(const char *path, char **err)
{
	if (mkdir(path, 0755) == 0 || errno == EEXIST)
		return 0;
	*err = xasprintf("%s: %s", path, strerror(errno));
	return -1;
}

/* mkdir -p for the job directory itself. */
static int job_mkdirs(const char *dir, char **err)
{
	char *p = xstrdup(dir);
	int rc = 0;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		rc = job_mkdir(p, err);
		*s = '/';
		if (rc < 0)
			break;
	}
	if (rc == 0)
		rc = job_mkdir(p, err);
	free(p);
	return rc;
}

/* Names a job directory holds before its crawl's state exists: a
 * directory with only these is a job whose first start failed. */
static const char *const job_own_names[] = {
    "tern.conf",
    "tern.conf.tmp",
    "seeds.txt",
    "state",
    "logs",
    "warcs",
    "reports",
    "checkpoints",
};

/* The first entry of dir that is not tern's own, or NULL (also when dir
 * does not exist). The name is in the returned allocation. */
static char *job_foreign_entry(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	if (d == NULL)
		return NULL;
	while (found == NULL && (e = readdir(d)) != NULL) {
		size_t i;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		for (i = 0; i < sizeof job_own_names / sizeof job_own_names[0]; i++)
			if (strcmp(e->d_name, job_own_names[i]) == 0)
				break;
		if (i == sizeof job_own_names / sizeof job_own_names[0])
			found = xstrdup(e->d_name);
	}
	closedir(d);
	return found;
}

int job_create(const char *dir, const struct config *cfg, char **err)
{
	char *foreign;
	char *path;
	struct stat st;

	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		*err = xasprintf(
		    "%s is not a directory: choose a new or empty directory for the job", dir);
		return -1;
	}
	path = xasprintf("%s/state/frontier", dir);
	if (stat(path, &st) == 0) {
		*err = xasprintf(
		    "%s already holds a crawl's state: continue it with `tern resume %s`, or choose a new job directory",
		    dir, dir);
		free(path);
		return -1;
	}
	free(path);
	/* A crawl writes its logs, WARCs and reports here: not among
	 * someone's other files. */
	if ((foreign = job_foreign_entry(dir)) != NULL) {
		*err = xasprintf("%s is not empty (it holds '%s') and is not a tern job directory: "
				 "choose a new or empty directory for the job",
		    dir, foreign);
		free(foreign);
		return -1;
	}
	if (job_mkdirs(dir, err) < 0)
		return -1;
	for (size_t i = 0; i < sizeof job_subdirs / sizeof job_subdirs[0]; i++) {
		path = xasprintf("%s/%s", dir, job_subdirs[i]);
		if (job_mkdir(path, err) < 0) {
			free(path);
			return -1;
		}
		free(path);
	}
	return job_config_save(dir, cfg, err);
}

int job_config_save(const char *dir, const struct config *cfg, char **err)
{
	char *path = xasprintf("%s/tern.conf", dir);
	struct buf text = BUF_INIT;
	int rc = 0, secret;

	config_format(cfg, &text);
	/* A password or token in cluster.url (tern.conf(5)) is for this
	 * user's eyes only: a new file is made 0600, and one that exists is
	 * made 0600 first (a replaced file keeps its mode). */
	secret = urlcreds_has_secret(config_str(cfg, CK_CLUSTER_URL));
	if (secret && chmod(path, SMALLFILE_MODE_SECRET) != 0 && errno != ENOENT) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		rc = -1;
	} else if (smallfile_replace(path, text.data, text.len,
		       secret ? SMALLFILE_MODE_SECRET : SMALLFILE_MODE, err) < 0)
		rc = -1;
	buf_free(&text);
	free(path);
	return rc;
}

int job_config_load(struct config *cfg, const char *path, char **err)
{
	struct buf text = BUF_INIT;
	char chunk[16384];
	size_t n;
	FILE *fp = fopen(path, "r");
	int rc;

	if (fp == NULL) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_append(&text, chunk, n);
	if (ferror(fp)) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		fclose(fp);
		buf_free(&text);
		return -1;
	}
	fclose(fp);
	rc = config_load_text(cfg, text.data, text.len, path, err);
	buf_free(&text);
	return rc;
}

int job_check_dir(const char *dir, char **err)
{
	struct stat st;
	char *conf, *workers, *warcs;
	int is;

	if (stat(dir, &st) != 0) {
		*err = xasprintf("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		*err = xasprintf(
		    "%s is not a directory: name a job directory (tern(1), JOB DIRECTORY)", dir);
		return -1;
	}
	/* A job's WARCs alone (copied, or written by another tool) are enough
	 * for the commands that read only them. */
	conf = xasprintf("%s/tern.conf", dir);
	workers = xasprintf("%s/workers.json", dir);
	warcs = xasprintf("%s/warcs", dir);
	is = stat(conf, &st) == 0 || stat(workers, &st) == 0 || stat(warcs, &st) == 0;
	free(conf);
	free(workers);
	free(warcs);
	if (!is) {
		*err = xasprintf(
		    "%s is not a tern job directory: it has no tern.conf and no warcs/", dir);
		return -1;
	}
	return 0;
}

int job_check_resumable(const char *dir, char **err)
{
	char *path = xasprintf("%s/state/frontier", dir);
	struct stat st;
	int rc = 0;

	if (stat(path, &st) != 0) {
		*err =
		    xasprintf("%s is not a job directory with a crawl's state (no %s)", dir, path);
		rc = -1;
	}
	free(path);
	if (rc == 0) {
		/* Directories a crawl writes into may have been removed by hand. */
		for (size_t i = 0; i < sizeof job_subdirs / sizeof job_subdirs[0] && rc == 0; i++) {
			path = xasprintf("%s/%s", dir, job_subdirs[i]);
			rc = job_mkdir(path, err);
			free(path);
		}
	}
	return rc;
}

int job_check_unlocked(const char *dir, char **err)
{
	char *path = xasprintf("%s/state/frontier/LOCK", dir), cmd[256] = "", *p;
	struct flock fl;
	FILE *fp;
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	free(path);
	if (fd < 0)
		return 0;
	/* LevelDB holds its store with a POSIX record lock on LOCK: ask who. */
	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, F_GETLK, &fl) < 0 || fl.l_type == F_UNLCK) {
		close(fd);
		return 0;
	}
	close(fd);
	path = xasprintf("/proc/%ld/cmdline", (long)fl.l_pid);
	if ((fp = fopen(path, "r")) != NULL) {
		n = fread(cmd, 1, sizeof cmd - 1, fp);
		fclose(fp);
	}
	free(path);
	cmd[n] = '\0';
	/* Arguments are NUL-separated; the program's directory says little. */
	for (size_t i = 0; n > 0 && i < n - 1; i++)
		if (cmd[i] == '\0')
			cmd[i] = ' ';
	p = cmd + strcspn(cmd, " ");
	while (p > cmd && p[-1] != '/')
		p--;
	*err = xasprintf("%s is in use by another process (pid %ld%s%s): stop it first%s", dir,
	    (long)fl.l_pid, *p ? ": " : "", p,
	    strncmp(p, "tern console", 12) == 0 ? " (the offline console ends on Ctrl-C)" : "");
	return -1;
}

long job_log_repair(const char *path)
{
	char chunk[4096];
	int fd = open(path, O_RDWR | O_CLOEXEC);
	off_t end, pos;
	long rc = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	end = lseek(fd, 0, SEEK_END);
	pos = end;
	/* Backwards a chunk at a time: only the cut line is read. */
	while (pos > 0) {
		size_t n = pos < (off_t)sizeof chunk ? (size_t)pos : sizeof chunk;
		char *nl;

		if (pread(fd, chunk, n, pos - (off_t)n) != (ssize_t)n) {
			rc = -1;
			break;
		}
		nl = memrchr(chunk, '\n', n);
		if (nl != NULL) {
			pos = pos - (off_t)n + (nl - chunk) + 1;
			break;
		}
		pos -= (off_t)n;
	}
	if (rc == 0 && pos < end) {
		if (ftruncate(fd, pos) < 0)
			rc = -1;
		else
			rc = (long)(end - pos);
	}
	close(fd);
	return rc;
}

unsigned job_max_warc_serial(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned max = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		/* PREFIX-YYYYMMDDHHMMSSmmm-SERIAL-PID~HOST~PORT.warc.gz: the
		 * serial follows the 17-digit timestamp. */
		const char *p = e->d_name;
		while ((p = strchr(p, '-')) != NULL) {
			size_t n = strspn(p + 1, "0123456789");
			if (n == 17 && p[18] == '-') {
				unsigned s = (unsigned)strtoul(p + 19, NULL, 10);
				if (s > max)
					max = s;
				break;
			}
			p++;
		}
	}
	closedir(d);
	return max;
}
