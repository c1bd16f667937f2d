/* tern's command line: the subcommand table of tern(1), option
 * parsing shared by the subcommands, and the configuration they run with. */
#include <build-config.h>

#include "lib/config.h"
#include "crawl/crawl.h"
#include "consolecmd.h"
#include "crawlcmd.h"
#include "crawl/job.h"
#include "ctlcmd.h"
#include "fetchcmd.h"
#include "precloadcmd.h"
#include "reportcmd.h"
#include "waczcmd.h"
#include "archive/warcindex.h"
#include "lib/nearest.h"
#include "lib/xmalloc.h"
#include "workers.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char main_usage[] =
    "usage: tern COMMAND [ARGS]\n"
    "\n"
    "  crawl  [-c FILE] [-j JOBDIR] [-s SEEDFILE] [--local] [--set KEY=VALUE]...\n"
    "         [URL]...        crawl from seeds into a new job directory (--local: a\n"
    "                         site of your own, without politeness delays)\n"
    "         [--cluster URL --crawl-id NAME] [--workers N]\n"
    "                         share one crawl with other nodes over NATS JetStream,\n"
    "                         or run N local processes sharing it (doc/cluster.md)\n"
    "  resume JOBDIR [--checkpoint NAME|latest] [-c FILE] [--local]\n"
    "         [--set KEY=VALUE]...\n"
    "                         continue a job (no --checkpoint: from the live state),\n"
    "                         with settings changed for it and the rest of the job\n"
    "  report JOBDIR [frontier|queues|hosts|stats|revisits|rules|cluster] [--json]\n"
    "                         frontier and crawl reports, live or from the store\n"
    "  ctl    JOBDIR (status|pause|unpause|checkpoint|stop|report|reconsider-retired|\n"
    "                         set KEY=VALUE...|metrics)\n"
    "                         control a running crawl through JOBDIR/control.sock\n"
    "  precedence-load FILE JOBDIR\n"
    "                         import lines \"URI PRECEDENCE\" for the preloaded policy\n"
    "  fetch  [--set KEY=VALUE]... URL\n"
    "                         one fetch through the real engine: status, headers,\n"
    "                         timings\n"
    "  warc-index JOBDIR      CDXJ index of the job's WARCs\n"
    "  wacz   JOBDIR [-o FILE.wacz] [-t TITLE] [--description TEXT]\n"
    "         [--index FORM]  the job as one WACZ package: WARCs, index, pages\n"
    "                         (ReplayWeb.page)\n"
    "  console JOBDIR [--listen ADDR:PORT]\n"
    "                         the operator web console: prints its URL (with its\n"
    "                         token)\n"
    "  --version | --help\n"
    "\n"
    "`tern COMMAND --help` lists a command's options. Configuration keys are\n"
    "listed in tern.conf(5); --set section.key=value overrides any of them.\n";

/* Loads each -c FILE in order (a later file's keys win; its rules come
 * after the earlier files'), then applies every --set in order. Exit
 * status 2 on any error, with the file, line and key named by the config
 * module. */
static int main_load_configs(
    struct config *cfg, char **files, size_t nfiles, char **sets, size_t nsets)
{
	char *err = NULL;

	for (size_t i = 0; i < nfiles; i++)
		if (job_config_load(cfg, files[i], &err) < 0) {
			fprintf(stderr, "tern: %s\n", err);
			free(err);
			return 2;
		}
	for (size_t i = 0; i < nsets; i++) {
		if (config_set(cfg, sets[i], &err) < 0) {
			fprintf(stderr, "tern: %s\n", err);
			free(err);
			return 2;
		}
	}
	return 0;
}

/* main_load_configs with one -c FILE, or none (NULL). */
static int main_load_config(struct config *cfg, const char *file, char **sets, size_t nsets)
{
	char *files[1] = {(char *)file};

	return main_load_configs(cfg, files, file != NULL ? 1 : 0, sets, nsets);
}

/* Each command's --help: its usage, then every option on one line, as
 * tern(1) lists them under OPTIONS (tests/help.sh compares the two). */
#define MAIN_FETCH_USAGE "usage: tern fetch [--set KEY=VALUE]... URL\n"
static const char main_fetch_usage[] = MAIN_FETCH_USAGE;
static const char main_fetch_help[] = MAIN_FETCH_USAGE
    "One fetch through the real engine: status, headers, timings and sizes.\n"
    "\n"
    "  --set KEY=VALUE      set a configuration key (section.key=value); repeatable\n"
    "  -h, --help           this help\n";

