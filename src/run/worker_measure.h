/*
 * The measured part of a job (worker_measure.c): when it starts (the ramp's
 * end) or starts over, its per-second series points, and the clock marks
 * shifted past time that is not measured.
 */
#ifndef IOGAUGE_WORKER_MEASURE_H
#define IOGAUGE_WORKER_MEASURE_H

#include <stdbool.h>
#include <stdint.h>
#include "base/common.h"

/* Between a job's series points. */
#define SERIES_INTERVAL_NS NSEC_PER_SEC

struct worker;
struct cpu_usage;

/* The calling thread's CPU time, context switches and page faults so far. */
void worker_cpu_now(struct cpu_usage *c);
/* Measure from now on: statistics reset, clock marks and the deadline set. */
void worker_start_measuring(struct worker *w, uint64_t now);
/* Measure from scratch from now on (latency_target's last window); nothing while in the ramp. */
void worker_restart_measure(struct worker *w, uint64_t now);
/* The series point of the second ending at now. */
void worker_push_point(struct worker *w, uint64_t now);
/*
 * Shift the clock marks by dt: time that is not measured (read-backs, cache
 * invalidation: counted as one when invalidation).
 */
void worker_pause_clock(struct worker *w, uint64_t dt, bool invalidation);

#endif
