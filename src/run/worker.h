/* One worker thread: the I/O loop of one job thread (its state: worker_state.h). */
#ifndef IOGAUGE_WORKER_H
#define IOGAUGE_WORKER_H

#include <pthread.h>
#include "model/engine.h"
#include "run/worker_state.h"

/*
 * Hooks a command (or the runner, for --verify) may attach to a job (struct
 * job.hooks).  Unused, they cost one predictable branch per request.  They
 * run on the worker thread; thread is the job thread's index.
 */
#define HOOK_READBACK (-1)

struct worker_hooks {
	void *arg;
	/*
	 * A request is about to be submitted; its offset, op and data are set (a
	 * write's header goes here).  buf NULL: the job only plans its requests
	 * (plan_only) and nothing is submitted.
	 */
	void (*prep)(void *arg, unsigned thread, struct io_u *u);
	/*
	 * A request completed in full: 0, an errno that fails the job (a hook's
	 * refusal), or HOOK_READBACK: read back now (the worker stops issuing,
	 * drains its requests and reads what readback() names).
	 */
	int (*complete)(void *arg, unsigned thread, const struct io_u *u, uint64_t lat_ns);
	/*
	 * The next block to read back (its file among the thread's, offset,
	 * length), false when there is none
	 * (NULL: never): called when complete() asked (final false), at the end
	 * of each loop of a size-bound job (per_loop) and after the job's own
	 * requests (final true).  Read-backs go through the job's engine,
	 * complete through complete(), and count as the job's reads (fio's
	 * verify accounting): those asked for along the way in its measured
	 * time, the final ones in thread_stats.verify_ns.
	 */
	bool (*readback)(void *arg, unsigned thread, bool final, unsigned *file, uint64_t *offset, uint32_t *len);
	bool plan_only; /* the job's requests are only planned (prep with buf NULL), then read back */
	bool split;     /* threads sharing one file each take their own slice of the region */
	bool per_loop;  /* final read-backs after every loop of a size-bound job, not only the last */
	bool fills;     /* prep writes a write's data itself: the worker need not fill it */
};

/*
 * Where the threads of a group wait until all are set up; the runner then
 * reads the device counters and opens it (go 1), or calls the run off (-1).
 */
struct start_gate {
	pthread_mutex_t lock;
	pthread_cond_t cv;
	unsigned ready;
	int go;
	/*
	 * Several ranks: jobs with a ramp start measuring when the runner says so
	 * (gate_measure, after a barrier of all ranks), not at their own ramp end.
	 */
	bool sync_ramp;
	int measure;
	unsigned finished; /* workers done: the runner wakes at once, so its device counters end with them */
};
void gate_init(struct start_gate *g);
void gate_destroy(struct start_gate *g);
void gate_wait_ready(struct start_gate *g, unsigned n);
void gate_open(struct start_gate *g, int go);
void gate_measure(struct start_gate *g);
/* A worker has ended (once per thread, after its last request). */
void gate_finished(struct start_gate *g);
/* Wait up to wait_ns for more than `seen` workers to have ended; returns how many have. */
unsigned gate_wait_finished(struct start_gate *g, unsigned seen, uint64_t wait_ns);

void *worker_main(void *arg);
/* Stop a running worker at its next event (exitall); safe from another thread. */
void worker_halt(struct worker *w);
/* The job reached steady state: stop at the next request; safe from another thread. */
void worker_steady(struct worker *w);

/* Requests and bytes completed so far (measured part): readable while the worker runs. */
void worker_live(const struct worker *w, uint64_t *ios, uint64_t *bytes);

#endif
