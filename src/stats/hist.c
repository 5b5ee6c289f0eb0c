/* Log-linear latency histogram: bucket bounds, merge and percentiles. */
#include "stats/hist.h"

#include <math.h>

uint64_t hist_bucket_low(unsigned idx)
{
	if (idx < HIST_SUB)
		return idx;
	/* Group g >= 1 covers [2^(g+6), 2^(g+7)) in 128 steps of 2^(g-1). */
	unsigned shift = (idx >> HIST_SUB_BITS) - 1;
	uint64_t sub = idx & (HIST_SUB - 1);
	return (HIST_SUB + sub) << shift;
}

uint64_t hist_bucket_high(unsigned idx)
{
	if (idx < HIST_SUB)
		return idx;
	unsigned shift = (idx >> HIST_SUB_BITS) - 1;
	/* The last bucket ends at UINT64_MAX: low + width - 1 does not wrap. */
	return hist_bucket_low(idx) + ((1ULL << shift) - 1);
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
}

uint64_t hist_total(const struct hist *h)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		n += h->counts[i];
	return n;
}

/* 1-based rank of the sample at percentile p among n, in [1, n]. */
static uint64_t pct_rank(double p, uint64_t n)
{
	long double x = (long double)p * n / 100;
	/*
	 * p such as 99.9 is not exact in binary: shave a relative 1e-12 so that
	 * 99.9% of 1000 is rank 999, not 1000.
	 */
	x -= x * 1e-12L;
	if (!(x > 1))
		return 1;
	if (x >= (long double)n)
		return n;
	uint64_t r = (uint64_t)ceill(x);
	return r > n ? n : r;
}

uint64_t hist_percentile(const struct hist *h, double p, uint64_t min, uint64_t max)
{
	uint64_t n = hist_total(h);
	if (!n)
		return 0;
	uint64_t rank = pct_rank(p, n), seen = 0;
	/* The smallest and largest samples are known exactly. */
	if (rank == n)
		return max;
	if (rank == 1)
		return min;
	unsigned i;
	for (i = 0; i < HIST_BUCKETS - 1; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			break;
	}
	uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
	uint64_t v = lo + (hi - lo) / 2;
	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return v;
}
