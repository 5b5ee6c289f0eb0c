/*
 * The I/O loop.  Per request: one offset draw, one histogram increment per
 * latency kind, and clock reads shared by a batch (before the submit call,
 * after it, and at completion).  No allocation, no locks, no syscalls but
 * the I/O's own.  Everything rare (ramp end, series tick, deadline, syncs,
 * rate limits, pass ends, hooks) hides behind one comparison with
 * next_event or one flag, and lives in files of its own: the draws beyond
 * the fast path (worker_draw.c), completions off the plain path
 * (worker_check.c), the measured phase's clock (worker_measure.c), holding
 * back (worker_pace.c, worker_rate.c), setup and end (worker_setup.c).
 */
#include "stats/fiolog.h"
#include "base/common.h"
#include "run/cpus_apply.h"
#include "run/admit.h"
#include "run/worker.h"
#include "run/worker_error.h"
#include "run/worker_int.h"
#include "run/worker_measure.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define RAMP_POLL_NS NSEC_PER_MSEC

static void note_stop(struct worker *w)
{
	if (*w->stop)
		w->st.interrupted = true;
	else
		w->st.halted = true;
}

/* --rewrite_pct: the block just read goes back, changed; it is no step of the pass. */
static void prep_rewrite(struct worker *w, struct io_u *u)
{
	w->update_pending = false;
	u->offset = w->update_off;
	u->len = w->update_len;
	u->op = IO_WRITE;
	if (w->refresh_rewrites)
		data_fill(&w->dg, u->buf, u->len);
	if (w->prep_note)
		worker_prep_note(w, u, false);
}

static inline __attribute__((always_inline)) void prep(struct worker *w, struct io_u *u)
{
	if (unlikely(w->update_pending)) {
		prep_rewrite(w, u);
	} else {
		worker_draw(w, u);
		if (unlikely(w->prep_note))
			worker_prep_note(w, u, true);
		if (u->op == IO_WRITE && w->refresh)
			data_fill_at(&w->dg, u->buf, u->len, u->offset);
		if (unlikely(--w->pass_left == 0)) {
			w->pass_end = true;
			w->slow_path = true;
		}
	}
	if (unlikely(w->hooks != NULL) && w->hooks->prep)
		w->hooks->prep(w->hooks->arg, w->thread, u);
}

/* Counters others read while the run goes on: relaxed stores, same cost as plain ones. */
static inline void count(struct op_stats *o, uint64_t bytes)
{
	__atomic_store_n(&o->ios, o->ios + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&o->bytes, o->bytes + bytes, __ATOMIC_RELAXED);
}

static inline void after_complete(struct worker *w, const struct io_u *u, uint64_t lat)
{
	if (u->op < DDIR_NR && lat > w->ival_max[u->op])
		w->ival_max[u->op] = lat;
	if (unlikely(w->sync_every) && u->op == IO_WRITE && ++w->writes_since_sync >= w->sync_every)
		w->sync_pending = true;
	if (unlikely(w->update_threshold) && u->op == IO_READ &&
	    (rng_next(&w->rng) >> 32) < w->update_threshold) {
		w->update_pending = true;
		w->update_off = u->offset;
		w->update_len = u->len;
		if (w->remaining != UINT64_MAX)
			w->remaining++; /* the rewrite comes on top of the reads */
	}
}

/* Synchronous engines: the call is the request; clat only (lat is the same, slat none). */
static inline __attribute__((always_inline)) bool complete_sync(struct worker *w, struct io_u *u, uint64_t now)
{
	uint64_t lat = now - u->start;
	if (unlikely(u->res != (int64_t)u->len || w->slow_done) && !worker_check_done(w, u, lat))
		return false;
	struct op_stats *o = &w->st.op[u->op];
	count(o, (uint64_t)u->res);
	lat_add(&o->clat, lat);
	after_complete(w, u, lat);
	return true;
}

/* Asynchronous engines: slat (the submit call), clat (after it), lat (both). */
static inline __attribute__((always_inline)) bool complete_async(struct worker *w, struct io_u *u, uint64_t now)
{
	uint64_t clat = now - u->issued;
	if (unlikely(u->res != (int64_t)u->len || w->slow_done) && !worker_check_done(w, u, clat))
		return false;
	struct op_stats *o = &w->st.op[u->op];
	count(o, (uint64_t)u->res);
	lat_add(&o->slat, u->issued - u->start);
	lat_add(&o->clat, clat);
	lat_add(&o->lat, now - u->start);
	after_complete(w, u, clat);
	return true;
}

