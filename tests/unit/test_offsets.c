/* Unit tests for the offset generators. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/offsets.h"

static uint8_t *bitmap_new(uint64_t n)
{
	uint8_t *b = calloc((n + 7) / 8, 1);
	assert_non_null(b);
	return b;
}

/* Sets bit x; fails if it was already set (a repeat). */
static void bitmap_set_once(uint8_t *b, uint64_t x)
{
	assert_false(b[x / 8] & (1u << (x % 8)));
	b[x / 8] |= (uint8_t)(1u << (x % 8));
}

static void test_seq_wrap(void **state)
{
	(void)state;
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_SEQ, DIST_RANDOM, 0, 5, 1), 0);
	for (int i = 0; i < 23; i++)
		assert_int_equal(offgen_next(&g), (uint64_t)(i % 5));
	assert_int_equal(offgen_init(&g, OFFGEN_SEQ, DIST_ZIPF, -3, 1, 1), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(offgen_next(&g), 0);
}

/* Two passes of nblocks outputs: each covers every block exactly once. */
static void check_perm(uint64_t n, uint64_t seed)
{
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_PERM, DIST_RANDOM, 0, n, seed), 0);
	for (int pass = 0; pass < 2; pass++) {
		uint8_t *b = bitmap_new(n);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t x = offgen_next(&g);
			assert_true(x < n);
			bitmap_set_once(b, x);
		}
		free(b); /* n distinct values below n: all of them */
	}
}

static void test_perm_coverage(void **state)
{
	(void)state;
	static const uint64_t sizes[] = { 1, 2, 3, 7, 100, 1000, 4097, 65537, 1000003 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		check_perm(sizes[i], 1);
		check_perm(sizes[i], 0xdeadbeefcafeULL);
	}
	for (uint64_t n = 1; n < 300; n++)
		check_perm(n, n * 77);
}

static void test_perm_scrambled(void **state)
{
	(void)state;
	enum { N = 1000 };
	uint64_t a[N], b[N];
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_PERM, DIST_RANDOM, 0, N, 1), 0);
	for (int i = 0; i < N; i++)
		a[i] = offgen_next(&g);
	assert_int_equal(offgen_init(&g, OFFGEN_PERM, DIST_RANDOM, 0, N, 2), 0);
	for (int i = 0; i < N; i++)
		b[i] = offgen_next(&g);
	int same = 0, seqa = 0, seqb = 0;
	for (int i = 0; i < N; i++) {
		same += a[i] == b[i];
		if (i) {
			seqa += a[i] == a[i - 1] + 1;
			seqb += b[i] == b[i - 1] + 1;
		}
	}
	/* Random permutations agree on ~1 position and have ~1 ascending step. */
	assert_true(same < 10);
	assert_true(seqa < 10 && seqb < 10);
	/* Same seed, same order (randrepeat). */
	assert_int_equal(offgen_init(&g, OFFGEN_PERM, DIST_RANDOM, 0, N, 1), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(offgen_next(&g), a[i]);
	/* The first half of a pass is spread over the whole range. */
	int low = 0;
	for (int i = 0; i < N / 2; i++)
		low += a[i] < N / 2;
	assert_true(low > N / 4 - 40 && low < N / 4 + 40);
}

