/*
 * Log-linear latency histogram: exact below 128 ns, then 128 linear
 * sub-buckets per power of two.  A bucket is at most 1/128 of its lower
 * bound wide, so the midpoint is within 0.4% of any value in it.  It covers
 * the whole uint64_t range (no cap) and merges by adding counts.
 */
#ifndef IOGAUGE_HIST_H
#define IOGAUGE_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_GROUPS (64 - HIST_SUB_BITS + 1)
#define HIST_BUCKETS (HIST_GROUPS * HIST_SUB)

struct hist {
	uint64_t counts[HIST_BUCKETS];
};

static inline unsigned hist_index(uint64_t v)
{
	if (v < HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned shift = msb - HIST_SUB_BITS;
	return ((shift + 1) << HIST_SUB_BITS) + (unsigned)((v >> shift) & (HIST_SUB - 1));
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->counts[hist_index(v)]++;
}

/* Smallest and largest value that map to bucket idx. */
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_high(unsigned idx);
/* dst += src, bucket by bucket. */
void hist_merge(struct hist *dst, const struct hist *src);
/* Number of samples. */
uint64_t hist_total(const struct hist *h);
/*
 * Value at percentile p (0 < p <= 100): the midpoint of the bucket that holds
 * the ceil(p/100 * n)-th smallest sample, clamped to [min, max] (exact
 * extremes known by the caller; ranks 1 and n return them exactly).  Returns 0
 * for an empty histogram.
 */
uint64_t hist_percentile(const struct hist *h, double p, uint64_t min, uint64_t max);

#endif
