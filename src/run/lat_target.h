/*
 * fio's latency_target: the largest queue depth whose latencies stay within
 * the target.  From depth 1, a window within the target (at least
 * latency_percentile of its requests) doubles the depth, or bisects toward
 * the lowest depth that failed; a window beyond it bisects down toward the
 * highest that passed.  When the depth stops moving, a last window runs at
 * it, measured from scratch, and the job ends (unless latency_run).  The
 * state machine alone: the worker feeds it (admit.c).
 */
#ifndef IOGAUGE_LAT_TARGET_H
#define IOGAUGE_LAT_TARGET_H

#include <stdbool.h>
#include <stdint.h>

struct lat_target {
	uint64_t target_ns, window_ns;
	double pct;
	bool run;             /* latency_run: never settle */
	unsigned depth;       /* the job's iodepth: the ceiling */
	unsigned qd, qd_low, qd_high, stable;
	bool started;
	uint64_t cycle_start, ios, failed; /* this window: its start, completions, those beyond the target */
	bool end_run;         /* the last window, at the depth found */
	bool quiesce;         /* drain what is in flight before the next window */
	bool reset_due;       /* after the drain: measure from scratch (the last window) */
	bool done;            /* the last window passed: the job ends */
	bool fatal;           /* beyond the target at depth 1 with percentile 100: fio fails the job */
};

void lt_init(struct lat_target *t, uint64_t target_ns, uint64_t window_ns, double pct, bool run,
	     unsigned depth);
/* A measured completion of latency lat at time now (ignored while draining). */
void lt_complete(struct lat_target *t, uint64_t lat, uint64_t now);
/* The drain is over: the next window starts.  True when the statistics must start over. */
bool lt_drained(struct lat_target *t, uint64_t now);

#endif