/* Successive outputs look independent: pairs fall evenly in a 16x16 grid. */
static void test_perm_pairs(void **state)
{
	(void)state;
	static const uint64_t sizes[] = { 65536, 100000, 1 << 20 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s];
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct offgen g;
			assert_int_equal(offgen_init(&g, OFFGEN_PERM, DIST_RANDOM, 0, n, seed), 0);
			static const int lags[] = { 1, 2, 4, 8 };
			enum { M = 65536 };
			static uint64_t v[M + 8];
			for (int i = 0; i < M + 8; i++)
				v[i] = offgen_next(&g);
			for (int l = 0; l < 4; l++) {
				double c[256] = { 0 }, chi = 0, e = M / 256.0;
				for (int i = 0; i < M; i++)
					c[v[i] * 16 / n * 16 + v[i + lags[l]] * 16 / n]++;
				for (int k = 0; k < 256; k++)
					chi += (c[k] - e) * (c[k] - e) / e;
				/* 255 degrees of freedom: mean 255, sd 23. */
				assert_true(chi < 380);
			}
		}
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void test_perm_huge(void **state)
{
	(void)state;
	static const uint64_t sizes[] = { 1ULL << 63, (1ULL << 62) + 1, (1ULL << 63) + 12345,
					  UINT64_MAX, 1ULL << 40 };
	enum { K = 20000 };
	static uint64_t v[K];
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct offgen g;
		uint64_t n = sizes[s];
		assert_int_equal(offgen_init(&g, OFFGEN_PERM, DIST_RANDOM, 0, n, 5), 0);
		uint64_t top = 0;
		for (int i = 0; i < K; i++) {
			v[i] = offgen_next(&g);
			assert_true(v[i] < n);
			top += v[i] >= n / 2;
		}
		qsort(v, K, sizeof(v[0]), cmp_u64);
		for (int i = 1; i < K; i++)
			assert_true(v[i] != v[i - 1]);
		assert_true(top > K / 2 - 500 && top < K / 2 + 500);
		/* Skewed draws on a huge range stay in range too. */
		for (int d = DIST_RANDOM; d <= DIST_NORMAL; d++) {
			double p = d == DIST_ZIPF ? 1.2 : d == DIST_PARETO ? 0.3 : 10;
			assert_int_equal(offgen_init(&g, OFFGEN_DIST, d, p, n, 9), 0);
			for (int i = 0; i < 1000; i++)
				assert_true(offgen_next(&g) < n);
		}
	}
}

static void test_one_block(void **state)
{
	(void)state;
	struct offgen g;
	for (int k = OFFGEN_SEQ; k <= OFFGEN_DIST; k++)
		for (int d = DIST_RANDOM; d <= DIST_NORMAL; d++) {
			double p = d == DIST_ZIPF ? 1.2 : d == DIST_PARETO ? 0.3 : 10;
			assert_int_equal(offgen_init(&g, k, d, p, 1, 3), 0);
			for (int i = 0; i < 50; i++)
				assert_int_equal(offgen_next(&g), 0);
		}
}

static void test_scatter_bijection(void **state)
{
	(void)state;
	static const uint64_t sizes[] = { 1, 2, 3, 5, 64, 100, 1000, 4097, 65537, 1000003 };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i];
		struct offgen g;
		assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_ZIPF, 1.2, n, 11), 0);
		uint8_t *b = bitmap_new(n);
		for (uint64_t x = 0; x < n; x++) {
			uint64_t y = offgen_scatter(&g, x);
			assert_true(y < n);
			bitmap_set_once(b, y);
		}
		free(b);
	}
	/* Hot ranks are not kept at the start. */
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_ZIPF, 1.2, 1000000, 11), 0);
	int first = 0;
	for (uint64_t x = 0; x < 100; x++)
		first += offgen_scatter(&g, x) < 10000;
	assert_true(first < 10);
}

/* Draws counted by rank: inv maps a block back to the rank scattered to it. */
static uint64_t *rank_counts(struct offgen *g, uint64_t n, unsigned draws, bool scattered)
{
	uint64_t *inv = calloc(n, sizeof(*inv)), *cnt = calloc(n, sizeof(*cnt));
	assert_non_null(inv);
	assert_non_null(cnt);
	for (uint64_t r = 0; r < n; r++)
		inv[scattered ? offgen_scatter(g, r) : r] = r;
	for (unsigned i = 0; i < draws; i++) {
		uint64_t b = offgen_next(g);
		assert_true(b < n);
		cnt[inv[b]]++;
	}
	free(inv);
	return cnt;
}

static void test_uniform(void **state)
{
	(void)state;
	enum { N = 100, DRAWS = 200000 };
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_RANDOM, 0, N, 21), 0);
	uint64_t *c = rank_counts(&g, N, DRAWS, false);
	double chi = 0, e = (double)DRAWS / N;
	for (int i = 0; i < N; i++)
		chi += (c[i] - e) * (c[i] - e) / e;
	/* 99 degrees of freedom: mean 99, sd 14. */
	assert_true(chi > 40 && chi < 170);
	free(c);
}

