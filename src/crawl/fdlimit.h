/* The process's file descriptor budget. A crawl holds a socket per
 * connection (busy or kept alive), at times a spill file per fetch, and a
 * set of descriptors besides: its logs, the WARC being written, the frontier
 * store (LevelDB's log, manifest, lock, compaction outputs, and up to a
 * fifth of the limit for the tables it reads), DNS sockets, and the control
 * socket with its connections. When sockets take them all, everything else
 * fails at random (the store cannot roll its log, a WARC cannot be opened),
 * so the limit is raised as far as the system allows at start and the
 * connections are capped to what the rest leaves. */
#ifndef TERN_FDLIMIT_H
#define TERN_FDLIMIT_H
#include <stdint.h>

/* Descriptors kept for everything but connections, under a limit of soft. */
uint64_t fdlimit_reserve(uint64_t soft);

/* The most connections a limit of soft leaves room for (each may need a
 * socket and a spill file), at most wanted; 0 when not even one fits. */
int fdlimit_connections(uint64_t soft, int wanted);

/* The sockets a limit of soft leaves to keep alive, idle, beside conns
 * connections in flight. */
uint64_t fdlimit_idle(uint64_t soft, int conns);

/* Raises RLIMIT_NOFILE's soft limit to the hard one (or as close as the
 * system allows) and gives the limit in force in *soft and the one found
 * in *before. 0, or -1 with *err set when the limit cannot be read. */
int fdlimit_raise(uint64_t *soft, uint64_t *before, char **err);

#endif
