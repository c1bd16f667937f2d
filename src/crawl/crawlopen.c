/* Opening a crawl (crawl_open, the public entry, is this file's):
 * everything it needs before its loop runs (the job, the scope, a restored
 * checkpoint, the frontier, the seeds, the outputs, the loop's services,
 * the hooks of crawlhooks.c and the loop's handles), in the order that
 * lets a failure say the most. It is the top of the crawl's files: it
 * calls the others, none calls it. */
#include <build-config.h>

#include "crawl/private.h"
#include "lib/xmalloc.h"
#include "crawl/drops.h"
#include "crawl/failures.h"
#include "crawl/fdlimit.h"
#include "lib/buf.h"
#include "lib/canon.h"
#include "crawl/checkpoint.h"
#include "lib/clock.h"
#include "crawl/clusternode.h"
#include "lib/config.h"
#include "archive/dedup.h"
#include "net/dns.h"
#include "net/fetcher.h"
#include "frontier/bloom.h"
#include "frontier/frontier.h"
#include "frontier/hosts.h"
#include "crawl/job.h"
#include "crawl/jobtotals.h"
#include "lib/robots.h"
#include "lib/rules.h"
#include "crawl/schedule.h"
#include "crawl/seedhosts.h"
#include "crawl/cookies.h"
#include "crawl/seeds.h"
#include "crawl/scope.h"
#include "crawl/statusline.h"
#include "crawl/visit.h"
#include "archive/warc.h"
#include "archive/warcpool.h"
#include "archive/warcrecover.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned crawlopen_next_warc_serial(const char *dir)
{
	return job_max_warc_serial(dir) + 1;
}

/* The dedup index's filter: a Bloom filter like the frontier's seen set's,
 * so that a new payload digest, the common case, is proven new without a
 * LevelDB read. Without it (a store read error) the index reads as before. */
static void crawlopen_dedup_add(void *arg, uint64_t h)
{
	bloom_add(arg, h);
}

static int crawlopen_dedup_test(void *arg, uint64_t h)
{
	return bloom_test(arg, h);
}

static void *crawlopen_dedup_batch(void *arg)
{
	return dedup_batch(arg);
}

static void crawlopen_dedup_written(void *arg)
{
	dedup_written(arg);
}

static void crawlopen_dedup_filter(struct crawl *cr)
{
	struct dedup_filter f;
	char *err = NULL;

	/* 16 bits a digest: a false positive costs a store read (0.1 % of
	 * new digests, as the seen set's default). */
	cr->dedup_bloom = bloom_new(1u << 16, 16);
	f.arg = cr->dedup_bloom;
	f.add = crawlopen_dedup_add;
	f.test = crawlopen_dedup_test;
	if (dedup_set_filter(cr->dedup, &f, &err) < 0) {
		crawlsay_event(cr, "%s", err);
		free(err);
	}
}

