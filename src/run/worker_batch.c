/*
 * fio's queue discipline (iodepth_batch_submit, iodepth_batch_complete_min
 * and _max, iodepth_low) for the jobs that give any of them; the others keep
 * the worker's own queue (worker.c's loop_async).
 */
#include "base/common.h"
#include "model/engine.h"
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
	const struct engine_ops *e = w->job->engine;
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
	unsigned off = 0;
	while (off < n && (flush || n - off >= chunk)) {
		unsigned take = flush ? n - off : chunk;
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
}

/*
 * One reap of fio's io_u_queued_complete: at least min (0 with iodepth_batch_complete_min=0:
 * polled, never waited for, until min are in), at most max.  false: the engine failed.
 */
static bool reap_fio(struct worker *w, const struct qbatch_eff *q, unsigned min, unsigned max)
{
	const struct engine_ops *e = w->job->engine;
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
		if (w->issuing && !w->sync_pending && !w->pass_end && !w->readback_due) {
			uint64_t room = depth - w->inflight;
			if (room > w->remaining)
				room = w->remaining;
			if (q.poll && room > w->npending + 1)
				room = w->npending + 1; /* fio polls after every request */
			if (room > w->npending)
				issue_fio(w, (unsigned)room, q.submit, false);
		}
		bool full = w->inflight + w->npending >= depth;
		if (w->npending && !w->st.err)
			issue_fio(w, w->npending, q.submit, true); /* fio commits before it reaps */
		if (!w->inflight) {
			if (w->issuing && (w->sync_pending || w->pass_end || w->readback_due)) {
				worker_slow_path(w, now_ns(), 0);
				continue;
			}
			if (!w->issuing || !w->remaining || w->st.err)
				break;
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
