/*
 * The runner: prepares targets, starts one worker thread per job thread,
 * measures, and hands merged results to the report writers.  Every command
 * (run, quick and the suites after them) drives I/O only through here.
 */
#ifndef IOGAUGE_RUNNER_H
#define IOGAUGE_RUNNER_H

#include <signal.h>
#include "job.h"
#include "stats.h"
#include "target.h"

struct job_result {
	struct job job;  /* as run (after validation and defaults) */
	unsigned nthreads;
	struct thread_stats *threads; /* nthreads entries */
	struct thread_stats total;    /* all threads merged */
	struct target *targets;       /* one shared file, or one per thread */
	unsigned ntargets;
	uint64_t invalidate_ns;       /* page-cache invalidation before the job, not timed */
	bool buffered_fallback;       /* O_DIRECT refused by the file system */
	int64_t resident_before;      /* bytes cached before reads, -1 unknown */
	unsigned group;               /* stonewall group: jobs in one group run at once */
};

#define MAX_DEVS 16
/* What reached a block device while jobs were measuring (ramps excluded). */
struct dev_result {
	char name[64];
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors, io_ticks_ms;
	uint64_t span_ns; /* time the counters cover */
	bool ok;          /* counters were readable */
};

struct run_result {
	struct job_result *jobs;
	unsigned njobs;
	struct dev_result devs[MAX_DEVS];
	unsigned ndevs;
	time_t started;       /* wall clock, for reports */
	uint64_t elapsed_ns;  /* whole run */
	bool interrupted;     /* SIGINT/SIGTERM */
	int status;           /* EXIT_OK, EXIT_IOERR when a job failed, 128+N after signal N */
};

/* Set by the signal handler; workers stop at their next request. */
extern volatile sig_atomic_t g_stop;
void runner_install_signals(void);

/*
 * Run the jobs (concurrently, except that a job with stonewall waits for the
 * ones before it).  Refusals and bad combinations exit 2 before any I/O.
 * Returns r->status.
 */
int runner_run(struct job *jobs, unsigned njobs, const struct settings *s, struct run_result *r);
void run_result_free(struct run_result *r);

/* Rate of a ddir over a job's measured time. */
double result_bw(const struct thread_stats *t, int ddir);   /* bytes/s */
double result_iops(const struct thread_stats *t, int ddir);

#endif
