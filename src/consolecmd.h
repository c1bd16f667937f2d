/* `tern console JOBDIR [--listen ADDR:PORT]`: the operator console's URL
 * from the running crawl, or the console served offline by this process
 * (tern(1), console). */
#ifndef TERN_CONSOLECMD_H
#define TERN_CONSOLECMD_H

/* argv[0] is "console". Returns the exit status. */
int consolecmd_run(int argc, char **argv);

#endif
