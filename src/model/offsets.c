/* Offset generators: sequential, O(1)-memory permutation, skewed draws. */
#include "model/offsets.h"

#include <math.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	/* splitmix64 never yields the all-zero state xoshiro cannot leave. */
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t offgen_scatter(const struct offgen *g, uint64_t x)
{
	/* Cycle walking: iterating a bijection on 2^k until it lands below n. */
	do
		x = offgen_mix(g, x ^ g->lcg_add); /* keyed: 0 must not stay 0 */
	while (x >= g->nblocks);
	return x;
}

/* Rejection-inversion zipf sampler, after Hoermann & Derflinger (1996). */
static double zipf_helper1(double x) /* log1p(x) / x */
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x / 2 + x * x / 3;
}

static double zipf_helper2(double x) /* expm1(x) / x */
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x / 2 + x * x / 6;
}

static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

static double zipf_hint(double theta, double x)
{
	double lx = log(x);
	return zipf_helper2((1 - theta) * lx) * lx;
}

static double zipf_hint_inv(double theta, double x)
{
	double t = x * (1 - theta);
	if (t < -1)
		t = -1; /* rounding near the lower end */
	return exp(zipf_helper1(t) * x);
}

static void zipf_setup(struct offgen *g)
{
	double th = g->param;
	g->zipf_hx0 = zipf_hint(th, 1.5) - 1;
	g->zipf_hn = zipf_hint(th, (double)g->nblocks + 0.5);
	g->zipf_s = 2 - zipf_hint_inv(th, zipf_hint(th, 2.5) - zipf_h(th, 2));
}

/* Rank in [1, nblocks], P(k) proportional to k^-theta. */
static uint64_t zipf_rank(struct offgen *g)
{
	double th = g->param, n = (double)g->nblocks;
	for (;;) {
		double u = g->zipf_hn + rng_double(&g->rng) * (g->zipf_hx0 - g->zipf_hn);
		double x = zipf_hint_inv(th, u);
		double kd = floor(x + 0.5);
		uint64_t k;
		if (kd < 1)
			k = 1, kd = 1;
		else if (kd >= n)
			k = g->nblocks, kd = n;
		else
			k = (uint64_t)kd;
		if (kd - x <= g->zipf_s || u >= zipf_hint(th, kd + 0.5) - zipf_h(th, kd))
			return k;
	}
}

/* Block in [0, n) from a real in [0, n], guarding the upper rounding edge. */
static uint64_t clamp_block(double r, uint64_t n)
{
	if (!(r < (double)n))
		return n - 1;
	uint64_t b = r > 0 ? (uint64_t)r : 0;
	return b < n ? b : n - 1;
}

static uint64_t pareto_block(struct offgen *g)
{
	double u = rng_double(&g->rng);
	return clamp_block((double)g->nblocks * pow(u, 1 / g->param), g->nblocks);
}

static uint64_t normal_block(struct offgen *g)
{
	double n = (double)g->nblocks;
	double sigma = g->param / 100 * n;
	for (;;) {
		double u1 = 1 - rng_double(&g->rng); /* (0, 1]: log is finite */
		double u2 = rng_double(&g->rng);
		double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
		double v = n / 2 + sigma * z;
		if (v >= 0 && v < n)
			return clamp_block(v, g->nblocks);
	}
}

/* Out of line: keeps the permutation path free of register spills. */
static __attribute__((noinline)) uint64_t dist_next(struct offgen *g)
{
	switch (g->dist) {
	case DIST_ZIPF:
		return offgen_scatter(g, zipf_rank(g) - 1);
	case DIST_PARETO:
		return offgen_scatter(g, pareto_block(g));
	case DIST_NORMAL:
		/* Not scattered: a hot band around the middle, as in fio. */
		return normal_block(g);
	case DIST_ZONED: {
		unsigned v = (unsigned)rng_below(&g->rng, 100), z = 0;
		while (z + 1 < g->nzones && v >= g->zone_cum[z])
			z++;
		return g->zone_start[z] + rng_below(&g->rng, g->zone_len[z]);
	}
	default:
		return rng_below(&g->rng, g->nblocks);
	}
}

