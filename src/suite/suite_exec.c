/* The suite executor's steps, in the order the suite command calls them (cmds/suite_main.c). */
#include "base/cluster.h"
#include "base/common.h"
#include "base/ctx.h"
#include "options/command.h"
#include "options/args.h"
#include "suite/suite.h"
#include "suite/suite_exec_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The option that sets the test file's size: the first of the suite's that was given, else the first. */
static void size_option(struct suite_exec *x, const struct parsed_args *pa)
{
	const char *list = x->sr.cmd->suite->size_opts ? x->sr.cmd->suite->size_opts : "size";
	char *copy = xstrdup(list), *save = NULL, *first = NULL;
	const char *typed = NULL;
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		first = first ? first : t;
		if ((typed = args_typed(pa, t))) {
			first = t;
			x->size_given = true;
			break;
		}
	}
	if (typed) /* as the user spelled it: latency's -S, Orion's -size_small */
		snprintf(x->size_opt, sizeof(x->size_opt), "%s", typed);
	else
		snprintf(x->size_opt, sizeof(x->size_opt), "%s%s", first[1] ? "--" : "-", first);
	free(copy);
}

/* The cases must fit the size and the clock the user chose: said before anything runs. */
static int check_cases(struct suite_exec *x, struct ig_err *e)
{
	uint64_t max_bs = 0;
	char b[32];
	if (suite_case_names(&x->sr, e))
		return -1;
	for (unsigned c = 0; c < x->sr.suite->ncases; c++) {
		struct job j[SUITE_MAX_JOBS];
		unsigned n;
		if (suite_case_jobs(&x->sr, c, j, &n, e))
			return -1;
		for (unsigned k = 0; k < n; k++) {
			/* A case with a size of its own is checked against it when it runs. */
			if (!j[k].fileop && j[k].size == x->base.size)
				max_bs = j[k].bs > max_bs ? j[k].bs : max_bs;
			if (j[k].time_based && !j[k].runtime_ns)
				return err_set(e, EXIT_USAGE, "--runtime: %s's tests are timed; give a time above 0",
					       x->sr.cmd->name);
		}
	}
	if (x->base.size < max_bs)
		return err_set(e, EXIT_USAGE, "--size: %s needs at least %s (its largest request)",
			       x->sr.cmd->name, fmt_bytes(b, sizeof(b), (double)max_bs));
	return 0;
}

/* A sweep's cases, made from the options the user gave. */
static int generate_cases(struct suite_exec *x, struct ig_err *e)
{
	const struct suite *s = x->sr.cmd->suite;
	struct suite_case *cases = NULL;
	unsigned n = 0;
	if (!s->make_cases && !s->plan)
		return 0;
	if (s->make_cases ? s->make_cases(&x->base, &cases, &n, e) : s->plan(&x->sr, &x->base, &cases, &n, e)) {
		suite_cases_free(cases, n);
		return -1;
	}
	x->gen = *s;
	x->gen.cases = cases;
	x->gen.ncases = n;
	x->sr.suite = &x->gen;
	return 0;
}

static void free_generated(struct suite_exec *x)
{
	if (x->sr.suite == &x->gen)
		suite_cases_free((struct suite_case *)x->gen.cases, x->gen.ncases);
	free(x->sr.case_jobs);
	free(x->sr.job_names);
}

int suite_exec_prepare(struct suite_exec *x, struct parsed_args *pa, struct ig_err *e)
{
	const struct suite *s = x->sr.cmd->suite;
	x->base = pa->global;
	/* A suite sizes its test file or region itself (suite_target.c): fio's N% is run's and fio's. */
	if (x->base.size_pct)
		return err_set(e, EXIT_USAGE, "--size=%u%%: a suite takes its size in bytes (a percentage is for run and fio)",
			       x->base.size_pct);
	x->sr.base = &x->base;
	x->sr.s = &pa->settings;
	x->sr.args = pa;
	x->sr.ntargets = pa->nwords ? pa->nwords : 1;
	x->sr.words = pa->words;
	x->sr.nwords = pa->nwords;
	x->sr.ctx = x->ctx;
	size_option(x, pa);
	if ((s->start && s->start(&x->sr, &x->base, e)) || generate_cases(x, e) || check_cases(x, e) ||
	    (s->write_files && s->write_files(&x->sr, true, e)))
		return -1;
	return 0;
}

