/*
 * `iogauge fio` (and the binary called as `fio`): fio 3.33's own command line.
 * fio's program options (--output, --output-format, --section, --showcmd,
 * --parse-only, --readonly, --eta ...) are read in fio_cli.c; every other
 * word goes through the one option table and the job-file reader as `iogauge
 * run` reads them, except where fio reads differently (job files win over the
 * command line, ${VAR} only, KiB as 1000: docs/fio.md).  This file reads the
 * jobs as fio does and runs them; the run and the reports are run's own
 * (cmds/run.c), fio's progress line and bandwidth logs fio_out.c's.
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "cmds/fio_int.h"
#include "options/options.h"
#include "base/units.h"
#include "model/job_names.h"
#include "options/args.h"
#include "options/jobfile.h"
#include "run/runner.h"
#include "cmds/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- --showcmd: a job file as fio's command line */

struct showcmd {
	FILE *f;
	const struct fio_cli *cli;
	bool started, in_skipped;
};

static bool section_wanted(const struct fio_cli *cli, const char *name)
{
	if (!cli->nsections || !strcmp(name, "global"))
		return true;
	for (unsigned i = 0; i < cli->nsections; i++)
		if (!strcmp(cli->sections[i], name))
			return true;
	return false;
}

static void showcmd_line(void *arg, const char *section, const char *key, const char *val)
{
	struct showcmd *s = arg;
	if (section) {
		s->in_skipped = !section_wanted(s->cli, section);
		if (s->in_skipped)
			return;
		if (!s->started)
			fprintf(s->f, "fio ");
		s->started = true;
		if (strcmp(section, "global"))
			fprintf(s->f, "--name=%s ", section);
		return;
	}
	if (s->in_skipped)
		return;
	if (val)
		fprintf(s->f, "--%s=%s ", key, val);
	else
		fprintf(s->f, "--%s ", key);
}

/* ---- jobs */

static void drop_job(struct parsed_args *pa, unsigned i)
{
	kv_free(&pa->echo[i]);
	memmove(&pa->jobs[i], &pa->jobs[i + 1], (pa->njobs - i - 1) * sizeof(*pa->jobs));
	memmove(&pa->echo[i], &pa->echo[i + 1], (pa->njobs - i - 1) * sizeof(*pa->echo));
	pa->njobs--;
}

/* --section: only the named jobs of [first, njobs) stay. */
static void keep_sections(struct parsed_args *pa, const struct fio_cli *cli, unsigned first)
{
	for (unsigned i = first; i < pa->njobs;)
		if (section_wanted(cli, pa->jobs[i].name))
			i++;
		else
			drop_job(pa, i);
}

/*
 * The jobs as fio 3.33 reads them: the command line's jobs first; each job
 * file after the first starts from the defaults again (fio forgets the
 * command line's and the earlier file's globals) and its first job waits for
 * the jobs before it (fio separates job files by a stonewall).
 */
static int read_jobs(const struct command *cmd, struct fio_cli *cli, struct parsed_args *pa,
		     struct showcmd *sc, struct ig_err *e)
{
	if (args_parse(cli->nrest, cli->rest, cmd, pa, e))
		return -1;
	keep_sections(pa, cli, 0);
	if (cli->showcmd) {
		pa->on_line = showcmd_line;
		pa->on_line_arg = sc;
	}
	int rc = 0;
	for (unsigned i = 0; i < pa->nwords && !rc; i++) {
		if (i) {
			struct settings scratch;
			options_defaults(&pa->global, &scratch);
			if (args_apply_defaults(cmd, &pa->global, &scratch, e))
				return -1;
		}
		unsigned first = pa->njobs;
		sc->started = sc->in_skipped = false;
		rc = jobfile_parse(pa->words[i], cmd, pa, e);
		if (cli->showcmd)
			fprintf(sc->f, "\n");
		keep_sections(pa, cli, first);
		if (i && pa->njobs > first)
			pa->jobs[first].stonewall = true;
	}
	/* Unsupported fio options are named all at once, with the other errors. */
	if (args_finish(pa, e) || rc)
		return -1;
	if (cli->warnings_fatal)
		for (unsigned i = 0; i < pa->ndiags; i++)
			if (pa->diags[i].kind == DIAG_WARN) {
				pa->diags[i].kind = DIAG_ERR;
				args_take_error(pa, e);
			}
	return args_errors(pa) ? -1 : 0;
}

/* --readonly: fio refuses a job that writes before it starts anything. */
static int check_readonly(const struct parsed_args *pa)
{
	int rc = 0;
	for (unsigned i = 0; i < pa->njobs; i++) {
		const struct job *j = &pa->jobs[i];
		if (job_writes(j) || j->fileop) {
			msg_err("job %s: --readonly: the job writes (rw=%s%s)", j->name, rw_names[j->rw],
				j->fileop ? ", --fileop" : "");
			rc = EXIT_USAGE;
		}
	}
	return rc;
}

