/* fio's flow, serialize_overlap and latency_target where a worker issues (admit.h). */
#include "base/common.h"
#include "run/admit.h"
#include "run/worker_error.h"
#include "run/worker_measure.h"
#include "run/worker_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int admit_setup(struct worker *w)
{
	const struct job *j = w->job;
	unsigned depth = w->ectx.depth;
	/* As fio: only requests that change data can race, and only with more than one in flight. */
	bool serialize = j->serialize_overlap && depth > 1 && job_writes(j) && !j->fileop;
	bool targeting = j->lat_target_ns != 0;
	if (!w->flow && !serialize && !targeting)
		return 0;
	struct admit *a = xcalloc(1, sizeof(*a));
	a->flow = w->flow;
	a->weight = j->flow;
	a->flow_sleep_us = j->flow_sleep_us;
	a->serialize = serialize;
	if (serialize)
		a->busy = xcalloc(depth, 1);
	a->targeting = targeting;
	if (targeting) {
		lt_init(&a->lt, j->lat_target_ns, j->lat_window_ns, j->lat_pct, j->lat_run, depth);
		w->slow_done = true; /* each completion's latency goes to the search (admit_done) */
	}
	w->admit = a;
	w->slow_path = true; /* a synchronous loop asks before each request (worker.c) */
	return 0;
}

unsigned admit_room(struct worker *w, unsigned room)
{
	struct admit *a = w->admit;
	if (a->targeting) {
		struct lat_target *t = &a->lt;
		if (t->quiesce) {
			if (w->inflight)
				return 0;
			uint64_t now = now_ns();
			if (lt_drained(t, now))
				worker_restart_measure(w, now);
		}
		unsigned lim = t->qd > w->inflight ? t->qd - w->inflight : 0;
		if (room > lim)
			room = lim;
	}
	if (a->flow && room)
		room = flow_room(a->flow, a->flow_mine, a->weight, room);
	return room;
}

static bool overlaps(const struct io_u *x, const struct io_u *y)
{
	return x->fd == y->fd && x->offset < y->offset + y->len && y->offset < x->offset + x->len;
}

/* The first of batch[0..lim) that overlaps one in flight or one before it in the batch. */
static unsigned first_overlap(struct worker *w, unsigned n, unsigned lim)
{
	struct admit *a = w->admit;
	unsigned depth = w->ectx.depth;
	/* In flight: every slot that is neither free nor prepared in the batch. */
	memset(a->busy, 1, depth);
	for (unsigned i = 0; i < w->nfree; i++)
		a->busy[w->free_ios[i]->idx] = 0;
	for (unsigned i = 0; i < n; i++)
		a->busy[w->batch[i]->idx] = 0;
	for (unsigned i = 0; i < lim; i++) {
		const struct io_u *u = w->batch[i];
		for (unsigned k = 0; k < depth; k++)
			if (a->busy[k] && overlaps(u, &w->ectx.ios[k]))
				return i;
		for (unsigned k = 0; k < i; k++)
			if (overlaps(u, w->batch[k]))
				return i;
	}
	return lim;
}

unsigned admit_batch(struct worker *w, unsigned n, unsigned room)
{
	struct admit *a = w->admit;
	unsigned lim = n < room ? n : room;
	if (!a->serialize || (!w->inflight && lim < 2))
		return lim;
	unsigned k = first_overlap(w, n, lim);
	if (k < lim)
		w->st.overlap_held++;
	return k;
}

void admit_wait(struct worker *w)
{
	struct admit *a = w->admit;
	if (!a->flow_sleep_us) {
		/*
		 * fio spins.  A yield looked kinder but, on a busy CPU, handed the core to the
		 * other tasks rather than to the job this one waits for: the whole flow then
		 * crawled at that job's wake-ups (a 2:1 flow gave 20:1 beside two busy loops).
		 */
		cpu_relax();
		return;
	}
	struct timespec ts = { .tv_sec = (time_t)(a->flow_sleep_us / 1000000),
			       .tv_nsec = (long)(a->flow_sleep_us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
}

void admit_done(struct worker *w, const struct io_u *u, uint64_t lat, uint64_t now)
{
	struct admit *a = w->admit;
	if (!a->targeting || !w->measuring || (u->op != IO_READ && u->op != IO_WRITE))
		return;
	struct lat_target *t = &a->lt;
	lt_complete(t, lat, now);
	if (t->fatal) {
		/* fio: the latency is beyond the target even at depth 1 (ETIMEDOUT, "max latency exceeded"). */
		worker_set_error(w, ETIMEDOUT, u->offset, u->op, false);
	} else if (t->done) {
		/* The depth is found and its last window measured: the job is over, not cut short. */
		w->remaining = 0;
		w->var_done = true;
	}
}

void admit_finish(struct worker *w)
{
	struct admit *a = w->admit;
	if (a && a->targeting)
		w->st.lat_depth = a->lt.qd;
	if (w->flow)
		flow_leave(w->flow, a ? a->flow_mine : 0, w->job->flow);
	w->flow = NULL;
}

void admit_free(struct worker *w)
{
	if (!w->admit)
		return;
	free(w->admit->busy);
	free(w->admit);
	w->admit = NULL;
}

