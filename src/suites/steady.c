/*
 * `iogauge steady`: a SNIA SSS PTS-style steady-state test.  The region is
 * preconditioned once (written twice with 128 KiB sequential writes, under
 * the write interlock), then rounds of the chosen pattern (default 4k random
 * writes) run until the last five rounds are steady, their IOPS range within
 * 20% of their average and their least-squares line moving less than 10% of
 * it across them, or until the round limit (--passes).  A round is one pass
 * of the executor (suite.c), which asks pass_done after each; the verdict is
 * recomputed from the rounds' figures, so a saved result reads back the same.
 */
#include "common.h"
#include "commands.h"
#include "options.h"
#include "steady.h"
#include "suite.h"
#include "report/report.h"

#include <stdio.h>
#include <string.h>

#define WINDOW 5           /* rounds judged together */
#define RANGE_PCT 20.0     /* max - min within this percentage of their average */
#define EXCURSION_PCT 10.0 /* the least-squares line's rise or fall across them */

static const struct suite_case cases[] = { { "round", "" } };

static const struct suite_cell *round_cell(const struct suite_run *sr, unsigned t, unsigned p)
{
	return &sr->targets[t].cells[p * sr->suite->ncases];
}

/* IOPS of rounds [first, first + WINDOW), or false when one was not measured. */
static bool window_of(const struct suite_run *sr, unsigned t, unsigned first, double *y)
{
	for (unsigned i = 0; i < WINDOW; i++) {
		const struct suite_cell *c = round_cell(sr, t, first + i);
		if (!c->done)
			return false;
		y[i] = c->v[FD_TOTAL][FIG_IOPS];
	}
	return true;
}

static bool pass_done(const struct suite_run *sr, unsigned t, unsigned pass)
{
	double y[WINDOW];
	struct ss_judgement j;
	return pass + 1 >= WINDOW && window_of(sr, t, pass + 1 - WINDOW, y) &&
	       ss_judge_pts(y, WINDOW, RANGE_PCT, EXCURSION_PCT, &j);
}

struct verdict {
	unsigned rounds;     /* measured, from the first */
	int first;           /* the judged window's first round (0-based); -1: none judged */
	bool reached;        /* that window is steady */
	struct ss_judgement j;
};

/* The first steady window, as the executor found it; else the last window. */
static void judge(const struct suite_run *sr, unsigned t, struct verdict *v)
{
	double y[WINDOW];
	memset(v, 0, sizeof(*v));
	v->first = -1;
	while (v->rounds < sr->s->passes && round_cell(sr, t, v->rounds)->done)
		v->rounds++;
	for (unsigned p = 0; p + WINDOW <= v->rounds; p++) {
		if (!window_of(sr, t, p, y))
			break;
		v->first = (int)p;
		v->reached = ss_judge_pts(y, WINDOW, RANGE_PCT, EXCURSION_PCT, &v->j);
		if (v->reached)
			return;
	}
}

static double excursion_pct(const struct ss_judgement *j)
{
	return j->mean > 0 ? 100 * (j->slope < 0 ? -j->slope : j->slope) * (WINDOW - 1) / j->mean : 0;
}

/* ---- text */

static void print_verdict(FILE *f, const struct suite_run *sr, const struct verdict *v)
{
	if (v->reached) {
		fprintf(f, "Steady state reached at round %d: rounds %d-%d average %.0f IOPS, range %.1f%% of it "
			   "(limit %.0f%%), least-squares excursion %.1f%% (limit %.0f%%).\n",
			v->first + WINDOW, v->first + 1, v->first + WINDOW, v->j.mean, v->j.criterion, RANGE_PCT,
			excursion_pct(&v->j), EXCURSION_PCT);
	} else if (v->first >= 0) {
		fprintf(f, "Steady state NOT reached in %u round%s%s: the last %d rounds (%d-%d) average %.0f IOPS, "
			   "range %.1f%% of it (limit %.0f%%), least-squares excursion %.1f%% (limit %.0f%%).\n",
			v->rounds, v->rounds == 1 ? "" : "s",
			v->rounds >= sr->s->passes ? " (the round limit, --passes)" : "", WINDOW, v->first + 1,
			v->first + WINDOW, v->j.mean, v->j.criterion, RANGE_PCT, excursion_pct(&v->j), EXCURSION_PCT);
	} else {
		fprintf(f, "Steady state NOT reached: %u round%s measured, %d are needed to judge.\n", v->rounds,
			v->rounds == 1 ? "" : "s", WINDOW);
	}
}

