/* The seeds of a crawl: read, checked, put in scope and in the frontier. */
#include <build-config.h>

#include "crawl/seeds.h"
#include "archive/smallfile.h"
#include "crawl/schedule.h"
#include "crawl/seedhosts.h"
#include "frontier/frontier.h"
#include "frontier/urlset.h"
#include "lib/buf.h"
#include "lib/canon.h"
#include "lib/hash.h"
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
/* Memory for telling repeated seeds apart: allocated as the strings come,
 * so a list of a million seeds takes its own size and no more. */
#define SEEDS_SET_BUDGET ((size_t)1 << 30)

/* What follows a seed's redirect target in JOBDIR/seeds.txt: "URI HOPS VIA"
 * (HOPS all 'R'), then "guarded" when the address guard judges it as any
 * link (lib/curi.h, CURI_GUARDED). Read back by a resume, 0 if line (the
 * words after the URI) is not one. */
static int seeds_redirect_words(char *line, char **hops, char **via, unsigned *flags)
{
	char *save = NULL, *g;

	*hops = strtok_r(line, " \t", &save);
	*via = strtok_r(NULL, " \t", &save);
	g = strtok_r(NULL, " \t", &save);
	if (*hops == NULL || *via == NULL || **hops == '\0' ||
	    strspn(*hops, "R") != strlen(*hops) || (g != NULL && strcmp(g, "guarded") != 0))
		return 0;
	*flags = CURI_SEED | (g != NULL ? CURI_GUARDED : 0);
	return 1;
}

/* 1 if href (its canonical form: no fragment, no default port) was read
 * before, else adds it and 0. */
static int seeds_repeated(struct urlset *set, const char *href, struct buf *key)
{
	uint64_t h;

	if (canon_key(href, 0, key) < 0) {
		buf_reset(key);
		buf_appends(key, href);
		return 0;
	}
	h = hash_bytes(key->data, key->len);
	if (urlset_has(set, key->data, key->len, h))
		return 1;
	urlset_add(set, key->data, key->len, h);
	return 0;
}

/* Reads seeds[0..nseeds) then seedfile's and checks each; unless env is
 * NULL (a check only), adds it to the scope and schedules it: even if seen
 * with force (a new crawl), only if not seen yet without. record (may be
 * NULL) gets each, resolved. A line's seed is its first word; a bad one is
 * quoted with its whole line. */
