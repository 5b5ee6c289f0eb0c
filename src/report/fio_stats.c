/* fio's view of a run: thread stats as fio groups them, in fio's units and buckets (fio.h). */
#include "base/common.h"
#include "report/fio.h"
#include "model/engine.h"
#include "model/fio_fileops.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

unsigned fio_plat_idx(uint64_t v)
{
	if (v < 2 * FIO_PLAT_VAL)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned err_bits = msb - FIO_PLAT_BITS;
	unsigned idx = ((err_bits + 1) << FIO_PLAT_BITS) + (unsigned)((v >> err_bits) & (FIO_PLAT_VAL - 1));
	return idx < FIO_PLAT_NR ? idx : FIO_PLAT_NR - 1;
}

uint64_t fio_plat_val(unsigned idx)
{
	if (idx < 2 * FIO_PLAT_VAL)
		return idx;
	unsigned err_bits = (idx >> FIO_PLAT_BITS) - 1;
	uint64_t base = 1ULL << (err_bits + FIO_PLAT_BITS);
	unsigned k = idx % FIO_PLAT_VAL;
	/* The bucket's midpoint, truncated as fio's cast does. */
	return (uint64_t)((double)base + ((double)k + 0.5) * (double)(1ULL << err_bits));
}

uint64_t fio_lat_pct(const struct fio_lat *l, double p)
{
	if (!l->n || !l->plat)
		return 0;
	long double want = (long double)p / 100.0L * (long double)l->n;
	uint64_t sum = 0;
	for (unsigned i = 0; i < FIO_PLAT_NR; i++) {
		sum += l->plat[i];
		if ((long double)sum >= want && sum)
			return fio_plat_val(i);
	}
	return fio_plat_val(FIO_PLAT_NR - 1);
}

double fio_samples_dev(const struct fio_samples *s)
{
	return s->n > 1 ? sqrt(s->S / (double)(s->n - 1)) : 0;
}

double fio_pct_clamped(uint64_t count, uint64_t total, double floor_pct)
{
	if (!count || !total)
		return 0;
	double p = 100.0 * (double)count / (double)total;
	return p < floor_pct ? floor_pct : p;
}

/* iogauge's exact histogram onto fio's buckets: each of ours lies inside one of fio's. */
static void fio_lat_from(struct fio_lat *f, const struct lat_stats *l)
{
	memset(f, 0, sizeof(*f));
	if (!l->n)
		return;
	f->n = l->n;
	f->min = l->min;
	f->max = l->max;
	f->mean = lat_mean(l);
	/* fio prints the sample standard deviation (n - 1). */
	double pop = lat_stddev(l);
	f->stddev = l->n > 1 ? pop * sqrt((double)l->n / (double)(l->n - 1)) : 0;
	if (!l->h)
		return;
	f->plat = xcalloc(FIO_PLAT_NR, sizeof(*f->plat));
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (l->h->counts[i])
			f->plat[fio_plat_idx(hist_bucket_low(i))] += l->h->counts[i];
}

static void samples_add(struct fio_samples *s, uint64_t v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n++;
	double d = (double)v - s->mean;
	s->mean += d / (double)s->n;
	s->S += d * ((double)v - s->mean);
}

/* fio sums the sample statistics of a group's members outright (min = sum of mins ...). */
static void samples_sum(struct fio_samples *dst, const struct fio_samples *src)
{
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->S += src->S;
	dst->n += src->n;
}

