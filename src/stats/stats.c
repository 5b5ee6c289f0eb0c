/* Per-thread statistics: reset, merge, latency moments, time series. */
#include "stats/fiolog.h"
#include "stats/stats.h"
#include "base/common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const io_op_names[IO_OP_NR] = { "read",  "write",  "trim",	"fsync", "fdatasync",
						    "create", "stat", "open", "unlink", "mkdir", "rmdir" };

void lat_init(struct lat_stats *l)
{
	memset(l, 0, sizeof(*l));
	l->min = UINT64_MAX;
}

void lat_free(struct lat_stats *l)
{
	free(l->h);
	l->h = NULL;
}

/*
 * Every page of the histogram is touched here, before the run: a bucket hit
 * for the first time in the measured loop would otherwise cost a page fault
 * there, and the resident size would creep up as the tails widen.
 */
static void lat_want(struct lat_stats *l)
{
	if (!l->h) {
		l->h = xcalloc(1, sizeof(*l->h));
		memset(l->h, 0, sizeof(*l->h));
	}
}

void stats_init(struct thread_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (int o = 0; o < IO_OP_NR; o++) {
		lat_init(&s->op[o].slat);
		lat_init(&s->op[o].clat);
		lat_init(&s->op[o].lat);
	}
	s->series.interval_ns = NSEC_PER_SEC;
}

void stats_want(struct thread_stats *s, int op, bool with_slat)
{
	lat_want(&s->op[op].clat);
	if (with_slat) {
		lat_want(&s->op[op].slat);
		lat_want(&s->op[op].lat);
	}
}

void stats_want_lat(struct thread_stats *s, int op)
{
	lat_want(&s->op[op].lat);
}

static void lat_reset(struct lat_stats *l)
{
	struct hist *h = l->h;
	lat_init(l);
	l->h = h;
	if (h)
		memset(h, 0, sizeof(*h));
}

void stats_want_prio(struct thread_stats *s, int d, const uint16_t *prios, unsigned n)
{
	s->prio[d] = xcalloc(n, sizeof(*s->prio[d]));
	s->nprio[d] = n;
	for (unsigned i = 0; i < n; i++) {
		s->prio[d][i].ioprio = prios[i];
		lat_init(&s->prio[d][i].lat);
		lat_want(&s->prio[d][i].lat);
	}
}

/* dst gets src's priorities, each added to dst's of the same ioprio (fio's merge by value). */
static void prio_merge(struct thread_stats *dst, const struct thread_stats *src)
{
	for (int d = 0; d < DDIR_NR; d++) {
		for (unsigned i = 0; i < src->nprio[d]; i++) {
			const struct prio_lat *p = &src->prio[d][i];
			unsigned k = 0;
			while (k < dst->nprio[d] && dst->prio[d][k].ioprio != p->ioprio)
				k++;
			if (k == dst->nprio[d]) {
				struct prio_lat *n = xcalloc(k + 1, sizeof(*n));
				if (k)
					memcpy(n, dst->prio[d], k * sizeof(*n));
				free(dst->prio[d]);
				dst->prio[d] = n;
				dst->prio[d][k].ioprio = p->ioprio;
				lat_init(&dst->prio[d][k].lat);
				dst->nprio[d]++;
			}
			lat_merge(&dst->prio[d][k].lat, &p->lat);
		}
	}
}

void stats_reset(struct thread_stats *s)
{
	for (int d = 0; d < DDIR_NR; d++)
		for (unsigned i = 0; i < s->nprio[d]; i++)
			lat_reset(&s->prio[d][i].lat);
	for (int o = 0; o < IO_OP_NR; o++) {
		s->op[o].ios = s->op[o].bytes = 0;
		lat_reset(&s->op[o].slat);
		lat_reset(&s->op[o].clat);
		lat_reset(&s->op[o].lat);
	}
	s->series.n = 0;
	fiolog_reset(s->log);
	memset(&s->cpu, 0, sizeof(s->cpu));
	memset(s->depth, 0, sizeof(s->depth));
	memset(s->submit, 0, sizeof(s->submit));
	memset(s->complete, 0, sizeof(s->complete));
	s->elapsed_ns = s->invalidations = s->invalidate_ns = 0;
	s->verify_ns = s->verify_ios = 0;
}

