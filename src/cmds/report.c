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

static int write_report(const struct parsed_args *pa, json_t **roots, struct ig_err *e)
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
	labels(pa->words, pa->nwords, names);
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

static int cmd_report_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	char **av = short_o(argc, argv);
	json_t **roots = NULL;
	int rc = args_parse(argc, av, cmd, &pa, &e);
	if (!rc && pa.help) {
		options_help(stdout, cmd);
		goto out;
	}
	if (!rc && !pa.nwords)
		rc = err_set(&e, EXIT_USAGE, "name at least one saved result (iogauge report RESULT.json... -o FILE)");
	if (!rc)
		roots = xcalloc(pa.nwords, sizeof(json_t *));
	for (unsigned i = 0; !rc && i < pa.nwords; i++)
		if (!(roots[i] = result_load(pa.words[i], &e)) || suite_saved_check(pa.words[i], roots[i], &e))
			rc = -1;
	if (!rc)
		rc = write_report(&pa, roots, &e);
out:
	if (rc)
		msg_err("%s", e.msg);
	for (unsigned i = 0; roots && i < pa.nwords; i++)
		json_decref(roots[i]);
	free(roots);
	args_free(&pa);
	free(av);
	return rc ? e.status : 0;
}

const struct command cmd_report = {
	.name = "report",
	.usage = "iogauge report [OPTIONS] RESULT.json... [-o FILE]",
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
		"($IOGAUGE_CHARTJS names another copy).",
	.groups = OG_OUTPUT,
	.main = cmd_report_main,
};
