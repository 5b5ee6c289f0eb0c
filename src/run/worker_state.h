/*
 * One worker thread's state: what the runner sets before the thread starts
 * (its job, targets, gates) and what the I/O loop keeps.  Apart from
 * worker.h so that the loop's helpers with headers of their own (admit.c,
 * flow.c, worker_error.c, worker_measure.c) read it without the worker's
 * functions.
 */
#ifndef IOGAUGE_WORKER_STATE_H
#define IOGAUGE_WORKER_STATE_H

#include <pthread.h>
#include <signal.h>
#include "model/data.h"
#include "model/engine.h"
#include "model/job.h"
#include "model/offsets.h"
#include "model/pattern.h"
#include "stats/stats.h"
#include "run/target.h"

struct admit;
struct flow;
struct fiolog;
struct iolog;
struct iolog_writer;
struct start_gate;
struct worker_hooks;

struct worker {
	const struct job *job;
	unsigned thread;      /* index within the job */
	unsigned thread_number; /* 1-based over the whole run, as fio numbers threads (its seeds) */
	/* dedupe_global: this thread's number among the run's threads sharing a working set, and theirs */
	unsigned dedupe_index, dedupe_threads;
	struct target *target;
	struct target *copy_target; /* a copy's destination; NULL otherwise */
	struct start_gate *gate;
	struct start_gate *after; /* wait_for: opened when the job waited for has ended; NULL: none */
	int exit_halt;        /* set (atomically) by the runner: exitall of another job stops this one */
	volatile sig_atomic_t *stop; /* the run context's stop request */
	volatile sig_atomic_t *halt; /* the run context's halt (another rank's stop) */
	int ss_stop;          /* set by the runner when the job reached steady state (worker_steady) */

