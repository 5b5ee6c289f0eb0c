/*
 * The runner: prepares targets, starts one worker thread per job thread,
 * measures, and returns merged results.  Every command drives I/O only
 * through here.  It never prints and never exits: refusals and errors come
 * back in the result, with their one-line message.
 */
#ifndef IOGAUGE_RUNNER_H
#define IOGAUGE_RUNNER_H

#include "base/common.h"
#include "base/ctx.h"
#include "run/iostat.h"
#include "model/job.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "run/target.h"

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
	uint64_t invalidate_ns;       /* page-cache invalidation before the job, not timed */
	bool buffered_fallback;       /* O_DIRECT refused by the file system */
	int64_t resident_before;      /* bytes cached before reads, -1 unknown */
	uint64_t pre_read_bytes;      /* pre_read: read into the page cache before the job (not timed) */
	int64_t unsynced_after;       /* bytes written but not yet on disk when the clock stopped, -1 unknown */
	unsigned group;               /* stonewall group: jobs in one group run at once */
	struct cluster_job *cluster;  /* merged from several ranks (rank 0): each rank's figures (merge.h) */
	struct verify_ctx *verify;    /* --verify: headers written, blocks read back (verify.h) */
	struct ss_result ss;          /* steady state, when the job asked for it (ss.n > 0) */
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
	bool interrupted;     /* stopped by a signal */
	bool exit_rest;       /* exitall with exit_what stonewall or all: later groups do not run */
	int status;           /* EXIT_OK, EXIT_IOERR when a job failed, 2 refused, 128+N after signal N */
	struct ig_err err;    /* why the run was refused or could not start (status 2 or 1) */
	char notes[MAX_NOTES][256]; /* things the command should say (an O_DIRECT fallback) */
	unsigned nnotes;
	uint32_t info_notes; /* bit i: note i is an adjustment fio makes silently (iogauge fio leaves it out) */
	uint32_t report_only; /* bit i: note i is for the reports (JSON notes, text header), never stderr */
	struct cluster_run *cluster; /* merged from several ranks (rank 0): ranks, hosts, clocks (merge.h) */
	char swept[PATH_MAX];        /* the last directory cleared of dead runs' test files */
};

/* While jobs run, about every 100 ms (for a progress line). */
struct run_live {
	unsigned threads, running;
	uint64_t elapsed_ns, planned_ns; /* planned 0: size-bound */
	uint64_t ios, bytes;             /* completed, measured part */
};

struct run_opts {
	bool allow_destroy, allow_overwrite;
	bool readonly; /* fio's --readonly: no file is created, extended or laid out */
	void (*progress)(void *arg, const struct run_live *l);
	void *progress_arg;
};

/*
 * Run the jobs (concurrently, except that a job with stonewall waits for the
 * ones before it).  Every refusal happens before the first request.  Returns
 * r->status.  The context's stop request ends the run early (status 128+N).
 */
int runner_run(struct run_ctx *c, const struct job *jobs, unsigned njobs, const struct run_opts *o,
	       struct run_result *r);
void run_result_free(struct run_result *r);

/* Rate of an op over a job's measured time. */
double result_bw(const struct thread_stats *t, int op);   /* bytes/s */
double result_iops(const struct thread_stats *t, int op);

#endif
