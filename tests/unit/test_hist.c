/* Unit tests for the log-linear histogram. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "model/offsets.h"

static uint64_t mid(unsigned idx)
{
	uint64_t lo = hist_bucket_low(idx), hi = hist_bucket_high(idx);
	return lo + (hi - lo) / 2;
}

static void test_buckets_contiguous(void **state)
{
	(void)state;
	assert_int_equal(hist_bucket_low(0), 0);
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		assert_true(lo <= hi);
		assert_int_equal(hist_index(lo), i);
		assert_int_equal(hist_index(hi), i);
		if (i + 1 < HIST_BUCKETS)
			assert_int_equal(hist_bucket_low(i + 1), hi + 1);
	}
	assert_int_equal(hist_bucket_high(HIST_BUCKETS - 1), UINT64_MAX);
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
	for (unsigned i = 0; i < 256; i++)
		assert_int_equal(hist_bucket_low(i), hist_bucket_high(i)); /* exact */
}

/* The bucket of v holds v, and its midpoint is within 1% (in fact 0.4%). */
static void check_value(uint64_t v)
{
	unsigned i = hist_index(v);
	assert_true(i < HIST_BUCKETS);
	assert_true(hist_bucket_low(i) <= v && v <= hist_bucket_high(i));
	if (v < 256) {
		assert_int_equal(mid(i), v);
		return;
	}
	long double err = fabsl((long double)mid(i) - (long double)v) / (long double)v;
	assert_true(err < 0.0040L);
}

static void test_relative_error(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 42);
	for (uint64_t v = 0; v < 200000; v++)
		check_value(v);
	for (unsigned b = 0; b < 64; b++) {
		uint64_t p = 1ULL << b;
		check_value(p);
		check_value(p - 1);
		check_value(p + 1);
		check_value(p | (p - 1));
	}
	check_value(UINT64_MAX);
	for (int i = 0; i < 1000000; i++) {
		uint64_t x = rng_next(&r);
		check_value(x >> (x & 63));
	}
}

static void test_index_monotonic(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 7);
	uint64_t v = 0;
	unsigned prev = 0;
	/* Walk up the whole range with random growing strides. */
	for (;;) {
		unsigned i = hist_index(v);
		assert_true(i >= prev);
		assert_true(hist_index(v + 1) >= i);
		prev = i;
		uint64_t step = 1 + rng_below(&r, v / 256 + 1);
		if (v > UINT64_MAX - step - 1)
			break;
		v += step;
	}
	for (int k = 0; k < 200000; k++) {
		uint64_t a = rng_next(&r) >> (rng_next(&r) & 63);
		uint64_t b = rng_next(&r) >> (rng_next(&r) & 63);
		if (a > b) {
			uint64_t t = a;
			a = b;
			b = t;
		}
		assert_true(hist_index(a) <= hist_index(b));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double gauss(struct rng *r)
{
	double u1 = 1 - rng_double(r), u2 = rng_double(r);
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

enum shape { UNIFORM, EXPO, LOGNORMAL, SMALL, HEAVY, SHAPES };

static uint64_t sample(struct rng *r, enum shape s)
{
	switch (s) {
	case UNIFORM:
		return rng_below(r, 10000000);
	case EXPO:
		return (uint64_t)(-log(1 - rng_double(r)) * 50000);
	case LOGNORMAL:
		return (uint64_t)exp(11 + 1.5 * gauss(r));
	case SMALL:
		return rng_below(r, 300);
	default: /* latencies from ns to many seconds, and a few near the top */
		return rng_next(r) >> (rng_next(r) % 64);
	}
}

#define NSAMP 20000

static void check_percentiles(const uint64_t *v, size_t n, const struct hist *h)
{
	/* p in hundredths of a percent, so that the exact rank is an integer. */
	static const unsigned p100[] = { 1, 100, 1000, 2500, 5000, 7500, 9000,
					 9500, 9900, 9950, 9990, 9999, 10000 };
	for (size_t k = 0; k < sizeof(p100) / sizeof(p100[0]); k++) {
		uint64_t rank = ((uint64_t)p100[k] * n + 9999) / 10000;
		if (!rank)
			rank = 1;
		uint64_t want = v[rank - 1];
		uint64_t got = hist_percentile(h, p100[k] / 100.0, v[0], v[n - 1]);
		/* Exactly the clamped midpoint, or the known extreme at rank 1, n. */
		uint64_t expect = mid(hist_index(want));
		if (expect < v[0])
			expect = v[0];
		if (expect > v[n - 1])
			expect = v[n - 1];
		if (rank == 1)
			expect = v[0];
		if (rank == n)
			expect = v[n - 1];
		assert_int_equal(got, expect);
		assert_int_equal(hist_index(got), hist_index(want));
		long double err = fabsl((long double)got - want);
		assert_true(err <= 0.01L * want);
		if (want < 256)
			assert_int_equal(got, want);
	}
}

static void test_percentiles(void **state)
{
	(void)state;
	static uint64_t v[NSAMP];
	static struct hist h;
	struct rng r;
	rng_seed(&r, 1234);
	for (int s = 0; s < SHAPES; s++) {
		size_t sizes[] = { 1, 2, 3, 10, 999, NSAMP };
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			size_t n = sizes[z];
			memset(&h, 0, sizeof(h));
			for (size_t i = 0; i < n; i++) {
				v[i] = sample(&r, (enum shape)s);
				hist_add(&h, v[i]);
			}
			qsort(v, n, sizeof(v[0]), cmp_u64);
			assert_int_equal(hist_total(&h), n);
			check_percentiles(v, n, &h);
		}
	}
}

static void test_extremes(void **state)
{
	(void)state;
	static struct hist h;
	memset(&h, 0, sizeof(h));
	/* Top of a wide bucket: the midpoint is below, p100 must still be max. */
	uint64_t max = hist_bucket_high(hist_index(123456789));
	uint64_t min = hist_bucket_low(hist_index(500000));
	hist_add(&h, min);
	for (int i = 0; i < 98; i++)
		hist_add(&h, 1000000);
	hist_add(&h, max);
	assert_int_equal(hist_percentile(&h, 100, min, max), max);
	assert_int_equal(hist_percentile(&h, 0.5, min, max), min);
	/* Clamping: a midpoint outside [min, max] is pulled in. */
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 10; i++)
		hist_add(&h, 1000001);
	assert_int_equal(hist_percentile(&h, 50, 1000001, 1000001), 1000001);
	/* Midpoint below min (top of a bucket), and above max (bottom). */
	uint64_t top = hist_bucket_high(hist_index(1000000));
	uint64_t bot = hist_bucket_low(hist_index(3000000));
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 10; i++)
		hist_add(&h, top);
	assert_int_equal(hist_percentile(&h, 50, top, top), top);
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 10; i++)
		hist_add(&h, bot);
	assert_int_equal(hist_percentile(&h, 50, bot, bot), bot);
	memset(&h, 0, sizeof(h));
	hist_add(&h, UINT64_MAX);
	hist_add(&h, UINT64_MAX);
	assert_int_equal(hist_percentile(&h, 50, UINT64_MAX, UINT64_MAX), UINT64_MAX);
	assert_int_equal(hist_percentile(&h, 100, UINT64_MAX, UINT64_MAX), UINT64_MAX);
}