static void check_zipf(double theta)
{
	enum { N = 10000, DRAWS = 300000 };
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_ZIPF, theta, N, 31), 0);
	uint64_t *c = rank_counts(&g, N, DRAWS, true);
	double hn = 0, top = 0, htop = 0;
	for (int r = 1; r <= N; r++)
		hn += pow(r, -theta);
	for (int r = 1; r <= N / 100; r++)
		htop += pow(r, -theta);
	/* Each of the first ranks against its exact probability (5 sigma). */
	for (int r = 0; r < 20; r++) {
		double p = pow(r + 1, -theta) / hn, e = p * DRAWS;
		assert_true(fabs(c[r] - e) < 5 * sqrt(e * (1 - p)) + 1);
	}
	for (int r = 0; r < N / 100; r++)
		top += c[r];
	assert_true(fabs(top / DRAWS - htop / hn) < 0.01);
	/* Frequencies decrease with rank, in decades. */
	double prev = INFINITY;
	for (int lo = 1; lo < N; lo *= 10) {
		uint64_t s = 0;
		for (int r = lo - 1; r < 2 * lo - 1; r++)
			s += c[r];
		double avg = (double)s / lo;
		assert_true(avg < prev || (avg == 0 && prev == 0));
		prev = avg;
	}
	free(c);
}

static void test_zipf(void **state)
{
	(void)state;
	check_zipf(1.2);
	check_zipf(0.8);
	check_zipf(2.5);
	/* theta 1.2: the top 1% of blocks takes most of the I/O. */
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_ZIPF, 1.2, 10000, 1), 0);
	uint64_t *c = rank_counts(&g, 10000, 100000, true);
	uint64_t top = 0;
	for (int r = 0; r < 100; r++)
		top += c[r];
	assert_true(top > 60000);
	free(c);
}

static void test_pareto(void **state)
{
	(void)state;
	enum { N = 100000, DRAWS = 200000 };
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_PARETO, 0.2, N, 41), 0);
	uint64_t *c = rank_counts(&g, N, DRAWS, true);
	/* P(rank < f*n) = f^h: 20% of the blocks get 72.5% of the draws. */
	uint64_t s20 = 0, s1 = 0;
	for (int r = 0; r < N / 5; r++)
		s20 += c[r];
	for (int r = 0; r < N / 100; r++)
		s1 += c[r];
	assert_true(fabs((double)s20 / DRAWS - pow(0.2, 0.2)) < 0.01);
	assert_true(fabs((double)s1 / DRAWS - pow(0.01, 0.2)) < 0.01);
	free(c);
	/* Smaller h, more skew. */
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_PARETO, 0.5, N, 41), 0);
	c = rank_counts(&g, N, DRAWS, true);
	uint64_t s20b = 0;
	for (int r = 0; r < N / 5; r++)
		s20b += c[r];
	assert_true(s20b < s20);
	free(c);
}

static void test_normal(void **state)
{
	(void)state;
	enum { N = 100000, DRAWS = 200000 };
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_NORMAL, 10, N, 51), 0);
	unsigned in1 = 0, in2 = 0;
	double sum = 0;
	for (int i = 0; i < DRAWS; i++) {
		uint64_t b = offgen_next(&g);
		assert_true(b < N);
		double d = fabs((double)b + 0.5 - N / 2.0);
		in1 += d < N / 10.0;
		in2 += d < N / 5.0;
		sum += (double)b;
	}
	assert_true(fabs((double)in1 / DRAWS - 0.6827) < 0.01);
	assert_true(fabs((double)in2 / DRAWS - 0.9545) < 0.005);
	assert_true(fabs(sum / DRAWS - N / 2.0) < N * 0.002);
	/* Wide sigma: truncated, every draw still in range. */
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_NORMAL, 200, 7, 51), 0);
	for (int i = 0; i < 10000; i++)
		assert_true(offgen_next(&g) < 7);
}

