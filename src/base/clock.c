/* The clock of every timestamp: the counter's calibration and choice (clock.h). */
#include "base/clock.h"

#include <stdio.h>
#include <string.h>
#ifdef IG_HAVE_TSC
#include <cpuid.h>
#endif

struct tsc_scale ig_tsc;
int ig_tsc_on;

/* Long enough that the readings' few ns of uncertainty are a few parts per million. */
#define CAL_NS 10000000ULL

static struct {
	bool checked, reliable, prepared, calibrated;
	uint64_t tsc_a, ns_a;
	char why[96];
} cal;

#ifdef IG_HAVE_TSC
/* The counter and CLOCK_MONOTONIC read together: the closest pair of several tries. */
static void reading(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 32; i++) {
		_mm_lfence();
		uint64_t a = __rdtsc();
		uint64_t n = mono_ns();
		_mm_lfence();
		uint64_t b = __rdtsc();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = n;
		}
	}
}

static bool check(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000007 ||
	    !__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8))) {
		snprintf(cal.why, sizeof(cal.why), "the CPU's time-stamp counter is not invariant");
		return false;
	}
	/* The kernel's own clock on the counter: it found it synchronised across CPUs. */
	char cs[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			cs[0] = 0;
		fclose(f);
	}
	cs[strcspn(cs, "\n")] = 0;
	if (strcmp(cs, "tsc")) {
		snprintf(cal.why, sizeof(cal.why), "the kernel's clock source is %s, not tsc", cs[0] ? cs : "unknown");
		return false;
	}
	return true;
}
#endif

void clock_prepare(void)
{
#ifdef IG_HAVE_TSC
	if (!cal.checked) {
		cal.checked = true;
		cal.reliable = check();
	}
	if (cal.reliable && !cal.prepared) {
		reading(&cal.tsc_a, &cal.ns_a);
		cal.prepared = true;
	}
#else
	if (!cal.checked) {
		cal.checked = true;
		snprintf(cal.why, sizeof(cal.why), "no time-stamp counter on this architecture");
	}
#endif
}

#ifdef IG_HAVE_TSC
static bool calibrate(void)
{
	uint64_t now = mono_ns();
	if (now < cal.ns_a + CAL_NS) {
		uint64_t left = cal.ns_a + CAL_NS - now;
		struct timespec ts = { (time_t)(left / 1000000000ULL), (long)(left % 1000000000ULL) };
		while (nanosleep(&ts, &ts))
			;
	}
	uint64_t tsc_b, ns_b;
	reading(&tsc_b, &ns_b);
	if (tsc_b <= cal.tsc_a || ns_b <= cal.ns_a)
		goto bad;
	/* ns per tick in 32.32 fixed point; a rate from 10 MHz to 100 GHz. */
	unsigned __int128 m = ((unsigned __int128)(ns_b - cal.ns_a) << 32) / (tsc_b - cal.tsc_a);
	if (m < (1ULL << 32) / 100 || m > (100ULL << 32))
		goto bad;
	ig_tsc.tsc0 = tsc_b;
	ig_tsc.ns0 = ns_b;
	ig_tsc.mult = (uint64_t)m;
	cal.calibrated = true;
	return true;
bad:
	snprintf(cal.why, sizeof(cal.why), "the time-stamp counter did not keep pace with CLOCK_MONOTONIC");
	cal.reliable = false;
	return false;
}
#endif

enum clock_source clock_select(bool want_cpu)
{
	clock_prepare();
#ifdef IG_HAVE_TSC
	if (want_cpu && cal.reliable && (cal.calibrated || calibrate())) {
		__atomic_store_n(&ig_tsc_on, 1, __ATOMIC_RELEASE);
		return CLOCKSRC_CPU;
	}
#else
	(void)want_cpu;
#endif
	__atomic_store_n(&ig_tsc_on, 0, __ATOMIC_RELEASE);
	return CLOCKSRC_GETTIME;
}

const char *clock_why_not(void)
{
	return cal.why;
}