/* One thread's bandwidth and IOPS samples: the full intervals of its series. */
static void thread_samples(const struct thread_stats *t, const struct job *j, int d,
			   struct fio_samples *bw, struct fio_samples *iops)
{
	memset(bw, 0, sizeof(*bw));
	memset(iops, 0, sizeof(*iops));
	if (d >= DDIR_NR || !(d == IO_READ ? rw_reads(j->rw) : rw_writes(j->rw)))
		return; /* trims have no per-second series */
	const struct series *s = &t->series;
	uint64_t pt = 0, pb = 0, pi = 0;
	for (unsigned i = 0; i < s->n; i++) {
		const struct series_pt *p = &s->pts[i];
		uint64_t dur = p->t_ns - pt;
		/* A short tail interval is no sample, as fio samples on its timer only. */
		if (dur && dur + dur / 100 >= s->interval_ns) {
			samples_add(bw, (uint64_t)((double)(p->bytes[d] - pb) * 1e9 / (double)dur / 1024));
			samples_add(iops, (uint64_t)((double)(p->ios[d] - pi) * 1e9 / (double)dur));
		}
		pt = p->t_ns;
		pb = p->bytes[d];
		pi = p->ios[d];
	}
}

/* fio's latency ranges of the completion latency: ns, us and ms buckets. */
static void lat_ranges(struct fio_ts *ts, const struct lat_stats *l)
{
	static const uint64_t thr[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
	if (!l->h)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t c = l->h->counts[i];
		if (!c)
			continue;
		uint64_t lo = hist_bucket_low(i), v = lo + (hist_bucket_high(i) - lo) / 2;
		uint64_t *arr = ts->lat_ns;
		unsigned nthr = 10;
		if (v >= 1000000) {
			v /= 1000000;
			arr = ts->lat_ms;
			nthr = 11;
		} else if (v >= 1000) {
			v /= 1000;
			arr = ts->lat_us;
		}
		unsigned k = 0;
		while (k < nthr && v >= thr[k])
			k++;
		arr[k] += c;
	}
}

struct acc {
	struct thread_stats st; /* members merged */
	struct fio_samples bw[FIO_DDIRS], iops[FIO_DDIRS];
	uint64_t job_runtime_ms;
	uint64_t fake_ios[2], fake_bytes[2]; /* fio's file engines: the requests fio counts (fio_fileops.h) */
};

/*
 * A file-engine thread's requests as fio counts them: its plan's, in the
 * share of the plan's operations it did (all of them, unless stopped; a
 * time-based job's plan is one loop).
 */
static void acc_fake(struct acc *a, const struct job *j, unsigned thread_number, const struct thread_stats *t)
{
	struct fio_fileop_plan p;
	fio_fileop_plan(j, thread_number, &p);
	uint64_t done = t->op[job_file_op(j)].ios;
	for (int d = 0; d < 2 && p.opens; d++) {
		uint64_t ios = (uint64_t)((unsigned __int128)p.ios[d] * done / p.opens);
		a->fake_ios[d] += ios;
		a->fake_bytes[d] += ios * p.bs;
	}
}

static void acc_add(struct acc *a, struct fio_ts *ts, const struct job_result *jr,
		    const struct thread_stats *t, unsigned thread_number)
{
	if (jr->job.engine->fileop)
		acc_fake(a, &jr->job, thread_number, t);
	stats_merge(&a->st, t);
	for (int d = 0; d < FIO_DDIRS; d++) {
		struct fio_samples bw, iops;
		thread_samples(t, &jr->job, d, &bw, &iops);
		samples_sum(&a->bw[d], &bw);
		samples_sum(&a->iops[d], &iops);
	}
	a->job_runtime_ms += (t->elapsed_ns + t->verify_ns) / NSEC_PER_MSEC;
	ts->last = jr;
	ts->members++;
}

/*
 * fio's file engines (filecreate...) count the requests of fio's loop over
 * the files, which they do not do (fio_fileops.h), in each direction; the
 * file operations' latency is the only (clat) samples, in the direction
 * fio gives them (read unless the job only writes).
 */