/* --parse-only: what the run would refuse before its first request, without one. */
static int check_jobs(const struct parsed_args *pa)
{
	int rc = 0;
	for (unsigned i = 0; i < pa->njobs; i++) {
		struct job j = pa->jobs[i];
		struct ig_err e = { 0 };
		if (job_normalise(&j, &e) || job_validate(&j, &e)) {
			msg_err("%s", e.msg);
			rc = EXIT_USAGE;
		}
	}
	return rc;
}

/* ---- the command */

/* The settings fio's program options give, over iogauge's own. */
static int apply_cli(const struct fio_cli *cli, struct parsed_args *pa)
{
	if (cli->formats) {
		pa->settings.output_formats = cli->formats;
		pa->settings.output_format = __builtin_ctz(cli->formats);
	}
	if (cli->output && snprintf(pa->settings.output, sizeof(pa->settings.output), "%s", cli->output) >=
				   (int)sizeof(pa->settings.output))
		return fio_usage_err("--output: the path is too long");
	/* fio's unlink=0 keeps the files; they go when every job asks unlink=1. */
	bool unlink_all = pa->njobs > 0;
	for (unsigned i = 0; i < pa->njobs; i++)
		unlink_all &= pa->jobs[i].unlink;
	if (unlink_all)
		pa->settings.keep = false;
	return 0;
}

static int cmd_fio_main(const struct command *cmd, int argc, char **argv)
{
	struct fio_cli cli = { .eta = ETA_AUTO };
	struct parsed_args pa;
	struct ig_err e = { 0 };
	int exit_now, status;
	parse_size_fio_units(true);
	status = fio_parse_cli(cmd, argc, argv, &cli, &exit_now);
	if (status || exit_now >= 0) {
		fio_cli_free(&cli);
		return status ? status : exit_now;
	}
	struct showcmd sc = { .f = stdout, .cli = &cli };
	if (cli.showcmd && cli.output && !(sc.f = fopen(cli.output, "w"))) {
		status = fio_usage_err("--output: cannot open %s: %s", cli.output, strerror(errno));
		goto out_cli;
	}
	bool bad = read_jobs(cmd, &cli, &pa, &sc, &e) != 0;
	if (sc.f != stdout)
		fclose(sc.f);
	args_print_diags(&pa);
	if (bad) {
		if (!pa.err_listed)
			msg_err("%s", e.msg);
		status = e.status ? e.status : EXIT_USAGE;
		goto out;
	}
	if (pa.help) {
		fio_cli_help();
		status = 0;
		goto out;
	}
	status = cli.readonly ? check_readonly(&pa) : 0;
	if (!status && cli.parse_only)
		status = check_jobs(&pa);
	if (status || cli.parse_only || cli.showcmd)
		goto out;
	if (!pa.njobs) {
		status = fio_usage_err("no job(s) defined: give a job file or --name=NAME (see %s --help)", fio_prog);
		goto out;
	}
	if ((status = apply_cli(&cli, &pa)))
		goto out;
	/* fio's own block headers, so fio and iogauge fio verify each other's data (verify_fio.c). */
	for (unsigned i = 0; i < pa.njobs; i++)
		pa.jobs[i].plan.fio_verify = true;
	struct fio_eta eta = { .cli = &cli };
	bool draw = cli.eta == ETA_ALWAYS || (cli.eta == ETA_AUTO && isatty(STDOUT_FILENO));
	struct run_present p = {
		.fio = true,
		.readonly = cli.readonly,
		.progress = draw ? fio_eta_draw : NULL,
		.progress_arg = &eta,
		.progress_end = fio_eta_end,
		.after = cli.bw_log ? fio_agg_logs : NULL,
	};
	/* No progress line of iogauge's own: fio draws its line on stdout, or none. */
	if (!draw)
		pa.settings.quiet = true;
	status = run_jobs(cmd, &pa, &p);
out:
	args_free(&pa);
out_cli:
	fio_cli_free(&cli);
	return status;
}

const struct command cmd_fio = {
	.name = "fio",
	.usage = "iogauge fio [OPTIONS] [JOBFILE...]",
	.summary = "fio's own command line: fio's job files, options and output formats, run by iogauge",
	.description =
		"The command line of fio 3.33, for the scripts and job files fio users have: "
		"--output-format=json is fio's JSON, --output, --minimal, --section, --parse-only, "
		"--showcmd, --readonly, --eta, --bandwidth-log and --version (fio-3.33) as fio reads them. "
		"Job files win over the command line's options, as in fio; the files iogauge creates are "
		"kept, as fio keeps them (unlink=1 in every job removes them). The binary called as `fio` "
		"(make install-fio-link) is this command. Every fio option iogauge lacks is named, each "
		"on its line, and nothing runs (status 2).",
	.groups = OG_ALL & ~(OG_SUITE | OG_PROGRESS),
	.defaults = "--keep",
	.jobs = true,
	.fio_cli = true,
	.main = cmd_fio_main,
};

/* Called as `fio` (a link to iogauge): this command, with fio's name in messages. */
int fio_main_as_fio(int argc, char **argv)
{
	fio_prog = "fio";
	return command_run(&cmd_fio, argc - 1, argv + 1);
}
