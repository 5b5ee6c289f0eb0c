/* Unit tests for per-thread statistics. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "base/common.h"

/* struct thread_stats is large (an error path): keep them off the stack. */
static struct thread_stats ta, tb, tc, tm;

static void test_init_reset(void **state)
{
	(void)state;
	stats_init(&ta);
	for (int o = 0; o < IO_OP_NR; o++) {
		const struct op_stats *s = &ta.op[o];
		const struct lat_stats *ls[] = { &s->slat, &s->clat, &s->lat };
		for (int k = 0; k < 3; k++) {
			assert_int_equal(ls[k]->min, UINT64_MAX);
			assert_int_equal(ls[k]->n, 0);
			assert_null(ls[k]->h); /* histograms only when wanted */
		}
		assert_int_equal(s->ios, 0);
		assert_int_equal(s->bytes, 0);
	}
	assert_int_equal(ta.series.interval_ns, NSEC_PER_SEC);
	assert_int_equal(ta.series.n, 0);
	assert_int_equal(ta.err, 0);

	/* Synchronous engines: clat only; asynchronous: slat, clat and lat. */
	stats_want(&ta, IO_READ, false);
	assert_non_null(ta.op[IO_READ].clat.h);
	assert_null(ta.op[IO_READ].slat.h);
	assert_null(ta.op[IO_READ].lat.h);
	stats_want(&ta, IO_FSYNC, true);
	assert_non_null(ta.op[IO_FSYNC].slat.h);
	assert_non_null(ta.op[IO_FSYNC].clat.h);
	assert_non_null(ta.op[IO_FSYNC].lat.h);
	assert_null(ta.op[IO_WRITE].clat.h);
	struct hist *h = ta.op[IO_READ].clat.h;
	stats_want(&ta, IO_READ, false); /* again: the same histogram */
	assert_ptr_equal(ta.op[IO_READ].clat.h, h);

	struct series_pt p = { .ios = { 1, 2 } };
	for (int i = 0; i < 5; i++)
		series_push(&ta.series, &p);
	lat_add(&ta.op[IO_READ].clat, 500);
	ta.op[IO_READ].ios = 1;
	/* Syncs are operations of their own now (there is no syncs counter). */
	lat_add(&ta.op[IO_FSYNC].clat, 700);
	ta.op[IO_FSYNC].ios = 3;
	ta.cpu.usr_ns = 9;
	ta.invalidations = 2;
	ta.invalidate_ns = 77;
	ta.elapsed_ns = 12;
	ta.err = 5;
	struct series_pt *pts = ta.series.pts;
	unsigned cap = ta.series.cap;
	stats_reset(&ta);
	assert_ptr_equal(ta.series.pts, pts);
	assert_int_equal(ta.series.cap, cap);
	assert_int_equal(ta.series.n, 0);
	assert_int_equal(ta.series.interval_ns, NSEC_PER_SEC);
	assert_int_equal(ta.op[IO_READ].clat.n, 0);
	assert_int_equal(ta.op[IO_READ].clat.min, UINT64_MAX);
	assert_int_equal(ta.op[IO_READ].clat.max, 0);
	assert_int_equal(ta.op[IO_READ].clat.sum, 0);
	assert_true(ta.op[IO_READ].clat.sumsq == 0);
	/* The histogram is kept (no allocation after the ramp) and emptied. */
	assert_ptr_equal(ta.op[IO_READ].clat.h, h);
	assert_int_equal(hist_total(ta.op[IO_READ].clat.h), 0);
	assert_null(ta.op[IO_WRITE].clat.h);
	assert_int_equal(ta.op[IO_READ].ios, 0);
	assert_int_equal(ta.op[IO_FSYNC].ios, 0);
	assert_int_equal(ta.op[IO_FSYNC].clat.n, 0);
	assert_int_equal(hist_total(ta.op[IO_FSYNC].clat.h), 0);
	assert_int_equal(ta.cpu.usr_ns, 0);
	assert_int_equal(ta.invalidations, 0);
	assert_int_equal(ta.invalidate_ns, 0);
	assert_int_equal(ta.elapsed_ns, 0);
	assert_int_equal(ta.err, 5); /* an error is not a counter */
	stats_free(&ta);
	assert_null(ta.series.pts);
	assert_int_equal(ta.series.n, 0);
	for (int o = 0; o < IO_OP_NR; o++) {
		assert_null(ta.op[o].slat.h);
		assert_null(ta.op[o].clat.h);
		assert_null(ta.op[o].lat.h);
	}
	stats_free(&ta); /* twice is harmless */
}