/*
 * Offload: the pool's thread stamped when it issued the request and when it
 * completed (fio's issue and completion times); start is when the job thread
 * prepared it.  clat: the engine's own time; lat: from the preparation (the
 * wait in the queue included); slat only for an asynchronous engine, as fio.
 */
static bool complete_offload(struct worker *w, struct io_u *u)
{
	uint64_t end = w->ectx.end_ns[u->idx];
	uint64_t clat = end - u->issued;
	if (unlikely(u->res != (int64_t)u->len || w->slow_done) && !worker_check_done(w, u, clat))
		return false;
	struct op_stats *o = &w->st.op[u->op];
	count(o, (uint64_t)u->res);
	if (w->off_slat)
		lat_add(&o->slat, u->issued - u->start);
	lat_add(&o->clat, clat);
	lat_add(&o->lat, end - u->start);
	after_complete(w, u, clat);
	return true;
}

/* The ramp is over: its time has passed and, with several ranks, every rank is there. */
static bool ramp_over(const struct worker *w, uint64_t now)
{
	return now >= w->ramp_end &&
	       (!w->gate->sync_ramp || __atomic_load_n(&w->gate->measure, __ATOMIC_ACQUIRE));
}

static void on_event(struct worker *w, uint64_t now)
{
	if (__atomic_load_n(&w->exit_halt, __ATOMIC_RELAXED) && w->issuing) {
		w->issuing = false;
		w->st.halted = true;
	}
	if (!w->measuring && ramp_over(w, now))
		worker_start_measuring(w, now);
	if (w->measuring) {
		while (now >= w->next_tick) {
			worker_push_point(w, w->next_tick);
			w->next_tick += SERIES_INTERVAL_NS;
			const struct series *sr = &w->st.series;
			if (unlikely(w->rate_min_on) && sr->n >= 2)
				worker_rate_check_min(w, &sr->pts[sr->n - 1], &sr->pts[sr->n - 2]);
		}
		for (; now >= w->next_log; w->next_log += w->st.log->interval_ns)
			fiolog_window(w->st.log, &w->st, w->next_log - w->measure_start, false);
		if (now >= w->deadline || __atomic_load_n(&w->ss_stop, __ATOMIC_RELAXED))
			w->issuing = false;
	}
	uint64_t ev = w->measuring ? (w->next_tick < w->next_log ? w->next_tick : w->next_log) : w->ramp_end;
	if (!w->measuring && now >= w->ramp_end)
		ev = now + RAMP_POLL_NS; /* waiting for the other ranks */
	w->next_event = ev < w->deadline ? ev : w->deadline;
}

/* What keeps the slow path on once an event is handled. */
static bool slow_wanted(const struct worker *w)
{
	return w->sync_every || w->throttled || w->pass_end || w->readback_due || w->admit;
}

bool worker_complete(struct worker *w, struct io_u *u, uint64_t now)
{
	if (unlikely(w->offload))
		return complete_offload(w, u);
	return w->eng->flags & ENGINE_SYNC ? complete_sync(w, u, now) : complete_async(w, u, now);
}

bool worker_slow_wanted(const struct worker *w)
{
	return slow_wanted(w);
}

/*
 * The end of a pass over the region of a buffered time-based job: drop the
 * region's cached pages so the next pass reads the device again, as fio's
 * invalidate=1 does.  In-flight requests are drained first; the time is not
 * counted.
 */
static void end_pass(struct worker *w)
{
	const struct job *j = w->job;
	w->pass_end = false;
	w->pass_left = w->loop_verify ? w->per_loop : w->nblocks;
	/* fio verifies what each loop wrote before the next one starts. */
	if (w->loop_verify && w->remaining) {
		w->readback_due = true;
		w->readback_final = true;
	}
	w->slow_path = slow_wanted(w);
	/* fio seeds its streams again for each loop of a size-bound job: the same mix again. */
	if (w->loop_reseed)
		mix_reset(&w->mix);
	if (!w->inval_passes)
		return;
	uint64_t t = now_ns();
	uint64_t start = j->plan.stride ? job_region_offset(j) : w->region_start ? w->region_start[0] + w->region_shift : j->offset;
	posix_fadvise(w->ectx.fd, (off_t)start, (off_t)job_region_size(j), POSIX_FADV_DONTNEED);
	worker_pause_clock(w, now_ns() - t, true);
}

