/*
 * `iogauge steady`: a SNIA SSS PTS-style steady-state test.  The region is
 * preconditioned once (written twice with 128 KiB sequential writes, under
 * the write interlock), then rounds run until the tracked case's last five
 * rounds are steady, their IOPS range within 20% of their average and their
 * least-squares line moving less than 10% of it across them, or until the
 * round limit (--passes).
 *
 * A round is one pass of the executor (suite_exec.c) over the cases, which asks
 * pass_done after each.  By default there is one case, the chosen pattern
 * (--rw, --bs: 4k random writes).  --round-bs and --round-mix (or --pts,
 * PTS's IOPS test) make a case of random I/O for every block size x read/
 * write mix, mixes outer and block sizes inner as PTS orders them; the
 * tracked case is 4 KiB 100% writes when it is one of them (PTS's tracking
 * variable), else the case with the fewest reads, then the smallest block.
 * After the verdict comes PTS's table: each case's average IOPS over the
 * tracked case's window.  Everything is recomputed from the rounds' figures
 * and the cases' options, so a saved result reads back the same.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "options/command.h"
#include "options/options.h"
#include "base/units.h"
#include "model/job_names.h"
#include "options/args.h"
#include "suites/steady_opts.h"
#include "stats/steady.h"
#include "suite/suite.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 5           /* rounds judged together */
#define RANGE_PCT 20.0     /* max - min within this percentage of their average */
#define EXCURSION_PCT 10.0 /* the least-squares line's rise or fall across them */
#define MAX_CASES (STEADY_MAX_LIST * STEADY_MAX_LIST)

/* SNIA PTS's IOPS test, in its order. */
static const uint64_t pts_bs[] = { 1024 << 10, 128 << 10, 64 << 10, 32 << 10, 16 << 10, 8 << 10, 4 << 10, 512 };
static const unsigned pts_mix[] = { 100, 95, 65, 50, 35, 5, 0 };

/* ---- the cases */

static unsigned read_pct_of(const struct job *j)
{
	return !rw_writes(j->rw) ? 100 : !rw_reads(j->rw) ? 0 : j->rwmixread;
}

static void add_case(struct suite_case *c, uint64_t bs, unsigned mix)
{
	char b[32], name[64], opts[128];
	print_size(bs, b, sizeof(b));
	snprintf(name, sizeof(name), "%s R/W %u/%u", b, mix, 100 - mix);
	if (mix == 0 || mix == 100)
		snprintf(opts, sizeof(opts), "--rw=%s --bs=%s", mix ? "randread" : "randwrite", b);
	else
		snprintf(opts, sizeof(opts), "--rw=randrw --rwmixread=%u --bs=%s", mix, b);
	c->name = xstrdup(name);
	c->opts = xstrdup(opts);
}

/* One case of the chosen pattern, or every block size x mix of the lists (mixes outer, as PTS). */
static int plan(const struct suite_run *sr, struct job *base, struct suite_case **cases, unsigned *n,
		struct ig_err *e)
{
	const struct steady_opts *st = steady_opts_c(sr->s);
	*cases = NULL;
	*n = 0;
	if (!st->nbs && !st->nmix && !st->pts) {
		*cases = xcalloc(1, sizeof(**cases));
		(*cases)[0].name = xstrdup("round");
		(*cases)[0].opts = xstrdup("");
		*n = 1;
		return 0;
	}
	if (!rw_is_random(base->rw))
		return err_set(e, EXIT_USAGE,
			       "--round-bs, --round-mix and --pts make cases of random I/O: --rw=%s is sequential",
			       rw_names[base->rw]);
	unsigned own_mix = read_pct_of(base);
	const uint64_t *bs = st->nbs ? st->bs : st->pts ? pts_bs : &base->bs;
	const unsigned *mix = st->nmix ? st->mix : st->pts ? pts_mix : &own_mix;
	unsigned nbs = st->nbs ? st->nbs : st->pts ? ARRAY_SIZE(pts_bs) : 1;
	unsigned nmix = st->nmix ? st->nmix : st->pts ? ARRAY_SIZE(pts_mix) : 1;
	*cases = xcalloc((size_t)nbs * nmix, sizeof(**cases));
	for (unsigned m = 0; m < nmix; m++)
		for (unsigned b = 0; b < nbs; b++)
			add_case(&(*cases)[(*n)++], bs[b], mix[m]);
	return 0;
}

