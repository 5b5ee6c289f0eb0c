/*
 * Per-thread statistics, written only by their own thread in the hot path
 * and merged after the threads are joined.  Indexed by operation kind
 * (ops.h); latency as fio defines it: slat (the submit call), clat
 * (submitted to completed), lat (both).
 */
#ifndef IOGAUGE_STATS_H
#define IOGAUGE_STATS_H

#include <stdint.h>
#include "stats/hist.h"
#include "model/ops.h"
#include "stats/thread_stats.h"

/*
 * fio's queue-depth distributions: requests by the depth they were queued at
 * (1 | 2-3 | 4-7 | 8-15 | 16-31 | 32-63 | >=64), and submit and reap calls by
 * how many requests each moved (0 | 1-4 | 5-8 | 9-16 | 17-32 | 33-64 | >64).
 * Counted per batch, never per request.
 */
static inline unsigned depth_bucket(uint64_t d)
{
	unsigned l = d ? 63u - (unsigned)__builtin_clzll(d) : 0;
	return l < DEPTH_BUCKETS - 1 ? l : DEPTH_BUCKETS - 1;
}
static inline unsigned batch_bucket(uint64_t n)
{
	if (n <= 4)
		return n ? 1 : 0;
	unsigned c = 64u - (unsigned)__builtin_clzll(n - 1); /* ceil(log2 n) */
	return c - 1 < DEPTH_BUCKETS - 1 ? c - 1 : DEPTH_BUCKETS - 1;
}

/* What an error happened in: an operation kind (enum io_op), or a setup step. */
enum { ERR_OP_OPEN = IO_OP_NR, ERR_OP_ENGINE, ERR_OP_HOOK, ERR_OP_RATE };
const char *err_op_name(int op);

/*
 * The time a direction's rate is over: the measured time, and for reads also
 * the verify phases (only those, when all the reads were theirs).
 */
static inline uint64_t stats_dir_ns(const struct thread_stats *t, int op)
{
	if (op != IO_READ || !t->verify_ns)
		return t->elapsed_ns;
	return t->verify_ios < t->op[IO_READ].ios ? t->elapsed_ns + t->verify_ns : t->verify_ns;
}

static inline void lat_add(struct lat_stats *l, uint64_t v)
{
	l->n++;
	l->sum += v;
	l->sumsq += (unsigned __int128)v * v;
	if (v < l->min)
		l->min = v;
	if (v > l->max)
		l->max = v;
	hist_add(l->h, v);
}

/* Zero counters, min = UINT64_MAX, no histograms, one-second series with no points yet. */
void stats_init(struct thread_stats *s);
/* cmdprio: direction d keeps the latencies of these n priorities (before the run). */
void stats_want_prio(struct thread_stats *s, int d, const uint16_t *prios, unsigned n);
/* Give op its histograms (slat and lat only when with_slat: asynchronous engines). */
void stats_want(struct thread_stats *s, int op, bool with_slat);
/* lat alone (offload of a synchronous engine: no slat, lat apart from clat). */
void stats_want_lat(struct thread_stats *s, int op);
void stats_reset(struct thread_stats *s); /* after ramp: keep allocations and errors */
void stats_free(struct thread_stats *s);
/* dst += src (histograms added bucket by bucket; series summed point by point). */
void stats_merge(struct thread_stats *dst, const struct thread_stats *src);
void lat_merge(struct lat_stats *dst, const struct lat_stats *src);
void lat_init(struct lat_stats *l);
void lat_free(struct lat_stats *l);
/* dst = a copy of src (histogram included). */
void lat_copy(struct lat_stats *dst, const struct lat_stats *src);
double lat_mean(const struct lat_stats *l); /* 0 without samples */
/* Population standard deviation, from the exact sum and sum of squares. */
double lat_stddev(const struct lat_stats *l);
/* Percentile p of l (ns), 0 without samples. */
uint64_t lat_pct(const struct lat_stats *l, double p);
/* Append a point (may grow the array: once a second at most). */
void series_push(struct series *s, const struct series_pt *p);

#endif
