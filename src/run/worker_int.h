/* The worker's own helpers, shared by its files (worker*.c, readback.c); not for others. */
#ifndef IOGAUGE_WORKER_INT_H
#define IOGAUGE_WORKER_INT_H

#include "run/worker.h"

/* What keeps the slow path on once an event is handled. */
bool worker_slow_wanted(const struct worker *w);

/* Asked to stop: by a signal, or (several ranks) because another rank asked every rank to. */
static inline bool worker_stopping(const struct worker *w)
{
	return unlikely(*w->stop | *w->halt);
}

/* Every draw but the fast path's (worker_draw.c). */
void worker_prep_var(struct worker *w, struct io_u *u);
/* zonemode=strided: the next request's offset, or ZONE_END when the job ends before it. */
#define ZONE_END UINT64_MAX
uint64_t worker_zone_next(struct worker *w);

/* One fixed block size, one file: the fast path's draw. */
static inline void worker_draw_plain(struct worker *w, struct io_u *u)
{
	u->offset = w->region + offgen_next(&w->og) * w->stride;
	u->len = w->len;
	if (unlikely(u->offset == w->tail_off))
		u->len = w->tail_req;
	u->op = w->mixed ? mix_next(&w->mix) : w->op;
}

/* The next request's offset, length and op: the only draws, so a plan-only job replays a run exactly. */
static inline void worker_draw(struct worker *w, struct io_u *u)
{
	if (unlikely(w->slow_prep))
		worker_prep_var(w, u);
	else
		worker_draw_plain(w, u);
}

/* The next request's offset, length and op, and the end of a pass, as the loops draw them. */
void worker_plan_next(struct worker *w, struct io_u *u);

/* A request done: counted (as the loop counts it), then to the hooks; false when it failed. */
bool worker_complete(struct worker *w, struct io_u *u, uint64_t now);
/* Read back what the hooks name (final: a loop's or the job's end, fio's verify phase). */
void worker_readback(struct worker *w, bool final);
/* A read-back due mid-run: the backlog's in the measured time, a loop end's apart (verify_ns). */
void worker_readback_now(struct worker *w);
/* The statistics' last touches once every request, read-backs too, is done. */
void worker_stats_close(struct worker *w);
/* A plan-only job: its requests drawn and shown to the hooks, none submitted. */
void worker_replay(struct worker *w);

/* Before and after the loop (worker_setup.c). */
int worker_plan(struct worker *w);
int worker_setup(struct worker *w);
void worker_finish(struct worker *w);
void worker_teardown(struct worker *w);

/* The loop's pieces the end of a job uses too (worker.c). */
void worker_sync(struct worker *w, int op);

/* A completion off the plain path (worker_check.c): false when the request failed. */
bool worker_check_done(struct worker *w, const struct io_u *u, uint64_t lat);

/* fio's per-direction rate limits and floors (worker_rate.c). */
void worker_rate_setup(struct worker *w);
void worker_rate_note(struct worker *w, struct io_u *u, bool may_steer);
uint64_t worker_rate_due(const struct worker *w);
void worker_rate_check_min(struct worker *w, const struct series_pt *p, const struct series_pt *prev);

/* fio's iologs (worker_iolog.c): write_iolog's lines, read_iolog's requests. */
int worker_iolog_setup(struct worker *w);
void worker_iolog_start(struct worker *w);
void worker_iolog_end(struct worker *w);
void worker_prep_note(struct worker *w, struct io_u *u, bool may_steer);
void worker_replay_next(struct worker *w, struct io_u *u);

/* The loop's steps, out of line (worker.c), for fio's batch loop (worker_batch.c). */
void worker_prep(struct worker *w, struct io_u *u);
void worker_on_event(struct worker *w, uint64_t now);
void worker_note_stop(struct worker *w);
void worker_slow_path(struct worker *w, uint64_t now, unsigned ios);
void worker_loop_batch(struct worker *w);
/* Held back by admit.c with nothing in flight: wait a little (flow_sleep or a spin), mind the clock. */
void worker_held(struct worker *w);

/* Holding back (worker_pace.c): thinktime and rate limits between requests, startdelay. */
void worker_throttle(struct worker *w, uint64_t now, unsigned ios);
/* Reap and complete every request in flight (an async engine, inline submission). */
void worker_quiesce(struct worker *w);
/* Sleep until t (never past the deadline; Ctrl-C ends it). */
void worker_sleep_until(struct worker *w, uint64_t t);
void worker_start_delay(struct worker *w);

/* The start gate from the worker's side (worker_gate.c). */
int gate_pass(struct start_gate *g);
int gate_wait_go(struct start_gate *g);

#endif
