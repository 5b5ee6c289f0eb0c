/* One worker thread: the I/O loop of one job thread. */
#ifndef IOGAUGE_WORKER_H
#define IOGAUGE_WORKER_H

#include <pthread.h>
#include "engines/engine.h"
#include "job.h"
#include "offsets.h"
#include "stats.h"
#include "target.h"

struct worker {
	const struct job *job;
	unsigned thread;      /* index within the job */
	struct target *target;
	pthread_barrier_t *start_barrier;
	uint64_t t0;          /* common start, set by the runner after the barrier */

	/* Private state. */
	struct engine_ctx ectx;
	struct io_u **free_ios, **batch, **done;
	unsigned nfree, inflight, npending; /* npending: prepared, not yet taken by the engine */
	struct offgen og;
	struct rng rng;
	uint64_t region, nblocks, remaining; /* remaining: requests left to issue (size-bound) */
	uint64_t bs;
	uint64_t next_event;  /* earliest of: ramp end, next series tick, deadline */
	uint64_t t_start, ramp_end, next_tick, deadline, measure_start;
	uint64_t ival_max[DDIR_NR];
	uint64_t writes_since_sync, sync_every;
	uint64_t issued_ios, issued_bytes; /* since t_start, for rate limits */
	uint64_t rwmix_threshold; /* a mixed request reads when rng>>32 < threshold */
	uint8_t op;           /* IO_READ or IO_WRITE for unmixed patterns */
	bool measuring, issuing, mixed, refresh, throttled, slow_path, sync_pending;
	bool engine_ready;
	struct cpu_usage cpu_start;

	struct thread_stats st;
	pthread_t tid;
	int finished; /* set (atomically) when the thread is done */
};

void *worker_main(void *arg);

#endif
