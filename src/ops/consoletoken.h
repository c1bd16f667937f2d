/* The console's per-job secret: JOBDIR/console.token, 32 random bytes as 64
 * hex digits, created on first use with mode 0600 and kept for the job's
 * life, so a URL printed by `tern console` stays valid across resumes. */
#ifndef TERN_CONSOLETOKEN_H
#define TERN_CONSOLETOKEN_H

#include "ops/consolereq.h"

/* The job's token into out (NUL-terminated), created if missing. -1 and
 * *err when it cannot be created or read, or when the file is not the
 * caller's own, is readable by others, or does not hold a token (it is
 * then left alone for a person to look at). */
int consoletoken_get(const char *jobdir, char out[CONSOLEREQ_TOKEN_LEN + 1], char **err);

#endif
