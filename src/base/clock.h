/*
 * The clock of every timestamp (now_ns): CLOCK_MONOTONIC, or, once a run
 * selects it, the CPU's time-stamp counter scaled to nanoseconds, as fio's
 * clocksource=cpu.  A clock_gettime costs some 30-60 ns in a virtual
 * machine (its vDSO reads the counter, a sequence lock and the scale),
 * 6% of a cached 4 KiB pread; a bare rdtsc overlaps with the request and
 * costs next to nothing.  The counter is used only where it is invariant
 * (constant rate, never stopped) and the kernel keeps its own clock on it,
 * so every CPU reads the same counter; it is calibrated against
 * CLOCK_MONOTONIC once, and agrees with it to a few parts per million.
 */
#ifndef IOGAUGE_CLOCK_H
#define IOGAUGE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define IG_HAVE_TSC 1
#endif

/* The counter's scale: ns = ns0 + ((tsc - tsc0) * mult) >> 32.  Set once, before on is. */
struct tsc_scale {
	uint64_t tsc0, ns0, mult;
};
extern struct tsc_scale ig_tsc;
extern int ig_tsc_on; /* read with acquire: the scale is complete when it is set */

static inline uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static inline uint64_t now_ns(void)
{
#ifdef IG_HAVE_TSC
	if (__builtin_expect(__atomic_load_n(&ig_tsc_on, __ATOMIC_ACQUIRE), 1)) {
		uint64_t d = __rdtsc() - ig_tsc.tsc0;
		return ig_tsc.ns0 + (uint64_t)(((unsigned __int128)d * ig_tsc.mult) >> 32);
	}
#endif
	return mono_ns();
}

/* fio's clocksource names: cpu (the counter), clock_gettime, gettimeofday (both CLOCK_MONOTONIC). */
enum clock_source { CLOCKSRC_CPU = 0, CLOCKSRC_GETTIME, CLOCKSRC_GTOD };

/* A run is coming: the calibration's first reading, if none yet (cheap; call early). */
void clock_prepare(void);
/*
 * The clock of the run about to start: the counter when want_cpu and it is
 * reliable here (calibrated the first time: at least 10 ms after
 * clock_prepare), else CLOCK_MONOTONIC.  Call with no other thread timing.
 * Returns the source in use.
 */
enum clock_source clock_select(bool want_cpu);
/* Why the counter is not used ("" when it is or may be): for notes. */
const char *clock_why_not(void);

#endif
