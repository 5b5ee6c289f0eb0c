/*
 * make test: alone (rates of the null engine measured within 10%)
 * Unit tests for steady state (steady.c, src/suites/steady.c): fio's and the
 * SNIA PTS criteria on made-up windows, the runner's window fed once a
 * second, and synthetic runs of `iogauge steady` on the null engine whose
 * rate limit changes from round to round: one that ends constant reaches
 * steady state within the round limit and stops there, one whose rate keeps
 * changing does not, and says so.
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
#include <sys/stat.h>
#include <unistd.h>

#include "base/common.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "options/args.h"
#include "stats/steady.h"
#include "suites/steady_opts.h"
#include "suite/suite.h"
#include "cmds/suite_read.h"
#include "report/report.h"
#include "report/result_read.h"

extern const struct command cmd_steady;

/* ---- the criteria */

static void test_fio_criteria(void **state)
{
	(void)state;
	struct ss_judgement j;
	const double flat[] = { 1000, 1000, 1000, 1000 };
	ss_judge_fio(SS_IOPS, 1, true, flat, 4, &j);
	assert_true(j.met);
	assert_true(j.mean == 1000 && j.deviation == 0 && j.slope == 0);
	/* y = 100 + 10 x: slope 10 a second, 8% of the mean 125; largest deviation 15. */
	const double ramp[] = { 100, 110, 120, 130, 140, 150 };
	ss_judge_fio(SS_IOPS_SLOPE, 10, false, ramp, 6, &j);
	assert_true(fabs(j.slope - 10) < 1e-9);
	assert_false(j.met); /* as fio: met only under the limit */
	ss_judge_fio(SS_IOPS_SLOPE, 10.01, false, ramp, 6, &j);
	assert_true(j.met);
	ss_judge_fio(SS_IOPS_SLOPE, 8, true, ramp, 6, &j);
	assert_true(fabs(j.criterion - 8) < 1e-9);
	assert_false(j.met); /* fio: met when under the limit */
	ss_judge_fio(SS_BW, 25, false, ramp, 6, &j);
	assert_true(fabs(j.deviation - 25) < 1e-9);
	assert_false(j.met);
	ss_judge_fio(SS_BW, 25.1, false, ramp, 6, &j);
	assert_true(j.met);
	/* A falling slope counts by its size. */
	const double fall[] = { 150, 140, 130, 120, 110, 100 };
	ss_judge_fio(SS_IOPS_SLOPE, 8.1, true, fall, 6, &j);
	assert_true(j.slope < 0 && j.met);
	/* A window of one value (ss_dur=1): no deviation; a slope is met at once, as fio's nan. */
	const double one[] = { 2000 };
	ss_judge_fio(SS_IOPS, 1, true, one, 1, &j);
	assert_true(j.met && j.deviation == 0);
	ss_judge_fio(SS_IOPS, 0, false, one, 1, &j);
	assert_false(j.met); /* 0 is not under a limit of 0 */
	ss_judge_fio(SS_BW_SLOPE, 0, false, one, 1, &j);
	assert_true(j.met);
}

/* Whole seconds, as fio counts them: 1.5 s is a window of one value, under 1 s none. */
static void test_whole_seconds(void **state)
{
	(void)state;
	struct job job;
	struct ss_result s = { 0 };
	memset(&job, 0, sizeof(job));
	job.ss_kind = SS_IOPS;
	job.ss_limit = 50;
	job.ss_pct = true;
	job.ss_dur_ns = 1500 * NSEC_PER_MSEC;
	ss_init(&s, &job, 0);
	assert_int_equal(s.n, 1);
	assert_true(s.dur_ns == NSEC_PER_SEC);
	assert_false(ss_feed(&s, 0, 0, 0));                       /* the base */
	assert_true(ss_feed(&s, NSEC_PER_SEC, 2000, 2000 * 4096)); /* one value: judged, met */
	assert_true(s.attained && s.judged);
	ss_free(&s);
	memset(&s, 0, sizeof(s));
	job.ss_dur_ns = 500 * NSEC_PER_MSEC;
	ss_init(&s, &job, 0);
	assert_int_equal(s.n, 0);
	assert_false(ss_feed(&s, 0, 0, 0));
	assert_false(ss_feed(&s, 2 * NSEC_PER_SEC, 4000, 4000 * 4096));
	assert_false(s.judged);
	ss_free(&s);
}

