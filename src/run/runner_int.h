/* The runner's own helpers, shared by its files (runner.c, runner_prepare.c); not for others. */
#ifndef IOGAUGE_RUNNER_INT_H
#define IOGAUGE_RUNNER_INT_H

#include "base/ctx.h"
#include "run/runner.h"

/* A note for the report (O_DIRECT fallback, an engine's option ignored...). */
void runner_note(struct run_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note on something fio does silently too (a synchronous engine's iodepth): not under iogauge fio. */
void runner_info(struct run_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note the reports carry (JSON notes, text header) and stderr never shows. */
void runner_report_note(struct run_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A job's targets checked, claimed, created and laid out (rank 0's or a single host's part). */
int runner_prepare_job(struct run_ctx *c, struct run_result *r, struct job_result *jr,
		       const struct run_opts *o);
/* A job runner_prepare_job left late (its file sized by an earlier group's writes): its targets now. */
int runner_prepare_late(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			const struct run_opts *o);
/* The other ranks' part: a shared file rank 0 laid out, a device its host's first rank holds. */
int runner_prepare_deferred(struct run_ctx *c, struct run_result *r, struct job_result *jr,
			    const struct run_opts *o);

/* Several ranks: the block devices a rank's jobs would write, checked before any rank opens one. */
struct interlock {
	struct run_ctx *c;
	struct run_result *r;
	const struct run_opts *o;
};
/* One rank's turn at the device interlock (cluster_host_turns). */
void runner_interlock_turn(void *arg);

#endif
