/* The job directory of tern(1), JOB DIRECTORY: created for a new crawl (refusing
 * one that already holds a crawl's state), checked before a resume, and the
 * small file operations the crawl's outputs need. */
#ifndef TERN_JOB_H
#define TERN_JOB_H
#include <stddef.h>

struct config;

/* Creates JOBDIR and its subdirectories and writes JOBDIR/tern.conf (the
 * effective configuration). An existing job directory with state is refused
 * with a message pointing at `tern resume`, and so is a directory holding
 * files that are not a job's. */
int job_create(const char *dir, const struct config *cfg, char **err);
/* 0 if no other process holds the job's store; else -1 and *err naming
 * the process that does (its pid and command line: an offline `tern
 * console`, a `tern report`, another crawl). */
int job_check_unlocked(const char *dir, char **err);
/* 0 for a directory that holds a job (its tern.conf, a --workers job's
 * workers.json, or its warcs/); else -1 and *err saying what dir is instead. Every command
 * that takes a JOBDIR asks it first, so that a wrong one gets one message
 * and exit status 2 whatever the command. */
int job_check_dir(const char *dir, char **err);
/* A job directory that `tern resume` can continue. */
int job_check_resumable(const char *dir, char **err);
/* Reads a configuration file (a job's tern.conf, or crawl -c FILE) over
 * cfg's current values; errors name the file and line. */
int job_config_load(struct config *cfg, const char *path, char **err);
/* Writes the effective configuration as JOBDIR/tern.conf (a new job, a
 * setting changed mid-crawl or on resume), replacing the file whole and
 * durably (archive/smallfile.h), keeping its mode. */
int job_config_save(const char *dir, const struct config *cfg, char **err);
/* A log the crawl appends to may end in a line cut short by a kill: cuts
 * the file back to its last newline (that line's URI is not yet marked done
 * in the frontier, so it is logged again when fetched again). Returns the
 * bytes removed, 0 for a missing or whole file, negative on an error. */
long job_log_repair(const char *path);
/* The highest WARC serial among DIR's files (PREFIX-TIMESTAMP-SERIAL-...),
 * or 0 when there are none. */
unsigned job_max_warc_serial(const char *dir);

#endif
