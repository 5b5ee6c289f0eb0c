/* Unit tests for iostat -x's columns (iostat.c), on the figures of seed 002's iostat line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "run/iostat.h"

#define near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

/* Seed 002's `iostat -x 1` during hdparm: 2752 r/s of 512 KiB, avgqu-sz 4.64, await 1.69, %util 96.10. */
static void test_seed_line(void **state)
{
	(void)state;
	struct dev_delta d = { .rd_ios = 2752, .rd_sectors = 2752 * 1024, .rd_ticks_ms = 4651,
			       .wr_ios = 1, .wr_sectors = 8, .wr_ticks_ms = 2,
			       .io_ticks_ms = 961, .in_queue_ms = 4640, .span_ns = 1000000000 };
	struct iostat_cols c;
	iostat_cols(&d, &c);
	near(c.r_s, 2752, 1e-9);
	near(c.w_s, 1, 1e-9);
	near(c.rmb_s, 1376, 1e-9); /* sectors / 2048: MB = 2^20 bytes, as iostat -m */
	near(c.wmb_s, 8.0 / 2048, 1e-12);
	near(c.r_await, 1.69, 0.005); /* d(read ticks) / d(reads) */
	near(c.w_await, 2, 1e-9);
	near(c.aqu_sz, 4.64, 1e-9);   /* d(time in queue) / interval */
	near(c.util, 96.1, 1e-9);     /* d(io ticks) / interval */
}

/* Over 2.5 s: rates divide by the span; awaits do not. */
static void test_span(void **state)
{
	(void)state;
	struct dev_delta d = { .rd_ios = 500, .rd_merges = 50, .rd_sectors = 500 * 8, .rd_ticks_ms = 250,
			       .wr_merges = 5, .io_ticks_ms = 1250, .in_queue_ms = 500, .span_ns = 2500000000ULL };
	struct iostat_cols c;
	iostat_cols(&d, &c);
	near(c.r_s, 200, 1e-9);
	near(c.rrqm_s, 20, 1e-9);
	near(c.wrqm_s, 2, 1e-9);
	near(c.rmb_s, 4000.0 / 2048 / 2.5, 1e-12);
	near(c.r_await, 0.5, 1e-12);
	near(c.w_await, 0, 0); /* no writes: 0, not NaN */
	near(c.aqu_sz, 0.2, 1e-12);
	near(c.util, 50, 1e-9);
}

/* io_ticks counts jiffies: a little over the interval is capped at 100 %, as iostat does. */
static void test_edges(void **state)
{
	(void)state;
	struct dev_delta d = { .io_ticks_ms = 1004, .span_ns = 1000000000 };
	struct iostat_cols c;
	iostat_cols(&d, &c);
	near(c.util, 100, 0);
	memset(&d, 0, sizeof(d));
	d.rd_ios = 5;
	iostat_cols(&d, &c); /* no time: nothing, never a division by zero */
	near(c.r_s, 0, 0);
	near(c.util, 0, 0);
	char disk[64] = "x";
	iostat_disk_of("no-such-device", disk, sizeof(disk));
	assert_string_equal(disk, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_line),
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
