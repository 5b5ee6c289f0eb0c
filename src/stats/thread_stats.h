/*
 * What a thread's statistics hold (stats.h works on them): apart from the
 * functions, so fio's logs (fiolog.c), which read the counters, need
 * nothing that needs the logs.
 */
#ifndef IOGAUGE_THREAD_STATS_H
#define IOGAUGE_THREAD_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include "model/ops.h"
struct hist;   /* stats/hist.h */
struct fiolog; /* fio's logs (stats/fiolog.h): only pointed to here */

struct lat_stats {
	uint64_t n, min, max, sum;
	unsigned __int128 sumsq; /* exact: mean and stddev without rounding drift */
	struct hist *h;          /* NULL: never measured (allocated before the run, not in it) */
};

struct op_stats {
	uint64_t ios, bytes;
	struct lat_stats slat, clat, lat;
};

/* Cumulative totals at the end of each one-second interval (data directions). */
struct series_pt {
	uint64_t ios[DDIR_NR], bytes[DDIR_NR], lat_sum[DDIR_NR];
	uint64_t lat_max[DDIR_NR]; /* max within the interval */
	uint64_t t_ns;             /* end of the interval, from the measure start */
};

struct series {
	struct series_pt *pts;
	unsigned n, cap;
	uint64_t interval_ns;
};

struct cpu_usage {
	uint64_t usr_ns, sys_ns, ctx; /* ctx: voluntary + involuntary switches */
	uint64_t majf, minf;          /* page faults (getrusage) */
};

/* fio's queue-depth distributions' buckets (depth_bucket, batch_bucket: stats.h). */
#define DEPTH_BUCKETS 7

/* cmdprio: the latency of one I/O priority's requests (clat, or lat with lat_percentiles, as fio). */
struct prio_lat {
	uint16_t ioprio;
	struct lat_stats lat;
};

struct thread_stats {
	struct op_stats op[IO_OP_NR];
	struct prio_lat *prio[DDIR_NR]; /* cmdprio: per priority, [0] the job's default; NULL: none */
	unsigned nprio[DDIR_NR];
	struct series series;
	struct fiolog *log;   /* fio's logs of this thread; NULL: none (never merged) */
	struct cpu_usage cpu;
	uint64_t depth[DEPTH_BUCKETS], submit[DEPTH_BUCKETS], complete[DEPTH_BUCKETS];
	uint64_t elapsed_ns;  /* measured time (after ramp, without cache invalidations) */
	/*
	 * --verify's read-backs at the end of each loop and of the job (fio's
	 * verify phase): their time, not in elapsed_ns, and their reads, which
	 * are in op[IO_READ] as fio counts them.
	 */
	uint64_t verify_ns, verify_ios;
	uint64_t invalidations, invalidate_ns; /* between passes of buffered time-based jobs */
	uint64_t prepared_items, prepare_ns;   /* file ops: items made before the job (not timed) */
	/* continue_on_error: the errors gone past, per operation, and the first one's errno. */
	uint64_t errs[IO_OP_NR];
	/* Requests that failed and ended the job (fill_device's ENOSPC too): fio counts them in total_ios. */
	uint64_t failed[IO_OP_NR];
	int first_error;
	int err;              /* errno of the first error, 0 if none */
	uint64_t err_offset;
	int err_op;           /* enum io_op or ERR_OP_*: what failed */
	char err_file[PATH_MAX];
	bool short_io;        /* err came from a short transfer, not errno */
	uint32_t short_got, short_len; /* short_io: bytes moved of the request's length */
	bool interrupted;     /* stopped by a signal */
	bool halted;          /* stopped because another rank asked every rank to stop */
	uint64_t left_bytes;  /* a size-bound job stopped early: bytes it had not yet issued */
	unsigned lat_depth;   /* latency_target: the queue depth found (0: no target) */
	uint64_t overlap_held; /* serialize_overlap: times a batch was cut short by an overlap in flight */
};

#endif