/*
 * Every request in flight reaped and completed, as fio's io_u_quiesce does before a rate or
 * thinktime sleep: a completion reaped only after the sleep would count the sleep in its latency.
 */
void worker_quiesce(struct worker *w)
{
	const struct engine_ops *e = w->eng;
	while (w->inflight) {
		int got = e->reap(&w->ectx, 1, w->inflight, w->done);
		if (got == -EINTR)
			continue;
		if (got < 0) {
			worker_set_error(w, -got, 0, ERR_OP_ENGINE, false);
			return;
		}
		uint64_t now = now_ns();
		w->st.complete[batch_bucket((unsigned)got)]++;
		for (int i = 0; i < got; i++) {
			struct io_u *u = w->done[i];
			complete_async(w, u, now);
			w->free_ios[w->nfree++] = u;
		}
		w->inflight -= (unsigned)got;
	}
}

/* An fsync or fdatasync through the engine, with nothing else in flight; timed as its own op. */
void worker_sync(struct worker *w, int op)
{
	const struct engine_ops *e = w->eng;
	/* Nothing is in flight: any slot will do; one prepared for later gets its request back. */
	struct io_u *u = w->nfree ? w->free_ios[w->nfree - 1] : w->batch[0];
	struct io_u saved = *u;
	u->op = (uint8_t)op;
	u->len = 0;
	u->offset = 0;
	u->fd = w->wctx->fds ? w->wctx->fds[w->cur_file] : w->wctx->fd;
	u->file = w->wctx->fds ? w->cur_file : 0;
	u->start = u->issued = now_ns();
	if (w->wlog)
		worker_prep_note(w, u, false);
	if (e->flags & ENGINE_SYNC) {
		u->res = e->do_io(w->wctx, u);
		complete_sync(w, u, now_ns());
	} else {
		int r = e->submit(w->wctx, &u, 1);
		u->issued = now_ns();
		struct io_u *got = NULL;
		if (r == 1)
			r = e->reap(w->wctx, 1, 1, &got) == 1 ? 1 : -EIO;
		if (r != 1)
			u->res = r < 0 ? r : -EAGAIN;
		if (w->offload && r == 1)
			complete_offload(w, u);
		else
			complete_async(w, u, now_ns());
	}
	*u = saved;
	if (op == w->sync_op && w->sync_every) {
		/* Writes that completed while draining count toward the next sync. */
		w->writes_since_sync -= w->writes_since_sync < w->sync_every ? w->writes_since_sync : w->sync_every;
		w->sync_pending = w->writes_since_sync >= w->sync_every;
	}
}

/* Held back (flow): wait a little, with an eye on the clock; the caller tries again. */
void worker_held(struct worker *w)
{
	admit_wait(w);
	uint64_t now = now_ns();
	if (now >= w->next_event)
		on_event(w, now);
}

/*
 * A synchronous loop's next request may go (counted) once admit.c lets it:
 * called before the first and, through the slow path, after each request.
 */
static void admit_next_sync(struct worker *w)
{
	while (w->issuing && w->remaining && !worker_stopping(w)) {
		if (admit_room(w, 1)) {
			admit_issued(w->admit, 1);
			return;
		}
		worker_held(w);
	}
}

static void slow_path(struct worker *w, uint64_t now, unsigned ios)
{
	/*
	 * As fio (fsync=N, fdatasync=N): the sync goes out before the next
	 * request, so the last writes of a job are followed by none (end_fsync is
	 * for them); with a queue, more than N writes may be done by then: the
	 * syncs for the batches before the last one still go out.
	 */
	if (w->sync_pending && w->issuing && !w->inflight) {
		if (w->remaining || w->writes_since_sync > w->sync_every)
			worker_sync(w, w->sync_op);
		else
			w->sync_pending = false;
	}
	if (w->pass_end && !w->inflight)
		end_pass(w);
	if (w->readback_due && !w->inflight)
		worker_readback_now(w);
	if (w->throttled)
		worker_throttle(w, now, ios);
	if (w->admit && ios)
		admit_next_sync(w); /* a synchronous loop's request just completed */
}