static void test_pts_criteria(void **state)
{
	(void)state;
	struct ss_judgement j;
	const double flat[] = { 2000, 2010, 1990, 2005, 1995 };
	assert_true(ss_judge_pts(flat, 5, 20, 10, &j));
	/* +100 a round around 1200: range 33% of the mean. */
	const double rising[] = { 1000, 1100, 1200, 1300, 1400 };
	assert_false(ss_judge_pts(rising, 5, 20, 10, &j));
	assert_true(fabs(j.criterion - 100.0 * 400 / 1200) < 1e-9);
	/* Within the range (14.8%) but the line rises 160 across the window: 14.8% > 10%. */
	const double creeping[] = { 1000, 1040, 1080, 1120, 1160 };
	assert_false(ss_judge_pts(creeping, 5, 20, 10, &j));
	assert_true(j.criterion < 20);
	/* Noisy but level: range 18%, no trend. */
	const double noisy[] = { 1000, 1180, 1000, 1180, 1090 };
	assert_true(ss_judge_pts(noisy, 5, 20, 10, &j));
}

/* The runner's window: a value a second from the counters, a reset (the ramp) starts over. */
static void test_feed(void **state)
{
	(void)state;
	struct job job;
	struct settings s;
	struct ss_result r;
	struct ig_err e = { 0 };
	options_defaults(&job, &s);
	assert_int_equal(args_apply_string("--steadystate=iops:2% --ss_dur=3 --ss_ramp=2", OG_ALL, &job, NULL, &e), 0);
	memset(&r, 0, sizeof(r));
	ss_init(&r, &job, 0);
	assert_int_equal(r.n, 3);
	uint64_t ios = 0, t = 2 * NSEC_PER_SEC;
	/* Inside ss_ramp: ignored. */
	assert_false(ss_feed(&r, NSEC_PER_SEC, 5000, 0));
	assert_int_equal(r.count, 0);
	/* A base, then counters that went back (a ramp's reset): a new base, no value. */
	assert_false(ss_feed(&r, t - NSEC_PER_SEC / 20, 9000, 9000 * 4096));
	assert_false(ss_feed(&r, t, ios, 0));
	assert_int_equal(r.count, 0);
	unsigned feeds = 0;
	bool done = false;
	while (!done && feeds < 40) {
		t += NSEC_PER_SEC / 10; /* fed ten times a second: one value a second */
		ios += 100;
		done = ss_feed(&r, t, ios, ios * 4096);
		feeds++;
	}
	assert_true(done);
	assert_int_equal(r.count, 3);
	assert_true(r.attained && fabs(r.last.mean - 1000) < 1e-6);
	assert_true(r.attained_ns == t);
	double w[3];
	assert_int_equal(ss_window(&r, true, w, 3), 3);
	assert_true(fabs(w[2] - 4096000) < 1e-3);
	char text[512];
	ss_describe(&r, text, sizeof(text));
	assert_non_null(strstr(text, "attained after 5.0 s"));
	ss_free(&r);
}

/* ---- synthetic runs of `iogauge steady` */

static char base[64], dir[96], jsonpath[128], textpath[128];
static const unsigned *rates;

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/iogauge-test-steady.XXXXXX");
	if (!mkdtemp(base))
		return -1;
	snprintf(dir, sizeof(dir), "%s/t", base);
	snprintf(jsonpath, sizeof(jsonpath), "%s/out.json", base);
	snprintf(textpath, sizeof(textpath), "%s/out.txt", base);
	return mkdir(dir, 0700);
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