static void fio_file_engine(struct fio_ts *ts, const struct acc *a, const struct job *j)
{
	const struct thread_stats *t = &a->st;
	const struct op_stats *o = &t->op[job_file_op(j)];
	uint64_t ios = 0;
	for (int d = 0; d < 2; d++) {
		struct fio_dir *x = &ts->dir[d];
		x->io_bytes = a->fake_bytes[d];
		x->ios = a->fake_ios[d];
		ios += x->ios;
		if (x->ios && t->elapsed_ns) {
			x->runtime_ms = (t->elapsed_ns + NSEC_PER_MSEC / 2) / NSEC_PER_MSEC;
			x->bw_bytes = (uint64_t)((double)x->io_bytes * 1e9 / (double)t->elapsed_ns);
			x->iops = (double)x->ios * 1e9 / (double)t->elapsed_ns;
		}
	}
	struct fio_dir *x = &ts->dir[rw_reads(j->rw) ? IO_READ : IO_WRITE];
	free(x->clat.plat);
	fio_lat_from(&x->clat, &o->clat);
	lat_ranges(ts, &o->clat);
	/* One request at a time, each submitted and completed alone. */
	memset(ts->depth, 0, sizeof(ts->depth));
	memset(ts->submit, 0, sizeof(ts->submit));
	memset(ts->complete, 0, sizeof(ts->complete));
	ts->depth[0] = ts->submit[1] = ts->complete[1] = ios;
}

static void ts_finish(struct fio_ts *ts, struct acc *a)
{
	const struct thread_stats *t = &a->st;
	for (int d = 0; d < FIO_DDIRS; d++) {
		struct fio_dir *x = &ts->dir[d];
		const struct op_stats *o = &t->op[d];
		x->io_bytes = o->bytes;
		/* fio counts a request when it is queued: one that failed is among total_ios, not io_bytes. */
		x->ios = o->ios + t->failed[d];
		/* fio's runtime per direction: reads also over its verify phases. */
		uint64_t ns = stats_dir_ns(t, d);
		if (x->ios && ns) {
			x->runtime_ms = (ns + NSEC_PER_MSEC / 2) / NSEC_PER_MSEC;
			x->bw_bytes = (uint64_t)((double)o->bytes * 1e9 / (double)ns);
			x->iops = (double)x->ios * 1e9 / (double)ns;
		}
		fio_lat_from(&x->slat, &o->slat);
		fio_lat_from(&x->clat, &o->clat);
		fio_lat_from(&x->lat, &o->lat);
		x->bw = a->bw[d];
		x->iops_s = a->iops[d];
		for (unsigned i = 0; d < DDIR_NR && i < t->nprio[d]; i++) {
			if (!t->prio[d][i].lat.n)
				continue;
			if (!x->prios)
				x->prios = xcalloc(t->nprio[d], sizeof(*x->prios));
			struct fio_prio *p = &x->prios[x->nprios++];
			p->ioprio = t->prio[d][i].ioprio;
			fio_lat_from(&p->lat, &t->prio[d][i].lat);
		}
		lat_ranges(ts, &o->clat);
	}
	/* fsync and fdatasync together, as fio's "sync" (lat is clat for them). */
	struct lat_stats sync;
	lat_init(&sync);
	for (int op = IO_FSYNC; op <= IO_FDATASYNC; op++) {
		lat_merge(&sync, &t->op[op].clat);
		ts->sync_ios += t->op[op].ios;
	}
	fio_lat_from(&ts->sync, &sync);
	lat_free(&sync);
	/* A read that ended early is no errno: fio gives a request it cannot finish EIO ("full resid"). */
	ts->error = t->short_io && t->err == ENODATA ? EIO : t->err;
	/* fio: a job that went past errors reports the first as its error. */
	for (int op = 0; op < IO_OP_NR; op++)
		ts->total_err += t->errs[op];
	ts->first_error = t->first_error;
	if (!ts->error && ts->jr->job.errtol.coe)
		ts->error = t->first_error;
	ts->job_runtime_ms = a->job_runtime_ms;
	ts->usr_ns = t->cpu.usr_ns;
	ts->sys_ns = t->cpu.sys_ns;
	ts->ctx = t->cpu.ctx;
	ts->majf = t->cpu.majf;
	ts->minf = t->cpu.minf;
	memcpy(ts->depth, t->depth, sizeof(ts->depth));
	ts->lat_depth = t->lat_depth;
	memcpy(ts->submit, t->submit, sizeof(ts->submit));
	memcpy(ts->complete, t->complete, sizeof(ts->complete));
	if (ts->jr->job.engine->fileop)
		fio_file_engine(ts, a, &ts->jr->job);
	stats_free(&a->st);
}

