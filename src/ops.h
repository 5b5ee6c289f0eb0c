/*
 * The kinds of operation the runner times.  Statistics are indexed by them;
 * the data directions (read, write) come first and also get a time series.
 * File operations (create, stat, open, unlink, mkdir, rmdir) take their
 * places after the syncs when the runner learns them.
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
	IO_OP_NR
};

/* Directions with bytes and a per-second series: read and write. */
#define DDIR_NR 2

/* "read", "write", "trim", "fsync", "fdatasync": JSON keys and text labels. */
extern const char *const io_op_names[IO_OP_NR];

static inline bool io_op_is_data(int op)
{
	return op == IO_READ || op == IO_WRITE || op == IO_TRIM;
}

#endif
