/*
 * A saved suite result back into a suite_run: the command's suite, its cases
 * as saved, the targets, and every pass's figures recomputed from the saved
 * jobs through the executor's own suite_record, so `report` and `compare`
 * print the suite's familiar table from a file exactly as the run did.
 */
#include "base/common.h"
#include "base/result_keys.h"
#include "cmds/commands.h"
#include "options/options.h"
#include "options/args.h"
#include "suite/suite.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

static int load_cases(struct suite_saved *ss, const json_t *cases, struct ig_err *e)
{
	size_t n = json_array_size(cases), i;
	const json_t *k;
	if (!n)
		return err_set(e, EXIT_USAGE, "the saved suite has no cases");
	ss->cases = xcalloc(n, sizeof(*ss->cases));
	ss->suite.ncases = 0; /* the command's own count until a case is read: not this array's */
	json_array_foreach(cases, i, k) {
		const char *name = json_string_value(json_object_get(k, RK_NAME));
		const char *opts = json_string_value(json_object_get(k, RK_OPTIONS));
		if (!name || !opts)
			return err_set(e, EXIT_USAGE, "saved case %zu has no name or options", i);
		ss->cases[i].name = xstrdup(name);
		ss->cases[i].opts = xstrdup(opts);
		ss->suite.ncases = (unsigned)i + 1;
	}
	ss->suite.cases = ss->cases;
	return 0;
}

static void load_target(struct suite_target *t, const json_t *o)
{
	rk_strcpy(o, RK_PATH, t->shown, sizeof(t->shown));
	rk_strcpy(o, "file", t->file, sizeof(t->file));
	rk_strcpy(o, "fstype", t->info.fstype, sizeof(t->info.fstype));
	rk_strcpy(o, "device", t->info.device, sizeof(t->info.device));
	/* What the target is, as the header showed it. */
	rk_strcpy(o, "fstype", t->facts.fstype, sizeof(t->facts.fstype));
	rk_strcpy(o, "device", t->facts.device, sizeof(t->facts.device));
	rk_strcpy(o, "source", t->facts.source, sizeof(t->facts.source));
	rk_strcpy(o, "mount_options", t->facts.mntopts, sizeof(t->facts.mntopts));
	const json_t *rot = json_object_get(o, "rotational");
	t->facts.rotational = json_is_boolean(rot) ? json_is_true(rot) : -1;
	t->facts.size = (uint64_t)json_number_value(json_object_get(o, "fs_size"));
	t->facts.is_dev = json_is_true(json_object_get(o, RK_BLOCKDEV));
	t->is_dev = json_is_true(json_object_get(o, RK_BLOCKDEV));
	t->size = (uint64_t)json_number_value(json_object_get(o, "size"));
	t->shrunk = json_is_true(json_object_get(o, "shrunk"));
	t->is_file = !t->is_dev && t->file[0] && !strcmp(t->file, t->shown); /* a file the user named */
	t->fallback = json_is_true(json_object_get(o, RK_BUFFERED_FALLBACK));
	t->layout_ns = (uint64_t)json_number_value(json_object_get(o, "layout_ns"));
	t->prepare_ns = (uint64_t)json_number_value(json_object_get(o, "prepare_ns"));
	t->prepare_bytes = (uint64_t)json_number_value(json_object_get(o, "prepare_bytes"));
	const char *refused = json_string_value(json_object_get(o, "refused"));
	if (refused)
		err_set(&t->refused, EXIT_USAGE, "%s", refused);
}

