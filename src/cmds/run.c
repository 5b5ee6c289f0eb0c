/* `iogauge run`: fio's options and job files, one runner, text or JSON out. */
#include "base/common.h"
#include "stats/fiolog.h"
#include "cmds/commands.h"
#include "base/ctx.h"
#include "options/options.h"
#include "options/args.h"
#include "options/jobfile.h"
#include "cmds/help.h"
#include "run/runner.h"
#include "report/report.h"
#include "cmds/run.h"
#include "cmds/session.h"
#include "base/progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void progress(void *arg, const struct run_live *l)
{
	struct progress_line *p = arg;
	double el = (double)l->elapsed_ns / 1e9, planned = (double)l->planned_ns / 1e9;
	if (!progress_line_begin(p))
		return;
	/* Requests done tell a log (and a test waiting for a stage) that the measured part has begun. */
	fprintf(stderr, "iogauge: %u/%u threads running, %.0f s, %" PRIu64 " requests", l->running,
		l->threads, el, l->ios);
	if (planned > 0)
		fprintf(stderr, ", about %.0f s left", planned > el ? planned - el : 0);
	progress_line_end(p);
}

static int parse(const struct command *cmd, int argc, char **argv, struct parsed_args *pa,
		 struct ig_err *e)
{
	if (args_parse(argc, argv, cmd, pa, e))
		return -1;
	int rc = 0;
	for (unsigned i = 0; i < pa->nwords && !pa->help && !rc; i++)
		rc = jobfile_parse(pa->words[i], cmd, pa, e);
	/* Unsupported fio options become warnings or errors: also when a file had other errors. */
	if (args_finish(pa, e) || rc)
		return -1;
	if (!pa->njobs) {
		/* Options with no --name: one job, as the user clearly meant. */
		pa->jobs = xcalloc(1, sizeof(struct job));
		pa->jobs[0] = pa->global;
		snprintf(pa->jobs[0].name, sizeof(pa->jobs[0].name), "job");
		pa->njobs = 1;
	}
	return 0;
}

int run_jobs(const struct command *cmd, struct parsed_args *pa, const struct run_present *p)
{
	struct ig_err e = { 0 };
	struct session ss;
	session_init(&ss, cmd, &pa->settings);
	if (report_fio_logs_check(pa->jobs, pa->njobs, &e) || session_begin(&ss, pa->settings.keep || p->keep, &e))
		return session_refuse(&ss, &e);
	struct progress_line line;
	progress_line_init(&line, pa->settings.eta, pa->settings.quiet);
	struct run_opts o = {
		.allow_destroy = pa->settings.allow_destroy,
		.allow_overwrite = pa->settings.allow_overwrite,
		.readonly = p->readonly,
		.progress = p->progress ? p->progress : line.on ? progress : NULL,
		.progress_arg = p->progress ? p->progress_arg : &line,
	};
	struct run_result r;
	runner_run(&ss.ctx, pa->jobs, pa->njobs, &o, &r);
	if (p->progress_end)
		p->progress_end(p->progress_arg);
	else
		progress_line_clear(&line);
	/* Test files go before the report: a reader that hangs up must not keep them. */
	ctx_remove_files(&ss.ctx);
	report_notes(&r, p->fio);
	report_failures(&r);
	char logerr[PATH_MAX + 128];
	int log_status = 0;
	for (unsigned i = 0; i < r.njobs; i++)
		if (report_fio_logs_dropped(&r.jobs[i]))
			fprintf(stderr, "iogauge: job %s: the per-request log holds the first %u requests of a "
				"thread; use --log_avg_msec for longer runs\n", r.jobs[i].job.name, FIOLOG_MAX_RECS);
	if (report_fio_logs(&r, logerr, sizeof(logerr))) {
		fprintf(stderr, "iogauge: %s\n", logerr);
		log_status = EXIT_FAILURE;
	}
	/* fio's order for a list of formats: terse, then JSON, then text. */
	struct fio_echo echo = { &pa->global_echo, pa->echo, pa->njobs };
	unsigned fmts = pa->settings.output_formats ? pa->settings.output_formats :
						      1u << pa->settings.output_format;
	if (pa->settings.minimal)
		fmts = 1u << OUT_TERSE;
	if (fmts & (1u << OUT_TERSE))
		report_terse(ss.out.out, &r);
	if (fmts & (1u << OUT_FIO_JSON | 1u << OUT_FIO_JSONPLUS))
		report_fio_json(ss.out.out, &r, &echo, fmts & (1u << OUT_FIO_JSONPLUS));
	if (fmts & (1u << OUT_NORMAL))
		report_text(ss.out.out, &r);
	if (p->after && !log_status)
		log_status = p->after(p->after_arg, &r);
	json_t *root = session_root(&ss, r.status, r.interrupted, &r.err);
	if (root)
		ig_json_add_run(root, &r, cmd->groups, NULL);
	int status = session_end(&ss, root, r.status ? r.status : log_status);
	run_result_free(&r);
	return status;
}

static int cmd_run_main(const struct command *cmd, int argc, char **argv)
{
	struct parsed_args pa;
	struct ig_err e = { 0 };
	int bad = parse(cmd, argc, argv, &pa, &e);
	args_print_diags(&pa);
	if (bad) {
		if (!pa.err_listed)
			msg_err("%s", e.msg);
		args_free(&pa);
		return e.status;
	}
	if (pa.help) {
		options_help(stdout, cmd);
		args_free(&pa);
		return 0;
	}
	struct run_present p = { 0 };
	int status = run_jobs(cmd, &pa, &p);
	args_free(&pa);
	return status;
}

const struct command cmd_run = {
	.name = "run",
	.usage = "iogauge run [OPTIONS] [JOBFILE...]",
	.summary = "Any workload, with fio's option names and job-file syntax",
	.description =
		"Each --name starts a new job; options before the first --name apply to every job. Job "
		"files use fio's ini syntax ([global] and [job] sections, key=value). All jobs run at "
		"once unless --stonewall separates them. --allow-destroy and --allow-overwrite are "
		"taken from the command line only, never from a job file (--allow-overwrite also from "
		ALLOW_OVERWRITE_ENV "=1 in the environment).",
	.groups = OG_ALL & ~OG_SUITE,
	.jobs = true,
	.formats = 1u << OUT_NORMAL | 1u << OUT_JSON | 1u << OUT_FIO_JSON | 1u << OUT_FIO_JSONPLUS | 1u << OUT_TERSE,
	.main = cmd_run_main,
};
