/* JOBDIR/console.token (consoletoken.h). The file is written under a
 * temporary name and linked into place, so a reader never sees it half
 * written and two processes creating it at once agree on one token. */
#include "ops/consoletoken.h"
#include "archive/smallfile.h"
#include "lib/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int consoletoken_read(const char *path, char *out, char **err)
{
	char text[CONSOLEREQ_TOKEN_LEN + 2];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) != 0) {
		*err = xasprintf("%s: must be a file of yours readable by you only (chmod 600), "
				 "or removed to make a new token",
		    path);
		close(fd);
		return -1;
	}
	n = read(fd, text, sizeof text);
	close(fd);
	if (n >= 0 && (size_t)n < sizeof text)
		text[n] = '\0';
	if (n < CONSOLEREQ_TOKEN_LEN ||
	    (n == CONSOLEREQ_TOKEN_LEN + 1 && text[CONSOLEREQ_TOKEN_LEN] != '\n') ||
	    n > CONSOLEREQ_TOKEN_LEN + 1 ||
	    strspn(text, "0123456789abcdef") < CONSOLEREQ_TOKEN_LEN) {
		*err = xasprintf("%s: does not hold a token (64 hex digits); remove it to make "
				 "a new one",
		    path);
		return -1;
	}
	memcpy(out, text, CONSOLEREQ_TOKEN_LEN);
	out[CONSOLEREQ_TOKEN_LEN] = '\0';
	return 0;
}

static int consoletoken_create(const char *path, char **err)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char raw[CONSOLEREQ_TOKEN_LEN / 2];
	char text[CONSOLEREQ_TOKEN_LEN + 1];

	if (RAND_bytes(raw, sizeof raw) != 1) {
		*err = xasprintf("%s: no random bytes from OpenSSL", path);
		return -1;
	}
	for (size_t i = 0; i < sizeof raw; i++) {
		text[2 * i] = hex[raw[i] >> 4];
		text[2 * i + 1] = hex[raw[i] & 15];
	}
	text[CONSOLEREQ_TOKEN_LEN] = '\n';
	/* Made here, or by another process just now (1): either way, read it. */
	return smallfile_create(path, text, sizeof text, SMALLFILE_MODE_SECRET, err) < 0 ? -1 : 0;
}

int consoletoken_get(const char *jobdir, char out[CONSOLEREQ_TOKEN_LEN + 1], char **err)
{
	char *path = xasprintf("%s/console.token", jobdir);
	int rc = 0;

	if (access(path, F_OK) != 0 && errno == ENOENT)
		rc = consoletoken_create(path, err);
	if (rc == 0)
		rc = consoletoken_read(path, out, err);
	free(path);
	return rc;
}