/* The classic tools' options as saved (bonnie's -s, matrix's --run, ...), back into the settings. */
static int load_settings(struct suite_saved *ss, const json_t *o, struct ig_err *e)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)o, key, v) {
		const struct opt_def *d = option_find_cmd(key, strlen(key), ss->sr.cmd);
		char err[ERR_MSG_MAX - 64];
		if (!d || d->scope == SCOPE_JOB || !json_is_string(v))
			return err_set(e, EXIT_USAGE, "saved setting %s is not one of %s's", key, ss->sr.cmd->name);
		if (!json_string_length(v))
			continue; /* not given */
		if (option_apply(d, &ss->base, &ss->s, json_string_value(v), err, sizeof(err)))
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

static int load_job(struct suite_saved *ss, const json_t *o, unsigned *cur, struct ig_err *e)
{
	struct suite_run *sr = &ss->sr;
	int t = find_target(sr, json_string_value(json_object_get(o, RK_TARGET)), *cur);
	int c = find_case(ss, json_string_value(json_object_get(o, RK_CASE)));
	json_int_t pass = json_integer_value(json_object_get(o, RK_PASS));
	if (t < 0 || c < 0 || pass < 1 || pass > (json_int_t)ss->s.passes)
		return err_set(e, EXIT_USAGE, "a saved job names no known target, case or pass");
	*cur = (unsigned)t;
	struct run_result r;
	/* The executor's run of one case: the job and the counters of its device. */
	json_t *one = json_object();
	json_object_set_new(one, RK_JOBS, json_array());
	json_object_set(one, RK_DEVICES, json_object_get(o, RK_DEVICES));
	int rc = run_result_from_json(one, &r, e);
	json_decref(one);
	if (!rc) {
		r.njobs = 1; /* freed with r, also when it is read only in part */
		rc = job_result_from_json(o, &r.jobs[0], e);
	}
	if (!rc) {
		sr->targets[t].tested = true;
		suite_record(sr, (unsigned)t, (unsigned)pass - 1, (unsigned)c, &r);
	}
	run_result_free(&r);
	return rc;
}

int suite_from_json(const json_t *root, struct suite_saved *ss, struct ig_err *e)
{
	const char *name = json_string_value(json_object_get(json_object_get(root, RK_IOGAUGE), RK_COMMAND));
	const json_t *su = json_object_get(root, RK_SUITE);
	const struct command *cmd = name ? command_find(name) : NULL;
	memset(ss, 0, sizeof(*ss));
	if (!cmd || !cmd->suite || !json_is_object(su))
		return err_set(e, EXIT_USAGE, "not a saved result of a suite (%s)", name ? name : "no command");
	ss->suite = *cmd->suite;
	ss->sr.cmd = cmd;
	ss->sr.suite = &ss->suite;
	ss->sr.base = &ss->base;
	ss->sr.s = &ss->s;
	ss->sr.status = (int)json_integer_value(json_object_get(root, RK_STATUS));
	options_defaults(&ss->base, &ss->s);
	if (args_apply_defaults(cmd, &ss->base, &ss->s, e) ||
	    options_from_json(json_object_get(su, RK_OPTIONS), &ss->base, e) ||
	    load_cases(ss, json_object_get(su, RK_CASES), e))
		return -1;
	if (load_settings(ss, json_object_get(su, RK_SETTINGS), e) || suite_case_names(&ss->sr, e))
		return -1;
	json_int_t passes = json_integer_value(json_object_get(su, RK_PASSES));
	if (passes < 1 || passes > 1000)
		return err_set(e, EXIT_USAGE, "the saved suite has no valid \"passes\"");
	ss->s.passes = (unsigned)passes;
	const json_t *targets = json_object_get(su, RK_TARGETS), *o;
	size_t i;
	ss->sr.ntargets = (unsigned)json_array_size(targets);
	ss->sr.targets = xcalloc(ss->sr.ntargets ? ss->sr.ntargets : 1, sizeof(struct suite_target));
	json_array_foreach(targets, i, o) {
		load_target(&ss->sr.targets[i], o);
		size_t ncells = (size_t)ss->s.passes * ss->suite.ncases;
		ss->sr.targets[i].cells = xcalloc(ncells, sizeof(struct suite_cell));
		ss->sr.targets[i].more = xcalloc(ncells * (SUITE_MAX_JOBS - 1), sizeof(struct suite_cell));
	}
	unsigned cur = 0;
	json_array_foreach(json_object_get(root, RK_JOBS), i, o)
		if (load_job(ss, o, &cur, e))
			return -1;
	/* The suite's own object, for what its formatter shows besides the figures. */
	if (ss->suite.load && ss->suite.load(&ss->sr, json_object_get(root, cmd->name), e))
		return -1;
	return 0;
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
