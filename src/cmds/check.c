/*
 * `iogauge check LABEL`: a regression check for CI that runs nothing.  The
 * newest result of LABEL is judged against the --runs results before it:
 * a figure fell when it is worse than every one of them (below the lowest
 * rate, above the highest latency: beyond their spread, each run's passes
 * included) and, with --max-drop, worse than their median by more than that.
 * Exit 1 when any fell (which, by how much, against how many), 0 when none
 * did, 2 when there is too little history to say.
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/help.h"
#include "cmds/store_cli.h"
#include "cmds/store_opts.h"
#include "options/args.h"
#include "options/options.h"
#include "store/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct verdict {
	unsigned judged, fell, unjudged;
};

/* The newest result's figure f against the results before it (runs[0..n-2]): their spread, store_spread's. */
static void judge(const struct store_run *runs, unsigned n, const struct store_fig *f, double max_drop,
		  struct verdict *v)
{
	struct store_spread sp;
	if (!store_spread(runs, n - 1, f, &sp)) {
		v->unjudged++;
		return;
	}
	double med = sp.median, lo = sp.lo, hi = sp.hi;
	bool up = f->better > 0;
	bool beyond = up ? f->value < lo : f->value > hi;
	double worse = med ? 100.0 * (up ? med - f->value : f->value - med) / fabs(med) : 0;
	v->judged++;
	if (beyond && worse > max_drop) {
		v->fell++;
		printf("FELL %s%s%s: %.*f %s, %.1f%% %s the median %.*f of %u earlier runs (their spread %.*f to %.*f)\n",
		       f->name, *f->target ? " on " : "", f->target, f->value < 10 ? 3 : 1, f->value, f->unit, worse,
		       up ? "below" : "above", med < 10 ? 3 : 1, med, sp.runs, lo < 10 ? 3 : 1, lo, hi < 10 ? 3 : 1, hi);
	}
}

static int cmd_check_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	struct store *st = NULL;
	struct store_run *runs = NULL;
	unsigned n = 0;
	int rc = args_parse(argc, argv, cmd, &pa, &e);
	if (!rc && pa.help) {
		options_help(stdout, cmd);
		args_free(&pa);
		return 0;
	}
	const struct store_opts *o = store_opts_c(&pa.settings);
	if (!rc && pa.nwords != 1)
		rc = err_set(&e, EXIT_USAGE, "check judges one label: iogauge check LABEL (%u words given)", pa.nwords);
	if (!rc && !store_label_ok(pa.words[0]))
		rc = err_set(&e, EXIT_USAGE, "check: %s is not a label (" STORE_LABEL_RULE ")",
			     pa.words[0]);
	if (!rc && !(st = cli_store_open(&pa.settings, &e)))
		rc = -1;
	if (!rc)
		rc = store_series(st, pa.words[0], o->runs + 1, &runs, &n, &e);
	int status = 0;
	if (!rc && n < STORE_SPREAD_MIN_RUNS + 1) {
		rc = err_set(&e, EXIT_USAGE, "check %s: too little history: %u result%s of the label ended well (status 0), "
			     "a check needs the newest and %d before it",
			     pa.words[0], n, n == 1 ? "" : "s", STORE_SPREAD_MIN_RUNS);
	} else if (!rc) {
		const struct store_run *last = &runs[n - 1];
		struct verdict v = { 0 };
		for (unsigned i = 0; i < last->nfigs; i++)
			if (last->figs[i].better)
				judge(runs, n, &last->figs[i], o->max_drop, &v);
		if (!v.judged) {
			rc = err_set(&e, EXIT_USAGE, "check %s: too little history: no figure of result #%lld is in %d earlier results",
				     pa.words[0], last->id, STORE_SPREAD_MIN_RUNS);
		} else {
			printf("check %s: result #%lld (%s, %s) against the %u before it: %u figure%s judged, %u fell beyond "
			       "their spread%s%s",
			       pa.words[0], last->id, last->measured, last->host, n - 1, v.judged, v.judged == 1 ? "" : "s",
			       v.fell, o->max_drop > 0 ? " by more than " : "", o->max_drop > 0 ? "" : "");
			if (o->max_drop > 0)
				printf("%g%%", o->max_drop);
			if (v.unjudged)
				printf(" (%u with too little history not judged)", v.unjudged);
			printf("\n");
			status = v.fell ? 1 : 0;
		}
	}
	if (rc) {
		msg_err("%s", e.msg);
		status = e.status;
	}
	if (fflush(stdout) == EOF && !status)
		status = EXIT_IOERR;
	store_series_free(runs, n);
	store_close(st);
	args_free(&pa);
	return status;
}

const struct command cmd_check = {
	.name = "check",
	.usage = "iogauge check [--max-drop=PCT] [--runs=N] LABEL",
	.summary = "A regression check for CI: the newest result of LABEL against the ones before it",
	.description =
		"Runs nothing. Judges each figure of the newest saved result of LABEL (rates, IOPS, mean "
		"and p99 latency: compare's figures) against the --runs results of the label before it "
		"(status 0 only): a figure fell when it is worse than every one of them, their passes' "
		"ranges included (below the lowest rate, above the highest latency), and, with "
		"--max-drop=PCT, more than PCT percent worse than their median. Each figure that fell is "
		"printed: what, on which target, by how much, against how many runs. Exit status 1 when "
		"any fell, 0 when none did, 2 when there is too little history (fewer than 2 earlier "
		"results, or no figure in common with them).",
	.groups = OG_STORE,
	.main = cmd_check_main,
};
