/*
 * A saved suite result back into a suite_run: the command's suite, its cases
 * as saved, the targets, and every pass's figures recomputed from the saved
 * jobs through the executor's own suite_record, so `report` and `compare`
 * print the suite's familiar table from a file exactly as the run did.  The
 * file is read by report/result_read.h; this only builds the suite_run.
 */
#include "base/common.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "options/args.h"
#include "cmds/suite_read.h"
#include "report/report.h"
#include "report/result_read.h"

#include <stdlib.h>
#include <string.h>

/*
 * A suite with a fixed table (quick, mix, cache, latency) prints its rows by
 * their place in it: the saved cases must be that table, name by name.
 * Generated cases (a sweep's) are found by name or counted by the formatter.
 */
static int check_table(const struct command *cmd, const struct result_suite *rs, struct ig_err *e)
{
	const struct suite *s = cmd->suite;
	if (s->make_cases || s->plan)
		return 0;
	if (rs->ncases != s->ncases)
		return err_set(e, EXIT_USAGE, "the saved suite's cases are not %s's own (%u saved, %u expected)",
			       cmd->name, rs->ncases, s->ncases);
	for (unsigned i = 0; i < rs->ncases; i++)
		if (strcmp(rs->cases[i].name, s->cases[i].name))
			return err_set(e, EXIT_USAGE, "the saved suite's cases are not %s's own (case %u is \"%.64s\", not \"%s\")",
				       cmd->name, i + 1, rs->cases[i].name, s->cases[i].name);
	return 0;
}

static int load_cases(struct suite_saved *ss, const struct result_suite *rs, struct ig_err *e)
{
	if (!rs->ncases)
		return err_set(e, EXIT_USAGE, "the saved suite has no cases");
	if (check_table(ss->sr.cmd, rs, e))
		return -1;
	ss->cases = xcalloc(rs->ncases, sizeof(*ss->cases));
	for (unsigned i = 0; i < rs->ncases; i++) {
		ss->cases[i].name = xstrdup(rs->cases[i].name);
		ss->cases[i].opts = xstrdup(rs->cases[i].options);
	}
	ss->suite.ncases = rs->ncases;
	ss->suite.cases = ss->cases;
	return 0;
}

static void load_target(struct suite_target *t, const struct result_target *o)
{
	snprintf(t->shown, sizeof(t->shown), "%s", o->path);
	snprintf(t->file, sizeof(t->file), "%s", o->file);
	snprintf(t->info.fstype, sizeof(t->info.fstype), "%s", o->fstype);
	snprintf(t->info.device, sizeof(t->info.device), "%s", o->device);
	/* What the target is, as the header showed it. */
	snprintf(t->facts.fstype, sizeof(t->facts.fstype), "%s", o->fstype);
	snprintf(t->facts.device, sizeof(t->facts.device), "%s", o->device);
	snprintf(t->facts.source, sizeof(t->facts.source), "%s", o->source);
	snprintf(t->facts.mntopts, sizeof(t->facts.mntopts), "%s", o->mount_options);
	t->facts.rotational = o->rotational;
	t->facts.size = o->fs_size;
	t->facts.is_dev = o->blockdev;
	t->is_dev = o->blockdev;
	t->size = o->size;
	t->shrunk = o->shrunk;
	t->is_file = !t->is_dev && t->file[0] && !strcmp(t->file, t->shown); /* a file the user named */
	t->fallback = o->buffered_fallback;
	t->layout_ns = o->layout_ns;
	t->prepare_ns = o->prepare_ns;
	t->prepare_bytes = o->prepare_bytes;
	if (o->refused)
		err_set(&t->refused, EXIT_USAGE, "%s", o->refused);
}

/* The classic tools' options as saved (bonnie's -s, matrix's --run, ...), back into the settings. */
static int load_settings(struct suite_saved *ss, const struct result_suite *rs, struct ig_err *e)
{
	for (unsigned i = 0; i < rs->nsettings; i++) {
		const char *key = rs->settings[i].key, *v = rs->settings[i].value;
		const struct opt_def *d = option_find_cmd(key, strlen(key), ss->sr.cmd);
		char err[ERR_MSG_MAX - 64];
		if (!d || d->scope == SCOPE_JOB || !v)
			return err_set(e, EXIT_USAGE, "saved setting %s is not one of %s's", key, ss->sr.cmd->name);
		if (!*v)
			continue; /* not given */
		if (option_apply(d, &ss->base, &ss->s, v, err, sizeof(err)))
			return err_set(e, EXIT_USAGE, "saved setting: %s", err);
	}
	return 0;
}

static int find_case(const struct suite_saved *ss, const char *name)
{
	for (unsigned c = 0; name && c < ss->suite.ncases; c++)
		if (!strcmp(ss->cases[c].name, name))
			return (int)c;
	return -1;
}

/*
 * Jobs are saved target by target, so a path named twice is told apart by
 * order: the first target at or after the previous job's with this path.
 */
static int find_target(const struct suite_run *sr, const char *path, unsigned from)
{
	for (unsigned t = from; path && t < sr->ntargets; t++)
		if (!strcmp(sr->targets[t].shown, path))
			return (int)t;
	for (unsigned t = 0; path && t < from && t < sr->ntargets; t++)
		if (!strcmp(sr->targets[t].shown, path))
			return (int)t;
	return -1;
}

