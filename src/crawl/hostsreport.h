/* The hosts report (reports/hosts.txt): per host, what crawl.log says was
 * done there. Pure: lines in, report out; the caller reads the file.
 *
 * Text: a legend line, then one line per host, most URIs first:
 *   #urls #bytes host #robots-precluded #2xx #3xx #4xx #5xx #failed #dns
 * (hosts without their port; #urls counts final dispositions of the host's URIs, robots.txt included
 * and dns: lookups not; #bytes sums their size column; #failed counts
 * negative statuses other than -9998). JSON: one array of objects. */
#ifndef TERN_HOSTSREPORT_H
#define TERN_HOSTSREPORT_H
#include <stddef.h>

#include "lib/buf.h"

struct hostsreport;

struct hostsreport *hostsreport_new(void);
void hostsreport_free(struct hostsreport *h);
/* One crawl.log line (with or without its newline); lines that are not
 * crawl.log lines are counted as skipped and otherwise ignored. */
void hostsreport_add_line(struct hostsreport *h, const char *line, size_t len);
size_t hostsreport_hosts(const struct hostsreport *h);
size_t hostsreport_skipped(const struct hostsreport *h);
void hostsreport_write(const struct hostsreport *h, int json, struct buf *out);

/* One host's figures, as hostsreport_rows gives them. */
struct hostsreport_row {
	const char *name; /* the report's, valid until the next line added */
	uint64_t urls, bytes, precluded, cls[6], failed, dns;
};
/* Rows from..from+n-1 of the hosts in the order `by` names: "urls",
 * "bytes", "failed" (most first, then by name) or "name". Only from + n
 * hosts are kept while choosing (a bounded heap), so a page of a report of
 * a million hosts costs one pass over them. Returns the rows written. */
size_t hostsreport_rows(const struct hostsreport *h, const char *by, size_t from, size_t n,
    struct hostsreport_row *out);

#endif