/*
 * The short last block of an O_DIRECT write is not a whole number of
 * sectors: it goes out without O_DIRECT, as GNU dd writes it (synchronous
 * engines only, so nothing else is in flight on the descriptor).
 */
static __attribute__((noinline)) int64_t tail_write(struct worker *w, struct engine_ctx *c,
						    struct io_u *u)
{
	int fl = fcntl(c->fd, F_GETFL);
	if (fl < 0 || fcntl(c->fd, F_SETFL, fl & ~O_DIRECT) < 0)
		return -errno;
	int64_t res = w->job->engine->do_io(c, u);
	fcntl(c->fd, F_SETFL, fl);
	return res;
}

static void loop_sync(struct worker *w)
{
	struct io_u *u = &w->ectx.ios[0];
	int64_t (*do_io)(struct engine_ctx *, struct io_u *) = w->job->engine->do_io;
	if (w->admit)
		admit_next_sync(w);
	while (w->issuing && w->remaining) {
		if (worker_stopping(w)) {
			note_stop(w);
			break;
		}
		prep(w, u);
		w->remaining--;
		u->start = now_ns();
		if (unlikely(w->dio_tail) && u->offset == w->tail_off)
			u->res = tail_write(w, &w->ectx, u);
		else
			u->res = do_io(&w->ectx, u);
		uint64_t now = now_ns();
		if (unlikely(!complete_sync(w, u, now)) && !w->issuing)
			break;
		if (unlikely(now >= w->next_event))
			on_event(w, now);
		if (unlikely(w->slow_path))
			slow_path(w, now, 1);
	}
}

/*
 * A copy (dd if=FILE of=FILE): each block read from the source is written to
 * the destination, one after the other, both timed as their own operation.
 * Synchronous engines only (job_validate): the engine moves bytes on one fd,
 * the copy is two requests on two.
 */
static void loop_copy(struct worker *w)
{
	struct io_u *u = &w->ectx.ios[0];
	int64_t (*do_io)(struct engine_ctx *, struct io_u *) = w->job->engine->do_io;
	while (w->issuing && w->remaining) {
		if (unlikely(*w->stop)) {
			w->st.interrupted = true;
			break;
		}
		prep(w, u);
		w->remaining--;
		u->start = now_ns();
		u->res = do_io(&w->ectx, u);
		uint64_t now = now_ns();
		if (unlikely(!complete_sync(w, u, now)))
			break;
		/* The bytes just read, to the same place in the destination's region. */
		uint64_t src = u->offset;
		u->op = IO_WRITE;
		u->offset = src + w->copy_delta;
		u->len = (uint32_t)u->res;
		u->start = now;
		u->fd = w->cctx.fd;
		if (unlikely(w->dio_tail) && src == w->tail_off)
			u->res = tail_write(w, &w->cctx, u);
		else
			u->res = do_io(&w->cctx, u);
		now = now_ns();
		bool ok = complete_sync(w, u, now);
		u->op = IO_READ;
		u->offset = src;
		u->fd = w->ectx.fd;
		if (unlikely(!ok))
			break;
		if (unlikely(now >= w->next_event))
			on_event(w, now);
		if (unlikely(w->slow_path))
			slow_path(w, now, 1);
	}
}

/*
 * Queue up to `room` requests; returns how many the engine took.  Requests it
 * did not take stay prepared for the next call, so no offset of the pass is lost.
 */
