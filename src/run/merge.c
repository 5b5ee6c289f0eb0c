/* Exact merging of several processes' results through fixed-size buffers. */
#include "base/common.h"
#include "run/merge.h"

#include <stdlib.h>
#include <string.h>

#define MERGE_MAGIC 0x69676d7267000001ULL /* "igmrg", version 1 */

/* The buffer: a header, then one section per way of combining. */
enum { K_SUM, K_SUM128, K_MIN, K_MAX, K_NR };
enum { H_MAGIC, H_SUM, H_SUM128, H_MIN, H_MAX, H_WORDS };

/* ---- shape */

static struct lat_stats *lat_of(struct thread_stats *t, unsigned i)
{
	struct op_stats *o = &t->op[i / 3];
	return i % 3 == 0 ? &o->slat : i % 3 == 1 ? &o->clat : &o->lat;
}

void merge_shape(const struct job_result *jr, uint64_t shape[MERGE_SHAPE_WORDS])
{
	struct thread_stats *t = (struct thread_stats *)&jr->total;
	memset(shape, 0, MERGE_SHAPE_WORDS * sizeof(*shape));
	shape[0] = t->series.n;
	for (unsigned i = 0; i < MERGE_LATS; i++) {
		const struct hist *h = lat_of(t, i)->h;
		if (!h)
			continue;
		uint64_t *s = &shape[1 + 3 * i];
		s[0] = 1;
		unsigned lo = HIST_BUCKETS, hi = 0;
		for (unsigned b = 0; b < HIST_BUCKETS; b++) {
			if (!h->counts[b])
				continue;
			lo = b < lo ? b : lo;
			hi = b;
		}
		/* Encoded for MAX: the lowest bucket as its distance from the top; the highest plus one. */
		if (lo < HIST_BUCKETS) {
			s[1] = HIST_BUCKETS - lo;
			s[2] = (uint64_t)hi + 1;
		}
	}
}

void merge_shape_max(uint64_t dst[MERGE_SHAPE_WORDS], const uint64_t src[MERGE_SHAPE_WORDS])
{
	for (unsigned i = 0; i < MERGE_SHAPE_WORDS; i++)
		dst[i] = src[i] > dst[i] ? src[i] : dst[i];
}

/* Histogram i: present, and its bucket range [lo, hi) (empty when lo >= hi). */
static bool shape_hist(const uint64_t *shape, unsigned i, unsigned *lo, unsigned *hi)
{
	const uint64_t *s = &shape[1 + 3 * i];
	*lo = s[1] ? (unsigned)(HIST_BUCKETS - s[1]) : 0;
	*hi = s[1] ? (unsigned)s[2] : 0;
	return s[0] != 0;
}

/* ---- one walk over the fields, to count, pack or unpack them */

struct walk {
	int mode; /* W_COUNT, W_PACK, W_UNPACK */
	uint64_t *cur[K_NR];
	size_t n[K_NR];
};
enum { W_COUNT, W_PACK, W_UNPACK };

static void v64(struct walk *w, int k, uint64_t *x)
{
	if (w->mode == W_COUNT)
		w->n[k]++;
	else if (w->mode == W_PACK)
		*w->cur[k]++ = *x;
	else
		*x = *w->cur[k]++;
}

static void v128(struct walk *w, unsigned __int128 *x)
{
	uint64_t lo = (uint64_t)*x, hi = (uint64_t)(*x >> 64);
	v64(w, K_SUM128, &lo);
	v64(w, K_SUM128, &hi);
	*x = (unsigned __int128)hi << 64 | lo;
}

static void vbool(struct walk *w, bool *b)
{
	uint64_t x = *b;
	v64(w, K_MAX, &x);
	*b = x != 0;
}

static void walk_lat(struct walk *w, struct lat_stats *l, const uint64_t *shape, unsigned i)
{
	unsigned lo, hi;
	if (!shape_hist(shape, i, &lo, &hi))
		return;
	v64(w, K_SUM, &l->n);
	v64(w, K_SUM, &l->sum);
	v128(w, &l->sumsq);
	v64(w, K_MIN, &l->min);
	v64(w, K_MAX, &l->max);
	if (w->mode == W_UNPACK && !l->h)
		l->h = xcalloc(1, sizeof(*l->h));
	for (unsigned b = lo; b < hi; b++) {
		uint64_t c = l->h ? l->h->counts[b] : 0; /* a rank without it adds nothing */
		v64(w, K_SUM, &c);
		if (w->mode == W_UNPACK)
			l->h->counts[b] = c;
	}
}

/* Point i of a series; past its end the last cumulative totals carry on (as stats_merge does). */
static struct series_pt point_at(const struct series *s, unsigned i)
{
	struct series_pt p;
	memset(&p, 0, sizeof(p));
	if (i < s->n)
		return s->pts[i];
	if (s->n) {
		p = s->pts[s->n - 1];
		memset(p.lat_max, 0, sizeof(p.lat_max));
		p.t_ns = 0;
	}
	return p;
}

