/*
 * fio's bandwidth, IOPS and latency logs, recorded by a worker: a record
 * per request in memory mapped before the run (log_avg_msec=0), or the
 * cumulative counters at the end of each log_avg_msec window (pushed on the
 * worker's event path, like the one-second series).  Written after the run
 * by report/fio_logs.c.
 */
#ifndef IOGAUGE_FIOLOG_H
#define IOGAUGE_FIOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/ops.h"

struct job;
struct thread_stats;

/* One request: when it completed and was issued (from the measure start), where, how long it took. */
struct fiolog_rec {
	uint64_t t_ns, issue_ns, offset, slat, clat;
	uint32_t len;
	uint8_t ddir;
	uint16_t prio; /* the request's ioprio (fio's log_prio column) */
};

/* The directions a log has lines for: read, write and trim (fio's 0, 1, 2). */
#define FIOLOG_DIRS 3
/* The latencies a window's maximum is kept of: lat, clat, slat. */
enum { FIOLOG_LAT, FIOLOG_CLAT, FIOLOG_SLAT, FIOLOG_LAT_KINDS };
/* log_window_value (fio's IO_LOG_SAMPLE_*): a window's average, its maximum or both. */
enum { FIOLOG_WIN_AVG, FIOLOG_WIN_MAX, FIOLOG_WIN_BOTH };

/* Cumulative counters at a window's end (final: the partial window at the job's end). */
struct fiolog_win {
	uint64_t t_ns;
	uint64_t ios[FIOLOG_DIRS], bytes[FIOLOG_DIRS];
	uint64_t slat_sum[FIOLOG_DIRS], slat_n[FIOLOG_DIRS], clat_sum[FIOLOG_DIRS], clat_n[FIOLOG_DIRS];
	uint64_t lat_sum[FIOLOG_DIRS], lat_n[FIOLOG_DIRS];
	/* log_window_value=max|both: the largest latency of the window itself (not cumulative). */
	uint64_t max[FIOLOG_LAT_KINDS][FIOLOG_DIRS];
	bool final;
};

struct fiolog {
	struct fiolog_rec *recs; /* per request: mapped, touched as it fills */
	size_t nrec, caprec;
	bool dropped;            /* more requests than caprec: the log stops there */
	struct fiolog_win *wins;
	unsigned nwin, capwin;
	uint64_t interval_ns;    /* 0: per request */
	bool track_max;          /* windows keep their maximum latencies (fiolog_max) */
	uint64_t cur_max[FIOLOG_LAT_KINDS][FIOLOG_DIRS]; /* since the last window */
};

/* Requests a per-request log holds at most (per thread). */
#define FIOLOG_MAX_RECS (4u << 20)

bool job_logs(const struct job *j);
/* The job's log_window_value as FIOLOG_WIN_* (its words 0 and 1 are avg and max). */
int fiolog_window_value(const struct job *j);
/* Before the run: the job's log storage (NULL when it asks for no log). */
struct fiolog *fiolog_new(const struct job *j);
void fiolog_free(struct fiolog *l);
void fiolog_reset(struct fiolog *l);
/* A window's end (or the job's, final): the thread's counters now. */
void fiolog_window(struct fiolog *l, const struct thread_stats *st, uint64_t t_ns, bool final);

static inline void fiolog_io(struct fiolog *l, uint64_t t_ns, uint64_t issue_ns, int ddir, uint64_t offset,
			     uint32_t len, uint64_t slat, uint64_t clat, uint16_t prio)
{
	if (l->nrec == l->caprec) {
		l->dropped = true;
		return;
	}
	struct fiolog_rec *r = &l->recs[l->nrec++];
	r->t_ns = t_ns;
	r->issue_ns = issue_ns;
	r->offset = offset;
	r->slat = slat;
	r->clat = clat;
	r->len = len;
	r->ddir = (uint8_t)ddir;
	r->prio = prio;
}

/* A completed request's latencies in a window that keeps its maximum (lat: slat + clat, or clat alone). */
static inline void fiolog_max(struct fiolog *l, int ddir, uint64_t slat, uint64_t clat, uint64_t lat)
{
	if (ddir < 0 || ddir >= FIOLOG_DIRS)
		return;
	uint64_t *m = &l->cur_max[0][ddir];
	if (lat > m[FIOLOG_LAT * FIOLOG_DIRS])
		m[FIOLOG_LAT * FIOLOG_DIRS] = lat;
	if (clat > m[FIOLOG_CLAT * FIOLOG_DIRS])
		m[FIOLOG_CLAT * FIOLOG_DIRS] = clat;
	if (slat > m[FIOLOG_SLAT * FIOLOG_DIRS])
		m[FIOLOG_SLAT * FIOLOG_DIRS] = slat;
}

#endif
