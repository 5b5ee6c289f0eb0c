/*
 * The body of `iogauge run`, shared with `iogauge fio` (fio.c): parsed jobs in,
 * one runner call, fio's logs, the reports out.  No command has a second one.
 */
#ifndef IOGAUGE_CMDS_RUN_H
#define IOGAUGE_CMDS_RUN_H

#include <stdbool.h>
#include <stdint.h>

struct command;
struct parsed_args;
struct run_live;

/* How the caller wants the run presented; all zero: `iogauge run`'s way. */
struct run_present {
	bool fio;        /* fio's stderr: no note on what fio does silently */
	bool readonly;   /* fio's --readonly: never create, lay out or write a file */
	bool keep;       /* keep the files iogauge created (fio's unlink=0) */
	/* A progress line of the caller's own (NULL: iogauge's on stderr when it is a terminal). */
	void (*progress)(void *arg, const struct run_live *l);
	void *progress_arg;
	void (*progress_end)(void *arg);
	/* After the reports, before the files close (fio's --bandwidth-log); returns an exit status. */
	int (*after)(void *arg, const struct run_result *r);
	void *after_arg;
};

/* Run pa's jobs and write the reports pa's settings ask for.  The exit status. */
int run_jobs(const struct command *cmd, struct parsed_args *pa, const struct run_present *p);

#endif
