/* `tern precedence-load FILE JOBDIR` (precloadcmd.h). The file is read line by line; every value goes into
 * the frontier's write batch and the batch is written every
 * PRECLOADCMD_BATCH lines, so memory stays bounded whatever the file's size.
 * A bad line stops the import with its file:line; lines before it are kept
 * (loading again is harmless: a URI's value is simply replaced). */
#include "precloadcmd.h"
#include "lib/canon.h"
#include "lib/clock.h"
#include "lib/config.h"
#include "frontier/frontier.h"
#include "crawl/job.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PRECLOADCMD_BATCH 10000
/* The highest precedence accepted: values sort in the store up to 255 and
 * are added to uri-base-precedence. */
#define PRECLOADCMD_MAX 255

int precloadcmd_parse_line(const char *line, struct buf *uri, int *prec, char **err)
{
	const char *p = line, *u, *n;
	size_t ulen, nlen;
	long v = 0;

	buf_reset(uri);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n' || *p == '\r' || *p == '#')
		return 0;
	u = p;
	while (*p != '\0' && !isspace((unsigned char)*p))
		p++;
	ulen = (size_t)(p - u);
	while (*p == ' ' || *p == '\t')
		p++;
	n = p;
	while (*p >= '0' && *p <= '9')
		p++;
	nlen = (size_t)(p - n);
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (nlen == 0 || *p != '\0') {
		*err = xstrdup("expected \"URI PRECEDENCE\" (a positive integer)");
		return -1;
	}
	if (nlen > 9 || (v = strtol(n, NULL, 10)) < 1 || v > PRECLOADCMD_MAX) {
		*err = xasprintf("precedence out of range (1 to %d)", PRECLOADCMD_MAX);
		return -1;
	}
	if (url_resolve(NULL, u, ulen, uri) < 0) {
		*err = xasprintf(
		    "'%.*s' is not an http or https URL", (int)(ulen > 200 ? 200 : ulen), u);
		return -1;
	}
	/* The fragment never reaches the frontier: the crawl drops it too. */
	{
		char *hash = strchr(uri->data, '#');
		if (hash != NULL) {
			uri->len = (size_t)(hash - uri->data);
			*hash = '\0';
		}
	}
	*prec = (int)v;
	return 1;
}

int precloadcmd_run(int argc, char **argv)
{
	const char *file, *jobdir;
	struct config *cfg;
	struct frontier *f = NULL;
	struct buf uri = BUF_INIT, canon = BUF_INIT;
	char *err = NULL, *path, *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0, loaded = 0;
	unsigned flags;
	FILE *fp = NULL;
	int rc = 0;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: tern precedence-load FILE JOBDIR\n"
		       "Import lines \"URI PRECEDENCE\" for the preloaded URI precedence policy\n"
		       "into a job that is not running.\n"
		       "\n"
		       "  -h, --help           this help\n");
		return 0;
	}
	if (argc != 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: tern precedence-load FILE JOBDIR\n");
		return 2;
	}
	file = argv[1];
	jobdir = argv[2];
	if (job_check_dir(jobdir, &err) < 0) {
		fprintf(stderr, "tern: precedence-load: %s\n", err);
		free(err);
		return 2;
	}
	cfg = config_new();
	path = xasprintf("%s/tern.conf", jobdir);
	if (job_config_load(cfg, path, &err) < 0) {
		fprintf(
		    stderr, "tern: precedence-load: %s (is %s a job directory?)\n", err, jobdir);
		free(err);
		free(path);
		config_free(cfg);
		return 2;
	}
	free(path);
	flags = canon_flags(cfg);
	fp = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	if (fp == NULL) {
		fprintf(stderr, "tern: precedence-load: %s: %s\n", file, strerror(errno));
		config_free(cfg);
		return 2;
	}
	path = xasprintf("%s/state/frontier", jobdir);
	f = frontier_open(path, cfg, 0, clock_wall_ms(), &err);
	free(path);
	if (f == NULL) {
		fprintf(stderr,
		    "tern: precedence-load: cannot open the job's store (a crawl "
		    "running there holds it): %s\n",
		    err);
		free(err);
		rc = 1;
		goto out;
	}
	while (getline(&line, &cap, fp) >= 0) {
		int prec = 0, r;
		lineno++;
		if (strlen(line) > 65536 ||
		    (r = precloadcmd_parse_line(line, &uri, &prec, &err)) < 0) {
			fprintf(stderr, "tern: %s:%lu: %s\n", file, lineno,
			    err != NULL ? err : "line too long");
			free(err);
			rc = 2;
			break;
		}
		if (r == 0)
			continue;
		if (canon_key(uri.data, flags, &canon) < 0 ||
		    frontier_preload(f, canon.data, prec) < 0) {
			fprintf(stderr, "tern: %s:%lu: cannot canonicalize '%s'\n", file, lineno,
			    uri.data);
			rc = 2;
			break;
		}
		buf_reset(&canon);
		loaded++;
		if (loaded % PRECLOADCMD_BATCH == 0 && frontier_flush(f, &err) < 0) {
			fprintf(stderr, "tern: precedence-load: %s\n", err);
			free(err);
			rc = 1;
			break;
		}
	}
	if (rc == 0 && ferror(fp)) {
		fprintf(stderr, "tern: precedence-load: %s: %s\n", file, strerror(errno));
		rc = 1;
	}
	if (frontier_flush(f, &err) < 0) {
		fprintf(stderr, "tern: precedence-load: %s\n", err);
		free(err);
		rc = 1;
	}
	if (rc == 0)
		printf("tern: loaded %lu precedences into %s\n", loaded, jobdir);
out:
	if (fp != stdin)
		fclose(fp);
	free(line);
	buf_free(&uri);
	buf_free(&canon);
	frontier_close(f);
	config_free(cfg);
	return rc;
}