static inline __attribute__((always_inline)) unsigned issue_batch_as(struct worker *w, unsigned room,
								     bool admit)
{
	const struct engine_ops *e = w->eng;
	unsigned n;
	for (n = w->npending; n < room && !w->pass_end && !w->var_done; n++) {
		/* As fio's rate_ddir: a request goes when the rate lets it, whatever the depth. */
		if (unlikely(w->rate_on) && worker_rate_due(w) > now_ns())
			break;
		struct io_u *u = w->free_ios[--w->nfree];
		prep(w, u);
		w->batch[n] = u;
	}
	if (unlikely(w->var_done))
		w->remaining = n; /* what is prepared is all that is left */
	uint64_t t = now_ns();
	for (unsigned i = 0; i < n; i++)
		w->batch[i]->start = t;
	unsigned off = 0, lim = n;
	if (admit)
		lim = admit_batch(w, n, room);
	while (off < lim) {
		int r = e->submit(&w->ectx, w->batch + off, lim - off);
		if (r < 0) {
			worker_set_error(w, -r, w->batch[off]->offset, w->batch[off]->op, false);
			break;
		}
		if (r == 0) {
			/* Queue full: reap first; with nothing in flight that would never end. */
			if (!w->inflight && !off)
				worker_set_error(w, EAGAIN, w->batch[0]->offset, w->batch[0]->op, false);
			break;
		}
		off += (unsigned)r;
	}
	t = now_ns();
	for (unsigned i = 0; i < off; i++)
		w->batch[i]->issued = t;
	w->npending = n - off;
	memmove(w->batch, w->batch + off, w->npending * sizeof(*w->batch));
	w->remaining -= off;
	w->inflight += off;
	if (admit)
		admit_issued(w->admit, off);
	w->st.depth[depth_bucket(w->inflight)] += off;
	w->st.submit[batch_bucket(off)]++;
	return off;
}

static unsigned issue_batch(struct worker *w, unsigned room)
{
	return issue_batch_as(w, room, false);
}

/* The same, for a worker admit.c holds back: as many as it lets go (flow, depth, overlaps). */
static __attribute__((noinline)) void issue_admitted(struct worker *w, unsigned room)
{
	room = admit_room(w, room);
	if (room)
		issue_batch_as(w, room, true);
}

/* offload: a constant, so the inline loop's code is the same as without it. */
static inline __attribute__((always_inline)) void loop_async_as(struct worker *w, bool offload)
{
	const struct engine_ops *e = w->eng;
	unsigned depth = w->ectx.depth;
	for (;;) {
		if (worker_stopping(w) && w->issuing) {
			note_stop(w);
			w->issuing = false;
		}
		if (w->issuing && !w->sync_pending && !w->pass_end && !w->readback_due) {
			uint64_t room = depth - w->inflight;
			if (room > w->remaining)
				room = w->remaining;
			if (unlikely(w->admit != NULL))
				issue_admitted(w, (unsigned)room);
			else if (room)
				issue_batch(w, (unsigned)room);
		}
		if (!w->inflight) {
			if (w->issuing && (w->sync_pending || w->pass_end || w->readback_due)) {
				slow_path(w, now_ns(), 0);
				continue;
			}
			if (!w->issuing || !w->remaining)
				break;
			if (w->admit) {
				worker_held(w); /* nothing may go and nothing is in flight: no completion to wait for */
				continue;
			}
			if (w->rate_on && !w->npending) {
				worker_throttle(w, now_ns(), 0); /* the rate holds the next one back */
				continue;
			}
		}
		int got = e->reap(&w->ectx, 1, depth, w->done);
		if (unlikely(got < 0)) {
			if (got == -EINTR)
				continue;
			worker_set_error(w, -got, 0, ERR_OP_ENGINE, false);
			break;
		}
		uint64_t now = now_ns();
		w->st.complete[batch_bucket((unsigned)got)]++;
		for (int i = 0; i < got; i++) {
			struct io_u *u = w->done[i];
			if (offload)
				complete_offload(w, u);
			else
				complete_async(w, u, now);
			w->free_ios[w->nfree++] = u;
		}
		w->inflight -= (unsigned)got;
		if (unlikely(now >= w->next_event))
			on_event(w, now);
		if (unlikely(w->throttled))
			worker_throttle(w, now, (unsigned)got);
	}
}

static void loop_async(struct worker *w)
{
	loop_async_as(w, false);
}

static __attribute__((noinline)) void loop_offload(struct worker *w)
{
	loop_async_as(w, true);
}

/* The steps of the I/O loop, out of line, for fio's batch loop (worker_batch.c). */
void worker_prep(struct worker *w, struct io_u *u)
{
	prep(w, u);
}

void worker_on_event(struct worker *w, uint64_t now)
{
	on_event(w, now);
}

