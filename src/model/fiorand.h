/*
 * fio's own random streams, for the choices that decide how many requests of
 * which kind a size-bound job issues: which direction a mixed job takes next
 * (rwmix) and how long each request is (bsrange, bssplit).  With fio's
 * generator (a combined Tausworthe, L'Ecuyer 1996) and fio's seeds (randseed,
 * the global thread number), a job issues the same reads and writes of the
 * same sizes as fio does: checked against fio 3.33 in tests/e2e.  Uniform
 * and zoned random jobs of several sizes also draw fio's offsets (pattern.c);
 * jobs of one size take theirs from iogauge's own generator (offsets.h).
 */
#ifndef IOGAUGE_FIORAND_H
#define IOGAUGE_FIORAND_H

#include <stdbool.h>
#include <stdint.h>

struct fio_rand {
	bool use64;
	uint32_t a1, a2, a3;             /* taus88 */
	uint64_t b1, b2, b3, b4, b5;     /* taus258 */
};

/* fio's seed slots (fio.h FIO_RAND_*_OFF). */
enum { FIO_SEED_BS_READ = 0, FIO_SEED_BS_WRITE = 1, FIO_SEED_MIX = 4, FIO_SEED_FILE_SIZE = 7, FIO_SEED_SEQ_RAND = 10,
       FIO_SEED_ZONE = 16 };

/* Slot `slot` of fio's seeds for randseed and the 1-based global thread number. */
static inline uint64_t fio_seed(uint64_t randseed, unsigned thread_number, unsigned slot)
{
	uint64_t seed = randseed;
	for (int i = 0; i < 4; i++)
		seed *= 0x9e370001ULL;
	for (unsigned i = 0; i < slot; i++)
		seed *= 0x9e370001ULL;
	return seed * thread_number + slot;
}

static inline uint32_t fio_rand32(struct fio_rand *s)
{
#define TAUS(x, a, b, c, d) ((((x) & (c)) << (d)) ^ ((((x) << (a)) ^ (x)) >> (b)))
	s->a1 = TAUS(s->a1, 13, 19, 4294967294U, 12);
	s->a2 = TAUS(s->a2, 2, 25, 4294967288U, 4);
	s->a3 = TAUS(s->a3, 3, 11, 4294967280U, 17);
#undef TAUS
	return s->a1 ^ s->a2 ^ s->a3;
}

static inline uint64_t fio_rand64(struct fio_rand *s)
{
	uint64_t x;
	x = ((s->b1 << 1) ^ s->b1) >> 53;
	s->b1 = ((s->b1 & 18446744073709551614ULL) << 10) ^ x;
	x = ((s->b2 << 24) ^ s->b2) >> 50;
	s->b2 = ((s->b2 & 18446744073709551104ULL) << 5) ^ x;
	x = ((s->b3 << 3) ^ s->b3) >> 23;
	s->b3 = ((s->b3 & 18446744073709547520ULL) << 29) ^ x;
	x = ((s->b4 << 5) ^ s->b4) >> 24;
	s->b4 = ((s->b4 & 18446744073709420544ULL) << 23) ^ x;
	x = ((s->b5 << 3) ^ s->b5) >> 33;
	s->b5 = ((s->b5 & 18446744073701163008ULL) << 8) ^ x;
	return s->b1 ^ s->b2 ^ s->b3 ^ s->b4 ^ s->b5;
}

static inline uint64_t fio_rand(struct fio_rand *s)
{
	return s->use64 ? fio_rand64(s) : fio_rand32(s);
}

/* fio's rand_max() + 1.0, as the double its formulas divide by. */
static inline double fio_rand_span(const struct fio_rand *s)
{
	return s->use64 ? 18446744073709551616.0 : 4294967296.0;
}

static inline uint64_t fio_seed_min(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

/*
 * fio's init_rand_seed() starts from the constant it spells
 * (2^31)+(2^17)+(2^7).  In C '^' is XOR, so that sum is 29+19+5 = 53, not a
 * sum of powers of two; fio's streams (and the request mixes matched against
 * fio in tests/e2e) come from 53, so 53 is kept, named, without the
 * misleading spelling clang's -Wxor-used-as-pow rightly rejects.
 */
enum { FIO_SEED_BASE = 53 };

/* The 32-bit stream takes the low 32 bits of the seed. */
static inline void fio_rand_init(struct fio_rand *s, uint64_t seed, bool use64)
{
	s->use64 = use64;
	if (!use64) {
		uint32_t sd = (uint32_t)seed;
		s->a1 = (uint32_t)fio_seed_min(FIO_SEED_BASE * 69069U ^ sd, 1);
		s->a2 = (uint32_t)fio_seed_min((s->a1 * 69069U) ^ sd, 7);
		s->a3 = (uint32_t)fio_seed_min((s->a2 * 69069U) ^ sd, 15);
		for (int i = 0; i < 6; i++)
			fio_rand32(s);
	} else {
		s->b1 = fio_seed_min((uint64_t)FIO_SEED_BASE * 6906969069ULL ^ seed, 1);
		s->b2 = fio_seed_min(s->b1 * 6906969069ULL ^ seed, 7);
		s->b3 = fio_seed_min(s->b2 * 6906969069ULL ^ seed, 15);
		s->b4 = fio_seed_min(s->b3 * 6906969069ULL ^ seed, 33);
		s->b5 = fio_seed_min(s->b4 * 6906969069ULL ^ seed, 49);
		for (int i = 0; i < 6; i++)
			fio_rand64(s);
	}
}

/* fio's rand_between(s, 1, 100) on a 32-bit stream: 1..100. */
static inline unsigned fio_rand_pct(struct fio_rand *s)
{
	return 1 + (unsigned)(100.0 * ((double)fio_rand32(s) / 4294967296.0));
}

#endif