static int seeds_read(const struct seeds_env *env, char *const *seeds, size_t nseeds,
    const char *seedfile, int force, FILE *record, int none_ok, char **err)
{
	struct buf href = BUF_INIT, key = BUF_INIT;
	struct urlset *set = env != NULL ? urlset_new(SEEDS_SET_BUDGET) : NULL;
	FILE *fp = NULL;
	char *line = NULL, *whole = NULL;
	size_t cap = 0, n = 0, kept = 0;
	int lineno = 0, rc = 0;
	char *ferr = NULL;

	for (size_t i = 0; i < nseeds + 1; i++) {
		const char *seed, *origin, *quote;
		const char *via = NULL, *hops = "";
		unsigned flags = CURI_SEED;
		char where[600], *word, *rest = NULL, *rhops, *rvia;
		if (i < nseeds) {
			seed = quote = seeds[i];
			origin = "command line";
		} else {
			if (seedfile == NULL)
				break;
			if (fp == NULL && (fp = fopen(seedfile, "r")) == NULL) {
				*err = xasprintf("%s: %s", seedfile, strerror(errno));
				rc = SEEDS_EUSAGE;
				break;
			}
			if (getline(&line, &cap, fp) < 0)
				break;
			lineno++;
			i--;
			line[strcspn(line, "#\r\n")] = '\0';
			seed = line;
			/* A UTF-8 byte-order mark, as some editors write it, is
			 * not part of the first seed. */
			if (lineno == 1 && strncmp(seed, "\xEF\xBB\xBF", 3) == 0)
				seed += 3;
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
			word = line + (seed - line);
			if (word[strcspn(word, " \t")] != '\0')
				rest = word + strcspn(word, " \t") + 1;
			word[strcspn(word, " \t")] = '\0';
			snprintf(where, sizeof where, "%s:%d", seedfile, lineno);
			origin = where;
			/* A resume reads back the seeds that redirects made. */
			if (record == NULL && !force && rest != NULL && env != NULL &&
			    seeds_redirect_words(rest, &rhops, &rvia, &flags)) {
				hops = rhops;
				via = rvia;
				if (env->count != NULL)
					env->count->redirects++;
			}
		}
		if (url_resolve(NULL, seed, strlen(seed), &href) < 0) {
			*err = xasprintf("%s: '%s' is not an http or https URL", origin, quote);
			rc = SEEDS_EUSAGE;
			break;
		}
		n++;
		if (env == NULL)
			continue;
		/* The same seed twice (a fragment does not make another URI)
		 * is fetched once. */
		if (seeds_repeated(set, href.data, &key))
			continue;
		kept++;
		scope_add_seed(env->scope, href.data);
		if (env->hosts != NULL && !(flags & CURI_GUARDED))
			seedhosts_add_url(env->hosts, href.data);
		if (record != NULL)
			fprintf(record, "%s\n", key.data);
		schedule_uri(env->sched, key.data, via, hops, flags, force);
		/* A seed list of 100,000 hosts would otherwise sit whole in the
		 * write batch and create as many queue objects before the first
		 * flush; the frontier evicts cold queues only after a write. */
		if (n % SEEDS_FLUSH == 0 && frontier_flush(env->frontier, &ferr) < 0) {
			*err = ferr;
			rc = SEEDS_EFAIL;
			break;
		}
	}
	if (fp != NULL)
		fclose(fp);
	free(line);
	free(whole);
	buf_free(&href);
	buf_free(&key);
	if (set != NULL)
		urlset_free(set);
	if (env != NULL && env->count != NULL) {
		env->count->given = n;
		env->count->kept = kept;
	}
	if (rc == 0 && n == 0 && !none_ok) {
		*err = xstrdup("no seeds");
		rc = SEEDS_EUSAGE;
	}
	return rc;
}

int seeds_load(const struct seeds_env *env, const char *jobdir, int resume, char *const *seeds,
    size_t nseeds, const char *seedfile, char **errp)
{
	char *path = xasprintf("%s/seeds.txt", jobdir), *err = NULL;
	struct smallfile *rec;
	int rc;

	if (resume) {
		/* Seeds again, as discoveries rather than forced: a crawl killed
		 * before its first flush still has them, and otherwise they
		 * are already seen and cost nothing. */
		rc = seeds_read(env, NULL, 0, path, 0, NULL, env->none_ok, errp);
	} else {
		/* The record a resume reads the seeds from: whole or absent
		 * after a crash, never cut (src/archive/smallfile.h). */
		rec = smallfile_open(path, SMALLFILE_MODE, &err);
		rc = seeds_read(env, seeds, nseeds, seedfile, 1, rec ? smallfile_fp(rec) : NULL,
		    env->none_ok, errp);
		/* Not fatal: the crawl goes on, but a resume will not have them. */
		if (rec == NULL || smallfile_commit(rec, &err) < 0) {
			fprintf(stderr, "tern: %s\n", err);
			free(err);
		}
	}
	free(path);
	return rc;
}

int seeds_check(char *const *seeds, size_t nseeds, const char *seedfile, int none_ok, char **err)
{
	return seeds_read(NULL, seeds, nseeds, seedfile, 0, NULL, none_ok, err);
}

int seeds_add_redirect(const struct seeds_env *env, FILE *record, const char *href, const char *via,
    const char *hops, unsigned flags)
{
	int rc = -1;

	/* Written before the frontier's next write holds the seed, so that
	 * a crash between the two leaves a resume that has it. */
	if (record != NULL &&
	    fprintf(record, "%s %s %s%s\n", href, hops, via,
		(flags & CURI_GUARDED) ? " guarded" : "") > 0 &&
	    fflush(record) == 0)
		rc = 0;

	scope_add_seed(env->scope, href);
	if (env->hosts != NULL && !(flags & CURI_GUARDED))
		seedhosts_add_url(env->hosts, href);
	if (env->count != NULL)
		env->count->redirects++;
	schedule_uri(env->sched, href, via, hops, flags, 0);
	return rc;
}