/* Each round's rate limit, by round: the synthetic part. */
static void rate_by_round(struct suite_run *sr, struct suite_target *t, unsigned c, struct job *j)
{
	(void)t;
	(void)c;
	j->rate_iops[0] = j->rate_iops[1] = j->rate_iops[2] = rates[sr->pass];
}

/* Each case's rate limit, the same every round: the matrix part. */
static void rate_by_case(struct suite_run *sr, struct suite_target *t, unsigned c, struct job *j)
{
	(void)sr;
	(void)t;
	j->rate_iops[0] = j->rate_iops[1] = j->rate_iops[2] = rates[c];
}

static json_t *run_steady_with(void (*job)(struct suite_run *, struct suite_target *, unsigned, struct job *),
			       const unsigned *schedule, unsigned rounds, const char *const *more, char **text)
{
	static struct suite synthetic;
	static struct command cmd;
	synthetic = *cmd_steady.suite;
	synthetic.job = job;
	cmd = cmd_steady;
	cmd.suite = &synthetic;
	rates = schedule;
	char a_json[160], a_out[160], a_passes[32];
	snprintf(a_json, sizeof(a_json), "--json=%s", jsonpath);
	snprintf(a_out, sizeof(a_out), "--output=%s", textpath);
	snprintf(a_passes, sizeof(a_passes), "--passes=%u", rounds);
	char *argv[16] = { "--ioengine=null", "--direct=0", "--size=64m", "--runtime=400ms", "--iodepth=1",
			   a_passes, "--quiet", a_json, a_out };
	int argc = 9;
	for (unsigned i = 0; more && more[i] && argc < 14; i++)
		argv[argc++] = (char *)more[i];
	argv[argc++] = dir;
	assert_int_equal(suite_main(&cmd, argc, argv), 0);
	FILE *f = fopen(textpath, "r");
	assert_non_null(f);
	*text = calloc(1, 65536);
	fread(*text, 1, 65535, f);
	fclose(f);
	struct ig_err e = { 0 };
	json_t *root = result_load(jsonpath, &e);
	if (!root)
		fail_msg("%s", e.msg);
	return root;
}

static json_t *run_steady(const unsigned *schedule, unsigned rounds, char **text)
{
	return run_steady_with(rate_by_round, schedule, rounds, NULL, text);
}

static const json_t *target0(const json_t *root)
{
	return json_array_get(json_object_get(json_object_get(root, "steady"), "targets"), 0);
}

static void test_ends_constant(void **state)
{
	(void)state;
	static const unsigned schedule[] = { 6000, 4500, 3000, 2000, 2000, 2000, 2000, 2000, 2000, 2000 };
	char *text;
	json_t *root = run_steady(schedule, 10, &text);
	const json_t *t = target0(root);
	assert_true(json_is_true(json_object_get(t, "reached")));
	/* Rounds 4-8 run at 2000: steady at round 8, and the rounds stop there. */
	const json_t *w = json_object_get(t, "window");
	assert_int_equal(json_integer_value(json_object_get(w, "first_round")), 4);
	assert_int_equal(json_integer_value(json_object_get(w, "last_round")), 8);
	assert_int_equal(json_array_size(json_object_get(t, "rounds")), 8);
	double mean = json_real_value(json_object_get(w, "iops_mean"));
	assert_true(mean > 1900 && mean < 2100);
	/* The rounds ran at their rates: round 1 near 6000 IOPS. */
	double r1 = json_real_value(json_object_get(json_array_get(json_object_get(t, "rounds"), 0), "iops"));
	assert_true(r1 > 5000 && r1 < 6300);
	/* The precondition wrote the region twice. */
	assert_int_equal(json_integer_value(json_object_get(t, "prepare_bytes")), 2 * (64 << 20));
	assert_non_null(strstr(text, "Steady state reached at round 8: rounds 4-8"));
	assert_non_null(strstr(text, "Precondition: wrote 128 MiB (the 64.0 MiB region twice)"));
	/* The saved result prints the same verdict again. */
	struct suite_saved ss;
	struct ig_err e = { 0 };
	assert_int_equal(suite_from_json(root, &ss, &e), 0);
	char *again = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&again, &len);
	ss.suite.print(m, &ss.sr);
	fclose(m);
	assert_string_equal(again, text);
	suite_saved_free(&ss);
	free(again);
	free(text);
	json_decref(root);
}

