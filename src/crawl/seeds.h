/* A crawl's seeds (tern(1), crawl): the URLs of the command line and
 * of a seed file (one a line, '#' comments), each checked, added to the
 * scope and scheduled once however often it is listed; a new crawl records
 * them in JOBDIR/seeds.txt, with the seeds its seeds' redirects make
 * (crawl.seed-redirects-new-seeds), which a resume reads back. */
#ifndef TERN_SEEDS_H
#define TERN_SEEDS_H
#include <stddef.h>
#include <stdio.h>

struct frontier;
struct schedule;
struct scope;
struct seedhosts;

/* Seeds counted: given (every one read), kept (without repeats of one
 * URI: a fragment or a default port makes no other), and made by seed
 * redirects (JOBDIR/seeds.txt's, then the crawl's). */
struct seeds_count {
	size_t given, kept, redirects;
};

/* Where the seeds go; the crawl owns them. */
struct seeds_env {
	struct scope *scope;
	struct schedule *sched;
	struct frontier *frontier; /* written every few thousand seeds */
	struct seedhosts *hosts;   /* gets each seed's host (may be NULL) */
	struct seeds_count *count; /* may be NULL */
	int none_ok;		   /* no seed at all is no error (a cluster node) */
};

/* Why the seeds cannot be had (with a message in *err, caller frees);
 * the commands choose the exit status (tern(1), EXIT STATUS). */
#define SEEDS_EUSAGE (-2) /* a seed, the seed file, or none at all: fix and rerun */
#define SEEDS_EFAIL (-1)  /* the frontier could not store them */

/* A new crawl (resume 0): seeds[0..nseeds) then seedfile's (may be NULL),
 * scheduled even if seen and recorded in JOBDIR/seeds.txt. A resume:
 * JOBDIR/seeds.txt's, scheduled only if not seen (a crawl killed before
 * its first write still has them; otherwise they cost nothing), the
 * command line's ignored. Returns 0, or SEEDS_EUSAGE or SEEDS_EFAIL and
 * *err. */
int seeds_load(const struct seeds_env *env, const char *jobdir, int resume, char *const *seeds,
    size_t nseeds, const char *seedfile, char **err);

/* A seed's redirect target made a seed (crawl/outlinks.h): recorded in
 * record (JOBDIR/seeds.txt, open for appending; may be NULL) after the URI
 * as "HOPS VIA" (and "guarded" with CURI_GUARDED) so that a resume has it,
 * put in the scope as a listed seed is, its host among the seeds' hosts
 * unless flags has CURI_GUARDED, and scheduled (if not seen) with via,
 * hops and flags. 0, or -1 if it could not be recorded (the rest is done). */
int seeds_add_redirect(const struct seeds_env *env, FILE *record, const char *href, const char *via,
    const char *hops, unsigned flags);

/* The same checks, before anything is made: 0, or SEEDS_EUSAGE and *err
 * (a bad seed with its file and line, quoted whole). */
int seeds_check(char *const *seeds, size_t nseeds, const char *seedfile, int none_ok, char **err);

#endif