static void test_init_rejects(void **state)
{
	(void)state;
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_SEQ, DIST_RANDOM, 0, 0, 1), -1);
	assert_int_equal(offgen_init(&g, OFFGEN_PERM, DIST_RANDOM, 0, 0, 1), -1);
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_RANDOM, 0, 0, 1), -1);
	assert_int_equal(offgen_init(&g, (enum offgen_kind)7, DIST_RANDOM, 0, 10, 1), -1);
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, (enum dist_kind)9, 1, 10, 1), -1);
	static const double bad_zipf[] = { 0, 1, -1, NAN, INFINITY };
	static const double bad_pareto[] = { 0, 1, -0.5, 1.5, NAN };
	static const double bad_normal[] = { 0, -10, NAN, INFINITY };
	for (size_t i = 0; i < sizeof(bad_zipf) / sizeof(bad_zipf[0]); i++)
		assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_ZIPF, bad_zipf[i], 10, 1), -1);
	for (size_t i = 0; i < sizeof(bad_pareto) / sizeof(bad_pareto[0]); i++)
		assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_PARETO, bad_pareto[i], 10, 1), -1);
	for (size_t i = 0; i < sizeof(bad_normal) / sizeof(bad_normal[0]); i++)
		assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_NORMAL, bad_normal[i], 10, 1), -1);
	/* The parameter only matters for the distribution in use. */
	assert_int_equal(offgen_init(&g, OFFGEN_PERM, DIST_ZIPF, 1, 10, 1), 0);
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_RANDOM, -1, 10, 1), 0);
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_ZIPF, 0.01, 10, 1), 0);
	assert_int_equal(offgen_init(&g, OFFGEN_DIST, DIST_PARETO, 0.999, 10, 1), 0);
}

static void test_rng(void **state)
{
	(void)state;
	struct rng a, b;
	rng_seed(&a, 0);
	assert_true(a.s[0] | a.s[1] | a.s[2] | a.s[3]);
	rng_seed(&b, 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(rng_next(&a), rng_next(&b));
	rng_seed(&b, 1);
	assert_true(rng_next(&a) != rng_next(&b));
	unsigned ones = 0;
	for (int i = 0; i < 10000; i++)
		ones += (unsigned)__builtin_popcountll(rng_next(&a));
	assert_true(ones > 320000 - 3000 && ones < 320000 + 3000);
}

static void test_backward(void **state)
{
	(void)state;
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_BACKWARD, DIST_RANDOM, 0, 5, 1), 0);
	for (int i = 0; i < 12; i++)
		assert_int_equal(offgen_next(&g), (uint64_t)(4 - i % 5));
}

/* Every stride and size: each block once per pass; the first pass starts 0, S, 2S. */
static void test_stride(void **state)
{
	(void)state;
	static const uint64_t sizes[] = { 1, 2, 16, 17, 34, 100, 1024, 4097 };
	static const unsigned strides[] = { 1, 2, 3, 16, 17, 34, 1000 };
	for (size_t a = 0; a < sizeof(sizes) / sizeof(sizes[0]); a++) {
		for (size_t b = 0; b < sizeof(strides) / sizeof(strides[0]); b++) {
			uint64_t n = sizes[a];
			struct offgen g;
			assert_int_equal(offgen_init(&g, OFFGEN_STRIDE, DIST_RANDOM, strides[b], n, 7), 0);
			for (int pass = 0; pass < 2; pass++) {
				uint8_t *seen = bitmap_new(n);
				for (uint64_t i = 0; i < n; i++) {
					uint64_t x = offgen_next(&g);
					assert_true(x < n);
					bitmap_set_once(seen, x);
				}
				free(seen);
			}
			assert_int_equal(offgen_init(&g, OFFGEN_STRIDE, DIST_RANDOM, strides[b], n, 7), 0);
			assert_int_equal(offgen_next(&g), 0);
			if (n > 2 * strides[b]) {
				assert_int_equal(offgen_next(&g), strides[b]);
				assert_int_equal(offgen_next(&g), 2 * strides[b]);
			}
		}
	}
	struct offgen g;
	assert_int_equal(offgen_init(&g, OFFGEN_STRIDE, DIST_RANDOM, 0, 10, 7), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_seq_wrap),
		cmocka_unit_test(test_perm_coverage),
		cmocka_unit_test(test_perm_scrambled),
		cmocka_unit_test(test_perm_pairs),
		cmocka_unit_test(test_perm_huge),
		cmocka_unit_test(test_one_block),
		cmocka_unit_test(test_scatter_bijection),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_zipf),
		cmocka_unit_test(test_pareto),
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_backward),
		cmocka_unit_test(test_stride),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