static void walk_series(struct walk *w, struct series *s, uint64_t npts)
{
	if (w->mode == W_UNPACK) {
		free(s->pts);
		s->pts = npts ? xcalloc(npts, sizeof(*s->pts)) : NULL;
		s->cap = (unsigned)npts;
		s->n = 0;
	}
	for (unsigned i = 0; i < npts; i++) {
		struct series_pt p;
		memset(&p, 0, sizeof(p));
		if (w->mode == W_PACK)
			p = point_at(s, i);
		for (int d = 0; d < DDIR_NR; d++) {
			v64(w, K_SUM, &p.ios[d]);
			v64(w, K_SUM, &p.bytes[d]);
			v64(w, K_SUM, &p.lat_sum[d]);
			v64(w, K_MAX, &p.lat_max[d]);
		}
		v64(w, K_MAX, &p.t_ns);
		if (w->mode == W_UNPACK)
			s->pts[s->n++] = p;
	}
}

static void walk_job(struct walk *w, struct job_result *jr, const uint64_t *shape)
{
	struct thread_stats *t = &jr->total;
	for (unsigned o = 0; o < IO_OP_NR; o++) {
		v64(w, K_SUM, &t->op[o].ios);
		v64(w, K_SUM, &t->op[o].bytes);
	}
	for (unsigned i = 0; i < MERGE_LATS; i++)
		walk_lat(w, lat_of(t, i), shape, i);
	v64(w, K_SUM, &t->cpu.usr_ns);
	v64(w, K_SUM, &t->cpu.sys_ns);
	v64(w, K_SUM, &t->cpu.ctx);
	v64(w, K_SUM, &t->cpu.majf);
	v64(w, K_SUM, &t->cpu.minf);
	for (unsigned i = 0; i < DEPTH_BUCKETS; i++) {
		v64(w, K_SUM, &t->depth[i]);
		v64(w, K_SUM, &t->submit[i]);
		v64(w, K_SUM, &t->complete[i]);
	}
	v64(w, K_MAX, &t->elapsed_ns); /* the slowest rank's measured time */
	v64(w, K_MAX, &t->verify_ns);
	v64(w, K_SUM, &t->verify_ios);
	v64(w, K_SUM, &t->invalidations);
	v64(w, K_SUM, &t->invalidate_ns);
	v64(w, K_SUM, &t->left_bytes);
	for (unsigned i = 0; i < IO_OP_NR; i++)
		v64(w, K_SUM, &t->failed[i]);
	v64(w, K_SUM, &t->prepared_items);
	v64(w, K_MAX, &t->prepare_ns); /* the slowest rank's */
	vbool(w, &t->interrupted);
	vbool(w, &t->halted);
	walk_series(w, &t->series, shape[0]);
	/* The job's own sums: cache work, fallbacks, residency where known. */
	v64(w, K_SUM, &jr->invalidate_ns);
	vbool(w, &jr->buffered_fallback);
	uint64_t known = jr->resident_before >= 0, res = known ? (uint64_t)jr->resident_before : 0;
	v64(w, K_SUM, &known);
	v64(w, K_SUM, &res);
	jr->resident_before = known ? (int64_t)res : -1;
	/* What was still in the page cache when the clock stopped: summed where ranks know it. */
	known = jr->unsynced_after >= 0;
	res = known ? (uint64_t)jr->unsynced_after : 0;
	v64(w, K_SUM, &known);
	v64(w, K_SUM, &res);
	jr->unsynced_after = known ? (int64_t)res : -1;
}

static void counts(const uint64_t *shape, size_t n[K_NR])
{
	struct walk w = { .mode = W_COUNT };
	struct job_result jr;
	memset(&jr, 0, sizeof(jr));
	jr.resident_before = jr.unsynced_after = -1;
	walk_job(&w, &jr, shape);
	memcpy(n, w.n, sizeof(w.n));
}

size_t merge_words(const uint64_t shape[MERGE_SHAPE_WORDS])
{
	size_t n[K_NR];
	counts(shape, n);
	return H_WORDS + n[K_SUM] + n[K_SUM128] + n[K_MIN] + n[K_MAX];
}

size_t merge_buffer_words(const uint64_t *buf)
{
	return H_WORDS + buf[H_SUM] + buf[H_SUM128] + buf[H_MIN] + buf[H_MAX];
}

static void sections(uint64_t *buf, uint64_t *cur[K_NR])
{
	cur[K_SUM] = buf + H_WORDS;
	cur[K_SUM128] = cur[K_SUM] + buf[H_SUM];
	cur[K_MIN] = cur[K_SUM128] + buf[H_SUM128];
	cur[K_MAX] = cur[K_MIN] + buf[H_MIN];
}

