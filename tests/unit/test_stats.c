/* Unit tests for per-thread statistics. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "common.h"

/* common.c needs it; weak so the real one wins when linked with everything. */
void cleanup_files(void) __attribute__((weak));
void cleanup_files(void) {}

/* struct thread_stats holds two histograms: keep them off the stack. */
static struct thread_stats ta, tb, tc, tm;

static void test_init_reset(void **state)
{
	(void)state;
	stats_init(&ta);
	for (int d = 0; d < DDIR_NR; d++) {
		assert_int_equal(ta.d[d].clat.min, UINT64_MAX);
		assert_int_equal(ta.d[d].clat.n, 0);
		assert_int_equal(ta.d[d].ios, 0);
	}
	assert_int_equal(ta.series.interval_ns, NSEC_PER_SEC);
	assert_int_equal(ta.series.n, 0);
	assert_int_equal(ta.err, 0);

	struct series_pt p = { .ios = { 1, 2 } };
	for (int i = 0; i < 5; i++)
		series_push(&ta.series, &p);
	lat_add(&ta.d[DDIR_READ].clat, 500);
	ta.d[DDIR_READ].ios = 1;
	ta.syncs = 3;
	ta.cpu.usr_ns = 9;
	ta.err = 5;
	struct series_pt *pts = ta.series.pts;
	unsigned cap = ta.series.cap;
	stats_reset(&ta);
	assert_ptr_equal(ta.series.pts, pts);
	assert_int_equal(ta.series.cap, cap);
	assert_int_equal(ta.series.n, 0);
	assert_int_equal(ta.series.interval_ns, NSEC_PER_SEC);
	assert_int_equal(ta.d[DDIR_READ].clat.n, 0);
	assert_int_equal(ta.d[DDIR_READ].clat.min, UINT64_MAX);
	assert_int_equal(ta.d[DDIR_READ].clat.max, 0);
	assert_int_equal(hist_total(&ta.d[DDIR_READ].clat.h), 0);
	assert_int_equal(ta.d[DDIR_READ].ios, 0);
	assert_int_equal(ta.syncs, 0);
	assert_int_equal(ta.cpu.usr_ns, 0);
	assert_int_equal(ta.err, 5); /* an error is not a counter */
	stats_free(&ta);
	assert_null(ta.series.pts);
	assert_int_equal(ta.series.n, 0);
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
	assert_memory_equal(&a->h, &b->h, sizeof(a->h));
}

static void test_merge_threads(void **state)
{
	(void)state;
	stats_init(&ta);
	stats_init(&tb);
	stats_init(&tc);
	stats_init(&tm);
	uint64_t x = 1;
	for (int i = 0; i < 20000; i++) {
		int d = i % 3 == 0 ? DDIR_WRITE : DDIR_READ;
		/* Thread b only writes: its read min stays UINT64_MAX. */
		struct thread_stats *t = d == DDIR_WRITE && i % 2 ? &tb : &ta;
		uint64_t v = lat_sample(&x);
		lat_add(&t->d[d].clat, v);
		lat_add(&tc.d[d].clat, v);
		t->d[d].ios++;
		tc.d[d].ios++;
		t->d[d].bytes += 4096;
		tc.d[d].bytes += 4096;
	}
	ta.cpu = (struct cpu_usage){ 10, 20, 30 };
	tb.cpu = (struct cpu_usage){ 1, 2, 3 };
	ta.elapsed_ns = 5 * NSEC_PER_SEC;
	tb.elapsed_ns = 7 * NSEC_PER_SEC;
	ta.syncs = 4;
	tb.syncs = 6;
	tb.err = 28;
	tb.err_offset = 8192;
	strcpy(tb.err_file, "/tmp/b");
	tb.interrupted = true;

	stats_merge(&tm, &ta);
	stats_merge(&tm, &tb);
	for (int d = 0; d < DDIR_NR; d++) {
		assert_int_equal(tm.d[d].ios, tc.d[d].ios);
		assert_int_equal(tm.d[d].bytes, tc.d[d].bytes);
		assert_lat_equal(&tm.d[d].clat, &tc.d[d].clat);
		assert_true(lat_mean(&tm.d[d].clat) == lat_mean(&tc.d[d].clat));
		assert_true(lat_stddev(&tm.d[d].clat) == lat_stddev(&tc.d[d].clat));
	}
	assert_int_equal(tm.cpu.usr_ns, 11);
	assert_int_equal(tm.cpu.sys_ns, 22);
	assert_int_equal(tm.cpu.ctx, 33);
	assert_int_equal(tm.elapsed_ns, 7 * NSEC_PER_SEC);
	stats_merge(&tb, &ta); /* the longer thread first: still the max */
	assert_int_equal(tb.elapsed_ns, 7 * NSEC_PER_SEC);
	assert_int_equal(tb.err, 28); /* tb's own error stays */
	assert_int_equal(tm.syncs, 10);
	assert_int_equal(tm.err, 28);
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

static void lat_of(struct lat_stats *l, const uint64_t *v, size_t n)
{
	memset(l, 0, sizeof(*l));
	l->min = UINT64_MAX;
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
		cmocka_unit_test(test_mean_stddev),
		cmocka_unit_test(test_series_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