static int main_fetch(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 'S'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	char **sets = xcalloc((size_t)argc, sizeof *sets);
	size_t nsets = 0;
	struct config *cfg;
	int ch, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'S':
			sets[nsets++] = optarg;
			break;
		case 'h':
			fputs(main_fetch_help, stdout);
			free(sets);
			return 0;
		default:
			fputs(main_fetch_usage, stderr);
			free(sets);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(main_fetch_usage, stderr);
		free(sets);
		return 2;
	}
	cfg = config_new();
	rc = main_load_configs(cfg, NULL, 0, sets, nsets);
	if (rc == 0)
		rc = fetchcmd_run(cfg, argv[optind]);
	config_free(cfg);
	free(sets);
	return rc;
}

static const char main_crawl_usage[] =
    "usage: tern crawl [-c FILE] [-j JOBDIR] [-s SEEDFILE] [--local] [--set KEY=VALUE]...\n"
    "                  [--cluster URL --crawl-id NAME] [--workers N] [URL]...\n";

static const char main_crawl_help[] =
    "Crawl from the seed URLs into a new job directory.\n"
    "\n"
    "  -c FILE              read a configuration file (tern.conf(5)); repeatable\n"
    "  -j JOBDIR            the job directory, new or empty (default tern-job-DATE)\n"
    "  -s SEEDFILE          read seeds from SEEDFILE: one URL a line, # comments\n"
    "  --local              a site of your own: no politeness delays (tern(1))\n"
    "  --set KEY=VALUE      set a configuration key (section.key=value); repeatable\n"
    "  --cluster URL        join a cluster crawl over NATS (--set cluster.url=URL)\n"
    "  --crawl-id NAME      the cluster crawl's name (--set cluster.crawl-id=NAME)\n"
    "  --workers N          run N local processes sharing the crawl (needs -j)\n"
    "  -h, --help           this help\n";

static const char main_resume_usage[] =
    "usage: tern resume JOBDIR [--checkpoint NAME|latest] [-c FILE] [--local]\n"
    "                   [--set KEY=VALUE]...\n";

static const char main_resume_help[] =
    "Continue a job from its live state, or from one of its checkpoints.\n"
    "\n"
    "  --checkpoint NAME    restore checkpoint NAME (or the latest) first\n"
    "  -c FILE              read settings from FILE over the job's tern.conf\n"
    "  --local              a site of your own: no politeness delays from now on\n"
    "  --set KEY=VALUE      change a configuration key (section.key=value) for the\n"
    "                       rest of the job, in JOBDIR/tern.conf; repeatable\n"
    "  -h, --help           this help\n";

static const char main_warc_index_help[] =
    "usage: tern warc-index JOBDIR\n"
    "Write a CDXJ index of the job's WARC files to standard output.\n"
    "\n"
    "  -h, --help           this help\n";