void suite_exec_targets(struct suite_exec *x, FILE *out, bool want_jobs)
{
	const struct suite *s = x->sr.cmd->suite;
	x->sr.out = out;
	x->case_ns = x->base.runtime_ns + x->base.ramp_ns;
	progress_line_init(&x->progress, x->sr.s->eta, x->sr.s->quiet || s->no_progress);
	if (want_jobs)
		x->jobs = json_array();
	x->sr.targets = xcalloc(x->sr.ntargets, sizeof(struct suite_target));
	for (unsigned i = 0; i < x->sr.ntargets; i++) {
		struct suite_target *t = &x->sr.targets[i];
		if (s->setup) {
			snprintf(t->shown, sizeof(t->shown), "%s", s->target_name(&x->sr, i));
		} else {
			suite_resolve_target(x, t, x->sr.nwords ? x->sr.words[i] : ".");
			cluster_agree(x->ctx, &t->refused); /* a target one rank refuses, every rank skips */
		}
		size_t ncells = (size_t)x->sr.s->passes * x->sr.suite->ncases;
		t->cells = xcalloc(ncells ? ncells : 1, sizeof(struct suite_cell));
		t->more = xcalloc(ncells ? ncells * (SUITE_MAX_JOBS - 1) : 1, sizeof(struct suite_cell));
	}
}

/* A target's warnings once it was measured: a test file smaller than asked. */
static void shrunk_warning(const struct suite_exec *x, const struct suite_target *t)
{
	char b[32], c[32];
	if (t->shrunk && !t->is_dev && !t->is_file)
		msg_warn("%s: the test file was shrunk to %s to keep %s of the file system free (%s sets its size)",
			 t->shown, fmt_bytes(b, sizeof(b), (double)t->size),
			 fmt_bytes(c, sizeof(c), (double)t->floor), x->size_opt);
	else if (t->shrunk && t->is_file) /* the user's file: its size, not the free space */
		msg_warn("%s: the whole file (%s) was tested: it is smaller than the test's size", t->shown,
			 fmt_bytes(b, sizeof(b), (double)t->size));
}

int suite_exec_run(struct suite_exec *x, const struct ig_err **first)
{
	const struct suite *s = x->sr.cmd->suite;
	int status = 0;
	*first = NULL;
	for (x->target = 0; x->target < x->sr.ntargets && !x->ctx->stop; x->target++) {
		struct suite_target *t = &x->sr.targets[x->target];
		bool made = s->setup && !suite_made_target(x, t);
		int rc = t->refused.status ? t->refused.status : x->ctx->stop ? 0 : suite_run_target(x, t);
		if (t->refused.status) {
			if (rc == t->refused.status && !t->tested)
				msg_err("%s", t->refused.msg);
			*first = *first ? *first : &t->refused;
		}
		/* The test file is needed only while its target is tested. */
		ctx_remove_files(x->ctx);
		if (made)
			s->teardown(&x->sr, x->target);
		if (t->tested && s->target_done)
			s->target_done(x->sr.out, &x->sr, x->target);
		/* Only about a target measured: a refused one is not "tested" in any size. */
		if (t->tested && !t->refused.status)
			shrunk_warning(x, t);
		if (rc && rc != EXIT_USAGE) {
			status = rc; /* an I/O error or a signal ends the suite */
			break;
		}
		if (rc && !status)
			status = rc;
	}
	if (x->ctx->stop && status < 128)
		status = 128 + (int)x->ctx->stop;
	if (x->sr.signal_ends && x->ctx->stop == SIGINT && status == 128 + SIGINT)
		status = 0;
	return status;
}

bool suite_exec_measured(const struct suite_exec *x)
{
	const struct suite_run *sr = &x->sr;
	for (unsigned t = 0; t < sr->ntargets; t++)
		for (size_t c = 0; c < (size_t)sr->s->passes * sr->suite->ncases; c++)
			if (sr->targets[t].cells[c].done)
				return true;
	return false;
}

json_t *suite_exec_jobs(const struct suite_exec *x)
{
	return x->jobs;
}

void suite_exec_end(struct suite_exec *x)
{
	if (x->sr.cmd->suite->end)
		x->sr.cmd->suite->end(&x->sr);
	json_decref(x->jobs);
	x->jobs = NULL;
	for (unsigned i = 0; x->sr.targets && i < x->sr.ntargets; i++) {
		free(x->sr.targets[i].cells);
		free(x->sr.targets[i].more);
	}
	free(x->sr.targets);
	x->sr.targets = NULL;
	free_generated(x);
}