void stats_free(struct thread_stats *s)
{
	for (int d = 0; d < DDIR_NR; d++) {
		for (unsigned i = 0; i < s->nprio[d]; i++)
			lat_free(&s->prio[d][i].lat);
		free(s->prio[d]);
		s->prio[d] = NULL;
		s->nprio[d] = 0;
	}
	for (int o = 0; o < IO_OP_NR; o++) {
		lat_free(&s->op[o].slat);
		lat_free(&s->op[o].clat);
		lat_free(&s->op[o].lat);
	}
	free(s->series.pts);
	s->series.pts = NULL;
	fiolog_free(s->log);
	s->log = NULL;
	s->series.n = s->series.cap = 0;
}

void lat_merge(struct lat_stats *dst, const struct lat_stats *src)
{
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	if (src->h) {
		lat_want(dst);
		hist_merge(dst->h, src->h);
	}
}

void lat_copy(struct lat_stats *dst, const struct lat_stats *src)
{
	lat_free(dst);
	lat_init(dst);
	lat_merge(dst, src);
}

static bool series_reserve(struct series *s, unsigned want)
{
	if (want <= s->cap)
		return true;
	unsigned cap = s->cap ? s->cap : 16;
	while (cap < want)
		cap *= 2;
	struct series_pt *p = realloc(s->pts, (size_t)cap * sizeof(*p));
	if (!p)
		return false;
	s->pts = p;
	s->cap = cap;
	return true;
}

void series_push(struct series *s, const struct series_pt *p)
{
	if (!series_reserve(s, s->n + 1))
		return; /* drop the point: the run matters more than the graph */
	s->pts[s->n++] = *p;
}

/* Point i of a series; past its end the last cumulative totals carry on. */
static struct series_pt series_at(const struct series_pt *pts, unsigned n, unsigned i)
{
	struct series_pt p = { 0 };
	if (i < n)
		return pts[i];
	if (n) {
		p = pts[n - 1];
		memset(p.lat_max, 0, sizeof(p.lat_max)); /* no I/O after the end */
	}
	return p;
}

static void series_merge(struct series *dst, const struct series *src)
{
	unsigned nd = dst->n, n = src->n > nd ? src->n : nd;
	if (!dst->interval_ns)
		dst->interval_ns = src->interval_ns;
	if (!series_reserve(dst, n))
		n = nd; /* keep what fits: the totals elsewhere stay exact */
	struct series_pt last = series_at(dst->pts, nd, nd);
	for (unsigned i = 0; i < n; i++) {
		struct series_pt a = i < nd ? dst->pts[i] : last;
		struct series_pt b = series_at(src->pts, src->n, i);
		for (int d = 0; d < DDIR_NR; d++) {
			a.ios[d] += b.ios[d];
			a.bytes[d] += b.bytes[d];
			a.lat_sum[d] += b.lat_sum[d];
			if (b.lat_max[d] > a.lat_max[d])
				a.lat_max[d] = b.lat_max[d];
		}
		/* The interval ends when the last thread's interval ends. */
		uint64_t ta = i < nd ? dst->pts[i].t_ns : 0, tb = i < src->n ? src->pts[i].t_ns : 0;
		a.t_ns = ta > tb ? ta : tb;
		dst->pts[i] = a;
	}
	dst->n = n;
}

static void err_merge(struct thread_stats *dst, const struct thread_stats *src)
{
	if (dst->err || !src->err)
		return;
	dst->err = src->err;
	dst->err_offset = src->err_offset;
	dst->err_op = src->err_op;
	memcpy(dst->err_file, src->err_file, sizeof(dst->err_file));
	dst->short_io = src->short_io;
	dst->short_got = src->short_got;
	dst->short_len = src->short_len;
}