static int main_crawl(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 'S'},
	    {"cluster", required_argument, NULL, 'U'},
	    {"crawl-id", required_argument, NULL, 'I'},
	    {"workers", required_argument, NULL, 'W'},
	    {"local", no_argument, NULL, 'L'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	/* --cluster and --crawl-id are --set cluster.url= and
	 * cluster.crawl-id=, applied after the others; --local's settings
	 * come before them all, so that any --set overrides them. */
	size_t nlocal = 0;
	char **sets, **confs, *url = NULL, *id = NULL;
	size_t nsets = 0, nuser, nconfs = 0;
	int local = 0;
	const char *jobdir = NULL, *seedfile = NULL;
	struct config *cfg;
	long workers = 0;
	int ch, rc;

	while (crawlcmd_local_sets[nlocal] != NULL)
		nlocal++;
	sets = xcalloc((size_t)argc + 2 + nlocal, sizeof *sets);
	confs = xcalloc((size_t)argc, sizeof *confs);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:j:s:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			confs[nconfs++] = optarg;
			break;
		case 'j':
			jobdir = optarg;
			break;
		case 's':
			seedfile = optarg;
			break;
		case 'S':
			sets[nsets++] = optarg;
			break;
		case 'L':
			local = 1;
			break;
		case 'U':
			free(url);
			url = xasprintf("cluster.url=%s", optarg);
			break;
		case 'I':
			free(id);
			id = xasprintf("cluster.crawl-id=%s", optarg);
			break;
		case 'W': {
			char *end;
			workers = strtol(optarg, &end, 10);
			if (*end != '\0' || workers < 1 || workers > 256) {
				fprintf(stderr,
				    "tern: crawl: --workers: '%s' is not a number of processes "
				    "from 1 to 256\n",
				    optarg);
				free(sets);
				free(confs);
				free(url);
				free(id);
				return 2;
			}
			break;
		}
		case 'h':
			printf("%s%s", main_crawl_usage, main_crawl_help);
			free(sets);
			free(confs);
			free(url);
			free(id);
			return 0;
		default:
			fputs(main_crawl_usage, stderr);
			free(sets);
			free(confs);
			free(url);
			free(id);
			return 2;
		}
	}
	if (local) {
		memmove(sets + nlocal, sets, nsets * sizeof *sets);
		for (size_t i = 0; i < nlocal; i++)
			sets[i] = (char *)crawlcmd_local_sets[i];
		nsets += nlocal;
	}
	nuser = nsets;
	if (url != NULL)
		sets[nsets++] = url;
	if (id != NULL)
		sets[nsets++] = id;
	cfg = config_new();
	rc = main_load_configs(cfg, confs, nconfs, sets, nsets);
	if (rc == 0 && workers > 0) {
		struct workers_opts wo;
		memset(&wo, 0, sizeof wo);
		if (jobdir == NULL) {
			fprintf(stderr, "tern: crawl: --workers needs -j JOBDIR\n");
			rc = 2;
		} else {
			wo.jobdir = jobdir;
			wo.n = (unsigned)workers;
			wo.url = config_str(cfg, CK_CLUSTER_URL);
			wo.crawl_id = config_str(cfg, CK_CLUSTER_CRAWL_ID);
			wo.confs = confs;
			wo.nconfs = nconfs;
			wo.sets = sets;
			wo.nsets = nuser;
			wo.seedfile = seedfile;
			wo.seeds = argv + optind;
			wo.nseeds = (size_t)(argc - optind);
			wo.wacz =
			    config_bool(cfg, CK_WARC_WACZ) && config_bool(cfg, CK_WARC_ENABLED);
			rc = workers_run(&wo);
		}
	} else if (rc == 0) {
		/* A cluster node may start with no seeds and take its share of
		 * the others'. */
		if (seedfile == NULL && optind == argc &&
		    config_str(cfg, CK_CLUSTER_URL)[0] == '\0') {
			fprintf(stderr, "tern: crawl: no seeds: give URLs or -s SEEDFILE\n%s",
			    main_crawl_usage);
			rc = 2;
		} else {
			struct crawl_opts o;
			char *defjob = NULL;
			if (jobdir == NULL) {
				char stamp[32];
				time_t now = time(NULL);
				strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", gmtime(&now));
				jobdir = defjob = xasprintf("tern-job-%s", stamp);
			}
			memset(&o, 0, sizeof o);
			o.jobdir = jobdir;
			o.seeds = argv + optind;
			o.nseeds = (size_t)(argc - optind);
			o.seedfile = seedfile;
			rc = crawlcmd_run(cfg, &o);
			free(defjob);
		}
	}
	config_free(cfg);
	free(sets);
	free(confs);
	free(url);
	free(id);
	return rc;
}

/* Refuses a change, by -c or --set on resume, to a key a job keeps for
 * its life (config_key_for_job); 0 if there is none. */
static int main_resume_check(const struct config *was, const struct config *now)
{
	for (int k = 0; k < CK__COUNT; k++) {
		const char *why = config_key_for_job(config_name(k));
		if (why != NULL && strcmp(config_text(was, k), config_text(now, k)) != 0) {
			fprintf(stderr,
			    "tern: resume: %s cannot change for a job (%s): it stays %s; "
			    "start a new job with `tern crawl` to use %s\n",
			    config_name(k), why, config_text(was, k), config_text(now, k));
			return 2;
		}
	}
	return 0;
}