void merge_pack(const struct job_result *jr, const uint64_t shape[MERGE_SHAPE_WORDS], uint64_t *buf)
{
	size_t n[K_NR];
	counts(shape, n);
	buf[H_MAGIC] = MERGE_MAGIC;
	buf[H_SUM] = n[K_SUM];
	buf[H_SUM128] = n[K_SUM128];
	buf[H_MIN] = n[K_MIN];
	buf[H_MAX] = n[K_MAX];
	struct walk w = { .mode = W_PACK };
	sections(buf, w.cur);
	/* Packing only reads: the walk is shared with unpacking, hence the cast. */
	struct job_result copy = *jr;
	walk_job(&w, &copy, shape);
}

void merge_combine(const uint64_t *in, uint64_t *inout)
{
	const uint64_t *a = in + H_WORDS;
	uint64_t *b = inout + H_WORDS;
	for (uint64_t i = 0; i < in[H_SUM]; i++)
		b[i] += a[i];
	a += in[H_SUM];
	b += in[H_SUM];
	for (uint64_t i = 0; i + 1 < in[H_SUM128]; i += 2) {
		uint64_t lo = b[i] + a[i];
		b[i + 1] += a[i + 1] + (lo < b[i]);
		b[i] = lo;
	}
	a += in[H_SUM128];
	b += in[H_SUM128];
	for (uint64_t i = 0; i < in[H_MIN]; i++)
		b[i] = a[i] < b[i] ? a[i] : b[i];
	a += in[H_MIN];
	b += in[H_MIN];
	for (uint64_t i = 0; i < in[H_MAX]; i++)
		b[i] = a[i] > b[i] ? a[i] : b[i];
}

void merge_unpack(const uint64_t *buf, const uint64_t shape[MERGE_SHAPE_WORDS], struct job_result *jr)
{
	struct walk w = { .mode = W_UNPACK };
	sections((uint64_t *)buf, w.cur);
	walk_job(&w, jr, shape);
}

/* ---- per-rank figures */

void rank_fig_of(const struct job_result *jr, struct rank_fig *f)
{
	const struct thread_stats *t = &jr->total;
	memset(f, 0, sizeof(*f));
	/* Completion latency of every request: reads, writes, or a file-op job's operations. */
	for (int d = 0; d < IO_OP_NR; d++) {
		const struct lat_stats *l = &t->op[d].clat;
		if (d < DDIR_NR) {
			f->bytes[d] = t->op[d].bytes;
			f->ios[d] = t->op[d].ios;
		} else if (io_op_is_file(d)) {
			f->fops += t->op[d].ios;
		} else {
			continue;
		}
		f->lat_n += l->n;
		f->lat_sum += l->sum;
		f->lat_max = l->n && l->max > f->lat_max ? l->max : f->lat_max;
	}
	f->elapsed_ns = t->elapsed_ns;
	f->left_bytes = t->left_bytes;
	f->err = t->err;
	f->interrupted = t->interrupted;
	f->halted = t->halted;
}

double rank_fig_bw(const struct rank_fig *f, int d)
{
	return f->elapsed_ns ? (double)f->bytes[d] * 1e9 / (double)f->elapsed_ns : 0;
}

double rank_fig_iops(const struct rank_fig *f, int d)
{
	return f->elapsed_ns ? (double)f->ios[d] * 1e9 / (double)f->elapsed_ns : 0;
}

double rank_fig_fops(const struct rank_fig *f, int d)
{
	(void)d;
	return f->elapsed_ns ? (double)f->fops * 1e9 / (double)f->elapsed_ns : 0;
}

double rank_fig_elapsed(const struct rank_fig *f, int d)
{
	(void)d;
	return (double)f->elapsed_ns / 1e9;
}

double rank_fig_lat_mean(const struct rank_fig *f, int d)
{
	(void)d;
	return f->lat_n ? (double)f->lat_sum / (double)f->lat_n : 0;
}

struct spread merge_spread(const struct cluster_job *cj, unsigned nranks,
			   double (*fig)(const struct rank_fig *f, int d), int d)
{
	struct spread s = { 0, 0, 0, 0, 0 };
	for (unsigned r = 0; r < nranks; r++) {
		double v = fig(&cj->ranks[r], d);
		if (!r || v < s.min) {
			s.min = v;
			s.min_rank = r;
		}
		if (!r || v > s.max) {
			s.max = v;
			s.max_rank = r;
		}
		s.mean += v / nranks;
	}
	return s;
}

void cluster_run_free(struct run_result *r)
{
	for (unsigned i = 0; i < r->njobs; i++) {
		struct cluster_job *cj = r->jobs[i].cluster;
		if (!cj)
			continue;
		free(cj->ranks);
		free(cj->ranks_json);
		free(cj);
		r->jobs[i].cluster = NULL;
	}
	if (r->cluster) {
		free(r->cluster->ranks);
		free(r->cluster->devs);
		free(r->cluster->dev_rank);
		free(r->cluster);
		r->cluster = NULL;
	}
}
