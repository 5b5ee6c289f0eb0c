/*
 * Per-thread statistics, written only by their own thread in the hot path
 * and merged after the threads are joined.
 */
#ifndef IOGAUGE_STATS_H
#define IOGAUGE_STATS_H

#include <stdint.h>
#include "hist.h"
#include "job.h"

struct lat_stats {
	uint64_t n, min, max, sum;
	unsigned __int128 sumsq; /* exact: mean and stddev without rounding drift */
	struct hist h;
};

struct ddir_stats {
	uint64_t ios, bytes;
	struct lat_stats clat;
};

/* Cumulative totals at the end of each one-second interval. */
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
};

/* What an error happened in: the request kinds (enum io_op), then setup steps. */
enum err_op { ERR_OP_READ = 0, ERR_OP_WRITE, ERR_OP_FSYNC, ERR_OP_FDATASYNC, ERR_OP_OPEN,
	      ERR_OP_ENGINE };
const char *err_op_name(int op);

struct thread_stats {
	struct ddir_stats d[DDIR_NR];
	struct series series;
	struct cpu_usage cpu;
	uint64_t elapsed_ns; /* measured time (after ramp) */
	uint64_t syncs;      /* fsync/fdatasync calls */
	int err;             /* errno of the first error, 0 if none */
	uint64_t err_offset;
	int err_op;          /* enum err_op: what failed */
	char err_file[PATH_MAX];
	bool short_io;       /* err came from a short transfer, not errno */
	bool interrupted;    /* stopped by a signal */
};

static inline void lat_add(struct lat_stats *l, uint64_t v)
{
	l->n++;
	l->sum += v;
	l->sumsq += (unsigned __int128)v * v;
	if (v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
	hist_add(&l->h, v);
}

/* Zero counters, min = UINT64_MAX, one-second series with no points yet. */
void stats_init(struct thread_stats *s);
void stats_reset(struct thread_stats *s); /* after ramp: keep allocations */
void stats_free(struct thread_stats *s); /* the series array */
/* dst += src; series summed point by point. */
void stats_merge(struct thread_stats *dst, const struct thread_stats *src);
double lat_mean(const struct lat_stats *l); /* 0 without samples */
/* Population standard deviation, from the exact sum and sum of squares. */
double lat_stddev(const struct lat_stats *l);
/* Append a point (may grow the array: once a second at most). */
void series_push(struct series *s, const struct series_pt *p);

#endif
