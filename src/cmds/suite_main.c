/*
 * Every suite's command (quick, mix, matrix, bonnie, fs, tree, ...): its
 * arguments, the session around the executor (suite_exec.h), the suite's
 * table printed, its files and JSON written.  The suites themselves are
 * tables of cases and a formatter (src/suites/).
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "options/args.h"
#include "cmds/help.h"
#include "base/result_keys.h"
#include "suite/suite.h"
#include "suite/suite_exec.h"
#include "cmds/session.h"

#include <stdio.h>
#include <stdlib.h>

/* The suite's table, its result files and JSON: the command's exit status. */
static int finish(struct suite_exec *x, struct session *ss, int status, const struct ig_err *first)
{
	struct suite_run *sr = &x->sr;
	bool interrupted = ss->ctx.stop != 0;
	sr->status = status;
	bool measured = suite_exec_measured(x);
	/* Refused before anything was measured: stderr says it, once. */
	if (sr->s->output_format == OUT_NORMAL && (measured || status != EXIT_USAGE)) {
		sr->suite->print(ss->out.out, sr);
		if (status && status != EXIT_USAGE)
			fprintf(ss->out.out, "%s: the figures above cover what was measured until then; '-' was not measured.\n",
				interrupted ? "Interrupted" : "Stopped by an I/O error");
	}
	struct ig_err fe = { 0 };
	/* Result files (matrix's CSVs) hold measurements: none made, none written (nor truncated). */
	if (sr->suite->write_files && measured && sr->suite->write_files(sr, false, &fe)) {
		msg_err("%s", fe.msg);
		if (!status)
			status = fe.status;
	}
	json_t *root = NULL;
	if (suite_exec_jobs(x)) {
		root = ig_json_root(sr->cmd->name, status, interrupted, first);
		json_object_set_new(root, RK_SUITE, suite_json(sr));
		json_object_set(root, RK_JOBS, suite_exec_jobs(x));
		if (sr->suite->json)
			json_object_set_new(root, sr->cmd->name, sr->suite->json(sr));
	}
	suite_exec_end(x);
	return session_end(ss, root, status);
}

static int parse(const struct command *cmd, int argc, char **argv, struct parsed_args *pa, struct ig_err *e)
{
	if (args_parse(argc, argv, cmd, pa, e))
		return -1;
	if ((cmd->suite->flags & SUITE_ONE_TARGET) && pa->nwords > 1 && !pa->help)
		return err_set(e, EXIT_USAGE, "%s takes one PATH (%u given)", cmd->name, pa->nwords);
	return command_check_format(cmd, &pa->settings, e);
}

int suite_main(const struct command *cmd, int argc, char **argv)
{
	struct suite_exec *x = xcalloc(1, sizeof(*x));
	struct session ss;
	struct parsed_args pa;
	struct ig_err e = { 0 };
	int status;

	int bad = parse(cmd, argc, argv, &pa, &e);
	session_init(&ss, cmd, &pa.settings);
	x->sr.cmd = cmd;
	x->sr.suite = cmd->suite;
	x->ctx = &ss.ctx;
	if (bad) {
		status = session_refuse(&ss, &e);
	} else if (pa.help) {
		options_help(stdout, cmd);
		status = 0;
	} else if (suite_exec_prepare(x, &pa, &e) || session_begin(&ss, pa.settings.keep, &e)) {
		suite_exec_end(x);
		status = session_refuse(&ss, &e);
	} else {
		suite_exec_targets(x, ss.out.out, session_wants_root(&ss));
		const struct ig_err *first;
		status = suite_exec_run(x, &first);
		status = finish(x, &ss, status, first);
	}
	args_free(&pa);
	free(x);
	return status;
}
