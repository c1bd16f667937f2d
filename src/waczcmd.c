/* `tern wacz` (waczcmd.h): option parsing, and what a person is told about
 * the package written: its size, what it holds, and how to open it. */
#include <build-config.h>

#include "waczcmd.h"
#include "archive/wacz.h"
#include "crawl/extract.h"
#include "crawl/job.h"
#include "lib/buf.h"
#include "lib/config.h"
#include "lib/xmalloc.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char waczcmd_usage[] =
    "usage: tern wacz JOBDIR [-o FILE.wacz] [-t TITLE] [--description TEXT]\n"
    "                 [--index compressed|plain]\n";

static const char waczcmd_help[] =
    "Package the job's WARCs as one WACZ file (ReplayWeb.page, pywb, Browsertrix).\n"
    "\n"
    "  -o FILE.wacz         where to write it (default JOBDIR/NAME.wacz)\n"
    "  -t TITLE             its title (default warc.wacz-title, else the seeds' host)\n"
    "  --description TEXT   its description, Markdown (default warc.wacz-description)\n"
    "  --index FORM         compressed (default) or plain: the CDXJ index's form\n"
    "  -h, --help           this help\n";

/* What the command line asks of the package; NULL: the job's settings. */
struct waczcmd_opts {
	const char *out;
	const char *title;
	const char *description;
	enum wacz_index index;
};

/* SIGINT or SIGTERM: the package is abandoned and its temporary files
 * removed (not left, gigabytes of them, by the default action). */
static volatile sig_atomic_t waczcmd_stop;

static void waczcmd_signal(int sig)
{
	(void)sig;
	waczcmd_stop = 1;
}

static void waczcmd_ignore_link(void *arg, const struct extract_link *l)
{
	(void)arg;
	(void)l;
}

/* A page's title for WARCs without the crawl's: the crawl's own HTML
 * extractor, as the crawl would have kept it (src/crawl/extract.c). */
static void waczcmd_title(void *arg, const char *html, size_t len, struct buf *title)
{
	struct extract **x = arg;

	if (*x == NULL)
		*x = extract_new(EXTRACT_HTML, NULL, waczcmd_ignore_link, NULL);
	else
		extract_reset(*x, NULL);
	extract_feed(*x, html, len);
	extract_finish(*x);
	buf_appends(title, extract_title(*x));
}

/* The job's settings (warc.wacz-title, warc.wacz-description): its
 * tern.conf, or for a --workers job the first worker's. A directory
 * without one (WARCs of another crawler) has the defaults. */
static struct config *waczcmd_job_config(const char *jobdir)
{
	struct config *cfg = config_new();
	const char *names[] = {"tern.conf", "w0/tern.conf"};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *path = xasprintf("%s/%s", jobdir, names[i]), *err = NULL;
		int rc = -1;
		if (access(path, F_OK) == 0 && (rc = job_config_load(cfg, path, &err)) < 0) {
			fprintf(stderr, "tern: wacz: %s (its settings are not used)\n", err);
			free(err);
			config_free(cfg);
			cfg = config_new();
		}
		free(path);
		if (rc == 0)
			break;
	}
	return cfg;
}

static int waczcmd_package(const char *jobdir, const struct waczcmd_opts *co)
{
	struct extract *x = NULL;
	struct config *cfg = waczcmd_job_config(jobdir);
	struct wacz_opts o = {
	    .jobdir = jobdir,
	    .out = co->out,
	    .software = "tern/" PACKAGE_VERSION,
	    .notes = stderr,
	    .title = waczcmd_title,
	    .title_arg = &x,
	    .stop = &waczcmd_stop,
	    .index = co->index,
	    .package_title = co->title != NULL ? co->title : config_str(cfg, CK_WARC_WACZ_TITLE),
	    .description = co->description != NULL ? co->description
						   : config_str(cfg, CK_WARC_WACZ_DESCRIPTION),
	};
	struct sigaction sa, old_int, old_term;
	struct wacz_result r;
	char *err = NULL;
	int rc;

	/* No SA_RESTART: a read blocked on a slow file ends at once. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = waczcmd_signal;
	sigemptyset(&sa.sa_mask);
	waczcmd_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = wacz_write(&o, &r, &err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	extract_free(x);
	config_free(cfg);
	if (rc < 0) {
		fprintf(stderr, "tern: wacz: %s\n", err);
		free(err);
		return 1;
	}
	printf("tern: wacz: %s: %.1f MB, %zu WARC file%s (%.1f MB), %zu captures, %zu pages "
	       "(%zu titles kept by the crawl, %zu read from the pages)\n",
	    r.path, (double)r.bytes / 1e6, r.warcs, r.warcs == 1 ? "" : "s",
	    (double)r.warc_bytes / 1e6, r.captures, r.pages.pages, r.pages.titles_kept,
	    r.pages.titles_parsed);
	if (r.pages.seeds_missing > 0)
		printf("tern: wacz: %zu seed%s with no capture, not listed as pages\n",
		    r.pages.seeds_missing, r.pages.seeds_missing == 1 ? "" : "s");
	printf("tern: wacz: open it in ReplayWeb.page (https://replayweb.page/, or served "
	       "beside it: index.html?source=URL-OF-THE-FILE)\n");
	wacz_result_free(&r);
	return 0;
}

int waczcmd_after_crawl(const char *jobdir)
{
	struct waczcmd_opts co = {NULL, NULL, NULL, WACZ_INDEX_COMPRESSED};

	return waczcmd_package(jobdir, &co);
}

int waczcmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"title", required_argument, NULL, 't'},
	    {"description", required_argument, NULL, 'd'},
	    {"index", required_argument, NULL, 'i'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct waczcmd_opts co = {NULL, NULL, NULL, WACZ_INDEX_COMPRESSED};
	char *err = NULL;
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:t:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			co.out = optarg;
			break;
		case 't':
			co.title = optarg;
			break;
		case 'd':
			co.description = optarg;
			break;
		case 'i':
			if (strcmp(optarg, "plain") == 0) {
				co.index = WACZ_INDEX_PLAIN;
			} else if (strcmp(optarg, "compressed") == 0) {
				co.index = WACZ_INDEX_COMPRESSED;
			} else {
				fprintf(stderr,
				    "tern: wacz: --index is compressed or plain, not '%s'\n",
				    optarg);
				return 2;
			}
			break;
		case 'h':
			printf("%s%s", waczcmd_usage, waczcmd_help);
			return 0;
		default:
			fputs(waczcmd_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(waczcmd_usage, stderr);
		return 2;
	}
	if (job_check_dir(argv[optind], &err) < 0) {
		fprintf(stderr, "tern: wacz: %s\n", err);
		free(err);
		return 2;
	}
	return waczcmd_package(argv[optind], &co);
}
