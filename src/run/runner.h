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
#include "model/job.h"
#include "stats/stats.h"
#include "run/run_result.h"

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
