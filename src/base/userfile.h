/*
 * Files the user names for results (--output, --json, --html, report -o,
 * sweep -b, matrix's NAME_*.csv, fio's logs) and saved results read back
 * (compare, report).  An output is a regular file or a new path, never a
 * block device, FIFO, socket or directory (a symlink is followed only to a
 * regular file); an input is a regular file.  Nothing here blocks on a FIFO.
 */
#ifndef IOGAUGE_USERFILE_H
#define IOGAUGE_USERFILE_H

#include <stdbool.h>
#include <stdio.h>
#include "base/common.h"

/*
 * May `path` be written as an output?  A regular file, a new path, the null
 * or full device (writes go nowhere), or the file this process's stdout or
 * stderr already is (/dev/stdout, as "-").  0, or -1 with e set (status 2):
 * "OPT PATH: a block device, refused: ...".  Called before anything is
 * measured, for files written after the run.
 */
int outfile_check(const char *opt, const char *path, struct ig_err *e);
/*
 * Open `path` for writing (truncated, or appended to) by the same rule,
 * checked again on the open descriptor; NULL with e set (status 2).
 */
FILE *outfile_open(const char *opt, const char *path, bool append, struct ig_err *e);
/* Open `path` for reading: a regular file only; NULL with e set ("WHAT PATH: ...", status 2). */
FILE *infile_open(const char *what, const char *path, struct ig_err *e);

#endif