static void test_keeps_changing(void **state)
{
	(void)state;
	static const unsigned schedule[] = { 1000, 1300, 1690, 2197, 2856, 3713, 4827 };
	char *text;
	json_t *root = run_steady(schedule, 7, &text);
	const json_t *t = target0(root);
	assert_false(json_is_true(json_object_get(t, "reached")));
	assert_int_equal(json_array_size(json_object_get(t, "rounds")), 7);
	const json_t *w = json_object_get(t, "window");
	assert_int_equal(json_integer_value(json_object_get(w, "first_round")), 3);
	assert_true(json_real_value(json_object_get(w, "range_pct")) > 20);
	assert_non_null(strstr(text, "Steady state NOT reached in 7 rounds (the round limit, --passes)"));
	free(text);
	json_decref(root);
}

/* ---- the cases of a round: --round-bs, --round-mix, --pts */

static void test_round_lists(void **state)
{
	(void)state;
	struct job job;
	struct settings s;
	struct ig_err e = { 0 };
	char buf[256];
	options_defaults(&job, &s);
	assert_int_equal(args_apply_cmd_string("--round-bs=1m,4k,512 --round-mix=100,65,0", &cmd_steady, &job, &s, &e), 0);
	assert_int_equal(steady_opts_c(&s)->nbs, 3);
	assert_true(steady_opts_c(&s)->bs[0] == 1 << 20 && steady_opts_c(&s)->bs[1] == 4096 && steady_opts_c(&s)->bs[2] == 512);
	assert_int_equal(steady_opts_c(&s)->nmix, 3);
	assert_true(steady_opts_c(&s)->mix[0] == 100 && steady_opts_c(&s)->mix[1] == 65 && steady_opts_c(&s)->mix[2] == 0);
	/* Printed as typed: a saved setting reads back the same. */
	option_print(option_find("round-bs"), &job, &s, buf, sizeof(buf));
	assert_string_equal(buf, "1m,4k,512");
	option_print(option_find("round-mix"), &job, &s, buf, sizeof(buf));
	assert_string_equal(buf, "100,65,0");
	/* Bad values: refused in one line naming the option; the list stays as it was. */
	static const char *const bad[] = {
		"--round-bs=4k,0", "--round-bs=4k,,8k", "--round-bs=2g", "--round-bs=4k,4096", "--round-bs=4x",
		"--round-bs=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "--round-mix=101", "--round-mix=-1",
		"--round-mix=50,50", "--round-mix=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "--round-mix=a",
	};
	for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&e, 0, sizeof(e));
		assert_int_equal(args_apply_cmd_string(bad[i], &cmd_steady, &job, &s, &e), -1);
		assert_int_equal(e.status, EXIT_USAGE);
		assert_non_null(strstr(e.msg, strncmp(bad[i], "--round-bs", 10) ? "round-mix" : "round-bs"));
		assert_null(strchr(e.msg, '\n'));
	}
	assert_int_equal(steady_opts_c(&s)->nbs, 3);
	assert_int_equal(steady_opts_c(&s)->nmix, 3);
	/* 16 values are allowed; an empty value empties the list. */
	assert_int_equal(args_apply_cmd_string("--round-mix=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", &cmd_steady, &job, &s, &e), 0);
	assert_int_equal(steady_opts_c(&s)->nmix, 16);
	assert_int_equal(args_apply_cmd_string("--round-bs=", &cmd_steady, &job, &s, &e), 0);
	assert_int_equal(steady_opts_c(&s)->nbs, 0);
}