static int main_resume(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"checkpoint", required_argument, NULL, 'C'},
	    {"set", required_argument, NULL, 'S'},
	    {"local", no_argument, NULL, 'L'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *checkpoint = NULL, *file = NULL;
	size_t nsets = 0, nlocal = 0;
	char **sets;
	struct crawl_opts o;
	struct config *cfg = NULL, *was = NULL;
	char *conf = NULL, *err = NULL;
	int ch, rc;

	/* --local's settings come first, so that any --set overrides them. */
	while (crawlcmd_local_sets[nlocal] != NULL)
		nlocal++;
	sets = xcalloc((size_t)argc + 1 + nlocal, sizeof *sets);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'C':
			checkpoint = optarg;
			break;
		case 'c':
			file = optarg;
			break;
		case 'L':
			if (nsets > 0 && sets[0] == crawlcmd_local_sets[0])
				break;
			memmove(sets + nlocal, sets, nsets * sizeof *sets);
			for (size_t i = 0; i < nlocal; i++)
				sets[i] = (char *)crawlcmd_local_sets[i];
			nsets += nlocal;
			break;
		case 'S':
			sets[nsets++] = optarg;
			break;
		case 'h':
			printf("%s%s", main_resume_usage, main_resume_help);
			free(sets);
			return 0;
		default:
			fputs(main_resume_usage, stderr);
			free(sets);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(main_resume_usage, stderr);
		free(sets);
		return 2;
	}
	if (workers_dir(argv[optind], NULL)) {
		/* A --workers job: its server and every worker start again,
		 * each worker resuming with the same changes. */
		struct workers_opts wo;
		if (checkpoint != NULL) {
			fprintf(stderr,
			    "tern: resume: --checkpoint applies to one worker: "
			    "tern resume %s/wN --checkpoint NAME\n",
			    argv[optind]);
			free(sets);
			return 2;
		}
		memset(&wo, 0, sizeof wo);
		wo.jobdir = argv[optind];
		wo.resume = 1;
		wo.confs = (char *const *)&file;
		wo.nconfs = file != NULL ? 1 : 0;
		wo.sets = sets;
		wo.nsets = nsets;
		rc = workers_run(&wo);
		free(sets);
		return rc;
	}
	/* The wiring always comes from the job's (possibly edited) tern.conf,
	 * then -c FILE and --set over it, kept there for the rest of the job. */
	cfg = config_new();
	conf = xasprintf("%s/tern.conf", argv[optind]);
	if (job_check_dir(argv[optind], &err) < 0 || job_check_resumable(argv[optind], &err) < 0) {
		fprintf(stderr, "tern: resume: %s\n", err);
		rc = 2;
		goto out;
	}
	rc = main_load_config(cfg, conf, NULL, 0);
	if (rc == 0 && (file != NULL || nsets > 0)) {
		was = config_new();
		rc = main_load_config(was, conf, NULL, 0);
		if (rc == 0)
			rc = main_load_config(cfg, file, sets, nsets);
		if (rc == 0)
			rc = main_resume_check(was, cfg);
		/* Not under a crawl running from it, whose tern.conf it is. */
		if (rc == 0 && job_check_unlocked(argv[optind], &err) < 0) {
			fprintf(stderr, "tern: %s\n", err);
			rc = 1;
		}
		if (rc == 0 && job_config_save(argv[optind], cfg, &err) < 0) {
			fprintf(stderr, "tern: resume: %s\n", err);
			rc = 1;
		}
	}
	if (rc == 0) {
		memset(&o, 0, sizeof o);
		o.jobdir = argv[optind];
		o.resume = 1;
		o.checkpoint = checkpoint;
		rc = crawlcmd_run(cfg, &o);
	}
out:
	free(err);
	free(conf);
	config_free(was);
	config_free(cfg);
	free(sets);
	return rc;
}

/* ctl and report on a --workers job act through its worker 0 (actions
 * reach the other workers through the cluster). */
static int main_via_workers(int argc, char **argv, int (*run)(int argc, char **argv))
{
	char *first = NULL;
	int rc;

	if (argc < 2 || !workers_dir(argv[1], &first))
		return run(argc, argv);
	argv[1] = first;
	rc = run(argc, argv);
	free(first);
	return rc;
}

static int main_report(int argc, char **argv)
{
	return main_via_workers(argc, argv, reportcmd_run);
}

static int main_console(int argc, char **argv)
{
	return consolecmd_run(argc, argv);
}

static int main_ctl(int argc, char **argv)
{
	return main_via_workers(argc, argv, ctlcmd_run);
}

static int main_precedence_load(int argc, char **argv)
{
	return precloadcmd_run(argc, argv);
}

static int main_warc_index(int argc, char **argv)
{
	char *err = NULL;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(main_warc_index_help, stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: tern warc-index JOBDIR\n");
		return 2;
	}
	if (job_check_dir(argv[1], &err) < 0) {
		fprintf(stderr, "tern: warc-index: %s\n", err);
		free(err);
		return 2;
	}
	if (warcindex_run(argv[1], stdout, stderr, &err) < 0) {
		fprintf(stderr, "tern: warc-index: %s\n", err);
		free(err);
		return 1;
	}
	return 0;
}

struct main_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
};

static const struct main_cmd main_cmds[] = {
    {"crawl", main_crawl},
    {"resume", main_resume},
    {"report", main_report},
    {"ctl", main_ctl},
    {"precedence-load", main_precedence_load},
    {"fetch", main_fetch},
    {"warc-index", main_warc_index},
    {"wacz", waczcmd_run},
    {"console", main_console},
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(main_usage, stderr);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("tern %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		fputs(main_usage, stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof main_cmds / sizeof main_cmds[0]; i++)
		if (strcmp(argv[1], main_cmds[i].name) == 0)
			return main_cmds[i].run(argc - 1, argv + 1);
	{
		const char *names[sizeof main_cmds / sizeof main_cmds[0]], *near;
		for (size_t i = 0; i < sizeof main_cmds / sizeof main_cmds[0]; i++)
			names[i] = main_cmds[i].name;
		near = nearest_word(argv[1], names, sizeof names / sizeof names[0]);
		if (near != NULL) {
			fprintf(stderr, "tern: unknown command '%s'; did you mean '%s'?\n", argv[1],
			    near);
			return 2;
		}
	}
	fprintf(stderr, "tern: unknown command '%s'\n\n", argv[1]);
	fputs(main_usage, stderr);
	return 2;
}
