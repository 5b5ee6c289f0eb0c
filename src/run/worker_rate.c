/*
 * fio's rate limits, one for each direction (rate=R,W,T, rate_iops=R,W,T),
 * and its floors (rate_min, rate_iops_min).  As fio: each direction is held
 * to its own limit; a mixed job whose drawn direction is ahead of its limit
 * sends the other one when that one is behind, so a limited write share
 * leaves the rest of the time to the reads.  Off the fast path: the worker
 * calls in only when a limit is set.
 */
#include "base/common.h"
#include "run/worker.h"
#include "run/worker_error.h"
#include "run/worker_int.h"

#include <errno.h>
#include <math.h>

/* File operations have no direction of fio's: they are held to the reads' limit. */
static inline unsigned rate_dir(unsigned op)
{
	return op <= IO_TRIM ? op : IO_READ;
}

static bool limited(const struct job *j, unsigned d)
{
	return j->rate_bps[d] || j->rate_iops[d];
}

/* When direction d may send its next request. */
static uint64_t dir_due(const struct worker *w, unsigned d)
{
	const struct job *j = w->job;
	if (j->rate_process == RATE_POISSON)
		return w->poisson_due[d];
	uint64_t due = w->t_start;
	if (j->rate_bps[d]) {
		uint64_t t = w->t_start + (uint64_t)((unsigned __int128)w->rate_bytes[d] * NSEC_PER_SEC / j->rate_bps[d]);
		due = t > due ? t : due;
	}
	if (j->rate_iops[d]) {
		uint64_t t = w->t_start + (uint64_t)((unsigned __int128)w->rate_ios[d] * NSEC_PER_SEC / j->rate_iops[d]);
		due = t > due ? t : due;
	}
	return due;
}

void worker_rate_setup(struct worker *w)
{
	const struct job *j = w->job;
	w->rate_on = false;
	w->rate_min_on = false;
	for (unsigned d = 0; d < 3; d++) {
		w->rate_on |= limited(j, d);
		w->rate_min_on |= j->ratemin[d] || j->rate_iops_min[d];
		w->poisson_due[d] = 0;
		w->rate_ios[d] = w->rate_bytes[d] = 0;
	}
	/* Only a plain mixed job may change a request's direction: elsewhere sizes depend on it. */
	w->rate_steer = w->rate_on && w->mixed && !w->slow_prep;
}

/* A request about to go: fio's rate_ddir (the direction behind its limit goes first), then counted. */
void worker_rate_note(struct worker *w, struct io_u *u, bool may_steer)
{
	const struct job *j = w->job;
	if (may_steer && w->rate_steer && u->op <= IO_WRITE) {
		unsigned o = u->op ^ 1u;
		if (w->mix.rw[o] && limited(j, u->op)) {
			uint64_t now = now_ns(), mine = dir_due(w, u->op);
			if (mine > now && (!limited(j, o) || dir_due(w, o) < mine))
				u->op = (uint8_t)o;
		}
	}
	unsigned d = rate_dir(u->op);
	w->rate_ios[d]++;
	w->rate_bytes[d] += u->len;
	if (j->rate_process == RATE_POISSON && limited(j, d)) {
		/* fio's poisson process: exponential gaps with the mean the rate asks for. */
		double mean = j->rate_iops[d] ? 1e9 / (double)j->rate_iops[d]
					      : 1e9 * (double)u->len / (double)j->rate_bps[d];
		if (!w->poisson_due[d])
			w->poisson_due[d] = w->t_start;
		w->poisson_due[d] += (uint64_t)(-log(1.0 - rng_double(&w->rng)) * mean);
	}
}

/*
 * When the next request may go (0: now).  A job that may change direction
 * waits for the first direction to fall behind; one that may not, for all.
 */
uint64_t worker_rate_due(const struct worker *w)
{
	const struct job *j = w->job;
	uint64_t due = 0;
	if (w->rate_steer) {
		due = UINT64_MAX;
		for (unsigned d = IO_READ; d <= IO_WRITE; d++) {
			if (!w->mix.rw[d])
				continue;
			if (!limited(j, d))
				return 0;
			uint64_t t = dir_due(w, d);
			due = t < due ? t : due;
		}
		return due == UINT64_MAX ? 0 : due;
	}
	for (unsigned d = 0; d < 3; d++) {
		if (limited(j, d) && w->rate_ios[d]) {
			uint64_t t = dir_due(w, d);
			due = t > due ? t : due;
		}
	}
	return due;
}

/* fio's rate_min / rate_iops_min: a second below a direction's floor fails the job (if it moved at all). */
void worker_rate_check_min(struct worker *w, const struct series_pt *p, const struct series_pt *prev)
{
	const struct job *j = w->job;
	uint64_t dt = p->t_ns - prev->t_ns;
	if (!dt)
		return;
	for (int d = 0; d < DDIR_NR; d++) {
		if (!p->ios[d])
			continue;
		uint64_t bps = (uint64_t)((double)(p->bytes[d] - prev->bytes[d]) * 1e9 / (double)dt);
		uint64_t iops = (uint64_t)((double)(p->ios[d] - prev->ios[d]) * 1e9 / (double)dt);
		if (j->ratemin[d] && bps < j->ratemin[d]) {
			worker_set_error(w, ETIMEDOUT, bps, ERR_OP_RATE, false);
			return;
		}
		if (j->rate_iops_min[d] && iops < j->rate_iops_min[d]) {
			worker_set_error(w, ETIMEDOUT, iops, ERR_OP_RATE, false);
			return;
		}
	}
}