/* The cases a round runs: the chosen pattern alone, or every block size x mix, mixes outer (PTS). */
static void test_round_cases(void **state)
{
	(void)state;
	struct job job;
	struct settings s;
	struct suite_run sr;
	struct suite_case *cases = NULL;
	unsigned n = 0;
	struct ig_err e = { 0 };
	const struct suite *st = cmd_steady.suite;
	memset(&sr, 0, sizeof(sr));
	sr.s = &s;
	options_defaults(&job, &s);
	assert_int_equal(args_apply_defaults(&cmd_steady, &job, &s, &e), 0);
	assert_int_equal(st->plan(&sr, &job, &cases, &n, &e), 0);
	assert_int_equal(n, 1);
	assert_string_equal(cases[0].name, "round"); /* --rw and --bs as given */
	assert_string_equal(cases[0].opts, "");
	suite_cases_free(cases, n);
	/* --pts: PTS's 56 cases, 100% reads at 1 MiB first, 512-byte writes last. */
	assert_int_equal(args_apply_cmd_string("--pts", &cmd_steady, &job, &s, &e), 0);
	assert_int_equal(st->plan(&sr, &job, &cases, &n, &e), 0);
	assert_int_equal(n, 56);
	assert_string_equal(cases[0].name, "1m R/W 100/0");
	assert_string_equal(cases[0].opts, "--rw=randread --bs=1m");
	assert_string_equal(cases[1].name, "128k R/W 100/0");
	assert_string_equal(cases[8].name, "1m R/W 95/5");
	assert_string_equal(cases[8].opts, "--rw=randrw --rwmixread=95 --bs=1m");
	assert_string_equal(cases[54].opts, "--rw=randwrite --bs=4k");
	assert_string_equal(cases[55].name, "512 R/W 0/100");
	suite_cases_free(cases, n);
	/* A list given replaces PTS's; the other dimension stays PTS's. */
	assert_int_equal(args_apply_cmd_string("--round-mix=0", &cmd_steady, &job, &s, &e), 0);
	assert_int_equal(st->plan(&sr, &job, &cases, &n, &e), 0);
	assert_int_equal(n, 8);
	suite_cases_free(cases, n);
	/* Without --pts, the missing list is --bs (or --rw's mix): randrw at 70% reads x two sizes. */
	assert_int_equal(args_apply_cmd_string("--pts=0 --round-mix= --round-bs=8k,16k --rw=randrw --rwmixread=70",
					       &cmd_steady, &job, &s, &e), 0);
	assert_int_equal(st->plan(&sr, &job, &cases, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_string_equal(cases[1].name, "16k R/W 70/30");
	assert_string_equal(cases[1].opts, "--rw=randrw --rwmixread=70 --bs=16k");
	suite_cases_free(cases, n);
	/* The lists make random cases: a sequential --rw is refused, not silently changed. */
	assert_int_equal(args_apply_cmd_string("--rw=write", &cmd_steady, &job, &s, &e), 0);
	assert_int_equal(st->plan(&sr, &job, &cases, &n, &e), -1);
	assert_int_equal(e.status, EXIT_USAGE);
	assert_non_null(strstr(e.msg, "--rw=write is sequential"));
	suite_cases_free(cases, n);
}

/* Rates by case (mixes outer): 4k reads, 8k reads, 4k writes, 8k writes. */
static const unsigned matrix_rates[] = { 4000, 3000, 2000, 1000 };

static void test_matrix_rounds(void **state)
{
	(void)state;
	static const char *const more[] = { "--runtime=200ms", "--round-bs=4k,8k", "--round-mix=100,0", NULL };
	char *text;
	json_t *root = run_steady_with(rate_by_case, matrix_rates, 7, more, &text);
	const json_t *st = json_object_get(root, "steady"), *t = target0(root);
	assert_string_equal(json_string_value(json_object_get(st, "tracked_case")), "4k R/W 0/100");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(st, "block_sizes"), 1)), 8192);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(st, "read_pcts"), 0)), 0);
	/* Constant rates: steady at round 5; every case ran every round. */
	assert_true(json_is_true(json_object_get(t, "reached")));
	assert_int_equal(json_array_size(json_object_get(t, "rounds")), 5);
	assert_int_equal(json_array_size(json_object_get(root, "jobs")), 20);
	const json_t *cases = json_object_get(t, "cases");
	assert_int_equal(json_array_size(cases), 4);
	for (unsigned c = 0; c < 4; c++) {
		const json_t *k = json_array_get(cases, c);
		assert_int_equal(json_array_size(json_object_get(k, "rounds")), 5);
		double m = json_real_value(json_object_get(k, "iops_mean"));
		assert_true(m > matrix_rates[c] * 0.9 && m < matrix_rates[c] * 1.05);
	}
	assert_string_equal(json_string_value(json_object_get(json_array_get(cases, 1), "name")), "8k R/W 100/0");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(cases, 1), "bs")), 8192);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(cases, 2), "read_pct")), 0);
	/* The tracked case's rounds are case 2's (4k writes, ~2000 IOPS). */
	double r1 = json_real_value(json_object_get(json_array_get(json_object_get(t, "rounds"), 0), "iops"));
	assert_true(r1 > 1800 && r1 < 2100);
	/* PTS's table: block sizes (rows) x mixes (columns), the window's averages. */
	const json_t *table = json_object_get(t, "table"), *rows = json_object_get(table, "iops");
	assert_string_equal(json_string_value(json_object_get(table, "rounds_averaged")), "steady window");
	assert_int_equal(json_array_size(rows), 2);
	assert_int_equal(json_array_size(json_array_get(rows, 0)), 2);
	/* PTS's layout: small blocks first, writes on the left (8k 0/100 is row 1, column 0). */
	double cell8w = json_real_value(json_array_get(json_array_get(rows, 1), 0));
	assert_true(cell8w > 900 && cell8w < 1050);
	assert_non_null(strstr(text, "Tracked: 4k R/W 0/100 (random writes)"));
	assert_non_null(strstr(text, "The tracked case's rounds (4k R/W 0/100):"));
	assert_non_null(strstr(text, "IOPS by block size and R/W mix, the average of the steady-state window (rounds 1-5):\n"
				     " Block       0/100       100/0\n    4k"));
	/* The saved result prints the same again. */
	struct suite_saved ss;
	struct ig_err e = { 0 };
	assert_int_equal(suite_from_json(root, &ss, &e), 0);
	char *again = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&again, &len);
	ss.suite.print(m, &ss.sr);
	fclose(m);
	assert_string_equal(again, text);
	suite_saved_free(&ss);
	free(again);
	free(text);
	json_decref(root);
}

