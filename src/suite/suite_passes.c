/*
 * One target's run: its layout or precondition, then its passes, each case (its
 * warm-up, its jobs) through the runner and recorded; the progress line.
 */
#include "base/result_keys.h"
#include "base/common.h"
#include "options/options.h"
#include "options/args.h"
#include "options/command.h"
#include "model/verify.h"
#include "report/report.h"
#include "suite/suite_exec_int.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void progress(void *arg, const struct run_live *l)
{
	struct suite_exec *x = arg;
	const struct suite_run *sr = &x->sr;
	unsigned ncases = sr->suite->ncases, npass = sr->s->passes;
	unsigned done = (x->target * npass + x->pass) * ncases + x->kase;
	unsigned left = sr->ntargets * npass * ncases - done;
	double eta = (double)left * (double)x->case_ns / 1e9 - (double)l->elapsed_ns / 1e9;
	char moved[32];
	if (!progress_line_begin(&x->progress))
		return;
	/*
	 * The bytes measured so far tell a log (and a test waiting for a stage) that a case is
	 * measuring; a case of file operations (bonnie's creates) moves no bytes: its operations.
	 */
	if (!l->bytes && l->ios)
		snprintf(moved, sizeof(moved), "%" PRIu64 " operations", l->ios);
	else
		fmt_bytes(moved, sizeof(moved), (double)l->bytes);
	fprintf(stderr, "iogauge: %s: pass %u/%u, %s ... %s", sr->targets[x->target].shown, x->pass + 1,
		npass, sr->suite->cases[x->kase].name, moved);
	if (!x->case_ns) /* size-bound cases (bonnie, a tree read): how far this one is, not a time left */
		fprintf(stderr, " in %.0f s", (double)l->elapsed_ns / 1e9);
	else
		fprintf(stderr, ", about %.0f s left", eta > 0 ? eta : 0);
	progress_line_end(&x->progress);
}

/* --verify checks the cases that write blocks (not bonnie's rewrite, nor file operations). */
static bool verifiable(const struct job *j)
{
	return rw_writes(j->rw) && !j->rewrite_pct && !j->fileop;
}

/* A case's job on a target; a case may ask for a smaller region (--size) than the target's. */
static int make_job(struct suite_exec *x, struct suite_target *t, unsigned c, const char *opts,
		    struct job *j, struct ig_err *e)
{
	*j = x->base;
	j->size = t->size;
	if (args_apply_string(opts, OG_ALL, j, NULL, e))
		return -1;
	snprintf(j->name, sizeof(j->name), "%s", x->sr.suite->cases[c].name);
	snprintf(j->filename, sizeof(j->filename), "%s", t->file);
	if (j->size > t->size)
		j->size = t->size;
	if (x->sr.suite->job)
		x->sr.suite->job(&x->sr, t, c, j);
	if (!verifiable(j))
		j->verify = VERIFY_NONE;
	return 0;
}

/*
 * A case's jobs on a target: the test file (file ops: the target's set
 * directory), the target's size unless the case names its own (sweep's file
 * sizes), which must fit.
 */
static int make_jobs(struct suite_exec *x, struct suite_target *t, unsigned c, struct job *jobs,
		     unsigned *n, struct ig_err *e)
{
	char b[32];
	if (suite_case_jobs(&x->sr, c, jobs, n, e))
		return -1;
	for (unsigned k = 0; k < *n; k++) {
		struct job *j = &jobs[k];
		if (j->fileop && !t->set[0])
			return err_set(e, EXIT_USAGE, "%s: file operations need a directory", t->shown);
		snprintf(j->filename, sizeof(j->filename), "%s", j->fileop ? t->set : t->file);
		if (j->size == x->base.size)
			j->size = t->size;
		else if (j->size > t->size)
			return err_set(e, EXIT_USAGE, "%s: case %s needs a %s file; it does not fit", t->shown,
				       x->sr.suite->cases[c].name, fmt_bytes(b, sizeof(b), (double)j->size));
		if (x->sr.suite->job)
			x->sr.suite->job(&x->sr, t, c, j);
		if (!verifiable(j))
			j->verify = VERIFY_NONE;
	}
	return 0;
}

static void add_jobs(struct suite_exec *x, const struct run_result *r, unsigned c)
{
	json_t *o = json_object();
	ig_json_add_run(o, r, x->sr.cmd->groups, x->sr.suite->cases[c].opts);
	size_t i;
	json_t *jj;
	json_array_foreach(json_object_get(o, RK_JOBS), i, jj) {
		json_object_set_new(jj, RK_TARGET, ig_json_text(x->sr.targets[x->target].shown));
		json_object_set_new(jj, RK_CASE, json_string(x->sr.suite->cases[c].name));
		json_object_set_new(jj, RK_PASS, json_integer(x->pass + 1));
		json_object_set(jj, RK_DEVICES, json_object_get(o, RK_DEVICES));
		json_array_append(x->jobs, jj);
	}
	json_decref(o);
}

static void record(struct suite_exec *x, struct suite_target *t, unsigned c, const struct run_result *r)
{
	suite_record(&x->sr, (unsigned)(t - x->sr.targets), x->pass, c, r);
	if (x->jobs && r->njobs && r->jobs[0].threads)
		add_jobs(x, r, c);
}