static int crawlopen_outputs(struct crawl *cr, char **err)
{
	struct config *cfg = cr->cfg;
	char *p;

	p = xasprintf("%s/logs/crawl.log", cr->jobdir);
	/* A kill may have cut the last line short; its URI is still queued. */
	job_log_repair(p);
	cr->crawllog = fopen(p, "a");
	free(p);
	p = xasprintf("%s/logs/tern.log", cr->jobdir);
	cr->ternlog = fopen(p, "a");
	free(p);
	p = xasprintf("%s/logs/progress.log", cr->jobdir);
	cr->progress = fopen(p, "a");
	free(p);
	if (cr->crawllog == NULL || cr->ternlog == NULL || cr->progress == NULL) {
		*err = xasprintf("%s/logs: %s", cr->jobdir, strerror(errno));
		return -1;
	}
	/* crawl.log is flushed explicitly, once per loop iteration. */
	setvbuf(cr->crawllog, NULL, _IOFBF, 1 << 16);
	if (ftell(cr->progress) == 0)
		fprintf(cr->progress,
		    "# timestamp discovered queued downloaded pages/s(avg) KB/s(avg) failures in-flight ready snoozed inactive retired rss-KB bytes\n");
	if (config_bool(cfg, CK_WARC_ENABLED)) {
		struct warc_opts wo;
		char host[256], *extra, *wdir = xasprintf("%s/warcs", cr->jobdir);
		if (gethostname(host, sizeof host) != 0)
			snprintf(host, sizeof host, "localhost");
		host[sizeof host - 1] = '\0';
		extra = xasprintf("operator: %s\r\nhttp-header-user-agent: %s\r\nrobots: %s\r\n"
				  "description: tern crawl of job %s\r\n",
		    "tern operator", config_str(cfg, CK_CRAWL_USER_AGENT),
		    config_str(cfg, CK_ROBOTS_POLICY), cr->jobdir);
		memset(&wo, 0, sizeof wo);
		wo.dir = wdir;
		wo.prefix = config_str(cfg, CK_WARC_PREFIX);
		wo.max_size = (uint64_t)config_int(cfg, CK_WARC_MAX_SIZE_BYTES);
		wo.version10 = config_enum(cfg, CK_WARC_VERSION) == 1;
		wo.software = "tern/" PACKAGE_VERSION;
		wo.hostname = host;
		wo.first_serial = crawlopen_next_warc_serial(wdir);
		if (cr->warc_serial_floor > wo.first_serial)
			wo.first_serial = cr->warc_serial_floor;
		wo.warcinfo_extra = extra;
		{
			/* Files a killed run left ".open" are cut to their last
			 * whole record and closed (doc/warc.md). The serial
			 * above was taken first, so a file removed here never
			 * has its serial reused. The frontier's LevelDB lock,
			 * held already, keeps any other tern off this job. A
			 * file that cannot be recovered stays as it is and
			 * the crawl goes on with new files. */
			struct buf rep = BUF_INIT;
			char *rerr = NULL, *line, *nl;

			/* The report has a line for each failure too. */
			if (warcrecover_dir(wdir, &rep, &rerr) < 0)
				free(rerr);
			for (line = rep.data; line != NULL && (nl = strchr(line, '\n')) != NULL;
			     line = nl + 1)
				crawlsay_event(cr, "WARC recovery: %.*s", (int)(nl - line), line);
			buf_free(&rep);
		}
		cr->warc = warc_open(&wo, err);
		free(extra);
		free(wdir);
		if (cr->warc == NULL)
			return -1;
		if (config_enum(cfg, CK_WARC_DEDUP) == 0) {
			struct frontier_companion fc;

			cr->dedup = dedup_open(frontier_db(cr->frontier), err);
			if (cr->dedup == NULL)
				return -1;
			crawlopen_dedup_filter(cr);
			/* Its entries ride in the frontier's writes: one LevelDB
			 * write a flush (doc/checkpoints.md). */
			fc.arg = cr->dedup;
			fc.batch = crawlopen_dedup_batch;
			fc.written = crawlopen_dedup_written;
			frontier_set_companion(cr->frontier, &fc);
		}
	}
	return 0;
}

/* The loop, the resolver and the fetch engine: made from the settings
 * alone, before the job, so that bad DNS or TLS settings refuse the crawl
 * before anything is written. */
static int crawlopen_services(struct crawl *cr, char **err)
{
	char *e = NULL;

	uv_loop_init(&cr->loop);
	cr->loop_ready = 1;
	cr->dns = dns_new(&cr->loop, cr->cfg, &e);
	if (cr->dns == NULL) {
		*err = xasprintf("DNS: %s", e);
		free(e);
		return CRAWL_EUSAGE;
	}
	cr->fetcher = fetcher_new(&cr->loop, cr->cfg, cr->dns, err);
	if (cr->fetcher == NULL)
		return CRAWL_EUSAGE;
	return 0;
}

/* The job's totals from its store. A resume of a job that finished with
 * nothing held back, or that has reached one of its limits, says so and
 * changes nothing: the
 * frontier is closed (cr->frontier NULL) and 0 returned. CRAWL_EFAIL with
 * *err when the store cannot be read. */
