/*
 * fio's queue discipline (iodepth_batch_submit, iodepth_batch_complete_min
 * and _max, iodepth_low) for the jobs that give any of them; the others keep
 * the worker's own queue (worker.c's loop_async).  As fio's do_io, it holds
 * with flow, serialize_overlap and latency_target too (admit.c: a request
 * held back is fio's FIO_Q_BUSY, and the loop reaps as with a full queue),
 * and with io_submit_mode=offload (the pool is the engine).
 */
#include "base/common.h"
#include "model/engine.h"
#include "run/admit.h"
#include "run/worker.h"
#include "run/worker_error.h"
#include "run/worker_int.h"
#include "stats/stats.h"

#include <errno.h>
#include <string.h>

/*
 * fio's queue discipline, for a job that gives iodepth_batch_submit, iodepth_batch_complete_min,
 * _max or iodepth_low (loop_batch).  Requests are prepared until the queue is full and go to the
 * engine in commits of `chunk` (io_uring enters each at once); fewer than that wait for the
 * reap, which commits them first (fio's td_io_getevents).  flush: commit every prepared one.
 */
static __attribute__((noinline)) void issue_fio(struct worker *w, unsigned room, unsigned chunk,
						bool flush)
{
	const struct engine_ops *e = w->eng;
	unsigned n, first = w->npending;
	for (n = w->npending; n < room && !w->pass_end && !w->var_done; n++) {
		if (unlikely(w->rate_on) && worker_rate_due(w) > now_ns())
			break; /* fio's rate_ddir: not before the rate lets it go */
		struct io_u *u = w->free_ios[--w->nfree];
		worker_prep(w, u);
		w->batch[n] = u;
	}
	if (unlikely(w->var_done))
		w->remaining = n;
	/* A request waiting in the queue for its commit is in its slat, as fio's. */
	uint64_t t = now_ns();
	for (unsigned i = first; i < n; i++)
		w->batch[i]->start = t;
	/* serialize_overlap: what may go before the first that overlaps one in flight or before it. */
	unsigned off = 0, lim = w->admit ? admit_batch(w, n, n) : n;
	while (off < lim && (flush || lim - off >= chunk)) {
		unsigned take = flush ? lim - off : chunk;
		int r = e->submit(&w->ectx, w->batch + off, take);
		if (r < 0) {
			worker_set_error(w, -r, w->batch[off]->offset, w->batch[off]->op, false);
			break;
		}
		if (r == 0) {
			if (!w->inflight && !off)
				worker_set_error(w, EAGAIN, w->batch[0]->offset, w->batch[0]->op, false);
			break;
		}
		if (e->commit && !flush)
			e->commit(&w->ectx);
		t = now_ns();
		for (unsigned i = off; i < off + (unsigned)r; i++)
			w->batch[i]->issued = t;
		off += (unsigned)r;
		w->inflight += (unsigned)r;
		w->st.depth[depth_bucket(w->inflight)] += (unsigned)r;
		w->st.submit[batch_bucket((unsigned)r)]++;
		if ((unsigned)r < take)
			break; /* the engine is full: reap first */
	}
	w->npending = n - off;
	memmove(w->batch, w->batch + off, w->npending * sizeof(*w->batch));
	w->remaining -= off;
	if (w->admit)
		admit_issued(w->admit, off);
}

/*
 * One reap of fio's io_u_queued_complete: at least min (0 with iodepth_batch_complete_min=0:
 * polled, never waited for, until min are in), at most max.  false: the engine failed.
 */
static bool reap_fio(struct worker *w, const struct qbatch_eff *q, unsigned min, unsigned max)
{
	const struct engine_ops *e = w->eng;
	unsigned got = 0;
	if (min > w->inflight)
		min = w->inflight;
	if (max > w->inflight)
		max = w->inflight;
	if (min > max)
		max = min;
	while (got < min || !got) {
		int r = e->reap(&w->ectx, q->cmin ? min - (got < min ? got : min) : 0, max - got,
				w->done + got);
		if (unlikely(r < 0)) {
			if (r == -EINTR)
				continue;
			worker_set_error(w, -r, 0, ERR_OP_ENGINE, false);
			return false;
		}
		got += (unsigned)r;
		if (got >= max)
			break;
	}
	uint64_t now = now_ns();
	w->st.complete[batch_bucket(got)]++;
	for (unsigned i = 0; i < got; i++) {
		struct io_u *u = w->done[i];
		worker_complete(w, u, now);
		w->free_ios[w->nfree++] = u;
	}
	w->inflight -= got;
	if (unlikely(now >= w->next_event))
		worker_on_event(w, now);
	if (unlikely(w->throttled))
		worker_throttle(w, now, got);
	return true;
}

/* fio's do_io and wait_for_completions with the job's batch options (no admit.c: loop_async). */
void worker_loop_batch(struct worker *w)
{
	unsigned depth = w->ectx.depth;
	struct qbatch_eff q;
	job_qbatch_eff(w->job, &q);
	if (q.submit > depth)
		q.submit = depth;
	if (q.low > depth)
		q.low = depth;
	for (;;) {
		if (worker_stopping(w) && w->issuing) {
			worker_note_stop(w);
			w->issuing = false;
		}
		bool held = false;
		if (w->issuing && !w->sync_pending && !w->pass_end && !w->readback_due) {
			uint64_t room = depth - w->inflight;
			if (room > w->remaining)
				room = w->remaining;
			if (q.poll && room > w->npending + 1)
				room = w->npending + 1; /* fio polls after every request */
			if (unlikely(w->admit != NULL)) {
				/* flow, latency_target's depth: fewer may be in the queue now. */
				unsigned r = admit_room(w, (unsigned)room);
				held = r < room;
				room = r;
			}
			if (room > w->npending)
				issue_fio(w, (unsigned)room, q.submit, false);
		}
		bool full = w->inflight + w->npending >= depth;
		if (w->npending && !w->st.err)
			issue_fio(w, w->npending, q.submit, true); /* fio commits before it reaps */
		/* Held back (a request that overlaps, a flow, a smaller depth): fio's FIO_Q_BUSY reaps as when full. */
		if (unlikely(w->admit != NULL) && w->inflight && (held || w->npending))
			full = true;
		if (!w->inflight) {
			if (w->issuing && (w->sync_pending || w->pass_end || w->readback_due)) {
				worker_slow_path(w, now_ns(), 0);
				continue;
			}
			if (!w->issuing || !w->remaining || w->st.err)
				break;
			if (w->admit) {
				worker_held(w); /* nothing may go and nothing is in flight: no completion to wait for */
				continue;
			}
			if (w->rate_on)
				worker_throttle(w, now_ns(), 0); /* the rate holds the next one back */
			continue;
		}
		if (full || q.poll) {
			/* wait_for_completions: a full queue drains to iodepth_low. */
			unsigned min = q.cmin < w->inflight ? q.cmin : w->inflight;
			if (!min)
				min = 1;
			do {
				if (!reap_fio(w, &q, min, q.cmax))
					return;
			} while (full && w->inflight > q.low);
		} else if (!reap_fio(w, &q, w->inflight, q.cmax)) {
			return; /* nothing more may go now: what is in flight, all of it (fio's end of do_io) */
		}
	}
}