static void no_limit(struct suite_run *sr, struct suite_target *t, unsigned c, struct job *j)
{
	(void)sr;
	(void)t;
	(void)c;
	(void)j;
}

/* Without 4k writes, the tracked case has the fewest reads, then the smallest block. */
static void test_tracked_choice(void **state)
{
	(void)state;
	static const char *const more[] = { "--runtime=30ms", "--round-bs=16k,8k", "--round-mix=100,65", NULL };
	char *text;
	json_t *root = run_steady_with(no_limit, NULL, 1, more, &text);
	assert_string_equal(json_string_value(json_object_get(json_object_get(root, "steady"), "tracked_case")),
			    "8k R/W 65/35");
	assert_non_null(strstr(text, "the average of the 1 round measured (too few for a window)"));
	const json_t *table = json_object_get(target0(root), "table");
	assert_string_equal(json_string_value(json_object_get(table, "rounds_averaged")), "all");
	free(text);
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_criteria),
		cmocka_unit_test(test_whole_seconds),
		cmocka_unit_test(test_pts_criteria),
		cmocka_unit_test(test_feed),
		cmocka_unit_test(test_ends_constant),
		cmocka_unit_test(test_keeps_changing),
		cmocka_unit_test(test_round_lists),
		cmocka_unit_test(test_round_cases),
		cmocka_unit_test(test_matrix_rounds),
		cmocka_unit_test(test_tracked_choice),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
