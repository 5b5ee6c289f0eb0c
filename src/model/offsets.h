/*
 * Offset generators.  Everything works in block numbers [0, nblocks); the
 * caller multiplies by the block size and adds the region start.
 *
 * - sequential: 0, 1, 2, ... wrapping at nblocks.
 * - backward: nblocks-1, ..., 1, 0, wrapping (iozone's backward read).
 * - stride: 0, S, 2S, ... modulo nblocks, shifted by one block each time the
 *   walk returns to its start, so every block comes once per pass whatever
 *   S and nblocks (iozone's stride read; S is param).
 * - permutation: every block exactly once per pass, in a scrambled order, in
 *   O(1) memory.  An LCG of full period over 2^k >= nblocks drives a
 *   bijective mixer on k bits; values >= nblocks are skipped (cycle walking),
 *   so fewer than two steps per block on average.
 * - uniform / zipf / pareto / normal: independent draws (norandommap or a
 *   skewed distribution).  Skewed ranks are scattered over the region with
 *   the permutation's bijection, so hot blocks are not all at the start.
 */
#ifndef IOGAUGE_OFFSETS_H
#define IOGAUGE_OFFSETS_H

#include <stdint.h>
#include <stdbool.h>

/* xoshiro256** state: fast, good quality, seedable. */
struct rng {
	uint64_t s[4];
};

/* Same seed, same sequence (splitmix64 fills the state). */
void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5;
	uint64_t result = ((x << 7) | (x >> 57)) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/* Uniform in [0, n) without modulo bias worth mentioning (n < 2^64). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/* Uniform double in [0, 1). */
static inline double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

enum dist_kind { DIST_RANDOM = 0, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED };

/*
 * fio's zoned distributions: access_pct of the requests go to a zone of
 * size_pct percent of the region (zoned:) or size_abs bytes (zoned_abs:),
 * zones laid end to end from the region's start.
 */
struct zone_split {
	unsigned access_pct;
	unsigned size_pct;
	uint64_t size_abs;
};

enum offgen_kind { OFFGEN_SEQ = 0, OFFGEN_PERM, OFFGEN_DIST, OFFGEN_BACKWARD, OFFGEN_STRIDE };

#define OFFGEN_ZONES 16

struct offgen {
	enum offgen_kind kind;
	enum dist_kind dist;
	uint64_t nblocks;
	uint64_t pos;     /* seq, backward, stride: next block; perm: LCG state */
	uint64_t emitted; /* stride: steps in this cycle */
	/* stride: step, steps before the walk returns to its start, the cycle's start */
	uint64_t stride, cycle, shift;
	/* permutation */
	unsigned bits, shift_mix; /* shift_mix: the mixer's shift, (bits + 1) / 2 */
	uint64_t mask, lcg_mul, lcg_add, mix1, mix2;
	/* distributions */
	double param;
	double zipf_hx0, zipf_hn, zipf_s; /* rejection-inversion constants */
	/* zoned: a draw in [0, 100) picks the zone whose cumulative share passes it */
	unsigned nzones;
	unsigned zone_cum[OFFGEN_ZONES];
	uint64_t zone_start[OFFGEN_ZONES], zone_len[OFFGEN_ZONES];
	struct rng rng;
};

/*
 * kind OFFGEN_SEQ and OFFGEN_BACKWARD ignore dist/param; OFFGEN_PERM ignores
 * dist; OFFGEN_STRIDE takes the stride in blocks as param (>= 1);
 * OFFGEN_DIST draws with dist (DIST_RANDOM = uniform with repeats).  param:
 * zipf theta (> 0, != 1), pareto h (0 < h < 1), normal sigma in percent of
 * the region (> 0).  Returns 0, or -1 when nblocks is 0 or the parameter is
 * out of range.
 */
int offgen_init(struct offgen *g, enum offgen_kind kind, enum dist_kind dist, double param,
		uint64_t nblocks, uint64_t seed);
/*
 * fio's zoned distributions (DIST_ZONED, after offgen_init): zone i takes
 * access[i] percent of the draws (they add up to 100) over len[i] blocks laid
 * end to end from block 0 (clipped to nblocks).  -1 when no zone has a block.
 */
int offgen_zones(struct offgen *g, const unsigned *access, const uint64_t *len, unsigned n);
/* Every kind but the permutation (offsets.c). */
uint64_t offgen_next_other(struct offgen *g);

/*
 * Bijection on k bits: xorshift and multiplication by an odd number are both
 * invertible modulo 2^k.  The shifts carry high bits down, the multiplies
 * carry low bits up, so the LCG's weak low bits get mixed.
 */
static inline uint64_t offgen_mix(const struct offgen *g, uint64_t x)
{
	unsigned sh = g->shift_mix;
	x ^= x >> sh;
	x = (x * g->mix1) & g->mask;
	x ^= x >> sh;
	x = (x * g->mix2) & g->mask;
	x ^= x >> sh;
	return x;
}

/*
 * Next block number, in [0, nblocks).  Hot path: no allocation, no
 * division; the permutation (random I/O of one block size) inline.  The LCG
 * visits all 2^k states, so the outputs repeat with period nblocks: any
 * nblocks in a row are each block exactly once.
 */
static inline uint64_t offgen_next(struct offgen *g)
{
	if (__builtin_expect(g->kind != OFFGEN_PERM, 0))
		return offgen_next_other(g);
	uint64_t x = g->pos, y;
	do {
		x = (x * g->lcg_mul + g->lcg_add) & g->mask;
		y = offgen_mix(g, x);
	} while (y >= g->nblocks);
	g->pos = x;
	return y;
}
/*
 * Back to the start of a walk: sequential, backward and stride walks begin
 * again; permutations and draws go on (a pass of a permutation still holds
 * every block once).
 */
void offgen_restart(struct offgen *g);
/* Scatter: a bijection on [0, nblocks) (used by perm and by skewed draws). */
uint64_t offgen_scatter(const struct offgen *g, uint64_t x);

#endif