static void test_series_push(void **state)
{
	(void)state;
	struct series s = { 0 };
	for (unsigned i = 0; i < 1000; i++) {
		struct series_pt p = { .ios = { i, 2 * i }, .lat_max = { i * 7, 0 } };
		series_push(&s, &p);
		assert_int_equal(s.n, i + 1);
		assert_true(s.cap >= s.n);
		assert_true((s.cap & (s.cap - 1)) == 0); /* grown by doubling */
	}
	for (unsigned i = 0; i < 1000; i++) {
		assert_int_equal(s.pts[i].ios[0], i);
		assert_int_equal(s.pts[i].ios[1], 2 * i);
		assert_int_equal(s.pts[i].lat_max[0], i * 7);
	}
	free(s.pts);
}

static uint64_t lat_sample(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (*x >> 33) % 1000000 + ((*x >> 20) & 1 ? 100000000 : 0);
}

static void assert_lat_equal(const struct lat_stats *a, const struct lat_stats *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sumsq == b->sumsq);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	/* Histograms: equal bucket by bucket; a missing one is an empty one. */
	if (b->n) {
		assert_non_null(a->h);
		assert_non_null(b->h);
		assert_memory_equal(a->h, b->h, sizeof(*a->h));
	}
	if (a->h)
		assert_int_equal(hist_total(a->h), a->n);
	if (b->h)
		assert_int_equal(hist_total(b->h), b->n);
	assert_true(lat_mean(a) == lat_mean(b));
	assert_true(lat_stddev(a) == lat_stddev(b));
	for (double p = 0.5; p <= 100; p += 0.5)
		assert_int_equal(lat_pct(a, p), lat_pct(b, p));
}

