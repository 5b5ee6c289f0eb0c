/*
 * What a job's layout writes besides data: a verifying reader's blocks with
 * their headers, made by the verification state (verify_layout_*), the same
 * for each of its files; and the check that a verifying reader meets only
 * such blocks where an earlier job of the run laid the file out.
 */
#ifndef IOGAUGE_LAYOUT_PLAN_H
#define IOGAUGE_LAYOUT_PLAN_H

#include "run/run_result.h"
#include "run/target.h"

struct ig_err;
struct job;

struct layout_plan {
	struct verify_ctx *v;
	struct target_stamp stamp;
	bool on;      /* the layout has a stamp (maybe refused) */
	bool checked; /* the job's reads check the layout's blocks (verify_layout_checked) */
	char why[512], what[32];
};

/* A stamp's own argument: the state and which of the job's files. */
struct stamp_arg {
	struct verify_ctx *v;
	unsigned file;
};

/* The job's plan: lp->on false when its layout is data alone; -1 with e set on failure. */
int layout_plan_init(struct layout_plan *lp, const struct job *j, struct ig_err *e);
void layout_plan_free(struct layout_plan *lp);
/*
 * A verifying reader's region [start, end) of path, laid out by an earlier
 * job of r for other blocks or without headers: refused (exit 2, e set).
 */
int layout_check_earlier(const struct run_result *r, const struct job_result *jr, const char *path,
			 uint64_t start, uint64_t end, const struct target_part *parts, unsigned nparts,
			 const struct layout_plan *lp, struct ig_err *e);

#endif
