/* The one way tern replaces a small file of a job (tern.conf, the reports,
 * a checkpoint's manifest, console.token, workers.json): the bytes go to a
 * temporary file in the same directory, which is fsynced, renamed over the
 * file (or linked to it, when it must not be replaced) and the directory
 * fsynced, so that a crash or a power cut leaves the old file or the new
 * one, whole, never a part of either (doc/HACKING.md, "Files").
 *
 * The mode: a file that is replaced keeps the mode it had (an operator who
 * made tern.conf 0600 keeps it so); a new one gets the mode asked for,
 * minus the umask. Files that hold a secret ask for 0600. */
#ifndef TERN_SMALLFILE_H
#define TERN_SMALLFILE_H
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define SMALLFILE_MODE 0644	   /* an ordinary file of a job */
#define SMALLFILE_MODE_SECRET 0600 /* a file that holds a secret */

struct smallfile;

/* Replaces path with the len bytes of data. 0, or -1 with *err set (the
 * path and the reason); on failure no temporary file is left and path is
 * as it was (unless only the directory's fsync failed: then it is new). */
int smallfile_replace(const char *path, const void *data, size_t len, mode_t mode, char **err);
/* Creates path with data unless it exists: 0 if this call made it, 1 if
 * it was there already (made by another process, maybe just now; its
 * bytes are left alone), -1 with *err. */
int smallfile_create(const char *path, const void *data, size_t len, mode_t mode, char **err);

/* The same for bytes written through a stdio stream: smallfile_open gives
 * the stream, smallfile_commit replaces path with what was written (and
 * frees sf, on failure too), smallfile_abort drops it. */
struct smallfile *smallfile_open(const char *path, mode_t mode, char **err);
FILE *smallfile_fp(struct smallfile *sf);
int smallfile_commit(struct smallfile *sf, char **err);
void smallfile_abort(struct smallfile *sf);

#endif
