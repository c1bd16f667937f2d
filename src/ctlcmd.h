/* `tern ctl JOBDIR COMMAND [ARGS]`: steers a running crawl through its
 * control socket (tern(1), doc/formats.md "Control socket"). */
#ifndef TERN_CTLCMD_H
#define TERN_CTLCMD_H

/* argv[0] is "ctl". Returns the exit status. */
int ctlcmd_run(int argc, char **argv);

#endif