static void test_merge_threads(void **state)
{
	(void)state;
	stats_init(&ta);
	stats_init(&tb);
	stats_init(&tc);
	stats_init(&tm); /* the total wants nothing: merging allocates what it needs */
	/* Thread a reads and writes synchronously; thread b writes asynchronously. */
	stats_want(&ta, IO_READ, false);
	stats_want(&ta, IO_WRITE, false);
	stats_want(&ta, IO_FSYNC, false);
	stats_want(&tb, IO_WRITE, true);
	stats_want(&tb, IO_FDATASYNC, true);
	for (int o = 0; o < IO_OP_NR; o++)
		stats_want(&tc, o, true);
	uint64_t x = 1;
	for (int i = 0; i < 20000; i++) {
		int d = i % 3 == 0 ? IO_WRITE : IO_READ;
		/* Thread b only writes: its read min stays UINT64_MAX. */
		struct thread_stats *t = d == IO_WRITE && i % 2 ? &tb : &ta;
		uint64_t v = lat_sample(&x);
		lat_add(&t->op[d].clat, v);
		lat_add(&tc.op[d].clat, v);
		if (t == &tb) {
			lat_add(&tb.op[d].slat, v / 7);
			lat_add(&tc.op[d].slat, v / 7);
			lat_add(&tb.op[d].lat, v + v / 7);
			lat_add(&tc.op[d].lat, v + v / 7);
		}
		t->op[d].ios++;
		tc.op[d].ios++;
		t->op[d].bytes += 4096;
		tc.op[d].bytes += 4096;
	}
	/* Syncs: fsync on thread a, fdatasync on thread b (they were one "syncs" counter). */
	for (int i = 0; i < 4; i++) {
		lat_add(&ta.op[IO_FSYNC].clat, 1000000 + (uint64_t)i);
		lat_add(&tc.op[IO_FSYNC].clat, 1000000 + (uint64_t)i);
	}
	ta.op[IO_FSYNC].ios = tc.op[IO_FSYNC].ios = 4;
	for (int i = 0; i < 6; i++) {
		lat_add(&tb.op[IO_FDATASYNC].clat, 2000000 + (uint64_t)i);
		lat_add(&tc.op[IO_FDATASYNC].clat, 2000000 + (uint64_t)i);
		lat_add(&tb.op[IO_FDATASYNC].slat, 10);
		lat_add(&tc.op[IO_FDATASYNC].slat, 10);
		lat_add(&tb.op[IO_FDATASYNC].lat, 2000010 + (uint64_t)i);
		lat_add(&tc.op[IO_FDATASYNC].lat, 2000010 + (uint64_t)i);
	}
	tb.op[IO_FDATASYNC].ios = tc.op[IO_FDATASYNC].ios = 6;
	ta.cpu = (struct cpu_usage){ 10, 20, 30, 0, 0 };
	tb.cpu = (struct cpu_usage){ 1, 2, 3, 0, 0 };
	ta.elapsed_ns = 5 * NSEC_PER_SEC;
	tb.elapsed_ns = 7 * NSEC_PER_SEC;
	ta.invalidations = 2;
	tb.invalidations = 3;
	ta.invalidate_ns = 100;
	tb.invalidate_ns = 50;
	tb.err = 28;
	tb.err_op = IO_FDATASYNC;
	tb.err_offset = 8192;
	strcpy(tb.err_file, "/tmp/b");
	tb.interrupted = true;

	stats_merge(&tm, &ta);
	stats_merge(&tm, &tb);
	for (int o = 0; o < IO_OP_NR; o++) {
		assert_int_equal(tm.op[o].ios, tc.op[o].ios);
		assert_int_equal(tm.op[o].bytes, tc.op[o].bytes);
		assert_lat_equal(&tm.op[o].slat, &tc.op[o].slat);
		assert_lat_equal(&tm.op[o].clat, &tc.op[o].clat);
		assert_lat_equal(&tm.op[o].lat, &tc.op[o].lat);
	}
	/* Nothing measured, nothing allocated. */
	assert_null(tm.op[IO_TRIM].clat.h);
	assert_null(tm.op[IO_READ].slat.h);
	assert_true(tc.op[IO_WRITE].clat.n > 0 && tc.op[IO_READ].clat.n > 0);
	assert_int_equal(tm.cpu.usr_ns, 11);
	assert_int_equal(tm.cpu.sys_ns, 22);
	assert_int_equal(tm.cpu.ctx, 33);
	assert_int_equal(tm.elapsed_ns, 7 * NSEC_PER_SEC);
	stats_merge(&tb, &ta); /* the longer thread first: still the max */
	assert_int_equal(tb.elapsed_ns, 7 * NSEC_PER_SEC);
	assert_int_equal(tb.err, 28); /* tb's own error stays */
	assert_int_equal(tm.op[IO_FSYNC].ios + tm.op[IO_FDATASYNC].ios, 10);
	assert_int_equal(tm.op[IO_FSYNC].ios, 4);
	assert_int_equal(tm.op[IO_FDATASYNC].ios, 6);
	assert_int_equal(tm.invalidations, 5);
	assert_int_equal(tm.invalidate_ns, 150);
	assert_int_equal(tm.err, 28);
	assert_int_equal(tm.err_op, IO_FDATASYNC);
	assert_int_equal(tm.err_offset, 8192);
	assert_string_equal(tm.err_file, "/tmp/b");
	assert_true(tm.interrupted);

	/* The first error is kept. */
	ta.err = 5;
	strcpy(ta.err_file, "/tmp/a");
	stats_merge(&ta, &tb);
	assert_int_equal(ta.err, 5);
	assert_string_equal(ta.err_file, "/tmp/a");
	stats_free(&ta);
	stats_free(&tb);
	stats_free(&tc);
	stats_free(&tm);
}

