/* The measured part of a job: its start, series points and clock marks (worker_measure.h). */
#include "base/common.h"
#include "run/worker_measure.h"
#include "run/worker_state.h"
#include "stats/fiolog.h"

#include <string.h>
#include <sys/resource.h>

void worker_cpu_now(struct cpu_usage *c)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	c->usr_ns = (uint64_t)ru.ru_utime.tv_sec * NSEC_PER_SEC + (uint64_t)ru.ru_utime.tv_usec * 1000;
	c->sys_ns = (uint64_t)ru.ru_stime.tv_sec * NSEC_PER_SEC + (uint64_t)ru.ru_stime.tv_usec * 1000;
	c->ctx = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
	c->majf = (uint64_t)ru.ru_majflt;
	c->minf = (uint64_t)ru.ru_minflt;
}

void worker_push_point(struct worker *w, uint64_t now)
{
	struct series_pt p;
	for (int d = 0; d < DDIR_NR; d++) {
		p.ios[d] = w->st.op[d].ios;
		p.bytes[d] = w->st.op[d].bytes;
		p.lat_sum[d] = w->st.op[d].clat.sum;
		p.lat_max[d] = w->ival_max[d];
		w->ival_max[d] = 0;
	}
	p.t_ns = now - w->measure_start;
	series_push(&w->st.series, &p);
}

void worker_start_measuring(struct worker *w, uint64_t now)
{
	stats_reset(&w->st);
	memset(w->ival_max, 0, sizeof(w->ival_max));
	worker_cpu_now(&w->cpu_start);
	w->measuring = true;
	w->measure_start = now;
	w->next_tick = now + SERIES_INTERVAL_NS;
	w->next_log = w->st.log && w->st.log->interval_ns ? now + w->st.log->interval_ns : UINT64_MAX;
	w->deadline = w->job->runtime_ns ? now + w->job->runtime_ns : UINT64_MAX;
}

void worker_restart_measure(struct worker *w, uint64_t now)
{
	if (w->measuring)
		worker_start_measuring(w, now);
}

void worker_pause_clock(struct worker *w, uint64_t dt, bool invalidation)
{
	w->t_start += dt;
	w->ramp_end += dt;
	if (w->measuring) {
		w->measure_start += dt;
		w->next_tick += dt;
		if (w->next_log != UINT64_MAX)
			w->next_log += dt;
		if (w->deadline != UINT64_MAX)
			w->deadline += dt;
		if (invalidation) {
			w->st.invalidations++;
			w->st.invalidate_ns += dt;
		}
	}
	w->next_event += dt;
}
