/* Unit tests for the clock (src/base/clock.c): the counter agrees with CLOCK_MONOTONIC, in rate and in value. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <time.h>

#include "base/clock.h"

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };
	while (nanosleep(&ts, &ts))
		;
}

/* |now_ns - CLOCK_MONOTONIC|, read as close together as the machine lets: the best of several tries. */
static uint64_t offset_ns(void)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 64; i++) {
		uint64_t a = mono_ns(), n = now_ns(), b = mono_ns();
		uint64_t d = n < a ? a - n : n > b ? n - b : 0;
		if (d < best)
			best = d;
	}
	return best;
}

static void monotonic_by_choice(void **state)
{
	(void)state;
	assert_int_equal(clock_select(false), CLOCKSRC_GETTIME);
	assert_true(offset_ns() < 1000);
}

static void counter_agrees(void **state)
{
	(void)state;
	clock_prepare();
	if (clock_select(true) != CLOCKSRC_GETTIME) {
		/* Calibrated: the same time now, and the same rate over a longer stretch. */
		assert_true(offset_ns() < 20000);
		uint64_t n0 = now_ns(), m0 = mono_ns();
		sleep_ns(200000000);
		uint64_t n1 = now_ns(), m1 = mono_ns();
		double rate = (double)(n1 - n0) / (double)(m1 - m0);
		assert_true(rate > 0.999 && rate < 1.001);
		assert_true(offset_ns() < 20000);
		/* Never backwards on this thread. */
		uint64_t prev = now_ns();
		for (int i = 0; i < 1000000; i++) {
			uint64_t t = now_ns();
			assert_true(t >= prev);
			prev = t;
		}
	} else {
		/* Not used: it says why (no invariant counter, or the kernel's clock is not on it). */
		assert_true(strlen(clock_why_not()) > 0);
		assert_true(offset_ns() < 1000);
	}
	/* Back to CLOCK_MONOTONIC, and to the counter again without a new calibration. */
	assert_int_equal(clock_select(false), CLOCKSRC_GETTIME);
	assert_true(offset_ns() < 1000);
	struct tsc_scale before = ig_tsc;
	clock_select(true);
	assert_memory_equal(&before, &ig_tsc, sizeof(before));
	clock_select(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(monotonic_by_choice),
		cmocka_unit_test(counter_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
