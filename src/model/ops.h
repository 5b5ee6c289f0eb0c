/*
 * The kinds of operation the runner times.  Statistics are indexed by them;
 * the data directions (read, write) come first and also get a time series.
 * File operations (create, stat, open-read-close, unlink, mkdir, rmdir)
 * follow the syncs: each request is one item of a tree of files
 * (engines/fileops.c), with the same statistics as a block request.
 */
#ifndef IOGAUGE_OPS_H
#define IOGAUGE_OPS_H

#include <stdbool.h>

enum io_op {
	IO_READ = 0,
	IO_WRITE,
	IO_TRIM,
	IO_FSYNC,
	IO_FDATASYNC,
	IO_CREATE, /* open(O_CREAT|O_EXCL), write the file's bytes, close */
	IO_STAT,
	IO_OPEN,   /* open, read the file's bytes, close */
	IO_UNLINK,
	IO_MKDIR,
	IO_RMDIR,
	IO_OP_NR
};

/* Directions with bytes and a per-second series: read and write. */
#define DDIR_NR 2

/* "read", "write", "trim", "fsync", "fdatasync", "create", ...: JSON keys and text labels. */
extern const char *const io_op_names[IO_OP_NR];

static inline bool io_op_is_data(int op)
{
	return op == IO_READ || op == IO_WRITE || op == IO_TRIM;
}

static inline bool io_op_is_file(int op)
{
	return op >= IO_CREATE && op < IO_OP_NR;
}

#endif
