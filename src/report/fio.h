/*
 * fio's view of a run, shared by the fio-json, json+ and terse writers:
 * "thread stats" as fio reports them (one per thread, or one per group with
 * group_reporting), in fio's units, with iogauge's exact histograms mapped
 * onto fio's latency buckets.
 *
 * fio's buckets (stat.h: 6 bits, 29 groups, 1856 buckets) are exactly two of
 * iogauge's each above 128 ns (iogauge keeps 7 bits per power of two), and
 * the same single values below: the mapping loses nothing but the half-bucket
 * resolution, and is what fio itself would have counted for those samples.
 */
#ifndef IOGAUGE_REPORT_FIO_H
#define IOGAUGE_REPORT_FIO_H

#include <stdint.h>
#include <stdio.h>
#include "run/runner.h"
#include "report/report.h"

#define FIO_PLAT_BITS 6
#define FIO_PLAT_VAL (1u << FIO_PLAT_BITS)
#define FIO_PLAT_GROUPS 29
#define FIO_PLAT_NR (FIO_PLAT_GROUPS * FIO_PLAT_VAL)
#define FIO_VERSION_STRING "iogauge-" IOGAUGE_VERSION

/* fio's bucket of a latency in ns, and the value it prints for a bucket. */
unsigned fio_plat_idx(uint64_t ns);
uint64_t fio_plat_val(unsigned idx);

/* Latency as fio prints it: moments (sample stddev) and fio's buckets. */
struct fio_lat {
	uint64_t n, min, max;
	double mean, stddev;
	uint64_t *plat; /* FIO_PLAT_NR counts; NULL without samples */
};
/* fio's percentile rule: the first bucket whose running count reaches p% of N. */
uint64_t fio_lat_pct(const struct fio_lat *l, double p);

/* fio's bandwidth / IOPS sample statistics (KiB/s, IO/s). */
struct fio_samples {
	uint64_t min, max, n;
	double mean, S; /* Welford: S = sum of squared deviations */
};
double fio_samples_dev(const struct fio_samples *s);

/* fio's data directions: read, write, trim (IO_READ, IO_WRITE, IO_TRIM). */
#define FIO_DDIRS 3

struct fio_dir {
	uint64_t io_bytes, ios, runtime_ms;
	uint64_t bw_bytes; /* B/s over the measured time */
	double iops;
	struct fio_lat slat, clat, lat;
	struct fio_samples bw, iops_s;
	/* cmdprio: per priority with samples (fio's "prios", shown when there are two or more). */
	struct fio_prio {
		uint16_t ioprio;
		struct fio_lat lat;
	} *prios;
	unsigned nprios;
};

/* One entry of fio's "jobs" array (or one terse line). */
struct fio_ts {
	const struct job_result *jr; /* the first member: name, group */
	const struct job_result *last; /* the last member: fio echoes its options */
	unsigned groupid;
	int error;
	uint64_t total_err; /* continue_on_error: the errors gone past, and the first one's errno */
	int first_error;
	struct fio_dir dir[FIO_DDIRS];
	struct fio_lat sync;
	uint64_t sync_ios;
	uint64_t job_runtime_ms; /* summed over members */
	uint64_t usr_ns, sys_ns, ctx, majf, minf;
	uint64_t depth[DEPTH_BUCKETS], submit[DEPTH_BUCKETS], complete[DEPTH_BUCKETS];
	uint64_t lat_ns[10], lat_us[10], lat_ms[12]; /* clat of read, write and trim, fio's ranges */
	unsigned members;
	unsigned lat_depth; /* latency_target: the depth found (0: no target) */
};

/*
 * fio's list of thread stats: one per thread, or one per reporting group
 * where jobs ask for group_reporting (fio's rule: a member of the same group
 * joins the entry before it).  Group aggregates (B/s) per groupid in agg.
 */
struct fio_report {
	struct fio_ts *ts;
	unsigned n;
	uint64_t (*agg_bps)[FIO_DDIRS]; /* [groupid][dir]: io_bytes summed over the group's longest runtime, B/s */
	unsigned ngroups;
};
void fio_report_build(struct fio_report *fr, const struct run_result *r);
void fio_report_free(struct fio_report *fr);
/* Group aggregate of a direction in B/s, as fio's "Run status group" line. */
uint64_t fio_group_bps(const struct fio_report *fr, unsigned group, int dir);

/* Percent helpers with fio's clamping of tiny non-zero shares. */
double fio_pct_clamped(uint64_t count, uint64_t total, double floor_pct);

#endif