static void print_target(FILE *f, const struct suite_run *sr, unsigned t)
{
	const struct suite_target *q = &sr->targets[t];
	const struct job *b = sr->base;
	char a[32], c[32], bs[32];
	suite_print_header(f, sr, t);
	if (q->refused.status)
		return;
	fprintf(f, "Precondition: wrote %s (the %s region twice) with 128 KiB sequential writes in %.2f s (not timed)\n",
		fmt_bytes(a, sizeof(a), (double)q->prepare_bytes), fmt_bytes(c, sizeof(c), (double)q->size),
		(double)q->prepare_ns / 1e9);
	print_size(b->bs, bs, sizeof(bs));
	fprintf(f, "Rounds: %s %s, iodepth %u x %u thread%s, %g s each, at most %u (--passes); steady when the last %d\n"
		   "rounds' IOPS range is within %.0f%% of their average and their least-squares line moves less\n"
		   "than %.0f%% of it across them (SNIA PTS)\n",
		rw_names[b->rw], bs, b->iodepth, b->numjobs, b->numjobs == 1 ? "" : "s", (double)b->runtime_ns / 1e9,
		sr->s->passes, WINDOW, RANGE_PCT, EXCURSION_PCT);
	struct verdict v;
	judge(sr, t, &v);
	fprintf(f, "%6s %12s %10s %10s %10s\n", "Round", "IOPS", "MB/s", "mean us", "p99 us");
	for (unsigned p = 0; p < v.rounds; p++) {
		const double *x = round_cell(sr, t, p)->v[FD_TOTAL];
		bool in = v.first >= 0 && (int)p >= v.first && (int)p < v.first + WINDOW;
		fprintf(f, "%6u %12.1f %10.2f %10.1f %10.1f%s\n", p + 1, x[FIG_IOPS], x[FIG_MBS],
			x[FIG_LAT_MEAN] / 1e3, x[FIG_LAT_P99] / 1e3,
			in ? (v.reached ? "  <- steady window" : "  <- last window") : "");
	}
	print_verdict(f, sr, &v);
	suite_print_device(f, sr, t);
}

static void print_steady(FILE *f, const struct suite_run *sr)
{
	suite_print_targets(f, sr, print_target);
}

/* ---- JSON: every round, the window and the verdict of each target */

static json_t *json_window(const struct verdict *v)
{
	if (v->first < 0)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "first_round", json_integer(v->first + 1));
	json_object_set_new(o, "last_round", json_integer(v->first + WINDOW));
	json_object_set_new(o, "iops_mean", json_real(v->j.mean));
	json_object_set_new(o, "range_pct", json_real(v->j.criterion));
	json_object_set_new(o, "slope_iops_per_round", json_real(v->j.slope));
	json_object_set_new(o, "excursion_pct", json_real(excursion_pct(&v->j)));
	return o;
}

static json_t *json_steady(const struct suite_run *sr)
{
	json_t *o = json_object(), *targets = json_array();
	json_object_set_new(o, "window_rounds", json_integer(WINDOW));
	json_object_set_new(o, "range_pct_limit", json_real(RANGE_PCT));
	json_object_set_new(o, "excursion_pct_limit", json_real(EXCURSION_PCT));
	json_object_set_new(o, "round_limit", json_integer(sr->s->passes));
	for (unsigned t = 0; t < sr->ntargets; t++) {
		struct verdict v;
		json_t *x = json_object(), *rounds = json_array();
		judge(sr, t, &v);
		json_object_set_new(x, "path", json_text(sr->targets[t].shown));
		json_object_set_new(x, "prepare_ns", json_u64(sr->targets[t].prepare_ns));
		json_object_set_new(x, "prepare_bytes", json_u64(sr->targets[t].prepare_bytes));
		for (unsigned p = 0; p < v.rounds; p++) {
			const double *c = round_cell(sr, t, p)->v[FD_TOTAL];
			json_t *r = json_object();
			json_object_set_new(r, "round", json_integer(p + 1));
			json_object_set_new(r, "iops", json_real(c[FIG_IOPS]));
			json_object_set_new(r, "mb_s", json_real(c[FIG_MBS]));
			json_object_set_new(r, "lat_mean_ns", json_real(c[FIG_LAT_MEAN]));
			json_object_set_new(r, "lat_p99_ns", json_real(c[FIG_LAT_P99]));
			json_array_append_new(rounds, r);
		}
		json_object_set_new(x, "rounds", rounds);
		json_object_set_new(x, "reached", json_boolean(v.reached));
		json_object_set_new(x, "window", json_window(&v));
		json_array_append_new(targets, x);
	}
	json_object_set_new(o, "targets", targets);
	return o;
}

static const struct suite steady = {
	.cases = cases,
	.ncases = ARRAY_SIZE(cases),
	.print = print_steady,
	.json = json_steady,
	.prepare = "--rw=write --bs=128k --loops=2 --time_based=0 --runtime=0 --ramp_time=0 --numjobs=1 "
		   "--ss_dur=0",
	.pass_done = pass_done,
};

const struct command cmd_steady = {
	.name = "steady",
	.usage = "iogauge steady [OPTIONS] [DEVICE|PATH...]",
	.summary = "SNIA PTS-style steady state: precondition, then rounds until the last five are steady",
	.description =
		"Writes the region (--size, or the whole device when smaller) twice with 128 KiB "
		"sequential writes, then runs rounds of the pattern (default 4k random writes, "
		"O_DIRECT, 32 in flight, 10 s a round) until the last 5 rounds are steady: their IOPS "
		"range within 20% of their average and their least-squares line moving less than 10% of "
		"it across them (SNIA SSS PTS), or until --passes rounds (default 25). Prints every "
		"round, the steady-state window and whether it was reached. A device is written only "
		"when it carries no signature, or with --allow-destroy; never when mounted. --html "
		"plots the rounds and the window.",
	.groups = OG_OUTPUT | OG_SAFETY | OG_SUITE | OG_SIZING | OG_ENGINE | OG_QUEUE | OG_DATA | OG_PATTERN,
	.defaults = "--rw=randwrite --bs=4k --size=1g --runtime=10s --ramp_time=0 --passes=25 --direct=1 "
		    "--ioengine=auto --iodepth=32 --numjobs=1 --time_based=1 --invalidate=1 --group_reporting=1",
	.suite = &steady,
};