static void group_aggregates(struct fio_report *fr)
{
	fr->ngroups = 0;
	for (unsigned i = 0; i < fr->n; i++)
		if (fr->ts[i].groupid + 1 > fr->ngroups)
			fr->ngroups = fr->ts[i].groupid + 1;
	fr->agg_bps = xcalloc(fr->ngroups ? fr->ngroups : 1, sizeof(*fr->agg_bps));
	for (unsigned g = 0; g < fr->ngroups; g++) {
		for (int d = 0; d < FIO_DDIRS; d++) {
			uint64_t bytes = 0, max_ms = 0;
			for (unsigned i = 0; i < fr->n; i++) {
				const struct fio_ts *ts = &fr->ts[i];
				if (ts->groupid != g)
					continue;
				bytes += ts->dir[d].io_bytes;
				if (ts->dir[d].runtime_ms > max_ms)
					max_ms = ts->dir[d].runtime_ms;
			}
			fr->agg_bps[g][d] = max_ms ? bytes * 1000 / max_ms : 0;
		}
	}
}

void fio_report_build(struct fio_report *fr, const struct run_result *r)
{
	unsigned cap = 0;
	memset(fr, 0, sizeof(*fr));
	for (unsigned i = 0; i < r->njobs; i++)
		cap += r->jobs[i].threads ? r->jobs[i].nthreads : 0;
	fr->ts = xcalloc(cap ? cap : 1, sizeof(*fr->ts));
	struct acc *acc = xcalloc(cap ? cap : 1, sizeof(*acc));
	/* fio numbers threads from 1 over the whole run (its seeds depend on it), as the runner does. */
	unsigned number = 1;
	for (unsigned i = 0; i < r->njobs; number += r->jobs[i].job.numjobs, i++) {
		const struct job_result *jr = &r->jobs[i];
		for (unsigned t = 0; jr->threads && t < jr->nthreads; t++) {
			struct fio_ts *prev = fr->n ? &fr->ts[fr->n - 1] : NULL;
			/* fio: with group_reporting, a thread joins the entry of its group. */
			bool join = prev && jr->job.group_reporting && prev->groupid == jr->group &&
				    prev->last->job.group_reporting;
			if (!join) {
				prev = &fr->ts[fr->n];
				stats_init(&acc[fr->n].st);
				fr->n++;
				prev->jr = jr;
				prev->groupid = jr->group;
			}
			acc_add(&acc[prev - fr->ts], prev, jr, &jr->threads[t], number + t);
		}
	}
	for (unsigned i = 0; i < fr->n; i++)
		ts_finish(&fr->ts[i], &acc[i]);
	free(acc);
	group_aggregates(fr);
}

static void fio_lat_free(struct fio_lat *l)
{
	free(l->plat);
	l->plat = NULL;
}

void fio_report_free(struct fio_report *fr)
{
	for (unsigned i = 0; i < fr->n; i++) {
		for (int d = 0; d < FIO_DDIRS; d++) {
			fio_lat_free(&fr->ts[i].dir[d].slat);
			fio_lat_free(&fr->ts[i].dir[d].clat);
			fio_lat_free(&fr->ts[i].dir[d].lat);
			for (unsigned k = 0; k < fr->ts[i].dir[d].nprios; k++)
				fio_lat_free(&fr->ts[i].dir[d].prios[k].lat);
			free(fr->ts[i].dir[d].prios);
		}
		fio_lat_free(&fr->ts[i].sync);
	}
	free(fr->ts);
	free(fr->agg_bps);
	memset(fr, 0, sizeof(*fr));
}

uint64_t fio_group_bps(const struct fio_report *fr, unsigned group, int dir)
{
	return group < fr->ngroups ? fr->agg_bps[group][dir] : 0;
}
