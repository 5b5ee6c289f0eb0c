/*
 * Holding a worker back: --thinktime and the rate limits' due time
 * (worker_rate.c) between requests, startdelay before the first, in sleeps
 * that end at the deadline and notice Ctrl-C.
 */
#include "base/common.h"
#include "run/worker.h"
#include "run/worker_int.h"

#include <time.h>

#define SLEEP_SLICE_NS (100 * NSEC_PER_MSEC)

/*
 * Sleep until t, but never past the deadline, and in slices short enough to
 * notice Ctrl-C: signals reach the main thread, not the workers.  Relative
 * sleeps: t is on now_ns's clock, which may be the CPU's counter, a few
 * parts per million apart from CLOCK_MONOTONIC.
 */
void worker_sleep_until(struct worker *w, uint64_t t)
{
	if (t > w->deadline)
		t = w->deadline;
	for (uint64_t now = now_ns();
	     now < t && !worker_stopping(w) && !__atomic_load_n(&w->exit_halt, __ATOMIC_RELAXED); now = now_ns()) {
		uint64_t left = t - now > SLEEP_SLICE_NS ? SLEEP_SLICE_NS : t - now;
		struct timespec ts = { .tv_sec = (time_t)(left / NSEC_PER_SEC), .tv_nsec = (long)(left % NSEC_PER_SEC) };
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	}
}

/* --rate, --rate_iops, --thinktime: hold the next request back. */
void worker_throttle(struct worker *w, uint64_t now, unsigned ios)
{
	if (!w->remaining)
		return; /* nothing follows: no pause after the last request */
	uint64_t due = now + w->job->thinktime_ns * ios;
	if (w->rate_on) {
		uint64_t t = worker_rate_due(w);
		due = t > due ? t : due;
	}
	if (due > now) {
		/* fio quiesces first (inline submission): what is in flight completes on its own time. */
		if (w->inflight && !w->offload) {
			worker_quiesce(w);
			now = now_ns();
			if (due <= now)
				return;
		}
		worker_sleep_until(w, due);
		/* The deadline may have passed while asleep: no request after it. */
		now = now_ns();
		if (now >= w->next_event)
			worker_on_event(w, now);
	}
}

/* fio's startdelay: a fixed wait, or a random one in the range, before the job starts. */
void worker_start_delay(struct worker *w)
{
	const struct job *j = w->job;
	uint64_t lo = j->startdelay_ns[0], hi = j->startdelay_ns[1];
	if (!hi)
		return;
	uint64_t d = lo + (hi > lo ? rng_below(&w->rng, hi - lo + 1) : 0);
	w->deadline = UINT64_MAX;
	worker_sleep_until(w, now_ns() + d);
}
