/*
 * `iogauge report RESULT.json... [-o report.html]`: saved results into one
 * self-contained HTML page (html.c); several results are compared on shared
 * charts.  It measures nothing.
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/suite_read.h"
#include "options/options.h"
#include "options/args.h"
#include "cmds/help.h"
#include "report/report.h"
#include "report/result_read.h"
#include "base/userfile.h"
#include "cmds/store_cli.h"
#include "cmds/store_opts.h"
#include <math.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* -o FILE, as the usage shows it: the same as --output FILE. */
static char **short_o(int argc, char **argv)
{
	char **av = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++)
		av[i] = !strcmp(argv[i], "-o") ? "--output" : argv[i];
	return av;
}

/* Each result's name on shared charts: its file name, or its path when two share a name. */
static void labels(char **paths, unsigned n, const char **out)
{
	for (unsigned i = 0; i < n; i++) {
		const char *slash = strrchr(paths[i], '/');
		out[i] = slash && slash[1] ? slash + 1 : paths[i];
	}
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < n; k++)
			if (i != k && !strcmp(out[i], out[k]) && strcmp(paths[i], paths[k]))
				out[i] = paths[i];
}

static int write_report(const struct parsed_args *pa, char **shown, json_t **roots, struct ig_err *e)
{
	const char *path = pa->settings.html[0] ? pa->settings.html : pa->settings.output;
	bool to_stdout = !path[0] || !strcmp(path, "-");
	if (to_stdout && isatty(STDOUT_FILENO))
		return err_set(e, EXIT_USAGE, "the HTML page would go to the terminal: give -o FILE");
	const char *opt = pa->settings.html[0] ? "--html" : "-o";
	if (!to_stdout && outfile_check(opt, path, e))
		return -1;
	char *chartjs = html_chartjs_load(e);
	if (!chartjs)
		return -1;
	FILE *f = to_stdout ? stdout : outfile_open(opt, path, false, e);
	if (!f) {
		free(chartjs);
		return -1;
	}
	struct html_result *res = xcalloc(pa->nwords, sizeof(*res));
	const char **names = xcalloc(pa->nwords, sizeof(char *));
	labels(shown, pa->nwords, names);
	for (unsigned i = 0; i < pa->nwords; i++) {
		res[i].root = roots[i];
		res[i].label = pa->nwords > 1 ? names[i] : "";
	}
	int rc = html_write(f, res, pa->nwords, chartjs, command_saved_summary);
	if ((f != stdout && fclose(f)) || rc)
		rc = err_set(e, EXIT_IOERR, "cannot write the report to %s: %s", to_stdout ? "stdout" : path,
			     strerror(errno));
	free(res);
	free(names);
	free(chartjs);
	return rc;
}

/*
 * The figures of a label's runs (oldest first) as trend_figs: each judged
 * figure in order of appearance, each point with the band store_spread
 * gives over the window of runs before it (what check judges it against).
 */
static unsigned trend_figs(const struct store_run *runs, unsigned n, unsigned window, struct trend_fig **out)
{
	unsigned cap = 0, nf = 0;
	for (unsigned r = 0; r < n; r++)
		cap += runs[r].nfigs;
	struct trend_fig *t = xcalloc(cap ? cap : 1, sizeof(*t));
	const struct store_fig **key = xcalloc(cap ? cap : 1, sizeof(*key));
	for (unsigned r = 0; r < n; r++)
		for (unsigned i = 0; i < runs[r].nfigs; i++) {
			const struct store_fig *f = &runs[r].figs[i];
			if (!f->better)
				continue;
			unsigned k = 0;
			while (k < nf && !store_fig_same(key[k], f))
				k++;
			if (k == nf) {
				key[nf] = f;
				t[nf].name = f->name;
				t[nf].target = f->target;
				t[nf].unit = f->unit;
				t[nf].points = xcalloc(n, sizeof(struct trend_point));
				nf++;
			}
			struct trend_point *pt = &t[k].points[t[k].npoints++];
			unsigned from = r > window ? r - window : 0;
			struct store_spread sp;
			bool band = store_spread(runs + from, r - from, f, &sp);
			pt->id = runs[r].id;
			pt->when = runs[r].measured;
			pt->value = f->value;
			pt->lo = band ? sp.lo : NAN;
			pt->hi = band ? sp.hi : NAN;
		}
	free(key);
	*out = t;
	return nf;
}

