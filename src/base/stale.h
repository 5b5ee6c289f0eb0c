/*
 * Test files a killed iogauge left behind.  Every file iogauge creates
 * carries the extended attribute IOGAUGE_XATTR naming the process that
 * created it ("1 pid=N start=T boot=B"); --keep turns it into "1 kept".  A
 * later run in the same directory removes a file only when all three hold:
 * its name is one iogauge gives (NAME.JOB.THREAD for run, iogauge-CMD.PID.N.tmp
 * for the suites), it carries the marker, and the process the marker names
 * is gone.  A file set's directory (--fileop: NAME.files for run,
 * iogauge-CMD.PID.N.files for the suites) carries the marker too, and goes
 * with everything in it under the same three rules.  Nothing else is ever
 * touched.
 */
#ifndef IOGAUGE_STALE_H
#define IOGAUGE_STALE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/marker.h"

/* The marker for files this process creates. */
void stale_marker(char *buf, size_t len);
/* Is value (n bytes) an iogauge marker? */
bool stale_is_marker(const char *value, size_t n);

struct stale_file {
	const char *path;
	int pid;   /* the process that created it */
	bool tree; /* a file set's directory, removed with what it holds */
};
/*
 * Remove the stale test files in dir; calls said(arg, ...) for each one
 * removed, before it is unlinked.  Returns how many, or -1 when dir cannot be
 * read (nothing to do then).
 */
int stale_sweep(const char *dir, void (*said)(void *arg, const struct stale_file *f), void *arg);
/*
 * One file the user named (--filename, a file per rank): a regular file with
 * the marker of a process that is gone; *pid is that process.
 */
bool stale_path(const char *path, int *pid);
/* The same for a file set's directory (--fileop's root, not followed through a link). */
bool stale_tree(const char *path, int *pid);

#endif