static int crawlopen_totals(struct crawl *cr, const struct crawl_opts *o, char **err)
{
	struct jobtotals t;
	struct frontier_counts fc;
	const char *limit;
	char when[32];
	int rc = jobtotals_load(cr->frontier, &t, err);

	if (rc < 0)
		return CRAWL_EFAIL;
	if (rc == 1) {
		/* The store's record is written with the URIs it counts, so
		 * it wins over a restored checkpoint's crawl.json. */
		cr->stats = t.stats;
		cr->elapsed_before_ms = t.elapsed_ms;
		cr->finished_ms = t.finished_ms;
		cr->saved = t;
	}
	cr->pages_at_start = cr->stats.pages;
	/* The rate's first second counts from the start. */
	statusline_rate_sample(cr->rate, cr->start_ms, cr->stats.pages, cr->stats.bytes);
	if (!o->resume)
		return 0;
	frontier_counts(cr->frontier, &fc);
	/* URIs held in retired or ineligible queues are the operator's to
	 * release (an edited budget or floor in tern.conf, reconsider-retired
	 * while paused at finish): such a job resumes. */
	if (cr->finished_ms != 0 && frontier_is_finished(cr->frontier) && fc.retired_uris == 0 &&
	    fc.ineligible_uris == 0) {
		time_t sec = (time_t)(cr->finished_ms / 1000);
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&sec));
		printf("tern: %s: this crawl finished at %s with %llu page%s and %llu failure%s; "
		       "nothing to resume (reports in %s/reports/)\n",
		    cr->jobdir, when, (unsigned long long)cr->stats.pages,
		    CRAWL_PLURAL(cr->stats.pages), (unsigned long long)cr->stats.failures,
		    CRAWL_PLURAL(cr->stats.failures), cr->jobdir);
	} else if ((limit = crawl_limit_reached(cr)) != NULL) {
		printf("tern: %s: this crawl is at a limit of the job (%s: %llu pages, %llu bytes, "
		       "%.0f s); nothing to resume: raise the limit to crawl further "
		       "(tern resume %s --set crawl.%.*s=...)\n",
		    cr->jobdir, limit, (unsigned long long)cr->stats.pages,
		    (unsigned long long)cr->stats.bytes, (double)cr->elapsed_before_ms / 1000.0,
		    cr->jobdir, (int)strcspn(limit, " "), limit);
	} else {
		return 0;
	}
	/* Closed as it was opened: not even the time of this look is added. */
	frontier_set_prewrite(cr->frontier, NULL, NULL);
	frontier_close(cr->frontier);
	cr->frontier = NULL;
	return 0;
}

/* The seeds' count, said at the start: a seed listed twice (or once more
 * with a #fragment) is fetched once, and the operator sees it. */
static void crawlopen_say_seeds(struct crawl *cr, int resume)
{
	const struct seeds_count *n = &cr->seed_count;

	if (n->given == 0)
		return;
	if (resume && n->redirects > 0)
		crawlsay_say(cr, "%zu seed%s from %s/seeds.txt (%zu made by seeds' redirects)",
		    n->kept, n->kept == 1 ? "" : "s", cr->jobdir, n->redirects);
	else if (resume)
		crawlsay_say(cr, "%zu seed%s from %s/seeds.txt", n->kept, n->kept == 1 ? "" : "s",
		    cr->jobdir);
	else if (n->kept < n->given)
		crawlsay_say(cr,
		    "%zu seed%s given, %zu kept: %zu repeated a seed before it (the same "
		    "URI but for a #fragment or a default port)",
		    n->given, n->given == 1 ? "" : "s", n->kept, n->given - n->kept);
	else
		crawlsay_say(
		    cr, "%zu seed%s given, %zu kept", n->given, n->given == 1 ? "" : "s", n->kept);
}

/* The seeds' and the cluster's codes as the crawl's (they are named alike:
 * -2 the operator's to fix, -1 a failure). */
static int crawlopen_code(int rc)
{
	return rc == SEEDS_EUSAGE || rc == CLUSTERNODE_EUSAGE ? CRAWL_EUSAGE : CRAWL_EFAIL;
}

/* Everything a crawl needs before its loop runs, in the order that lets a
 * failure say the most: the job, the scope, a restored checkpoint, the
 * frontier, the seeds, the outputs, then the loop's services. */
