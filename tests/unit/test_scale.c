/*
 * Unit tests for scale's knee (src/suites/scale.c), on figures made up for
 * the purpose: a device that scales linearly up to 8 outstanding I/Os and
 * then saturates has its knee at QD 8; one that scales all the way has no
 * step under the threshold; the threshold is exactly where IOPS and latency
 * grow by the same factor; the sweep's cases follow --iodepth.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "options/args.h"
#include "suite/suite.h"

extern const struct command cmd_scale;

#define NQ 7 /* QD 1..64, one thread */

static struct suite_case *cases;
static unsigned ncases;
static struct suite sweep;
static struct suite_cell cells[NQ];
static struct suite_target tg;
static struct settings s;
static struct job base;

static int setup(void **state)
{
	(void)state;
	struct ig_err e = { 0 };
	options_defaults(&base, &s);
	if (args_apply_string(cmd_scale.defaults, OG_ALL, &base, &s, &e) ||
	    args_apply_string("--iodepth=64 --numjobs=1 --ioengine=libaio", OG_ALL, &base, &s, &e))
		return -1;
	if (cmd_scale.suite->make_cases(&base, &cases, &ncases, &e))
		return -1;
	sweep = *cmd_scale.suite;
	sweep.cases = cases;
	sweep.ncases = ncases;
	s.passes = 1;
	tg.cells = cells;
	snprintf(tg.shown, sizeof(tg.shown), "/dev/test");
	tg.tested = true;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	suite_cases_free(cases, ncases);
	return 0;
}

/* Figures of QD q (one thread): IOPS x, and the latency Little's law gives with q in flight. */
static void fill(double (*iops)(unsigned q))
{
	memset(cells, 0, sizeof(cells));
	for (unsigned c = 0; c < NQ; c++) {
		unsigned q = 1u << c;
		double x = iops(q), lat = q / x * 1e9;
		cells[c].v[FD_TOTAL][FIG_IOPS] = x;
		cells[c].v[FD_TOTAL][FIG_MBS] = x * 4096 / 1e6;
		cells[c].v[FD_TOTAL][FIG_LAT_MEAN] = lat;
		cells[c].v[FD_TOTAL][FIG_LAT_P99] = 3 * lat;
		cells[c].done = true;
	}
}

static json_t *knee_json(void)
{
	struct suite_run sr = { .cmd = &cmd_scale, .suite = &sweep, .base = &base, .s = &s,
				.targets = &tg, .ntargets = 1 };
	json_t *o = sweep.json(&sr);
	assert_non_null(o);
	return json_array_get(json_object_get(o, "targets"), 0) ? o : NULL;
}

static const json_t *get(const json_t *o, const char *a, const char *b)
{
	const json_t *t = json_array_get(json_object_get(o, "targets"), 0);
	return json_object_get(json_object_get(t, a), b);
}

static double saturating(unsigned q)
{
	return q <= 8 ? 10000.0 * q : 80000.0 + 1000.0 * (q - 8);
}

static double linear(unsigned q)
{
	return 10000.0 * q;
}

static void test_cases(void **state)
{
	(void)state;
	assert_int_equal(ncases, NQ);
	assert_string_equal(cases[0].name, "QD1 T1");
	assert_string_equal(cases[6].name, "QD64 T1");
	assert_string_equal(cases[3].opts, "--iodepth=8 --numjobs=1");
	/* A largest queue depth that is not a power of two is the last step. */
	struct job b = base;
	struct suite_case *c;
	unsigned n;
	struct ig_err e = { 0 };
	b.iodepth = 48;
	assert_int_equal(cmd_scale.suite->make_cases(&b, &c, &n, &e), 0);
	assert_int_equal(n, 7);
	assert_string_equal(c[6].name, "QD48 T1");
	suite_cases_free(c, n);
}

static void test_knee_saturating(void **state)
{
	(void)state;
	fill(saturating);
	json_t *o = knee_json();
	assert_string_equal(json_string_value(get(o, "knee", "case")), "QD8 T1");
	assert_int_equal(json_integer_value(get(o, "next", "iodepth")), 16);
	/* From QD 8 to 16: 8000 IOPS more for 8 more outstanding I/Os. */
	assert_true(fabs(json_real_value(get(o, "next", "gain_iops_per_io")) - 1000) < 1e-6);
	/* The threshold: IOPS x (sqrt(N_b / N_a) - 1) / (N_b - N_a) = 80000 x (sqrt 2 - 1) / 8. */
	assert_true(fabs(json_real_value(get(o, "next", "threshold_iops_per_io")) - 10000 * (sqrt(2) - 1)) < 1e-6);
	assert_true(fabs(json_real_value(get(o, "knee", "outstanding")) - 8) < 1e-9);
	/* The table marks the row. */
	struct suite_run sr = { .cmd = &cmd_scale, .suite = &sweep, .base = &base, .s = &s,
				.targets = &tg, .ntargets = 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	sweep.print(f, &sr);
	fclose(f);
	const char *row = strstr(text, "<- knee");
	assert_non_null(row);
	while (row > text && row[-1] != '\n')
		row--;
	unsigned t, q;
	assert_int_equal(sscanf(row, "%u %u", &t, &q), 2);
	assert_int_equal(q, 8);
	assert_non_null(strstr(text, "Knee: 1 thread at QD 8: 80.0k IOPS"));
	free(text);
	json_decref(o);
}

static void test_knee_linear(void **state)
{
	(void)state;
	fill(linear);
	json_t *o = knee_json();
	assert_string_equal(json_string_value(get(o, "knee", "case")), "QD64 T1");
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(o, "targets"), 0), "next")));
	json_decref(o);
}

/*
 * With each doubling of outstanding I/O, IOPS x sqrt 2 and latency x sqrt 2
 * is the balance the threshold stands for: 0.1% above it up to QD 8, 0.1%
 * under it from 8 to 16.
 */
static double balanced(unsigned q)
{
	unsigned k = (unsigned)log2(q);
	double x = 10000.0 * pow(sqrt(2) * 1.001, k < 3 ? k : 3);
	return q >= 16 ? x * pow(sqrt(2) * 0.999, k - 3) : x;
}

static void test_knee_threshold(void **state)
{
	(void)state;
	fill(balanced);
	json_t *o = knee_json();
	/* Up to QD 8, IOPS and latency grow alike; the step to 16 falls just short. */
	assert_string_equal(json_string_value(get(o, "knee", "case")), "QD8 T1");
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_knee_saturating),
		cmocka_unit_test(test_knee_linear),
		cmocka_unit_test(test_knee_threshold),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