/* ---- the cases as a table: block sizes (rows) x mixes (columns), and the tracked case */

struct grid {
	unsigned n;                 /* cases */
	uint64_t bs[MAX_CASES];     /* each case's block size */
	unsigned mix[MAX_CASES];    /* and read percentage */
	uint64_t rows[STEADY_MAX_LIST];
	unsigned cols[STEADY_MAX_LIST], nrows, ncols;
	int at[STEADY_MAX_LIST][STEADY_MAX_LIST]; /* the case of a row and column; -1: none */
	unsigned tracked;
	bool made;                  /* the cases came from the lists (not the one chosen pattern) */
};

static int find_u64(const uint64_t *v, unsigned n, uint64_t x)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] == x)
			return (int)i;
	return -1;
}

static int find_uint(const unsigned *v, unsigned n, unsigned x)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] == x)
			return (int)i;
	return -1;
}

/* PTS's report lays the table out small blocks first, writes on the left: both axes ascending. */
static void insert_u64(uint64_t *v, unsigned *n, uint64_t x)
{
	unsigned i = (*n)++;
	for (; i && v[i - 1] > x; i--)
		v[i] = v[i - 1];
	v[i] = x;
}

static void insert_uint(unsigned *v, unsigned *n, unsigned x)
{
	unsigned i = (*n)++;
	for (; i && v[i - 1] > x; i--)
		v[i] = v[i - 1];
	v[i] = x;
}

/* From the cases' own options (a saved result's too). */
static void grid_of(const struct suite_run *sr, struct grid *g)
{
	memset(g, 0, sizeof(*g));
	memset(g->at, -1, sizeof(g->at));
	g->n = sr->suite->ncases < MAX_CASES ? sr->suite->ncases : MAX_CASES;
	g->made = g->n && sr->suite->cases[0].opts[0];
	struct job *j = xcalloc(1, sizeof(*j));
	for (unsigned c = 0; c < g->n; c++) {
		struct ig_err e = { 0 };
		*j = *sr->base;
		if (args_apply_string(sr->suite->cases[c].opts, OG_ALL, j, NULL, &e))
			*j = *sr->base;
		g->bs[c] = j->bs;
		g->mix[c] = read_pct_of(j);
		if (find_u64(g->rows, g->nrows, g->bs[c]) < 0 && g->nrows < STEADY_MAX_LIST)
			insert_u64(g->rows, &g->nrows, g->bs[c]);
		if (find_uint(g->cols, g->ncols, g->mix[c]) < 0 && g->ncols < STEADY_MAX_LIST)
			insert_uint(g->cols, &g->ncols, g->mix[c]);
		/* PTS's tracking variable, else the fewest reads, then the smallest block. */
		unsigned t = g->tracked;
		bool pts = g->bs[c] == 4096 && g->mix[c] == 0, tpts = g->bs[t] == 4096 && g->mix[t] == 0;
		if (!tpts && (pts || g->mix[c] < g->mix[t] || (g->mix[c] == g->mix[t] && g->bs[c] < g->bs[t])))
			g->tracked = c;
	}
	for (unsigned c = 0; c < g->n; c++) {
		int r = find_u64(g->rows, g->nrows, g->bs[c]), k = find_uint(g->cols, g->ncols, g->mix[c]);
		if (r >= 0 && k >= 0 && g->at[r][k] < 0)
			g->at[r][k] = (int)c;
	}
	free(j);
}