static void test_rank_rounding(void **state)
{
	(void)state;
	static struct hist h;
	memset(&h, 0, sizeof(h));
	/* Values 0..9, 100 samples each: rank r holds (r - 1) / 100. */
	for (uint64_t i = 0; i < 1000; i++)
		hist_add(&h, i / 100);
	assert_int_equal(hist_percentile(&h, 50, 0, 9), 4);    /* rank 500 */
	assert_int_equal(hist_percentile(&h, 50.01, 0, 9), 5); /* rank 501 */
	assert_int_equal(hist_percentile(&h, 10, 0, 9), 0);
	assert_int_equal(hist_percentile(&h, 10.05, 0, 9), 1);
	assert_int_equal(hist_percentile(&h, 99.9, 0, 9), 9);
	assert_int_equal(hist_percentile(&h, 0.01, 0, 9), 0);
	/* 99.9 is not exact in binary: 99.9% of 1000 is rank 999, not 1000. */
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 999; i++)
		hist_add(&h, 10);
	hist_add(&h, 100);
	assert_int_equal(hist_percentile(&h, 99.9, 10, 100), 10);
	assert_int_equal(hist_percentile(&h, 99.91, 10, 100), 100);
	assert_int_equal(hist_percentile(&h, 100, 10, 100), 100);
}

static void test_empty(void **state)
{
	(void)state;
	static struct hist h;
	memset(&h, 0, sizeof(h));
	assert_int_equal(hist_total(&h), 0);
	assert_int_equal(hist_percentile(&h, 50, UINT64_MAX, 0), 0);
	assert_int_equal(hist_percentile(&h, 100, 0, 0), 0);
}

static void test_merge(void **state)
{
	(void)state;
	static struct hist a, b, all;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&all, 0, sizeof(all));
	struct rng r;
	rng_seed(&r, 99);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = sample(&r, (enum shape)(i % SHAPES));
		hist_add(i & 1 ? &a : &b, v);
		hist_add(&all, v);
	}
	hist_merge(&a, &b);
	assert_memory_equal(&a, &all, sizeof(all));
	assert_int_equal(hist_total(&a), 100000);
	for (double p = 1; p <= 100; p += 0.5)
		assert_int_equal(hist_percentile(&a, p, 0, UINT64_MAX),
				 hist_percentile(&all, p, 0, UINT64_MAX));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_contiguous),
		cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_index_monotonic),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_rank_rounding),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
