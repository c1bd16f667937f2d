/* Request log lines are line-buffered: one write per request is cheap next
 * to serving it, and a test can read the log the moment curl returns. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>
#include <time.h>
#include "lib/xmalloc.h"
#include "reqlog.h"

struct reqlog {
	FILE *f;
};

struct reqlog *reqlog_open(const char *path, char **err)
{
	struct reqlog *l;
	FILE *f = fopen(path, "a");

	if (!f) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	l = xcalloc(1, sizeof(*l));
	l->f = f;
	return l;
}

double reqlog_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Keeps a line a line: tabs and newlines in client-sent text become '_'. */
static void reqlog_field(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputc('-', f);
		return;
	}
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? '_' : *s, f);
}

void reqlog_write(struct reqlog *l, double start_ms, double end_ms, const char *host,
    const char *path, int status, uint64_t body_bytes, uint64_t conn_id, const char *cond,
    const char *agent)
{
	if (!l)
		return;
	fprintf(l->f, "%.3f\t%.3f\t", start_ms, end_ms);
	reqlog_field(l->f, host);
	fputc('\t', l->f);
	reqlog_field(l->f, path);
	fprintf(l->f, "\t%d\t%" PRIu64 "\t%" PRIu64 "\t%s\t", status, body_bytes, conn_id, cond);
	reqlog_field(l->f, agent);
	fputc('\n', l->f);
}

void reqlog_close(struct reqlog *l)
{
	if (!l)
		return;
	fclose(l->f);
	free(l);
}
