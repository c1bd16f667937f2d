/* crawl.log lines as the console reads them (format: archive/crawllog.h):
 * the fields of one line, the host of its URI, and the console's filters
 * (status, host, MIME). Pure: no I/O; lines come from the caller. */
#ifndef TERN_LOGLINE_H
#define TERN_LOGLINE_H
#include <stddef.h>

enum logline_field {
	LOGLINE_TIME,
	LOGLINE_STATUS,
	LOGLINE_SIZE,
	LOGLINE_URI,
	LOGLINE_HOPS,
	LOGLINE_VIA,
	LOGLINE_MIME,
	LOGLINE_SLOT,
	LOGLINE_FETCH,
	LOGLINE_DIGEST,
	LOGLINE_SOURCE,
	LOGLINE_ANNOTATIONS,
	LOGLINE__COUNT
};

struct logline {
	const char *f[LOGLINE__COUNT]; /* into the line; absent trailing fields are "" */
	size_t n[LOGLINE__COUNT];
	int status;
};

/* Splits line (len bytes, a trailing newline allowed) into its fields. -1 for
 * a line that is not a crawl.log line (under 7 fields, or a status that is
 * not an integer). */
int logline_parse(const char *line, size_t len, struct logline *out);
/* The host of the line's URI (lowercase is not enforced; "dns:" lines give
 * the name looked up), without userinfo or port; 0 bytes when it has none. */
void logline_host(const struct logline *l, const char **host, size_t *len);

/* The console's filters; "" (or NULL) lets every line through.
 *   status: "200" or "-6" exactly, or a class "2xx".."5xx"
 *   host:   that host or one under it ("example.com" takes www.example.com)
 *   mime:   a prefix of the MIME field, any case */
struct logline_filter {
	const char *status, *host, *mime;
};
int logline_match(const struct logline *l, const struct logline_filter *f);

#endif
