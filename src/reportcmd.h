/* `tern report JOBDIR [frontier|queues|hosts|stats|revisits] [--json] [--state S]`:
 * the reports of doc/formats.md, live or offline. */
#ifndef TERN_REPORTCMD_H
#define TERN_REPORTCMD_H

/* argv[0] is "report". Returns the exit status. */
int reportcmd_run(int argc, char **argv);

#endif
