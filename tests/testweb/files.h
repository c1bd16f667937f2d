/* The synthetic web written to disk, for a static server nobody here wrote
 * (bench/run's nginx workloads). */
#ifndef TESTWEB_FILES_H
#define TESTWEB_FILES_H
#include "web.h"

/* Writes DIR/PORT/ for every host (PORT = port_base + host; w must have a
 * port_base), holding every URL reachable from the roots that is a file:
 * pages ("/" as index.html), private pages (robots-disallowed ones too, so
 * that a crawler ignoring robots.txt shows in the server's log), images,
 * the style sheet, and robots.txt. With gz, each text file also gets a gzip
 * copy NAME.gz (level 6) for nginx's gzip_static. Redirects and missing
 * pages are the server's configuration, not files. Returns the number of
 * files written, or -1 with a message in *err. */
long files_write(const struct web *w, const char *dir, unsigned port_base, int gz, char **err);

#endif