/* ---- rounds and the verdict */

static const struct suite_cell *cell(const struct suite_run *sr, unsigned t, unsigned p, unsigned c)
{
	return &sr->targets[t].cells[p * sr->suite->ncases + c];
}

/* IOPS of case c in rounds [first, first + WINDOW), or false when one was not measured. */
static bool window_of(const struct suite_run *sr, unsigned t, unsigned c, unsigned first, double *y)
{
	for (unsigned i = 0; i < WINDOW; i++) {
		const struct suite_cell *x = cell(sr, t, first + i, c);
		if (!x->done)
			return false;
		y[i] = x->v[FD_TOTAL][FIG_IOPS];
	}
	return true;
}

static bool pass_done(const struct suite_run *sr, unsigned t, unsigned pass)
{
	double y[WINDOW];
	struct ss_judgement j;
	struct grid *g = xcalloc(1, sizeof(*g));
	grid_of(sr, g);
	bool done = pass + 1 >= WINDOW && window_of(sr, t, g->tracked, pass + 1 - WINDOW, y) &&
		    ss_judge_pts(y, WINDOW, RANGE_PCT, EXCURSION_PCT, &j);
	free(g);
	return done;
}

struct verdict {
	unsigned rounds;     /* the tracked case's, measured from the first */
	int first;           /* the judged window's first round (0-based); -1: none judged */
	bool reached;        /* that window is steady */
	struct ss_judgement j;
};

/* The first steady window of case c, as the executor found it; else the last window. */
static void judge(const struct suite_run *sr, unsigned t, unsigned c, struct verdict *v)
{
	double y[WINDOW];
	memset(v, 0, sizeof(*v));
	v->first = -1;
	while (v->rounds < sr->s->passes && cell(sr, t, v->rounds, c)->done)
		v->rounds++;
	for (unsigned p = 0; p + WINDOW <= v->rounds; p++) {
		if (!window_of(sr, t, c, p, y))
			break;
		v->first = (int)p;
		v->reached = ss_judge_pts(y, WINDOW, RANGE_PCT, EXCURSION_PCT, &v->j);
		if (v->reached)
			return;
	}
}

/* The rounds PTS's table averages: the window, or every round measured when there is none. */
static void table_rounds(const struct verdict *v, unsigned *first, unsigned *last)
{
	*first = v->first >= 0 ? (unsigned)v->first : 0;
	*last = v->first >= 0 ? (unsigned)v->first + WINDOW : v->rounds;
}

/* Case c's average IOPS over rounds [first, last); NAN when none was measured. */
static double average_iops(const struct suite_run *sr, unsigned t, unsigned c, unsigned first, unsigned last)
{
	double sum = 0;
	unsigned n = 0;
	for (unsigned p = first; p < last && p < sr->s->passes; p++)
		if (cell(sr, t, p, c)->done) {
			sum += cell(sr, t, p, c)->v[FD_TOTAL][FIG_IOPS];
			n++;
		}
	return n ? sum / n : NAN;
}

static double excursion_pct(const struct ss_judgement *j)
{
	return j->mean > 0 ? 100 * (j->slope < 0 ? -j->slope : j->slope) * (WINDOW - 1) / j->mean : 0;
}