void worker_note_stop(struct worker *w)
{
	note_stop(w);
}

void worker_slow_path(struct worker *w, uint64_t now, unsigned ios)
{
	slow_path(w, now, ios);
}

void worker_halt(struct worker *w)
{
	__atomic_store_n(&w->exit_halt, 1, __ATOMIC_RELAXED);
	/* The worker looks at the next event at once. */
	__atomic_store_n(&w->next_event, 0, __ATOMIC_RELAXED);
}

void worker_steady(struct worker *w)
{
	__atomic_store_n(&w->ss_stop, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->next_event, 0, __ATOMIC_RELAXED); /* as fio's terminate: at its next request */
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	w->unsynced = -1;
	/* A copy's loop is the job thread's own (job_offload has no copies). */
	w->offload = job_offload(w->job) && !w->copy_target;
	w->eng = w->offload ? &engine_offload : w->job->engine;
	w->off_slat = w->offload && !(w->job->engine->flags & ENGINE_SYNC);
	/* fio's cpus_allowed and numa_*: placed before anything is allocated. */
	int rc = cpus_apply(&w->job->cpus, w->thread_number - 1);
	if (rc)
		worker_set_error(w, -rc, 0, ERR_OP_ENGINE, false);
	else
		rc = worker_plan(w);
	if (!rc)
		rc = worker_setup(w);
	/* Passes are counted only where their ends matter. */
	w->loop_reseed = !w->var && w->mixed && w->job->randrepeat && !w->job->time_based &&
			 job_loops(w->job) > 1;
	w->pass_left = (w->inval_passes || w->loop_reseed) && !w->slow_prep ? w->nblocks : UINT64_MAX;
	/* A loop of several files ends after its requests too; fio's patterns say where theirs do. */
	if (w->loop_verify && !w->var)
		w->pass_left = w->per_loop;
	if (gate_pass(w->gate) < 0 && !rc) {
		rc = -1;
		w->st.interrupted = true;
	}
	if (!rc && w->after && gate_wait_go(w->after) < 0) {
		rc = -1;
		w->st.halted = true;
	}
	if (!rc)
		worker_start_delay(w);
	if (!rc && (*w->stop || __atomic_load_n(&w->exit_halt, __ATOMIC_RELAXED))) {
		rc = -1;
		w->st.interrupted = *w->stop != 0;
		w->st.halted = !*w->stop;
	}
	if (!rc) {
		uint64_t now = now_ns();
		w->t_start = now;
		w->ramp_end = now + w->job->ramp_ns;
		w->deadline = UINT64_MAX;
		w->next_event = w->ramp_end;
		if (!w->job->ramp_ns)
			on_event(w, now);
		const struct worker_hooks *h = w->hooks;
		if (unlikely(w->wlog || w->replay))
			worker_iolog_start(w);
		if (h && h->plan_only)
			worker_replay(w);
		else if (w->copy_target)
			loop_copy(w);
		else if (w->eng->flags & ENGINE_SYNC)
			loop_sync(w);
		else if (unlikely(w->job->qbatch.given))
			worker_loop_batch(w);
		else if (w->offload)
			loop_offload(w);
		else
			loop_async(w);
		worker_finish(w);
		/* After the job's own requests, fio's verify phase: what they wrote, read back. */
		if (h && h->readback && !w->st.err && !*w->stop) {
			uint64_t t = now_ns();
			worker_readback(w, true);
			w->st.verify_ns += now_ns() - t;
		}
		if (h && *w->stop)
			w->st.interrupted = true;
		worker_stats_close(w);
	}
	admit_finish(w); /* always: a flow's other jobs must not wait for this one */
	worker_teardown(w);
	__atomic_store_n(&w->finished, 1, __ATOMIC_RELEASE);
	gate_finished(w->gate);
	return NULL;
}

void worker_live(const struct worker *w, uint64_t *ios, uint64_t *bytes)
{
	*ios = *bytes = 0;
	for (int o = 0; o < IO_OP_NR; o++) {
		*ios += __atomic_load_n(&w->st.op[o].ios, __ATOMIC_RELAXED);
		*bytes += __atomic_load_n(&w->st.op[o].bytes, __ATOMIC_RELAXED);
	}
}