int crawl_open(struct config *cfg, const struct crawl_opts *o, struct crawl **out, char **err)
{
	char restored[CHECKPOINT_NAME_MAX] = "";
	uint64_t restored_log_bytes = 0;
	struct crawl *cr = NULL;
	struct scope_opts so;
	struct schedule_opts sco;
	struct visit_env env;
	struct seeds_env sde;
	char *statedir = NULL;
	uint64_t nofile, nofile_before;
	int rc, wanted_conns, conns;

	*out = NULL;
	*err = NULL;
	if (scope_validate(config_str(cfg, CK_CRAWL_SCOPE), err) < 0) {
		rc = CRAWL_EUSAGE;
		goto out;
	}
	/* Before the store is opened (LevelDB sizes its own use of descriptors
	 * from the limit it finds) and before the job is made, so that a limit
	 * too low for one connection leaves nothing behind. */
	if (fdlimit_raise(&nofile, &nofile_before, err) < 0) {
		rc = CRAWL_EFAIL;
		goto out;
	}
	wanted_conns = (int)config_int(cfg, CK_CRAWL_MAX_CONNECTIONS);
	conns = fdlimit_connections(nofile, wanted_conns);
	if (conns == 0) {
		*err = xasprintf("the open-file limit (ulimit -n) is %llu: tern keeps %llu "
				 "descriptors for its store, WARCs, logs and control socket, and a "
				 "connection needs 2 more; raise the limit",
		    (unsigned long long)nofile, (unsigned long long)fdlimit_reserve(nofile));
		rc = CRAWL_EUSAGE;
		goto out;
	}
	cr = xcalloc(1, sizeof *cr);
	cr->cfg = cfg;
	cr->jobdir = xstrdup(o->jobdir);
	cr->start_ms = clock_wall_ms();
	cr->last_progress_ms = cr->start_ms;
	cr->last_checkpoint_ms = cr->start_ms;
	signal(SIGPIPE, SIG_IGN);

	/* Everything the operator gave is checked before the job directory
	 * is made, so that a refusal leaves nothing behind. */
	if (!o->resume &&
	    (rc = seeds_check(o->seeds, o->nseeds, o->seedfile, clusternode_configured(cfg), err)) <
		0) {
		rc = crawlopen_code(rc);
		goto out;
	}
	if ((rc = crawlopen_services(cr, err)) < 0)
		goto out;
	if (o->resume) {
		if (job_check_resumable(cr->jobdir, err) < 0) {
			rc = CRAWL_EUSAGE;
			goto out;
		}
		/* Before a checkpoint is restored over a store another
		 * process has open, and instead of LevelDB's lock error. */
		if (job_check_unlocked(cr->jobdir, err) < 0) {
			rc = CRAWL_EFAIL;
			goto out;
		}
	} else if (job_create(cr->jobdir, cfg, err) < 0) {
		rc = CRAWL_EUSAGE;
		goto out;
	}

	robots_agent_token(config_str(cfg, CK_CRAWL_USER_AGENT), cr->agent, sizeof cr->agent);
	cr->robots_policy = config_enum(cfg, CK_ROBOTS_POLICY);
	cr->continuous = config_enum(cfg, CK_CRAWL_MODE) == 1;
	cr->max_conns = conns;
	cr->hosts = hosts_new(CRAWL_HOSTS_CAPACITY);
	cr->tmpdir = xasprintf("%s/state/tmp", cr->jobdir);
	cr->tty = isatty(STDERR_FILENO);
	cr->rate = statusline_rate_new();
	cr->last_status_ms = cr->start_ms;

	memset(&so, 0, sizeof so);
	so.scope = config_str(cfg, CK_CRAWL_SCOPE);
	so.max_hops = (int)config_int(cfg, CK_CRAWL_MAX_HOPS);
	so.max_trans_hops = (int)config_int(cfg, CK_CRAWL_MAX_TRANS_HOPS);
	so.max_uri_length = (size_t)config_int(cfg, CK_CRAWL_MAX_URI_LENGTH);
	so.max_path_repeats = (int)config_int(cfg, CK_CRAWL_MAX_PATH_REPEATS);
	so.max_query_length = (size_t)config_int(cfg, CK_CRAWL_MAX_QUERY_LENGTH);
	cr->scope = scope_new(&so);

	if (o->resume && o->checkpoint != NULL) {
		struct checkpoint_restored rs;
		int r = checkpoint_restore(cr->jobdir, o->checkpoint, &rs, err);
		if (r < 0) {
			rc = r == CHECKPOINT_ENOTFOUND ? CRAWL_EUSAGE : CRAWL_EFAIL;
			goto out;
		}
		if (rs.have_stats)
			cr->stats = rs.stats;
		cr->warc_serial_floor = rs.warc_next_serial;
		snprintf(restored, sizeof restored, "%s", rs.name);
		restored_log_bytes = rs.crawl_log_bytes;
	}
	statedir = xasprintf("%s/state/frontier", cr->jobdir);
	cr->frontier = frontier_open(statedir, cfg, !o->resume, cr->start_ms, err);
	free(statedir);
	if (cr->frontier == NULL) {
		rc = CRAWL_EFAIL;
		goto out;
	}
	frontier_set_prewrite(cr->frontier, crawl_flush_outputs, cr);
	/* 0 with the frontier closed: a finished job, nothing to run. */
	if ((rc = crawlopen_totals(cr, o, err)) < 0 || cr->frontier == NULL)
		goto out;
	if (cookies_open(cfg, cr->frontier, &cr->cookies, &cr->cookies_said, err) < 0) {
		rc = CRAWL_EFAIL;
		goto out;
	}
	cr->rules = drops_rules_new(cfg);
	if (drops_load(cr->frontier, cr->rules, err) < 0) {
		rc = CRAWL_EFAIL;
		goto out;
	}
	memset(&sco, 0, sizeof sco);
	sco.cfg = cfg;
	sco.frontier = cr->frontier;
	sco.scope = cr->scope;
	sco.rules = cr->rules;
	sco.stats = &cr->stats;
	sco.canon_flags = canon_flags(cfg);
	sco.assign = config_enum(cfg, CK_FRONTIER_QUEUE_ASSIGNMENT);
	cr->sched = schedule_new(&sco);
	cr->seedhosts = seedhosts_new();
	if (clusternode_configured(cfg)) {
		/* Joined before the seeds: they are handed to their
		 * partitions' owners like any discovered URI. */
		struct clusternode_env ne;
		memset(&ne, 0, sizeof ne);
		ne.cfg = cfg;
		ne.frontier = cr->frontier;
		ne.sched = cr->sched;
		ne.scope = cr->scope;
		ne.seedhosts = cr->seedhosts;
		ne.jobdir = cr->jobdir;
		ne.ctx = cr;
		ne.log = crawlhooks_node_log;
		ne.status = crawlhooks_node_status;
		ne.finished = crawlhooks_node_finished;
		ne.control = crawlhooks_node_control;
		rc = clusternode_open(&cr->loop, &ne, &cr->node, err);
		if (rc < 0) {
			rc = crawlopen_code(rc);
			goto out;
		}
		schedule_set_handoff(cr->sched, clusternode_handoff, cr->node);
	}

	memset(&sde, 0, sizeof sde);
	sde.scope = cr->scope;
	sde.sched = cr->sched;
	sde.frontier = cr->frontier;
	sde.hosts = cr->seedhosts;
	sde.count = &cr->seed_count;
	/* A cluster node may start with none and take its share of the
	 * work the others were given. */
	sde.none_ok = cr->node != NULL;
	rc = seeds_load(&sde, cr->jobdir, o->resume, o->seeds, o->nseeds, o->seedfile, err);
	if (rc < 0) {
		rc = crawlopen_code(rc);
		goto out;
	}
	cr->seeds = sde;
	if (crawlopen_outputs(cr, err) < 0) {
		rc = CRAWL_EFAIL;
		goto out;
	}
	crawlopen_say_seeds(cr, o->resume);
	if (restored[0] != '\0')
		crawlsay_event(cr,
		    "restored checkpoint %s; crawl.log lines after byte %llu were written after it",
		    restored, (unsigned long long)restored_log_bytes);
	if (nofile > nofile_before)
		crawlsay_event(cr, "open-file limit raised from %llu to %llu",
		    (unsigned long long)nofile_before, (unsigned long long)nofile);
	if (conns < wanted_conns) {
		char *msg = xasprintf(
		    "crawl.max-connections %d lowered to %d: the open-file limit "
		    "(ulimit -n) is %llu, %llu descriptors are kept for the store, WARCs, logs and "
		    "the control socket, and each connection may need 2",
		    wanted_conns, conns, (unsigned long long)nofile,
		    (unsigned long long)fdlimit_reserve(nofile));
		crawlsay_event(cr, "%s", msg);
		fprintf(stderr, "tern: %s\n", msg);
		free(msg);
	}
	if (frontier_flush(cr->frontier, err) < 0) {
		rc = CRAWL_EFAIL;
		goto out;
	}

	fetcher_limit_idle(cr->fetcher, fdlimit_idle(nofile, conns));
	schedule_set_dns(cr->sched, cr->dns);
	{
		struct failures_env fe = {&cr->stats, cr, crawlhooks_failure_say};

		cr->failures = failures_new(&fe);
	}
	if (cr->warc != NULL)
		cr->warcpool = warcpool_new(&cr->loop, cr->warc, cr->dedup, cr->crawllog, 0);
	memset(&env, 0, sizeof env);
	env.cfg = cfg;
	env.frontier = cr->frontier;
	env.schedule = cr->sched;
	env.dns = cr->dns;
	env.fetcher = cr->fetcher;
	env.hosts = cr->hosts;
	env.warc = cr->warc;
	env.warcpool = cr->warcpool;
	env.dedup = cr->dedup;
	env.seedhosts = cr->seedhosts;
	env.crawllog = cr->crawllog;
	env.tmpdir = cr->tmpdir;
	env.agent = cr->agent;
	env.robots_policy = cr->robots_policy;
	env.continuous = cr->continuous;
	env.max_conns = cr->max_conns;
	env.stats = &cr->stats;
	env.failures = cr->failures;
	env.cookies = cr->cookies;
	env.ctx = cr;
	env.event = crawlhooks_visit_event;
	env.disk_full = crawlhooks_visit_disk_full;
	env.ended = crawlhooks_visit_ended;
	env.scope = cr->scope;
	env.new_seed = crawlhooks_visit_new_seed;
	if (cr->node != NULL) {
		env.disposed = crawlhooks_visit_disposed;
		env.may_send = crawlhooks_visit_may_send;
	}
	cr->visits = visit_pool_new(&env);
	if (cr->node != NULL)
		clusternode_set_visits(cr->node, cr->visits);
	crawlsay_event(cr, "%s job %s with %d connections", o->resume ? "resuming" : "starting",
	    cr->jobdir, cr->max_conns);
	crawlsay_event(cr, "%s", cr->cookies_said);

	uv_prepare_init(&cr->loop, &cr->prepare);
	cr->prepare.data = cr;
	uv_prepare_start(&cr->prepare, crawl_prepare_cb);
	uv_idle_init(&cr->loop, &cr->idle);
	uv_timer_init(&cr->loop, &cr->wake);
	cr->wake.data = cr;
	uv_timer_init(&cr->loop, &cr->cron);
	cr->cron.data = cr;
	uv_timer_start(&cr->cron, crawl_cron_cb, 1000, 1000);
	uv_timer_init(&cr->loop, &cr->grace);
	cr->grace.data = cr;
	uv_signal_init(&cr->loop, &cr->sigint);
	uv_signal_init(&cr->loop, &cr->sigterm);
	cr->sigint.data = cr->sigterm.data = cr;
	uv_signal_start(&cr->sigint, crawl_signal_cb, SIGINT);
	uv_signal_start(&cr->sigterm, crawl_signal_cb, SIGTERM);
	*out = cr;
	cr = NULL;
	rc = 0;
out:
	if (cr != NULL)
		crawl_free(cr);
	return rc;
}