void stats_merge(struct thread_stats *dst, const struct thread_stats *src)
{
	for (int o = 0; o < IO_OP_NR; o++) {
		dst->op[o].ios += src->op[o].ios;
		dst->op[o].bytes += src->op[o].bytes;
		lat_merge(&dst->op[o].slat, &src->op[o].slat);
		lat_merge(&dst->op[o].clat, &src->op[o].clat);
		lat_merge(&dst->op[o].lat, &src->op[o].lat);
	}
	prio_merge(dst, src);
	series_merge(&dst->series, &src->series);
	dst->cpu.usr_ns += src->cpu.usr_ns;
	dst->cpu.sys_ns += src->cpu.sys_ns;
	dst->cpu.ctx += src->cpu.ctx;
	dst->cpu.majf += src->cpu.majf;
	dst->cpu.minf += src->cpu.minf;
	for (int i = 0; i < DEPTH_BUCKETS; i++) {
		dst->depth[i] += src->depth[i];
		dst->submit[i] += src->submit[i];
		dst->complete[i] += src->complete[i];
	}
	if (src->elapsed_ns > dst->elapsed_ns)
		dst->elapsed_ns = src->elapsed_ns;
	if (src->verify_ns > dst->verify_ns)
		dst->verify_ns = src->verify_ns;
	dst->verify_ios += src->verify_ios;
	dst->invalidations += src->invalidations;
	dst->invalidate_ns += src->invalidate_ns;
	dst->prepared_items += src->prepared_items;
	if (src->prepare_ns > dst->prepare_ns)
		dst->prepare_ns = src->prepare_ns;
	err_merge(dst, src);
	for (int o = 0; o < IO_OP_NR; o++)
	{
		dst->errs[o] += src->errs[o];
		dst->failed[o] += src->failed[o];
	}
	if (!dst->first_error)
		dst->first_error = src->first_error;
	dst->interrupted |= src->interrupted;
	dst->halted |= src->halted;
	dst->left_bytes += src->left_bytes;
	if (src->lat_depth > dst->lat_depth)
		dst->lat_depth = src->lat_depth;
	dst->overlap_held += src->overlap_held;
}

double lat_mean(const struct lat_stats *l)
{
	return l->n ? (double)l->sum / (double)l->n : 0;
}

double lat_stddev(const struct lat_stats *l)
{
	if (l->n < 2)
		return 0;
	/*
	 * n * var = sumsq - sum^2 / n.  With sum = q*n + r that is
	 * sumsq - sum*q - sum*r/n: integer terms exact in 128 bits, and every
	 * partial result stays non-negative (sum^2 <= n * sumsq), so only the
	 * final fraction is rounded.
	 */
	unsigned __int128 n = l->n, sum = l->sum;
	unsigned __int128 q = sum / n, r = sum % n;
	unsigned __int128 m = l->sumsq - sum * q;
	unsigned __int128 t = sum * r;
	unsigned __int128 tq = t / n, tr = t % n;
	if (m < tq)
		return 0; /* inconsistent input (e.g. sums wrapped) */
	long double nv = (long double)(m - tq) - (long double)tr / (long double)n;
	if (nv <= 0)
		return 0;
	return (double)sqrtl(nv / (long double)n);
}

uint64_t lat_pct(const struct lat_stats *l, double p)
{
	return l->n && l->h ? hist_percentile(l->h, p, l->min, l->max) : 0;
}

const char *err_op_name(int op)
{
	static const char *const setup[] = { "open", "engine", "check", "rate" };
	if (op >= 0 && op < IO_OP_NR)
		return io_op_names[op];
	if (op >= ERR_OP_OPEN && op <= ERR_OP_RATE)
		return setup[op - ERR_OP_OPEN];
	return "?";
}