static void test_lat_copy_merge(void **state)
{
	(void)state;
	static struct lat_stats a, b, c, all;
	lat_init(&a);
	lat_init(&b);
	lat_init(&c);
	lat_init(&all);
	assert_null(a.h);
	assert_int_equal(a.min, UINT64_MAX);
	/* Never measured: no histogram, percentiles 0, mean and stddev 0. */
	assert_int_equal(lat_pct(&a, 50), 0);
	assert_true(lat_mean(&a) == 0 && lat_stddev(&a) == 0);
	a.h = calloc(1, sizeof(*a.h));
	b.h = calloc(1, sizeof(*b.h));
	all.h = calloc(1, sizeof(*all.h));
	assert_true(a.h && b.h && all.h);
	assert_int_equal(lat_pct(&a, 50), 0); /* a histogram without samples */
	uint64_t x = 11;
	for (int i = 0; i < 5000; i++) {
		uint64_t v = lat_sample(&x);
		lat_add(i % 4 ? &a : &b, v);
		lat_add(&all, v);
	}
	/* Merging a lat_stats without a histogram changes nothing and allocates nothing. */
	lat_merge(&a, &c);
	assert_null(c.h);
	/* Into one without a histogram: it gets one. */
	lat_merge(&c, &a);
	assert_non_null(c.h);
	assert_ptr_not_equal(c.h, a.h);
	lat_merge(&c, &b);
	assert_lat_equal(&c, &all);

	/* A copy is deep: changing the copy leaves the original alone. */
	static struct lat_stats cp;
	lat_init(&cp);
	lat_copy(&cp, &all);
	assert_ptr_not_equal(cp.h, all.h);
	assert_lat_equal(&cp, &all);
	lat_add(&cp, 5);
	assert_int_equal(cp.n, all.n + 1);
	assert_int_equal(hist_total(all.h), all.n);
	/* Copying over a filled one replaces it (and frees its histogram: ASan watches). */
	lat_copy(&cp, &b);
	assert_lat_equal(&cp, &b);
	/* A copy of one never measured has no histogram. */
	static struct lat_stats none;
	lat_init(&none);
	lat_copy(&cp, &none);
	assert_null(cp.h);
	assert_int_equal(cp.n, 0);
	assert_int_equal(cp.min, UINT64_MAX);
	lat_free(&a);
	lat_free(&b);
	lat_free(&c);
	lat_free(&all);
	lat_free(&cp);
	assert_null(a.h);
	lat_free(&a); /* twice is harmless */
}

static void lat_of(struct lat_stats *l, const uint64_t *v, size_t n)
{
	lat_free(l);
	lat_init(l);
	l->h = calloc(1, sizeof(*l->h));
	assert_non_null(l->h);
	for (size_t i = 0; i < n; i++)
		lat_add(l, v[i]);
}