static const char *pattern_of(unsigned mix)
{
	return mix == 0 ? "random writes" : mix == 100 ? "random reads" : "random reads and writes";
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

static void print_rounds_line(FILE *f, const struct suite_run *sr, const struct grid *g)
{
	const struct job *b = sr->base;
	char bs[32];
	if (!g->made) {
		print_size(b->bs, bs, sizeof(bs));
		fprintf(f, "Rounds: %s %s, iodepth %u x %u thread%s, %g s each, at most %u (--passes); steady when the last %d\n"
			   "rounds' IOPS range is within %.0f%% of their average and their least-squares line moves less\n"
			   "than %.0f%% of it across them (SNIA PTS)\n",
			rw_names[b->rw], bs, b->iodepth, b->numjobs, b->numjobs == 1 ? "" : "s",
			(double)b->runtime_ns / 1e9, sr->s->passes, WINDOW, RANGE_PCT, EXCURSION_PCT);
		return;
	}
	fprintf(f, "Rounds: %u case%s of random I/O each, block sizes", g->n, g->n == 1 ? "" : "s");
	for (unsigned r = 0; r < g->nrows; r++) {
		print_size(g->rows[r], bs, sizeof(bs));
		fprintf(f, "%s %s", r ? "," : "", bs);
	}
	fprintf(f, " x R/W mixes");
	for (unsigned k = 0; k < g->ncols; k++)
		fprintf(f, "%s %u/%u", k ? "," : "", g->cols[k], 100 - g->cols[k]);
	fprintf(f, ";\niodepth %u x %u thread%s, %g s a case, at most %u rounds (--passes). Tracked: %s (%s);\n"
		   "steady when its last %d rounds' IOPS range is within %.0f%% of their average and their\n"
		   "least-squares line moves less than %.0f%% of it across them (SNIA PTS)\n",
		b->iodepth, b->numjobs, b->numjobs == 1 ? "" : "s", (double)b->runtime_ns / 1e9, sr->s->passes,
		sr->suite->cases[g->tracked].name, pattern_of(g->mix[g->tracked]), WINDOW, RANGE_PCT, EXCURSION_PCT);
}

/* PTS's table: every case's average IOPS over the tracked case's window. */
static void print_table(FILE *f, const struct suite_run *sr, unsigned t, const struct grid *g,
			const struct verdict *v)
{
	unsigned first, last;
	char bs[32], mix[16];
	table_rounds(v, &first, &last);
	if (v->first >= 0)
		fprintf(f, "IOPS by block size and R/W mix, the average of the %s window (rounds %u-%u%s):\n",
			v->reached ? "steady-state" : "last", first + 1, last,
			v->reached ? "" : "; steady state NOT reached");
	else
		fprintf(f, "IOPS by block size and R/W mix, the average of the %u round%s measured (too few for a window):\n",
			v->rounds, v->rounds == 1 ? "" : "s");
	fprintf(f, "%6s", "Block");
	for (unsigned k = 0; k < g->ncols; k++) {
		snprintf(mix, sizeof(mix), "%u/%u", g->cols[k], 100 - g->cols[k]);
		fprintf(f, " %11s", mix);
	}
	fputc('\n', f);
	for (unsigned r = 0; r < g->nrows; r++) {
		print_size(g->rows[r], bs, sizeof(bs));
		fprintf(f, "%6s", bs);
		for (unsigned k = 0; k < g->ncols; k++) {
			double x = g->at[r][k] < 0 ? NAN : average_iops(sr, t, (unsigned)g->at[r][k], first, last);
			if (isnan(x))
				fprintf(f, " %11s", "-");
			else
				fprintf(f, " %11.1f", x);
		}
		fputc('\n', f);
	}
}

static void print_target(FILE *f, const struct suite_run *sr, unsigned t)
{
	const struct suite_target *q = &sr->targets[t];
	char a[32], c[32];
	suite_print_header(f, sr, t);
	if (q->refused.status)
		return;
	fprintf(f, "Precondition: wrote %s (the %s region twice) with 128 KiB sequential writes in %.2f s (not timed)\n",
		fmt_bytes(a, sizeof(a), (double)q->prepare_bytes), fmt_bytes(c, sizeof(c), (double)q->size),
		(double)q->prepare_ns / 1e9);
	struct grid *g = xcalloc(1, sizeof(*g));
	grid_of(sr, g);
	print_rounds_line(f, sr, g);
	struct verdict v;
	judge(sr, t, g->tracked, &v);
	if (g->n > 1)
		fprintf(f, "The tracked case's rounds (%s):\n", sr->suite->cases[g->tracked].name);
	fprintf(f, "%6s %12s %10s %10s %10s\n", "Round", "IOPS", "MB/s", "mean us", "p99 us");
	for (unsigned p = 0; p < v.rounds; p++) {
		const double *x = cell(sr, t, p, g->tracked)->v[FD_TOTAL];
		bool in = v.first >= 0 && (int)p >= v.first && (int)p < v.first + WINDOW;
		fprintf(f, "%6u %12.1f %10.2f %10.1f %10.1f%s\n", p + 1, x[FIG_IOPS], x[FIG_MBS],
			x[FIG_LAT_MEAN] / 1e3, x[FIG_LAT_P99] / 1e3,
			in ? (v.reached ? "  <- steady window" : "  <- last window") : "");
	}
	print_verdict(f, sr, &v);
	if (g->n > 1)
		print_table(f, sr, t, g, &v);
	free(g);
	suite_print_device(f, sr, t);
}

static void print_steady(FILE *f, const struct suite_run *sr)
{
	suite_print_targets(f, sr, print_target);
}

/* ---- JSON: every case's rounds, the tracked case's window and verdict, PTS's table */

static json_t *ig_json_window(const struct verdict *v)
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

static json_t *ig_json_num(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

static json_t *ig_json_rounds(const struct suite_run *sr, unsigned t, unsigned c)
{
	json_t *rounds = json_array();
	for (unsigned p = 0; p < sr->s->passes && cell(sr, t, p, c)->done; p++) {
		const double *x = cell(sr, t, p, c)->v[FD_TOTAL];
		json_t *r = json_object();
		json_object_set_new(r, "round", json_integer(p + 1));
		json_object_set_new(r, "iops", json_real(x[FIG_IOPS]));
		json_object_set_new(r, "mb_s", json_real(x[FIG_MBS]));
		json_object_set_new(r, "lat_mean_ns", json_real(x[FIG_LAT_MEAN]));
		json_object_set_new(r, "lat_p99_ns", json_real(x[FIG_LAT_P99]));
		json_array_append_new(rounds, r);
	}
	return rounds;
}

/* Every case's rounds and its average over the table's rounds; the table by block size x mix. */
static void ig_json_cases(json_t *x, const struct suite_run *sr, unsigned t, const struct grid *g,
		       const struct verdict *v)
{
	unsigned first, last;
	table_rounds(v, &first, &last);
	json_t *cases = json_array(), *table = json_object(), *rows = json_array();
	for (unsigned c = 0; c < g->n; c++) {
		json_t *k = json_object();
		json_object_set_new(k, RK_NAME, json_string(sr->suite->cases[c].name));
		json_object_set_new(k, "bs", ig_json_u64(g->bs[c]));
		json_object_set_new(k, RK_READ_PCT, json_integer(g->mix[c]));
		json_object_set_new(k, RK_ROUNDS, ig_json_rounds(sr, t, c));
		json_object_set_new(k, "iops_mean", ig_json_num(average_iops(sr, t, c, first, last)));
		json_array_append_new(cases, k);
	}
	json_object_set_new(x, RK_CASES, cases);
	json_object_set_new(table, "rounds_averaged",
			    json_string(v->reached ? "steady window" : v->first >= 0 ? "last window" : "all"));
	json_object_set_new(table, "first_round", json_integer(first + 1));
	json_object_set_new(table, "last_round", json_integer(last));
	for (unsigned r = 0; r < g->nrows; r++) {
		json_t *row = json_array();
		for (unsigned k = 0; k < g->ncols; k++)
			json_array_append_new(row, g->at[r][k] < 0 ? json_null()
					      : ig_json_num(average_iops(sr, t, (unsigned)g->at[r][k], first, last)));
		json_array_append_new(rows, row);
	}
	json_object_set_new(table, "iops", rows);
	json_object_set_new(x, "table", table);
}

static json_t *ig_json_steady(const struct suite_run *sr)
{
	json_t *o = json_object(), *targets = json_array(), *bs = json_array(), *mix = json_array();
	struct grid *g = xcalloc(1, sizeof(*g));
	grid_of(sr, g);
	json_object_set_new(o, "window_rounds", json_integer(WINDOW));
	json_object_set_new(o, "range_pct_limit", json_real(RANGE_PCT));
	json_object_set_new(o, "excursion_pct_limit", json_real(EXCURSION_PCT));
	json_object_set_new(o, "round_limit", json_integer(sr->s->passes));
	json_object_set_new(o, "tracked_case", json_string(sr->suite->cases[g->tracked].name));
	for (unsigned r = 0; r < g->nrows; r++)
		json_array_append_new(bs, ig_json_u64(g->rows[r]));
	for (unsigned k = 0; k < g->ncols; k++)
		json_array_append_new(mix, json_integer(g->cols[k]));
	json_object_set_new(o, "block_sizes", bs);
	json_object_set_new(o, "read_pcts", mix);
	for (unsigned t = 0; t < sr->ntargets; t++) {
		struct verdict v;
		json_t *x = json_object();
		judge(sr, t, g->tracked, &v);
		json_object_set_new(x, RK_PATH, ig_json_text(sr->targets[t].shown));
		json_object_set_new(x, "prepare_ns", ig_json_u64(sr->targets[t].prepare_ns));
		json_object_set_new(x, "prepare_bytes", ig_json_u64(sr->targets[t].prepare_bytes));
		json_object_set_new(x, RK_ROUNDS, ig_json_rounds(sr, t, g->tracked));
		json_object_set_new(x, "reached", json_boolean(v.reached));
		json_object_set_new(x, RK_WINDOW, ig_json_window(&v));
		ig_json_cases(x, sr, t, g, &v);
		json_array_append_new(targets, x);
	}
	json_object_set_new(o, RK_TARGETS, targets);
	free(g);
	return o;
}

static const struct suite_case cases[] = { { "round", "" } };

static const struct suite steady = {
	.cases = cases,
	.ncases = ARRAY_SIZE(cases),
	.plan = plan,
	.print = print_steady,
	.json = ig_json_steady,
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
		"sequential writes, then runs rounds until the last 5 rounds are steady: their IOPS "
		"range within 20% of their average and their least-squares line moving less than 10% of "
		"it across them (SNIA SSS PTS), or until --passes rounds (default 25). A round is the "
		"pattern (default 4k random writes, O_DIRECT, 32 in flight, 10 s a round), or with "
		"--round-bs and --round-mix (or --pts: PTS's IOPS test, 8 block sizes x 7 read/write "
		"mixes) a case of random I/O for every block size x mix, --runtime each; the tracked "
		"case, judged for steady state, is 4k 100% writes when it is one of them, else the case "
		"with the fewest reads, then the smallest block. Prints the tracked case's rounds, the "
		"steady-state window and whether it was reached, then (several cases) PTS's table: every "
		"case's average IOPS over the window, block sizes by mixes. A device is written only "
		"when it carries no signature, or with --allow-destroy; never when mounted. --html "
		"plots the rounds and the window.",
	.groups = OG_RESULTS | OG_DESTROY | OG_KEEP | OG_SUITE | OG_SIZING | OG_ENGINE | OG_QUEUE | OG_DATA | OG_VERIFY |
		  OG_PATTERN | OG_SAVE | OG_STORE,
	.defaults = "--rw=randwrite --bs=4k --size=1g --runtime=10s --ramp_time=0 --passes=25 --direct=1 "
		    "--ioengine=auto --iodepth=32 --numjobs=1 --time_based=1 --invalidate=1 --group_reporting=1",
	.suite = &steady,
};