static int load_job(struct suite_saved *ss, const struct result_job *j, unsigned *cur, struct ig_err *e)
{
	struct suite_run *sr = &ss->sr;
	int t = find_target(sr, j->target, *cur);
	int c = find_case(ss, j->kase);
	if (t < 0 || c < 0 || j->pass_tag < 1 || j->pass_tag > (long long)ss->s.passes)
		return err_set(e, EXIT_USAGE, "a saved job names no known target, case or pass");
	*cur = (unsigned)t;
	struct run_result r;
	/* The executor's run of one case: the job and the counters of its device. */
	int rc = run_result_of_job(j, &r, e);
	if (!rc) {
		sr->targets[t].tested = true;
		suite_record(sr, (unsigned)t, (unsigned)j->pass_tag - 1, (unsigned)c, &r);
	}
	run_result_free(&r);
	return rc;
}

static int load_suite(const json_t *root, const struct command *cmd, struct suite_saved *ss,
		      const struct result_suite *rs, struct ig_err *e)
{
	ss->suite = *cmd->suite;
	ss->sr.cmd = cmd;
	ss->sr.suite = &ss->suite;
	ss->sr.base = &ss->base;
	ss->sr.s = &ss->s;
	options_defaults(&ss->base, &ss->s);
	ss->suite.ncases = 0; /* the command's own count until the cases are read: not the saved array's */
	if (args_apply_defaults(cmd, &ss->base, &ss->s, e) || options_from_json(rs->options, &ss->base, e) ||
	    load_cases(ss, rs, e))
		return -1;
	if (load_settings(ss, rs, e) || suite_case_names(&ss->sr, e))
		return -1;
	if (rs->passes < 1 || rs->passes > 1000)
		return err_set(e, EXIT_USAGE, "the saved suite has no valid \"passes\"");
	ss->s.passes = (unsigned)rs->passes;
	ss->sr.ntargets = rs->ntargets;
	ss->sr.targets = xcalloc(ss->sr.ntargets ? ss->sr.ntargets : 1, sizeof(struct suite_target));
	for (unsigned i = 0; i < rs->ntargets; i++) {
		load_target(&ss->sr.targets[i], &rs->targets[i]);
		size_t ncells = (size_t)ss->s.passes * ss->suite.ncases;
		ss->sr.targets[i].cells = xcalloc(ncells, sizeof(struct suite_cell));
		ss->sr.targets[i].more = xcalloc(ncells * (SUITE_MAX_JOBS - 1), sizeof(struct suite_cell));
	}
	struct result_job *jobs;
	unsigned nj = result_jobs(root, &jobs), cur = 0;
	int rc = 0;
	for (unsigned i = 0; !rc && i < nj; i++)
		rc = load_job(ss, &jobs[i], &cur, e);
	result_jobs_free(jobs, nj);
	/* The suite's own object, for what its formatter shows besides the figures. */
	if (!rc && ss->suite.load && ss->suite.load(&ss->sr, result_own(root, cmd->name), e))
		rc = -1;
	return rc;
}

int suite_saved_check(const char *path, const json_t *root, struct ig_err *e)
{
	struct result_head h;
	struct result_suite rs;
	result_head(root, &h);
	const struct command *cmd = *h.command ? command_find(h.command) : NULL;
	if (!cmd || !cmd->suite || !h.suite)
		return 0;
	/* Only the table is refused here: anything else a suite's summary cannot rebuild is said in it. */
	struct ig_err ce = { 0 };
	int rc = result_suite(root, &rs, &ce) ? 0 : check_table(cmd, &rs, &ce);
	result_suite_free(&rs);
	return rc ? err_set(e, ce.status, "%s: %s", path, ce.msg) : 0;
}

int suite_from_json(const json_t *root, struct suite_saved *ss, struct ig_err *e)
{
	struct result_head h;
	struct result_suite rs;
	result_head(root, &h);
	const struct command *cmd = *h.command ? command_find(h.command) : NULL;
	memset(ss, 0, sizeof(*ss));
	if (!cmd || !cmd->suite || !h.suite)
		return err_set(e, EXIT_USAGE, "not a saved result of a suite (%s)", *h.command ? h.command : "no command");
	ss->sr.status = (int)h.status;
	int rc = result_suite(root, &rs, e);
	if (!rc)
		rc = load_suite(root, cmd, ss, &rs, e);
	result_suite_free(&rs);
	return rc;
}

void suite_saved_free(struct suite_saved *ss)
{
	if (ss->suite.load && ss->suite.end)
		ss->suite.end(&ss->sr);
	for (unsigned i = 0; i < ss->sr.ntargets; i++) {
		free(ss->sr.targets[i].cells);
		free(ss->sr.targets[i].more);
	}
	free(ss->sr.case_jobs);
	free(ss->sr.job_names);
	free(ss->sr.targets);
	suite_cases_free(ss->cases, ss->suite.ncases);
	memset(ss, 0, sizeof(*ss));
}