/* Two-pass reference in long double: exact for these inputs. */
static void reference(const uint64_t *v, size_t n, long double *mean, long double *sd)
{
	long double m = 0, s = 0;
	for (size_t i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	*mean = m;
	*sd = sqrtl(s / n);
}

static void test_mean_stddev(void **state)
{
	(void)state;
	static struct lat_stats l;
	static const uint64_t small[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	lat_of(&l, small, 8);
	assert_true(lat_mean(&l) == 5.0);
	assert_true(lat_stddev(&l) == 2.0);

	lat_of(&l, small, 0);
	assert_true(lat_mean(&l) == 0);
	assert_true(lat_stddev(&l) == 0);
	lat_of(&l, small, 1);
	assert_true(lat_mean(&l) == 2.0);
	assert_true(lat_stddev(&l) == 0);

	/* n * var = 2/3 has a fraction: {0, 1, 1} has stddev sqrt(2) / 3. */
	static const uint64_t third[] = { 0, 1, 1 };
	lat_of(&l, third, 3);
	assert_true(fabs(lat_stddev(&l) - sqrt(2) / 3) < 1e-15);
	static const uint64_t third_big[] = { 1ULL << 50, (1ULL << 50) + 1, (1ULL << 50) + 1 };
	lat_of(&l, third_big, 3);
	assert_true(fabs(lat_stddev(&l) - sqrt(2) / 3) < 1e-15);

	/* Large equal values: naive sumsq/n - mean^2 in double gives noise. */
	static uint64_t v[4096];
	for (int i = 0; i < 4096; i++)
		v[i] = 3000000000007ULL;
	lat_of(&l, v, 4096);
	assert_true(lat_mean(&l) == 3000000000007.0);
	assert_true(lat_stddev(&l) == 0);

	/* Big offset, tiny spread: 1e12 + {0, 1}: mean +0.5, stddev 0.5. */
	for (int i = 0; i < 4096; i++)
		v[i] = 1000000000000ULL + (i & 1);
	lat_of(&l, v, 4096);
	assert_true(lat_mean(&l) == 1000000000000.5);
	assert_true(lat_stddev(&l) == 0.5);

	/* Values near 2^62 (sum fits): sumsq needs all 128 bits. */
	static const uint64_t big[] = { 1ULL << 61, 3ULL << 60, 1ULL << 60 };
	long double m, sd;
	lat_of(&l, big, 3);
	reference(big, 3, &m, &sd);
	assert_true(fabsl(lat_stddev(&l) - sd) <= sd * 1e-15L);
	assert_true(fabsl(lat_mean(&l) - m) <= m * 1e-15L);

	/* Random latencies against the reference. */
	uint64_t x = 3;
	for (int i = 0; i < 4096; i++)
		v[i] = lat_sample(&x);
	lat_of(&l, v, 4096);
	reference(v, 4096, &m, &sd);
	assert_true(fabsl(lat_stddev(&l) - sd) <= sd * 1e-12L);
	assert_true(fabsl(lat_mean(&l) - m) <= m * 1e-15L);
	assert_true(sd > 1e7); /* the bimodal sample is really spread */
	lat_free(&l);
}

static void push_pts(struct series *s, unsigned n, uint64_t step, uint64_t lmax)
{
	for (unsigned i = 0; i < n; i++) {
		struct series_pt p = { 0 };
		for (int d = 0; d < DDIR_NR; d++) {
			p.ios[d] = (i + 1) * step * (d + 1);
			p.bytes[d] = p.ios[d] * 4096;
			p.lat_sum[d] = p.ios[d] * 100;
			p.lat_max[d] = lmax + i;
		}
		series_push(s, &p);
	}
}

/* dst (na points, step sa, lat_max la+i) merged with src (nb, sb, lb+i). */
static void check_series(unsigned na, unsigned nb)
{
	const uint64_t sa = 10, sb = 3, la = 1000, lb = 1002;
	stats_init(&ta);
	stats_init(&tb);
	push_pts(&ta.series, na, sa, la);
	push_pts(&tb.series, nb, sb, lb);
	stats_merge(&ta, &tb);
	unsigned n = na > nb ? na : nb;
	assert_int_equal(ta.series.n, n);
	assert_int_equal(ta.series.interval_ns, NSEC_PER_SEC);
	for (unsigned i = 0; i < n; i++) {
		/* A thread that stopped early carries its last totals on. */
		uint64_t ia = na ? (i < na ? i + 1 : na) * sa : 0;
		uint64_t ib = nb ? (i < nb ? i + 1 : nb) * sb : 0;
		uint64_t mx = 0;
		if (i < na)
			mx = la + i;
		if (i < nb && lb + i > mx)
			mx = lb + i;
		for (int d = 0; d < DDIR_NR; d++) {
			const struct series_pt *p = &ta.series.pts[i];
			assert_int_equal(p->ios[d], (ia + ib) * (d + 1));
			assert_int_equal(p->bytes[d], (ia + ib) * (d + 1) * 4096);
			assert_int_equal(p->lat_sum[d], (ia + ib) * (d + 1) * 100);
			assert_int_equal(p->lat_max[d], mx);
		}
	}
	stats_free(&ta);
	stats_free(&tb);
}

static void test_series_merge(void **state)
{
	(void)state;
	check_series(3, 5); /* src longer: dst grows */
	check_series(5, 3); /* dst longer */
	check_series(4, 4);
	check_series(0, 6); /* into an empty total */
	check_series(6, 0);
	check_series(0, 0);
	check_series(17, 100); /* growth past the initial allocation */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_reset),
		cmocka_unit_test(test_series_push),
		cmocka_unit_test(test_merge_threads),
		cmocka_unit_test(test_lat_copy_merge),
		cmocka_unit_test(test_mean_stddev),
		cmocka_unit_test(test_series_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