	/* Private state. */
	const struct engine_ops *eng; /* what the loop calls: the job's engine, or offload before it */
	bool offload;         /* io_submit_mode=offload: eng is engine_offload, stamps in io_u.issued and ectx.end_ns */
	bool off_slat;        /* offload of an asynchronous engine: slat too (a synchronous one has none, as fio) */
	struct engine_ctx ectx;
	struct engine_ctx cctx;   /* a copy's destination (same engine, its own fd) */
	struct engine_ctx *wctx;  /* where writes and syncs go: &ectx, or &cctx for a copy */
	struct io_u **free_ios, **batch, **done, **rbatch; /* rbatch: read-backs (hooks) */
	void *bufs;           /* every slot's buffer, one region (ectx.ios[i].buf points into it) */
	size_t bufs_len;      /* its length: munmap'd when mapped, else freed */
	bool bufs_mapped;
	unsigned nfree, inflight, npending; /* npending: prepared, not yet taken by the engine */
	struct offgen og;
	struct rng rng;
	struct data_gen dg;   /* what writes carry */
	uint64_t region, nblocks, remaining; /* remaining: requests left to issue (size-bound) */
	uint64_t bs, stride;  /* stride: between requests' offsets (bs, or every N-th block) */
	uint32_t len;         /* a request's length (0 for file ops: the engine knows) */
	uint64_t pass_left;   /* requests left in this pass over the region */
	uint64_t next_event;  /* earliest of: ramp end, next series tick, deadline */
	uint64_t t_start, ramp_end, next_tick, deadline, measure_start;
	uint64_t next_log;    /* end of the current log_avg_msec window; UINT64_MAX: none */
	struct fiolog *iolog; /* a per-request fio log; NULL: none */
	struct fiolog *winlog; /* a windowed fio log keeping each window's maximum (log_window_value); NULL: none */
	bool filled;          /* fill_device: a write met a full file system; the job ended there */
	bool slow_done;       /* hooks or a per-request log: each completion goes through worker_check_done() */
	uint64_t ival_max[DDIR_NR];
	uint64_t writes_since_sync, sync_every;
	/* fio's rate limits per direction (worker_rate.c): requests and bytes issued since t_start. */
	uint64_t rate_ios[3], rate_bytes[3], poisson_due[3];
	bool rate_on, rate_steer, rate_min_on;
	bool prep_note;       /* rate limits or write_iolog: each prepared request is noted (worker_iolog.c) */
	/* read_iolog: the log's entries, the next one, and when the replay began (worker_iolog.c). */
	const struct iolog *replay;
	size_t replay_pos;
	uint64_t replay_t0, replay_first_us, replay_wait_ns;
	struct iolog_writer *wlog; /* write_iolog; NULL: none */
	uint64_t update_threshold, update_off; /* --rewrite_pct: a read is rewritten when rng>>32 < threshold */
	uint32_t update_len;
	bool update_pending, refresh_rewrites;
	uint64_t tail_off, tail_len; /* short_tail: the last block's offset (UINT64_MAX: none) and bytes */
	uint32_t tail_req;    /* what the tail request asks for (a direct read: rounded up to the alignment) */
	uint64_t copy_delta;  /* destination offset minus source offset */
	struct fio_mix mix;   /* mixed patterns: fio's direction runs */
	struct pattern pat;   /* block sizes and patterns beyond a fixed bs (var) */
	const struct worker_hooks *hooks;
	struct flow *flow;    /* fio's flow of this job (set by the runner, flow.c); NULL: none */
	struct admit *admit;  /* flow, serialize_overlap, latency_target (admit.c); NULL: none of them */
	uint8_t op;           /* IO_READ or IO_WRITE for unmixed patterns */
	uint8_t sync_op;      /* IO_FSYNC or IO_FDATASYNC for --fsync/--fdatasync */
	bool measuring, issuing, mixed, refresh, throttled, slow_path, sync_pending;
	bool pass_end, inval_passes, engine_ready, copy_ready, readback_due;
	bool readback_final;  /* the read-back due is a loop end's (fio's verify phase) */
	bool loop_verify;     /* --verify reads back at the end of every loop */
	uint64_t per_loop;    /* requests of a loop (fixed block size) */
	bool dio_tail;        /* the tail write is not O_DIRECT-aligned: written without O_DIRECT, as dd does */
	bool var, var_done;   /* the general pattern path; its last request is prepared */
	bool multi, slow_prep; /* several files, zones, trimwrite or var: the slow prep */
	/*
	 * zonemode=strided: requests in [zbase, zbase + zonerange) up to zend
	 * (the region's end), zbytes of them so far in this zone; znext: the next
	 * request's offset (ZONE_END: none, the job ends); zloop: the loops ended
	 * at zend, zmoved and zmoved_loop: bytes of the job and of this loop.
	 */
	bool zoned;
	uint64_t zbase, zbytes, zend, znext, zmoved, zmoved_loop;
	unsigned zloop;
	/* rw=trimwrite: each trim is followed by a write of its block (tw_*: the pending write). */
	bool trimwrite, tw_pending, tw_last;
	uint32_t tw_len;
	uint64_t tw_off;
	/* The thread's files (nrfiles, a filename list): targets [0, nfiles) from target. */
	unsigned nfiles;
	const uint64_t *region_start, *region_size; /* each file's region */
	uint64_t region_shift; /* threads sharing files: thread * --offset_increment, added to each region */
	struct wfile {
		uint64_t start, nblocks, left; /* left: requests of this loop, 0: done */
		struct offgen og;
	} *files;
	int *fds;
	int *trim_fds; /* each file's exclusive descriptor, for discards (engine_ctx.trim_fds) */
	unsigned cur_file, file_count; /* file_count: requests before the next switch */
	unsigned files_left;  /* not done in this loop */
	uint64_t files_total; /* blocks of all files */
	bool loop_reseed;     /* a mixed size-bound job with loops: fio's mix starts over each loop */
	struct cpu_usage cpu_start;

	int64_t unsynced;     /* written bytes still in the page cache when the clock stopped; -1 unknown */
	struct thread_stats st;
	pthread_t tid;
	int finished; /* set (atomically) when the thread is done */
} __attribute__((aligned(128))); /* two lines: the adjacent-line prefetcher pairs them */

#endif
