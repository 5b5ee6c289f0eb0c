/*
 * What a run returns (runner_run): each job's statistics as run, what
 * reached the block devices meanwhile (totals, per-second samples: iostat.c)
 * and other processes' I/O, the notes and the error.  The report writers read
 * it; the runner, iostat.c and merge.c fill it in.
 */
#ifndef IOGAUGE_RUN_RESULT_H
#define IOGAUGE_RUN_RESULT_H

#include <limits.h>
#include "base/common.h"
#include "model/job.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "run/target.h"

/* ---- what reached the devices, second by second, and who else did I/O (iostat.c) */

#define IOSTAT_MAX_DEVS 16

/* The difference of two /sys/block/DEV/stat readings and the time between them. */
struct dev_delta {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks_ms;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks_ms;
	uint64_t io_ticks_ms, in_queue_ms, span_ns;
};

/* One per-second sample of a device: t_ns is its end, from the run's first measured phase. */
struct dev_sample {
	uint64_t t_ns;
	struct dev_delta d;
};
struct dev_series {
	struct dev_sample *pts;
	unsigned n, cap;
};

/* Another process that read or wrote a block device while jobs were measuring. */
struct other_io {
	int pid;
	uint64_t start;    /* its start time (clock ticks since boot): a reused pid is another process */
	char name[16];     /* comm */
	uint64_t read_bytes, write_bytes;
};

/* A target with no block device beneath (tmpfs, a network file system). */
struct nodev_target {
	char path[PATH_MAX];
	char fstype[32];
};

/* This rank's device series, other processes' I/O and targets without a device. */
struct iostat_run {
	struct dev_series series[IOSTAT_MAX_DEVS]; /* parallel to run_result.devs */
	struct other_io *others; /* most bytes first */
	unsigned nothers;
	bool others_ok;      /* /proc was scanned at both ends of a measured phase */
	uint64_t t0_ns;      /* start of the first measured phase: series times count from it */
	struct nodev_target nodev[4];
	unsigned nnodev;
};


/* ---- the run */

struct pct_table;

struct job_result {
	struct job job;  /* as run (after validation and defaults) */
	unsigned nthreads;
	struct thread_stats *threads; /* nthreads entries; NULL: the job never ran */
	struct thread_stats total;    /* all threads merged */
	struct target *targets;       /* one shared file, or one per thread; a copy: source, destination */
	unsigned ntargets;
	unsigned nfiles;              /* files per thread: targets [t * nfiles, ...), or all shared */
	bool shared_files;            /* every thread uses targets [0, nfiles) */
	uint64_t *region_start, *region_size; /* each target's region (ntargets entries) */
	struct pct_table *pct;        /* fio's percentages: each thread's region of each file (percent.h); NULL: none */
	struct job *thread_jobs;      /* threads whose percentages gave them amounts of their own: each one's job; NULL: job */
	uint64_t invalidate_ns;       /* page-cache invalidation before the job, not timed */
	bool buffered_fallback;       /* O_DIRECT refused by the file system */
	int64_t resident_before;      /* bytes cached before reads, -1 unknown */
	uint64_t pre_read_bytes;      /* pre_read: read into the page cache before the job (not timed) */
	int64_t unsynced_after;       /* bytes written but not yet on disk when the clock stopped, -1 unknown */
	unsigned group;               /* stonewall group: jobs in one group run at once */
	struct cluster_job *cluster;  /* merged from several ranks (rank 0): each rank's figures (merge.h) */
	struct verify_ctx *verify;    /* --verify: headers written, blocks read back (verify.h) */
	struct ss_result ss;          /* steady state, when the job asked for it (ss.n > 0) */
	bool late;                    /* its targets are prepared when its group starts (runner_prepare_late) */
};

#define MAX_DEVS 16
/* What reached a block device while jobs were measuring (ramps excluded). */
struct dev_result {
	char name[64];
	char host[64];    /* several ranks: the host it belongs to; "" alone */
	char disk[64];    /* a partition's whole disk ("vda" for "vda1"); "" for a disk */
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors, io_ticks_ms;
	uint64_t rd_merges, wr_merges, rd_ticks_ms, wr_ticks_ms, in_queue_ms;
	uint64_t span_ns; /* time the counters cover */
	bool ok;          /* counters were readable */
};

#define MAX_NOTES 16
struct run_result {
	struct job_result *jobs;
	unsigned njobs;
	struct dev_result devs[MAX_DEVS];
	unsigned ndevs;
	struct iostat_run iostat; /* per-second device samples, other processes' I/O (iostat.h) */
	time_t started;       /* wall clock, for reports */
	uint64_t elapsed_ns;  /* whole run */
	int clock;            /* enum clock_source the timestamps came from (cpu or clock_gettime) */
	bool interrupted;     /* stopped by a signal */
	bool exit_rest;       /* exitall with exit_what=all: later groups start and stop at once */
	int status;           /* EXIT_OK, EXIT_IOERR when a job failed, 2 refused, 128+N after signal N */
	struct ig_err err;    /* why the run was refused or could not start (status 2 or 1) */
	char notes[MAX_NOTES][256]; /* things the command should say (an O_DIRECT fallback) */
	unsigned nnotes;
	uint32_t info_notes; /* bit i: note i is an adjustment fio makes silently (iogauge fio leaves it out) */
	uint32_t report_only; /* bit i: note i is for the reports (JSON notes, text header), never stderr */
	struct cluster_run *cluster; /* merged from several ranks (rank 0): ranks, hosts, clocks (merge.h) */
	char swept[PATH_MAX];        /* the last directory cleared of dead runs' test files */
};

#endif