static int write_trend(const struct parsed_args *pa, struct store *st, const char *label, struct ig_err *e)
{
	const char *path = pa->settings.html[0] ? pa->settings.html : pa->settings.output;
	bool to_stdout = !path[0] || !strcmp(path, "-");
	const char *opt = pa->settings.html[0] ? "--html" : "-o";
	unsigned window = store_opts_c(&pa->settings)->runs;
	if (to_stdout && isatty(STDOUT_FILENO))
		return err_set(e, EXIT_USAGE, "the HTML page would go to the terminal: give -o FILE");
	if (!store_label_ok(label))
		return err_set(e, EXIT_USAGE, "--trend=%s: not a label (" STORE_LABEL_RULE ")",
			       label);
	if (!to_stdout && outfile_check(opt, path, e))
		return -1;
	struct store_run *runs;
	unsigned n;
	if (store_series(st, label, 0, &runs, &n, e))
		return -1;
	if (!n) {
		store_series_free(runs, n);
		return err_set(e, EXIT_USAGE, "--trend=%s: no saved result of that label ended well (status 0)", label);
	}
	char *chartjs = html_chartjs_load(e);
	FILE *f = !chartjs ? NULL : to_stdout ? stdout : outfile_open(opt, path, false, e);
	int rc = -1;
	if (f) {
		struct trend_fig *t;
		unsigned nf = trend_figs(runs, n, window, &t);
		rc = html_trend_write(f, label, t, nf, window, chartjs);
		if ((f != stdout && fclose(f)) || rc)
			rc = err_set(e, EXIT_IOERR, "cannot write the report to %s: %s", to_stdout ? "stdout" : path,
				     strerror(errno));
		for (unsigned k = 0; k < nf; k++)
			free(t[k].points);
		free(t);
	}
	free(chartjs);
	store_series_free(runs, n);
	return rc;
}

static int cmd_report_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	char **av = short_o(argc, argv);
	json_t **roots = NULL;
	char **shown = NULL;
	struct store *st = NULL;
	int rc = args_parse(argc, av, cmd, &pa, &e);
	if (!rc && pa.help) {
		options_help(stdout, cmd);
		goto out;
	}
	const char *trend = store_opts_c(&pa.settings)->trend;
	if (!rc && *trend) {
		if (pa.nwords)
			rc = err_set(&e, EXIT_USAGE, "report --trend draws a label's history: no results besides (%s)",
				     pa.words[0]);
		else if ((st = cli_store_open(&pa.settings, &e)))
			rc = write_trend(&pa, st, trend, &e);
		else
			rc = -1;
		goto out;
	}
	if (!rc && !pa.nwords)
		rc = err_set(&e, EXIT_USAGE, "name at least one saved result (iogauge report RESULT.json|REF... -o FILE)");
	if (!rc) {
		roots = xcalloc(pa.nwords, sizeof(json_t *));
		shown = xcalloc(pa.nwords, sizeof(char *));
	}
	for (unsigned i = 0; !rc && i < pa.nwords; i++) {
		char name[PATH_MAX];
		if (!(roots[i] = cli_result_load(pa.words[i], &pa.settings, &st, name, sizeof(name), &e)) ||
		    suite_saved_check(name, roots[i], &e))
			rc = -1;
		shown[i] = xstrdup(name); /* a store reference's name on the charts: "@last (#12)" */
	}
	if (!rc)
		rc = write_report(&pa, shown, roots, &e);
out:
	if (rc)
		msg_err("%s", e.msg);
	for (unsigned i = 0; roots && i < pa.nwords; i++) {
		json_decref(roots[i]);
		free(shown[i]);
	}
	free(roots);
	free(shown);
	store_close(st);
	args_free(&pa);
	free(av);
	return rc ? e.status : 0;
}

const struct command cmd_report = {
	.name = "report",
	.usage = "iogauge report [OPTIONS] RESULT.json|REF... [-o FILE] | iogauge report --trend=LABEL [-o FILE]",
	.summary = "Saved results as one self-contained HTML page with charts",
	.description =
		"Reads the JSON results iogauge wrote (--json FILE or --output-format=json) and writes "
		"one HTML page that opens offline: each command's own summary table, what the figures "
		"include (I/O mode, data, page cache, device bytes against requested bytes), the "
		"target, file system, device, kernel, version and command line, bars side by side with "
		"the passes' min-max as error bars, latency percentile curves from the full histograms, "
		"and per-second bandwidth, IOPS and latency of every job. Several results are compared "
		"on shared charts. -o FILE (or --output FILE) names the page; without it the page goes "
		"to stdout, unless that is a terminal. Chart.js is read from Debian's libjs-chart.js "
		"($IOGAUGE_CHARTJS names another copy). A word that names no file is a result in the store "
		"(--db: ID, LABEL, LABEL~N, @last, @last~N). fio's JSON (a file, or a result imported from one) "
		"is read as fio measured it: its jobs' bandwidth, IOPS and latency percentiles, no histogram "
		"(fio's bins are not iogauge's), as the page says. --trend=LABEL draws instead each figure of "
		"the label's saved results over time, with the spread of the --runs before each as a band "
		"(check's spread: their figures and their passes' ranges).",
	.groups = OG_OUTPUT | OG_HTML | OG_STORE,
	.main = cmd_report_main,
};
