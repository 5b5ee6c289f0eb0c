/*
 * The suite executor's steps (suite_exec.c), for the suite command (cmds/suite_main.c),
 * which owns the session around them: prepare the cases, resolve the targets,
 * run every case on every target, and free what was made.
 */
#ifndef IOGAUGE_SUITE_EXEC_H
#define IOGAUGE_SUITE_EXEC_H

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>
#include "base/ctx.h"
#include "base/progress.h"
#include "suite/suite.h"

struct suite_exec {
	struct suite_run sr;
	struct run_ctx *ctx;          /* the command session's */
	struct job base;
	unsigned target, pass, kase; /* where the run is, for the progress line */
	uint64_t case_ns;            /* planned time of one case */
	struct progress_line progress; /* --eta, --quiet; none when the suite draws its own */
	bool size_given;             /* the user chose the test file's size (size_opt) */
	char size_opt[32];           /* that option as written: "--size", "-S" */
	json_t *jobs;                /* every run's jobs, tagged with target, pass and case */
	struct suite gen;            /* the suite with its generated cases (make_cases) */
};

/* The job options, the cases (generated ones too), checked; the suite's start.  0, or -1 with e set. */
int suite_exec_prepare(struct suite_exec *x, struct parsed_args *pa, struct ig_err *e);
/* Resolve (or name) every target; out gets the suite's per-target lines.  want_jobs: keep every job's JSON. */
void suite_exec_targets(struct suite_exec *x, FILE *out, bool want_jobs);
/* Every case on every target: the exit status; *first, the first target refused (or NULL). */
int suite_exec_run(struct suite_exec *x, const struct ig_err **first);
/* Did any case finish on any target? */
bool suite_exec_measured(const struct suite_exec *x);
/* Every job run, tagged with target, pass and case (NULL unless want_jobs). */
json_t *suite_exec_jobs(const struct suite_exec *x);
/* The suite's end and everything the executor allocated. */
void suite_exec_end(struct suite_exec *x);

#endif