static int run_jobs(struct suite_exec *x, struct job *j, unsigned n, struct run_result *r)
{
	struct run_opts o = {
		.allow_destroy = x->sr.s->allow_destroy,
		.allow_overwrite = x->sr.s->allow_overwrite,
		.progress = x->progress.on ? progress : NULL,
		.progress_arg = x,
	};
	return runner_run(x->ctx, j, n, &o, r);
}

static int run_one(struct suite_exec *x, struct job *j, struct run_result *r)
{
	return run_jobs(x, j, 1, r);
}

/* A run that ended in an error: its messages below the progress line; a refusal marks the target. */
static void run_failed(struct suite_exec *x, struct suite_target *t, const struct run_result *r, int rc)
{
	progress_line_clear(&x->progress);
	report_errors(r);
	if (rc == EXIT_USAGE)
		t->refused = r->err;
}

/*
 * A device is never laid out by the runner (it reads whatever is there), but
 * unwritten or trimmed blocks read faster than data: write the region first.
 * Shown, never counted.
 */
static int layout_device(struct suite_exec *x, struct suite_target *t)
{
	struct job j = x->base;
	struct ig_err e = { 0 };
	if (args_apply_string("--name=layout --rw=write --bs=1m --iodepth=8 --numjobs=1 "
			      "--time_based=0 --runtime=0 --ramp_time=0",
			      OG_ALL, &j, NULL, &e))
		return e.status;
	snprintf(j.filename, sizeof(j.filename), "%s", t->file);
	j.size = t->size;
	struct run_result r;
	int rc = run_one(x, &j, &r);
	t->layout_ns = r.jobs[0].total.elapsed_ns;
	if (rc)
		report_errors(&r);
	run_result_free(&r);
	return rc;
}

/* The suite's precondition of a target: once, before its passes; timed apart, never recorded. */
static int prepare_target(struct suite_exec *x, struct suite_target *t)
{
	struct job j = x->base;
	struct ig_err e = { 0 };
	j.size = t->size;
	if (args_apply_string(x->sr.suite->prepare, OG_ALL, &j, NULL, &e)) {
		msg_err("%s", e.msg);
		return e.status;
	}
	snprintf(j.name, sizeof(j.name), "precondition");
	snprintf(j.filename, sizeof(j.filename), "%s", t->file);
	struct run_result r;
	int rc = run_one(x, &j, &r);
	if (r.jobs[0].threads) {
		t->prepare_ns = r.jobs[0].total.elapsed_ns;
		t->prepare_bytes = r.jobs[0].total.op[IO_WRITE].bytes;
	}
	if (rc)
		run_failed(x, t, &r, rc);
	run_result_free(&r);
	return rc;
}

/* A case's warm-up: run, never recorded. */
static int warm_up(struct suite_exec *x, struct suite_target *t, unsigned c)
{
	struct job j;
	struct run_result r;
	struct ig_err e = { 0 };
	if (make_job(x, t, c, x->sr.suite->warmups[c], &j, &e)) {
		msg_err("%s", e.msg);
		return e.status;
	}
	j.plan.hooks = NULL;
	int rc = run_one(x, &j, &r);
	if (rc) {
		progress_line_clear(&x->progress);
		report_errors(&r);
	}
	run_result_free(&r);
	return rc;
}

static int run_target_cases(struct suite_exec *x, struct suite_target *t);

/*
 * A block device's page cache goes when its last opener closes it: held open
 * while its cases run, what one case (a warm-up) left cached is still there
 * for the next, as it is for a file.
 */
int suite_run_target(struct suite_exec *x, struct suite_target *t)
{
	int hold = t->is_dev ? open(t->file, O_RDONLY | O_CLOEXEC) : -1;
	int rc = run_target_cases(x, t);
	if (hold >= 0)
		close(hold);
	return rc;
}

static int run_target_cases(struct suite_exec *x, struct suite_target *t)
{
	t->tested = true;
	/* Before reads, not before a suite that only writes; a precondition writes the region anyway. */
	if (t->is_dev && suite_writes(x) && suite_reads(x) && !x->sr.suite->prepare) {
		int rc = layout_device(x, t);
		if (rc)
			return rc;
	}
	if (x->sr.suite->prepare) {
		int rc = prepare_target(x, t);
		if (rc)
			return rc;
	}
	for (x->pass = 0; x->pass < x->sr.s->passes; x->pass++) {
		x->sr.pass = x->pass;
		for (x->kase = 0; x->kase < x->sr.suite->ncases; x->kase++) {
			struct job j[SUITE_MAX_JOBS];
			unsigned n;
			struct run_result r;
			struct ig_err e = { 0 };
			int rc = x->sr.suite->warmups && x->sr.suite->warmups[x->kase] ? warm_up(x, t, x->kase) : 0;
			if (rc)
				return rc;
			if (make_jobs(x, t, x->kase, j, &n, &e)) {
				msg_err("%s", e.msg);
				t->refused = e;
				return e.status;
			}
			rc = run_jobs(x, j, n, &r);
			record(x, t, x->kase, &r);
			if (x->sr.suite->case_done)
				x->sr.suite->case_done(&x->sr, (unsigned)(t - x->sr.targets), x->kase);
			if (rc) {
				run_failed(x, t, &r, rc);
				run_result_free(&r);
				return rc;
			}
			run_result_free(&r);
		}
		if (x->sr.suite->pass_done && x->sr.suite->pass_done(&x->sr, (unsigned)(t - x->sr.targets), x->pass))
			break; /* the suite has what it needs (steady state reached) */
	}
	progress_line_clear(&x->progress);
	return 0;
}
