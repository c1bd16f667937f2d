/* The seeds of a crawl: read, checked, put in scope and in the frontier. */
#include <build-config.h>

#include "crawl/seeds.h"
#include "archive/smallfile.h"
#include "crawl/schedule.h"
#include "crawl/seedhosts.h"
#include "frontier/frontier.h"
#include "lib/buf.h"
#include "lib/curi.h"
#include "crawl/scope.h"
#include "lib/url.h"
#include "lib/xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seeds scheduled between two frontier writes while a seed list loads. */
#define SEEDS_FLUSH 4096

/* Reads seeds[0..nseeds) then seedfile's and checks each; unless env is
 * NULL (a check only), adds it to the scope and schedules it: even if seen
 * with force (a new crawl), only if not seen yet without. record (may be
 * NULL) gets each, resolved. A line's seed is its first word; a bad one is
 * quoted with its whole line. */
static int seeds_read(const struct seeds_env *env, char *const *seeds, size_t nseeds,
    const char *seedfile, int force, FILE *record, int none_ok)
{
	struct buf href = BUF_INIT;
	FILE *fp = NULL;
	char *line = NULL, *whole = NULL;
	size_t cap = 0, n = 0;
	int lineno = 0, rc = 0;
	char *ferr = NULL;

	for (size_t i = 0; i < nseeds + 1; i++) {
		const char *seed, *origin, *quote;
		char where[600];
		if (i < nseeds) {
			seed = quote = seeds[i];
			origin = "command line";
		} else {
			if (seedfile == NULL)
				break;
			if (fp == NULL && (fp = fopen(seedfile, "r")) == NULL) {
				fprintf(stderr, "tern: %s: %s\n", seedfile, strerror(errno));
				rc = 2;
				break;
			}
			if (getline(&line, &cap, fp) < 0)
				break;
			lineno++;
			i--;
			line[strcspn(line, "#\r\n")] = '\0';
			seed = line;
			while (isspace((unsigned char)*seed))
				seed++;
			if (*seed == '\0')
				continue;
			free(whole);
			whole = xstrdup(seed);
			for (size_t w = strlen(whole);
			     w > 0 && isspace((unsigned char)whole[w - 1]); w--)
				whole[w - 1] = '\0';
			quote = whole;
			line[strcspn(line, " \t")] = '\0';
			snprintf(where, sizeof where, "%s:%d", seedfile, lineno);
			origin = where;
		}
		if (url_resolve(NULL, seed, strlen(seed), &href) < 0) {
			fprintf(
			    stderr, "tern: %s: '%s' is not an http or https URL\n", origin, quote);
			rc = 2;
			break;
		}
		n++;
		if (env == NULL)
			continue;
		scope_add_seed(env->scope, href.data);
		if (env->hosts != NULL)
			seedhosts_add_url(env->hosts, href.data);
		if (record != NULL)
			fprintf(record, "%s\n", href.data);
		schedule_uri(env->sched, href.data, NULL, "", CURI_SEED, force);
		/* A seed list of 100,000 hosts would otherwise sit whole in the
		 * write batch and create as many queue objects before the first
		 * flush; the frontier evicts cold queues only after a write. */
		if (n % SEEDS_FLUSH == 0 && frontier_flush(env->frontier, &ferr) < 0) {
			fprintf(stderr, "tern: %s\n", ferr);
			free(ferr);
			rc = 1;
			break;
		}
	}
	if (fp != NULL)
		fclose(fp);
	free(line);
	free(whole);
	buf_free(&href);
	if (rc == 0 && n == 0 && !none_ok) {
		fprintf(stderr, "tern: no seeds\n");
		rc = 2;
	}
	return rc;
}

int seeds_load(const struct seeds_env *env, const char *jobdir, int resume, char *const *seeds,
    size_t nseeds, const char *seedfile)
{
	char *path = xasprintf("%s/seeds.txt", jobdir), *err = NULL;
	struct smallfile *rec;
	int rc;

	if (resume) {
		/* Seeds again, as discoveries rather than forced: a crawl killed
		 * before its first flush still has them, and otherwise they
		 * are already seen and cost nothing. */
		rc = seeds_read(env, NULL, 0, path, 0, NULL, env->none_ok);
	} else {
		/* The record a resume reads the seeds from: whole or absent
		 * after a crash, never cut (src/archive/smallfile.h). */
		rec = smallfile_open(path, SMALLFILE_MODE, &err);
		rc = seeds_read(
		    env, seeds, nseeds, seedfile, 1, rec ? smallfile_fp(rec) : NULL, env->none_ok);
		if (rec == NULL || smallfile_commit(rec, &err) < 0) {
			fprintf(stderr, "tern: %s\n", err);
			free(err);
		}
	}
	free(path);
	return rc;
}

int seeds_check(char *const *seeds, size_t nseeds, const char *seedfile, int none_ok)
{
	return seeds_read(NULL, seeds, nseeds, seedfile, 0, NULL, none_ok);
}
