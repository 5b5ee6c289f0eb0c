/* `iogauge run`: fio's options and job files, one runner, text or JSON out. */
#include "common.h"
#include "commands.h"
#include "options.h"
#include "runner.h"
#include "report/report.h"

#include <stdio.h>

int cmd_run(int argc, char **argv)
{
	struct parsed_args pa = { 0 };
	options_defaults(&pa.global, &pa.settings);
	args_parse(argc, argv, CMD_RUN, &pa);
	if (pa.help) {
		options_help(stdout, CMD_RUN);
		args_free(&pa);
		return 0;
	}
	for (unsigned i = 0; i < pa.nwords; i++)
		jobfile_parse(pa.words[i], &pa);
	if (!pa.njobs) {
		/* Options with no --name: one job, as the user clearly meant. */
		pa.jobs = xcalloc(1, sizeof(struct job));
		pa.jobs[0] = pa.global;
		snprintf(pa.jobs[0].name, sizeof(pa.jobs[0].name), "job");
		pa.njobs = 1;
	}
	pa.settings.progress = true;
	FILE *out = report_open("output", pa.settings.output);
	FILE *json = pa.settings.json[0] ? report_open("json", pa.settings.json) : NULL;
	struct run_result r;
	runner_run(pa.jobs, pa.njobs, &pa.settings, &r);
	/* Test files go before the report: a reader that hangs up must not keep them. */
	cleanup_files();
	report_errors(&r);
	int status = report_finish(&r, "run", &pa.settings, out, json);
	run_result_free(&r);
	args_free(&pa);
	return status;
}
