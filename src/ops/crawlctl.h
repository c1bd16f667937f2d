/* The control socket of a running crawl (doc/formats.md, "Control socket"):
 * JOBDIR/control.sock, served on the crawl's own loop by src/net/ctlserver.c,
 * with the routes of crawlctl.c (status, reports, metrics, operator actions,
 * settings). The crawl command attaches it to a crawl that is open and
 * closes it when the crawl ends. */
#ifndef TERN_CRAWLCTL_H
#define TERN_CRAWLCTL_H

struct crawl;
struct crawlctl;

/* Listens on JOBDIR/control.sock on crawl_loop(cr), with the operator
 * console's pages, and on console.listen's TCP address when it is set. NULL
 * and *err if it cannot (a path too long for a unix socket, bind refused). */
struct crawlctl *crawlctl_start(struct crawl *cr, char **err);
/* Closes the socket, the console's listener and every connection; the loop
 * must run once more to finish closing. */
void crawlctl_close(struct crawlctl *cc);
/* The console's URL (with its token) once its TCP listener is open
 * (console.listen, or POST /listen from tern console), else NULL. */
const char *crawlctl_console_url(const struct crawlctl *cc);

#endif