int offgen_zones(struct offgen *g, const unsigned *access, const uint64_t *len, unsigned n)
{
	uint64_t start = 0;
	unsigned cum = 0;
	g->nzones = 0;
	for (unsigned i = 0; i < n && i < OFFGEN_ZONES; i++) {
		cum += access[i];
		uint64_t l = start < g->nblocks ? g->nblocks - start : 0;
		l = len[i] < l ? len[i] : l;
		if (!l) {
			/* A zone with no block: its share goes to the zone before it. */
			if (g->nzones)
				g->zone_cum[g->nzones - 1] = cum;
			continue;
		}
		g->zone_start[g->nzones] = start;
		g->zone_len[g->nzones] = l;
		g->zone_cum[g->nzones] = cum;
		g->nzones++;
		start += l;
	}
	if (g->nzones)
		g->zone_cum[g->nzones - 1] = 100;
	return g->nzones ? 0 : -1;
}

/* Backward and stride walks: rarer than the others, out of line. */
static __attribute__((noinline)) uint64_t walk_next(struct offgen *g)
{
	uint64_t b = g->pos;
	if (g->kind == OFFGEN_BACKWARD) {
		g->pos = b ? b - 1 : g->nblocks - 1;
		return b;
	}
	if (++g->emitted == g->cycle) {
		/* Back at the cycle's start: the next cycle starts one block further. */
		g->emitted = 0;
		if (++g->shift == g->nblocks / g->cycle)
			g->shift = 0;
		g->pos = g->shift;
	} else {
		g->pos += g->stride;
		if (g->pos >= g->nblocks)
			g->pos -= g->nblocks;
	}
	return b;
}

uint64_t offgen_next_other(struct offgen *g)
{
	if (g->kind == OFFGEN_PERM)
		return offgen_next(g);
	if (g->kind == OFFGEN_SEQ) {
		uint64_t b = g->pos;
		if (++g->pos == g->nblocks)
			g->pos = 0;
		return b;
	}
	if (g->kind == OFFGEN_DIST)
		return dist_next(g);
	return walk_next(g);
}

void offgen_restart(struct offgen *g)
{
	if (g->kind == OFFGEN_SEQ)
		g->pos = 0;
	else if (g->kind == OFFGEN_BACKWARD)
		g->pos = g->nblocks - 1;
	else if (g->kind == OFFGEN_STRIDE)
		g->pos = g->shift = g->emitted = 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static bool param_ok(enum dist_kind d, double p)
{
	switch (d) {
	case DIST_RANDOM:
		return true;
	case DIST_ZIPF:
		return p > 0 && p != 1 && isfinite(p);
	case DIST_PARETO:
		return p > 0 && p < 1;
	case DIST_NORMAL:
		return p > 0 && isfinite(p);
	case DIST_ZONED:
		return true;
	}
	return false;
}

/* Permutation constants: k bits, full-period LCG, odd mixer multipliers. */
static void perm_setup(struct offgen *g)
{
	uint64_t m1 = g->nblocks - 1;
	g->bits = m1 ? 64 - (unsigned)__builtin_clzll(m1) : 1;
	g->mask = g->bits == 64 ? ~0ULL : (1ULL << g->bits) - 1;
	g->shift_mix = (g->bits + 1) >> 1;
	/* a = 1 mod 4 and odd c: full period modulo any 2^k (Hull-Dobell). */
	g->lcg_mul = (rng_next(&g->rng) << 2) | 1;
	g->lcg_add = (rng_next(&g->rng) | 1) & g->mask;
	g->mix1 = rng_next(&g->rng) | 1;
	g->mix2 = rng_next(&g->rng) | 1;
	g->pos = rng_next(&g->rng) & g->mask;
	g->emitted = 0;
}

int offgen_init(struct offgen *g, enum offgen_kind kind, enum dist_kind dist, double param,
		uint64_t nblocks, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	if (!nblocks || (unsigned)kind > OFFGEN_STRIDE)
		return -1;
	if (kind == OFFGEN_STRIDE && !(param >= 1 && param < 1e18))
		return -1;
	if (kind == OFFGEN_DIST && !param_ok(dist, param))
		return -1;
	g->kind = kind;
	g->dist = dist;
	g->param = param;
	g->nblocks = nblocks;
	rng_seed(&g->rng, seed);
	perm_setup(g);
	if (kind == OFFGEN_SEQ)
		g->pos = 0;
	if (kind == OFFGEN_BACKWARD)
		g->pos = nblocks - 1;
	if (kind == OFFGEN_STRIDE) {
		/* With g = gcd(S, n), a walk of step S visits n / g blocks before it returns. */
		g->stride = (uint64_t)param % nblocks;
		g->cycle = g->stride ? nblocks / gcd(g->stride, nblocks) : 1;
		g->pos = g->shift = g->emitted = 0;
	}
	if (kind == OFFGEN_DIST && dist == DIST_ZIPF)
		zipf_setup(g);
	return 0;
}
